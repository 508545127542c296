/* SPDX-License-Identifier: ISC */
/*
 * test_reduce.c -- MINIMIZE and CONSTRAIN, checked from outside: a
 * minimized puzzle is a subset of the givens with the same one
 * solution, from which no given can be removed; a constrained one
 * keeps every given, has one solution, and that solution solves the
 * input (checker_solution).  The same seed gives the same answer,
 * whatever the slices, and a copy of the state goes on the same.
 */
#include <stdio.h>
#include <string.h>

#include "test_toolbox.h"

/* Runs r to the end in slices of slice guesses; returns the outcome. */
static enum sudoku_result
reduce_all(struct sudoku_reduce *r, uint64_t slice, struct sudoku_grid *out)
{
	enum sudoku_result	 res;
	unsigned long		 calls = 0;

	while ((res = sudoku_reduce_run(r, slice)) == SUDOKU_MORE)
		assert_true(++calls < 10000000);
	/* Done: the same answer again, no work. */
	assert_int_equal(sudoku_reduce_run(r, slice), res);
	sudoku_reduce_result(r, out, NULL);
	return (res);
}

/* A subset of in's givens, one solution (in's), nothing can go. */
static void
minimize_check(const struct sudoku_grid *in, const struct sudoku_grid *out)
{
	struct sudoku_grid	 s1, s2, q;
	char			 text[SUDOKU_CELLS + 1];
	int			 i;

	tb_text(in, text);
	for (i = 0; i < SUDOKU_CELLS; i++)
		if (out->cell[i] != 0 && out->cell[i] != in->cell[i])
			test_fail("%s: r%dc%d is not one of its givens", text,
			    i / 9 + 1, i % 9 + 1);
	assert_int_equal(tb_solutions(in, &s1), 1);
	assert_int_equal(tb_solutions(out, &s2), 1);
	assert_memory_equal(&s1, &s2, sizeof s1);
	for (i = 0; i < SUDOKU_CELLS; i++) {
		if (out->cell[i] == 0)
			continue;
		q = *out;
		q.cell[i] = 0;
		if (tb_solutions(&q, NULL) != 2)
			test_fail("%s: not minimal, r%dc%d can go", text,
			    i / 9 + 1, i % 9 + 1);
	}
}

/* A proper puzzle with many givens: k cells of a solution, unique. */
static void
reduce_dense(uint32_t *rnd, const struct sudoku_grid *sol, int k,
    struct sudoku_grid *p)
{
	do
		checker_keep(sol->cell, k, rnd, p->cell);
	while (tb_solutions(p, NULL) != 1);
}

void
test_minimize(void **state)
{
	struct tb_set		 set;
	struct sudoku_reduce	 r;
	struct sudoku_grid	 in, out, again, sol;
	uint32_t		 rnd = 4242;
	size_t			 i;
	int			 differ = 0;

	(void)state;
	tb_load("puzzles3_magictour_top1465", &set);
	for (i = 0; i < set.n; i += 61) {
		/* The set's puzzle, and one of 45 givens of its solution. */
		assert_int_equal(tb_solutions(&set.g[i], &sol), 1);
		reduce_dense(&rnd, &sol, 45, &in);
		assert_int_equal(sudoku_minimize_init(&r, &in, i, 0),
		    SUDOKU_MORE);
		assert_int_equal(reduce_all(&r, 0, &out), SUDOKU_SOLVED);
		minimize_check(&in, &out);
		assert_int_equal(sudoku_minimize_init(&r, &in, i, 0),
		    SUDOKU_MORE);
		assert_int_equal(reduce_all(&r, 0, &again), SUDOKU_SOLVED);
		assert_memory_equal(&out, &again, sizeof out);
		assert_int_equal(sudoku_minimize_init(&r, &in, i + 1, 0),
		    SUDOKU_MORE);
		assert_int_equal(reduce_all(&r, 0, &again), SUDOKU_SOLVED);
		differ += memcmp(&out, &again, sizeof out) != 0;
		/* An already minimal puzzle (most of the set's) stays. */
		assert_int_equal(sudoku_minimize_init(&r, &set.g[i], 1, 0),
		    SUDOKU_MORE);
		assert_int_equal(reduce_all(&r, 0, &out), SUDOKU_SOLVED);
		minimize_check(&set.g[i], &out);
	}
	/* Another order of removal finds another minimal puzzle, mostly. */
	assert_true(differ > 0);
	/* The complete grid itself. */
	assert_int_equal(sudoku_minimize_init(&r, &sol, 5, 0), SUDOKU_MORE);
	assert_int_equal(reduce_all(&r, 0, &out), SUDOKU_SOLVED);
	minimize_check(&sol, &out);
	tb_free(&set);
}

