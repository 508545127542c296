/* SPDX-License-Identifier: ISC */
/*
 * test_genrules.c -- what generation with options refuses at once, and
 * what its budget counts (issue 34): sudoku_genx_check()'s reasons; the
 * refusals proved sound from outside (a pattern with two blank rows of
 * a band gives every grid a second solution, counted by the solver; a
 * pattern refused above easy gives puzzles that the test's own singles
 * solver fills, whatever the seed); and each new grid of a descent
 * counted as 12 guesses.
 */
#include <stdio.h>
#include <string.h>

#include "test_toolbox.h"

#define GEN_SLICE	1000000

/* The test's own PRNG (splitmix64), apart from the core's. */
static uint64_t
gr_rand(uint64_t *s)
{
	uint64_t	z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31));
}

/* n cells of 81 drawn at random, as a pattern. */
static void
gr_pattern(uint64_t *s, int n, uint8_t *pattern)
{
	int	 i, k;

	memset(pattern, 0, SUDOKU_CELLS);
	for (i = 0; i < n; ) {
		k = (int)(gr_rand(s) % SUDOKU_CELLS);
		if (!pattern[k]) {
			pattern[k] = 1;
			i++;
		}
	}
}

/* Can digit d go in cell c of g? */
static int
gr_fits(const struct sudoku_grid *g, int c, int d)
{
	int	 i, r = c / 9, col = c % 9, b = r / 3 * 27 + col / 3 * 3;

	for (i = 0; i < 9; i++)
		if (g->cell[r * 9 + i] == d || g->cell[i * 9 + col] == d ||
		    g->cell[b + i / 3 * 9 + i % 3] == d)
			return (0);
	return (1);
}

/*
 * The test's own singles: a cell with one digit that fits, or a digit
 * with one cell of a row, column or box where it fits, placed until
 * none is left.  1 if that fills the grid.
 */
static int
gr_singles(struct sudoku_grid g)
{
	int	 c, d, u, k, at, n, placed = 1, cell;

	while (placed) {
		placed = 0;
		for (c = 0; c < SUDOKU_CELLS; c++) {
			if (g.cell[c] != 0)
				continue;
			for (d = 1, n = 0, at = 0; d <= 9; d++)
				if (gr_fits(&g, c, d))
					n++, at = d;
			if (n == 1)
				g.cell[c] = (uint8_t)at, placed = 1;
		}
		for (u = 0; u < 27; u++)
			for (d = 1; d <= 9; d++) {
				for (k = 0, n = 0, at = -1; k < 9; k++) {
					cell = u < 9 ? u * 9 + k : u < 18 ?
					    k * 9 + u - 9 : (u - 18) / 3 * 27 +
					    (u - 18) % 3 * 3 + k / 3 * 9 + k % 3;
					if (g.cell[cell] == d)
						n = 9;
					else if (g.cell[cell] == 0 &&
					    gr_fits(&g, cell, d))
						n++, at = cell;
				}
				if (n == 1)
					g.cell[at] = (uint8_t)d, placed = 1;
			}
	}
	for (c = 0; c < SUDOKU_CELLS; c++)
		if (g.cell[c] == 0)
			return (0);
	return (1);
}

/* The reason's first words, or "" for none. */
static void
gr_refused(const struct sudoku_gen_opts *o, enum sudoku_level level,
    const char *want)
{
	const char	*why = sudoku_genx_check(o, level);
	struct sudoku_genx x;

	if (*want == '\0') {
		if (why != NULL)
			test_fail("refused: %s", why);
		assert_int_equal(sudoku_genx_init(&x, 1, level, 0, o), 0);
		return;
	}
	if (why == NULL || strncmp(why, want, strlen(want)) != 0)
		test_fail("want \"%s...\", got \"%s\"", want,
		    why != NULL ? why : "(accepted)");
	assert_int_equal(sudoku_genx_init(&x, 1, level, 0, o), -1);
}

void
test_genx_check(void **state)
{
	struct sudoku_gen_opts	 o, zero;
	int			 i;

	(void)state;
	memset(&zero, 0, sizeof zero);
	gr_refused(&zero, SUDOKU_LEVEL_EXTREME, "");
	o = zero, o.clues_max = 16;
	gr_refused(&o, SUDOKU_LEVEL_EASY, "the number of givens");
	o = zero, o.clues_min = 78;
	gr_refused(&o, SUDOKU_LEVEL_MEDIUM, "with 78 givens or more");
	gr_refused(&o, SUDOKU_LEVEL_EASY, "");
	gr_refused(&o, SUDOKU_LEVEL_ANY, "");
	o.clues_min = 77;
	gr_refused(&o, SUDOKU_LEVEL_MEDIUM, "");
	/* Every cell given: a complete grid, easy only. */
	o = zero, o.use_pattern = 1;
	memset(o.pattern, 1, sizeof o.pattern);
	gr_refused(&o, SUDOKU_LEVEL_HARD, "every puzzle with that pattern "
	    "is easy");
	gr_refused(&o, SUDOKU_LEVEL_EASY, "");
	/* Rows 4 and 6 blank (band 2); then columns 1 and 3 (stack 1). */
	for (i = 27; i < 36; i++)
		o.pattern[i] = o.pattern[i + 18] = 0;
	gr_refused(&o, SUDOKU_LEVEL_EASY, "the pattern has two blank rows");
	memset(o.pattern, 1, sizeof o.pattern);
	for (i = 0; i < 9; i++)
		o.pattern[i * 9] = o.pattern[i * 9 + 2] = 0;
	gr_refused(&o, SUDOKU_LEVEL_ANY, "the pattern has two blank rows");
	/* Rows 4 and 7, of two bands: fine for easy; not the twins. */
	memset(o.pattern, 1, sizeof o.pattern);
	for (i = 27; i < 36; i++)
		o.pattern[i] = o.pattern[i + 27] = 0;
	gr_refused(&o, SUDOKU_LEVEL_EASY, "");
	/* Every third column blank: a stall is possible, so not refused. */
	for (i = 0; i < SUDOKU_CELLS; i++)
		o.pattern[i] = i % 3 != 0;
	gr_refused(&o, SUDOKU_LEVEL_EXTREME, "");
	for (i = 0; i < SUDOKU_CELLS; i++)
		o.pattern[i] = i < 16;
	gr_refused(&o, SUDOKU_LEVEL_EASY, "a pattern needs at least 17");
}

