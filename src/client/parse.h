/* SPDX-License-Identifier: ISC */
/*
 * parse.h -- the shapes of a puzzle in sudokuc's input.
 *
 * input.c cuts its sources into lines and asks here what each line is;
 * a puzzle is one line, or the rows of a grid, and becomes an item: its
 * cells and grid, or why it is malformed in the daemon's words (the code
 * and text of an ERR reply).
 */
#ifndef PARSE_H
#define PARSE_H

#include "item.h"

/* What a line of input is, blanks at both ends removed. */
enum lclass {
	LC_BLANK,
	LC_COMMENT,
	LC_RULE,	/* "+-------+-...": between the rows of a pretty grid */
	LC_PRETTY,	/* "| 5 3 4 | ...": a row of a pretty grid */
	LC_SPACED,	/* has blanks inside: a row of a spaced grid */
	LC_ROW,		/* exactly 9 bytes: a row of a grid */
	LC_LONG		/* anything else: a one-line puzzle */
};

/* One row of a grid as it was read. */
struct row {
	const char	*s;
	size_t		 len;
	unsigned long	 line;
};

enum lclass	parse_classify(const char *s, size_t len);
/* The shape of a grid whose first line is of class lc (not LC_LONG). */
enum shape	parse_shape(enum lclass lc);
/*
 * Does a line of class lc, len bytes, belong to the grid of shape being
 * read?  A short line in a digit grid is a bad row, not a new puzzle.
 */
int		parse_continues(enum shape shape, enum lclass lc, size_t len);

/*
 * Fill in the item it (kind ITEM_PUZZLE, src, line and shape already set)
 * from a one-line puzzle, or from the nrows rows of a grid: its cells and
 * grid, or ITEM_BAD with the code, text and line of the first fault.
 */
void		parse_line(struct item *it, const char *s, size_t len);
/* The same of a line of 729 pencil marks (common/marks.c): it->marks. */
void		parse_marks(struct item *it, const char *s, size_t len);
void		parse_grid(struct item *it, const struct row *rows,
		    size_t nrows);

/* Makes it ITEM_BAD: code as sudokud's, text, and the line at fault. */
void		parse_bad(struct item *it, unsigned long line,
		    const char *code, const char *fmt, ...)
		    __attribute__((format(printf, 4, 5)));

#endif /* PARSE_H */
