/* SPDX-License-Identifier: ISC */
/*
 * test_symgen.c -- symmetries of the pattern and generation with
 * options.  Every generated puzzle is checked from outside: its pattern
 * by the test's own maps of the square (ref_sym_holds), its one
 * solution by the solver and checker_solution(), its minimality under
 * the symmetry by removing each orbit the test computes itself
 * (ref_sym_orbits), its level by sudoku_rate(); and each answer is the
 * same twice for the same seed.
 */
#include <stdio.h>
#include <string.h>

#include "test_toolbox.h"

#define GEN_SLICE	1000000

static const char *const sym_names[SUDOKU_SYM_COUNT] = { "none", "rot180",
	"rot90", "mirror", "flip", "diagonal", "antidiagonal", "dihedral" };

void
test_sym_names(void **state)
{
	enum sudoku_symmetry	 s;
	char			 up[32];
	int			 i, k;

	(void)state;
	for (i = 0; i < SUDOKU_SYM_COUNT; i++) {
		assert_string_equal(sudoku_symmetry_name(i), sym_names[i]);
		assert_int_equal(sudoku_symmetry_parse(sym_names[i],
		    strlen(sym_names[i]), &s), 0);
		assert_int_equal(s, i);
		for (k = 0; sym_names[i][k] != '\0'; k++)
			up[k] = (char)(sym_names[i][k] >= 'a' ?
			    sym_names[i][k] - 32 : sym_names[i][k]);
		assert_int_equal(sudoku_symmetry_parse(up, (size_t)k, &s), 0);
		assert_int_equal(s, i);
		/* A prefix, or one byte more, is not a name. */
		assert_int_equal(sudoku_symmetry_parse(sym_names[i],
		    strlen(sym_names[i]) - 1, &s), -1);
		assert_int_equal(sudoku_symmetry_parse("rot1800", 7, &s), -1);
	}
	assert_int_equal(sudoku_symmetry_parse("", 0, &s), -1);
	assert_int_equal(sudoku_symmetry_parse("none ", 5, &s), -1);
	/* Only letters fold: 0x11 | 0x20 is '1' (found by fuzz_pattern). */
	assert_int_equal(sudoku_symmetry_parse("rot\02180", 6, &s), -1);
	assert_int_equal(sudoku_symmetry_parse("ROT180", 6, &s), 0);
	assert_string_equal(sudoku_symmetry_name(SUDOKU_SYM_COUNT), "unknown");
}

/* A random pattern invariant under s: whole orbits, each with odds 1/3. */
static void
sym_random_pattern(enum sudoku_symmetry s, uint32_t *rnd, uint8_t *p)
{
	uint8_t	 orbit[SUDOKU_CELLS], take[SUDOKU_CELLS];
	int	 cell;

	ref_sym_orbits(s, orbit);
	for (cell = 0; cell < SUDOKU_CELLS; cell++)
		take[cell] = checker_random(rnd) % 3 == 0;
	for (cell = 0; cell < SUDOKU_CELLS; cell++)
		p[cell] = take[orbit[cell]];
}

void
test_sym_holds(void **state)
{
	static const int	 orbits[SUDOKU_SYM_COUNT] = { 81, 41, 21, 45,
				    45, 45, 45, 15 };
	uint8_t			 p[SUDOKU_CELLS], orbit[SUDOKU_CELLS];
	uint32_t		 rnd = 99;
	int			 s, t, k, cell;

	(void)state;
	for (s = 0; s < SUDOKU_SYM_COUNT; s++) {
		assert_int_equal(ref_sym_orbits(s, orbit), orbits[s]);
		for (k = 0; k < 200; k++) {
			sym_random_pattern(s, &rnd, p);
			assert_true(ref_sym_holds(s, p));
			for (t = 0; t < SUDOKU_SYM_COUNT; t++)
				if (sudoku_symmetry_holds(t, p) !=
				    ref_sym_holds(t, p))
					test_fail("%s pattern, %s: %d", sym_names[s],
					    sym_names[t], !ref_sym_holds(t, p));
		}
	}
	/* Random patterns: almost never symmetric, never wrongly so. */
	for (k = 0; k < 200; k++) {
		for (cell = 0; cell < SUDOKU_CELLS; cell++)
			p[cell] = checker_random(&rnd) & 1;
		for (t = 0; t < SUDOKU_SYM_COUNT; t++)
			assert_int_equal(sudoku_symmetry_holds(t, p),
			    ref_sym_holds(t, p));
	}
	assert_int_equal(sudoku_symmetry_holds(SUDOKU_SYM_COUNT, p), 0);
}

