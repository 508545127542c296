/* SPDX-License-Identifier: ISC */
/*
 * logic.h -- the logical solver's working state and the technique
 * finders, shared by cands.c, logic.c, fish.c, wing.c, chain.c,
 * rate.c and generate.c.
 *
 * Private to the solver core; nothing outside src/core includes it.
 */
#ifndef LOGIC_H
#define LOGIC_H

#include <stdint.h>

#include "sudoku.h"

#define LOGIC_ALL	0x1ffu		/* the nine digits, bit d - 1 */

/*
 * Units: 0..8 rows, 9..17 columns, 18..26 boxes.  A position in a unit
 * is the index of the cell in it (0..8): the column in a row, the row
 * in a column, row-in-box * 3 + column-in-box in a box.
 */
#define LOGIC_UNITS	27

/* A set of cells: bit cell % 64 of w[cell / 64]. */
struct logic_set {
	uint64_t	w[2];
};

/*
 * What sudoku_hint() sees of a candidate grid.  m[] are the effective
 * candidates: a filled cell (one candidate in raw[]) keeps it; another
 * cell loses the digits of the filled cells it sees.  The rest is built
 * when a technique needs it (most steps are singles): lone[] for hidden
 * singles, where[] and has[] for the techniques after them.
 */
struct logic {
	uint16_t	raw[SUDOKU_CELLS];	/* the grid as given */
	uint16_t	m[SUDOKU_CELLS];	/* effective candidates */
	uint16_t	placed[LOGIC_UNITS];	/* digits filled in a unit */
	uint16_t	lone[LOGIC_UNITS];	/* open digits with one place */
	uint16_t	where[LOGIC_UNITS][9];	/* positions of digit d */
	struct logic_set has[9];		/* open cells with digit d */
	int		nfilled;
	int		units;		/* where[] and has[] are built */
};

/* A technique finder: fills *st and returns 1 if it makes progress. */
typedef int logic_finder(const struct logic *, int, struct sudoku_step *);

/*
 * Bits set in a 9-bit mask.  Not __builtin_popcount(): without -mpopcnt
 * (the x86-64 baseline) that is a libgcc call, and the finders count
 * bits in their inner loops.
 */
static inline int
logic_count(unsigned int m)
{
	m = m - ((m >> 1) & 0x155u);
	m = (m & 0x133u) + ((m >> 2) & 0x133u);
	return ((int)((m + (m >> 4) + (m >> 8)) & 0xfu));
}

static inline int
logic_single(unsigned int m)
{
	return (m != 0 && (m & (m - 1)) == 0);
}

/* The lowest digit of a mask, 1..9 (m != 0). */
static inline int
logic_digit(unsigned int m)
{
	return (__builtin_ctz(m) + 1);
}

static inline uint16_t
logic_bit(int digit)
{
	return ((uint16_t)(1u << (digit - 1)));
}

/* Cell k (0..8) of unit u. */
extern const uint8_t logic_units_cells[LOGIC_UNITS][9];

static inline int
logic_cell(int u, int k)
{
	return (logic_units_cells[u][k]);
}

/* A cell's units and its position in its box (cands.c). */
struct logic_geo {
	uint8_t		row;
	uint8_t		col;	/* 9..17 */
	uint8_t		box;	/* 18..26 */
	uint8_t		pos;	/* in the box */
};
extern const struct logic_geo logic_geo[SUDOKU_CELLS];

static inline int
logic_row(int cell)
{
	return (logic_geo[cell].row);
}

static inline int
logic_col(int cell)
{
	return (logic_geo[cell].col);
}

static inline int
logic_box(int cell)
{
	return (logic_geo[cell].box);
}

/* Is cell in unit u? */
static inline int
logic_in(int u, int cell)
{
	return (logic_row(cell) == u || logic_col(cell) == u ||
	    logic_box(cell) == u);
}

/* Do two different cells share a unit? */
static inline int
logic_sees(int a, int b)
{
	const struct logic_geo	*x = &logic_geo[a], *y = &logic_geo[b];

	return (a != b && (x->row == y->row || x->col == y->col ||
	    x->box == y->box));
}

static inline void
logic_set_add(struct logic_set *s, int cell)
{
	s->w[cell >> 6] |= 1ULL << (cell & 63);
}

static inline int
logic_set_empty(const struct logic_set *s)
{
	return ((s->w[0] | s->w[1]) == 0);
}

/* Removes and returns the lowest cell of a non-empty set. */
static inline int
logic_set_pop(struct logic_set *s)
{
	int	 i = s->w[0] == 0, b = __builtin_ctzll(s->w[i]);

	s->w[i] &= s->w[i] - 1;
	return (i * 64 + b);
}

/* Is cell unsolved (not filled) in L? */
static inline int
logic_open(const struct logic *L, int cell)
{
	return (!logic_single(L->raw[cell]));
}

/* cands.c */
int	logic_prepare(const struct sudoku_cands *, struct logic *);
int	logic_lone(struct logic *);
int	logic_units(struct logic *);
void	logic_apply(struct logic *, const struct sudoku_step *);
int	logic_peers(int, uint8_t [20]);

/* logic.c: building steps */
void	logic_begin(struct sudoku_step *, enum sudoku_technique);
void	logic_elim(struct sudoku_step *, int, int);
void	logic_add_cell(struct sudoku_step *, const struct logic *, int);
void	logic_add_unit(struct sudoku_step *, int);
int	logic_elim_seeing(const struct logic *, struct sudoku_step *, int,
	    const uint8_t *, int);
void	logic_peerset(int, struct logic_set *);

/*
 * Subsets: k of the n masks m[] whose union has exactly k bits, in
 * lexicographic order of their indexes idx[], pruned as soon as a
 * partial union has more than k bits.  at[i] is what mask i stands for
 * (a position in a unit, a line).  found() gets each subset with its
 * union and ends the search by returning 1.
 */
struct logic_sub {
	uint16_t		 m[9];
	uint8_t			 at[9];
	int			 n;
	int			 k;
	int			 idx[4];
	int			(*found)(struct logic_sub *, unsigned int);
	const struct logic	*L;
	struct sudoku_step	*st;
	int			 arg;	/* the caller's: a unit, a digit */
	int			 arg2;
};
int	logic_subsets(struct logic_sub *, int, int, unsigned int);
unsigned int logic_sub_at(const struct logic_sub *);
enum sudoku_hint_result logic_find(struct logic *, int,
	    struct sudoku_step *);

/* the finders, one file per family */
logic_finder	fish_find;
logic_finder	wing_xy;
logic_finder	wing_xyz;
logic_finder	chain_colouring;
logic_finder	chain_x;
logic_finder	chain_xy;

/* rate.c: the rating when the solution is known (the generator's) */
void	rate_known(const struct sudoku_grid *, const struct sudoku_grid *,
	    struct sudoku_rating *);

#endif /* LOGIC_H */
