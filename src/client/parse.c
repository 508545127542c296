/* SPDX-License-Identifier: ISC */
/*
 * parse.c -- the shapes of a puzzle in sudokuc's input.
 *
 * Four shapes: 81 cells on a line; a grid of 9 rows of 9 cells; the same
 * with the cells separated by blanks; and the boxed grid that -f pretty
 * prints, whose rule lines are skipped and whose bars separate cells
 * like blanks, so that sudokuc reads back what it prints.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/marks.h"
#include "parse.h"

enum lclass
parse_classify(const char *s, size_t len)
{
	size_t	i;

	if (len == 0)
		return (LC_BLANK);
	if (s[0] == '#')
		return (LC_COMMENT);
	if (s[0] == '|')
		return (LC_PRETTY);
	if (s[0] == '+') {
		for (i = 1; i < len && (s[i] == '+' || s[i] == '-'); i++)
			;
		if (i == len)
			return (LC_RULE);
	}
	if (memchr(s, ' ', len) != NULL || memchr(s, '\t', len) != NULL)
		return (LC_SPACED);
	return (len == 9 ? LC_ROW : LC_LONG);
}

enum shape
parse_shape(enum lclass lc)
{
	if (lc == LC_RULE || lc == LC_PRETTY)
		return (SHAPE_PRETTY);
	return (lc == LC_SPACED ? SHAPE_SPACED : SHAPE_GRID);
}

int
parse_continues(enum shape shape, enum lclass lc, size_t len)
{
	switch (shape) {
	case SHAPE_PRETTY:
		return (lc == LC_RULE || lc == LC_PRETTY);
	case SHAPE_SPACED:
		return (lc == LC_SPACED);
	default:
		return (lc == LC_ROW || (lc == LC_LONG && len < SUDOKU_CELLS));
	}
}

void
parse_bad(struct item *it, unsigned long line, const char *code,
    const char *fmt, ...)
{
	va_list	ap;

	it->kind = ITEM_BAD;
	it->code = code;
	if (it->line != 0)
		it->line = line;
	va_start(ap, fmt);
	vsnprintf(it->msg, sizeof it->msg, fmt, ap);
	va_end(ap);
}

/* The code of a sudoku_parse() error, as sudokud answers it. */
static const char *
parse_code(const struct sudoku_perror *pe)
{
	switch (pe->kind) {
	case SUDOKU_PERR_LENGTH:
		return ("length");
	case SUDOKU_PERR_CHAR:
		return ("char");
	default:
		return ("conflict");
	}
}

/*
 * A one-line puzzle's parse error, as the daemon words it, and for a
 * bad byte the cell it is in (cell, 0 to 80), as a grid's error names
 * it (parse_cells()).
 */
static void
parse_error(struct item *it, const struct sudoku_perror *pe, size_t cell)
{
	char	text[ITEM_MSGLEN - 16];

	marks_perror_text(pe, text, sizeof text);
	if (pe->kind == SUDOKU_PERR_CHAR)
		parse_bad(it, it->line, "char", "%s (r%zuc%zu)", text,
		    cell / 9 + 1, cell % 9 + 1);
	else
		parse_bad(it, it->line, parse_code(pe), "%s", text);
}

void
parse_line(struct item *it, const char *s, size_t len)
{
	struct sudoku_perror	pe;

	if (sudoku_parse(s, len, &it->grid, &pe) == 0)
		memcpy(it->cells, s, SUDOKU_CELLS);
	else
		parse_error(it, &pe, pe.pos);
}

void
parse_marks(struct item *it, const char *s, size_t len)
{
	struct sudoku_perror	pe;

	if (marks_parse(s, len, &it->marks, &it->grid, &pe) == 0)
		it->marked = 1;
	else
		parse_error(it, &pe, pe.pos / 9);
}

/* Is c between the cells of a row of shape? */
static int
parse_sep(enum shape shape, char c)
{
	return (c == ' ' || c == '\t' || (shape == SHAPE_PRETTY && c == '|'));
}

/*
 * The first 20 bytes of a cell for a message, 7-bit printable: another
 * byte as \xNN, as the input may hold anything.
 */
static const char *
parse_shown(const char *s, size_t len, char *buf)
{
	char	*p = buf;
	size_t	 i;

	for (i = 0; i < len && i < 20; i++) {
		if (s[i] >= 0x20 && s[i] < 0x7f)
			*p++ = s[i];
		else
			p += sprintf(p, "\\x%02x", (unsigned char)s[i]);
	}
	*p = '\0';
	return (buf);
}

/* Copies the cells of a blank-separated row into out; -1 if it is bad. */
static int
parse_spaced(struct item *it, const struct row *rw, size_t r, char *out)
{
	size_t	i, n = 0, start;
	char	shown[4 * 20 + 1];

	for (i = 0; i < rw->len; ) {
		while (i < rw->len && parse_sep(it->shape, rw->s[i]))
			i++;
		if (i == rw->len)
			break;
		start = i;
		while (i < rw->len && !parse_sep(it->shape, rw->s[i]))
			i++;
		if (i - start != 1) {
			parse_bad(it, rw->line, "char", "row %zu: cell '%s' is "
			    "not one character", r + 1, parse_shown(rw->s +
			    start, i - start, shown));
			return (-1);
		}
		if (n < 9)
			out[n] = rw->s[start];
		n++;
	}
	if (n == 9)
		return (0);
	parse_bad(it, rw->line, "length", "row %zu: expected 9 cells, found "
	    "%zu", r + 1, n);
	return (-1);
}

/* Checks the 81 cells of a grid; rows[] gives the line of each row. */
static void
parse_cells(struct item *it, const struct row *rows)
{
	struct sudoku_perror	pe;
	char			text[ITEM_MSGLEN - 16];
	size_t			r;

	if (sudoku_parse(it->cells, SUDOKU_CELLS, &it->grid, &pe) == 0)
		return;
	sudoku_perror_text(&pe, text, sizeof text);
	if (pe.kind != SUDOKU_PERR_CHAR) {
		parse_bad(it, it->line, parse_code(&pe), "%s", text);
		return;
	}
	r = pe.pos / 9;
	parse_bad(it, rows[r].line, "char", "%s (r%zuc%zu)", text, r + 1,
	    pe.pos % 9 + 1);
}

void
parse_grid(struct item *it, const struct row *rows, size_t nrows)
{
	size_t	r;

	if (nrows < 9) {
		parse_bad(it, it->line, "length", "incomplete grid: %zu row%s, "
		    "expected 9", nrows, nrows == 1 ? "" : "s");
		return;
	}
	for (r = 0; r < 9; r++) {
		if (it->shape != SHAPE_GRID) {
			if (parse_spaced(it, &rows[r], r, it->cells + 9 * r))
				return;
			continue;
		}
		if (rows[r].len != 9) {
			parse_bad(it, rows[r].line, "length", "row %zu: "
			    "expected 9 cells, found %zu", r + 1, rows[r].len);
			return;
		}
		memcpy(it->cells + 9 * r, rows[r].s, 9);
	}
	parse_cells(it, rows);
}
