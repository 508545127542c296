/* SPDX-License-Identifier: ISC */
/*
 * reply.h -- the replies of sudokud, made in-process for sudokuc -L:
 * reply_make() for the run (local.c), and the pieces the rows' replies
 * share (verb.h).
 */
#ifndef REPLY_H
#define REPLY_H

#include <stddef.h>

#include "item.h"

/*
 * The longest one-line reply: a hint's step text.  sudokud formats it
 * into 1024 bytes (proto_logic.c); a step of 81 eliminations and its
 * explanation fit.  A PATH or SOLUTIONS, several such lines, grows its
 * buffer.
 */
#define REPLY_MAX	1024

/*
 * The most a reply buffer keeps for the next reply (reply_buf_trim()):
 * a PATH's lines fit; a long SOLUTIONS list (82 bytes a solution) is
 * let go once printed, or every buffer of -L's ring would end up the
 * size of the longest list it ever held.
 */
#define REPLY_KEEP	(64 * 1024)

/* A reply's bytes: grown as a reply needs, kept for the next one. */
struct reply_buf {
	char	*p;
	size_t	 size;
};

/*
 * The reply sudokud would send for it: one line without LF, or for
 * PATH and SOLUTIONS its lines joined by LF, the last END (or for
 * SOLUTIONS the ERR that cut it short).  Made by the same core calls
 * the daemon makes (src/daemon/proto_*.c), with the budget of q, so
 * that -L prints byte for byte what the daemon path prints.  Not for
 * META_STATS, which needs a daemon.
 */
void	reply_make(const struct item *it, const struct query *q,
	    struct reply_buf *b);
void	reply_buf_free(struct reply_buf *b);
/* Frees b if it grew past REPLY_KEEP: call once its reply is printed. */
void	reply_buf_trim(struct reply_buf *b);
/* A puzzle as every request that returns one prints it: '.' blanks. */
void	reply_puzzle(const struct sudoku_grid *g, char *buf);
/* The ERR line of a search's end r: nosolution, budget, or conflict. */
void	reply_result(enum sudoku_result r, uint64_t budget, char *buf,
	    size_t size);
/*
 * RATE, HINT and PATH first count to two: 0 if the puzzle has exactly
 * one solution (in *sol), else -1 and the reply is in buf.
 */
int	reply_unique(const struct item *it, const struct query *q,
	    struct sudoku_grid *sol, char *buf, size_t size);
/*
 * HINT and PATH from c, a state of the puzzle: 0 if the puzzle has one
 * solution (in *sol) and no cell of c has lost its digit, else -1 and
 * the reply (an ERR) is in b.
 */
int	reply_state(const struct item *it, const struct query *q,
	    const struct sudoku_cands *c, struct sudoku_grid *sol,
	    struct reply_buf *b);
/*
 * Appends a line to a reply of several lines in b, *len bytes long so
 * far: LF before all but the first.
 */
void	reply_line(struct reply_buf *b, size_t *len, const char *line);

/*
 * Bytes a reply to q may take: a list of q->limit lines (SOLUTIONS),
 * else REPLY_MAX (PATH's lines are some kilobytes at most).
 */
size_t	reply_size(const struct query *q);

#endif /* REPLY_H */
