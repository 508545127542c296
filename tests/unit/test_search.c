/* SPDX-License-Identifier: ISC */
/*
 * test_search.c -- the search in slices (sudoku_search_*): whatever the
 * slices, and with the state copied between them, the answer and the
 * effort are those of the whole search at once (sudoku_solve() and
 * sudoku_count(), themselves checked against the checker and the
 * reference search in test_solve.c and test_sets.c).
 */
#include <stdio.h>
#include <string.h>

#include "test_sudoku.h"

/* Puzzles from puzzles6_forum_hardest_1106 (lines 1, 100, 375). */
static const char *const search_hard[] = {
	"........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5..."
	"1.....2.4.5.....3",
	"..34...8.......1.37........2...9.......5..8...6...7.4...51....8."
	"7...5...9...62.5.",
	"5..6......2.....4...1.2.3..9..8.......7.4.1.......9..6..4.7.2..."
	"3.....1......5..8",
	/* Many solutions: counting goes on past the first. */
	"................................................................."
	"................",
	"........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5..."
	"1.....2.........3",
};

static const uint64_t search_slices[] = { 1, 2, 7, 64 };

/* One case: the policy, the solution limit and the budget. */
struct search_case {
	enum sudoku_policy	policy;
	unsigned long		limit;
	uint64_t		budget;
};

static const struct search_case search_cases[] = {
	{ SUDOKU_ANY, 1, 0 }, { SUDOKU_LEXMIN, 1, 0 }, { SUDOKU_ANY, 2, 0 },
	{ SUDOKU_ANY, 1000, 0 }, { SUDOKU_LEXMIN, 5, 0 },
	{ SUDOKU_ANY, 1000, 300 }, { SUDOKU_ANY, 1, 10 },
};

struct search_out {
	enum sudoku_result	res;
	unsigned long		count;
	struct sudoku_grid	first;
	struct sudoku_stats	st;
	unsigned long		calls;	/* sudoku_search_run() calls */
};

/* The whole search in one call, through sudoku_search_run(s, 0). */
static void
search_whole(const struct sudoku_grid *in, const struct search_case *c,
    struct search_out *o)
{
	struct sudoku_search	s;

	memset(o, 0, sizeof *o);
	assert_int_equal(sudoku_search_init(&s, in, c->policy, c->limit,
	    c->budget), SUDOKU_MORE);
	o->res = sudoku_search_run(&s, 0);
	o->calls = 1;
	sudoku_search_result(&s, &o->count, &o->first, &o->st);
}

/*
 * The same in slices of the given size, moving the state to another
 * buffer (memcpy) after every slice: it must be plain data.
 */
static void
search_sliced(const struct sudoku_grid *in, const struct search_case *c,
    uint64_t slice, struct search_out *o)
{
	static struct sudoku_search	 buf[2];
	int				 k = 0;

	memset(o, 0, sizeof *o);
	assert_int_equal(sudoku_search_init(&buf[0], in, c->policy, c->limit,
	    c->budget), SUDOKU_MORE);
	do {
		o->res = sudoku_search_run(&buf[k], slice);
		o->calls++;
		memcpy(&buf[!k], &buf[k], sizeof buf[k]);
		memset(&buf[k], 0xa5, sizeof buf[k]);
		k = !k;
	} while (o->res == SUDOKU_MORE);
	/* Once done, it stays done. */
	assert_int_equal(sudoku_search_run(&buf[k], slice), o->res);
	sudoku_search_result(&buf[k], &o->count, &o->first, &o->st);
}

static void
search_compare(const struct search_out *a, const struct search_out *b,
    const char *what)
{
	if (a->res != b->res || a->count != b->count ||
	    a->st.guesses != b->st.guesses || a->st.steps != b->st.steps ||
	    (a->count > 0 && memcmp(&a->first, &b->first,
	    sizeof a->first) != 0))
		test_fail("%s: whole search res %d count %lu guesses %llu, "
		    "sliced res %d count %lu guesses %llu", what, a->res,
		    a->count, (unsigned long long)a->st.guesses, b->res,
		    b->count, (unsigned long long)b->st.guesses);
}

/* Slices of any size give the whole search's answer and effort. */
void
test_search_slices(void **state)
{
	struct sudoku_grid	 in;
	struct search_out	 whole, cut;
	const struct search_case *c;
	char			 what[96];
	size_t			 p, i, j;

	(void)state;
	for (p = 0; p < sizeof search_hard / sizeof search_hard[0]; p++) {
		test_grid(search_hard[p], &in);
		for (i = 0; i < sizeof search_cases / sizeof search_cases[0];
		    i++) {
			c = &search_cases[i];
			search_whole(&in, c, &whole);
			for (j = 0; j < sizeof search_slices /
			    sizeof search_slices[0]; j++) {
				snprintf(what, sizeof what, "puzzle %zu case "
				    "%zu slice %llu", p, i,
				    (unsigned long long)search_slices[j]);
				search_sliced(&in, c, search_slices[j], &cut);
				search_compare(&whole, &cut, what);
				/* A slice of k guesses stops every k. */
				if (cut.calls < whole.st.guesses /
				    search_slices[j])
					test_fail("%s: %lu calls for %llu "
					    "guesses", what, cut.calls,
					    (unsigned long long)
					    whole.st.guesses);
			}
		}
	}
}

/* sudoku_solve() and sudoku_count() are the whole search. */
void
test_search_wrappers(void **state)
{
	static const struct search_case any = { SUDOKU_ANY, 1, 0 };
	static const struct search_case count = { SUDOKU_ANY, 2, 0 };
	struct sudoku_grid	 in, out;
	struct sudoku_stats	 st;
	struct search_out	 whole;
	unsigned long		 n;

	(void)state;
	test_grid(search_hard[1], &in);
	search_whole(&in, &any, &whole);
	assert_int_equal(sudoku_solve(&in, SUDOKU_ANY, 0, &out, &st),
	    whole.res);
	assert_memory_equal(&out, &whole.first, sizeof out);
	assert_true(st.guesses == whole.st.guesses);
	test_assert_solves(&in, &out, "hardest, line 100");
	search_whole(&in, &count, &whole);
	assert_int_equal(sudoku_count(&in, 2, 0, &n, NULL, &st), whole.res);
	assert_true(n == 1 && whole.count == 1);
}

/* Broken givens: nothing to run, and running says so. */
void
test_search_invalid(void **state)
{
	struct sudoku_search	s;
	struct sudoku_grid	in;

	(void)state;
	memset(&in, 0, sizeof in);
	in.cell[0] = in.cell[1] = 5;
	assert_int_equal(sudoku_search_init(&s, &in, SUDOKU_ANY, 1, 0),
	    SUDOKU_INVALID);
	assert_int_equal(sudoku_search_run(&s, 1), SUDOKU_INVALID);
	in.cell[1] = 10;
	assert_int_equal(sudoku_search_init(&s, &in, SUDOKU_LEXMIN, 1, 0),
	    SUDOKU_INVALID);
}
