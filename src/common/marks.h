/* SPDX-License-Identifier: ISC */
/*
 * marks.h -- a puzzle written as pencil marks (729 characters), as both
 * programs read it: sudokud for SOLVE, LEXMIN, COUNT, SOLUTIONS and
 * ANALYZE, sudokuc for the same requests, and -L, so that both refuse
 * the same puzzles in the same words (doc/protocol.md, "Puzzles").
 */
#ifndef MARKS_H
#define MARKS_H

#include <stddef.h>

#include "core/sudoku.h"

/*
 * The len bytes at s as a puzzle of pencil marks: the candidates in *c,
 * the givens (the cells with one candidate) in *g.  0; or -1 with *pe
 * saying why, checked in the protocol's order: the length and the bytes
 * (sudoku_cands_parse()), then a cell with no candidate left (the kind
 * SUDOKU_PERR_CONFLICT with that cell as cell1 and cell2 -1), then two
 * givens in conflict (sudoku_parse()).
 */
int	marks_parse(const char *s, size_t len, struct sudoku_cands *c,
	    struct sudoku_grid *g, struct sudoku_perror *pe);

/* sudoku_perror_text(), or "r4c7 has no candidate left"; as snprintf(). */
int	marks_perror_text(const struct sudoku_perror *pe, char *buf,
	    size_t size);

#endif /* MARKS_H */
