/* SPDX-License-Identifier: ISC */
/*
 * test_canon.c -- canonical forms, transformations and shuffles,
 * against the test-side references: the brute-force minlex form and
 * its count of transformations (ref_minlex), the transformation as
 * sudoku.h defines it (ref_transform_apply), the checker's own random
 * equivalents (checker_shuffle), and a set known to hold no two
 * equivalent puzzles (the 49,158 17-clue puzzles of Royle's list).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_toolbox.h"

/* The grid with the most automorphisms (648), rows of the form a+3b. */
static const char canon_grid648[] =
	"123456789456789123789123456231564897564897231897231564"
	"312645978645978312978312645";

/*
 * Complete grids with automorphisms (2, 3, 6, 18, 54, 108): each made
 * invariant under a symmetry of the square or a translation of the
 * bands and stacks, with its digits permuted, then shuffled.  Only
 * inputs: the expectations come from the brute force.
 */
static const char *const canon_symmetric[] = {
	"697431825543268791128597346389652417251974638476183259912846573"
	"834715962765329184",
	"829136574751948326436527891214369758967851243583472169695713482"
	"348295617172684935",
	"364297185958163724712485963589316472643729518271854639895631247"
	"127548396436972851",
	"168954327945273681732186495657842139319765248824391576471538962"
	"583629714296417853",
	"576489132314275896982613754725968413163547289849321675231756948"
	"698134527457892361",
	"654239817872614593139875642246391785395728164718546329923187456"
	"587462931461953278",
};

/* Checks sudoku_canon() of g against the brute force. */
static void
canon_against_brute(const struct sudoku_grid *g, const char *what)
{
	struct sudoku_grid	 form, again, out;
	struct sudoku_transform	 t;
	unsigned long		 aut, aut2, want;
	uint8_t			 best[SUDOKU_CELLS];
	char			 s[SUDOKU_CELLS + 1], w[SUDOKU_CELLS + 1];
	int			 i;

	assert_int_equal(sudoku_canon(g, &form, &aut, &t), 0);
	want = ref_minlex(g->cell, best);
	if (memcmp(best, form.cell, SUDOKU_CELLS) != 0) {
		tb_text(&form, s);
		for (i = 0; i < SUDOKU_CELLS; i++)
			w[i] = (char)('0' + best[i]);
		w[SUDOKU_CELLS] = '\0';
		test_fail("%s: form %s, brute force %s", what, s, w);
	}
	if (aut != want)
		test_fail("%s: %lu automorphisms, brute force %lu", what, aut,
		    want);
	assert_true(ref_transform_valid(&t));
	ref_transform_apply(&t, g->cell, out.cell);
	assert_memory_equal(out.cell, form.cell, SUDOKU_CELLS);
	/* The form is its own form. */
	assert_int_equal(sudoku_canon(&form, &again, &aut2, NULL), 0);
	assert_memory_equal(&again, &form, sizeof form);
	assert_int_equal(aut2, aut);
}

void
test_canon_brute(void **state)
{
	static const char *const sets[] = { "puzzles2_17_clue",
	    "puzzles3_magictour_top1465", "puzzles6_forum_hardest_1106" };
	struct tb_set		 set;
	struct sudoku_grid	 g, sol;
	char			 what[64];
	size_t			 k, i;

	(void)state;
	for (k = 0; k < 3; k++) {
		tb_load(sets[k], &set);
		for (i = 0; i < 3; i++) {
			g = set.g[(i * 7919 + k) % set.n];
			snprintf(what, sizeof what, "%s #%zu", sets[k],
			    (i * 7919 + k) % set.n);
			canon_against_brute(&g, what);
		}
		/* A complete grid: the solution of the first puzzle. */
		assert_int_equal(tb_solutions(&set.g[0], &sol), 1);
		canon_against_brute(&sol, "a solution grid");
		/* Half of it. */
		for (i = 0; i < SUDOKU_CELLS; i += 2)
			sol.cell[i] = 0;
		canon_against_brute(&sol, "half a grid");
		tb_free(&set);
	}
	tb_puzzle(canon_grid648, &g);
	canon_against_brute(&g, "the 648 grid");
	for (i = 0; i < sizeof canon_symmetric / sizeof canon_symmetric[0];
	    i++) {
		tb_puzzle(canon_symmetric[i], &g);
		snprintf(what, sizeof what, "symmetric grid %zu", i);
		canon_against_brute(&g, what);
		/* Nearly complete: one cell blank. */
		g.cell[i * 13] = 0;
		canon_against_brute(&g, "a symmetric grid less a cell");
	}
	memset(&g, 0, sizeof g);
	canon_against_brute(&g, "the empty grid");
	g.cell[40] = 5;
	canon_against_brute(&g, "one given");
	g.cell[0] = 1;
	canon_against_brute(&g, "two givens");
	/* A whole band given, the rest blank: many automorphisms. */
	tb_puzzle(canon_grid648, &g);
	memset(g.cell + 27, 0, 54);
	canon_against_brute(&g, "one band");
}

