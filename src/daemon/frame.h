/* SPDX-License-Identifier: ISC */
/*
 * frame.h -- cutting a connection's input into request lines.
 *
 * Lines end at LF; a CR before it is dropped.  A line longer than the
 * limit is not kept: its bytes are dropped as they come, so memory stays
 * bounded, and it is reported once, when its LF arrives.  At the end of
 * input a last line without LF counts as a line.
 */
#ifndef FRAME_H
#define FRAME_H

#include <sys/types.h>

#include <stddef.h>

struct evbuffer;

struct frame {
	struct evbuffer	*in;		/* the input, the caller's */
	size_t		 scanned;	/* bytes known to hold no LF */
	size_t		 eol;		/* the line's length, if has_line */
	size_t		 discard_max;	/* dropping a line over this; 0 */
	int		 has_line;	/* eol is valid */
};

/*
 * Is a complete line waiting?  max is max_line (bytes without LF or
 * CRLF); eof says the input has ended.  Drops the bytes of an incomplete
 * line that is over max already.
 */
int	frame_ready(struct frame *, size_t max, int eof);

/*
 * Bytes held of an incomplete line (or 1 while dropping one): whether
 * the client is in the middle of a line.
 */
size_t	frame_partial(const struct frame *);

/*
 * Take the line frame_ready() found into buf (max + 1 bytes), without
 * its LF or CRLF, and return its length; or -1 if it is over max, with
 * *limit set to the max it broke (the one in force when it began).
 */
ssize_t	frame_take(struct frame *, size_t max, char *buf, size_t *limit);

#endif /* FRAME_H */
