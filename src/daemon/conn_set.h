/* SPDX-License-Identifier: ISC */
/*
 * conn_set.h -- the client connections of one worker thread.
 *
 * A worker owns one conn_set: the connections handed to it and the queue
 * of those with requests waiting for their turn.  Each connection is a
 * state machine (conn.c); the worker only adds sockets to the set and
 * asks the set to stop.  Everything here runs on the worker's thread,
 * except conn_set_closed().
 */
#ifndef CONN_SET_H
#define CONN_SET_H

struct event_base;
struct proto_env;
struct conn_set;

/*
 * An empty set serving with env on base.  env stays the worker's: after
 * changing env->cf (a reload), call conn_set_reconfigure().
 */
struct conn_set	*conn_set_new(struct event_base *base, struct proto_env *env);

/* Close every connection and free the set. */
void		 conn_set_free(struct conn_set *);

/* How a connection starts: bits of conn_set_add()'s how. */
#define CONN_SET_PROXY	0x1	/* with a PROXY header (tcp_proxy, tls_proxy) */
#define CONN_SET_TLS	0x2	/* then a TLS handshake (tls, tls_proxy) */
#define CONN_SET_HTTP	0x4	/* HTTP/JSON, doc/http.md (http, https, ...) */

/*
 * Serve fd, an accepted non-blocking socket counted as open in STATS,
 * starting as how says (CONN_SET_*).
 */
void		 conn_set_add(struct conn_set *, int fd, int how);

/*
 * env->cf changed: the new limits and timeouts apply to every open
 * connection, counting the time already spent (a reload never restarts
 * a timeout).
 */
void		 conn_set_reconfigure(struct conn_set *);

/*
 * Graceful stop: take no new connections; each one answers the complete
 * requests it has read (after one last read of what the kernel holds),
 * sends its replies, shuts down its sending side and closes once the
 * client has.  When the last one is gone the event loop is broken.
 */
void		 conn_set_drain(struct conn_set *);

/* Close every connection now and break the loop; returns how many. */
unsigned int	 conn_set_close_all(struct conn_set *);

/* Connections closed since the set was made; any thread may ask. */
unsigned int	 conn_set_closed(struct conn_set *);

/* Has a connection of set work to do (its run queue is not empty)? */
int		 conn_set_busy(const struct conn_set *);

/*
 * Has a connection that waits for requests had new input since the
 * last look?  One system call: a slice of requests looks after each
 * piece of CONN_SET_PIECE_NS of solving while another connection is
 * reading (conn.c), and makes way if so; work of the worker's own
 * between turns (the GENERATE pool) does the same.  A PING beside a
 * long search waits for a piece, not a slice; the search pays one
 * epoll_wait a piece, about 1 % of it (doc/bench-daemon.md).
 */
#define CONN_SET_PIECE_NS	50000
int		 conn_set_waiting(const struct conn_set *);

#endif /* CONN_SET_H */
