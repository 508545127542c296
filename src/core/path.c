/* SPDX-License-Identifier: ISC */
/*
 * path.c -- the whole logical solution of a state: the steps
 * sudoku_hint() gives one after another, each applied, counted by
 * technique, until the grid is done or logic is stuck; and the line
 * that sums a path up, RATE's words first.
 *
 * The walk is sudoku_hint() itself, not the rater's faster one, so each
 * step is the one HINT would give for the state reached: a client that
 * asks HINT at any point of the path gets the path's next line.
 */
#include <stdio.h>
#include <string.h>

#include "sudoku.h"

/*
 * Most steps of a path: each removes at least one of the 729
 * candidates.  A bound on the walk even if a finder went wrong.
 */
#define PATH_STEPS_MAX	(9 * SUDOKU_CELLS)

void
sudoku_path_init(struct sudoku_path *p, const struct sudoku_cands *start)
{
	memset(p, 0, sizeof *p);
	p->cands = *start;
	p->end = SUDOKU_HINT_STEP;
}

enum sudoku_hint_result
sudoku_path_next(struct sudoku_path *p, struct sudoku_step *step)
{
	enum sudoku_hint_result	 res;

	if (p->end != SUDOKU_HINT_STEP)
		return (p->end);
	if (p->steps >= PATH_STEPS_MAX) {
		p->end = SUDOKU_HINT_BROKEN;
		return (p->end);
	}
	if ((res = sudoku_hint(&p->cands, step)) != SUDOKU_HINT_STEP) {
		p->end = res;
		return (res);
	}
	sudoku_step_apply(&p->cands, step);
	p->used[step->tech]++;
	p->steps++;
	return (SUDOKU_HINT_STEP);
}

int
sudoku_path_text(const struct sudoku_path *p, const struct sudoku_rating *r,
    char *buf, size_t size)
{
	size_t	 n;
	int	 k, t;

	if ((k = sudoku_rating_text(r, buf, size)) < 0)
		return (k);
	n = (size_t)k;
	for (t = 0; t < SUDOKU_TECH_COUNT; t++) {
		if (p->used[t] == 0)
			continue;
		k = snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0,
		    " %s=%u", sudoku_technique_name((enum sudoku_technique)t),
		    p->used[t]);
		if (k < 0)
			return (k);
		n += (size_t)k;
	}
	return ((int)n);
}
