/* SPDX-License-Identifier: ISC */
/*
 * draw.h -- sudokuc's pictures for a terminal (-f pretty), 7-bit ASCII.
 */
#ifndef DRAW_H
#define DRAW_H

#include <stdio.h>

#include "item.h"

/* The 13 lines of the boxed grid of 81 cells, into buf (512 bytes). */
size_t	draw_grid(const char *cells, char *buf);

/*
 * A hint on the grid it applies to: the reply line (a step, as HINT
 * answers it), then the state the hint starts from -- the puzzle, or
 * the player's grid of q -- as candidates, with the placement and the
 * eliminations of the step marked (sudokuc(1), "Hints").  Returns 0,
 * or -1 if the reply is not a step (nothing is printed then).
 */
int	draw_hint(FILE *f, const struct sudoku_grid *puzzle,
	    const struct query *q, const char *reply);

#endif /* DRAW_H */
