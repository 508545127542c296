/* SPDX-License-Identifier: ISC */
/*
 * conn_int.h -- what the files of the connection unit share: a client
 * connection (conn.c, the state machine and its I/O; conn_timer.c, its
 * deadlines; conn_event.c, what its socket is watched for) and the set
 * of a worker's connections it lives in (conn_set.c).  Private to them:
 * the worker uses conn_set.h.  conn.c calls the others; none of them
 * calls back into conn.c but conn_set.c, which drives it.
 *
 * The set is plain data that a connection updates as it changes state:
 * it joins the run queue when it has requests to serve, and counts
 * itself out when it closes.  The set calls a connection through the
 * functions below; a connection calls nothing of the set's.
 */
#ifndef CONN_INT_H
#define CONN_INT_H

#include <sys/types.h>
#include <sys/queue.h>

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <event2/util.h>

#include "clients.h"
#include "deadline.h"
#include "frame.h"
#include "proto.h"

struct event;
struct event_base;
struct config;
struct proto_env;
struct ssl_st;
struct conn;
struct conn_http;

/* Bytes asked of one read(2): about 200 puzzle requests. */
#define CONN_READ		16384

TAILQ_HEAD(conn_list, conn);

struct conn_set {
	struct event_base	*base;
	struct proto_env	*env;
	struct conn_list	 conns;
	struct conn_list	 runq;		/* BUSY, in turn order */
	struct event		*run_ev;	/* serves the head of runq */
	int			 ep;		/* epoll: new input (edges) */
	unsigned int		 reading;	/* connections reading */
	char			 rbuf[CONN_READ];	/* frame.h's scratch */
	int			 draining;	/* break the loop once empty */
	int64_t			 tls_warned;	/* a failed handshake logged */
	int64_t			 auth_warned;	/* a wrong AUTH logged */
	int64_t			 allow_warned;	/* a peer refused logged */
	int64_t			 half_warned;	/* max_half_closed logged */
	_Atomic unsigned int	 closed;	/* connections closed */
};

/*
 * Serve fd in set: a new connection from who, started as how says
 * (CONN_SET_*; behind a PROXY header who is the balancer, and not
 * counted yet as a peer), read now.
 */
void	conn_new(struct conn_set *, int fd, int how,
	    const struct remote_addr *who);

/*
 * conn_admit.c: ERR busy's text, for max_connections or (peer) for the
 * per-peer limit; the client a PROXY header named counted against that
 * (0, or -1 with its ERR busy in c->out); and, before a slice, whether a
 * Unix socket's client has gone (1: drop it).
 */
void	conn_busy_text(const struct config *, int peer, char *buf,
	    size_t size);
int	conn_admit_peer(struct conn *, const struct remote_addr *who);
int	conn_gone(struct conn *);
/*
 * After anything happened to c, which has work (requests to answer) or
 * not: counted against max_half_closed if its client has ended its
 * sending side over TCP; -1 (drop it) if that is one too many.
 */
int	conn_half(struct conn *, int work);
/*
 * The first bytes of a connection from a plain listener, all of them so
 * far (proto_first()): served from now on, refused, or looked at again.
 */
void	conn_first(struct conn *);
/*
 * The PROXY header, once it has all come: taken (then IDLE, or the TLS
 * handshake), or refused with its ERR line; and a step of a handshake
 * (1 done, then IDLE; 0 waiting; -1 failed: close).
 */
void	conn_proxy(struct conn *);
int	conn_handshake(struct conn *);
/*
 * A Unix socket's peer against allow_users and allow_groups: 0, or -1
 * with fd answered ERR noauth (or its HTTP response) and closed.
 */
int	conn_admit_unix(struct conn_set *, int fd, int how);
/*
 * A refusal of a socket not served yet, as a listener of how says it,
 * into buf: "ERR code text" or an HTTP response (nothing over TLS);
 * returns its length.
 */
size_t	conn_admit_reply(int how, const char *code, const char *text,
	    char *buf, size_t size);

/*
 * conn_tls.c: a read into p (bytes, 0 at the end, -1 nothing yet, -2
 * failed) and a write of c->out (bytes, -1 nothing taken, -2 failed),
 * in the clear or over c->ssl; the TLS session started (0, or -1), a
 * step of its handshake (1 done, 0 waiting for c->tls_want, -1 failed:
 * close), and its end before the sending side is shut.
 */
ssize_t	conn_recv(struct conn *, char *p, size_t avail);
ssize_t	conn_send(struct conn *);
int	conn_tls_start(struct conn *);
int	conn_tls_step(struct conn *);
void	conn_tls_end(struct conn *);

/*
 * conn_http.c: a connection of an HTTP listener (doc/http.md), in
 * c->http.  Ready: is a request to serve (conn_frame() for a line)?
 * Request: serve its next line, as conn_request() serves a line: *line
 * (NULL if the request was answered without one: a file, a refusal),
 * its reply to conn_http_lines(); once a line is answered (a job's
 * too), conn_http_answered() makes the response.  First: no line of
 * the request under way has been served.
 */
struct conn_http *conn_http_new(void);
void	conn_http_free(struct conn_http *);
int	conn_http_ready(struct conn *);
enum proto_status conn_http_request(struct conn *, uint64_t max_ns,
	    uint64_t *ns, struct proto_info *, const char **line,
	    size_t *len);
int	conn_http_first(struct conn *);
struct evbuffer *conn_http_lines(struct conn *);
void	conn_http_answered(struct conn *);
/*
 * A refusal before any request (ERR code text on the line protocol):
 * into c->out, the connection closing after it; and the same made for a
 * socket not served yet.
 */
