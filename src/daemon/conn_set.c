/* SPDX-License-Identifier: ISC */
/*
 * conn_set.c -- the connections of one worker, and their run queue.
 *
 * The run queue serves one slice per turn of the event loop: its event
 * is a zero timer, and libevent runs timers only after it has polled
 * the sockets, so every socket that became readable meanwhile is served
 * between two slices (see conn.c for what a slice is).
 */
#include <sys/types.h>
#include <sys/epoll.h>
#include <sys/queue.h>
#include <sys/socket.h>

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "admit.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "config.h"
#include "conn_int.h"
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
	if ((set->ep = epoll_create1(EPOLL_CLOEXEC)) == -1)
		fatal("%s: epoll_create1", __func__);
	atomic_init(&set->closed, 0);
	return (set);
}

void
conn_set_free(struct conn_set *set)
{
	conn_set_close_all(set);
	event_free(set->run_ev);
	close(set->ep);
	free(set);
}

/*
 * Tell a client there is no room for it (peer: none for its address or
 * user) and close; never blocks.
 */
static void
conn_set_refuse(struct conn_set *set, int fd, int peer, int how)
{
	char	buf[1024], text[256];
	size_t	len;

	conn_busy_text(set->env->cf, peer, text, sizeof text);
	len = conn_admit_reply(how, "busy", text, buf, sizeof buf);
	if (send(fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT) == -1)
		log_debug("busy reply: %s", strerror(errno));
	stats_add(set->env->st, STAT_REJECTED_CONNECTIONS, 1);
	stats_add(set->env->st, STAT_ERR_BUSY, 1);
	/*
	 * Read what came already (a first request) so that close() sends
	 * no reset over the reply: one try, as this is the cheap path.
	 */
	(void)recv(fd, buf, sizeof buf, MSG_DONTWAIT);
	close(fd);
}

/*
 * Admit a connection the accepting thread handed over, or refuse it.
 * It is counted open here, by the thread that will see its end, and
 * only if its client is still there: counted in the accepting thread,
 * a flood of connections that close at once could fill max_connections
 * whenever the workers fell behind (6 ERR busy in 10,000 cycles with
 * never more than 2 open, on a loaded machine).
 */
void
conn_set_add(struct conn_set *set, int fd, int how)
{
	const struct config	*cf = set->env->cf;
	struct remote_addr	 who;
	char			 peek;

	if (set->draining ||
	    recv(fd, &peek, 1, MSG_PEEK | MSG_DONTWAIT) == 0) {
		close(fd);
		goto closed;
	}
	if (admit_open(set->env->admit, (unsigned int)cf->max_connections)
	    != 0) {
		conn_set_refuse(set, fd, 0, how);
		goto closed;
	}
	/* Behind a PROXY header the peer is the client it names: later. */
	remote_get(fd, &who);
	if (who.family == AF_UNIX && conn_admit_unix(set, fd, how) != 0) {
		admit_close(set->env->admit);
		goto closed;
	}
	if (!(how & CONN_SET_PROXY) && admit_peer(set->env->admit, &who,
	    (unsigned int)cf->max_connections_per_peer) != 0) {
		admit_close(set->env->admit);
		conn_set_refuse(set, fd, 1, how);
		goto closed;
	}
	conn_new(set, fd, how, &who);
	return;
closed:
	atomic_fetch_add_explicit(&set->closed, 1, memory_order_relaxed);
}

void
conn_set_reconfigure(struct conn_set *set)
{
	struct conn	*c;

	for (c = TAILQ_FIRST(&set->conns); c != NULL; c = TAILQ_NEXT(c, entry))
		conn_retime(c);
}

void
conn_set_drain(struct conn_set *set)
{
	struct conn	*c, *next;

	set->draining = 1;
	for (c = TAILQ_FIRST(&set->conns); c != NULL; c = next) {
		next = TAILQ_NEXT(c, entry);
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

int
conn_set_busy(const struct conn_set *set)
{
	return (!TAILQ_EMPTY(&set->runq) || set->draining);
}

int
conn_set_waiting(const struct conn_set *set)
{
	return (conn_event_waiting(set, NULL));
}
