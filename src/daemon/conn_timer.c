/* SPDX-License-Identifier: ISC */
/*
 * conn_timer.c -- a connection's timeouts: one timer, armed at the
 * earliest deadline (deadline.c computes which comes first from the
 * moments conn.c records) and re-armed lazily: a later deadline leaves
 * it alone, and when it fires early it is armed again for what is due.
 * When one has passed, conn.c's callback closes the connection: this
 * file only says so (conn_timer_due()), and calls nothing of conn.c.
 */
#include <sys/types.h>
#include <sys/queue.h>
#include <sys/time.h>

#include <stdint.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "common/log.h"
#include "config.h"
#include "conn_int.h"
#include "stats.h"

/* The earliest moment something must happen to c, in *at; its kind. */
static enum deadline_kind
conn_deadline(const struct conn *c, uint64_t *at)
{
	const struct config	*cf = conn_cf(c);
	struct deadline_limits	 lim;
	enum deadline_phase	 ph = DEADLINE_SERVING;

	lim.idle = (unsigned int)cf->idle_timeout;
	lim.write = (unsigned int)cf->write_timeout;
	lim.handshake = (unsigned int)cf->tls_handshake_timeout;
	lim.request = c->http != NULL ?
	    (unsigned int)cf->http_request_timeout : 0;
	if (c->state == CONN_LINGER)
		ph = DEADLINE_LINGERING;
	else if (c->state == CONN_PROXY)
		ph = DEADLINE_HEADER;
	else if (c->state == CONN_HANDSHAKE)
		ph = DEADLINE_HANDSHAKE;
	else if (c->state == CONN_IDLE)
		ph = DEADLINE_READING;
	return (deadline_next(&c->m, ph, evbuffer_get_length(c->out), &lim,
	    at));
}

void
conn_timer(struct conn *c)
{
	struct timeval	tv;
	uint64_t	d, now;

	if (conn_deadline(c, &d) == DEADLINE_NONE ||
	    (c->armed != 0 && c->armed <= d))
		return;
	now = deadline_now();
	d = d > now ? d - now : 0;
	tv.tv_sec = (time_t)(d / 1000);
	tv.tv_usec = (suseconds_t)(d % 1000 * 1000);
	evtimer_add(c->tev, &tv);
	c->armed = now + d;
}

/* What a connection closed by each deadline is logged and counted as. */
static const struct {
	const char	*why;
	enum stat_id	 stat;		/* STAT__COUNT: none */
} conn_kicks[] = {
	[DEADLINE_PROXY] = { "no whole PROXY header in time, closing",
	    STAT_PROXY_ERRORS },
	[DEADLINE_TLS] = { "no TLS handshake within handshake_timeout, "
	    "closing", STAT_TLS_HANDSHAKE_ERRORS },
	[DEADLINE_IDLE] = { "idle, closing", STAT_IDLE_KICKS },
	[DEADLINE_WRITE] = { "closing a connection that does not read",
	    STAT_OUTPUT_KICKS },
	[DEADLINE_LINGER] = { "the client did not close", STAT__COUNT },
	[DEADLINE_REQUEST] = { "no whole HTTP request within "
	    "request_timeout, closing", STAT_IDLE_KICKS }
};

int
conn_timer_due(struct conn *c)
{
	enum deadline_kind	 k;
	uint64_t		 d;

	c->armed = 0;
	if ((k = conn_deadline(c, &d)) == DEADLINE_NONE)
		return (0);
	if (deadline_now() < d) {
		conn_timer(c);
		return (0);
	}
	log_debug("fd %d%s: %s", c->fd, CONN_PEER(c), conn_kicks[k].why);
	if (conn_kicks[k].stat != STAT__COUNT)
		stats_add(c->set->env->st, conn_kicks[k].stat, 1);
	return (1);
}

void
conn_retime(struct conn *c)
{
	evtimer_del(c->tev);
	c->armed = 0;
	conn_timer(c);
}