/* Counts known without a search. */
void
test_canon_known(void **state)
{
	struct sudoku_grid	 g, form;
	unsigned long		 aut;
	int			 cell;

	(void)state;
	tb_puzzle(canon_grid648, &g);
	assert_int_equal(sudoku_canon(&g, &form, &aut, NULL), 0);
	assert_int_equal(aut, 648);
	/* Every transformation keeps the empty grid. */
	memset(&g, 0, sizeof g);
	assert_int_equal(sudoku_canon(&g, &form, &aut, NULL), 0);
	assert_int_equal(aut, 3359232);
	assert_memory_equal(&form, &g, sizeof g);
	/*
	 * One given anywhere: the transformations that keep its cell.
	 * Those keeping its row: its band first (2 orders of the others),
	 * its row first in the band (2), any order in the other two bands
	 * (36): 144; as many for columns; and the transposition, which
	 * keeps the cell if the row maps to the column as well: times 2.
	 * The form has the given last.
	 */
	for (cell = 0; cell < SUDOKU_CELLS; cell += 10) {
		memset(&g, 0, sizeof g);
		g.cell[cell] = (uint8_t)(cell % 9 + 1);
		assert_int_equal(sudoku_canon(&g, &form, &aut, NULL), 0);
		assert_int_equal(aut, 144UL * 144 * 2);
		assert_int_equal(form.cell[80], 1);
		assert_int_equal(tb_givens(&form), 1);
	}
}

/* Random equivalents made by the checker have the same form. */
void
test_canon_shuffled(void **state)
{
	struct tb_set		 set;
	struct sudoku_grid	 g, h, form, form2, sol;
	unsigned long		 aut, aut2;
	uint32_t		 rnd = 12345;
	size_t			 i, step;
	int			 k, n = 0;

	(void)state;
	tb_load("puzzles2_17_clue", &set);
	step = tb_slow() ? 500 : 100;
	for (i = 0; i < set.n; i += step) {
		g = set.g[i];
		assert_int_equal(sudoku_canon(&g, &form, &aut, NULL), 0);
		for (k = 0; k < 4; k++) {
			checker_shuffle(g.cell, &rnd, h.cell);
			assert_int_equal(sudoku_canon(&h, &form2, &aut2, NULL),
			    0);
			assert_memory_equal(&form, &form2, sizeof form);
			assert_int_equal(aut, aut2);
			n++;
		}
		if (i % (step * 20) == 0) {
			/* And complete grids. */
			assert_int_equal(tb_solutions(&g, &sol), 1);
			assert_int_equal(sudoku_canon(&sol, &form, &aut, NULL),
			    0);
			checker_shuffle(sol.cell, &rnd, h.cell);
			assert_int_equal(sudoku_canon(&h, &form2, &aut2, NULL),
			    0);
			assert_memory_equal(&form, &form2, sizeof form);
			assert_int_equal(aut, aut2);
		}
	}
	print_message("# canon: %d shuffled puzzles\n", n);
	tb_free(&set);
}

static int
canon_cmp(const void *a, const void *b)
{
	return (memcmp(a, b, SUDOKU_CELLS));
}

/*
 * Royle's 17-clue puzzles are pairwise inequivalent: all forms differ.
 * Each form is the transformation's image of its puzzle.
 */
void
test_canon_distinct(void **state)
{
	struct tb_set		 set;
	struct sudoku_transform	 t;
	struct sudoku_grid	*forms;
	uint8_t			 out[SUDOKU_CELLS];
	unsigned long		 aut, other = 0;
	size_t			 i;

	(void)state;
	tb_load("puzzles2_17_clue", &set);
	forms = calloc(set.n, sizeof *forms);
	assert_non_null(forms);
	for (i = 0; i < set.n; i++) {
		assert_int_equal(sudoku_canon(&set.g[i], &forms[i], &aut, &t),
		    0);
		other += aut != 1;
		if (i % 16 == 0 || aut != 1) {
			assert_true(ref_transform_valid(&t));
			ref_transform_apply(&t, set.g[i].cell, out);
			assert_memory_equal(out, forms[i].cell, SUDOKU_CELLS);
		}
	}
	qsort(forms, set.n, sizeof *forms, canon_cmp);
	for (i = 1; i < set.n; i++)
		if (memcmp(&forms[i - 1], &forms[i], sizeof forms[i]) == 0)
			test_fail("two 17-clue puzzles have the same form");
	print_message("# canon: %zu distinct forms, %lu with automorphisms\n",
	    set.n, other);
	free(forms);
	tb_free(&set);
}

