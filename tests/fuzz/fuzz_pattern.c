/* SPDX-License-Identifier: ISC */
/*
 * fuzz_pattern.c -- libFuzzer target for the parsers of GENERATE's
 * options: sudoku_pattern_parse() and sudoku_symmetry_parse().
 *
 * Checked against what sudoku.h says, not against the parsers' own
 * output: a pattern is accepted exactly when it is 81 bytes of 'x',
 * 'X', '1'-'9' (given), '.' and '0' (blank), each cell read as that
 * byte says; a refused one gets the length error, or the first bad
 * byte, and its buffer is untouched.  A symmetry is accepted exactly
 * when the bytes are one of the eight names in some case, and is that
 * one.  Whatever pattern parses, sudoku_symmetry_holds() agrees with
 * the group structure: every pattern keeps "none", a pattern that keeps
 * "dihedral" keeps all, and "rot90" implies "rot180".
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/sudoku.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char *const fuzz_names[SUDOKU_SYM_COUNT] = { "none",
	"rot180", "rot90", "mirror", "flip", "diagonal", "antidiagonal",
	"dihedral" };

/* 1 given, 0 blank, -1 not a pattern byte. */
static int
fuzz_cell(uint8_t b)
{
	if (b == 'x' || b == 'X' || (b >= '1' && b <= '9'))
		return (1);
	return (b == '.' || b == '0' ? 0 : -1);
}

static void
fuzz_pattern(const uint8_t *data, size_t size)
{
	struct sudoku_perror	 e;
	uint8_t			 p[SUDOKU_CELLS];
	size_t			 i;
	int			 s;

	memset(p, 0x77, sizeof p);
	for (i = 0; i < size && fuzz_cell(data[i]) >= 0; i++)
		;
	if (sudoku_pattern_parse((const char *)data, size, p, &e) != 0) {
		if (size != SUDOKU_CELLS ? e.kind != SUDOKU_PERR_LENGTH ||
		    e.length != size : e.kind != SUDOKU_PERR_CHAR ||
		    e.pos != i || e.byte != data[i] || i == size)
			abort();
		for (i = 0; i < SUDOKU_CELLS; i++)
			if (p[i] != 0x77)
				abort();
		return;
	}
	if (size != SUDOKU_CELLS || i != size)
		abort();
	for (i = 0; i < SUDOKU_CELLS; i++)
		if (p[i] != fuzz_cell(data[i]))
			abort();
	if (!sudoku_symmetry_holds(SUDOKU_SYM_NONE, p) ||
	    (sudoku_symmetry_holds(SUDOKU_SYM_ROT90, p) &&
	    !sudoku_symmetry_holds(SUDOKU_SYM_ROT180, p)))
		abort();
	if (sudoku_symmetry_holds(SUDOKU_SYM_DIHEDRAL, p))
		for (s = 0; s < SUDOKU_SYM_COUNT; s++)
			if (!sudoku_symmetry_holds(s, p))
				abort();
}

static void
fuzz_symmetry(const uint8_t *data, size_t size)
{
	enum sudoku_symmetry	 sym = SUDOKU_SYM_COUNT;
	size_t			 i;
	int			 s, match = -1;

	for (s = 0; s < SUDOKU_SYM_COUNT; s++) {
		if (strlen(fuzz_names[s]) != size)
			continue;
		for (i = 0; i < size; i++)
			if (data[i] != fuzz_names[s][i] && !(data[i] >= 'A' &&
			    data[i] <= 'Z' && data[i] + 32 == fuzz_names[s][i]))
				break;
		if (i == size)
			match = s;
	}
	if (sudoku_symmetry_parse((const char *)data, size, &sym) != 0) {
		if (match >= 0 || sym != SUDOKU_SYM_COUNT)
			abort();
		return;
	}
	if ((int)sym != match ||
	    strcmp(sudoku_symmetry_name(sym), fuzz_names[match]) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_pattern(data, size);
	fuzz_symmetry(data, size);
	return (0);
}
