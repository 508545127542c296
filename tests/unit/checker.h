/* SPDX-License-Identifier: ISC */
/*
 * checker.h -- test-side Sudoku oracle, independent of the solver core.
 *
 * Nothing here calls the library under test: grids are plain arrays of
 * 81 bytes (0 blank, 1..9 digit), so a bug in src/sudoku.c cannot hide
 * itself by also being in the expectation.
 */
#ifndef CHECKER_H
#define CHECKER_H

#include <stddef.h>
#include <stdint.h>

#define CHECKER_CELLS	81

/*
 * Is sol a solution of puzzle: every cell 1..9, each of the 27 units
 * holds every digit once, and every given of puzzle is kept?  Returns 1
 * if so, else 0 with a reason in why (if why is not NULL).
 */
int	checker_solution(const uint8_t *puzzle, const uint8_t *sol,
	    char *why, size_t whysize);

/*
 * The reference search: the seeds' backtracker (BOJ 2239/2580), blanks
 * in row-major order, digits ascending, row/column/box bitmasks, no
 * propagation.  Solutions are therefore met in lexicographic order.
 * Counts up to limit solutions, storing the first one in first (if not
 * NULL).  Returns 0 when the search finished (count is exact, or ==
 * limit), -1 when more than maxnodes nodes were needed (count is then
 * a lower bound) and -2 when the givens conflict or a value is > 9.
 */
int	checker_search(const uint8_t *puzzle, unsigned long limit,
	    unsigned long maxnodes, unsigned long *count, uint8_t *first);

/*
 * The same search, every solution kept: all gets count * 81 cells, in
 * lexicographic order.  checker_marks_search() searches pencil marks
 * instead of givens: cell i may hold digit d while bit d - 1 of
 * marks[i] is set (a single bit: a given).  Return as checker_search()
 * (conflicting givens simply have no solution).
 */
int	checker_search_all(const uint8_t *puzzle, unsigned long limit,
	    unsigned long maxnodes, unsigned long *count, uint8_t *all);
int	checker_marks_search(const uint16_t *marks, unsigned long limit,
	    unsigned long maxnodes, unsigned long *count, uint8_t *all);

/*
 * Reads a grid from text written for people: digits and '.' are cells,
 * spaces, slashes and newlines are skipped; anything else ends it.
 * Returns the number of cells read (at most 81 are stored).
 */
int	checker_grid(const char *text, uint8_t *g);

/* Deterministic pseudo-random numbers (xorshift32), state never 0. */
uint32_t checker_random(uint32_t *state);

/*
 * A new complete grid from a complete grid sol, by moves that keep
 * every rule: relabel digits, permute rows in a band, bands, columns in
 * a stack, stacks, and maybe transpose.
 */
void	checker_shuffle(const uint8_t *sol, uint32_t *state, uint8_t *out);

/* Keeps exactly keep cells of sol (chosen at random), blanks the rest. */
void	checker_keep(const uint8_t *sol, int keep, uint32_t *state,
	    uint8_t *out);

#endif /* CHECKER_H */
