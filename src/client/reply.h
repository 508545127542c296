/* SPDX-License-Identifier: ISC */
/*
 * reply.h -- the replies of sudokud, made in-process for sudokuc -L.
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

#endif /* REPLY_H */
