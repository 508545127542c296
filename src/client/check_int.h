/* SPDX-License-Identifier: ISC */
/*
 * check_int.h -- what the parts of the answer checks share: check.c
 * (the solver's and the logic's answers, the dispatch) and
 * check_tools.c (the toolbox's answers, GENERATE's).
 */
#ifndef CHECK_INT_H
#define CHECK_INT_H

#include <stddef.h>

#include "item.h"

/* Guesses a check may make: far more than any unique puzzle needs. */
#define CHECK_BUDGET	100000

/* why (of size bytes) gets the printf text; returns -1. */
int	check_fail(char *why, size_t size, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* "r4c7" for a cell. */
const char *check_cell(int cell, char buf[16]);
/* The technique named by the len bytes at s, or SUDOKU_TECH_COUNT. */
enum sudoku_technique check_technique(const char *s, size_t len);
/* "<level> <score> <hardest>": the score in the level's x.0-x.9. */
int	check_rate(const char *reply, char *why, size_t size);
/*
 * One action "rRcC=D" or "rRcC-D" at *s (moved past it), checked
 * against sol (if any).
 */
int	check_action(const char **s, const struct sudoku_grid *sol,
	    char *why, size_t size);

/* check_tools.c: the toolbox's answers and GENERATE's, as check_answer. */
int	check_generate(const struct query *, const char *reply, char *why,
	    size_t size);
int	check_canon(const struct item *, const char *reply, char *why,
	    size_t size);
int	check_shuffle(const struct item *, const char *reply, char *why,
	    size_t size);
int	check_reduce(const struct query *, const struct item *,
	    const char *reply, char *why, size_t size);
int	check_path(const struct item *, const char *reply, char *why,
	    size_t size);

#endif /* CHECK_INT_H */