void
test_canon_invalid(void **state)
{
	struct sudoku_grid	 g, form;
	unsigned long		 aut = 7;

	(void)state;
	memset(&form, 0xee, sizeof form);
	memset(&g, 0, sizeof g);
	g.cell[0] = g.cell[8] = 3;		/* a row */
	assert_int_equal(sudoku_canon(&g, &form, &aut, NULL), -1);
	memset(&g, 0, sizeof g);
	g.cell[0] = g.cell[72] = 3;		/* a column */
	assert_int_equal(sudoku_canon(&g, &form, &aut, NULL), -1);
	memset(&g, 0, sizeof g);
	g.cell[0] = g.cell[20] = 3;		/* a box only */
	assert_int_equal(sudoku_canon(&g, &form, &aut, NULL), -1);
	memset(&g, 0, sizeof g);
	g.cell[5] = 10;
	assert_int_equal(sudoku_canon(&g, &form, &aut, NULL), -1);
	assert_int_equal(aut, 7);
	assert_int_equal(form.cell[0], 0xee);
}

/* A random transformation, drawn by the test. */
static void
canon_random_transform(uint32_t *rnd, struct sudoku_transform *t)
{
	uint8_t	 outer[3], inner[3], v;
	int	 i, j, k, which;

	t->transpose = (uint8_t)(checker_random(rnd) & 1);
	for (which = 0; which < 2; which++) {
		for (i = 0; i < 3; i++)
			outer[i] = (uint8_t)i;
		for (i = 2; i > 0; i--) {
			j = (int)(checker_random(rnd) % (uint32_t)(i + 1));
			v = outer[i], outer[i] = outer[j], outer[j] = v;
		}
		for (i = 0; i < 3; i++) {
			for (k = 0; k < 3; k++)
				inner[k] = (uint8_t)k;
			for (k = 2; k > 0; k--) {
				j = (int)(checker_random(rnd) % (uint32_t)(k + 1));
				v = inner[k], inner[k] = inner[j], inner[j] = v;
			}
			for (k = 0; k < 3; k++)
				(which ? t->col : t->row)[i * 3 + k] =
				    (uint8_t)(outer[i] * 3 + inner[k]);
		}
	}
	for (i = 0; i <= 9; i++)
		t->digit[i] = (uint8_t)i;
	for (i = 9; i > 1; i--) {
		j = 1 + (int)(checker_random(rnd) % (uint32_t)i);
		v = t->digit[i], t->digit[i] = t->digit[j], t->digit[j] = v;
	}
}

void
test_transform_apply(void **state)
{
	struct sudoku_transform	 t, bad;
	struct sudoku_grid	 g, out, keep;
	uint8_t			 want[SUDOKU_CELLS];
	uint32_t		 rnd = 777;
	int			 i;

	(void)state;
	tb_puzzle(canon_grid648, &g);
	for (i = 0; i < 200; i++) {
		canon_random_transform(&rnd, &t);
		assert_true(ref_transform_valid(&t));
		ref_transform_apply(&t, g.cell, want);
		assert_int_equal(sudoku_transform_apply(&t, &g, &out), 0);
		assert_memory_equal(out.cell, want, SUDOKU_CELLS);
		/* out may be in. */
		keep = g;
		assert_int_equal(sudoku_transform_apply(&t, &keep, &keep), 0);
		assert_memory_equal(keep.cell, want, SUDOKU_CELLS);
	}
	memset(&out, 0xee, sizeof out);
	bad = t, bad.transpose = 2;
	assert_int_equal(sudoku_transform_apply(&bad, &g, &out), -1);
	bad = t, bad.digit[0] = 1;
	assert_int_equal(sudoku_transform_apply(&bad, &g, &out), -1);
	bad = t, bad.digit[1] = bad.digit[2];
	assert_int_equal(sudoku_transform_apply(&bad, &g, &out), -1);
	bad = t, bad.row[0] = bad.row[1];
	assert_int_equal(sudoku_transform_apply(&bad, &g, &out), -1);
	/* Rows 2 and 3 swapped: a permutation, but it breaks the bands. */
	for (i = 0; i < 9; i++)
		bad.row[i] = bad.col[i] = (uint8_t)i;
	bad.row[2] = 3;
	bad.row[3] = 2;
	assert_int_equal(sudoku_transform_apply(&bad, &g, &out), -1);
	bad.row[2] = 2, bad.row[3] = 3, bad.col[8] = 9;
	assert_int_equal(sudoku_transform_apply(&bad, &g, &out), -1);
	assert_int_equal(out.cell[0], 0xee);
}

