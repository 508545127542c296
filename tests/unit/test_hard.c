/* SPDX-License-Identifier: ISC */
/*
 * test_hard.c -- counting hard puzzles: the search a count takes on
 * them (the triad step and the branching on a digit's place in a band,
 * src/core/solver_triad.h and solver_perms.h) against LEXMIN's search,
 * which has neither and is held to the checker's reference elsewhere
 * (test_sets.c, test_enum.c).  The puzzles: those of
 * puzzles6_forum_hardest_1106 ($PUZZLE_DIR), which a count takes that
 * way (55 to 64 cells open at its first fixpoint, few with two digits),
 * with one or two givens taken out (several solutions) or a digit put
 * in a blank (most often none).  Both walk every solution in turn
 * (sudoku_search_next()), up to HARD_MAX: the same set (when there are
 * fewer), each one checked, none twice; the count to 2 agrees, and its
 * first solution does not depend on the limit.  The
 * reference backtracker itself is too slow on these (a few thousand
 * nodes a puzzle at best, millions at worst).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_sudoku.h"

#ifndef TEST_PUZZLE_DIR
#define TEST_PUZZLE_DIR	"data"
#endif

#define HARD_PUZZLES	120	/* of the set, the first ones */
#define HARD_MAX	200	/* solutions compared per puzzle */
#define HARD_SEED	0x1106u

/* Every solution of in under policy, in turn, into sols; their number. */
static unsigned long
hard_walk(const struct sudoku_grid *in, enum sudoku_policy policy,
    uint8_t *sols, enum sudoku_result *end)
{
	struct sudoku_search	s;
	struct sudoku_grid	g;
	unsigned long		n = 0;

	assert_int_equal(sudoku_search_init(&s, in, policy, HARD_MAX, 0),
	    SUDOKU_MORE);
	while ((*end = sudoku_search_next(&s, 7, &g)) == SUDOKU_SOLVED ||
	    *end == SUDOKU_MORE)
		if (*end == SUDOKU_SOLVED) {
			assert_true(n < HARD_MAX);
			memcpy(sols + n++ * SUDOKU_CELLS, g.cell, SUDOKU_CELLS);
		}
	return (n);
}

static int
hard_cmp(const void *a, const void *b)
{
	return (memcmp(a, b, SUDOKU_CELLS));
}

/* The digits (bit d - 1) that cell c's row, column and box lack. */
static unsigned
hard_free(const struct sudoku_grid *in, int c)
{
	unsigned	 used = 0;
	int		 r = c / 9, col = c % 9, i;

	for (i = 0; i < 9; i++)
		used |= 1u << in->cell[r * 9 + i] | 1u << in->cell[i * 9 + col] |
		    1u << in->cell[(r / 3 * 3 + i / 3) * 9 + col / 3 * 3 + i % 3];
	return (~used >> 1 & 0x1ff);
}

/* Puzzle k of the set, changed: one or two givens out, or a digit in. */
static void
hard_puzzle(struct sudoku_grid *in, unsigned long k, uint32_t *rs)
{
	unsigned	 free;
	int		 c, j;

	if (k % 3 == 2) {
		/* A digit its row, column and box do not hold yet. */
		do
			c = (int)(checker_random(rs) % SUDOKU_CELLS);
		while (in->cell[c] != 0 || (free = hard_free(in, c)) == 0);
		for (j = (int)(checker_random(rs) % 9); !(free >> j & 1);
		    j = (j + 1) % 9)
			;
		in->cell[c] = (uint8_t)(j + 1);
		return;
	}
	for (j = 0; j <= (int)(k % 3); j++) {
		do
			c = (int)(checker_random(rs) % SUDOKU_CELLS);
		while (in->cell[c] == 0);
		in->cell[c] = 0;
	}
}

/* One puzzle: the count's solutions against LEXMIN's; their number. */
static unsigned long
hard_case(const struct sudoku_grid *in, unsigned long k, uint8_t *want,
    uint8_t *got)
{
	struct sudoku_grid	 first, first2;
	enum sudoku_result	 end;
	unsigned long		 nwant, ngot, n, i;
	char			 why[128];

	nwant = hard_walk(in, SUDOKU_LEXMIN, want, &end);
	ngot = hard_walk(in, SUDOKU_ANY, got, &end);
	if (ngot != nwant)
		test_fail("puzzle %lu: the count walks %lu solutions, LEXMIN "
		    "%lu", k, ngot, nwant);
	for (i = 0; i < ngot; i++)
		if (!checker_solution(in->cell, got + i * SUDOKU_CELLS, why,
		    sizeof why))
			test_fail("puzzle %lu, solution %lu: %s", k, i + 1, why);
	qsort(got, ngot, SUDOKU_CELLS, hard_cmp);
	for (i = 1; i < ngot; i++)
		if (memcmp(got + (i - 1) * SUDOKU_CELLS, got + i * SUDOKU_CELLS,
		    SUDOKU_CELLS) == 0)
			test_fail("puzzle %lu: a solution found twice", k);
	/* All of them (not the first HARD_MAX): the same ones. */
	if (nwant < HARD_MAX && memcmp(got, want, ngot * SUDOKU_CELLS) != 0)
		test_fail("puzzle %lu: not LEXMIN's %lu solutions", k, nwant);
	if (sudoku_count(in, 2, 0, &n, &first, NULL) !=
	    (nwant > 0 ? SUDOKU_SOLVED : SUDOKU_NOSOLUTION) ||
	    n != (nwant < 2 ? nwant : 2))
		test_fail("puzzle %lu: COUNT 2 gave %lu of %lu", k, n, nwant);
	if (nwant > 0 && (sudoku_count(in, HARD_MAX, 0, &n, &first2, NULL) !=
	    SUDOKU_SOLVED || n != nwant ||
	    memcmp(first.cell, first2.cell, SUDOKU_CELLS) != 0))
		test_fail("puzzle %lu: COUNT %d differs from COUNT 2", k,
		    HARD_MAX);
	return (nwant);
}

void
test_hard_counts(void **state)
{
	struct sudoku_grid	 in;
	uint8_t			*want, *got;
	unsigned long		 k = 0, n, kinds[3] = { 0, 0, 0 };
	uint32_t		 rs = HARD_SEED;
	char			 line[256], path[512];
	FILE			*f;

	(void)state;
	want = malloc(HARD_MAX * SUDOKU_CELLS);
	got = malloc(HARD_MAX * SUDOKU_CELLS);
	assert_non_null(want);
	assert_non_null(got);
	f = test_fopen("PUZZLE_DIR", TEST_PUZZLE_DIR,
	    "puzzles6_forum_hardest_1106", path, sizeof path);
	while (k < HARD_PUZZLES && fgets(line, sizeof line, f) != NULL) {
		if (line[0] == '#' || sudoku_parse(line, SUDOKU_CELLS, &in,
		    NULL) != 0)
			continue;
		hard_puzzle(&in, ++k, &rs);
		n = hard_case(&in, k, want, got);
		kinds[n < 2 ? n : 2]++;
	}
	fclose(f);
	free(want);
	free(got);
	print_message("# hard_counts: %lu puzzles: %lu with no solution, "
	    "%lu with one, %lu with several\n", k, kinds[0], kinds[1],
	    kinds[2]);
	assert_int_equal(k, HARD_PUZZLES);
	assert_true(kinds[0] >= 10 && kinds[2] >= 50);
}
