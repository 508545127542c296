/* SPDX-License-Identifier: ISC */
/*
 * test_budget.c -- the search budget of sudoku_solve() and
 * sudoku_count() (no answer or a right one, never a wrong one; exact
 * to the guess), determinism, the copy of the solver in use
 * (SUDOKU_ISA), and the same effort from every copy.  The puzzles are
 * test_solve.c's, and for the effort those of the hardest set.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_sudoku.h"

void
test_budget_empty(void **state)
{
	struct sudoku_grid	in, first;
	struct sudoku_stats	st;
	unsigned long		n = 0;

	(void)state;
	memset(&in, 0, sizeof in);
	assert_int_equal(sudoku_count(&in, 1000000, 1000, &n, &first, &st),
	    SUDOKU_BUDGET);
	assert_true(n < 1000000);	/* a lower bound, not a claim */
	assert_true(st.guesses <= 1000);	/* the most allowed */
	if (n > 0)
		test_assert_solves(&in, &first, "empty grid, budget");
}

/* Budget b on a hard puzzle: no answer or a right one, never a wrong one. */
static void
budget_try(const struct sudoku_grid *in, uint64_t b, int strict)
{
	static const enum sudoku_policy pol[] = { SUDOKU_ANY, SUDOKU_LEXMIN };
	struct sudoku_grid	out;
	struct sudoku_stats	st;
	enum sudoku_result	r;
	unsigned long		n;
	size_t			i;

	for (i = 0; i < 2; i++) {
		r = sudoku_solve(in, pol[i], b, &out, &st);
		assert_true(st.guesses <= b);
		if (r == SUDOKU_SOLVED && !strict)
			test_assert_solves(in, &out, "budget");
		else
			assert_int_equal(r, SUDOKU_BUDGET);
	}
	/* Proving a hard puzzle unique takes more than a few guesses. */
	n = 99;
	r = sudoku_count(in, 2, b, &n, &out, &st);
	assert_int_equal(r, SUDOKU_BUDGET);
	assert_true(st.guesses <= b);
	assert_true(n <= 1);
	if (n == 1)
		test_assert_solves(in, &out, "budget, count");
}

void
test_budget_hard(void **state)
{
	static const uint64_t budgets[] = { 2, 3, 5 };
	struct sudoku_grid	in, out;
	size_t			i;

	(void)state;
	test_grid(test_easter, &in);
	budget_try(&in, 1, 1);
	for (i = 0; i < sizeof budgets / sizeof budgets[0]; i++)
		budget_try(&in, budgets[i], 0);
	test_grid(test_hard1, &in);
	budget_try(&in, 1, 0);
	for (i = 0; i < sizeof budgets / sizeof budgets[0]; i++)
		budget_try(&in, budgets[i], 0);
	/* The default budget is plenty for them. */
	assert_int_equal(sudoku_solve(&in, SUDOKU_ANY, 0, &out, NULL),
	    SUDOKU_SOLVED);
	test_assert_solves(&in, &out, "hardest #1");
}

/* Mode m of the tests: 0 ANY, 1 LEXMIN, 2 COUNT with limit 2. */
static enum sudoku_result
run_mode(const struct sudoku_grid *in, int m, uint64_t b,
    struct sudoku_grid *out, unsigned long *n, struct sudoku_stats *st)
{
	*n = 1;
	if (m == 2)
		return sudoku_count(in, 2, b, n, out, st);
	return sudoku_solve(in, m == 0 ? SUDOKU_ANY : SUDOKU_LEXMIN, b, out,
	    st);
}

/*
 * The budget is exact: a call that needs k guesses succeeds, the same
 * way, with budget k and stops with budget k - 1 (the search is
 * deterministic and the budget only caps it).
 */
