/* SPDX-License-Identifier: ISC */
/*
 * ref_equiv.h -- test-side references for equivalence and symmetry,
 * written without the library's code: a brute-force minlex form over
 * all 3,359,232 transformations, the transformation applied and checked
 * as sudoku.h defines it, and the symmetries of the square as the
 * generators of their groups, with orbits by closure.  Slow and plain:
 * they only have to be obviously right.
 */
#ifndef REF_EQUIV_H
#define REF_EQUIV_H

#include <stdint.h>

#include "core/sudoku.h"

/*
 * The least relabelled string of every transformation of g (blank 0),
 * and how many transformations give it.  About 25 ms (-O2).
 */
unsigned long ref_minlex(const uint8_t *g, uint8_t *best);

/* Is t a transformation as sudoku.h defines it (bands kept, ...)? */
int	ref_transform_valid(const struct sudoku_transform *t);

/* out = t applied to in, by the formula of sudoku.h. */
void	ref_transform_apply(const struct sudoku_transform *t,
	    const uint8_t *in, uint8_t *out);

/*
 * The generators of a symmetry's group as maps of (row, column), and
 * their number: rot90 alone generates the quarter turns, rot90 and the
 * mirror all eight.
 */
int	ref_sym_generators(enum sudoku_symmetry s, int (*gen[2])(int));

/* Is the pattern (cells != 0) invariant under s? */
int	ref_sym_holds(enum sudoku_symmetry s, const uint8_t *pattern);

/*
 * The orbits of s: orbit[cell] is the least cell of cell's orbit (the
 * closure under the generators).  Returns how many orbits there are.
 */
int	ref_sym_orbits(enum sudoku_symmetry s, uint8_t *orbit);

#endif /* REF_EQUIV_H */
