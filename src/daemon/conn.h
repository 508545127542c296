/* SPDX-License-Identifier: ISC */
/*
 * conn.h -- one client connection (conn.c), and the set of a worker's
 * connections it lives in (conn_set.c).  Private to those two files:
 * the worker uses conn_set.h.
 *
 * The set is plain data that a connection updates as it changes state:
 * it joins the run queue when it has requests to serve, and counts
 * itself out when it closes.  The set calls a connection through the
 * functions below; a connection calls nothing of the set's.
 */
#ifndef CONN_H
#define CONN_H

#include <sys/queue.h>

#include <stdatomic.h>
#include <stddef.h>

struct event;
struct event_base;
struct proto_env;
struct conn;

/* Bytes asked of one read(2): about 200 puzzle requests. */
#define CONN_READ		16384

TAILQ_HEAD(conn_list, conn);

struct conn_set {
	struct event_base	*base;
	struct proto_env	*env;
	struct conn_list	 conns;
	struct conn_list	 runq;		/* BUSY, in turn order */
	struct event		*run_ev;	/* serves the head of runq */
	char			 rbuf[CONN_READ];	/* frame.h's scratch */
	int			 draining;	/* break the loop once empty */
	_Atomic unsigned int	 closed;	/* connections closed */
};

/* Serve fd in set: a new connection (behind a PROXY header), read now. */
void	conn_new(struct conn_set *, int fd, int proxy);

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

/* The next connection of the set, for walking it; NULL at the end. */
struct conn *conn_next(struct conn *);

#endif /* CONN_H */
