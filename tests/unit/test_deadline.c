/* SPDX-License-Identifier: ISC */
/*
 * test_deadline.c -- deadline_next(): which timeout of a connection
 * comes first and when, against sudokud.conf(5): idle_timeout from the
 * last complete line (or from the first byte of an incomplete one) while
 * waiting for requests, write_timeout from the last write that made
 * progress while replies are unsent, 0 meaning never; LINGER's bounds,
 * 5 s in all and 250 ms after the last bytes; and a PROXY header's 3 s
 * from the connection's start, or idle_timeout if shorter, never off.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "daemon/deadline.h"

/* Moments far from 0, so that "0 means none" cannot pass by chance. */
static const struct deadline_moments m = {
	.quiet = 100000, .partial = 0, .write = 200000, .linger = 300000,
	.heard = 300000
};
static const struct deadline_limits lim = { .idle = 300, .write = 30 };

static void
test_idle(void **state)
{
	struct deadline_moments	 p = m;
	uint64_t		 at;

	(void)state;
	assert_int_equal(deadline_next(&m, DEADLINE_READING, 0, &lim, &at),
	    DEADLINE_IDLE);
	assert_int_equal(at, 100000 + 300 * 1000);
	/* an incomplete line: from its first byte, not the last line */
	p.partial = 150000;
	assert_int_equal(deadline_next(&p, DEADLINE_READING, 0, &lim, &at),
	    DEADLINE_IDLE);
	assert_int_equal(at, 150000 + 300 * 1000);
}

/* HTTP: an incomplete request has request_timeout, whatever idle says. */
static void
test_request(void **state)
{
	struct deadline_moments	 p = m;
	struct deadline_limits	 l = lim;
	uint64_t		 at;

	(void)state;
	l.request = 30;
	/* no request begun: idle_timeout, as for a line */
	assert_int_equal(deadline_next(&m, DEADLINE_READING, 0, &l, &at),
	    DEADLINE_IDLE);
	assert_int_equal(at, 100000 + 300 * 1000);
	p.partial = 150000;
	assert_int_equal(deadline_next(&p, DEADLINE_READING, 0, &l, &at),
	    DEADLINE_REQUEST);
	assert_int_equal(at, 150000 + 30 * 1000);
	l.idle = 0;		/* idle_timeout 0 does not hold it open */
	assert_int_equal(deadline_next(&p, DEADLINE_READING, 0, &l, &at),
	    DEADLINE_REQUEST);
	assert_int_equal(at, 150000 + 30 * 1000);
	/* served, or replies unsent: not its business */
	assert_int_equal(deadline_next(&p, DEADLINE_SERVING, 0, &l, &at),
	    DEADLINE_NONE);
	assert_int_equal(deadline_next(&p, DEADLINE_READING, 1, &l, &at),
	    DEADLINE_WRITE);
}

static void
test_proxy(void **state)
{
	struct deadline_limits	 l = lim;
	uint64_t		 at;

	(void)state;
	assert_int_equal(deadline_next(&m, DEADLINE_HEADER, 0, &l, &at),
	    DEADLINE_PROXY);
	assert_int_equal(at, 100000 + 3000);
	l.idle = 0;		/* idle_timeout 0 does not hold it open */
	assert_int_equal(deadline_next(&m, DEADLINE_HEADER, 0, &l, &at),
	    DEADLINE_PROXY);
	assert_int_equal(at, 100000 + 3000);
	l.idle = 1;		/* a shorter idle_timeout applies */
	assert_int_equal(deadline_next(&m, DEADLINE_HEADER, 0, &l, &at),
	    DEADLINE_PROXY);
	assert_int_equal(at, 100000 + 1000);
}

static void
test_never(void **state)
{
	struct deadline_limits	 off = { 0, 0, 0, 0 };
	uint64_t		 at = 1;

	(void)state;
	assert_int_equal(deadline_next(&m, DEADLINE_READING, 0, &off, &at),
	    DEADLINE_NONE);
	assert_int_equal(at, 0);
	at = 1;
	assert_int_equal(deadline_next(&m, DEADLINE_READING, 10, &off, &at),
	    DEADLINE_NONE);
	assert_int_equal(at, 0);
	/* requests being served are not idle, however long they take */
	at = 1;
	assert_int_equal(deadline_next(&m, DEADLINE_SERVING, 0, &lim, &at),
	    DEADLINE_NONE);
	assert_int_equal(at, 0);
}

static void
test_write(void **state)
{
	uint64_t	at;

	(void)state;
	/* replies unsent: write_timeout, whatever the phase */
	assert_int_equal(deadline_next(&m, DEADLINE_READING, 1, &lim, &at),
	    DEADLINE_WRITE);
	assert_int_equal(at, 200000 + 30 * 1000);
	assert_int_equal(deadline_next(&m, DEADLINE_SERVING, 1, &lim, &at),
	    DEADLINE_WRITE);
	assert_int_equal(at, 200000 + 30 * 1000);
}

static void
test_linger(void **state)
{
	struct deadline_moments	 p = m;
	uint64_t		 at;

	(void)state;
	/* quiet client: 250 ms after the last bytes */
	assert_int_equal(deadline_next(&m, DEADLINE_LINGERING, 0, &lim, &at),
	    DEADLINE_LINGER);
	assert_int_equal(at, 300000 + DEADLINE_QUIET_MS);
	assert_int_equal(DEADLINE_QUIET_MS, 250);
	/* a client that keeps sending: 5 s in all, timeouts off or not */
	p.heard = 300000 + 4900;
	assert_int_equal(deadline_next(&p, DEADLINE_LINGERING, 0, &lim, &at),
	    DEADLINE_LINGER);
	assert_int_equal(at, 300000 + 5000);
	assert_int_equal(DEADLINE_LINGER_MS, 5000);
}

static uint64_t
mono_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000);
}

/*
 * Milliseconds of the monotonic clock (COARSE lags it by a tick): each
 * reading lies between the monotonic clock read just before it (less a
 * tick; 100 ms is generous) and just after it, however long the process
 * waited in between.
 */
static void
test_now(void **state)
{
	uint64_t	 t0, a, t1, b, t2;

	(void)state;
	t0 = mono_ms();
	a = deadline_now();
	t1 = mono_ms();
	b = deadline_now();
	t2 = mono_ms();
	assert_true(a <= b);
	assert_true(a <= t1 && a + 100 >= t0);
	assert_true(b <= t2 && b + 100 >= t1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idle),
		cmocka_unit_test(test_request),
		cmocka_unit_test(test_proxy),
		cmocka_unit_test(test_never),
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_linger),
		cmocka_unit_test(test_now),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
