/* SPDX-License-Identifier: ISC */
/*
 * symmetry.h -- the orbits of the cells under a symmetry of the square
 * (symmetry.c), for the generator, which removes givens an orbit at a
 * time so that the pattern of the givens keeps the symmetry.
 *
 * Private to the solver core; nothing outside src/core includes it.
 */
#ifndef SYMMETRY_H
#define SYMMETRY_H

#include <stdint.h>

#include "sudoku.h"

/*
 * The orbits of a symmetry, numbered in row-major order of their first
 * cell: orbit i is cell[start[i]] .. cell[start[i + 1] - 1], in
 * row-major order; of[c] is the orbit of cell c.  With no symmetry,
 * orbit i is cell i alone.
 */
struct sym_orbits {
	int		n;
	uint8_t		of[SUDOKU_CELLS];
	uint8_t		start[SUDOKU_CELLS + 1];
	uint8_t		cell[SUDOKU_CELLS];
};

void	sym_orbits(enum sudoku_symmetry, struct sym_orbits *);

#endif /* SYMMETRY_H */
