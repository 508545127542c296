/* SPDX-License-Identifier: ISC */
/*
 * canon_level.c -- the search for the canonical (minlex) form of a
 * puzzle or grid, which canon.c runs: the least 81-digit string,
 * blanks as 0, over the 3,359,232 transformations that keep the rules
 * (rows within bands, bands, columns within stacks, stacks,
 * transposition) with the digits relabelled 1, 2, 3, ... in order of
 * first appearance; and how many transformations give it (the
 * automorphisms).
 *
 * The search.  The string is row-major, so the least one has the least
 * first row, then the least second row among those, and so on: a
 * depth-first search chooses the output rows one at a time, and keeps
 * only the choices that tie for the least row at each level (a choice
 * with a greater row than a sibling's can never win).  The best string
 * so far prunes a whole branch as soon as one of its rows is greater.
 *
 * The columns are not enumerated: what the rows taken so far leave of
 * the freedom to order them is kept as a structure (struct canon_node),
 * and each new row refines it.  A stack none of whose cells is given in
 * the rows so far can still go in any slot and its columns in any
 * order: such stacks are the leading slots (0..g-1), since a blank row
 * segment is the least.  In a placed stack the columns blank so far can
 * still be swapped: they are its leading columns (fr of them).  A new
 * row puts, within each such group, the blank cells first (they stay a
 * group), then the digits already labelled in increasing label, then
 * the digits not labelled yet, which take the next labels in the order
 * they end up in.  That order does not change the row, only the labels,
 * so each order is a child of its own (a tie); so are stacks whose
 * segments of the new row are equal.  Columns blank in every row, and
 * rows blank in the whole puzzle, are never told apart: each such
 * choice stands for all of them and counts as many automorphisms.
 *
 * Two different columns blank so far can only be told apart by a given,
 * and two equal digits in a row never happen in a valid grid, so the
 * groups above are exactly the columns still interchangeable: nothing
 * else is lost, and the count of the least strings' transformations is
 * exact.  Hence the check for a valid grid first.
 *
 * A complete grid's first row ties under all 1,296 orders of the
 * columns; canon_grid.c chooses its first two rows another way and
 * hands the orders that tie to canon_level() for the third.  Both call
 * this file; it calls neither.
 */
#include <string.h>

#include "sudoku.h"
#include "canon.h"
#include "logic.h"

