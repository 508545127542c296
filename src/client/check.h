/* SPDX-License-Identifier: ISC */
/*
 * check.h -- is a server's answer one that sudokud could have given?
 *
 * sudokuc checks every answer a server sends before it prints it, as the
 * test suite checks the daemon's: an error a code the request can get
 * (never length, char or conflict: sudokuc sends only puzzles it has
 * checked itself), nosolution and multiple only if a count here agrees;
 * PING, VERSION and STATS their own replies; every other answer by the
 * check of its verb's row (verb.h), made of the pieces below: a
 * solution must be a valid grid that keeps the givens (of pencil marks:
 * a candidate in each cell), a rating a level, a score in that level's
 * range and a technique of that level, a hint's action sound, and so
 * on (verb_solve.c, verb_logic.c, verb_path.c, verb_tools.c).  A server
 * whose answer fails is set aside by the batch (batch.c) and its
 * requests go to the others.
 *
 * The checks that need the puzzle's solution solve it here, with a
 * budget: an answer is called wrong only when this side can prove it,
 * never because a search here ran out.
 */
#ifndef CHECK_H
#define CHECK_H

#include <stddef.h>

#include "item.h"

/* Why an answer fails, for the message naming the server. */
#define CHECK_WHYLEN	128

/* Guesses a check may make: far more than any unique puzzle needs. */
#define CHECK_BUDGET	100000

/*
 * 0 if reply (one line without its LF, or the lines of a reply of
 * several lines joined by LF, END the last) can be sudokud's answer to
 * the request made for it under q; else -1, and why (of size bytes) says
 * what is wrong with it.
 */
int	check_answer(const struct query *q, const struct item *it,
	    const char *reply, char *why, size_t size);

/* why (of size bytes) gets the printf text; returns -1. */
int	check_fail(char *why, size_t size, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* "r4c7" for a cell. */
const char *check_cell(int cell, char buf[16]);
/*
 * 81 digits 1-9 at reply, and nothing after them: a valid grid, the
 * givens of it kept; of a puzzle of pencil marks, each digit one of its
 * cell's candidates.
 */
int	check_solution(const struct item *it, const char *reply, char *why,
	    size_t size);
/*
 * The puzzle's solutions, counted here to 2: 0, 1 or 2 (two or more),
 * or -1 if the count ran out of its budget and cannot tell.
 */
int	check_many(const struct item *it);
/* check_many()'s n in words: "no solution", "one solution", ... */
const char *check_has(int n);
/* The technique named by the len bytes at s, or SUDOKU_TECH_COUNT. */
enum sudoku_technique check_technique(const char *s, size_t len);
/* "<level> <score> <hardest>": the score in the level's x.0-x.9. */
int	check_rate(const char *reply, char *why, size_t size);
/*
 * One action "rRcC=D" or "rRcC-D" at *s (moved past it), checked
 * against sol (if any).
 */
int	check_action(const char **s, const struct sudoku_grid *sol,
	    char *why, size_t size);
/*
 * "ERR <code> <text>" with a code of any or mine (" a b "), or deadline
 * when the request had one.
 */
int	check_code(const struct query *q, const char *reply, const char *any,
	    const char *mine, char *why, size_t size);

#endif /* CHECK_H */