void
test_budget_exact(void **state)
{
	const char *const	 puzzles[] = { test_hard1, test_easter,
				    test_clue17, test_boj2239_in,
				    test_boj2580_in };
	struct sudoku_grid	 in, a, b;
	struct sudoku_stats	 sa, sb;
	unsigned long		 na, nb;
	size_t			 i;
	int			 m;

	(void)state;
	for (i = 0; i < sizeof puzzles / sizeof puzzles[0]; i++) {
		test_grid(puzzles[i], &in);
		for (m = 0; m < 3; m++) {
			assert_int_equal(run_mode(&in, m, 0, &a, &na, &sa),
			    SUDOKU_SOLVED);
			test_assert_solves(&in, &a, puzzles[i]);
			if (sa.guesses == 0)
				continue;
			assert_int_equal(run_mode(&in, m, sa.guesses, &b, &nb,
			    &sb), SUDOKU_SOLVED);
			assert_memory_equal(a.cell, b.cell, SUDOKU_CELLS);
			assert_int_equal(na, nb);
			assert_int_equal(sa.guesses, sb.guesses);
			if (sa.guesses == 1)
				continue;
			assert_int_equal(run_mode(&in, m, sa.guesses - 1, &b,
			    &nb, &sb), SUDOKU_BUDGET);
			assert_true(sb.guesses <= sa.guesses - 1);
		}
	}
}
void
test_determinism(void **state)
{
	static const enum sudoku_policy pol[] = { SUDOKU_ANY, SUDOKU_LEXMIN };
	struct sudoku_grid	in, a, b;
	struct sudoku_stats	sa, sb;
	unsigned long		na, nb;
	size_t			i, k;

	(void)state;
	for (k = 0; k < 3; k++) {
		if (k == 0)
			memset(&in, 0, sizeof in);
		else
			test_grid(k == 1 ? test_hard1 : test_boj2239_in, &in);
		for (i = 0; i < 2; i++) {
			assert_int_equal(sudoku_solve(&in, pol[i], 0, &a, &sa),
			    SUDOKU_SOLVED);
			assert_int_equal(sudoku_solve(&in, pol[i], 0, &b, &sb),
			    SUDOKU_SOLVED);
			assert_memory_equal(a.cell, b.cell, SUDOKU_CELLS);
			assert_memory_equal(&sa, &sb, sizeof sa);
		}
		assert_int_equal(sudoku_count(&in, 10, 0, &na, &a, &sa),
		    SUDOKU_SOLVED);
		assert_int_equal(sudoku_count(&in, 10, 0, &nb, &b, &sb),
		    SUDOKU_SOLVED);
		assert_int_equal(na, nb);
		assert_memory_equal(a.cell, b.cell, SUDOKU_CELLS);
		assert_memory_equal(&sa, &sb, sizeof sa);
	}
}

/* Can this CPU run the copy of the solver named isa (sudoku.h)? */
static int
isa_runs(const char *isa)
{
	if (strcmp(isa, "generic") == 0)
		return 1;
#if defined(__x86_64__) && defined(__GNUC__)
	__builtin_cpu_init();
	if (strcmp(isa, "sse41") == 0)
		return __builtin_cpu_supports("sse4.1") &&
		    __builtin_cpu_supports("sse4.2") &&
		    __builtin_cpu_supports("ssse3") &&
		    __builtin_cpu_supports("popcnt");
	if (strcmp(isa, "avx2") == 0)
		return __builtin_cpu_supports("avx2") &&
		    __builtin_cpu_supports("bmi") &&
		    __builtin_cpu_supports("bmi2") &&
		    __builtin_cpu_supports("popcnt");
	if (strcmp(isa, "avx512") == 0)
		return isa_runs("avx2") &&
		    __builtin_cpu_supports("avx512f") &&
		    __builtin_cpu_supports("avx512bw") &&
		    __builtin_cpu_supports("avx512dq") &&
		    __builtin_cpu_supports("avx512vl");
#endif
	return 0;
}

/*
 * The copy of the solver in use is the one SUDOKU_ISA names, when the
 * CPU runs it: scripts/check runs the unit tests once per copy that
 * way.  Skipped when the CPU cannot run the copy asked for.
 */
