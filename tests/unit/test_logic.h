/* SPDX-License-Identifier: ISC */
/*
 * test_logic.h -- the cases of tests/unit/test_logic, one cmocka group
 * over several files: test_logic.c (the API, the technique table, text,
 * candidate grids), test_techniques.c (one hand-made grid per
 * technique), test_logic_sets.c (the puzzle sets: hint walks and
 * levels), test_generate.c (the generator), test_rate_equiv.c (what
 * the rating of equivalent puzzles shares).
 */
#ifndef TEST_LOGIC_H
#define TEST_LOGIC_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <setjmp.h>
#include <cmocka.h>

#include "core/sudoku.h"
#include "checker.h"
#include "test_fail.h"

/* The BOJ 2580 sample (as in test_solve.c) and the first hardest one. */
extern const char test_boj2580[];
extern const char test_hard1[];

/* Parses an 81-character puzzle (asserting it parses). */
void	test_puzzle(const char *s, struct sudoku_grid *g);

/*
 * Pencil marks written by hand: start with every candidate everywhere,
 * then narrow cells.  Cells are named (row, column), 1-based.
 */
void	marks_full(char *t);
void	marks_set(char *t, int r, int c, const char *digits);
void	marks_del(char *t, int r, int c, const char *digits);
/* Removes digits from the cells of row r at the columns listed ("3456"). */
void	marks_del_row(char *t, int r, const char *cols, const char *digits);
/* Removes digits from the cells of column c at the rows listed. */
void	marks_del_col(char *t, int c, const char *rows, const char *digits);

/* test_logic.c */
void	test_tech_table(void **);
void	test_level_names(void **);
void	test_cands_roundtrip(void **);
void	test_cands_errors(void **);
void	test_cands_wrong(void **);
void	test_hint_states(void **);
void	test_step_apply(void **);
void	test_step_text_size(void **);
void	test_rate_results(void **);
void	test_rate_boj2580(void **);

/* test_techniques.c */
void	test_tech_naked_single(void **);
void	test_tech_cases(void **);
void	test_tech_nostep(void **);

/* test_logic_sets.c */
/* Opens a set in $PUZZLE_DIR; a missing directory is a failure. */
FILE	*walk_open(const char *file);
/* The next puzzle of f; 0 at the end.  Terminators, blanks, '#' skipped. */
int	walk_next(FILE *f, struct sudoku_grid *g, unsigned long *lineno);
void	test_walk_set(void **);
void	test_levels_hardest(void **);
void	test_rate_cap(void **);

/* One data-set walk: the state handed to test_walk_set(). */
struct walk_set {
	const char	*file;		/* in $PUZZLE_DIR */
	unsigned long	 puzzles;	/* how many it holds */
};

/* test_generate.c */
void	test_gen_levels(void **);
void	test_gen_golden(void **);
void	test_gen_slices(void **);
void	test_gen_budget(void **);
void	test_gen_budget_seeds(void **);

/* test_rate_equiv.c */
void	test_rate_equiv(void **);

#endif /* TEST_LOGIC_H */
