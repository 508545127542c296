/* SPDX-License-Identifier: ISC */
/*
 * fuzz_canon.c -- libFuzzer target for sudoku_canon() on any puzzle
 * sudoku_parse() accepts (the first 81 bytes; the rest seed a shuffle).
 *
 * Checked against what a canonical form is, not against the code's
 * own output: the transformation it gives is one of the rules' (rows
 * in bands, columns in stacks, digits a permutation) and takes the
 * puzzle to the form; the form is its own form; a shuffled copy has
 * the same form and as many automorphisms; the automorphisms are a
 * subgroup of the 3,359,232 transformations, so their number divides
 * it; the form's digits appear in the order 1, 2, 3, ...  A grid that
 * sudoku_parse() refuses for a clash is refused by sudoku_canon() too.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/sudoku.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Each group of three of line[] lies in one band, and it permutes 0..8. */
static int
fuzz_lines(const uint8_t *line)
{
	unsigned int	 seen = 0;
	int		 i;

	for (i = 0; i < 9; i++) {
		if (line[i] > 8 || (seen >> line[i] & 1) ||
		    line[i] / 3 != line[i / 3 * 3] / 3)
			return (0);
		seen |= 1u << line[i];
	}
	return (1);
}

static void
fuzz_check_transform(const struct sudoku_transform *t,
    const struct sudoku_grid *in, const struct sudoku_grid *form)
{
	unsigned int	 seen = 0;
	int		 r, c, d, v;

	if (t->transpose > 1 || t->digit[0] != 0 || !fuzz_lines(t->row) ||
	    !fuzz_lines(t->col))
		abort();
	for (d = 1; d <= 9; d++) {
		if (t->digit[d] < 1 || t->digit[d] > 9 ||
		    (seen >> t->digit[d] & 1))
			abort();
		seen |= 1u << t->digit[d];
	}
	for (r = 0; r < 9; r++)
		for (c = 0; c < 9; c++) {
			v = t->transpose ? in->cell[t->col[c] * 9 + t->row[r]] :
			    in->cell[t->row[r] * 9 + t->col[c]];
			if (form->cell[r * 9 + c] != t->digit[v])
				abort();
		}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sudoku_grid	 g, form, again, h;
	struct sudoku_transform	 t;
	unsigned long		 aut, aut2;
	uint64_t		 seed = 0;
	size_t			 i;
	int			 next = 1;

	if (size < SUDOKU_CELLS)
		return (0);
	if (sudoku_parse((const char *)data, SUDOKU_CELLS, &g, NULL) != 0) {
		/* Only cells, so refused for a clash: refused here too. */
		for (i = 0; i < SUDOKU_CELLS; i++) {
			if (data[i] != '.' && (data[i] < '0' || data[i] > '9'))
				return (0);
			g.cell[i] = data[i] == '.' ? 0 : (uint8_t)(data[i] - '0');
		}
		if (sudoku_canon(&g, &form, &aut, NULL) != -1)
			abort();
		return (0);
	}
	for (i = SUDOKU_CELLS; i < size && i < SUDOKU_CELLS + 8; i++)
		seed = seed << 8 | data[i];
	if (sudoku_canon(&g, &form, &aut, &t) != 0 || aut < 1 ||
	    3359232UL % aut != 0)
		abort();
	fuzz_check_transform(&t, &g, &form);
	for (i = 0; i < SUDOKU_CELLS; i++) {
		if (form.cell[i] > next)
			abort();
		if (form.cell[i] == next)
			next++;
	}
	if (sudoku_canon(&form, &again, &aut2, NULL) != 0 || aut2 != aut ||
	    memcmp(&again, &form, sizeof form) != 0)
		abort();
	sudoku_shuffle(&g, seed, &h, NULL);
	if (sudoku_canon(&h, &again, &aut2, NULL) != 0 || aut2 != aut ||
	    memcmp(&again, &form, sizeof form) != 0)
		abort();
	return (0);
}
