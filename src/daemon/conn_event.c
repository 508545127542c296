/* SPDX-License-Identifier: ISC */
/*
 * conn_event.c -- what a connection is watched for: its socket readable
 * (the states that read, conn.c), its socket writable (replies the
 * socket did not take), and new input while another connection holds
 * the worker.  The first two are libevent's events, added to the loop
 * or deleted only when they change, so a request that changes nothing
 * costs no epoll_ctl.
 *
 * New input.  A slice may take a millisecond of solving (conn.c), and a
 * request that comes meanwhile on a connection waiting for requests
 * (PING beside a long search) would wait for the rest of it: the loop
 * polls only between slices.  So every socket of the set is also in an
 * epoll set of its own, edge-triggered: one epoll_wait with no timeout
 * says whether bytes came since the last look, and a slice looks
 * between its pieces (conn_event_waiting()) only while some other
 * connection is reading.  An edge is reported once: bytes of a busy
 * connection (its pipelined requests, which it reads in its turn) are
 * passed over and never seen again, and the bytes of one that reads
 * wake it through the loop as ever, once the slice has made way.
 */
#include <sys/types.h>
#include <sys/epoll.h>
#include <sys/queue.h>

#include <errno.h>
#include <string.h>

#include <event2/event.h>

#include "common/log.h"
#include "conn_int.h"

/* Edges taken in one look: the rest wait for the next. */
#define CONN_EVENT_LOOK		16

/* ev added or deleted if on differs from was (it is now on). */
static unsigned int
conn_arm(struct event *ev, unsigned int was, int on)
{
	if (on && !was)
		event_add(ev, NULL);
	else if (!on && was)
		event_del(ev);
	return (on != 0);
}

void
conn_reading(struct conn *c, int on)
{
	unsigned int	was = c->reading;

	c->reading = conn_arm(c->rev, was, on);
	c->set->reading = c->set->reading + c->reading - was;
}

void
conn_writing(struct conn *c, int on)
{
	c->writing = conn_arm(c->wev, c->writing, on);
}

void
conn_event_open(struct conn *c)
{
	struct epoll_event	ev;

	memset(&ev, 0, sizeof ev);
	ev.events = EPOLLIN | EPOLLET;
	ev.data.ptr = c;
	/* Without it (out of max_user_watches) c is only never looked at. */
	if (epoll_ctl(c->set->ep, EPOLL_CTL_ADD, c->fd, &ev) == 0)
		c->polled = 1;
	else
		log_debug("fd %d%s: epoll_ctl: %s", c->fd, CONN_PEER(c),
		    strerror(errno));
}

void
conn_event_close(struct conn *c)
{
	conn_reading(c, 0);
	conn_writing(c, 0);
	/* (close() would do it, but only if no other fd shared the file) */
	if (c->polled)
		(void)epoll_ctl(c->set->ep, EPOLL_CTL_DEL, c->fd, NULL);
	c->polled = 0;
}

int
conn_event_others(const struct conn *self)
{
	return (self->set->reading > self->reading);
}

int
conn_event_waiting(const struct conn_set *set, const struct conn *self)
{
	struct epoll_event	 ev[CONN_EVENT_LOOK];
	const struct conn	*c;
	int			 i, n;

	if (set->reading == 0)
		return (0);
	n = epoll_wait(set->ep, ev, CONN_EVENT_LOOK, 0);
	for (i = 0; i < n; i++) {
		c = ev[i].data.ptr;
		if (c != self && c->reading)
			return (1);
	}
	return (0);
}