/* Consistent givens, no solution: r1c1 has 1-8 in its row, 9 below. */
static void
reduce_stuck(struct sudoku_grid *g)
{
	int	 c;

	memset(g, 0, sizeof *g);
	for (c = 1; c < 9; c++)
		g->cell[c] = (uint8_t)c;
	g->cell[9] = 9;
}

void
test_minimize_results(void **state)
{
	struct sudoku_reduce	 r;
	struct sudoku_grid	 g, out;
	struct sudoku_stats	 st;

	(void)state;
	/* Two solutions (the empty grid), none, broken givens. */
	memset(&g, 0, sizeof g);
	assert_int_equal(sudoku_minimize_init(&r, &g, 1, 0), SUDOKU_MORE);
	assert_int_equal(reduce_all(&r, 0, &out), SUDOKU_MULTIPLE);
	/* r1c1 can hold nothing: 1-8 in its row, 9 in its column. */
	reduce_stuck(&g);
	assert_int_equal(sudoku_minimize_init(&r, &g, 1, 0), SUDOKU_MORE);
	assert_int_equal(reduce_all(&r, 0, &out), SUDOKU_NOSOLUTION);
	memset(&g, 0, sizeof g);
	g.cell[0] = g.cell[1] = 4;
	assert_int_equal(sudoku_minimize_init(&r, &g, 1, 0), SUDOKU_INVALID);
	assert_int_equal(sudoku_reduce_run(&r, 0), SUDOKU_INVALID);
	/* A budget too small for the hardest puzzles' checks. */
	tb_puzzle("........8..3...4...9..2..6.....79.......612...6.5.2.7...8"
	    "...5...1.....2.4.5.....3", &g);
	assert_int_equal(sudoku_minimize_init(&r, &g, 1, 20), SUDOKU_MORE);
	assert_int_equal(reduce_all(&r, 0, &out), SUDOKU_BUDGET);
	sudoku_reduce_result(&r, NULL, &st);
	assert_true(st.guesses <= 20);
}

/* Every given of in kept, one solution, and it solves in. */
static void
constrain_check(const struct sudoku_grid *in, const struct sudoku_grid *out)
{
	struct sudoku_grid	 sol;
	char			 text[SUDOKU_CELLS + 1], why[128];
	int			 i;

	tb_text(in, text);
	for (i = 0; i < SUDOKU_CELLS; i++)
		if (in->cell[i] != 0 && out->cell[i] != in->cell[i])
			test_fail("%s: given r%dc%d lost", text, i / 9 + 1,
			    i % 9 + 1);
	if (tb_solutions(out, &sol) != 1)
		test_fail("%s: not one solution", text);
	if (!checker_solution(in->cell, sol.cell, why, sizeof why))
		test_fail("%s: its solution does not solve it: %s", text, why);
}

