/* SPDX-License-Identifier: ISC */
/*
 * deadline.h -- when a connection must be looked at again: a pure
 * function of the moments things happened to it and of the timeouts.
 * conn.c keeps the moments and one timer, and asks this when either
 * changes; unit tests ask it without a socket or a clock.
 */
#ifndef DEADLINE_H
#define DEADLINE_H

#include <stdint.h>

/*
 * LINGER waits for the client to close, for at most DEADLINE_LINGER_MS,
 * and no more than DEADLINE_QUIET_MS after the last bytes that came: a
 * client that sends nothing after the end of the replies has nothing in
 * flight that a close could answer with a reset.
 */
#define DEADLINE_LINGER_MS	5000
#define DEADLINE_QUIET_MS	250

/*
 * A tcp_proxy connection's PROXY header must be whole within this long
 * of the connection (or within idle_timeout, if that is shorter): a load
 * balancer sends it in its first packet, so only a stray client or a
 * stalled one takes longer, and a connection slot is not held for it.
 */
#define DEADLINE_PROXY_MS	3000

/* Moments, in ms of CLOCK_MONOTONIC_COARSE (deadline_now()). */
struct deadline_moments {
	uint64_t	quiet;		/* the last line, or idle since */
	uint64_t	partial;	/* an incomplete line began; 0: none */
	uint64_t	write;		/* output began or went */
	uint64_t	linger;		/* LINGER began */
	uint64_t	heard;		/* bytes came in LINGER */
};

/* What the connection is doing, as far as timeouts go. */
enum deadline_phase {
	DEADLINE_HEADER,	/* waiting for a PROXY header */
	DEADLINE_HANDSHAKE,	/* a TLS handshake under way */
	DEADLINE_READING,	/* waiting for requests: idle_timeout */
	DEADLINE_SERVING,	/* has requests: no idle timeout */
	DEADLINE_LINGERING	/* waiting for the client to close */
};

/* Which timeout a deadline is. */
enum deadline_kind {
	DEADLINE_NONE,		/* none: no timer */
	DEADLINE_PROXY,		/* no PROXY header in time */
	DEADLINE_TLS,		/* no TLS handshake in time */
	DEADLINE_IDLE,		/* idle_timeout */
	DEADLINE_WRITE,		/* write_timeout: replies not read */
	DEADLINE_LINGER,	/* the client did not close */
	DEADLINE_REQUEST	/* [http] request_timeout */
};

/* Timeouts in seconds, 0 meaning never. */
struct deadline_limits {
	unsigned int	idle;
	unsigned int	write;
	unsigned int	handshake;	/* TLS: never 0 */
	unsigned int	request;	/* HTTP: an incomplete request's, else 0 */
};

/* Now, in the unit of the moments. */
uint64_t	deadline_now(void);

/*
 * The earliest moment, in *at, something must happen to a connection in
 * phase with these moments, output bytes unsent and these limits; the
 * kind of timeout it is, DEADLINE_NONE (and *at 0) if none.
 */
enum deadline_kind deadline_next(const struct deadline_moments *,
		    enum deadline_phase, size_t output,
		    const struct deadline_limits *, uint64_t *at);

#endif /* DEADLINE_H */
