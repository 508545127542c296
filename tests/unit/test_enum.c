/* SPDX-License-Identifier: ISC */
/*
 * test_enum.c -- every solution in turn (sudoku_search_next()) and
 * searches from pencil marks (sudoku_search_init_cands()), against the
 * checker's reference search, which knows nothing of either: the same
 * solutions, in the same (lexicographic) order with SUDOKU_LEXMIN, each
 * one checked, whatever the slices.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_sudoku.h"

/* Puzzles with a few to many solutions: givens cut from a known one. */
static const char *const enum_puzzles[] = {
	/* Norvig's example with givens taken out: 7 and 49 solutions. */
	"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28.."
	    "............8..79",
	"53..7....6..195....98....6.8...6...34..8.3..17...2...6.......8.."
	    "....9..5....8..79",
	/* One solution. */
	"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28.."
	    "..419..5....8..79",
	/* None: 1-8 in row 1, 9 in column 9. */
	"12345678.........9.............................................."
	    ".................",
};

#define ENUM_MAX	300		/* solutions compared per puzzle */

/* All solutions of s in turn, slice guesses at a time, into sols. */
static unsigned long
enum_walk(struct sudoku_search *s, uint64_t slice, uint8_t *sols,
    enum sudoku_result *end)
{
	struct sudoku_grid	g;
	enum sudoku_result	r;
	unsigned long		n = 0;

	while ((r = sudoku_search_next(s, slice, &g)) == SUDOKU_SOLVED ||
	    r == SUDOKU_MORE) {
		if (r == SUDOKU_MORE)
			continue;
		assert_true(n < ENUM_MAX);
		memcpy(sols + n++ * SUDOKU_CELLS, g.cell, SUDOKU_CELLS);
	}
	*end = r;
	return (n);
}

static void
enum_same(const char *what, const uint8_t *want, unsigned long nwant,
    const uint8_t *got, unsigned long ngot)
{
	unsigned long	i;

	if (ngot != nwant)
		test_fail("%s: %lu solutions, the reference has %lu", what,
		    ngot, nwant);
	for (i = 0; i < nwant; i++)
		if (memcmp(want + i * SUDOKU_CELLS, got + i * SUDOKU_CELLS,
		    SUDOKU_CELLS) != 0)
			test_fail("%s: solution %lu differs", what, i + 1);
}

/* LEXMIN: the reference's solutions, in its (lexicographic) order. */
void
test_enum_lexmin(void **state)
{
	static const uint64_t	 slices[] = { 0, 1, 5 };
	struct sudoku_search	 s;
	struct sudoku_grid	 in;
	enum sudoku_result	 end;
	uint8_t			*want, *got;
	unsigned long		 nwant, ngot;
	size_t			 i, k;
	char			 what[64];

	(void)state;
	want = malloc(ENUM_MAX * SUDOKU_CELLS);
	got = malloc(ENUM_MAX * SUDOKU_CELLS);
	assert_non_null(want);
	assert_non_null(got);
	for (i = 0; i < sizeof enum_puzzles / sizeof enum_puzzles[0]; i++) {
		test_grid(enum_puzzles[i], &in);
		assert_int_equal(checker_search_all(in.cell, ENUM_MAX, 50000000,
		    &nwant, want), 0);
		for (k = 0; k < sizeof slices / sizeof slices[0]; k++) {
			assert_int_equal(sudoku_search_init(&s, &in,
			    SUDOKU_LEXMIN, ENUM_MAX, 0), SUDOKU_MORE);
			ngot = enum_walk(&s, slices[k], got, &end);
			snprintf(what, sizeof what, "puzzle %zu, slice %llu",
			    i + 1, (unsigned long long)slices[k]);
			if (nwant < ENUM_MAX)
				assert_int_equal(end, SUDOKU_NOSOLUTION);
			enum_same(what, want, nwant, got, ngot);
		}
	}
	free(want);
	free(got);
}

