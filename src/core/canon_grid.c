/* SPDX-License-Identifier: ISC */
/*
 * canon_grid.c -- the first two rows of a complete grid's canonical
 * form, without trying all 1,296 orders of the columns.
 *
 * Why.  A complete grid's first row has nine new digits: it reads
 * 1 2 ... 9 whatever the order of the columns, so canon_level.c's search
 * would take every order as a child of its own and try the next row
 * under each, about a millisecond a grid.  The second row decides.
 *
 * How.  With rows r0 and r1 (of one band) on top, digit d takes the
 * label 1 + the position of its column in row r0, so the second row
 * reads, at position p, 1 + pos(f(col(p))) where f(c) is the column
 * of r0 holding the digit that r1 has in column c: f is fixed, and
 * sends each column to another stack.  The columns are chosen in the
 * order of the positions.  At a position not filled yet any column
 * that fits (of the slot's stack, or of a stack not placed yet) is
 * tried; then f of the column there must take the first position still
 * free where it can go (the first free one of its stack's slot, or the
 * first slot with no stack yet): any later one would make this
 * position's value greater with the same prefix, so no least order puts
 * it elsewhere.  That leaves a few orders per pair of rows, each giving
 * its exact second row as it goes, cut by the best string so far; the
 * complete orders go on to the third row in canon_level.c's search with every
 * column placed.  Every order that gives the least second row is met,
 * so the count of automorphisms stays exact.
 */
#include <string.h>

#include "sudoku.h"
#include "canon.h"

/* An order of the columns being built for rows r0, r1. */
struct grid_order {
	uint8_t		col[9];		/* input column at position p */
	uint8_t		pos[9];		/* position of input column c */
	int8_t		slot_of[3];	/* input stack -> slot, -1 if none */
	int8_t		stack_at[3];	/* slot -> input stack, -1 if none */
	uint8_t		f[9];		/* column of r0 with r1's digit */
	uint8_t		s[9];		/* the second row so far */
};

#define GRID_FREE	0xff

static void
grid_put(struct grid_order *o, int c, int p)
{
	o->col[p] = (uint8_t)c;
	o->pos[c] = (uint8_t)p;
	if (o->stack_at[p / 3] < 0) {
		o->stack_at[p / 3] = (int8_t)(c / 3);
		o->slot_of[c / 3] = (int8_t)(p / 3);
	}
}

/* Puts column c at the first free position it may take. */
static void
grid_place(struct grid_order *o, int c)
{
	int	 slot = o->slot_of[c / 3], p;

	if (slot < 0)
		for (slot = 0; o->stack_at[slot] >= 0; slot++)
			;
	for (p = 3 * slot; o->col[p] != GRID_FREE; p++)
		;
	grid_put(o, c, p);
}

/* Does column c fit at the free position p? */
static int
grid_fits(const struct grid_order *o, int c, int p)
{
	return (o->pos[c] == GRID_FREE && (o->stack_at[p / 3] >= 0 ?
	    o->stack_at[p / 3] == c / 3 : o->slot_of[c / 3] < 0));
}

struct grid_walk {
	struct canon_ctx	*x;
	struct canon_node	 node;	/* t, used, band: the rest per order */
	int			 r0;
};

/* A complete order: the node below the second row, then canon_level(). */
static void
grid_descend(struct grid_walk *w, const struct grid_order *o, int eq)
{
	struct canon_ctx	*x = w->x;
	struct canon_node	 n = w->node;
	const uint8_t		*v0 = x->m[n.t][w->r0];
	int			 p;

	memcpy(n.col, o->col, 9);
	for (p = 0; p < 9; p++)
		n.lab[v0[o->col[p]]] = (uint8_t)(p + 1);
	n.nl = 10;
	memcpy(x->cur + 9, o->s, 9);
	canon_level(x, &n, 2, eq);
}

/*
 * Position p onward.  eq: the second row so far is the best string's
 * (with a best string known).
 */
static void
grid_walk(struct grid_walk *w, struct grid_order *o, int p, int eq)
{
	struct canon_ctx	*x = w->x;
	struct grid_order	 next;
	unsigned long		 nb;
	int			 c, lo, hi, v, ceq;

	if (p == 9) {
		grid_descend(w, o, eq);
		return;
	}
	if (o->col[p] != GRID_FREE)
		lo = hi = o->col[p];
	else
		lo = 0, hi = 8;
	for (c = lo; c <= hi; c++) {
		if (o->col[p] == GRID_FREE && !grid_fits(o, c, p))
			continue;
		next = *o;
		if (next.col[p] == GRID_FREE)
			grid_put(&next, c, p);
		if (next.pos[next.f[c]] == GRID_FREE)
			grid_place(&next, next.f[c]);
		v = next.pos[next.f[c]] + 1;
		ceq = 0;
		if (x->have && eq) {
			if (v > x->best[9 + p])
				continue;
			ceq = v == x->best[9 + p];
		}
		next.s[p] = (uint8_t)v;
		nb = x->nbest;
		grid_walk(w, &next, p + 1, ceq);
		/* A new best below has this prefix. */
		if (x->nbest != nb)
			eq = 1;
	}
}

/* Rows r0 and r1 of orientation t on top. */
static void
grid_pair(struct canon_ctx *x, int t, int r0, int r1)
{
	struct grid_walk	 w;
	struct grid_order	 o;
	uint8_t			 where[10];
	int			 c;

	memset(&w, 0, sizeof w);
	w.x = x;
	w.r0 = r0;
	w.node.mult = 1;
	w.node.t = (uint8_t)t;
	w.node.used = (uint16_t)(1u << r0 | 1u << r1);
	w.node.band = (uint8_t)(r0 / 3);
	memset(&o, GRID_FREE, sizeof o);
	memset(o.slot_of, -1, sizeof o.slot_of);
	memset(o.stack_at, -1, sizeof o.stack_at);
	for (c = 0; c < 9; c++)
		where[x->m[t][r0][c]] = (uint8_t)c;
	for (c = 0; c < 9; c++)
		o.f[c] = where[x->m[t][r1][c]];
	x->rows[0] = (uint8_t)r0;
	x->rows[1] = (uint8_t)r1;
	for (c = 0; c < 9; c++)
		x->cur[c] = (uint8_t)(c + 1);
	/* Every first row reads 1..9: the best's is this one's. */
	grid_walk(&w, &o, 0, x->have);
}

void
canon_grid(struct canon_ctx *x)
{
	int	 t, r0, r1;

	for (t = 0; t < 2; t++)
		for (r0 = 0; r0 < 9; r0++)
			for (r1 = r0 / 3 * 3; r1 < r0 / 3 * 3 + 3; r1++)
				if (r1 != r0)
					grid_pair(x, t, r0, r1);
}
