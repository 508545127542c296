/* SPDX-License-Identifier: ISC */
/*
 * canon.c -- sudoku_canon(): the canonical (minlex) form of a puzzle or
 * grid and its automorphisms (CANON).  It checks the grid, sets the
 * search up and runs it: canon_level.c's row by row for a puzzle,
 * canon_grid.c's first two rows for a complete grid (which then hands
 * its orders to canon_level.c).  The form and the search are described
 * in canon_level.c.
 */
#include <string.h>

#include "sudoku.h"
#include "canon.h"
#include "logic.h"

/* 0 if g is a valid grid: cells 0..9, no digit twice in a unit. */
static int
canon_valid(const struct sudoku_grid *g)
{
	uint16_t	 seen[27], bit;
	int		 cell, v;

	memset(seen, 0, sizeof seen);
	for (cell = 0; cell < SUDOKU_CELLS; cell++) {
		if ((v = g->cell[cell]) == 0)
			continue;
		if (v > 9)
			return (-1);
		bit = logic_bit(v);
		if ((seen[logic_row(cell)] | seen[logic_col(cell)] |
		    seen[logic_box(cell)]) & bit)
			return (-1);
		seen[logic_row(cell)] |= bit;
		seen[logic_col(cell)] |= bit;
		seen[logic_box(cell)] |= bit;
	}
	return (0);
}

/* Is every cell given? */
static int
canon_full(const struct sudoku_grid *g)
{
	int	 cell;

	for (cell = 0; cell < SUDOKU_CELLS; cell++)
		if (g->cell[cell] == 0)
			return (0);
	return (1);
}

int
sudoku_canon(const struct sudoku_grid *in, struct sudoku_grid *form,
    unsigned long *automorphisms, struct sudoku_transform *t)
{
	struct canon_ctx	 x;
	struct canon_node	 root;
	int			 r, c;

	if (canon_valid(in) != 0)
		return (-1);
	x.blank[0] = x.blank[1] = 0;
	for (r = 0; r < 9; r++)
		for (c = 0; c < 9; c++) {
			x.m[0][r][c] = x.m[1][c][r] = in->cell[r * 9 + c];
			if (in->cell[r * 9 + c] == 0)
				continue;
			x.blank[0] |= (uint16_t)(1u << r);
			x.blank[1] |= (uint16_t)(1u << c);
		}
	x.blank[0] ^= 0x1ff;
	x.blank[1] ^= 0x1ff;
	x.have = 0;
	x.nbest = x.count = 0;
	memset(&root, 0, sizeof root);
	root.mult = 1;
	root.g = 3;
	root.nl = 1;
	for (c = 0; c < 9; c++)
		root.col[c] = (uint8_t)c;
	if ((x.blank[0] | x.blank[1]) == 0 && canon_full(in))
		canon_grid(&x);		/* its first row ties 1,296 ways */
	else
		canon_level(&x, &root, 0, 0);
	memcpy(form->cell, x.best, SUDOKU_CELLS);
	if (automorphisms != NULL)
		*automorphisms = x.count;
	if (t != NULL)
		*t = x.bt;
	return (0);
}
