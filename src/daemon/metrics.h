/* SPDX-License-Identifier: ISC */
/*
 * metrics.h -- the figures of STATS for Prometheus, over HTTP.
 *
 * A [listen] metrics address answers GET (or HEAD) /metrics with the
 * counters in Prometheus' text format (stats_prometheus()).  It runs on
 * the accepting thread, with libevent's HTTP server; the counters are
 * read as STATS reads them, without a lock.
 */
#ifndef METRICS_H
#define METRICS_H

struct event_base;
struct stats_server;
struct metrics;

struct metrics	*metrics_new(struct event_base *, struct stats_server *);

/* Serve on fd, a listening socket, which the server then owns. */
int		 metrics_listen(struct metrics *, int fd, char **cause);

/* Stop serving; the listening sockets are closed. */
void		 metrics_free(struct metrics *);

#endif /* METRICS_H */
