/* SPDX-License-Identifier: ISC */
/*
 * symmetry.c -- symmetries of the givens' pattern: names, the orbits of
 * the cells, whether a pattern keeps a symmetry, and the text of a
 * pattern ("x" given, "." blank).
 *
 * A symmetry is a subgroup of the eight symmetries of the square (the
 * dihedral group): the pattern is invariant under it when it is
 * invariant under each of its elements.  The elements are numbered as
 * sym_image() applies them, and each symmetry is a set of them.
 */
#include <string.h>

#include "sudoku.h"
#include "symmetry.h"

enum {
	SYM_ID = 0,
	SYM_R90,	/* a quarter turn clockwise */
	SYM_R180,
	SYM_R270,
	SYM_MIRROR,	/* left-right: column c <-> 8 - c */
	SYM_FLIP,	/* top-bottom: row r <-> 8 - r */
	SYM_DIAG,	/* the main diagonal: r <-> c */
	SYM_ANTI,	/* the other diagonal */
	SYM_ELEMENTS
};

#define E(x)	(1u << (x))

static const struct {
	const char	*name;
	unsigned int	 elements;
} sym_table[SUDOKU_SYM_COUNT] = {
	[SUDOKU_SYM_NONE] = { "none", E(SYM_ID) },
	[SUDOKU_SYM_ROT180] = { "rot180", E(SYM_ID) | E(SYM_R180) },
	[SUDOKU_SYM_ROT90] = { "rot90",
	    E(SYM_ID) | E(SYM_R90) | E(SYM_R180) | E(SYM_R270) },
	[SUDOKU_SYM_MIRROR] = { "mirror", E(SYM_ID) | E(SYM_MIRROR) },
	[SUDOKU_SYM_FLIP] = { "flip", E(SYM_ID) | E(SYM_FLIP) },
	[SUDOKU_SYM_DIAGONAL] = { "diagonal", E(SYM_ID) | E(SYM_DIAG) },
	[SUDOKU_SYM_ANTIDIAGONAL] = { "antidiagonal",
	    E(SYM_ID) | E(SYM_ANTI) },
	[SUDOKU_SYM_DIHEDRAL] = { "dihedral", (1u << SYM_ELEMENTS) - 1 },
};

/* Where element e of the square's group takes cell. */
static int
sym_image(int e, int cell)
{
	int	 r = cell / 9, c = cell % 9;

	switch (e) {
	case SYM_R90:
		return (c * 9 + 8 - r);
	case SYM_R180:
		return ((8 - r) * 9 + 8 - c);
	case SYM_R270:
		return ((8 - c) * 9 + r);
	case SYM_MIRROR:
		return (r * 9 + 8 - c);
	case SYM_FLIP:
		return ((8 - r) * 9 + c);
	case SYM_DIAG:
		return (c * 9 + r);
	case SYM_ANTI:
		return ((8 - c) * 9 + 8 - r);
	default:
		return (cell);
	}
}

const char *
sudoku_symmetry_name(enum sudoku_symmetry s)
{
	if ((unsigned int)s >= SUDOKU_SYM_COUNT)
		return ("unknown");
	return (sym_table[s].name);
}

int
sudoku_symmetry_parse(const char *s, size_t len, enum sudoku_symmetry *sym)
{
	const char	*name;
	size_t		 k;
	int		 i;

	for (i = 0; i < SUDOKU_SYM_COUNT; i++) {
		name = sym_table[i].name;
		/* Letters in any case; "| 0x20" alone would fold 0x11 to '1'. */
		for (k = 0; k < len && name[k] != '\0'; k++)
			if (s[k] != name[k] && !(s[k] >= 'A' && s[k] <= 'Z' &&
			    s[k] + 32 == name[k]))
				break;
		if (k == len && name[k] == '\0') {
			*sym = (enum sudoku_symmetry)i;
			return (0);
		}
	}
	return (-1);
}

/*
 * The orbits: a cell not yet in one starts a new orbit with its images
 * under every element of the symmetry (a subgroup, so these are the
 * whole orbit).  Cells are met in row-major order, so orbits are
 * numbered by their first cell.
 */
void
sym_orbits(enum sudoku_symmetry s, struct sym_orbits *o)
{
	unsigned int	 el;
	uint8_t		 in[SUDOKU_CELLS];
	int		 cell, e, img, n = 0, at = 0, k;

	el = (unsigned int)s < SUDOKU_SYM_COUNT ? sym_table[s].elements : 1;
	memset(in, 0, sizeof in);
	for (cell = 0; cell < SUDOKU_CELLS; cell++) {
		if (in[cell])
			continue;
		o->start[n] = (uint8_t)at;
		for (e = 0; e < SYM_ELEMENTS; e++) {
			if (!(el & E(e)) || in[img = sym_image(e, cell)])
				continue;
			in[img] = 1;
			o->of[img] = (uint8_t)n;
			/* Keep the orbit's cells in row-major order. */
			for (k = at++; k > o->start[n] && o->cell[k - 1] > img;
			    k--)
				o->cell[k] = o->cell[k - 1];
			o->cell[k] = (uint8_t)img;
		}
		n++;
	}
	o->start[n] = (uint8_t)at;
	o->n = n;
}

int
sudoku_symmetry_holds(enum sudoku_symmetry s,
    const uint8_t pattern[SUDOKU_CELLS])
{
	unsigned int	 el;
	int		 cell, e;

	if ((unsigned int)s >= SUDOKU_SYM_COUNT)
		return (0);
	el = sym_table[s].elements;
	for (e = 0; e < SYM_ELEMENTS; e++) {
		if (!(el & E(e)))
			continue;
		for (cell = 0; cell < SUDOKU_CELLS; cell++)
			if ((pattern[cell] != 0) !=
			    (pattern[sym_image(e, cell)] != 0))
				return (0);
	}
	return (1);
}

int
sudoku_pattern_parse(const char *s, size_t len,
    uint8_t pattern[SUDOKU_CELLS], struct sudoku_perror *err)
{
	struct sudoku_perror	 e;
	uint8_t			 p[SUDOKU_CELLS];
	size_t			 i;
	unsigned char		 b;

	memset(&e, 0, sizeof e);
	if (len != SUDOKU_CELLS) {
		e.kind = SUDOKU_PERR_LENGTH;
		e.length = len;
		goto fail;
	}
	for (i = 0; i < len; i++) {
		b = (unsigned char)s[i];
		if (b == 'x' || b == 'X' || (b >= '1' && b <= '9'))
			p[i] = 1;
		else if (b == '.' || b == '0')
			p[i] = 0;
		else {
			e.kind = SUDOKU_PERR_CHAR;
			e.pos = i;
			e.byte = b;
			goto fail;
		}
	}
	memcpy(pattern, p, sizeof p);
	return (0);
fail:
	if (err != NULL)
		*err = e;
	return (-1);
}
