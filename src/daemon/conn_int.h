/* SPDX-License-Identifier: ISC */
/*
 * conn_int.h -- what conn.c (the state machine, the I/O) and conn_timer.c
 * (the deadlines) share: a connection.  Private to those two files.
 */
#ifndef CONN_INT_H
#define CONN_INT_H

#include <sys/types.h>
#include <sys/queue.h>

#include <stdint.h>

#include <event2/util.h>

#include "conn.h"
#include "deadline.h"
#include "frame.h"
#include "proto.h"

#define CONN_PEER(c)	((c)->peer != NULL ? (c)->peer : "")

enum conn_state {
	CONN_PROXY,
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

	TAILQ_ENTRY(conn)	 entry;		/* the set's connections */
	TAILQ_ENTRY(conn)	 run;		/* the run queue */
};

/* Make sure the timer fires by the deadline; later ones it re-arms. */
void	conn_timer(struct conn *);

/* The timer fired: a deadline passed (close), or re-arm for the next. */
void	conn_timercb(evutil_socket_t, short, void *);

static inline const struct config *
conn_cf(const struct conn *c)
{
	return (c->set->env->cf);
}

#endif /* CONN_INT_H */
