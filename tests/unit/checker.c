/* SPDX-License-Identifier: ISC */
/*
 * checker.c -- test-side Sudoku oracle: a solution checker, the seeds'
 * plain backtracker as a reference, and grid generators.  Deliberately
 * simple and slow: it only has to be obviously right.
 */
#include <stdio.h>
#include <string.h>

#include "checker.h"

#define CHECKER_ALL	0x3fe	/* bits 1..9: one per digit */

struct checker_search {
	uint8_t		 cell[CHECKER_CELLS];
	uint16_t	 row[9];
	uint16_t	 col[9];
	uint16_t	 box[9];
	int		 blank[CHECKER_CELLS];
	int		 nblank;
	unsigned long	 nodes;
	unsigned long	 maxnodes;
	unsigned long	 count;
	unsigned long	 limit;
	uint8_t		*first;
	uint8_t		*all;		/* every solution, limit * 81 */
	const uint16_t	*marks;		/* a blank's digits (bit d - 1) */
};

static int
checker_box(int r, int c)
{
	return (r / 3) * 3 + c / 3;
}

/* Cell number k (0..8) of unit u: rows 0..8, columns 9..17, boxes 18..26. */
static int
checker_unit_cell(int u, int k)
{
	if (u < 9)
		return u * 9 + k;
	if (u < 18)
		return k * 9 + (u - 9);
	u -= 18;
	return ((u / 3) * 3 + k / 3) * 9 + (u % 3) * 3 + k % 3;
}

int
checker_solution(const uint8_t *puzzle, const uint8_t *sol, char *why,
    size_t whysize)
{
	int		 i, u, k, cell;
	unsigned	 seen;

	for (i = 0; i < CHECKER_CELLS; i++) {
		if (sol[i] < 1 || sol[i] > 9) {
			if (why != NULL)
				snprintf(why, whysize, "r%dc%d holds %d",
				    i / 9 + 1, i % 9 + 1, sol[i]);
			return 0;
		}
		if (puzzle[i] != 0 && puzzle[i] != sol[i]) {
			if (why != NULL)
				snprintf(why, whysize, "given %d at r%dc%d "
				    "changed to %d", puzzle[i], i / 9 + 1,
				    i % 9 + 1, sol[i]);
			return 0;
		}
	}
	for (u = 0; u < 27; u++) {
		seen = 0;
		for (k = 0; k < 9; k++) {
			cell = checker_unit_cell(u, k);
			seen |= 1U << sol[cell];
		}
		if (seen != CHECKER_ALL) {
			if (why != NULL)
				snprintf(why, whysize, "%s %d misses a digit",
				    u < 9 ? "row" : u < 18 ? "column" : "box",
				    u % 9 + 1);
			return 0;
		}
	}
	return 1;
}

/* Depth-first over the blanks: 1 to stop (limit), -1 node bound hit. */
static int
checker_dfs(struct checker_search *cs, int idx)
{
	int		 cell, r, c, b, d, ret;
	unsigned	 avail, bit;

	if (++cs->nodes > cs->maxnodes)
		return -1;
	if (idx == cs->nblank) {
		if (cs->count == 0 && cs->first != NULL)
			memcpy(cs->first, cs->cell, CHECKER_CELLS);
		if (cs->all != NULL)
			memcpy(cs->all + cs->count * CHECKER_CELLS, cs->cell,
			    CHECKER_CELLS);
		return ++cs->count >= cs->limit;
	}
	cell = cs->blank[idx];
	r = cell / 9;
	c = cell % 9;
	b = checker_box(r, c);
	avail = ~(unsigned)(cs->row[r] | cs->col[c] | cs->box[b]) &
	    CHECKER_ALL;
	if (cs->marks != NULL)
		avail &= (unsigned)cs->marks[cell] << 1;
	for (d = 1; d <= 9; d++) {
		bit = 1U << d;
		if ((avail & bit) == 0)
			continue;
		cs->cell[cell] = d;
		cs->row[r] |= bit;
		cs->col[c] |= bit;
		cs->box[b] |= bit;
		ret = checker_dfs(cs, idx + 1);
		cs->row[r] ^= bit;
		cs->col[c] ^= bit;
		cs->box[b] ^= bit;
		cs->cell[cell] = 0;
		if (ret != 0)
			return ret;
	}
	return 0;
}