/* ANY: the same set, each solution once; limit stops it. */
void
test_enum_any(void **state)
{
	struct sudoku_search	 s;
	struct sudoku_grid	 in;
	enum sudoku_result	 end;
	uint8_t			*want, *got;
	unsigned long		 nwant, ngot, i, j;
	int			 found;

	(void)state;
	want = malloc(ENUM_MAX * SUDOKU_CELLS);
	got = malloc(ENUM_MAX * SUDOKU_CELLS);
	assert_non_null(want);
	assert_non_null(got);
	test_grid(enum_puzzles[0], &in);
	assert_int_equal(checker_search_all(in.cell, ENUM_MAX, 50000000,
	    &nwant, want), 0);
	assert_true(nwant > 2 && nwant < ENUM_MAX);
	assert_int_equal(sudoku_search_init(&s, &in, SUDOKU_ANY, ENUM_MAX,
	    0), SUDOKU_MORE);
	ngot = enum_walk(&s, 3, got, &end);
	assert_int_equal(end, SUDOKU_NOSOLUTION);
	assert_int_equal(ngot, nwant);
	for (i = 0; i < ngot; i++) {
		for (j = found = 0; j < nwant; j++)
			found += memcmp(got + i * SUDOKU_CELLS, want + j *
			    SUDOKU_CELLS, SUDOKU_CELLS) == 0;
		if (found != 1)
			test_fail("ANY's solution %lu is in the reference %d "
			    "times", i + 1, found);
	}
	/* A limit of 2: two solutions, then none. */
	assert_int_equal(sudoku_search_init(&s, &in, SUDOKU_ANY, 2, 0),
	    SUDOKU_MORE);
	assert_int_equal(enum_walk(&s, 0, got, &end), 2);
	assert_int_equal(end, SUDOKU_NOSOLUTION);
	free(want);
	free(got);
}

/* A budget that runs out ends the walk with SUDOKU_BUDGET. */
void
test_enum_budget(void **state)
{
	struct sudoku_search	 s;
	struct sudoku_grid	 in, g;
	enum sudoku_result	 r;
	unsigned long		 n = 0;

	(void)state;
	memset(&in, 0, sizeof in);
	assert_int_equal(sudoku_search_init(&s, &in, SUDOKU_LEXMIN, 1000000,
	    1000), SUDOKU_MORE);
	while ((r = sudoku_search_next(&s, 0, &g)) == SUDOKU_SOLVED)
		n++;
	assert_int_equal(r, SUDOKU_BUDGET);
	assert_true(n > 0);
}

/* Marks from a grid: a blank all nine, a given its digit. */
static void
enum_marks_of(const struct sudoku_grid *g, struct sudoku_cands *c,
    uint16_t *marks)
{
	int	i;

	sudoku_cands_init(c, g);
	for (i = 0; i < SUDOKU_CELLS; i++)
		marks[i] = c->mask[i];
}

/*
 * Pencil marks: a puzzle's own marks give its solutions; marks with a
 * digit struck here and there give the reference's marks search.
 */
void
test_enum_cands(void **state)
{
	struct sudoku_search	 s;
	struct sudoku_grid	 in;
	struct sudoku_cands	 c;
	enum sudoku_result	 end;
	uint16_t		 marks[SUDOKU_CELLS];
	uint8_t			*want, *got;
	unsigned long		 nwant, ngot;
	uint32_t		 rng = 2026;
	int			 round, i;

	(void)state;
	want = malloc(ENUM_MAX * SUDOKU_CELLS);
	got = malloc(ENUM_MAX * SUDOKU_CELLS);
	assert_non_null(want);
	assert_non_null(got);
	for (round = 0; round < 40; round++) {
		test_grid(enum_puzzles[round % 2], &in);
		enum_marks_of(&in, &c, marks);
		/* Strike some candidates of blanks, never the last one. */
		for (i = 0; round > 0 && i < 12; i++) {
			int cell = (int)(checker_random(&rng) % SUDOKU_CELLS);
			int d = (int)(checker_random(&rng) % 9);

			if ((marks[cell] & ~(1u << d)) != 0)
				marks[cell] &= (uint16_t)~(1u << d);
		}
		for (i = 0; i < SUDOKU_CELLS; i++)
			c.mask[i] = marks[i];
		assert_int_equal(checker_marks_search(marks, ENUM_MAX,
		    50000000, &nwant, want), 0);
		end = sudoku_search_init_cands(&s, &c, SUDOKU_LEXMIN, ENUM_MAX,
		    0);
		if (end == SUDOKU_INVALID) {
			/* Two singles clash: the reference finds none. */
			assert_int_equal(nwant, 0);
			continue;
		}
		assert_int_equal(end, SUDOKU_MORE);
		ngot = enum_walk(&s, 2, got, &end);
		enum_same("marks", want, nwant, got, ngot);
	}
	/* A cell with no candidate, and two givens in a row: INVALID. */
	c.mask[40] = 0;
	assert_int_equal(sudoku_search_init_cands(&s, &c, SUDOKU_ANY, 1, 0),
	    SUDOKU_INVALID);
	assert_int_equal(sudoku_search_run(&s, 0), SUDOKU_INVALID);
	for (i = 0; i < SUDOKU_CELLS; i++)
		c.mask[i] = 0x1ff;
	c.mask[0] = c.mask[1] = 1u << 4;
	assert_int_equal(sudoku_search_init_cands(&s, &c, SUDOKU_ANY, 1, 0),
	    SUDOKU_INVALID);
	free(want);
	free(got);
}
