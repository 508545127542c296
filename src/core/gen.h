/* SPDX-License-Identifier: ISC */
/*
 * gen.h -- the pieces of an attempt of the generator (generate.c),
 * shared with generation under options (genx.c) so that both draw the
 * same random numbers in the same order: with no options, the two
 * make the same puzzles from the same seed.
 *
 * Private to the solver core; nothing outside src/core includes it.
 */
#ifndef GEN_H
#define GEN_H

#include "sudoku.h"
#include "symmetry.h"

/* struct sudoku_gen's state */
enum {
	GEN_RUNNING = 0,
	GEN_FOUND,
	GEN_OUT			/* of budget, or options no puzzle meets */
};

/* A random complete grid from gen's PRNG; -1 when the budget runs out. */
int	gen_grid(struct sudoku_gen *, struct sudoku_grid *);

/*
 * Removes the orbits of p in a random order, each unless the solution
 * stops being unique or fewer than floor givens would be left (p's
 * givens are whole orbits); -1 when the budget runs out.
 */
int	gen_thin(struct sudoku_gen *, struct sudoku_grid *,
	    const struct sym_orbits *, int);

/*
 * Counts p's solutions up to limit (0 for broken givens), the first
 * one found in *first (may be NULL); -1 when the budget runs out.
 */
int	gen_count(struct sudoku_gen *, const struct sudoku_grid *,
	    unsigned long, unsigned long *, struct sudoku_grid *);

/* Does p have exactly one solution: 1, 0, or -1 out of budget. */
int	gen_unique(struct sudoku_gen *, const struct sudoku_grid *);

#endif /* GEN_H */
