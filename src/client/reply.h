/* SPDX-License-Identifier: ISC */
/*
 * reply.h -- the replies of sudokud, made in-process for sudokuc -L.
 */
#ifndef REPLY_H
#define REPLY_H

#include <stddef.h>

#include "item.h"

/*
 * The longest reply: a hint's step text.  sudokud formats it into 1024
 * bytes (proto_logic.c); a step of 81 eliminations and its explanation fit.
 */
#define REPLY_MAX	1024
/* Enough for every other reply: 81 digits, or "ERR budget ...". */
#define REPLY_SHORT	96

/*
 * The reply sudokud would send for it (one line, no LF), made by the
 * same core calls the daemon makes (src/daemon/proto_*.c), with the budget
 * of q, so that -L prints byte for byte what the daemon path prints.
 * Not for META_STATS, which needs a daemon.  size: REPLY_MAX for
 * MODE_HINT and MODE_ANALYZE, REPLY_SHORT for the others.
 */
void	reply_make(const struct item *it, const struct query *q, char *buf,
	    size_t size);

#endif /* REPLY_H */
