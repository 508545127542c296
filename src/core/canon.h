/* SPDX-License-Identifier: ISC */
/*
 * canon.h -- the state of the search for a canonical form, which
 * canon.c sets up: the search row by row (canon_level.c), and the first
 * two rows of a complete grid's (canon_grid.c), which hands its orders
 * to canon_level() for the third.
 *
 * Private to the solver core; nothing outside src/core includes it.
 */
#ifndef CANON_H
#define CANON_H

#include <stdint.h>

#include "sudoku.h"

#define CANON_NEW	10	/* the key of a digit not labelled yet */
#define CANON_TIES	8

/* Where a search path stands, before the row of its level. */
struct canon_node {
	unsigned long	mult;		/* blank rows passed over: a factor */
	uint16_t	used;		/* input rows taken */
	uint8_t		t;		/* 1: the grid is transposed */
	uint8_t		band;		/* input band of the output band */
	uint8_t		g;		/* leading slots with no stack placed */
	uint8_t		nl;		/* the next label */
	uint8_t		fr[3];		/* placed slot: leading free columns */
	uint8_t		col[9];		/* input column at each position */
	uint8_t		lab[10];	/* digit -> label, 0 if none yet */
};

/* Elements that may be put in any order: slots, or positions. */
struct canon_tie {
	uint8_t		slots;
	uint8_t		at;
	uint8_t		n;
};

/* A candidate row evaluated: its string and its children. */
struct canon_eval {
	uint8_t			s[9];
	uint8_t			t;
	uint8_t			row;
	uint8_t			nties;
	unsigned long		mult;
	struct canon_tie	tie[CANON_TIES];
	struct canon_node	child;	/* ties in one order, unlabelled */
};

struct canon_ctx {
	uint8_t			m[2][9][9];	/* [t][row][column] */
	uint16_t		blank[2];	/* rows with no given */
	uint8_t			cur[SUDOKU_CELLS];
	uint8_t			best[SUDOKU_CELLS];
	uint8_t			rows[9];	/* the path's input rows */
	int			have;
	unsigned long		nbest;		/* times best was replaced */
	unsigned long		count;
	struct sudoku_transform	bt;
};

/* canon_level.c: the search from row k of node n down (eq: its rows so far
 * are the best string's, which is known). */
void	canon_level(struct canon_ctx *, const struct canon_node *, int, int);

/* canon_grid.c: the whole search for a complete grid. */
void	canon_grid(struct canon_ctx *);

#endif /* CANON_H */
