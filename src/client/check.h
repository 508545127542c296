/* SPDX-License-Identifier: ISC */
/*
 * check.h -- is a server's answer one that sudokud could have given?
 *
 * sudokuc checks every answer a server sends before it prints it, as the
 * test suite checks the daemon's: a solution must be a valid grid that
 * keeps the givens (of pencil marks: a candidate in each cell); a count
 * a number from 0 to the limit asked, and the puzzle's; a rating a level, a score in that
 * level's range and a technique of that level; a hint a known technique
 * whose actions agree with the puzzle's solution, or "solved" for a
 * state with every cell filled; a generated puzzle 81 cells, no two
 * givens in conflict, one solution, the shape asked, minimal as far as
 * that shape lets it; a list of
 * solutions valid, increasing, the least first, at most the n asked
 * and, when fewer, all there are; a canonical form, a shuffle, a
 * minimized or constrained puzzle and a path what defines them
 * (check_tools.c); an error a code the request can get (never length,
 * char or conflict: sudokuc sends only puzzles it has checked itself),
 * nosolution and multiple only if a count here agrees;
 * PING, VERSION and STATS their own replies.  A server whose answer
 * fails is set aside by the batch (batch.c) and its requests go to the
 * others.
 */
#ifndef CHECK_H
#define CHECK_H

#include <stddef.h>

#include "item.h"

/* Why an answer fails, for the message naming the server. */
#define CHECK_WHYLEN	128

/*
 * 0 if reply (one line without its LF, or the lines of a reply of
 * several lines joined by LF, END the last) can be sudokud's answer to
 * the request made for it under q; else -1, and why (of size bytes) says
 * what is wrong with it.
 */
int	check_answer(const struct query *q, const struct item *it,
	    const char *reply, char *why, size_t size);

#endif /* CHECK_H */
