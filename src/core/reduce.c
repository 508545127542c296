/* SPDX-License-Identifier: ISC */
/*
 * reduce.c -- a puzzle made proper by the fewest changes of one kind,
 * in slices: MINIMIZE drops givens while the solution stays unique,
 * CONSTRAIN adds givens from one of the solutions until it is unique.
 *
 * Both are sequences of searches, each a struct sudoku_search run a
 * slice at a time, so no call is held longer than its slice however
 * hard a check is.  Determinism: the orders come from the state's own
 * PRNG (rng.h) and the answers of the searches used are the ones that
 * do not depend on the solver's search order: a count to 2 (none, one,
 * more), and the least solution (SUDOKU_LEXMIN) of a randomly
 * transformed copy, for CONSTRAIN's solution.
 *
 * MINIMIZE: the givens in a random order, each dropped unless two
 * solutions appear; one pass leaves no given that can go (one that
 * cannot go now cannot go later, with fewer givens about it).
 *
 * CONSTRAIN: the blanks in a random order; the first k of them, filled
 * from the solution, make the puzzle unique for every k from some
 * least k0 up (more givens never add solutions), so k0 is found by
 * bisection, in about log2(blanks) counts: the answer is what adding
 * the cells one at a time until the puzzle is unique would give.
 */
#include <string.h>

#include "sudoku.h"
#include "rng.h"

enum {
	REDUCE_MINIMIZE = 0,
	REDUCE_CONSTRAIN
};

enum {
	REDUCE_INPUT = 0,	/* counting the input's solutions */
	REDUCE_SOLVE,		/* constrain: the least solution of t(input) */
	REDUCE_STEP,		/* a check of the answer's next change */
	REDUCE_DONE
};

static void
reduce_init(struct sudoku_reduce *r, const struct sudoku_grid *in,
    uint64_t seed, uint64_t budget, int kind)
{
	memset(r, 0, sizeof *r);
	rng_seed(r->rng, seed);
	r->budget = budget == 0 ? SUDOKU_BUDGET_DEFAULT : budget;
	r->kind = kind;
	r->puzzle = *in;
	r->trial = *in;
	r->phase = REDUCE_INPUT;
	r->result = SUDOKU_MORE;
	if (sudoku_search_init(&r->search, in, SUDOKU_ANY, 2, r->budget) !=
	    SUDOKU_MORE) {
		r->phase = REDUCE_DONE;
		r->result = SUDOKU_INVALID;
	}
}

enum sudoku_result
sudoku_minimize_init(struct sudoku_reduce *r, const struct sudoku_grid *in,
    uint64_t seed, uint64_t budget)
{
	reduce_init(r, in, seed, budget, REDUCE_MINIMIZE);
	return (r->result);
}

enum sudoku_result
sudoku_constrain_init(struct sudoku_reduce *r, const struct sudoku_grid *in,
    uint64_t seed, uint64_t budget)
{
	reduce_init(r, in, seed, budget, REDUCE_CONSTRAIN);
	return (r->result);
}

static void
reduce_finish(struct sudoku_reduce *r, enum sudoku_result res)
{
	r->phase = REDUCE_DONE;
	r->result = res;
}

/* Starts a search of r->trial (of the transformed input for SOLVE). */
static void
reduce_search(struct sudoku_reduce *r, const struct sudoku_grid *g,
    enum sudoku_policy policy, unsigned long limit)
{
	r->checks++;
	/* Out of budget: run() ends before this search is run. */
	(void)sudoku_search_init(&r->search, g, policy, limit,
	    r->budget - r->spent);
}

/* The cells whose given-ness is (blank) or is not (!blank) 0, shuffled. */
static void
reduce_order(struct sudoku_reduce *r, int blank)
{
	int	 i;

	r->n = 0;
	for (i = 0; i < SUDOKU_CELLS; i++)
		if ((r->puzzle.cell[i] == 0) == blank)
			r->order[r->n++] = (uint8_t)i;
	rng_shuffle(r->rng, r->order, r->n);
}

/* Minimize: try dropping the next given, or be done. */
static void
reduce_drop_next(struct sudoku_reduce *r)
{
	if (r->at == r->n) {
		reduce_finish(r, SUDOKU_SOLVED);
		return;
	}
	r->trial = r->puzzle;
	r->trial.cell[r->order[r->at]] = 0;
	reduce_search(r, &r->trial, SUDOKU_ANY, 2);
}

/* Constrain: the input with the first k cells of the order filled. */
static void
reduce_fill(struct sudoku_reduce *r, int k)
{
	int	 i;

	r->trial = r->puzzle;
	for (i = 0; i < k; i++)
		r->trial.cell[r->order[i]] = r->solution.cell[r->order[i]];
}

