/*
 * worker.c -- worker threads, each with its own event_base.
 *
 * As in memcached, the accepting thread never touches a worker's
 * libevent objects: it appends a message to the worker's locked queue
 * and, when the queue was empty, writes one byte to the worker's notify
 * pipe.  The worker drains the pipe, takes the whole queue and acts on
 * each message in order on its own thread.
 */
#include <sys/types.h>
#include <sys/queue.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "config.h"
#include "conn.h"
#include "common/log.h"
#include "proto.h"
#include "server.h"
#include "stats.h"
#include "worker.h"
#include "common/xmalloc.h"

enum worker_msg_type {
	WORKER_CONN,		/* serve fd */
	WORKER_RELOAD,		/* switch to scf */
	WORKER_DRAIN,		/* graceful stop */
	WORKER_CLOSE		/* stop now */
};

struct worker_msg {
	enum worker_msg_type	 type;
	int			 fd;
	struct server_cf	*scf;
	struct worker_msg	*next;
};

struct worker {
	unsigned int		 id;
	pthread_t		 thread;
	int			 started;
	struct event_base	*base;
	struct event		*notify_ev;
	int			 notify[2];	/* pipe: [0] read, [1] write */
	int			 done_fd;	/* one byte there when done */

	pthread_mutex_t		 lock;		/* guards head and tail */
	struct worker_msg	*head;
	struct worker_msg	**tail;

	_Atomic unsigned int	 load;		/* connections, any thread */

	/* Worker thread only from here on. */
	struct server_cf	*scf;
	struct proto_env	 env;
	char			*linebuf;	/* max_line + 1 bytes */
	struct conn_list	 conns;
	int			 draining;
	int			 done;
};

static void	worker_notify(evutil_socket_t, short, void *);

struct worker *
worker_new(unsigned int id, struct server_cf *scf, struct stats_server *ss,
    int done_fd)
{
	struct worker		*w;
	struct event_config	*ecf;

	w = xcalloc(1, sizeof *w);
	w->id = id;
	w->done_fd = done_fd;
	w->scf = scf;
	w->env.cf = server_cf_config(scf);
	w->env.st = stats_block(ss, id);
	w->env.ss = ss;
	w->linebuf = xmalloc(w->env.cf->max_line + 1);
	w->tail = &w->head;
	atomic_init(&w->load, 0);
	TAILQ_INIT(&w->conns);
	pthread_mutex_init(&w->lock, NULL);
	if (pipe2(w->notify, O_NONBLOCK | O_CLOEXEC) == -1)
		fatal("%s: pipe2", __func__);

	/* Only this worker's thread uses the base: no locking. */
	if ((ecf = event_config_new()) == NULL)
		fatalx("%s: event_config_new failed", __func__);
	event_config_set_flag(ecf, EVENT_BASE_FLAG_NOLOCK);
	w->base = event_base_new_with_config(ecf);
	event_config_free(ecf);
	if (w->base == NULL)
		fatalx("%s: event_base_new failed", __func__);
	w->notify_ev = event_new(w->base, w->notify[0], EV_READ | EV_PERSIST,
	    worker_notify, w);
	if (w->notify_ev == NULL || event_add(w->notify_ev, NULL) == -1)
		fatalx("%s: cannot watch the notify pipe", __func__);
	return (w);
}

static void *
worker_main(void *arg)
{
	struct worker	*w = arg;

	log_debug("worker %u started", w->id);
	if (event_base_dispatch(w->base) == -1)
		log_warnx("worker %u: event loop failed", w->id);
	/*
	 * Run what the break left queued: a bufferevent freed with a
	 * deferred callback pending is released only when it has run.
	 */
	event_base_loop(w->base, EVLOOP_NONBLOCK);
	event_base_loop(w->base, EVLOOP_NONBLOCK);
	log_debug("worker %u stopped", w->id);
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

	w->done = 1;
	conn_close_all(&w->conns);
	while ((m = w->head) != NULL) {
		w->head = m->next;
		if (m->type == WORKER_CONN)
			close(m->fd);
		else if (m->scf != NULL)
			server_cf_release(m->scf);
		free(m);
	}
	event_free(w->notify_ev);
	event_base_free(w->base);
	close(w->notify[0]);
	close(w->notify[1]);
	pthread_mutex_destroy(&w->lock);
	server_cf_release(w->scf);
	free(w->linebuf);
	free(w);
}

