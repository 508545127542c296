/* SPDX-License-Identifier: ISC */
/*
 * rate.c -- the rating of a puzzle: run the logical solver from the
 * givens to the end, easiest step first, and score the hardest step
 * (see struct sudoku_rating in sudoku.h and doc/rating.md).
 */
#include <stdio.h>
#include <string.h>

#include "sudoku.h"
#include "logic.h"

/*
 * Most steps a run can take: each one removes at least one of the 729
 * candidates.  A bound on the loop even if a finder went wrong.
 */
#define RATE_STEPS_MAX	(9 * SUDOKU_CELLS)

/* An open cell with the fewest candidates (the first such), or -1. */
static int
rate_trial_cell(const struct logic *L)
{
	int	 cell, best = -1, n, bestn = 10;

	for (cell = 0; cell < SUDOKU_CELLS; cell++) {
		if (!logic_open(L, cell))
			continue;
		if ((n = logic_count(L->m[cell])) < bestn) {
			best = cell;
			bestn = n;
		}
	}
	return (best);
}

/* The dead end of an extreme puzzle: the solution's digit in a cell. */
static int
rate_trial(const struct logic *L, const struct sudoku_grid *sol,
    struct sudoku_step *st)
{
	int	 cell = rate_trial_cell(L);

	logic_begin(st, SUDOKU_TECH_TRIAL);
	if (cell < 0 || sol->cell[cell] < 1 || sol->cell[cell] > 9)
		return (-1);
	st->nactions = 1;
	st->action[0].cell = (uint8_t)cell;
	st->action[0].digit = sol->cell[cell];
	st->action[0].place = 1;
	return (0);
}

/*
 * Level, k and score from the number of steps of each technique: the
 * hardest technique's weight, plus a tenth for each doubling of k, up
 * to x.9 so that a level's scores stay below the next level's.
 */
static void
rate_score(const unsigned int *used, struct sudoku_rating *r)
{
	unsigned int	 k = 0, w, extra;
	int		 t;

	r->level = sudoku_technique_level(r->hardest);
	for (t = SUDOKU_TECH_HIDDEN_SINGLE; t < SUDOKU_TECH_COUNT; t++)
		if (sudoku_technique_level((enum sudoku_technique)t) ==
		    r->level)
			k += used[t];
	r->hard = k;
	for (extra = 0; k > 1; k >>= 1)
		extra++;
	w = sudoku_technique_weight(r->hardest);
	r->score = w + (extra < 9 - w % 10 ? extra : 9 - w % 10);
}

/*
 * The walk from c to the end, easiest step first, a trial at each dead
 * end; used[] gets the steps of each technique.  DONE at the end, or
 * BROKEN when c contradicts itself or the solution.
 */
static enum sudoku_hint_result
rate_walk(const struct sudoku_cands *c, const struct sudoku_grid *sol,
    struct sudoku_rating *r, unsigned int used[SUDOKU_TECH_COUNT])
{
	struct sudoku_step	 st;
	struct logic		 L;
	enum sudoku_hint_result	 res = SUDOKU_HINT_BROKEN;
	int			 n;

	memset(r, 0, sizeof *r);
	memset(used, 0, SUDOKU_TECH_COUNT * sizeof used[0]);
	r->hardest = SUDOKU_TECH_NAKED_SINGLE;
	if (logic_prepare(c, &L) != 0 || logic_units(&L) != 0)
		n = RATE_STEPS_MAX;	/* a broken puzzle: nothing to rate */
	else
		n = 0;
	for (; n < RATE_STEPS_MAX; n++) {
		res = logic_find(&L, SUDOKU_TECH_TRIAL, &st);
		if (res == SUDOKU_HINT_DONE || res == SUDOKU_HINT_BROKEN)
			break;
		if (res == SUDOKU_HINT_NOSTEP) {
			res = SUDOKU_HINT_BROKEN;
			if (rate_trial(&L, sol, &st) != 0)
				break;
			r->trials++;
		} else
			r->steps++;
		used[st.tech]++;
		if (st.tech > r->hardest)
			r->hardest = st.tech;
		logic_apply(&L, &st);
	}
	rate_score(used, r);
	return (res == SUDOKU_HINT_DONE ? res : SUDOKU_HINT_BROKEN);
}

void
rate_known(const struct sudoku_grid *puzzle, const struct sudoku_grid *sol,
    struct sudoku_rating *r)
{
	struct sudoku_cands	 c;
	unsigned int		 used[SUDOKU_TECH_COUNT];

	sudoku_cands_init(&c, puzzle);
	(void)rate_walk(&c, sol, r, used);
}

enum sudoku_hint_result
sudoku_rate_cands(const struct sudoku_cands *c,
    const struct sudoku_grid *solution, struct sudoku_rating *r,
    unsigned int used[SUDOKU_TECH_COUNT])
{
	unsigned int	 mine[SUDOKU_TECH_COUNT];

	return (rate_walk(c, solution, r, used != NULL ? used : mine));
}

enum sudoku_result
sudoku_rate(const struct sudoku_grid *puzzle, uint64_t budget,
    struct sudoku_rating *r)
{
	struct sudoku_grid	 sol;
	enum sudoku_result	 res;
	unsigned long		 n;

	res = sudoku_count(puzzle, 2, budget, &n, &sol, NULL);
	if (res != SUDOKU_SOLVED)
		return (res);
	if (n != 1)
		return (SUDOKU_MULTIPLE);
	rate_known(puzzle, &sol, r);
	return (SUDOKU_SOLVED);
}

int
sudoku_rating_text(const struct sudoku_rating *r, char *buf, size_t size)
{
	return (snprintf(buf, size, "%s %u.%u %s",
	    sudoku_level_name(r->level), r->score / 10, r->score % 10,
	    sudoku_technique_name(r->hardest)));
}
