/* SPDX-License-Identifier: ISC */
/*
 * worker.c -- worker threads, each with its own event_base.
 *
 * As in memcached, the accepting thread never touches a worker's
 * libevent objects: it appends a message to the worker's locked queue
 * and, when the queue was empty, writes one byte to the worker's notify
 * pipe.  The worker drains the pipe, takes the queue and acts on each
 * message in order on its own thread, WORKER_BATCH at a time.
 */
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "cfref.h"
#include "common/log.h"
#include "evbase.h"
#include "common/xmalloc.h"
#include "core/sudoku.h"
#include "config.h"
#include "conn_set.h"
#include "genpool.h"
#include "proto.h"
#include "stats.h"
#include "worker.h"

/*
 * Messages acted on per turn of the loop: a flood of new connections
 * is taken in bites between which the open ones are served.
 */
#define WORKER_BATCH	64

enum worker_msg_type {
	WORKER_CONN,		/* serve fd */
	WORKER_RELOAD,		/* switch to scf */
	WORKER_DRAIN,		/* graceful stop */
	WORKER_CLOSE		/* stop now */
};

struct worker_msg {
	enum worker_msg_type	 type;
	int			 fd;
	int			 proxy;		/* WORKER_CONN */
	struct cfref	*scf;
	struct worker_msg	*next;
};

struct worker {
	unsigned int		 id;
	pthread_t		 thread;
	int			 started;
	struct event_base	*base;
	struct event		*notify_ev;
	struct event		*more_ev;	/* the rest of a long queue */
	int			 notify[2];	/* pipe: [0] read, [1] write */
	int			 done_fd;	/* to the server (worker.h) */

	pthread_mutex_t		 lock;		/* guards head and tail */
	struct worker_msg	*head;
	struct worker_msg	**tail;

	_Atomic unsigned int	 handed;	/* connections given to it */

	/* Worker thread only from here on. */
	struct cfref	*scf;		/* a reference of its own */
	struct proto_env	 env;
	struct conn_set		*set;
};

static void	worker_notify(evutil_socket_t, short, void *);

struct worker *
worker_new(unsigned int id, struct cfref *scf,
    const struct proto_env *shared, int done_fd)
{
	struct worker	*w;

	w = xcalloc(1, sizeof *w);
	w->id = id;
	w->done_fd = done_fd;
	w->scf = cfref_hold(scf);
	w->env.cf = cfref_config(scf);
	w->env.ss = shared->ss;
	w->env.admit = shared->admit;
	w->env.clients = shared->clients;
	w->env.slow = shared->slow;
	w->env.st = stats_worker(shared->ss, id);
	w->env.scratch = proto_scratch_new();
	w->tail = &w->head;
	atomic_init(&w->handed, 0);
	pthread_mutex_init(&w->lock, NULL);
	if (pipe2(w->notify, O_NONBLOCK | O_CLOEXEC) == -1)
		fatal("%s: pipe2", __func__);
	w->base = evbase_new();
	w->notify_ev = event_new(w->base, w->notify[0], EV_READ | EV_PERSIST,
	    worker_notify, w);
	w->more_ev = evtimer_new(w->base, worker_notify, w);
	if (w->notify_ev == NULL || w->more_ev == NULL ||
	    event_add(w->notify_ev, NULL) == -1)
		fatalx("%s: cannot watch the notify pipe", __func__);
	w->set = conn_set_new(w->base, &w->env);
	w->env.pool = genpool_new(w->base, w->set, &w->env);
	return (w);
}

/* One byte to the server: WORKER_STOPPED or WORKER_SWITCHED. */
static void
worker_tell(struct worker *w, char what)
{
	ssize_t	n;

	do
		n = write(w->done_fd, &what, 1);
	while (n == -1 && errno == EINTR);
	if (n == -1)
		log_warn("worker %u: cannot tell the server", w->id);
}

static void *
worker_main(void *arg)
{
	struct worker	*w = arg;

	log_debug("worker %u started", w->id);
	if (event_base_dispatch(w->base) == -1)
		log_warnx("worker %u: event loop failed", w->id);
	log_debug("worker %u stopped", w->id);
	worker_tell(w, WORKER_STOPPED);
	return (NULL);
}

int
worker_start(struct worker *w)
{
	int	error;

	if ((error = pthread_create(&w->thread, NULL, worker_main, w)) != 0) {
		errno = error;
		return (-1);
	}
	w->started = 1;
	return (0);
}

void
worker_join(struct worker *w)
{
	if (w->started)
		pthread_join(w->thread, NULL);
	w->started = 0;
}

