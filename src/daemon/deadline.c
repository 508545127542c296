/* SPDX-License-Identifier: ISC */
/*
 * deadline.c -- which timeout of a connection comes first, and when.
 *
 * Timeouts are deadlines computed from when things happened -- the last
 * complete line, the first byte of an incomplete one, the last write
 * that made progress -- so a reload that changes a timeout recomputes
 * them from the same moments, and a request costs no timer operation.
 */
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "deadline.h"

uint64_t
deadline_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return ((uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000);
}

enum deadline_kind
deadline_next(const struct deadline_moments *m, enum deadline_phase phase,
    size_t output, const struct deadline_limits *lim, uint64_t *at)
{
	uint64_t	since;

	*at = 0;
	if (phase == DEADLINE_LINGERING) {
		*at = m->linger + DEADLINE_LINGER_MS;
		if (m->heard + DEADLINE_QUIET_MS < *at)
			*at = m->heard + DEADLINE_QUIET_MS;
		return (DEADLINE_LINGER);
	}
	if (phase == DEADLINE_HANDSHAKE) {
		*at = m->quiet + lim->handshake * 1000ULL;
		return (DEADLINE_TLS);
	}
	if (phase == DEADLINE_HEADER) {
		*at = m->quiet + DEADLINE_PROXY_MS;
		if (lim->idle != 0 && lim->idle * 1000ULL < DEADLINE_PROXY_MS)
			*at = m->quiet + lim->idle * 1000ULL;
		return (DEADLINE_PROXY);
	}
	if (output != 0) {
		if (lim->write == 0)
			return (DEADLINE_NONE);
		*at = m->write + (uint64_t)lim->write * 1000;
		return (DEADLINE_WRITE);
	}
	if (phase != DEADLINE_READING)
		return (DEADLINE_NONE);
	/* HTTP: an incomplete request has its own, whatever idle says. */
	if (m->partial != 0 && lim->request != 0) {
		*at = m->partial + (uint64_t)lim->request * 1000;
		return (DEADLINE_REQUEST);
	}
	if (lim->idle == 0)
		return (DEADLINE_NONE);
	/* An incomplete line has idle_timeout from its first byte. */
	since = m->partial != 0 ? m->partial : m->quiet;
	*at = since + (uint64_t)lim->idle * 1000;
	return (DEADLINE_IDLE);
}