void
test_constrain(void **state)
{
	struct tb_set		 set;
	struct sudoku_reduce	 r;
	struct sudoku_grid	 in, out, again, sol, first;
	uint32_t		 rnd = 31337;
	size_t			 i;
	int			 k, differ = 0;

	(void)state;
	tb_load("puzzles2_17_clue", &set);
	for (i = 0; i < set.n; i += set.n / 20) {
		/* A few cells of a solution: many solutions. */
		assert_int_equal(tb_solutions(&set.g[i], &sol), 1);
		checker_keep(sol.cell, 8 + (int)(i % 10), &rnd, in.cell);
		assert_int_equal(sudoku_constrain_init(&r, &in, i, 0),
		    SUDOKU_MORE);
		assert_int_equal(reduce_all(&r, 0, &out), SUDOKU_SOLVED);
		constrain_check(&in, &out);
		assert_int_equal(sudoku_constrain_init(&r, &in, i, 0),
		    SUDOKU_MORE);
		assert_int_equal(reduce_all(&r, 0, &again), SUDOKU_SOLVED);
		assert_memory_equal(&out, &again, sizeof out);
		/* A proper puzzle is its own answer. */
		assert_int_equal(sudoku_constrain_init(&r, &set.g[i], 9, 0),
		    SUDOKU_MORE);
		assert_int_equal(reduce_all(&r, 0, &out), SUDOKU_SOLVED);
		assert_memory_equal(&out, &set.g[i], sizeof out);
	}
	/* The empty grid: seeds pick different solutions. */
	memset(&in, 0, sizeof in);
	for (k = 0; k < 8; k++) {
		assert_int_equal(sudoku_constrain_init(&r, &in, (uint64_t)k,
		    0), SUDOKU_MORE);
		assert_int_equal(reduce_all(&r, 0, &out), SUDOKU_SOLVED);
		constrain_check(&in, &out);
		assert_int_equal(tb_solutions(&out, &sol), 1);
		if (k == 0)
			first = sol;
		differ += memcmp(&first, &sol, sizeof sol) != 0;
	}
	assert_true(differ >= 6);
	tb_free(&set);
}

void
test_constrain_results(void **state)
{
	struct sudoku_reduce	 r;
	struct sudoku_grid	 g, out;

	(void)state;
	reduce_stuck(&g);
	assert_int_equal(sudoku_constrain_init(&r, &g, 1, 0), SUDOKU_MORE);
	assert_int_equal(reduce_all(&r, 0, &out), SUDOKU_NOSOLUTION);
	memset(&g, 0, sizeof g);
	g.cell[0] = g.cell[80] = 4;
	g.cell[8] = 4;
	assert_int_equal(sudoku_constrain_init(&r, &g, 1, 0), SUDOKU_INVALID);
	memset(&g, 0, sizeof g);
	assert_int_equal(sudoku_constrain_init(&r, &g, 1, 1), SUDOKU_MORE);
	assert_int_equal(reduce_all(&r, 0, &out), SUDOKU_BUDGET);
}

/* Slices of one guess, and a copy of the state, change nothing. */
void
test_reduce_slices(void **state)
{
	struct sudoku_reduce	 r, copy;
	struct sudoku_grid	 in, out, sliced;
	struct sudoku_stats	 st, st2;
	enum sudoku_result	 res;
	int			 kind, calls;

	(void)state;
	tb_puzzle("........8..3...4...9..2..6.....79.......612...6.5.2.7...8"
	    "...5...1.....2.4.5.....3", &in);
	for (kind = 0; kind < 2; kind++) {
		if (kind == 1)
			memset(in.cell + 40, 0, 41);	/* many solutions */
		(kind ? sudoku_constrain_init : sudoku_minimize_init)(&r, &in,
		    77, 0);
		assert_int_equal(reduce_all(&r, 0, &out), SUDOKU_SOLVED);
		sudoku_reduce_result(&r, NULL, &st);
		(kind ? sudoku_constrain_init : sudoku_minimize_init)(&r, &in,
		    77, 0);
		calls = 0;
		while ((res = sudoku_reduce_run(&r, 1)) == SUDOKU_MORE) {
			calls++;
			memcpy(&copy, &r, sizeof r);
			memset(&r, 0x5a, sizeof r);
			memcpy(&r, &copy, sizeof r);
		}
		assert_int_equal(res, SUDOKU_SOLVED);
		assert_true(calls > 10);
		sudoku_reduce_result(&r, &sliced, &st2);
		assert_memory_equal(&out, &sliced, sizeof out);
		assert_int_equal(st.guesses, st2.guesses);
		if (kind)
			constrain_check(&in, &out);
		else
			minimize_check(&in, &out);
	}
}
