/* SPDX-License-Identifier: ISC */
/*
 * fuzz_parse.c -- libFuzzer target for sudoku_parse().
 *
 * Checked against what doc/protocol.md says of puzzles, not against the
 * parser's own output: an accepted puzzle is 81 bytes of '1'-'9', '0'
 * and '.', its givens are consistent, and it formats back to the same
 * digits; a refused one gets the first error in the documented order
 * (length, then the first bad byte, then a pair of clashing givens).
 * Read in two steps (sudoku_parse_cells(), sudoku_conflict()), the same.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/sudoku.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
fuzz_cell(uint8_t b)
{
	return ((b >= '0' && b <= '9') || b == '.');
}

/* Do cells a and b share a row, a column or a box? */
static int
fuzz_peers(int a, int b)
{
	return (a / 9 == b / 9 || a % 9 == b % 9 ||
	    (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3));
}

/* Is there any pair of equal givens in a unit? */
static int
fuzz_clash(const uint8_t *p)
{
	int	a, b;

	for (a = 0; a < SUDOKU_CELLS; a++) {
		for (b = a + 1; b < SUDOKU_CELLS; b++) {
			if (p[a] >= '1' && p[a] <= '9' && p[a] == p[b] &&
			    fuzz_peers(a, b))
				return (1);
		}
	}
	return (0);
}

static void
fuzz_accepted(const uint8_t *p, size_t n, const struct sudoku_grid *g)
{
	char	out[SUDOKU_CELLS];
	size_t	i;

	if (n != SUDOKU_CELLS || fuzz_clash(p))
		abort();
	sudoku_format(g, out);
	for (i = 0; i < n; i++) {
		if (!fuzz_cell(p[i]) || out[i] != (p[i] == '.' ? '0' : p[i]))
			abort();
	}
}

static void
fuzz_refused(const uint8_t *p, size_t n, const struct sudoku_perror *e)
{
	char	text[160];
	size_t	i;

	for (i = 0; i < n && fuzz_cell(p[i]); i++)
		;
	switch (e->kind) {
	case SUDOKU_PERR_LENGTH:
		if (n == SUDOKU_CELLS || e->length != n)
			abort();
		break;
	case SUDOKU_PERR_CHAR:
		if (n != SUDOKU_CELLS || e->pos != i || e->byte != p[i])
			abort();
		break;
	case SUDOKU_PERR_CONFLICT:
		if (n != SUDOKU_CELLS || i != n || e->cell1 >= e->cell2 ||
		    e->cell1 < 0 || e->cell2 >= SUDOKU_CELLS ||
		    !fuzz_peers(e->cell1, e->cell2) ||
		    p[e->cell1] != p[e->cell2] ||
		    p[e->cell1] != '0' + e->digit)
			abort();
		break;
	default:
		abort();
	}
	/* The text is one printable line. */
	if (sudoku_perror_text(e, text, sizeof text) <= 0)
		abort();
	for (i = 0; text[i] != '\0'; i++) {
		if (text[i] < 0x20 || text[i] > 0x7e)
			abort();
	}
}

/*
 * The same bytes in two steps, sudoku_parse_cells() then the search's
 * check and sudoku_conflict() (the daemon's way): the same answer.
 */
static void
fuzz_two_steps(const uint8_t *p, size_t n, int ok,
    const struct sudoku_perror *e)
{
	struct sudoku_grid	g;
	struct sudoku_search	s;
	struct sudoku_perror	e2;
	int			conflict = !ok && e->kind == SUDOKU_PERR_CONFLICT;

	if (sudoku_parse_cells((const char *)p, n, &g, &e2) !=
	    (ok || conflict ? 0 : -1))
		abort();
	if (!ok && !conflict) {
		if (e2.kind != e->kind || e2.length != e->length ||
		    e2.pos != e->pos || e2.byte != e->byte)
			abort();
		return;
	}
	if ((sudoku_search_init(&s, &g, SUDOKU_ANY, 1, 1) ==
	    SUDOKU_INVALID) != conflict ||
	    (sudoku_conflict(&g, &e2) != 0) != conflict)
		abort();
	if (conflict && (e2.cell1 != e->cell1 || e2.cell2 != e->cell2 ||
	    e2.digit != e->digit || e2.unit != e->unit ||
	    e2.unit_index != e->unit_index))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sudoku_grid	g;
	struct sudoku_perror	e;
	int			ok;

	if ((ok = sudoku_parse((const char *)data, size, &g, &e) == 0))
		fuzz_accepted(data, size, &g);
	else
		fuzz_refused(data, size, &e);
	fuzz_two_steps(data, size, ok, &e);
	return (0);
}
