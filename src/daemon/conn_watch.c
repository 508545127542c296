/* SPDX-License-Identifier: ISC */
/*
 * conn_watch.c -- what a connection tells those who watch the server:
 * the latency histograms (stats.h), the slow log (slowlog.h), its card
 * in CLIENT LIST (clients.h), and the log of a wrong secret.
 *
 * Every request served moves the card (requests, last activity); the
 * clock is read only when the histograms or the slow log want it, once
 * a request (the end of one is the start of the next within a slice),
 * or once after up to CONN_UNTIMED instant ones.
 * A request that becomes a job keeps its first bytes for the slow log,
 * as its line is gone when it is answered.
 */
#include <sys/types.h>
#include <sys/queue.h>
#include <sys/socket.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/buffer.h>

#include "clients.h"
#include "common/log.h"
#include "config.h"
#include "conn_int.h"
#include "conn_set.h"
#include "slowlog.h"
#include "stats.h"
#include "walltime.h"

/*
 * Most instant requests in a row (proto_info's instant: PING, VERSION,
 * HELLO, HELP, QUIT, a short line refused before any work) timed by the
 * clock reading before them instead of one of their own; the next one
 * reads the clock.  A PING costs the daemon a few hundred ns and a
 * clock read 25-50 ns on a KVM guest (doc/bench-daemon.md): a read each
 * would be most of what the latency histograms cost.  Such a request's
 * time is short by at most what the instant requests before it in the
 * row took (a few us for PINGs); anything else between two requests (a
 * request that works, an early write, a read) ends the row.
 */
#define CONN_UNTIMED		16

uint64_t
conn_watch_nsec(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec);
}

/*
 * Whether the request just served, of status st, goes without a clock
 * reading of its own (1): an instant one, unless CONN_UNTIMED went
 * before it since the last reading (conn_watch_row_end() ends a row).
 */
int
conn_watch_untimed(struct conn *c, enum proto_status st,
    const struct proto_info *info)
{
	if (st == PROTO_MORE || !info->instant ||
	    c->untimed >= CONN_UNTIMED) {
		c->untimed = 0;
		return (0);
	}
	c->untimed++;
	return (1);
}

/* Something took time between two requests: the next one reads. */
void
conn_watch_row_end(struct conn *c)
{
	c->untimed = CONN_UNTIMED;
}

int
conn_watch_timed(const struct conn *c)
{
	const struct config	*cf = conn_cf(c);

	return (cf->latency_histograms || cf->slowlog_slower_than >= 0);
}

void
conn_watch_open(struct conn *c, int how, const struct remote_addr *peer)
{
	static const char *const transports[] = {
		"tcp", "tcp_proxy", "tls", "tls_proxy",
		"http", "http_proxy", "https", "https_proxy"
	};
	struct clients_card	*k = &c->card;
	int			 proxy = (how & CONN_SET_PROXY) != 0;

	k->peer = *peer;
	k->transport = k->peer.family == AF_UNIX && !(how & CONN_SET_HTTP) ?
	    "unix" : transports[how & (CONN_SET_PROXY | CONN_SET_TLS |
	    CONN_SET_HTTP)];
	k->born = deadline_now();
	atomic_init(&k->active, k->born);
	atomic_init(&k->requests, 0);
	atomic_init(&k->pending, 0);
	atomic_init(&k->auth, conn_cf(c)->auth != NULL ? CLIENTS_AUTH_NO :
	    CLIENTS_AUTH_NONE);
	atomic_init(&k->state, proxy ? CLIENTS_PROXY : how & CONN_SET_TLS ?
	    CLIENTS_HANDSHAKE : CLIENTS_IDLE);
	clients_add(c->set->env->clients, k);
}

void
conn_watch_close(struct conn *c)
{
	clients_remove(c->set->env->clients, &c->card);
	free(c->jobline);
}

void
conn_watch_state(struct conn *c)
{
	static const enum clients_state	 states[] = {
		[CONN_PROXY] = CLIENTS_PROXY,
		[CONN_HANDSHAKE] = CLIENTS_HANDSHAKE, [CONN_IDLE] = CLIENTS_IDLE,
		[CONN_BUSY] = CLIENTS_BUSY, [CONN_BLOCKED] = CLIENTS_BLOCKED,
		[CONN_CLOSING] = CLIENTS_CLOSING, [CONN_LINGER] = CLIENTS_CLOSING
	};

	clients_state(&c->card, states[c->state]);
	clients_set(&c->card.pending, evbuffer_get_length(c->out));
}

void
conn_watch_job(struct conn *c, const char *line, size_t len)
{
	free(c->jobline);
	c->jobline = NULL;
	if (conn_cf(c)->slowlog_slower_than < 0)
		return;
	c->joblen = len < SLOWLOG_REQUEST + 1 ? len : SLOWLOG_REQUEST + 1;
	c->jobline = malloc(c->joblen);
	if (c->jobline != NULL)
		memcpy(c->jobline, line, c->joblen);
}

/* A slow one for the slow log, under the client's name. */
static void
conn_watch_slow(struct conn *c, const char *line, size_t len, uint64_t us,
    uint64_t guesses)
{
	const struct clients_card	*k = &c->card;
	char				 who[REMOTE_TEXT];

	remote_text(k->client.family != 0 ? &k->client : &k->peer, who,
	    sizeof who);
	slowlog_add(c->set->env->slow, (size_t)conn_cf(c)->slowlog_max_len,
	    line, len, us, guesses, who);
}

void
conn_watch_auth(struct conn *c, int authed)
{
	clients_auth(&c->card, conn_cf(c)->auth == NULL ? CLIENTS_AUTH_NONE :
	    authed ? CLIENTS_AUTH_YES : CLIENTS_AUTH_NO);
}

void
conn_watch_done(struct conn *c, uint64_t t, const char *line, size_t len,
    const struct proto_info *info)
{
	const struct config	*cf = conn_cf(c);
	uint64_t		 took = t > c->since ? t - c->since : 0;

	clients_set(&c->card.requests, atomic_load_explicit(
	    &c->card.requests, memory_order_relaxed) + 1);
	conn_watch_auth(c, c->authed);
	/* The slow log keeps no secret: AUTH's argument goes. */
	if (info->secret) {
		line = "AUTH ...";
		len = 8;
	}
	/* In ms, as deadline_now(): the same clock, read finer here. */
	clients_set(&c->card.active, t != 0 ? t / 1000000 : deadline_now());
	if (t == 0)
		return;		/* neither histograms nor slow log */
	if (cf->latency_histograms)
		stats_latency(c->set->env->st, info->verb, took);
	if (cf->slowlog_slower_than >= 0 && line != NULL &&
	    took / 1000 >= (uint64_t)cf->slowlog_slower_than)
		conn_watch_slow(c, line, len, took / 1000, info->guesses);
}

/*
 * An AUTH with a wrong secret, of the line protocol or a bearer token
 * of HTTP: the log is told once a minute at most (STATS counts each).
 */
void
conn_auth_failed(struct conn *c)
{
	if (wall_due(&c->set->auth_warned, 60))
		log_warnx("fd %d%s: AUTH with a wrong secret (such failures "
		    "are logged once a minute; see STATS auth_failures)",
		    c->fd, CONN_PEER(c));
}
