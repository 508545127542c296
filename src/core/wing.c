/* SPDX-License-Identifier: ISC */
/*
 * wing.c -- XY-wing and XYZ-wing.
 *
 * XY-wing: a pivot with candidates {x,y} sees two cells {x,z} and
 * {y,z}.  Whatever the pivot holds, one of the two is z, so a cell
 * seeing both cannot be z.  XYZ-wing: the pivot is {x,y,z} and the
 * cells {x,z} and {y,z}; now the pivot may be z too, so only a cell
 * seeing all three loses z.
 */
#include "sudoku.h"
#include "logic.h"

/* The pattern pivot, a, b on digit bit z: cells seeing all of them. */
static int
wing_elim(const struct logic *L, struct sudoku_step *st, int pivot, int a,
    int b, unsigned int z, int xyz)
{
	uint8_t	 seen[3];

	logic_begin(st, st->tech);
	logic_add_cell(st, L, pivot);
	logic_add_cell(st, L, a);
	logic_add_cell(st, L, b);
	st->digits = (uint16_t)z;
	seen[0] = (uint8_t)a;
	seen[1] = (uint8_t)b;
	seen[2] = (uint8_t)pivot;
	return (logic_elim_seeing(L, st, logic_digit(z), seen, xyz ? 3 : 2) >
	    0);
}

/* Is cell open with exactly n candidates? */
static int
wing_cell(const struct logic *L, int cell, int n)
{
	return (logic_open(L, cell) && logic_count(L->m[cell]) == n);
}

int
wing_xy(const struct logic *L, int arg, struct sudoku_step *st)
{
	uint8_t		 peer[20];
	unsigned int	 mp, ma, z, want;
	int		 p, i, j, a, b;

	(void)arg;
	for (p = 0; p < SUDOKU_CELLS; p++) {
		if (!wing_cell(L, p, 2))
			continue;
		mp = L->m[p];
		logic_peers(p, peer);
		for (i = 0; i < 20; i++) {
			a = peer[i];
			ma = L->m[a];
			if (!wing_cell(L, a, 2) || logic_count(ma & mp) != 1)
				continue;
			z = ma & ~mp;
			want = (mp & ~ma) | z;
			for (j = 0; j < 20; j++) {
				b = peer[j];
				if (wing_cell(L, b, 2) && L->m[b] == want &&
				    wing_elim(L, st, p, a, b, z, 0))
					return (1);
			}
		}
	}
	return (0);
}

int
wing_xyz(const struct logic *L, int arg, struct sudoku_step *st)
{
	uint8_t		 peer[20];
	unsigned int	 mp, ma, mb;
	int		 p, i, j, a, b;

	(void)arg;
	for (p = 0; p < SUDOKU_CELLS; p++) {
		if (!wing_cell(L, p, 3))
			continue;
		mp = L->m[p];
		logic_peers(p, peer);
		for (i = 0; i < 20; i++) {
			a = peer[i];
			ma = L->m[a];
			if (!wing_cell(L, a, 2) || (ma & ~mp) != 0)
				continue;
			for (j = i + 1; j < 20; j++) {
				b = peer[j];
				mb = L->m[b];
				if (!wing_cell(L, b, 2) || (mb & ~mp) != 0 ||
				    mb == ma)
					continue;
				if (wing_elim(L, st, p, a, b, ma & mb, 1))
					return (1);
			}
		}
	}
	return (0);
}
