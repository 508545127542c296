/*
 * solver.h -- the search engine under sudoku_solve() and sudoku_count().
 *
 * Private to the solver core (src/sudoku.c); nothing else includes it.
 */
#ifndef SOLVER_H
#define SOLVER_H

#include <stdint.h>

#include "sudoku.h"

/* What a search is after; decides the branching rule and when to stop. */
enum solver_mode {
	SOLVER_ANY = 0,		/* first solution; branch on a bivalue cell */
	SOLVER_LEXMIN,		/* smallest solution; branch row-major */
	SOLVER_COUNT		/* up to limit solutions; like SOLVER_ANY */
};

/*
 * Searches in (any values: cells > 9 or conflicting givens give
 * SUDOKU_INVALID) for up to limit solutions (ANY and LEXMIN stop at the
 * first) within budget guesses (0 = SUDOKU_BUDGET_DEFAULT).  *count
 * gets the number found, *first (if not NULL) the first one; first may
 * alias in.  st (if not NULL) gets this call's effort.
 */
enum sudoku_result solver_run(const struct sudoku_grid *in,
	    enum solver_mode mode, unsigned long limit, uint64_t budget,
	    unsigned long *count, struct sudoku_grid *first,
	    struct sudoku_stats *st);

#endif /* SOLVER_H */