int
checker_search(const uint8_t *puzzle, unsigned long limit,
    unsigned long maxnodes, unsigned long *count, uint8_t *first)
{
	struct checker_search	 cs;
	int			 i, r, c, b, ret;
	unsigned		 bit;

	memset(&cs, 0, sizeof cs);
	cs.maxnodes = maxnodes;
	cs.limit = limit;
	cs.first = first;
	*count = 0;
	for (i = 0; i < CHECKER_CELLS; i++) {
		cs.cell[i] = puzzle[i];
		if (puzzle[i] == 0) {
			cs.blank[cs.nblank++] = i;
			continue;
		}
		if (puzzle[i] > 9)
			return -2;
		r = i / 9;
		c = i % 9;
		b = checker_box(r, c);
		bit = 1U << puzzle[i];
		if ((cs.row[r] | cs.col[c] | cs.box[b]) & bit)
			return -2;
		cs.row[r] |= bit;
		cs.col[c] |= bit;
		cs.box[b] |= bit;
	}
	ret = checker_dfs(&cs, 0);
	*count = cs.count;
	return ret < 0 ? -1 : 0;
}

int
checker_grid(const char *text, uint8_t *g)
{
	int	n = 0;

	for (; *text != '\0'; text++) {
		if (*text == ' ' || *text == '/' || *text == '\n')
			continue;
		if (*text != '.' && (*text < '0' || *text > '9'))
			break;
		if (n < CHECKER_CELLS)
			g[n] = *text == '.' ? 0 : *text - '0';
		n++;
	}
	return n;
}

uint32_t
checker_random(uint32_t *state)
{
	uint32_t	x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

/* A random permutation of 0..n-1 (Fisher-Yates). */
static void
checker_permute(int *p, int n, uint32_t *state)
{
	int	i, j, t;

	for (i = 0; i < n; i++)
		p[i] = i;
	for (i = n - 1; i > 0; i--) {
		j = checker_random(state) % (i + 1);
		t = p[i];
		p[i] = p[j];
		p[j] = t;
	}
}

/* A permutation of 0..8 that keeps groups of three (bands or stacks). */
static void
checker_permute_lines(int *line, uint32_t *state)
{
	int	outer[3], inner[3], i, j;

	checker_permute(outer, 3, state);
	for (i = 0; i < 3; i++) {
		checker_permute(inner, 3, state);
		for (j = 0; j < 3; j++)
			line[i * 3 + j] = outer[i] * 3 + inner[j];
	}
}

void
checker_shuffle(const uint8_t *sol, uint32_t *state, uint8_t *out)
{
	int	digit[9], row[9], col[9], r, c, v, flip;

	checker_permute(digit, 9, state);
	checker_permute_lines(row, state);
	checker_permute_lines(col, state);
	flip = checker_random(state) & 1;
	for (r = 0; r < 9; r++) {
		for (c = 0; c < 9; c++) {
			v = sol[row[r] * 9 + col[c]];
			v = v == 0 ? 0 : digit[v - 1] + 1;
			if (flip)
				out[c * 9 + r] = v;
			else
				out[r * 9 + c] = v;
		}
	}
}

void
checker_keep(const uint8_t *sol, int keep, uint32_t *state, uint8_t *out)
{
	int	order[CHECKER_CELLS], i;

	checker_permute(order, CHECKER_CELLS, state);
	memset(out, 0, CHECKER_CELLS);
	for (i = 0; i < keep && i < CHECKER_CELLS; i++)
		out[order[i]] = sol[order[i]];
}

int
checker_marks_search(const uint16_t *marks, unsigned long limit,
    unsigned long maxnodes, unsigned long *count, uint8_t *all)
{
	struct checker_search	 cs;
	int			 i, ret;

	memset(&cs, 0, sizeof cs);
	cs.maxnodes = maxnodes;
	cs.limit = limit;
	cs.all = all;
	cs.marks = marks;
	for (i = 0; i < CHECKER_CELLS; i++)
		cs.blank[cs.nblank++] = i;
	ret = checker_dfs(&cs, 0);
	*count = cs.count;
	return ret < 0 ? -1 : 0;
}

int
checker_search_all(const uint8_t *puzzle, unsigned long limit,
    unsigned long maxnodes, unsigned long *count, uint8_t *all)
{
	uint16_t	marks[CHECKER_CELLS];
	int		i;

	for (i = 0; i < CHECKER_CELLS; i++) {
		if (puzzle[i] > 9)
			return -2;
		marks[i] = puzzle[i] == 0 ? 0x1ff : 1u << (puzzle[i] - 1);
	}
	return checker_marks_search(marks, limit, maxnodes, count, all);
}
