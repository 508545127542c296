/* SPDX-License-Identifier: ISC */
/*
 * metrics.h -- the figures of STATS for Prometheus, over HTTP.
 *
 * A [listen] metrics address answers GET (or HEAD) /metrics with the
 * counters in Prometheus' text format (stats_prometheus()), /healthz
 * with whether the server takes new clients, /livez with 200.  It runs on
 * the accepting thread, which accepts on the metrics listeners as on the
 * others (pausing when out of descriptors) and hands each connection
 * here; the counters are read as STATS reads them, without a lock.
 */
#ifndef METRICS_H
#define METRICS_H

struct config;
struct event_base;
struct stats_server;
struct metrics;

/* cf: the limits (metrics_max_connections, metrics_timeout) to apply. */
struct metrics	*metrics_new(struct event_base *, struct stats_server *,
		    const struct config *cf);

/*
 * SIGTERM: the server drains.  /healthz answers 503 "draining" from now
 * on; the metrics go on being served until the server exits.
 */
void		 metrics_drain(struct metrics *);

/* A reload: cf applies from now on, to open connections too. */
void		 metrics_config(struct metrics *, const struct config *cf);

/* Serve the accepted connection fd, which is the metrics' from now on. */
void		 metrics_accept(struct metrics *, int fd);

/* Close every connection and free. */
void		 metrics_free(struct metrics *);

#endif /* METRICS_H */
