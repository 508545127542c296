/* SPDX-License-Identifier: ISC */
/*
 * fish.c -- basic fish: X-wing (2), swordfish (3), jellyfish (4).
 *
 * k rows (the base) in which a digit can only go in the same k columns
 * (the cover) put the digit k times in those columns, once per base
 * row, so the rest of each cover column cannot hold it; the same with
 * rows and columns swapped.  Base lines with a single place are left
 * to the singles; lines where the digit is filled are skipped.
 */
#include "sudoku.h"
#include "logic.h"

/*
 * The base lines (rows, or columns when arg2 is 1) hold digit arg + 1
 * only in the cover lines, as many as base lines: the cover lines lose
 * it everywhere else.
 */
static int
fish_found(struct logic_sub *S, unsigned int cover)
{
	const struct logic	*L = S->L;
	struct sudoku_step	*st = S->st;
	unsigned int		 base = logic_sub_at(S);
	uint16_t		 bit = logic_bit(S->arg + 1);
	int			 i, j, cell, cols = S->arg2;

	logic_begin(st, st->tech);
	st->digits = bit;
	for (i = 0; i < 9; i++)
		if (base >> i & 1)
			logic_add_unit(st, cols * 9 + i);
	for (j = 0; j < 9; j++)
		if (cover >> j & 1)
			logic_add_unit(st, (1 - cols) * 9 + j);
	for (j = 0; j < 9; j++) {
		for (i = 0; (cover >> j & 1) && i < 9; i++) {
			cell = cols ? j * 9 + i : i * 9 + j;
			if (!(base >> i & 1) && logic_open(L, cell) &&
			    (L->m[cell] & bit))
				logic_elim(st, cell, S->arg + 1);
		}
	}
	return (st->nactions > 0);
}

int
fish_find(const struct logic *L, int k, struct sudoku_step *st)
{
	struct logic_sub	 S;
	int			 d, cols, i, c, u;

	S.k = k;
	S.found = fish_found;
	S.L = L;
	S.st = st;
	for (d = 0; d < 9; d++) {
		for (cols = 0; cols < 2; cols++) {
			for (i = S.n = 0; i < 9; i++) {
				u = cols * 9 + i;
				c = logic_count(L->where[u][d]);
				if (!(L->placed[u] >> d & 1) && c >= 2 &&
				    c <= k) {
					S.m[S.n] = L->where[u][d];
					S.at[S.n++] = (uint8_t)i;
				}
			}
			S.arg = d;
			S.arg2 = cols;
			if (S.n >= k && logic_subsets(&S, 0, 0, 0))
				return (1);
		}
	}
	return (0);
}