/* After worker_join(): nothing runs on w any more. */
void
worker_free(struct worker *w)
{
	struct worker_msg	*m;

	genpool_free(w->env.pool);
	conn_set_free(w->set);
	while ((m = w->head) != NULL) {
		w->head = m->next;
		if (m->type == WORKER_CONN)
			close(m->fd);
		else if (m->scf != NULL)
			cfref_release(m->scf);
		free(m);
	}
	event_free(w->notify_ev);
	event_free(w->more_ev);
	event_base_free(w->base);
	close(w->notify[0]);
	close(w->notify[1]);
	pthread_mutex_destroy(&w->lock);
	cfref_release(w->scf);
	free(w->env.scratch);
	free(w);
}

/* Connections handed to w and not closed yet. */
unsigned int
worker_load(struct worker *w)
{
	return (atomic_load_explicit(&w->handed, memory_order_relaxed) -
	    conn_set_closed(w->set));
}

static void
worker_post(struct worker *w, enum worker_msg_type type, int fd, int proxy,
    struct cfref *scf)
{
	struct worker_msg	*m;
	int			 wake;
	ssize_t			 n;

	m = xcalloc(1, sizeof *m);
	m->type = type;
	m->fd = fd;
	m->proxy = proxy;
	m->scf = scf;
	pthread_mutex_lock(&w->lock);
	wake = (w->head == NULL);
	*w->tail = m;
	w->tail = &m->next;
	pthread_mutex_unlock(&w->lock);

	/* A byte is pending already if the queue was not empty. */
	if (wake) {
		do
			n = write(w->notify[1], "", 1);
		while (n == -1 && errno == EINTR);
		if (n == -1 && errno != EAGAIN)
			log_warn("worker %u: notify", w->id);
	}
}

/*
 * Hand over an accepted socket, which the worker admits or refuses;
 * proxy: its first bytes are a PROXY protocol header.
 */
void
worker_add(struct worker *w, int fd, int proxy)
{
	atomic_fetch_add_explicit(&w->handed, 1, memory_order_relaxed);
	worker_post(w, WORKER_CONN, fd, proxy, NULL);
}

/* Switch to scf, which holds a reference for this worker. */
void
worker_reload(struct worker *w, struct cfref *scf)
{
	worker_post(w, WORKER_RELOAD, -1, 0, scf);
}

void
worker_drain(struct worker *w)
{
	worker_post(w, WORKER_DRAIN, -1, 0, NULL);
}

void
worker_close(struct worker *w)
{
	worker_post(w, WORKER_CLOSE, -1, 0, NULL);
}

static void
worker_switch(struct worker *w, struct cfref *scf)
{
	struct cfref	*old = w->scf;

	w->scf = scf;
	w->env.cf = cfref_config(scf);
	conn_set_reconfigure(w->set);
	genpool_reconfigure(w->env.pool);
	cfref_release(old);
	log_debug("worker %u: serving with the new configuration", w->id);
	worker_tell(w, WORKER_SWITCHED);
}

static void
worker_handle(struct worker *w, struct worker_msg *m)
{
	unsigned int	n;

	switch (m->type) {
	case WORKER_CONN:
		conn_set_add(w->set, m->fd, m->proxy);
		break;
	case WORKER_RELOAD:
		worker_switch(w, m->scf);
		break;
	case WORKER_DRAIN:
		conn_set_drain(w->set);
		break;
	case WORKER_CLOSE:
		if ((n = conn_set_close_all(w->set)) != 0)
			log_warnx("worker %u: closed %u connection%s still "
			    "open at the shutdown timeout", w->id, n,
			    n == 1 ? "" : "s");
		break;
	}
}

/* Take up to WORKER_BATCH messages; the rest on the next turn. */
static void
worker_notify(evutil_socket_t fd, short events, void *arg)
{
	struct worker		*w = arg;
	struct worker_msg	*m;
	struct timeval		 now = { 0, 0 };
	char			 buf[64];
	int			 i;

	(void)fd;
	if (events & EV_READ) {
		while (read(w->notify[0], buf, sizeof buf) > 0)
			/* drain */;
	}
	for (i = 0; i < WORKER_BATCH; i++) {
		pthread_mutex_lock(&w->lock);
		if ((m = w->head) != NULL && (w->head = m->next) == NULL)
			w->tail = &w->head;
		pthread_mutex_unlock(&w->lock);
		if (m == NULL)
			return;
		worker_handle(w, m);
		free(m);
	}
	evtimer_add(w->more_ev, &now);
}
