/* SPDX-License-Identifier: ISC */
/*
 * pool.h -- the connections of a sudokuc batch to its servers.
 *
 * A fixed number of connections, spread round robin over the servers,
 * at least one each.  A connection that is down is connected again, as
 * soon as its server's backoff allows, without blocking; one that owes
 * replies and has been silent for the timeout is reported stalled.
 * What becomes of the requests of a lost connection is the batch's
 * business (batch.c): the pool only knows sockets and servers.
 */
#ifndef POOL_H
#define POOL_H

#include "output.h"
#include "peer.h"
#include "servers.h"

struct pollfd;
struct pool;

/*
 * npeer connections (at least nserver) to the servers, all down until
 * pool_connect(); timeout is the connect and reply timeout in seconds.
 * With verbose, reconnects are reported through out.
 */
struct pool	*pool_new(struct endpoint *servers, size_t nserver,
		    size_t npeer, double timeout, struct output *out,
		    int verbose);
void		 pool_free(struct pool *);

size_t		 pool_size(const struct pool *);
struct peer	*pool_peer(struct pool *, size_t i);

/*
 * Fails the connects that took longer than the timeout, and starts
 * connecting those that are down and whose server's backoff is over.
 */
void		 pool_connect(struct pool *, double now);
/* A connect in progress is over (its socket polled writable or failed). */
void		 pool_opened(struct pool *, struct peer *, double now);
/* The next connection up that can take a request, in turn; or NULL. */
struct peer	*pool_next(struct pool *);
/* The first connection up that can take a request (meta requests). */
struct peer	*pool_first(struct pool *);
/* A connection up that has owed replies for the timeout in silence. */
struct peer	*pool_stalled(struct pool *, double now);
/*
 * The connection is lost (owed: with requests unanswered): closed, its
 * server backed off, why (an allocated message, "NAME: ...") kept as
 * what went wrong with it (servers_failed()).
 */
void		 pool_lose(struct pool *, struct peer *, double now,
		    char *why, int owed);
/*
 * The server s answered wrong: every connection to it closed (their
 * queues must be empty: the batch's business), and it is never
 * connected to again; why (allocated) is what it did.
 */
void		 pool_setaside(struct pool *, struct endpoint *s, char *why);
/*
 * A server that refused for good while connecting (a TLS handshake that
 * failed), not to be connected to again: *why (allocated) says it, for
 * the batch to set it aside (pool_setaside()); or NULL.
 */
struct endpoint	*pool_refused(struct pool *, char **why);
/* Requests on the connections not answered yet. */
size_t		 pool_owed(const struct pool *);
/* What to poll(2) each connection for, in pfd[0] to pfd[size - 1]. */
void		 pool_events(const struct pool *, struct pollfd *pfd);
/* One of the connections answered a request, or the PING of a probe. */
void		 pool_answered(struct pool *, struct peer *, double now);
/*
 * A line of a reply of several came on w: it is not silent, so its
 * timeout starts again (a long SOLUTIONS streams for longer than it).
 */
void		 pool_heard(struct pool *, struct peer *, double now);

/*
 * Has every server been set aside, or, before any connection was ever
 * up, has every server failed, with no connect in progress?  Then the
 * batch cannot go on.
 */
int		 pool_hopeless(const struct pool *);
/*
 * Is a connection up waiting for replies from a server that has not
 * failed since it last answered?  Then it may yet answer.
 */
int		 pool_hopeful(const struct pool *);
/* Seconds until a retry or a timeout is due, at most max. */
double		 pool_wait(const struct pool *, double now, double max);

/* For each server, what went wrong with it since it last answered. */
void		 pool_why(const struct pool *, double now);
/* -v: what each server did. */
void		 pool_summary(const struct pool *);

#endif /* POOL_H */
