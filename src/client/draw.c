/* SPDX-License-Identifier: ISC */
/*
 * draw.c -- sudokuc's pictures for a terminal (-f pretty), 7-bit ASCII.
 *
 * A solution is the boxed grid that sudokuc also reads back.  A hint is
 * drawn on the candidates of the state it applies to, one column per
 * grid column, as wide as its widest cell, with rows and columns
 * labelled as the step names them:
 *
 *	naked_single r5c5=5 5 is the only candidate left in r5c5
 *	     c1  c2   c3       c4   c5  c6     c7    c8   c9
 *	   +-----------------+---------------+-----------------+
 *	r1 | =5  =3   124    | 26   =7  2468 | 1489  1249 248  |
 *	...
 *	r5 | =4  25   2569   | =8   (5) =3   | 579   259  =1   |
 *
 * A filled cell shows "=d" (a given, or a digit of the player's grid),
 * so that it never looks like a blank with one candidate left; a blank
 * shows its candidates (those its filled peers leave it), the cell the
 * step fills "(d)", and each candidate the step eliminates "[d]".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/echo.h"
#include "draw.h"

/* The widest cell: nine candidates, each eliminated: "[1]...[9]". */
#define DRAW_CELL	(9 * 3 + 1)

/* What a step does to each cell: the digit placed, the digits removed. */
struct draw_step {
	uint8_t		place[SUDOKU_CELLS];
	uint16_t	gone[SUDOKU_CELLS];
};

size_t
draw_grid(const char *cells, char *buf)
{
	static const char	rule[] = "+-------+-------+-------+\n";
	char			*p = buf;
	int			 r, c;

	for (r = 0; r < 9; r++) {
		if (r % 3 == 0)
			p = stpcpy(p, rule);
		for (c = 0; c < 9; c++) {
			if (c % 3 == 0)
				p = stpcpy(p, "| ");
			*p++ = cells[r * 9 + c];
			*p++ = ' ';
		}
		p = stpcpy(p, "|\n");
	}
	p = stpcpy(p, rule);
	return (p - buf);
}

/* The actions of a step's reply ("rRcC=D,rRcC-D,..."); 0 or -1. */
static int
draw_actions(const char *reply, struct draw_step *st)
{
	const char	*p = strchr(reply, ' ');
	int		 r, c, d, cell;

	memset(st, 0, sizeof *st);
	if (p == NULL)
		return (-1);
	for (p++;; p += 7) {
		if (p[0] != 'r' || p[1] < '1' || p[1] > '9' || p[2] != 'c' ||
		    p[3] < '1' || p[3] > '9' || (p[4] != '=' && p[4] != '-') ||
		    p[5] < '1' || p[5] > '9')
			return (-1);
		r = p[1] - '1';
		c = p[3] - '1';
		d = p[5] - '0';
		cell = r * 9 + c;
		if (p[4] == '=')
			st->place[cell] = d;
		else
			st->gone[cell] |= 1 << (d - 1);
		if (p[6] != ',')
			return (p[6] == ' ' ? 0 : -1);
	}
}

/* Is m a single digit's bit? */
static int
draw_single(uint16_t m)
{
	return (m != 0 && (m & (m - 1)) == 0);
}

/* The candidates of each cell, less the digits of its filled peers. */
static void
draw_effective(const struct sudoku_cands *c, uint16_t *eff)
{
	int	a, b;

	for (a = 0; a < SUDOKU_CELLS; a++) {
		eff[a] = c->mask[a] & 0x1ff;
		if (draw_single(eff[a]))
			continue;
		for (b = 0; b < SUDOKU_CELLS; b++)
			if (b != a && draw_single(c->mask[b]) &&
			    (a / 9 == b / 9 || a % 9 == b % 9 ||
			    (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3)))
				eff[a] &= ~c->mask[b];
	}
}

/* The text of each cell, and the width of each column. */
static void
draw_texts(const struct sudoku_cands *c, const struct draw_step *st,
    char text[][DRAW_CELL], size_t *width)
{
	uint16_t	 eff[SUDOKU_CELLS], m;
	char		*p;
	int		 cell, d;

	draw_effective(c, eff);
	for (cell = 0; cell < SUDOKU_CELLS; cell++) {
		p = text[cell];
		if (st->place[cell] != 0)
			p += sprintf(p, "(%d)", st->place[cell]);
		else if (draw_single(c->mask[cell] & 0x1ff))
			p += sprintf(p, "=%d", __builtin_ctz(c->mask[cell]) + 1);
		else {
			m = eff[cell] | st->gone[cell];
			for (d = 1; d <= 9; d++)
				if (m >> (d - 1) & 1)
					p += sprintf(p, st->gone[cell] >>
					    (d - 1) & 1 ? "[%d]" : "%d", d);
		}
		*p = '\0';
		if ((size_t)(p - text[cell]) > width[cell % 9])
			width[cell % 9] = p - text[cell];
	}
}

/* "   +----...+": a rule between bands of boxes. */
static void
draw_rule(FILE *f, const size_t *width)
{
	int	c, i;

	fputs("   +", f);
	for (c = 0; c < 9; c++) {
		for (i = 0; i < (int)width[c] + 1; i++)
			putc('-', f);
		if (c % 3 == 2)
			fputs("-+", f);
	}
	putc('\n', f);
}

/* Pads s to width w, then a blank or the box's right bar. */
static void
draw_cell(FILE *f, const char *s, size_t w, int col)
{
	fprintf(f, " %-*s", (int)w, s);
	if (col % 3 == 2)
		fputs(col == 8 ? " |\n" : " |", f);
}

int
draw_hint(FILE *f, const struct sudoku_grid *puzzle, const struct query *q,
    const char *reply)
{
	struct sudoku_cands	 c;
	struct draw_step	 st;
	char			 text[SUDOKU_CELLS][DRAW_CELL], label[16];
	size_t			 width[9];
	int			 r, col;
	char			*shown;

	if (draw_actions(reply, &st) == -1)
		return (-1);
	if (q->grid == NULL || sudoku_cands_parse(q->grid, q->gridlen, puzzle,
	    &c, NULL) == -1)
		sudoku_cands_init(&c, puzzle);
	for (col = 0; col < 9; col++)
		width[col] = 2;		/* "c1" */
	draw_texts(&c, &st, text, width);
	shown = echo_text(reply, strlen(reply));	/* a server's text */
	fprintf(f, "%s\n    ", shown);
	free(shown);
	for (col = 0; col < 9; col++) {
		snprintf(label, sizeof label, "c%d", col + 1);
		if (col == 8)
			fprintf(f, " %s\n", label);
		else
			fprintf(f, " %-*s%s", (int)width[col], label,
			    col % 3 == 2 ? "  " : "");
	}
	for (r = 0; r < 9; r++) {
		if (r % 3 == 0)
			draw_rule(f, width);
		fprintf(f, "r%d |", r + 1);
		for (col = 0; col < 9; col++)
			draw_cell(f, text[r * 9 + col], width[col], col);
	}
	draw_rule(f, width);
	return (0);
}
