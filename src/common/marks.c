/* SPDX-License-Identifier: ISC */
/*
 * marks.c -- a puzzle written as pencil marks (see marks.h).
 */
#include <stdio.h>

#include "marks.h"

int
marks_parse(const char *s, size_t len, struct sudoku_cands *c,
    struct sudoku_grid *g, struct sudoku_perror *pe)
{
	char		cells[SUDOKU_CELLS];
	uint16_t	m;
	int		i;

	if (sudoku_cands_parse(s, len, NULL, c, pe) != 0)
		return (-1);
	for (i = 0; i < SUDOKU_CELLS; i++) {
		if ((m = c->mask[i] & 0x1ff) == 0) {
			pe->kind = SUDOKU_PERR_CONFLICT;
			pe->cell1 = i;
			pe->cell2 = -1;
			return (-1);
		}
		cells[i] = (m & (m - 1)) == 0 ?
		    (char)('1' + __builtin_ctz(m)) : '0';
	}
	/* The cells with one candidate are givens: their check is theirs. */
	return (sudoku_parse(cells, SUDOKU_CELLS, g, pe));
}

int
marks_perror_text(const struct sudoku_perror *pe, char *buf, size_t size)
{
	if (pe->kind == SUDOKU_PERR_CONFLICT && pe->cell2 < 0)
		return (snprintf(buf, size, "r%dc%d has no candidate left",
		    pe->cell1 / 9 + 1, pe->cell1 % 9 + 1));
	return (sudoku_perror_text(pe, buf, size));
}
