/* SPDX-License-Identifier: ISC */
/*
 * chain.c -- simple colouring, X-chains and XY-chains.
 *
 * A strong link joins two cells that are a digit's only places in a
 * unit (a conjugate pair): if one is not the digit the other is.  A
 * weak link joins two cells that see each other: if one is the digit
 * the other is not.
 *
 * Simple colouring: the conjugate pairs of a digit, followed from cell
 * to cell, split a cluster into two colours, one of which is all true.
 * Two cells of one colour that see each other make that colour false
 * (wrap); a cell outside the cluster that sees both colours is not the
 * digit (trap).
 *
 * X-chain: strong and weak links of one digit in turn, strong at both
 * ends: if the first cell is not the digit the last one is, so a cell
 * seeing both is not.  XY-chain: bivalue cells, each seeing the next
 * and sharing a digit with it: if the first is not a, the next is its
 * other digit, which rules that digit out of the next cell, and so on;
 * when the last cell comes out as a, one of the two ends is a.
 *
 * Chains are searched breadth first from each start cell in row-major
 * order, so the shortest one from the first start that removes
 * something wins; they are at most SUDOKU_CHAIN_MAX cells long.
 */
#include <string.h>

#include "sudoku.h"
#include "logic.h"

/* The places of one digit and their strong links. */
struct chain_digit {
	int		d;			/* 1..9 */
	uint16_t	bit;
	int		n;
	uint8_t		cell[SUDOKU_CELLS];	/* index -> cell */
	int8_t		index[SUDOKU_CELLS];	/* cell -> index, or -1 */
	uint8_t		nstrong[SUDOKU_CELLS];	/* by index */
	uint8_t		strong[SUDOKU_CELLS][3];	/* partner indexes */
};

static void
chain_link(struct chain_digit *D, int i, int j)
{
	int	 k;

	for (k = 0; k < D->nstrong[i]; k++)
		if (D->strong[i][k] == j)
			return;
	D->strong[i][D->nstrong[i]++] = (uint8_t)j;
}

static void
chain_digit_init(const struct logic *L, int d, struct chain_digit *D)
{
	unsigned int	 w;
	int		 cell, u, a, b;

	D->d = d;
	D->bit = logic_bit(d);
	D->n = 0;
	memset(D->index, -1, sizeof D->index);
	for (cell = 0; cell < SUDOKU_CELLS; cell++) {
		if (!logic_open(L, cell) || !(L->m[cell] & D->bit))
			continue;
		D->nstrong[D->n] = 0;
		D->index[cell] = (int8_t)D->n;
		D->cell[D->n++] = (uint8_t)cell;
	}
	for (u = 0; u < LOGIC_UNITS; u++) {
		w = L->where[u][d - 1];
		if ((L->placed[u] & D->bit) || logic_count(w) != 2)
			continue;
		a = D->index[logic_cell(u, logic_digit(w) - 1)];
		b = D->index[logic_cell(u, logic_digit(w & (w - 1)) - 1)];
		chain_link(D, a, b);
		chain_link(D, b, a);
	}
}

/* Lists the cluster in the step: colour c first, then the other. */
static void
chain_colours(const struct logic *L, struct sudoku_step *st,
    const struct chain_digit *D, const int *q, int n, const int8_t *colour,
    int c)
{
	int	 k, pass;

	for (pass = 0; pass < 2; pass++) {
		for (k = 0; k < n; k++)
			if ((colour[q[k]] == c) == (pass == 0))
				logic_add_cell(st, L, D->cell[q[k]]);
		if (pass == 0)
			st->nsplit = st->ncells;
	}
}

/* Two cells of one colour see each other: that colour is false. */
static int
chain_wrap(const struct logic *L, struct sudoku_step *st,
    const struct chain_digit *D, int *q, int n, const int8_t *colour)
{
	int	 i, j, k, c, t;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (colour[q[i]] == colour[q[j]] &&
			    logic_sees(D->cell[q[i]], D->cell[q[j]]))
				goto found;
	return (0);
found:
	/* The clashing pair first, for the explanation. */
	t = q[i], q[i] = q[0], q[0] = t;
	t = q[j], q[j] = q[1], q[1] = t;
	c = colour[q[0]];
	logic_begin(st, st->tech);
	st->digits = D->bit;
	st->wrap = 1;
	chain_colours(L, st, D, q, n, colour, c);
	for (k = 0; k < n; k++)
		if (colour[q[k]] == c)
			logic_elim(st, D->cell[q[k]], D->d);
	return (1);
}