void
test_pattern_parse(void **state)
{
	struct sudoku_perror	 e;
	uint8_t			 p[SUDOKU_CELLS], keep[SUDOKU_CELLS];
	char			 s[SUDOKU_CELLS + 2];
	int			 i;

	(void)state;
	for (i = 0; i < SUDOKU_CELLS; i++)
		s[i] = "xX.0123456789"[i % 13];
	s[SUDOKU_CELLS] = '\0';
	assert_int_equal(sudoku_pattern_parse(s, SUDOKU_CELLS, p, &e), 0);
	for (i = 0; i < SUDOKU_CELLS; i++)
		assert_int_equal(p[i], s[i] != '.' && s[i] != '0');
	memcpy(keep, p, sizeof p);
	assert_int_equal(sudoku_pattern_parse(s, 80, p, &e), -1);
	assert_int_equal(e.kind, SUDOKU_PERR_LENGTH);
	assert_int_equal(e.length, 80);
	s[37] = 'y';
	assert_int_equal(sudoku_pattern_parse(s, SUDOKU_CELLS, p, &e), -1);
	assert_int_equal(e.kind, SUDOKU_PERR_CHAR);
	assert_int_equal(e.pos, 37);
	assert_int_equal(e.byte, 'y');
	s[37] = 'x';
	s[3] = ' ';
	assert_int_equal(sudoku_pattern_parse(s, SUDOKU_CELLS, p, NULL), -1);
	assert_memory_equal(p, keep, sizeof p);
}

/* Generates; asserts that it is found, and the same the second time. */
static void
sym_generate(uint64_t seed, enum sudoku_level level,
    const struct sudoku_gen_opts *o, struct sudoku_grid *p,
    struct sudoku_rating *r)
{
	struct sudoku_genx	 x, y;
	struct sudoku_grid	 q;

	assert_int_equal(sudoku_genx_init(&x, seed, level, 0, o), 0);
	if (sudoku_genx_run(&x, GEN_SLICE, p, r) != SUDOKU_GEN_FOUND)
		test_fail("seed %llu %s %s: not found in %lu attempts",
		    (unsigned long long)seed, sudoku_level_name(level),
		    sym_names[o->symmetry], x.gen.attempts);
	assert_true(x.gen.spent <= x.gen.budget);
	assert_int_equal(sudoku_genx_init(&y, seed, level, 0, o), 0);
	assert_int_equal(sudoku_genx_run(&y, GEN_SLICE, &q, NULL),
	    SUDOKU_GEN_FOUND);
	assert_memory_equal(p, &q, sizeof q);
	assert_int_equal(x.gen.attempts, y.gen.attempts);
}

/*
 * Unique, symmetric, of the level asked (unless any), and no orbit
 * can go without a second solution -- or, with a lower bound on the
 * givens, without going below it.
 */
static void
sym_check(const struct sudoku_grid *p, enum sudoku_level level,
    enum sudoku_symmetry s, int floor)
{
	struct sudoku_grid	 q;
	struct sudoku_rating	 r;
	uint8_t			 orbit[SUDOKU_CELLS];
	char			 text[SUDOKU_CELLS + 1];
	int			 o, cell, size, givens = tb_givens(p);