void	conn_http_refuse(struct conn *, const char *code, const char *text);
void	conn_http_refusal(struct evbuffer *out, const char *code,
	    const char *text);
/* conn_admit.c: ERR code text, or conn_http_refuse() for HTTP. */
void	conn_refuse(struct conn *, const char *code, const char *text);

/* Its turn in the run queue (it is the head): one slice. */
void	conn_run(struct conn *);

/*
 * The server stops: take what the kernel holds already (a bounded last
 * look), answer every complete line, then close.
 */
void	conn_stop(struct conn *);

/* The config changed: deadlines from the same moments, new timeouts. */
void	conn_retime(struct conn *);

/* Close now. */
void	conn_free(struct conn *);

/*
 * conn_event.c: watch for the socket being readable, or not (the set
 * counts the connections reading); writable, or not.  The socket joins
 * the set's watch of new input (open) and leaves it with every event
 * (close, before it is closed).  Whether a connection other than self
 * is reading, and whether one has had new input since the last look
 * (self NULL: any; one epoll_wait, no timeout).
 */
void	conn_reading(struct conn *, int on);
void	conn_writing(struct conn *, int on);
void	conn_event_open(struct conn *);
void	conn_event_close(struct conn *);
int	conn_event_others(const struct conn *self);
int	conn_event_waiting(const struct conn_set *, const struct conn *self);

#define CONN_PEER(c)	((c)->peer != NULL ? (c)->peer : "")

enum conn_state {
	CONN_PROXY,
	CONN_HANDSHAKE,
	CONN_IDLE,
	CONN_BUSY,
	CONN_BLOCKED,
	CONN_CLOSING,
	CONN_LINGER
};

struct conn {
	struct conn_set		*set;
	int			 fd;
	char			*peer;		/* ", tcp ADDR:PORT"; NULL */
	enum conn_state		 state;
	struct event		*rev;		/* readable */
	struct event		*wev;		/* writable */
	struct event		*tev;		/* deadline */
	struct evbuffer		*out;
	struct proto_job	*job;		/* a search under way */
	struct conn_http	*http;		/* an HTTP listener's; NULL */
	char			*jobline;	/* its first bytes, for the */
	size_t			 joblen;	/* slow log; or NULL */
	uint64_t		 since;		/* ns: the request was whole */
	uint64_t		 read_ns;	/* ns: the last read of bytes */
	unsigned int		 untimed;	/* instant requests since */
	struct clients_card	 card;		/* CLIENT LIST's */
	struct remote_addr	 counted;	/* the peer admit_peer() took */
	struct ssl_st		*ssl;		/* TLS, once it starts; NULL */
	short			 tls_want;	/* the handshake's EV_READ/WRITE */

	struct frame		 fr;		/* the input */

	struct deadline_moments	 m;		/* for the timeouts */
	uint64_t		 armed;		/* the timer's; 0: none */

	unsigned int		 eof:1;		/* the client is done */
	unsigned int		 quit:1;	/* no more requests */
	unsigned int		 stop:1;	/* the server stops */
	unsigned int		 started:1;	/* bytes have come */
	unsigned int		 reading:1;	/* rev is added */
	unsigned int		 writing:1;	/* wev is added */
	unsigned int		 queued:1;	/* in the run queue */
	unsigned int		 tls:1;		/* TLS after the PROXY header */
	unsigned int		 authed:1;	/* AUTH has succeeded */
	unsigned int		 fin:1;		/* TCP: the client's FIN is in */
	unsigned int		 half:1;	/* counted by admit_half() */
	unsigned int		 polled:1;	/* in the set's ep */

	TAILQ_ENTRY(conn)	 entry;		/* the set's connections */
	TAILQ_ENTRY(conn)	 run;		/* the run queue */
};

/*
 * conn_watch.c: what the connection tells the histograms, the slow log
 * and CLIENT LIST.  Timed: the clock is wanted (histograms or slow
 * log on); then t is a reading of conn_watch_nsec(), else 0.
 */
uint64_t conn_watch_nsec(void);
int	conn_watch_timed(const struct conn *);
/* 1: the request just served takes the reading before it (instant). */
int	conn_watch_untimed(struct conn *, enum proto_status,
	    const struct proto_info *);
/* Time went by between two requests: the next one reads the clock. */
void	conn_watch_row_end(struct conn *);
void	conn_watch_open(struct conn *, int how,
	    const struct remote_addr *peer);
void	conn_watch_close(struct conn *);
void	conn_watch_state(struct conn *);
void	conn_watch_job(struct conn *, const char *line, size_t len);
/* Whether it has authenticated, for its card (AUTH, a bearer token). */
void	conn_watch_auth(struct conn *, int authed);
void	conn_watch_done(struct conn *, uint64_t t, const char *line,
	    size_t len, const struct proto_info *);
/* An AUTH with a wrong secret: logged once a minute at most. */
void	conn_auth_failed(struct conn *);

/*
 * conn_timer.c: make sure the timer fires by the deadline (later ones
 * it re-arms); and, when it has fired, whether a deadline passed (1:
 * logged and counted, close c) or it is armed again for the next (0).
 */
void	conn_timer(struct conn *);
int	conn_timer_due(struct conn *);

static inline const struct config *
conn_cf(const struct conn *c)
{
	return (c->set->env->cf);
}

#endif /* CONN_INT_H */
