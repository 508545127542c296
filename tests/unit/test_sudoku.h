/* SPDX-License-Identifier: ISC */
/*
 * test_sudoku.h -- the cases of tests/unit/test_sudoku, one cmocka group
 * spread over several files: test_sudoku.c (parsing and text),
 * test_solve.c (solving and counting), test_budget.c (the budget,
 * determinism, the copy of the solver in use), test_search.c (the search
 * in slices), test_sets.c (the puzzle sets and the comparison with the
 * reference search), test_enum.c (every solution in turn), test_hard.c
 * (counting hard puzzles).
 */
#ifndef TEST_SUDOKU_H
#define TEST_SUDOKU_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <setjmp.h>
#include <cmocka.h>

#include "core/sudoku.h"
#include "checker.h"
#include "test_fail.h"

/* A puzzle and its known solution, written as text for checker_grid(). */
struct test_known {
	const char	*name;
	const char	*puzzle;
	const char	*solution;	/* NULL if not written down */
};

/* Asserts that out solves in (checker_solution()), naming what. */
void	test_assert_solves(const struct sudoku_grid *in,
	    const struct sudoku_grid *out, const char *what);
/* Fills g from text (checker_grid()), asserting 81 cells. */
void	test_grid(const char *text, struct sudoku_grid *g);
/*
 * Opens file in the directory $env names (make check sets it), or else
 * in dflt; a file that is not there fails the test, naming it: the data
 * ships with the source.  The path opened is left in path.
 */
FILE	*test_fopen(const char *env, const char *dflt, const char *file,
	    char *path, size_t len);

/* test_solve.c */
extern const char *const test_solutions[];	/* complete grids, as text */
extern const size_t test_nsolutions;
/* Puzzles, as text: the seeds' samples (BOJ 2239, 2580) and hard ones. */
extern const char test_boj2239_in[], test_boj2580_in[];
extern const char test_hard1[], test_easter[], test_clue17[];
void	test_seed_boj2239(void **);
void	test_seed_boj2580(void **);
void	test_lexmin_empty(void **);
void	test_count_unique(void **);
void	test_count_empty(void **);
void	test_nosolution(void **);
void	test_invalid(void **);
void	test_stats_propagation(void **);
void	test_stats_null_alias(void **);

/* test_hard.c */
void	test_hard_counts(void **);

/* test_budget.c */
void	test_budget_empty(void **);
void	test_budget_hard(void **);
void	test_budget_exact(void **);
void	test_determinism(void **);
void	test_isa(void **);
void	test_isa_effort(void **);
/* A hash of the answers and effort of a sample of searches. */
uint64_t test_effort(void);

/* test_search.c */
void	test_search_slices(void **);
void	test_search_wrappers(void **);
void	test_search_invalid(void **);

/* test_enum.c */
void	test_enum_lexmin(void **);
void	test_enum_any(void **);
void	test_enum_budget(void **);
void	test_enum_cands(void **);

/* test_sets.c */
void	test_checker(void **);
void	test_lexmin_reference(void **);
void	test_count_reference(void **);
void	test_set(void **);
void	test_many_set(void **);

/* One data-set case: the state handed to test_set(). */
enum test_mode {
	TEST_MODE_ANY,		/* sudoku_solve(SUDOKU_ANY) */
	TEST_MODE_LEXMIN,	/* sudoku_solve(SUDOKU_LEXMIN) */
	TEST_MODE_COUNT		/* sudoku_count(limit 2) == 1 */
};
struct test_set {
	const char	*file;		/* in $PUZZLE_DIR (data/) */
	unsigned long	 puzzles;	/* how many it holds */
	enum test_mode	 mode;
};

#endif /* TEST_SUDOKU_H */