	tb_text(p, text);
	if (!ref_sym_holds(s, p->cell))
		test_fail("%s: not %s", text, sym_names[s]);
	if (tb_solutions(p, NULL) != 1)
		test_fail("%s: not one solution", text);
	assert_int_equal(sudoku_rate(p, 0, &r), SUDOKU_SOLVED);
	if (level != SUDOKU_LEVEL_ANY && r.level != level)
		test_fail("%s: rated %s, asked %s", text,
		    sudoku_level_name(r.level), sudoku_level_name(level));
	ref_sym_orbits(s, orbit);
	for (o = 0; o < SUDOKU_CELLS; o++) {
		if (orbit[o] != o || p->cell[o] == 0)
			continue;
		q = *p;
		for (cell = size = 0; cell < SUDOKU_CELLS; cell++)
			if (orbit[cell] == o) {
				q.cell[cell] = 0;
				size++;
			}
		if (givens - size >= floor && tb_solutions(&q, NULL) != 2)
			test_fail("%s: not minimal under %s, the orbit of "
			    "r%dc%d can go", text, sym_names[s], o / 9 + 1,
			    o % 9 + 1);
	}
}

/* No options: exactly sudoku_gen_init()'s puzzles. */
void
test_genx_plain(void **state)
{
	struct sudoku_gen_opts	 zero;
	struct sudoku_genx	 x;
	struct sudoku_gen	 gen;
	struct sudoku_grid	 p, q;
	struct sudoku_rating	 r, r2;
	uint64_t		 seed;
	int			 level, k;

	(void)state;
	memset(&zero, 0, sizeof zero);
	for (level = 0; level < SUDOKU_LEVEL_COUNT; level++)
		for (seed = 1; seed <= 4; seed++) {
			sudoku_gen_init(&gen, seed, level, 0);
			assert_int_equal(sudoku_gen_run(&gen, GEN_SLICE, &p,
			    &r), SUDOKU_GEN_FOUND);
			for (k = 0; k < 2; k++) {
				assert_int_equal(sudoku_genx_init(&x, seed,
				    level, 0, k ? &zero : NULL), 0);
				assert_int_equal(sudoku_genx_run(&x, GEN_SLICE,
				    &q, &r2), SUDOKU_GEN_FOUND);
				assert_memory_equal(&p, &q, sizeof p);
				assert_memory_equal(&r, &r2, sizeof r);
				assert_int_equal(x.gen.attempts, gen.attempts);
				assert_int_equal(x.gen.spent, gen.spent);
				assert_int_equal(x.rejected, 0);
			}
		}
}

void
test_genx_symmetric(void **state)
{
	struct sudoku_gen_opts	 o;
	struct sudoku_grid	 p;
	struct sudoku_rating	 r;
	uint64_t		 seed;
	int			 s, level, n = 0;

	(void)state;
	memset(&o, 0, sizeof o);
	for (s = 0; s < SUDOKU_SYM_COUNT; s++) {
		o.symmetry = s;
		for (level = 0; level < SUDOKU_LEVEL_COUNT; level++)
			for (seed = 1; seed <= 2; seed++) {
				sym_generate(seed * 1000 + (uint64_t)s, level,
				    &o, &p, &r);
				sym_check(&p, level, s, 0);
				n++;
			}
	}
	print_message("# genx: %d symmetric puzzles\n", n);
}

void
test_genx_clues(void **state)
{
	struct sudoku_gen_opts	 o;
	struct sudoku_grid	 p;
	struct sudoku_rating	 r;
	uint64_t		 seed;

	(void)state;
	memset(&o, 0, sizeof o);
	for (seed = 1; seed <= 3; seed++) {
		/* A floor above what removal would reach. */
		o.symmetry = SUDOKU_SYM_NONE;
		o.clues_min = 32;
		o.clues_max = 0;
		sym_generate(seed, SUDOKU_LEVEL_ANY, &o, &p, &r);
		assert_true(tb_givens(&p) >= 32);
		sym_check(&p, SUDOKU_LEVEL_ANY, o.symmetry, 32);
		o.symmetry = SUDOKU_SYM_ROT180;
		o.clues_min = 33;
		sym_generate(seed, SUDOKU_LEVEL_EASY, &o, &p, &r);
		assert_true(tb_givens(&p) >= 33);
		sym_check(&p, SUDOKU_LEVEL_EASY, o.symmetry, 33);
		/* A ceiling: fewer givens than most minimal puzzles. */
		o.symmetry = SUDOKU_SYM_NONE;
		o.clues_min = 0;
		o.clues_max = 23;
		sym_generate(seed, SUDOKU_LEVEL_MEDIUM, &o, &p, &r);
		assert_true(tb_givens(&p) <= 23);
		sym_check(&p, SUDOKU_LEVEL_MEDIUM, o.symmetry, 0);
		/* Both, with a symmetry. */
		o.symmetry = SUDOKU_SYM_MIRROR;
		o.clues_min = 26;
		o.clues_max = 28;
		sym_generate(seed, SUDOKU_LEVEL_ANY, &o, &p, &r);
		assert_true(tb_givens(&p) >= 26 && tb_givens(&p) <= 28);
		sym_check(&p, SUDOKU_LEVEL_ANY, o.symmetry, 26);
	}
}

