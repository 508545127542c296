/* SPDX-License-Identifier: ISC */
/*
 * ref_equiv.c -- test-side references for equivalence and symmetry
 * (see ref_equiv.h).  Nothing here calls the library under test.
 */
#include <string.h>

#include "ref_equiv.h"

static const int ref_p3[6][3] = {
	{ 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
	{ 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 }
};

/* The idx-th (0..1295) order of lines that keeps groups of three. */
static void
ref_lines(int idx, int *line)
{
	int	 outer = idx % 6, i, j, inner;

	idx /= 6;
	for (i = 0; i < 3; i++) {
		inner = idx % 6;
		idx /= 6;
		for (j = 0; j < 3; j++)
			line[i * 3 + j] = ref_p3[outer][i] * 3 +
			    ref_p3[inner][j];
	}
}

/*
 * One transformation's relabelled string against the best so far:
 * stops at the first cell greater than best's.  1 if it became the new
 * best, 0 if equal, -1 if greater.
 */
static int
ref_try(const uint8_t *m, const int *rows, const int *cols, uint8_t *best,
    int less)
{
	uint8_t	 map[10], cur[81];
	int	 p, v, nl = 1;

	memset(map, 0, sizeof map);
	for (p = 0; p < 81; p++) {
		v = m[rows[p / 9] * 9 + cols[p % 9]];
		if (v != 0) {
			if (map[v] == 0)
				map[v] = (uint8_t)nl++;
			v = map[v];
		}
		cur[p] = (uint8_t)v;
		if (!less) {
			if (v > best[p])
				return (-1);
			less = v < best[p];
		}
	}
	if (!less)
		return (0);
	memcpy(best, cur, 81);
	return (1);
}

unsigned long
ref_minlex(const uint8_t *g, uint8_t *best)
{
	static int	 lines[1296][9];	/* the same every call */
	uint8_t		 m[2][81];
	unsigned long	 count = 0;
	int		 t, ri, ci, r, c, have = 0;

	for (r = 0; r < 9; r++)
		for (c = 0; c < 9; c++) {
			m[0][r * 9 + c] = g[r * 9 + c];
			m[1][c * 9 + r] = g[r * 9 + c];
		}
	for (ri = 0; ri < 1296; ri++)
		ref_lines(ri, lines[ri]);
	for (t = 0; t < 2; t++)
		for (ri = 0; ri < 1296; ri++)
			for (ci = 0; ci < 1296; ci++) {
				switch (ref_try(m[t], lines[ri], lines[ci],
				    best, !have)) {
				case 1:
					count = 1;
					have = 1;
					break;
				case 0:
					count++;
					break;
				}
			}
	return (count);
}

/* A permutation of 0..8 in which each group of three is one band. */
static int
ref_lines_valid(const uint8_t *line)
{
	int	 seen[9] = { 0 }, b, i;

	for (b = 0; b < 3; b++)
		for (i = 0; i < 3; i++) {
			if (line[b * 3 + i] > 8 || seen[line[b * 3 + i]]++ ||
			    line[b * 3 + i] / 3 != line[b * 3] / 3)
				return (0);
		}
	return (1);
}

int
ref_transform_valid(const struct sudoku_transform *t)
{
	int	 seen[10] = { 0 }, d;

	if (t->transpose > 1 || t->digit[0] != 0 ||
	    !ref_lines_valid(t->row) || !ref_lines_valid(t->col))
		return (0);
	for (d = 1; d <= 9; d++)
		if (t->digit[d] < 1 || t->digit[d] > 9 || seen[t->digit[d]]++)
			return (0);
	return (1);
}

void
ref_transform_apply(const struct sudoku_transform *t, const uint8_t *in,
    uint8_t *out)
{
	uint8_t	 m[81];
	int	 r, c;

	/* in' first: the transpose if asked, then rows, columns, digits. */
	for (r = 0; r < 9; r++)
		for (c = 0; c < 9; c++)
			m[r * 9 + c] = t->transpose ? in[c * 9 + r] :
			    in[r * 9 + c];
	for (r = 0; r < 9; r++)
		for (c = 0; c < 9; c++)
			out[r * 9 + c] = t->digit[m[t->row[r] * 9 +
			    t->col[c]]];
}

/* The symmetries of the square, each a map of cells. */
static int
ref_half_turn(int cell)
{
	return (80 - cell);
}

static int
ref_quarter_turn(int cell)
{
	/* Column c of the old grid, read bottom up, is row c. */
	int	 r = cell / 9, c = cell % 9;

	return (c * 9 + (8 - r));
}

static int
ref_mirror(int cell)
{
	return (cell / 9 * 9 + 8 - cell % 9);
}

static int
ref_flip(int cell)
{
	return ((8 - cell / 9) * 9 + cell % 9);
}

static int
ref_diagonal(int cell)
{
	return (cell % 9 * 9 + cell / 9);
}

static int
ref_antidiagonal(int cell)
{
	/* The main diagonal's reflection after a half turn. */
	return (ref_diagonal(ref_half_turn(cell)));
}

int
ref_sym_generators(enum sudoku_symmetry s, int (*gen[2])(int))
{
	switch (s) {
	case SUDOKU_SYM_ROT180:
		gen[0] = ref_half_turn;
		return (1);
	case SUDOKU_SYM_ROT90:
		gen[0] = ref_quarter_turn;
		return (1);
	case SUDOKU_SYM_MIRROR:
		gen[0] = ref_mirror;
		return (1);
	case SUDOKU_SYM_FLIP:
		gen[0] = ref_flip;
		return (1);
	case SUDOKU_SYM_DIAGONAL:
		gen[0] = ref_diagonal;
		return (1);
	case SUDOKU_SYM_ANTIDIAGONAL:
		gen[0] = ref_antidiagonal;
		return (1);
	case SUDOKU_SYM_DIHEDRAL:
		gen[0] = ref_quarter_turn;
		gen[1] = ref_mirror;
		return (2);
	default:
		return (0);
	}
}

int
ref_sym_holds(enum sudoku_symmetry s, const uint8_t *pattern)
{
	int	(*gen[2])(int);
	int	 n = ref_sym_generators(s, gen), i, cell;

	for (i = 0; i < n; i++)
		for (cell = 0; cell < 81; cell++)
			if ((pattern[cell] != 0) !=
			    (pattern[gen[i](cell)] != 0))
				return (0);
	return (1);
}

int
ref_sym_orbits(enum sudoku_symmetry s, uint8_t *orbit)
{
	int	(*gen[2])(int);
	int	 n = ref_sym_generators(s, gen), cell, changed, i, norbits = 0;
	int	 img;

	for (cell = 0; cell < 81; cell++)
		orbit[cell] = (uint8_t)cell;
	/* Each cell takes the least label among its images, until stable. */
	do {
		changed = 0;
		for (cell = 0; cell < 81; cell++)
			for (i = 0; i < n; i++) {
				img = gen[i](cell);
				if (orbit[img] < orbit[cell]) {
					orbit[cell] = orbit[img];
					changed = 1;
				} else if (orbit[cell] < orbit[img]) {
					orbit[img] = orbit[cell];
					changed = 1;
				}
			}
	} while (changed);
	for (cell = 0; cell < 81; cell++)
		norbits += orbit[cell] == cell;
	return (norbits);
}
