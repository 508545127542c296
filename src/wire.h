/*
 * wire.h -- one of sudokuc's connections to sudokud: connect, queue
 * requests, write them and split what comes back into lines.
 */
#ifndef WIRE_H
#define WIRE_H

#include <stddef.h>

#include "sudokuc.h"

/* Replies are short lines; a longer one means the peer is not sudokud. */
#define WIRE_LINE_MAX	8192
/* Longest request: "COUNT <81 cells> <limit>\n". */
#define WIRE_REQ_MAX	(6 + SUDOKU_CELLS + 1 + 20 + 1)

struct wire {
	int		 fd;

	char		*wbuf;		/* requests not yet written */
	size_t		 wsize;
	size_t		 woff;
	size_t		 wlen;
	int		 wdead;		/* writing failed: only read */

	char		 rbuf[WIRE_LINE_MAX];
	size_t		 rlen;

	/* The caller's queue of requests awaiting a reply, oldest first. */
	size_t		 qhead;
	size_t		 qtail;
	size_t		 qlen;
};

/* What wire_read saw, when it is not 0 (all is well). */
enum wire_status {
	WIRE_OK = 0,
	WIRE_STOP,		/* the line callback asked to stop */
	WIRE_EOF,		/* closed by the server */
	WIRE_ERROR,		/* read failed: see errno */
	WIRE_TOOLONG		/* a reply line longer than WIRE_LINE_MAX */
};

/* Handed one reply line (without CR LF); -1 to stop reading. */
typedef int	(*wire_line_cb)(void *, struct wire *, char *);

/*
 * Connect to a Unix socket, or to host and port over TCP.  Return a
 * non-blocking descriptor, or -1 with the reason in cause.
 */
int	wire_connect_unix(const char *path, char *cause, size_t size);
int	wire_connect_tcp(const char *host, const char *port, char *cause,
	    size_t size);

/* Takes over fd; at most maxreq requests are ever unwritten at once. */
void	wire_init(struct wire *, int fd, size_t maxreq);
void	wire_free(struct wire *);

/* Queues the request for an ITEM_PUZZLE or ITEM_META item. */
void	wire_request(struct wire *, struct item *, const struct query *);
/* Is there something to write? */
int	wire_pending(const struct wire *);
/* Writes what it can; after a failure only reading goes on. */
void	wire_write(struct wire *);
/* Reads what came and hands over whole lines to cb. */
enum wire_status wire_read(struct wire *, wire_line_cb cb, void *arg);

#endif /* WIRE_H */