/* The pattern of a generated puzzle: the puzzle's own shape. */
static void
sym_pattern_of(uint64_t seed, enum sudoku_symmetry s, uint8_t *pattern)
{
	struct sudoku_gen_opts	 o;
	struct sudoku_grid	 p;
	struct sudoku_rating	 r;
	int			 i;

	memset(&o, 0, sizeof o);
	o.symmetry = s;
	sym_generate(seed, SUDOKU_LEVEL_ANY, &o, &p, &r);
	for (i = 0; i < SUDOKU_CELLS; i++)
		pattern[i] = p.cell[i] != 0;
}

void
test_genx_pattern(void **state)
{
	struct sudoku_gen_opts	 o;
	struct sudoku_grid	 p;
	struct sudoku_rating	 r;
	uint64_t		 seed;
	int			 i, level;

	(void)state;
	memset(&o, 0, sizeof o);
	o.use_pattern = 1;
	for (seed = 1; seed <= 6; seed++) {
		/* 24-odd cells with no symmetry, then 27-odd with one. */
		sym_pattern_of(seed + 50, seed & 1 ? SUDOKU_SYM_NONE :
		    SUDOKU_SYM_ROT180, o.pattern);
		o.symmetry = seed & 1 ? SUDOKU_SYM_NONE : SUDOKU_SYM_ROT180;
		level = seed <= 2 ? SUDOKU_LEVEL_ANY : (int)(seed % 3);
		sym_generate(seed, level, &o, &p, &r);
		for (i = 0; i < SUDOKU_CELLS; i++)
			if ((p.cell[i] != 0) != o.pattern[i])
				test_fail("r%dc%d: given %d, pattern %d",
				    i / 9 + 1, i % 9 + 1, p.cell[i] != 0,
				    o.pattern[i]);
		assert_int_equal(tb_solutions(&p, NULL), 1);
		assert_int_equal(sudoku_rate(&p, 0, &r), SUDOKU_SOLVED);
		if (level != SUDOKU_LEVEL_ANY)
			assert_int_equal(r.level, level);
	}
}

