/*
 * worker.h -- worker threads, each with its own event_base.
 *
 * The accepting thread hands connections and orders to a worker through
 * the worker's notify pipe and locked queue (worker_add, worker_reload,
 * worker_drain, worker_close); those four are the only worker functions
 * another thread may call.  The rest is for conn.c, on the worker thread.
 */
#ifndef WORKER_H
#define WORKER_H

#include <stddef.h>

struct conn;
struct conn_list;
struct event_base;
struct proto_env;
struct server_cf;
struct stats;
struct stats_server;

struct worker;

struct worker	*worker_new(unsigned int, struct server_cf *,
		    struct stats_server *, int);
int		 worker_start(struct worker *);
void		 worker_join(struct worker *);
void		 worker_free(struct worker *);
unsigned int	 worker_load(struct worker *);

/* Any thread. */
void		 worker_add(struct worker *, int);
void		 worker_reload(struct worker *, struct server_cf *);
void		 worker_drain(struct worker *);
void		 worker_close(struct worker *);

/* The worker's own thread only. */
struct event_base *worker_base(struct worker *);
struct proto_env *worker_env(struct worker *);
struct conn_list *worker_conns(struct worker *);
char		*worker_linebuf(struct worker *);
void		 worker_conn_gone(struct worker *);

#endif /* WORKER_H */