void
test_isa(void **state)
{
	const char	*want = getenv("SUDOKU_ISA"), *got = sudoku_isa();

	(void)state;
	print_message("# solver copy in use: %s (SUDOKU_ISA %s)\n", got,
	    want != NULL ? want : "unset");
	assert_true(strcmp(got, "generic") == 0 || strcmp(got, "sse41") == 0 ||
	    strcmp(got, "avx2") == 0 || strcmp(got, "avx512") == 0);
	if (want == NULL || *want == '\0' || strcmp(want, got) == 0)
		return;
	if (strcmp(want, "generic") != 0 && strcmp(want, "sse41") != 0 &&
	    strcmp(want, "avx2") != 0 && strcmp(want, "avx512") != 0)
		test_fail("SUDOKU_ISA=%s names no copy of the solver", want);
	if (isa_runs(want))
		test_fail("SUDOKU_ISA=%s, but %s is in use", want, got);
	skip();
}

#ifndef TEST_PUZZLE_DIR
#define TEST_PUZZLE_DIR	"data"
#endif

/* FNV-1a over the 64-bit words x. */
static uint64_t
effort_mix(uint64_t h, uint64_t x)
{
	int	 i;

	for (i = 0; i < 8; i++, x >>= 8)
		h = (h ^ (x & 0xff)) * 0x100000001b3ULL;
	return (h);
}

/* Every search of in, its result, count, guesses and steps, into h. */
static uint64_t
effort_one(uint64_t h, const struct sudoku_grid *in)
{
	static const unsigned long limits[] = { 2, 50 };
	struct sudoku_grid	out;
	struct sudoku_stats	st;
	unsigned long		n;
	size_t			i;

	for (i = 0; i < 2; i++) {
		h = effort_mix(h, sudoku_solve(in, i == 0 ? SUDOKU_ANY :
		    SUDOKU_LEXMIN, 0, &out, &st));
		h = effort_mix(effort_mix(h, st.guesses), st.steps);
	}
	for (i = 0; i < 2; i++) {
		h = effort_mix(h, sudoku_count(in, limits[i], 0, &n, &out,
		    &st));
		h = effort_mix(effort_mix(effort_mix(h, n), st.guesses),
		    st.steps);
	}
	return (h);
}

uint64_t
test_effort(void)
{
	struct sudoku_grid	in;
	char			line[256], path[512];
	FILE			*f;
	uint64_t		h = 0xcbf29ce484222325ULL;
	int			k = 0, j;

	memset(&in, 0, sizeof in);
	h = effort_one(h, &in);
	f = test_fopen("PUZZLE_DIR", TEST_PUZZLE_DIR,
	    "puzzles6_forum_hardest_1106", path, sizeof path);
	while (k < 100 && fgets(line, sizeof line, f) != NULL) {
		if (line[0] == '#' || sudoku_parse(line, SUDOKU_CELLS, &in,
		    NULL) != 0)
			continue;
		h = effort_one(h, &in);
		/* Some givens out: several solutions. */
		for (j = k % 3; j < SUDOKU_CELLS; j += 7)
			in.cell[j] = 0;
		h = effort_one(h, &in);
		k++;
	}
	fclose(f);
	return (h);
}

/*
 * Every copy of the solver this CPU runs makes the same searches: the
 * answers and the effort (guesses, steps) of test_effort()'s, as one
 * hash, from this program run again with SUDOKU_ISA naming each copy
 * (tests/unit/test_sudoku --effort prints it), equal to this run's.
 */
void
test_isa_effort(void **state)
{
	static const char *const isas[] = { "generic", "sse41", "avx2",
	    "avx512" };
	const char	*self = *(const char *const *)*state;
	unsigned long long got;
	uint64_t	 want = test_effort();
	char		 cmd[1024];
	size_t		 i;
	FILE		*p;

	for (i = 0; i < sizeof isas / sizeof isas[0]; i++) {
		if (!isa_runs(isas[i]))
			continue;
		snprintf(cmd, sizeof cmd, "SUDOKU_ISA=%s '%s' --effort",
		    isas[i], self);
		assert_non_null(p = popen(cmd, "r"));
		if (fscanf(p, "%llx", &got) != 1)
			test_fail("%s gave no effort", cmd);
		assert_int_equal(pclose(p), 0);
		print_message("# effort of the %s copy: %016llx\n", isas[i],
		    got);
		if (got != want)
			test_fail("the %s copy's effort is %016llx, this run's "
			    "(%s) %016llx", isas[i], got, sudoku_isa(),
			    (unsigned long long)want);
	}
}
