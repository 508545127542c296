/* SPDX-License-Identifier: ISC */
/*
 * output.h -- sudokuc answers, messages, progress and summary.
 *
 * Items are handed over in input order with the reply line they got
 * (from sudokud, or made by reply.c in the daemon's words), and each
 * puzzle gets one answer record on standard output: its solution in the
 * shape the puzzle came in or the one forced with -f, its count, its
 * rating, its hint (drawn by draw.c with -f pretty), its path (lines,
 * a blank line between two), its solutions (grids as a solution's, a
 * blank line between two puzzles'), its canonical form, the puzzle
 * made for a seed or from it (shuffled, minimized, constrained), or the
 * ERR line of an error answer, so that the answers line up with the
 * puzzles.
 * Every message on standard error starts with "sudokuc: ".
 */
#ifndef OUTPUT_H
#define OUTPUT_H

#include "item.h"

#define OUTPUT_QUIET	0x1	/* no progress, no notes about error answers */
#define OUTPUT_VERBOSE	0x2	/* a summary at the end */
#define OUTPUT_PROGRESS	0x4	/* a progress line on stderr */
#define OUTPUT_ERRSTDERR 0x8	/* -e: error answers on stderr, not stdout */
#define OUTPUT_PUZZLE	0x10	/* -P: each answer line, a tab, its puzzle */

/*
 * Are standard output and standard error the same terminal?  Then -e
 * is the default: an error answer in place and a note beside it would
 * show the same error twice.
 */
int	output_one_terminal(void);

struct output;

struct output	*output_new(enum format, const struct query *, int flags);
void		 output_free(struct output *);

/* Where the answers come from, for messages ("unix:PATH", "tcp:H:P"). */
void		 output_peer(struct output *, const char *peer);
/* Solving in-process with threads (-L, -j): for the summary. */
void		 output_local(struct output *, unsigned int threads);
/* About how many puzzles to expect (0: unknown), for the progress ETA. */
void		 output_total(struct output *, unsigned long total);
/*
 * Where an item is, for messages: "FILE:LINE", "argument N", "seed N"
 * (generate), or "ping", "stats", "version".
 */
void		 output_where(const struct output *, const struct item *,
		    char *buf, size_t size);
/* A server was set aside for a wrong answer: the exit status says so. */
void		 output_setaside(struct output *);

/*
 * One item and its reply (one line without LF, or for STATS, PATH and
 * SOLUTIONS its lines joined by LF, END or an ERR the last; NULL for a
 * malformed or unreadable input).  Returns 0, or -1 when the reply
 * makes going on pointless (the server broke the protocol); a message
 * has been printed then.
 */
int		 output_item(struct output *, const struct item *,
		    const char *reply);

/* Updates the progress line if it is due. */
void		 output_tick(struct output *);
/* A message about the whole run (connection lost, ...), on stderr. */
void		 output_warnx(struct output *, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));
/* Flushes, prints the summary if asked; returns the exit status. */
int		 output_finish(struct output *, int fatal);

#endif /* OUTPUT_H */