static const uint8_t canon_perm2[2][3] = { { 0, 1, 2 }, { 1, 0, 2 } };
static const uint8_t canon_perm3[6][3] = {
	{ 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
	{ 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 }
};
static const unsigned long canon_fact[4] = { 1, 1, 2, 6 };


static int
canon_key(const struct canon_node *n, int d)
{
	return (d == 0 ? 0 : n->lab[d] != 0 ? n->lab[d] : CANON_NEW);
}

/*
 * Sorts the columns col[0..k-1] by their key in the row v (insertion
 * sort: k <= 3), writing the keys to key[]; returns how many are blank.
 */
static int
canon_sort_cols(const struct canon_node *n, const uint8_t *v, uint8_t *col,
    int k, int *key)
{
	int	 i, j, kk, blank = 0;
	uint8_t	 c;

	for (i = 0; i < k; i++) {
		c = col[i];
		kk = canon_key(n, v[c]);
		for (j = i; j > 0 && key[j - 1] > kk; j--) {
			key[j] = key[j - 1];
			col[j] = col[j - 1];
		}
		key[j] = kk;
		col[j] = c;
		blank += kk == 0;
	}
	return (blank);
}

static void
canon_tie(struct canon_eval *ev, int slots, int at, int n)
{
	if (n > 1 && ev->nties < CANON_TIES) {
		ev->tie[ev->nties].slots = (uint8_t)slots;
		ev->tie[ev->nties].at = (uint8_t)at;
		ev->tie[ev->nties].n = (uint8_t)n;
		ev->nties++;
	}
}

/* Runs of equal given keys in key[0..k-1] are ties of positions at + i. */
static void
canon_col_ties(struct canon_eval *ev, const int *key, int k, int at)
{
	int	 i, j;

	for (i = 0; i < k; i = j) {
		for (j = i + 1; j < k && key[j] == key[i]; j++)
			;
		if (key[i] != 0)
			canon_tie(ev, 0, at + i, j - i);
	}
}

/*
 * The stacks not placed yet (slots 0..g-1): each one's columns sorted,
 * then the stacks sorted by their sorted keys; the blank ones stay
 * unplaced, in front.
 */
static void
canon_free_stacks(const struct canon_node *n, const uint8_t *v,
    struct canon_eval *ev)
{
	struct canon_node	*c = &ev->child;
	uint8_t			 col[3][3], tc[3];
	int			 key[3][3], sk[3], order[3], g = n->g, i, j, t;
	int			 nb = 0, blank[3];

	for (i = 0; i < g; i++) {
		memcpy(col[i], n->col + 3 * i, 3);
		blank[i] = canon_sort_cols(n, v, col[i], 3, key[i]);
		sk[i] = (key[i][0] * 11 + key[i][1]) * 11 + key[i][2];
		for (j = i; j > 0 && sk[order[j - 1]] > sk[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
		nb += sk[i] == 0;
	}
	for (i = 0; i < g; i++) {
		t = order[i];
		memcpy(tc, col[t], 3);
		memcpy(c->col + 3 * i, tc, 3);
		c->fr[i] = (uint8_t)blank[t];
		if (i >= nb)
			canon_col_ties(ev, key[t], 3, 3 * i);
	}
	for (i = nb; i < g; i = j) {
		for (j = i + 1; j < g && sk[order[j]] == sk[order[i]]; j++)
			;
		canon_tie(ev, 1, i, j - i);
	}
	c->g = (uint8_t)nb;
}

/*
 * Evaluates input row r (of orientation t) as the next row below n: the
 * least string it can give, and the child of one order of its ties.
 */
static void
canon_eval(const struct canon_ctx *x, const struct canon_node *n, int t,
    int r, struct canon_eval *ev)
{
	const uint8_t		*v = x->m[t][r];
	struct canon_node	*c = &ev->child;
	int			 key[3], s, p, nl = n->nl, d;

	*c = *n;
	c->t = (uint8_t)t;
	ev->t = (uint8_t)t;
	ev->row = (uint8_t)r;
	ev->nties = 0;
	if (n->g > 0)
		canon_free_stacks(n, v, ev);
	for (s = n->g; s < 3; s++) {
		if (n->fr[s] == 0)
			continue;
		c->fr[s] = (uint8_t)canon_sort_cols(n, v, c->col + 3 * s,
		    n->fr[s], key);
		canon_col_ties(ev, key, n->fr[s], 3 * s);
	}
	for (p = 0; p < 9; p++) {
		d = v[c->col[p]];
		ev->s[p] = (uint8_t)(d == 0 ? 0 : n->lab[d] != 0 ? n->lab[d] :
		    nl++);
	}
}

/* The automorphisms a leaf stands for: its free columns and stacks. */
static unsigned long
canon_free(const struct canon_node *n)
{
	unsigned long	 a = n->mult * canon_fact[n->g];
	int		 s;

	for (s = 0; s < 3; s++)
		a *= s < n->g ? 6 : canon_fact[n->fr[s]];
	return (a);
}

static void
canon_leaf(struct canon_ctx *x, const struct canon_node *n, int eq)
{
	struct sudoku_transform	*bt = &x->bt;
	int			 d, nl = n->nl;

	if (x->have && eq) {
		x->count += canon_free(n);
		return;
	}
	memcpy(x->best, x->cur, sizeof x->best);
	x->count = canon_free(n);
	x->have = 1;
	x->nbest++;
	bt->transpose = n->t;
	memcpy(bt->row, x->rows, 9);
	memcpy(bt->col, n->col, 9);
	bt->digit[0] = 0;
	for (d = 1; d <= 9; d++)
		bt->digit[d] = n->lab[d] != 0 ? n->lab[d] : (uint8_t)nl++;
}

/* Labels the digits the child's row meets first, then goes down. */
static void
canon_descend(struct canon_ctx *x, struct canon_node *c,
    const struct canon_eval *ev, int k, int *eq)
{
	const uint8_t	*v = x->m[ev->t][ev->row];
	unsigned long	 nb = x->nbest;
	int		 p, d, cmp, ceq = 0;

	if (x->have && *eq) {
		if ((cmp = memcmp(ev->s, x->best + 9 * k, 9)) > 0)
			return;
		ceq = cmp == 0;
	}
	for (p = 0; p < 9; p++)
		if ((d = v[c->col[p]]) != 0 && c->lab[d] == 0)
			c->lab[d] = c->nl++;
	memcpy(x->cur + 9 * k, ev->s, 9);
	canon_level(x, c, k + 1, ceq);
	/* A new best below has this path's prefix. */
	if (x->nbest != nb)
		*eq = 1;
}

/* Every order of ties i, i + 1, ...: each is a child. */
static void
canon_children(struct canon_ctx *x, const struct canon_node *c,
    const struct canon_eval *ev, int i, int k, int *eq)
{
	const struct canon_tie	*tie = &ev->tie[i];
	const uint8_t		(*perm)[3];
	struct canon_node	 d;
	int			 np, p, j;

	if (i == ev->nties) {
		d = *c;
		canon_descend(x, &d, ev, k, eq);
		return;
	}
	perm = tie->n == 2 ? canon_perm2 : canon_perm3;
	np = tie->n == 2 ? 2 : 6;
	for (p = 0; p < np; p++) {
		d = *c;
		for (j = 0; j < tie->n; j++) {
			if (tie->slots) {
				memcpy(d.col + 3 * (tie->at + j),
				    c->col + 3 * (tie->at + perm[p][j]), 3);
				d.fr[tie->at + j] = c->fr[tie->at + perm[p][j]];
			} else
				d.col[tie->at + j] = c->col[tie->at +
				    perm[p][j]];
		}
		canon_children(x, &d, ev, i + 1, k, eq);
	}
}

/*
 * With every column placed (a complete grid's rows after the first),
 * is row v's string greater than ref?  Stops at the first cell that
 * decides: most candidates of a grid lose there, before any child is
 * built.
 */
static int
canon_fixed_worse(const struct canon_node *n, const uint8_t *v,
    const uint8_t *ref)
{
	int	 p, d, s, nl = n->nl;
	uint8_t	 seen[10];

	memset(seen, 0, sizeof seen);
	for (p = 0; p < 9; p++) {
		d = v[n->col[p]];
		if (d == 0)
			s = 0;
		else if ((s = n->lab[d]) == 0)
			s = seen[d] != 0 ? seen[d] : (seen[d] = (uint8_t)nl++);
		if (s != ref[p])
			return (s > ref[p]);
	}
	return (0);
}

static int
canon_fixed(const struct canon_node *n)
{
	return (n->g == 0 && (n->fr[0] | n->fr[1] | n->fr[2]) == 0);
}

/*
 * The rows that may come next: any row of a band not used yet at the
 * start of a band, else the unused rows of the band under way.  Of the
 * blank rows of a band only the first is tried; it stands for them all.
 * Row 0 may come from either orientation.  ref, if not NULL, is the
 * best row so far: a row of a placed grid known to be greater is left
 * out.
 */
static int
canon_candidates(const struct canon_ctx *x, const struct canon_node *n,
    int k, struct canon_eval *ev, const uint8_t *ref)
{
	unsigned int	 rows, blank, b, t, nev = 0, r, nblank;

	for (t = 0; t < 2; t++) {
		if (k > 0 && t != n->t)
			continue;
		for (b = 0; b < 3; b++) {
			if (k % 3 == 0 ? (n->used >> (3 * b) & 7) != 0 :
			    b != n->band)
				continue;
			rows = (7u << (3 * b)) & ~(unsigned int)n->used;
			blank = rows & x->blank[t];
			nblank = (unsigned int)logic_count(blank);
			for (r = 3 * b; r < 3 * b + 3; r++) {
				if (!(rows >> r & 1) || (blank >> r & 1 &&
				    (blank & ((1u << r) - 1)) != 0))
					continue;
				if (ref != NULL &&
				    canon_fixed_worse(n, x->m[t][r], ref))
					continue;
				ev[nev].mult = blank >> r & 1 ? nblank : 1;
				canon_eval(x, n, (int)t, (int)r, &ev[nev++]);
			}
		}
	}
	return ((int)nev);
}

void
canon_level(struct canon_ctx *x, const struct canon_node *n, int k, int eq)
{
	struct canon_eval	 ev[18];
	struct canon_node	*c;
	int			 nev, i, least = 0;

	if (k == 9) {
		canon_leaf(x, n, eq);
		return;
	}
	nev = canon_candidates(x, n, k, ev, x->have && eq && canon_fixed(n) ?
	    x->best + 9 * k : NULL);
	for (i = 1; i < nev; i++)
		if (memcmp(ev[i].s, ev[least].s, 9) < 0)
			least = i;
	for (i = 0; i < nev; i++) {
		if (memcmp(ev[i].s, ev[least].s, 9) != 0)
			continue;
		c = &ev[i].child;
		c->used = (uint16_t)(n->used | 1u << ev[i].row);
		c->band = (uint8_t)(ev[i].row / 3);
		c->mult = n->mult * ev[i].mult;
		x->rows[k] = ev[i].row;
		canon_children(x, c, &ev[i], 0, k, &eq);
	}
}