/*
 * Two blank rows of one band: whatever the digits in the other cells
 * (those of shuffled complete grids here), swapping the two rows gives a
 * second solution, which the solver finds.
 */
void
test_genx_twins(void **state)
{
	struct sudoku_grid	 g, full;
	uint64_t		 s = 34;
	int			 i, k, r1, r2, band;

	(void)state;
	tb_puzzle("534678912672195348198342567859761423426853791"
	    "713924856961537284287419635345286179", &full);
	for (k = 0; k < 200; k++) {
		sudoku_shuffle(&full, gr_rand(&s), &g, NULL);
		band = (int)(gr_rand(&s) % 3);
		r1 = band * 3 + (int)(gr_rand(&s) % 3);
		r2 = band * 3 + (r1 % 3 + 1 + (int)(gr_rand(&s) % 2)) % 3;
		for (i = 0; i < 9; i++)
			g.cell[r1 * 9 + i] = g.cell[r2 * 9 + i] = 0;
		assert_int_equal(tb_solutions(&g, NULL), 2);
	}
}

/*
 * Patterns that sudoku_genx_check() refuses above easy (dense random
 * ones): every puzzle generated on them, any level, is filled by the
 * test's own singles; and each is indeed refused for medium.
 */
void
test_genx_singles(void **state)
{
	struct sudoku_gen_opts	 o;
	struct sudoku_genx	 x;
	struct sudoku_grid	 p;
	struct sudoku_rating	 r;
	uint64_t		 s = 7;
	int			 n, seen = 0, tries;

	(void)state;
	memset(&o, 0, sizeof o);
	o.use_pattern = 1;
	for (tries = 0; seen < 12 && tries < 2000; tries++) {
		n = 45 + (int)(gr_rand(&s) % 30);
		gr_pattern(&s, n, o.pattern);
		if (sudoku_genx_check(&o, SUDOKU_LEVEL_MEDIUM) == NULL ||
		    sudoku_genx_check(&o, SUDOKU_LEVEL_ANY) != NULL)
			continue;
		assert_int_equal(sudoku_genx_init(&x, gr_rand(&s),
		    SUDOKU_LEVEL_ANY, 0, &o), 0);
		if (sudoku_genx_run(&x, GEN_SLICE, &p, &r) !=
		    SUDOKU_GEN_FOUND)
			test_fail("%d cells: no puzzle", n);
		assert_int_equal(tb_solutions(&p, NULL), 1);
		if (!gr_singles(p))
			test_fail("%d cells: singles do not fill it", n);
		assert_int_equal(r.level, SUDOKU_LEVEL_EASY);
		seen++;
	}
	assert_int_equal(seen, 12);
}

/*
 * The budget of a descent: each new grid counts 12 guesses, so a budget
 * of B starts at most B / 12 of them (descents given up, plus the one
 * that keeps its puzzle).  Before, a dense pattern's descents made
 * nearly no guesses, and thousands ran on a budget of 5000.
 */
void
test_genx_charges(void **state)
{
	struct sudoku_gen_opts	 o;
	struct sudoku_genx	 x;
	struct sudoku_grid	 p;
	int			 i;

	(void)state;
	memset(&o, 0, sizeof o);
	o.use_pattern = 1;
	for (i = 0; i < SUDOKU_CELLS; i++)
		o.pattern[i] = i % 3 != 0;
	assert_int_equal(sudoku_genx_init(&x, 11, SUDOKU_LEVEL_EXTREME, 5000,
	    &o), 0);
	assert_int_equal(sudoku_genx_run(&x, GEN_SLICE, &p, NULL),
	    SUDOKU_GEN_BUDGET);
	assert_int_equal(x.gen.spent, 5000);
	if (12 * x.rejected > 5000)
		test_fail("%lu descents given up on a budget of 5000",
		    x.rejected);
	assert_int_equal(sudoku_genx_init(&x, 3, SUDOKU_LEVEL_ANY, 0, &o), 0);
	assert_int_equal(sudoku_genx_run(&x, GEN_SLICE, &p, NULL),
	    SUDOKU_GEN_FOUND);
	assert_true(x.gen.spent >= 12 * (x.rejected + 1));
}
