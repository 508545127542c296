/*
 * peer.h -- one of sudokuc's connections to sudokud: connect, queue
 * requests, write them and split what comes back into lines.
 */
#ifndef PEER_H
#define PEER_H

#include <stddef.h>

#include "sudokuc.h"

/* Replies are short lines; a longer one means the peer is not sudokud. */
#define PEER_LINE_MAX	8192
/* Longest request: "COUNT <81 cells> <limit>\n". */
#define PEER_REQ_MAX	(6 + SUDOKU_CELLS + 1 + 20 + 1)

struct peer {
	int		 fd;

	char		*wbuf;		/* requests not yet written */
	size_t		 wsize;
	size_t		 woff;
	size_t		 wlen;
	int		 wdead;		/* writing failed: only read */

	char		 rbuf[PEER_LINE_MAX];
	size_t		 rlen;

	/*
	 * The caller's queue of the requests sent on this connection and
	 * not answered yet, oldest first: qlen ring slots from qhead, each
	 * linked to the next (batch.c).  When the connection is lost,
	 * these are the requests to resend elsewhere.
	 */
	size_t		 qhead;
	size_t		 qtail;
	size_t		 qlen;
};

/* What peer_read saw. */
enum peer_status {
	PEER_OK = 0,		/* all is well */
	PEER_STOP,		/* the line callback asked to stop */
	PEER_EOF,		/* the server closed the connection */
	PEER_ERROR,		/* read failed: see errno */
	PEER_TOOLONG		/* a reply line longer than PEER_LINE_MAX */
};

/* Handed one reply line (without CR LF); -1 to stop reading. */
typedef int	(*peer_line_cb)(void *, struct peer *, char *);

/*
 * Connect to a Unix socket, or to host and port over TCP.  Return a
 * non-blocking descriptor, or -1 with *cause saying why, with a hint
 * when one helps (is sudokud running? is the user in the socket's
 * group?).
 */
int	peer_connect_unix(const char *path, char **cause);
int	peer_connect_tcp(const char *host, const char *port, char **cause);

/* Takes over fd; at most maxreq requests are ever unwritten at once. */
void	peer_init(struct peer *, int fd, size_t maxreq);
void	peer_free(struct peer *);

/* Queues the request for an ITEM_PUZZLE or ITEM_META item. */
void	peer_request(struct peer *, struct item *, const struct query *);
/* Is there something to write? */
int	peer_pending(const struct peer *);
/* Writes what it can; after a failure only reading goes on. */
void	peer_write(struct peer *);
/* Reads what came and hands over whole lines to cb. */
enum peer_status peer_read(struct peer *, peer_line_cb cb, void *arg);

#endif /* PEER_H */