/* Cells outside the cluster seeing both colours. */
static int
chain_trap(const struct logic *L, struct sudoku_step *st,
    const struct chain_digit *D, const int *q, int n, const int8_t *colour,
    const uint8_t *comp)
{
	int	 i, k, seen, cell;

	logic_begin(st, st->tech);
	st->digits = D->bit;
	for (i = 0; i < D->n; i++) {
		if (colour[i] >= 0 && comp[i] == q[0])
			continue;
		cell = D->cell[i];
		for (k = seen = 0; k < n && seen != 3; k++)
			if (logic_sees(cell, D->cell[q[k]]))
				seen |= 1 << colour[q[k]];
		if (seen == 3)
			logic_elim(st, cell, D->d);
	}
	if (st->nactions == 0)
		return (0);
	chain_colours(L, st, D, q, n, colour, 0);
	return (1);
}

static int
chain_colour_digit(const struct logic *L, struct sudoku_step *st,
    const struct chain_digit *D)
{
	int8_t	 colour[SUDOKU_CELLS];
	uint8_t	 comp[SUDOKU_CELLS];
	int	 q[SUDOKU_CELLS], i, h, n, k, x, y;

	memset(colour, -1, sizeof colour);
	for (i = 0; i < D->n; i++) {
		if (colour[i] >= 0 || D->nstrong[i] == 0)
			continue;
		n = 0;
		q[n++] = i;
		colour[i] = 0;
		comp[i] = (uint8_t)i;
		for (h = 0; h < n; h++) {
			x = q[h];
			for (k = 0; k < D->nstrong[x]; k++) {
				if (colour[y = D->strong[x][k]] >= 0)
					continue;
				colour[y] = (int8_t)!colour[x];
				comp[y] = (uint8_t)i;
				q[n++] = y;
			}
		}
		if (chain_wrap(L, st, D, q, n, colour) ||
		    chain_trap(L, st, D, q, n, colour, comp))
			return (1);
	}
	return (0);
}

int
chain_colouring(const struct logic *L, int arg, struct sudoku_step *st)
{
	struct chain_digit	 D;
	int			 d;

	(void)arg;
	for (d = 1; d <= 9; d++) {
		chain_digit_init(L, d, &D);
		if (chain_colour_digit(L, st, &D))
			return (1);
	}
	return (0);
}

/*
 * BFS bookkeeping shared by both chains: a state's parent (-1 for the
 * start, -2 unvisited) and its depth (links from the start).
 */
struct chain_bfs {
	int16_t		parent[SUDOKU_CELLS * 9];
	uint8_t		depth[SUDOKU_CELLS * 9];
	int16_t		queue[SUDOKU_CELLS * 9];
	int		head, tail;
};

static void
chain_bfs_start(struct chain_bfs *B, int nstates, int s)
{
	int	 i;

	for (i = 0; i < nstates; i++)
		B->parent[i] = -2;
	B->parent[s] = -1;
	B->depth[s] = 0;
	B->queue[0] = (int16_t)s;
	B->head = 0;
	B->tail = 1;
}

static void
chain_bfs_visit(struct chain_bfs *B, int from, int s)
{
	if (B->parent[s] != -2)
		return;
	B->parent[s] = (int16_t)from;
	B->depth[s] = (uint8_t)(B->depth[from] + 1);
	B->queue[B->tail++] = (int16_t)s;
}

/*
 * The chain ending in state s, start first, into the step's cells;
 * cell_of maps a state to its cell.
 */
static void
chain_path(const struct logic *L, struct sudoku_step *st,
    const struct chain_bfs *B, int s, int per_cell, const uint8_t *cell_of)
{
	int	 path[SUDOKU_CHAIN_MAX + 1], n = 0;

	for (; s >= 0 && n <= SUDOKU_CHAIN_MAX; s = B->parent[s])
		path[n++] = s;
	while (n > 0)
		logic_add_cell(st, L, cell_of[path[--n] / per_cell]);
}

