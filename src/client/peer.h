/* SPDX-License-Identifier: ISC */
/*
 * peer.h -- one of sudokuc's connections to sudokud: connect without
 * blocking, queue requests, write them and split what comes back into
 * lines.
 */
#ifndef PEER_H
#define PEER_H

#include <stddef.h>

#include "servers.h"
#include "item.h"

/* Replies are short lines; a longer one means the peer is not sudokud. */
#define PEER_LINE_MAX	8192
/*
 * The most bytes of a reply of several lines: a PATH has at most 729
 * steps (each removes one of the 729 candidates or more) of at most
 * 1023 bytes (sudokud makes each in 1024), and three lines more; STATS
 * a few hundred short lines; SOLUTIONS 82 bytes a solution, at most
 * SUDOKUC_SOLUTIONS_MAX of them.
 */
#define PEER_BLOCK_MAX	(1024 * 1024)

/* A FIFO of ring slots, linked through the batch's next[] (batch.c). */
struct slotq {
	size_t		 head;
	size_t		 tail;
	size_t		 len;
};

enum peer_state {
	PEER_DOWN = 0,		/* no socket: waiting for its server */
	PEER_CONNECTING,	/* a connect(2) in progress: poll POLLOUT */
	PEER_UP
};

struct peer {
	int			 fd;
	enum peer_state		 state;
	struct endpoint		*server;	/* the one it connects to */
	const struct addrinfo	*ai;		/* TCP: the address tried */
	/*
	 * Connecting: when it began.  Up: when it last answered, or when
	 * it was asked something while it owed nothing (the reply timeout
	 * counts from there).
	 */
	double			 since;
	int			 wasup;		/* was up once: reconnecting */
	int			 probing;	/* a PING first: no requests */
	int			 authing;	/* AUTH sent, its OK not read */

	struct ssl_st		*ssl;		/* TLS, once TCP is up */
	short			 tlswant;	/* the handshake's poll events */
	char			*refusal;	/* why the server refused us */

	char			*wbuf;		/* requests not yet written */
	size_t			 wsize;
	size_t			 woff;
	size_t			 wlen;
	int			 wdead;		/* writing failed: only read */

	char			 rbuf[PEER_LINE_MAX];
	size_t			 rlen;

	/* A reply of several lines so far (peer_gather()). */
	char			*block;
	size_t			 blen;
	size_t			 bsize;
	size_t			 blines;	/* its lines */

	/*
	 * The caller's queue of the requests sent on this connection and
	 * not answered yet, oldest first.  When the connection is lost,
	 * these are the requests to send again elsewhere.
	 */
	struct slotq		 q;
};

/* What peer_read saw. */
enum peer_status {
	PEER_OK = 0,		/* all is well */
	PEER_STOP,		/* the line callback asked to stop */
	PEER_EOF,		/* the server closed the connection */
	PEER_ERROR,		/* read failed: see errno */
	PEER_TOOLONG,		/* a reply line longer than PEER_LINE_MAX */
	PEER_REFUSED		/* refused for good: w->refusal says why */
};

/* Handed one reply line (without CR LF); -1 to stop reading. */
typedef int	(*peer_line_cb)(void *, struct peer *, char *);

/* A connection to server, down; no socket yet. */
void	peer_init(struct peer *, struct endpoint *server);
void	peer_free(struct peer *);

/*
 * Start connecting (PEER_DOWN): 0 when up, 1 while in progress (poll
 * for peer_events(), then call peer_opened()), -1 with *cause saying
 * why not, with a hint when one helps (is sudokud running? is the user
 * in the socket's group?), -2 when the server refused for good (a TLS
 * handshake that failed: *cause is "NAME: TLS: why").  A TCP server's
 * addresses are tried in turn; a TLS server's handshake is part of
 * connecting.
 */
int	peer_open(struct peer *, char **cause);
/* The connect in progress is over: as peer_open(). */
int	peer_opened(struct peer *, char **cause);
/* Closes the socket, drops the buffers; the queue is the caller's. */
void	peer_close(struct peer *);

/* What to poll(2) w for. */
short	peer_events(const struct peer *);

/*
 * Queues AUTH with the server's secret, the first request: its OK is
 * read before the replies (peer_read), anything else but ERR busy is
 * a refusal (PEER_REFUSED).
 */
void	peer_auth(struct peer *);
/* Queues a PING, to see whether the server answers. */
void	peer_probe(struct peer *);
/* Queues the request for an ITEM_PUZZLE or ITEM_META item. */
void	peer_request(struct peer *, struct item *, const struct query *);
/*
 * Gathers the lines of a reply of several lines (STATS, PATH, SOLUTIONS)
 * into one, up to END or an ERR line (the one line such a request may
 * get instead, or the end of SOLUTIONS cut short): 1 when
 * the reply is whole (*line then points to it, its lines joined by LF,
 * valid until the next call), 0 for more, -1 when the reply would pass
 * PEER_BLOCK_MAX.  A connection closed drops what was gathered.
 */
int	peer_gather(struct peer *, char **line);
/* Is there something to write? */
int	peer_pending(const struct peer *);
/* Writes what it can; after a failure only reading goes on. */
void	peer_write(struct peer *);
/*
 * Reads what came and hands over whole lines to cb.  PEER_REFUSED: the
 * server refused AUTH, or TLS failed, or a plain connection to a TCP
 * server that never said a thing was closed before any reply (a TLS
 * port?); w->refusal says it, naming the server.
 */
enum peer_status peer_read(struct peer *, peer_line_cb cb, void *arg);

/*
 * How w, a connection to the server called name, was lost (s, errno
 * error), in words (allocated): silent since w->since (s PEER_OK), closed
 * by the server (a server that stops gracefully answers what it read,
 * then closes), or failed.
 */
char		*peer_lost(const struct peer *w, const char *name,
		    enum peer_status s, int error, double now);

#endif /* PEER_H */
