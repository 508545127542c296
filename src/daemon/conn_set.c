/*
 * conn_set.c -- the connections of one worker, and their run queue.
 *
 * The run queue serves one slice per turn of the event loop: its event
 * is a zero timer, and libevent runs timers only after it has polled
 * the sockets, so every socket that became readable meanwhile is served
 * between two slices (see conn.c for what a slice is).
 */
#include <sys/types.h>
#include <sys/queue.h>

#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include <event2/event.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "config.h"
#include "conn.h"
#include "conn_set.h"
#include "proto.h"
#include "stats.h"

/* The head of the run queue gets its slice; the next one next turn. */
static void
conn_set_runcb(evutil_socket_t fd, short events, void *arg)
{
	struct conn_set	*set = arg;
	struct conn	*c;
	struct timeval	 now = { 0, 0 };

	(void)fd;
	(void)events;
	if ((c = TAILQ_FIRST(&set->runq)) != NULL)
		conn_run(c);
	if (!TAILQ_EMPTY(&set->runq))
		evtimer_add(set->run_ev, &now);
}

struct conn_set *
conn_set_new(struct event_base *base, struct proto_env *env)
{
	struct conn_set	*set;

	set = xcalloc(1, sizeof *set);
	set->base = base;
	set->env = env;
	TAILQ_INIT(&set->conns);
	TAILQ_INIT(&set->runq);
	if ((set->run_ev = evtimer_new(base, conn_set_runcb, set)) == NULL)
		fatalx("%s: evtimer_new failed", __func__);
	set->linesize = env->cf->max_line + 1;
	set->line = xmalloc(set->linesize);
	atomic_init(&set->closed, 0);
	return (set);
}

void
conn_set_free(struct conn_set *set)
{
	conn_set_close_all(set);
	event_free(set->run_ev);
	free(set->line);
	free(set);
}

void
conn_set_add(struct conn_set *set, int fd, int proxy)
{
	if (set->draining) {
		close(fd);
		stats_conn_close(set->env->ss);
		atomic_fetch_add_explicit(&set->closed, 1,
		    memory_order_relaxed);
		return;
	}
	conn_new(set, fd, proxy);
}

void
conn_set_reconfigure(struct conn_set *set)
{
	struct conn	*c;

	if (set->linesize < set->env->cf->max_line + 1) {
		set->linesize = set->env->cf->max_line + 1;
		set->line = xreallocarray(set->line, 1, set->linesize);
	}
	for (c = TAILQ_FIRST(&set->conns); c != NULL; c = conn_next(c))
		conn_retime(c);
}

void
conn_set_drain(struct conn_set *set)
{
	struct conn	*c, *next;

	set->draining = 1;
	for (c = TAILQ_FIRST(&set->conns); c != NULL; c = next) {
		next = conn_next(c);
		conn_stop(c);
	}
	if (TAILQ_EMPTY(&set->conns))
		event_base_loopbreak(set->base);
}

unsigned int
conn_set_close_all(struct conn_set *set)
{
	struct conn	*c;
	unsigned int	 n = 0;

	set->draining = 1;
	while ((c = TAILQ_FIRST(&set->conns)) != NULL) {
		conn_free(c);
		n++;
	}
	event_base_loopbreak(set->base);
	return (n);
}

unsigned int
conn_set_closed(struct conn_set *set)
{
	return (atomic_load_explicit(&set->closed, memory_order_relaxed));
}