/* Constrain: the next bisection step, or the answer. */
static void
reduce_bisect_next(struct sudoku_reduce *r)
{
	if (r->hi - r->lo <= 1) {
		reduce_fill(r, r->hi);
		r->puzzle = r->trial;
		reduce_finish(r, SUDOKU_SOLVED);
		return;
	}
	reduce_fill(r, (r->lo + r->hi) / 2);
	reduce_search(r, &r->trial, SUDOKU_ANY, 2);
}

/*
 * Constrain: a solution drawn from the seed.  The least solution of a
 * random equivalent puzzle, mapped back: any of the solutions can come
 * out, and none depends on how the solver searches.
 */
static void
reduce_solve(struct sudoku_reduce *r)
{
	struct sudoku_grid	 t;

	sudoku_shuffle(&r->puzzle, rng_next(r->rng), &t, &r->t);
	r->phase = REDUCE_SOLVE;
	reduce_search(r, &t, SUDOKU_LEXMIN, 1);
}

/* The solution of the transformed puzzle, back in the input's frame. */
static void
reduce_solved(struct sudoku_reduce *r, const struct sudoku_grid *s)
{
	uint8_t	 back[10];
	int	 row, col, d, src;

	for (d = 0; d <= 9; d++)
		back[r->t.digit[d]] = (uint8_t)d;
	for (row = 0; row < 9; row++)
		for (col = 0; col < 9; col++) {
			src = r->t.transpose ? r->t.col[col] * 9 + r->t.row[row] :
			    r->t.row[row] * 9 + r->t.col[col];
			r->solution.cell[src] = back[s->cell[row * 9 + col]];
		}
	reduce_order(r, 1);
	r->lo = 0;
	r->hi = r->n;
	r->phase = REDUCE_STEP;
	reduce_bisect_next(r);
}

/* A search is over with count solutions: what comes next. */
static void
reduce_next(struct sudoku_reduce *r, unsigned long count,
    const struct sudoku_grid *first)
{
	if (r->phase == REDUCE_SOLVE)
		reduce_solved(r, first);
	else if (r->phase == REDUCE_INPUT) {
		if (count == 0)
			reduce_finish(r, SUDOKU_NOSOLUTION);
		else if (r->kind == REDUCE_CONSTRAIN && count == 1)
			reduce_finish(r, SUDOKU_SOLVED);
		else if (r->kind == REDUCE_CONSTRAIN)
			reduce_solve(r);
		else if (count > 1)
			reduce_finish(r, SUDOKU_MULTIPLE);
		else {
			reduce_order(r, 0);
			r->phase = REDUCE_STEP;
			reduce_drop_next(r);
		}
	} else if (r->kind == REDUCE_MINIMIZE) {
		if (count == 1)
			r->puzzle = r->trial;
		r->at++;
		reduce_drop_next(r);
	} else {
		if (count == 1)
			r->hi = (uint8_t)((r->lo + r->hi) / 2);
		else
			r->lo = (uint8_t)((r->lo + r->hi) / 2);
		reduce_bisect_next(r);
	}
}

enum sudoku_result
sudoku_reduce_run(struct sudoku_reduce *r, uint64_t slice)
{
	struct sudoku_stats	 st;
	struct sudoku_grid	 first;
	enum sudoku_result	 res;
	unsigned long		 count;
	uint64_t		 used = 0, before, step;

	while (r->phase != REDUCE_DONE && (slice == 0 || used < slice)) {
		sudoku_search_result(&r->search, NULL, NULL, &st);
		before = st.guesses;
		step = slice == 0 ? 0 : slice - used;
		res = sudoku_search_run(&r->search, step);
		sudoku_search_result(&r->search, &count, &first, &st);
		/* A check counts one at least: a slice ends however easy. */
		used += st.guesses - before + 1;
		if (res == SUDOKU_MORE)
			continue;
		r->spent += st.guesses;
		r->steps += st.steps;
		if (res == SUDOKU_BUDGET || res == SUDOKU_INVALID)
			reduce_finish(r, res);
		else
			reduce_next(r, count, &first);
		if (r->phase != REDUCE_DONE && r->spent >= r->budget)
			reduce_finish(r, SUDOKU_BUDGET);
	}
	return (r->result);
}

void
sudoku_reduce_result(const struct sudoku_reduce *r, struct sudoku_grid *out,
    struct sudoku_stats *st)
{
	struct sudoku_stats	 cur;

	if (out != NULL)
		*out = r->puzzle;
	if (st == NULL)
		return;
	st->guesses = r->spent;
	st->steps = r->steps;
	if (r->phase != REDUCE_DONE) {
		sudoku_search_result(&r->search, NULL, NULL, &cur);
		st->guesses += cur.guesses;
		st->steps += cur.steps;
	}
}
