/*
 * solver.h -- the search engine under sudoku_solve(), sudoku_count() and
 * sudoku_search_*().
 *
 * Private to the solver core (src/core/sudoku.c); nothing else includes
 * it.  struct solver is the private layout of struct sudoku_search.
 */
#ifndef SOLVER_H
#define SOLVER_H

#include <stdint.h>

#include "sudoku.h"

struct solver;

/*
 * Start a search of in for up to limit solutions (0 counts as 1) within
 * budget guesses (0 = SUDOKU_BUDGET_DEFAULT), branching as policy says.
 * Returns SUDOKU_MORE, or SUDOKU_INVALID for a value > 9 or conflicting
 * givens.
 */
enum sudoku_result solver_start(struct solver *, const struct sudoku_grid *in,
	    enum sudoku_policy policy, unsigned long limit, uint64_t budget);

/* Go on for at most slice guesses (0: to the end); SUDOKU_MORE if cut. */
enum sudoku_result solver_step(struct solver *, uint64_t slice);

/* Solutions found so far, the first of them, the effort so far. */
void	solver_result(const struct solver *, unsigned long *count,
	    struct sudoku_grid *first, struct sudoku_stats *st);

#endif /* SOLVER_H */
