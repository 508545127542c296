/* SPDX-License-Identifier: ISC */
/*
 * frame.h -- a connection's input, and cutting it into request lines.
 *
 * Lines end at LF; a CR before it is dropped.  A line longer than the
 * limit is not kept: its bytes are dropped as they come, so memory stays
 * bounded, and it is reported once, when its LF arrives.  At the end of
 * input a last line without LF counts as a line.
 *
 * read(2) fills the input in place and lines are served from where they
 * are: no copy between the socket and the parser.  While a connection is
 * served its bytes may be in a scratch block that every connection of a
 * worker shares (reads are large, most connections hold nothing between
 * them); frame_keep() moves what is left into a block of the
 * connection's own, of just that size, before the scratch block is lent
 * to another.  So an idle connection holds no input memory, and a
 * request costs no allocation.
 */
#ifndef FRAME_H
#define FRAME_H

#include <sys/types.h>

#include <stddef.h>

/* Least room frame_space() gives a read. */
#define FRAME_ROOM	4096

struct frame {
	char		*scratch;	/* shared, the caller's; or NULL */
	size_t		 scratchsize;
	char		*own;		/* the frame's block, or NULL */
	size_t		 ownsize;
	char		*base;		/* where the bytes are: one of them */
	size_t		 off;		/* first byte not taken */
	size_t		 len;		/* bytes from off */
	size_t		 scanned;	/* bytes from off known to hold no LF */
	size_t		 eol;		/* the line's length, if has_line */
	size_t		 discard_max;	/* dropping a line over this; 0 */
	int		 has_line;	/* eol is valid */
};

/* A frame that borrows scratch (size bytes; NULL: never). */
void	 frame_init(struct frame *, char *scratch, size_t size);

/*
 * Room to read into after the bytes held, at least FRAME_ROOM: where,
 * and how much in *avail.  May move the bytes held.
 */
char	*frame_space(struct frame *, size_t *avail);

/* n bytes were read to where frame_space() said. */
void	 frame_fill(struct frame *, size_t n);

/* The bytes held, not yet taken: *len of them. */
const char *frame_data(const struct frame *, size_t *len);

/* The first n bytes held are used up (n <= what frame_data() says). */
void	 frame_drop(struct frame *, size_t n);

/*
 * Is a complete line waiting?  max is max_line (bytes without LF or
 * CRLF); eof says the input has ended.  Drops the bytes of an incomplete
 * line that is over max already.
 */
int	 frame_ready(struct frame *, size_t max, int eof);

/*
 * Bytes held of an incomplete line (or 1 while dropping one): whether
 * the client is in the middle of a line.
 */
size_t	 frame_partial(const struct frame *);

/*
 * Take the line frame_ready() found: *line points at it, in place and
 * without its LF or CRLF, until the next frame_space() or frame_keep();
 * returns its length, or -1 if it is over max, with *limit set to the
 * max it broke (the one in force when it began).
 */
ssize_t	 frame_take(struct frame *, size_t max, const char **line,
	    size_t *limit);

/*
 * Stop using the scratch block: what is held moves to a block of the
 * frame's own, just large enough, and nothing held means no block.
 */
void	 frame_keep(struct frame *);

/* Drop everything held, and the frame's block. */
void	 frame_clear(struct frame *);

#endif /* FRAME_H */
