/* SPDX-License-Identifier: ISC */
/*
 * test_toolbox.h -- the cases of tests/unit/test_toolbox, one cmocka
 * group over several files: test_canon.c (canonical forms,
 * transformations, shuffles), test_symgen.c (symmetries, generation
 * with options), test_genrules.c (what generation refuses, what its
 * budget counts), test_reduce.c (minimize, constrain), test_path.c
 * (whole logical paths).  The expectations come from the test-side
 * references (checker.c, ref_equiv.c), never from the code's own output.
 */
#ifndef TEST_TOOLBOX_H
#define TEST_TOOLBOX_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "core/sudoku.h"
#include "checker.h"
#include "ref_equiv.h"

/* As in test_sudoku.h: a TAP comment next to the "not ok" line. */
#define test_fail(...) do {						\
	print_message("# ");						\
	print_message(__VA_ARGS__);					\
	print_message("\n");						\
	fail();								\
} while (0)

/* A puzzle set of $PUZZLE_DIR, read whole (a missing one fails). */
struct tb_set {
	struct sudoku_grid	*g;
	size_t			 n;
};

void	tb_load(const char *name, struct tb_set *set);
void	tb_free(struct tb_set *set);

/* 81 characters and a NUL, '.' for a blank. */
void	tb_text(const struct sudoku_grid *g, char *s);
void	tb_puzzle(const char *s, struct sudoku_grid *g);
int	tb_givens(const struct sudoku_grid *g);

/*
 * Solutions of p counted to 2 by the library, the first one checked by
 * checker_solution(): 0, 1 (then *sol holds it) or 2.
 */
int	tb_solutions(const struct sudoku_grid *p, struct sudoku_grid *sol);

/* 1 under AddressSanitizer (several times slower): sample big sets. */
int	tb_slow(void);

/* test_canon.c */
void	test_canon_brute(void **);
void	test_canon_known(void **);
void	test_canon_shuffled(void **);
void	test_canon_distinct(void **);
void	test_canon_invalid(void **);
void	test_transform_apply(void **);
void	test_shuffle(void **);
void	test_shuffle_moves(void **);

/* test_symgen.c */
void	test_sym_names(void **);
void	test_sym_holds(void **);
void	test_pattern_parse(void **);
void	test_genx_plain(void **);
void	test_genx_symmetric(void **);
void	test_genx_clues(void **);
void	test_genx_pattern(void **);
void	test_genx_refused(void **);
void	test_genx_best(void **);
void	test_genx_slices(void **);

/* test_genrules.c */
void	test_genx_check(void **);
void	test_genx_twins(void **);
void	test_genx_singles(void **);
void	test_genx_charges(void **);

/* test_reduce.c */
void	test_minimize(void **);
void	test_minimize_results(void **);
void	test_constrain(void **);
void	test_constrain_results(void **);
void	test_reduce_slices(void **);

/* test_path.c */
void	test_path_sets(void **);
void	test_path_state(void **);
void	test_path_text(void **);

#endif /* TEST_TOOLBOX_H */