/* Ends a and z of a chain on digit d: eliminations, then the path. */
static int
chain_goal(const struct logic *L, struct sudoku_step *st, int d, int a,
    int z)
{
	uint8_t	 ends[2];

	logic_begin(st, st->tech);
	ends[0] = (uint8_t)a;
	ends[1] = (uint8_t)z;
	st->digits = logic_bit(d);
	return (logic_elim_seeing(L, st, d, ends, 2) > 0);
}

/* X-chains of D from index a; states are index * 2 + (1 if "on"). */
static int
chain_x_from(const struct logic *L, struct sudoku_step *st,
    const struct chain_digit *D, int a, int maxcells, struct chain_bfs *B)
{
	int	 s, x, on, k, j;

	chain_bfs_start(B, D->n * 2, a * 2);
	while (B->head < B->tail) {
		s = B->queue[B->head++];
		x = s / 2;
		on = s % 2;
		if (on && x != a && chain_goal(L, st, D->d, D->cell[a],
		    D->cell[x])) {
			chain_path(L, st, B, s, 2, D->cell);
			return (1);
		}
		if (B->depth[s] + 1 >= maxcells)
			continue;
		for (k = 0; !on && k < D->nstrong[x]; k++)
			chain_bfs_visit(B, s, D->strong[x][k] * 2 + 1);
		for (j = 0; on && j < D->n; j++)
			if (logic_sees(D->cell[x], D->cell[j]))
				chain_bfs_visit(B, s, j * 2);
	}
	return (0);
}

int
chain_x(const struct logic *L, int maxcells, struct sudoku_step *st)
{
	struct chain_digit	 D;
	struct chain_bfs	 B;
	int			 d, a;

	for (d = 1; d <= 9; d++) {
		chain_digit_init(L, d, &D);
		for (a = 0; a < D.n; a++)
			if (D.nstrong[a] > 0 &&
			    chain_x_from(L, st, &D, a, maxcells, &B))
				return (1);
	}
	return (0);
}

/* The bivalue cells. */
struct chain_bival {
	int		n;
	uint8_t		cell[SUDOKU_CELLS];
};

/*
 * XY-chains from bivalue cell number a whose digit off is off; states
 * are index * 9 + (digit - 1), the digit the cell holds.
 */
static int
chain_xy_from(const struct logic *L, struct sudoku_step *st,
    const struct chain_bival *V, int a, int off, int maxcells,
    struct chain_bfs *B)
{
	unsigned int	 m;
	int		 s, x, v, j, cell;

	cell = V->cell[a];
	chain_bfs_start(B, V->n * 9, a * 9 +
	    logic_digit(L->m[cell] & ~logic_bit(off)) - 1);
	while (B->head < B->tail) {
		s = B->queue[B->head++];
		x = s / 9;
		v = s % 9 + 1;
		if (v == off && x != a &&
		    chain_goal(L, st, off, cell, V->cell[x])) {
			chain_path(L, st, B, s, 9, V->cell);
			return (1);
		}
		if (B->depth[s] + 1 >= maxcells)
			continue;
		for (j = 0; j < V->n; j++) {
			m = L->m[V->cell[j]];
			if (j == x || !(m & logic_bit(v)) ||
			    !logic_sees(V->cell[x], V->cell[j]))
				continue;
			chain_bfs_visit(B, s, j * 9 +
			    logic_digit(m & ~logic_bit(v)) - 1);
		}
	}
	return (0);
}

int
chain_xy(const struct logic *L, int maxcells, struct sudoku_step *st)
{
	struct chain_bival	 V;
	struct chain_bfs	 B;
	unsigned int		 m;
	int			 cell, a;

	V.n = 0;
	for (cell = 0; cell < SUDOKU_CELLS; cell++)
		if (logic_open(L, cell) && logic_count(L->m[cell]) == 2)
			V.cell[V.n++] = (uint8_t)cell;
	for (a = 0; a < V.n; a++)
		for (m = L->m[V.cell[a]]; m != 0; m &= m - 1)
			if (chain_xy_from(L, st, &V, a, logic_digit(m),
			    maxcells, &B))
				return (1);
	return (0);
}
