/* SPDX-License-Identifier: ISC */
/*
 * worker.h -- worker threads, each with its own event_base.
 *
 * The accepting thread hands connections and orders to a worker through
 * the worker's notify pipe and locked queue; worker_add, worker_reload,
 * worker_drain, worker_close and worker_load are the functions another
 * thread may call.  A worker serves its connections through its conn_set
 * (conn_set.h) and tells the accepting thread, through done_fd, when it has
 * switched to a new config and when its loop has ended.
 */
#ifndef WORKER_H
#define WORKER_H

struct cfref;
struct proto_env;
struct worker;

/* What a worker writes to done_fd, one byte each time. */
#define WORKER_SWITCHED	'r'	/* now serving the config of a reload */
#define WORKER_STOPPED	's'	/* its loop has ended */

/*
 * A worker numbered id (its STATS block), serving with scf: it takes a
 * reference of its own (cfref_hold()).  shared holds what every worker
 * shares (ss, admit, clients, slow); the rest of it is the worker's.
 */
struct worker	*worker_new(unsigned int id, struct cfref *scf,
		    const struct proto_env *shared, int done_fd);
int		 worker_start(struct worker *);
void		 worker_join(struct worker *);
void		 worker_free(struct worker *);

/* Any thread. */
unsigned int	 worker_load(struct worker *);
void		 worker_add(struct worker *, int fd, int proxy);
void		 worker_reload(struct worker *, struct cfref *);
void		 worker_drain(struct worker *);
void		 worker_close(struct worker *);

#endif /* WORKER_H */
