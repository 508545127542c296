/* SPDX-License-Identifier: ISC */
/*
 * transform.c -- the transformations that keep the rules of Sudoku:
 * transposition, rows within bands, bands, columns within stacks,
 * stacks (3,359,232 in all) and a relabelling of the digits; applying
 * one, checking one, and drawing one at random for sudoku_shuffle().
 */
#include <string.h>

#include "sudoku.h"
#include "rng.h"

/* Is line[] a permutation of 0..8 that moves whole bands (stacks)? */
static int
transform_lines(const uint8_t line[9])
{
	unsigned int	 seen = 0;
	int		 i;

	for (i = 0; i < 9; i++) {
		if (line[i] > 8 || (seen >> line[i] & 1) ||
		    line[i] / 3 != line[i - i % 3] / 3)
			return (0);
		seen |= 1u << line[i];
	}
	return (1);
}

static int
transform_valid(const struct sudoku_transform *t)
{
	unsigned int	 seen = 0;
	int		 d;

	if (t->transpose > 1 || t->digit[0] != 0 ||
	    !transform_lines(t->row) || !transform_lines(t->col))
		return (0);
	for (d = 1; d <= 9; d++) {
		if (t->digit[d] < 1 || t->digit[d] > 9 ||
		    (seen >> t->digit[d] & 1))
			return (0);
		seen |= 1u << t->digit[d];
	}
	return (1);
}

int
sudoku_transform_apply(const struct sudoku_transform *t,
    const struct sudoku_grid *in, struct sudoku_grid *out)
{
	struct sudoku_grid	 g;
	int			 r, c, v;

	if (!transform_valid(t))
		return (-1);
	for (r = 0; r < 9; r++)
		for (c = 0; c < 9; c++) {
			v = in->cell[t->transpose ? t->col[c] * 9 + t->row[r] :
			    t->row[r] * 9 + t->col[c]];
			g.cell[r * 9 + c] = v <= 9 ? t->digit[v] : (uint8_t)v;
		}
	*out = g;
	return (0);
}

/* A random order of rows (columns): bands shuffled, rows in each. */
static void
transform_draw_lines(uint64_t s[4], uint8_t line[9])
{
	uint8_t	 outer[3] = { 0, 1, 2 }, inner[3];
	int	 i, j;

	rng_shuffle(s, outer, 3);
	for (i = 0; i < 3; i++) {
		for (j = 0; j < 3; j++)
			inner[j] = (uint8_t)j;
		rng_shuffle(s, inner, 3);
		for (j = 0; j < 3; j++)
			line[i * 3 + j] = (uint8_t)(outer[i] * 3 + inner[j]);
	}
}

void
sudoku_shuffle(const struct sudoku_grid *in, uint64_t seed,
    struct sudoku_grid *out, struct sudoku_transform *t)
{
	struct sudoku_transform	 tr;
	uint64_t		 s[4];
	int			 d;

	rng_seed(s, seed);
	tr.transpose = (uint8_t)rng_below(s, 2);
	transform_draw_lines(s, tr.row);
	transform_draw_lines(s, tr.col);
	for (d = 0; d <= 9; d++)
		tr.digit[d] = (uint8_t)d;
	rng_shuffle(s, tr.digit + 1, 9);
	(void)sudoku_transform_apply(&tr, in, out);
	if (t != NULL)
		*t = tr;
}