/* Options no puzzle meets: refused at once, nothing run. */
void
test_genx_refused(void **state)
{
	struct sudoku_gen_opts	 o, ok;
	struct sudoku_genx	 x;
	struct sudoku_grid	 p;
	int			 i, k;

	(void)state;
	memset(&ok, 0, sizeof ok);
	for (k = 0; k < 9; k++) {
		o = ok;
		switch (k) {
		case 0: o.symmetry = SUDOKU_SYM_COUNT; break;
		case 1: o.clues_max = 16; break;
		case 2: o.clues_max = 82; break;
		case 3: o.clues_min = 40, o.clues_max = 30; break;
		case 4: o.clues_min = 82; break;
		case 5:	/* 16 cells */
			o.use_pattern = 1;
			for (i = 0; i < 16; i++)
				o.pattern[i * 5] = 1;
			break;
		case 6:	/* not invariant under a half turn */
			o.use_pattern = 1;
			o.symmetry = SUDOKU_SYM_ROT180;
			for (i = 0; i < 30; i++)
				o.pattern[i] = 1;
			break;
		case 7:	/* 30 cells, at most 25 givens */
			o.use_pattern = 1;
			o.clues_max = 25;
			for (i = 0; i < 30; i++)
				o.pattern[i] = 1;
			break;
		default:
			break;
		}
		assert_int_equal(sudoku_genx_init(&x, 1, k == 8 ? 99 :
		    SUDOKU_LEVEL_EASY, 0, &o), -1);
		assert_int_equal(sudoku_genx_run(&x, 10, &p, NULL),
		    SUDOKU_GEN_BUDGET);
		assert_int_equal(x.gen.attempts, 0);
		assert_int_equal(sudoku_genx_best(&x, &p, NULL), -1);
	}
	/* The bounds themselves are fine. */
	o = ok, o.clues_min = 17, o.clues_max = 81;
	assert_int_equal(sudoku_genx_init(&x, 1, SUDOKU_LEVEL_ANY, 0, &o), 0);
	/* A ceiling no random attempt meets: the budget runs out. */
	o = ok, o.clues_max = 17;
	assert_int_equal(sudoku_genx_init(&x, 1, SUDOKU_LEVEL_ANY, 3000, &o),
	    0);
	assert_int_equal(sudoku_genx_run(&x, GEN_SLICE, &p, NULL),
	    SUDOKU_GEN_BUDGET);
	assert_true(x.gen.spent <= 3000);
	assert_int_equal(x.rejected, x.gen.attempts);
	assert_int_equal(sudoku_genx_best(&x, &p, NULL), -1);
}

/* The best so far is of a level as near as any kept one. */
void
test_genx_best(void **state)
{
	struct sudoku_gen_opts	 o;
	struct sudoku_genx	 x;
	struct sudoku_grid	 p, b;
	struct sudoku_rating	 r, br;
	enum sudoku_gen_result	 res;
	int			 l, d, near, want = SUDOKU_LEVEL_EXTREME;

	(void)state;
	memset(&o, 0, sizeof o);
	o.symmetry = SUDOKU_SYM_DIHEDRAL;	/* extreme is rare: 0.3 % */
	assert_int_equal(sudoku_genx_init(&x, 3, want, 0, &o), 0);
	assert_int_equal(sudoku_genx_best(&x, &b, &br), -1);
	do {
		res = sudoku_genx_run(&x, 1, &p, &r);
		assert_int_equal(sudoku_genx_best(&x, &b, &br), 0);
		for (near = 9, l = 0; l < SUDOKU_LEVEL_COUNT; l++) {
			d = l > want ? l - want : want - l;
			if (x.gen.seen[l] > 0 && d < near)
				near = d;
		}
		assert_int_equal(want - (int)br.level, near);
	} while (res == SUDOKU_GEN_MORE);
	assert_int_equal(res, SUDOKU_GEN_FOUND);
	assert_true(x.gen.attempts > 10);
	assert_memory_equal(&b, &p, sizeof p);
	assert_memory_equal(&br, &r, sizeof r);
	sym_check(&b, want, o.symmetry, 0);
}

/* One attempt per call gives what one call for all gives. */
void
test_genx_slices(void **state)
{
	struct sudoku_gen_opts	 o;
	struct sudoku_genx	 x, y;
	struct sudoku_grid	 p, q;
	enum sudoku_gen_result	 res;

	(void)state;
	memset(&o, 0, sizeof o);
	o.symmetry = SUDOKU_SYM_ROT90;
	assert_int_equal(sudoku_genx_init(&x, 7, SUDOKU_LEVEL_HARD, 0, &o), 0);
	assert_int_equal(sudoku_genx_run(&x, GEN_SLICE, &p, NULL),
	    SUDOKU_GEN_FOUND);
	assert_int_equal(sudoku_genx_init(&y, 7, SUDOKU_LEVEL_HARD, 0, &o), 0);
	while ((res = sudoku_genx_run(&y, 1, &q, NULL)) == SUDOKU_GEN_MORE) {
		/* The state is plain data: a copy goes on just the same. */
		memcpy(&x, &y, sizeof x);
		memset(&y, 0xa5, sizeof y);
		memcpy(&y, &x, sizeof y);
	}
	assert_int_equal(res, SUDOKU_GEN_FOUND);
	assert_memory_equal(&p, &q, sizeof p);
}
