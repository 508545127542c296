/* SPDX-License-Identifier: ISC */
/*
 * test_rate_equiv.c -- what the rating of equivalent puzzles shares
 * (issue 34; doc/rating.md, "Equivalent puzzles"): over shuffles of
 * puzzles of the three sets, sudoku_rate() gives the same level and
 * the same hardest technique; the score is not promised, and is seen
 * to differ (else the documents would say too little); and the rating
 * of the canonical form, which is the same grid for every shuffle, is
 * the same in every field.  scripts/check runs test_logic once per
 * copy of the search engine, so this holds on each.
 */
#include <string.h>

#include "test_logic.h"

/* Puzzles taken from each set (every k-th), and shuffles of each. */
#define EQUIV_PUZZLES	80
#define EQUIV_SEEDS	6

static const struct {
	const char	*file;
	unsigned long	 every;
} equiv_sets[] = {
	{ "puzzles2_17_clue", 600 },
	{ "puzzles3_magictour_top1465", 17 },
	{ "puzzles6_forum_hardest_1106", 4 },
};

static void
equiv_rate(const struct sudoku_grid *g, struct sudoku_rating *r)
{
	memset(r, 0, sizeof *r);
	assert_int_equal(sudoku_rate(g, 0, r), SUDOKU_SOLVED);
}

/* One puzzle and its shuffles; returns how many scores differed. */
static int
equiv_one(const struct sudoku_grid *p, uint64_t seed0, unsigned long line)
{
	struct sudoku_grid	 q, form, qform;
	struct sudoku_rating	 r, rq, rf, rqf;
	int			 k, moved = 0;

	equiv_rate(p, &r);
	assert_int_equal(sudoku_canon(p, &form, NULL, NULL), 0);
	equiv_rate(&form, &rf);
	for (k = 0; k < EQUIV_SEEDS; k++) {
		sudoku_shuffle(p, seed0 + (uint64_t)k, &q, NULL);
		equiv_rate(&q, &rq);
		if (rq.level != r.level || rq.hardest != r.hardest)
			test_fail("line %lu, seed %llu: %s %s, shuffled %s %s",
			    line, (unsigned long long)(seed0 + k),
			    sudoku_level_name(r.level),
			    sudoku_technique_name(r.hardest),
			    sudoku_level_name(rq.level),
			    sudoku_technique_name(rq.hardest));
		moved += rq.score != r.score;
		assert_int_equal(sudoku_canon(&q, &qform, NULL, NULL), 0);
		assert_memory_equal(&qform, &form, sizeof form);
		equiv_rate(&qform, &rqf);
		assert_memory_equal(&rqf, &rf, sizeof rf);
	}
	return (moved);
}

void
test_rate_equiv(void **state)
{
	struct sudoku_grid	 g;
	unsigned long		 line, n;
	size_t			 s;
	int			 moved = 0, rated = 0;
	FILE			*f;

	(void)state;
	for (s = 0; s < sizeof equiv_sets / sizeof equiv_sets[0]; s++) {
		f = walk_open(equiv_sets[s].file);
		line = n = 0;
		while (rated < EQUIV_PUZZLES * (int)(s + 1) &&
		    walk_next(f, &g, &line)) {
			if (n++ % equiv_sets[s].every != 0)
				continue;
			moved += equiv_one(&g, line * 31, line);
			rated++;
		}
		fclose(f);
	}
	print_message("# %d puzzles, %d shuffles each: level and hardest "
	    "kept; %d scores moved\n", rated, EQUIV_SEEDS, moved);
	assert_true(rated >= 2 * EQUIV_PUZZLES);
	assert_true(moved > 0);
}