unsigned int
worker_load(struct worker *w)
{
	return (atomic_load_explicit(&w->load, memory_order_relaxed));
}

static void
worker_post(struct worker *w, enum worker_msg_type type, int fd,
    struct server_cf *scf)
{
	struct worker_msg	*m;
	int			 wake;
	ssize_t			 n;

	m = xcalloc(1, sizeof *m);
	m->type = type;
	m->fd = fd;
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

/* Hand over an accepted socket, counted in the server's connections. */
void
worker_add(struct worker *w, int fd)
{
	atomic_fetch_add_explicit(&w->load, 1, memory_order_relaxed);
	worker_post(w, WORKER_CONN, fd, NULL);
}

/* Switch to scf, which holds a reference for this worker. */
void
worker_reload(struct worker *w, struct server_cf *scf)
{
	worker_post(w, WORKER_RELOAD, -1, scf);
}

void
worker_drain(struct worker *w)
{
	worker_post(w, WORKER_DRAIN, -1, NULL);
}

void
worker_close(struct worker *w)
{
	worker_post(w, WORKER_CLOSE, -1, NULL);
}

/* Stop the loop and tell the accepting thread, once. */
static void
worker_finish(struct worker *w)
{
	ssize_t	n;

	if (w->done)
		return;
	w->done = 1;
	event_base_loopbreak(w->base);
	do
		n = write(w->done_fd, "", 1);
	while (n == -1 && errno == EINTR);
	if (n == -1)
		log_warn("worker %u: done", w->id);
}

static void
worker_switch(struct worker *w, struct server_cf *scf)
{
	struct server_cf	*old = w->scf;

	w->scf = scf;
	w->env.cf = server_cf_config(scf);
	free(w->linebuf);
	w->linebuf = xmalloc(w->env.cf->max_line + 1);
	conn_reconfigure_all(&w->conns);
	server_cf_release(old);
}

static void
worker_handle(struct worker *w, struct worker_msg *m)
{
	unsigned int	n;

	switch (m->type) {
	case WORKER_CONN:
		if (w->draining) {
			close(m->fd);
			worker_conn_gone(w);
		} else
			conn_accept(w, m->fd);
		break;
	case WORKER_RELOAD:
		worker_switch(w, m->scf);
		break;
	case WORKER_DRAIN:
		w->draining = 1;
		conn_drain_all(&w->conns);
		if (TAILQ_EMPTY(&w->conns))
			worker_finish(w);
		break;
	case WORKER_CLOSE:
		w->draining = 1;
		if ((n = conn_close_all(&w->conns)) != 0)
			log_warnx("worker %u: closed %u connections still "
			    "open at the shutdown timeout", w->id, n);
		worker_finish(w);
		break;
	}
}

static void
worker_notify(evutil_socket_t fd, short events, void *arg)
{
	struct worker		*w = arg;
	struct worker_msg	*m, *next;
	char			 buf[64];

	(void)events;
	while (read(fd, buf, sizeof buf) > 0)
		/* drain */;
	pthread_mutex_lock(&w->lock);
	m = w->head;
	w->head = NULL;
	w->tail = &w->head;
	pthread_mutex_unlock(&w->lock);
	for (; m != NULL; m = next) {
		next = m->next;
		worker_handle(w, m);
		free(m);
	}
}

struct event_base *
worker_base(struct worker *w)
{
	return (w->base);
}

struct proto_env *
worker_env(struct worker *w)
{
	return (&w->env);
}

struct conn_list *
worker_conns(struct worker *w)
{
	return (&w->conns);
}

char *
worker_linebuf(struct worker *w)
{
	return (w->linebuf);
}

/* A connection handed to this worker is closed. */
void
worker_conn_gone(struct worker *w)
{
	atomic_fetch_sub_explicit(&w->load, 1, memory_order_relaxed);
	stats_conn_close(w->env.ss);
	if (w->draining && TAILQ_EMPTY(&w->conns))
		worker_finish(w);
}