/* sudoku_shuffle(): equivalent, the same solutions, seeded. */
void
test_shuffle(void **state)
{
	struct tb_set		 set;
	struct sudoku_transform	 t;
	struct sudoku_grid	 out, again, f1, f2, s1, s2, seen[50];
	uint8_t			 want[SUDOKU_CELLS];
	uint64_t		 seed;
	size_t			 i;
	int			 k, distinct = 0;

	(void)state;
	tb_load("puzzles3_magictour_top1465", &set);
	for (i = 0; i < set.n; i += 7) {
		seed = i * 0x9e3779b97f4a7c15ULL;
		sudoku_shuffle(&set.g[i], seed, &out, &t);
		assert_true(ref_transform_valid(&t));
		ref_transform_apply(&t, set.g[i].cell, want);
		assert_memory_equal(out.cell, want, SUDOKU_CELLS);
		sudoku_shuffle(&set.g[i], seed, &again, NULL);
		assert_memory_equal(&out, &again, sizeof out);
		assert_int_equal(sudoku_canon(&set.g[i], &f1, NULL, NULL), 0);
		assert_int_equal(sudoku_canon(&out, &f2, NULL, NULL), 0);
		assert_memory_equal(&f1, &f2, sizeof f1);
		assert_int_equal(tb_solutions(&set.g[i], &s1), 1);
		assert_int_equal(tb_solutions(&out, &s2), 1);
		ref_transform_apply(&t, s1.cell, want);
		assert_memory_equal(s2.cell, want, SUDOKU_CELLS);
	}
	/* Different seeds, different puzzles. */
	for (k = 0; k < 50; k++) {
		sudoku_shuffle(&set.g[0], (uint64_t)k, &seen[k], NULL);
		for (i = 0; i < (size_t)k; i++)
			if (memcmp(&seen[i], &seen[k], sizeof seen[k]) == 0)
				break;
		distinct += i == (size_t)k;
	}
	assert_int_equal(distinct, 50);
	tb_free(&set);
}

/*
 * SHUFFLE moves givens across bands and stacks, within them, and
 * transposes: four givens all in box 1 (three in its first row, one
 * under them), shuffled with 400 seeds, stay together in one box; over
 * the seeds they land in every box, their row of three in every row
 * and (transposed, a column of three) in every column, and the lone
 * given takes every digit.  Read from the output alone.
 */
void
test_shuffle_moves(void **state)
{
	struct sudoku_grid	 in, out;
	unsigned int		 boxes = 0, rows = 0, cols = 0, digits = 0;
	int			 seed, i, n, r, c, box, line[2][9];
	int			 lone;

	(void)state;
	/* Rows 1 and 2 as given, seven blank rows. */
	tb_puzzle("123......" "4........" "........................."
	    "......................................", &in);
	for (seed = 1; seed <= 400; seed++) {
		sudoku_shuffle(&in, (uint64_t)seed, &out, NULL);
		memset(line, 0, sizeof line);
		box = -1;
		for (i = n = 0; i < SUDOKU_CELLS; i++) {
			if (out.cell[i] == 0)
				continue;
			r = i / 9;
			c = i % 9;
			if (box != -1 && box != r / 3 * 3 + c / 3)
				test_fail("seed %d: givens in two boxes", seed);
			box = r / 3 * 3 + c / 3;
			line[0][r]++;
			line[1][c]++;
			n++;
		}
		assert_int_equal(n, 4);
		boxes |= 1u << box;
		for (i = 0; i < 9; i++) {
			rows |= (line[0][i] == 3) << i;
			cols |= (line[1][i] == 3) << i;
		}
		/*
		 * The lone given: alone in its row (column) and beside a
		 * given of the three in its column (row); each of those
		 * has three in its row (column).
		 */
		for (i = 0, lone = 0; i < SUDOKU_CELLS; i++)
			if (out.cell[i] != 0 &&
			    line[0][i / 9] + line[1][i % 9] == 3)
				lone = out.cell[i];
		assert_true(lone >= 1 && lone <= 9);
		digits |= 1u << lone;
	}
	if (boxes != 0x1ff || rows != 0x1ff || cols != 0x1ff ||
	    digits != 0x3fe)
		test_fail("over 400 seeds: boxes %03x, rows of three %03x, "
		    "columns of three %03x, digits %03x (all: 1ff, 1ff, 1ff, "
		    "3fe)", boxes, rows, cols, digits);
}
