/* SPDX-License-Identifier: ISC */
/*
 * conn_event.c -- what a connection is watched for: its socket readable
 * (the states that read, conn.c), its socket writable (replies the
 * socket did not take).  Each is added to the event loop or deleted
 * only when it changes, so a request that changes nothing costs no
 * epoll_ctl.
 */
#include <sys/types.h>
#include <sys/queue.h>

#include <event2/event.h>

#include "conn_int.h"

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
	c->reading = conn_arm(c->rev, c->reading, on);
}

void
conn_writing(struct conn *c, int on)
{
	c->writing = conn_arm(c->wev, c->writing, on);
}
