/* SPDX-License-Identifier: ISC */
/*
 * test_observe.c -- the figures an operator reads, exactly: the latency
 * histograms (latency.c: which bucket a time falls in, the sum of the
 * threads', STATS' p50 and p99, and every line of the Prometheus text
 * for known counts) and the slow log (slowlog.c: a request's bytes as
 * doc/protocol.md says, printable ASCII kept and every other byte '?',
 * one line whatever the request held; the cut at 128 bytes; newest
 * first).  The expected text is written out here from the documents
 * (doc/protocol.md, sudokud(8): buckets of 10 us to 10 s in steps of 1,
 * 2.5 and 5 a decade, le= in seconds), never taken from the code.
 */
#include <sys/types.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <event2/buffer.h>

#include "daemon/latency.h"
#include "daemon/slowlog.h"
#include "test_fail.h"

#define US	1000ULL			/* ns */
#define MS	1000000ULL
#define SEC	1000000000ULL

/* The bounds, in us, as the documents list them, and their le= text. */
static const struct {
	uint64_t	 us;
	const char	*le;
} bounds[] = {
	{ 10, "1e-05" }, { 25, "2.5e-05" }, { 50, "5e-05" },
	{ 100, "0.0001" }, { 250, "0.00025" }, { 500, "0.0005" },
	{ 1000, "0.001" }, { 2500, "0.0025" }, { 5000, "0.005" },
	{ 10000, "0.01" }, { 25000, "0.025" }, { 50000, "0.05" },
	{ 100000, "0.1" }, { 250000, "0.25" }, { 500000, "0.5" },
	{ 1000000, "1" }, { 2500000, "2.5" }, { 5000000, "5" },
	{ 10000000, "10" }
};
#define NBOUNDS	(sizeof bounds / sizeof bounds[0])

/* The text of an evbuffer, NUL-terminated, in buf; its length. */
static size_t
text_of(struct evbuffer *b, char *buf, size_t size)
{
	size_t	n = evbuffer_get_length(b);

	assert_true(n < size);
	evbuffer_remove(b, buf, n);
	buf[n] = '\0';
	return (n);
}

/* The one histogram of h, summed as STATS and /metrics sum them. */
static void
merged(const struct latency_hist *h, struct latency_sum *s)
{
	const struct latency_hist	*one[1] = { h };

	latency_merge(one, 1, s);
}

/* Each bound is the last time of its bucket: le= means <=. */
static void
test_latency_buckets(void **state)
{
	struct latency_hist	h;
	struct latency_sum	s;
	size_t			i;

	(void)state;
	assert_int_equal(NBOUNDS, LATENCY_BOUNDS);
	for (i = 0; i < NBOUNDS; i++) {
		memset(&h, 0, sizeof h);
		latency_add(&h, bounds[i].us * US);
		latency_add(&h, bounds[i].us * US + 1);
		merged(&h, &s);
		if (s.n[i] != 1 || s.n[i + 1] != 1)
			test_fail("%llu us and 1 ns more: buckets %zu and "
			    "%zu hold %llu and %llu, not 1 and 1",
			    (unsigned long long)bounds[i].us, i, i + 1,
			    (unsigned long long)s.n[i],
			    (unsigned long long)s.n[i + 1]);
		assert_int_equal(s.count, 2);
		assert_int_equal(s.sum_ns, 2 * bounds[i].us * US + 1);
	}
	memset(&h, 0, sizeof h);
	latency_add(&h, 0);
	latency_add(&h, 3600 * SEC);
	merged(&h, &s);
	assert_int_equal(s.n[0], 1);
	assert_int_equal(s.n[LATENCY_BUCKETS - 1], 1);
	assert_int_equal(s.count, 2);
}

/* Threads' histograms add up, the overflow bucket too. */
static void
test_latency_merge(void **state)
{
	struct latency_hist		a, b, c;
	const struct latency_hist	*h[3] = { &a, &b, &c };
	struct latency_sum		s;

	(void)state;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	memset(&c, 0, sizeof c);
	latency_add(&a, 5 * US);
	latency_add(&a, 12 * SEC);
	latency_add(&b, 12 * SEC);
	latency_add(&b, 30 * US);
	latency_add(&c, 11 * SEC);
	latency_merge(h, 3, &s);
	assert_int_equal(s.count, 5);
	assert_int_equal(s.n[0], 1);
	assert_int_equal(s.n[2], 1);		/* 30 us: le=5e-05 */
	assert_int_equal(s.n[LATENCY_BUCKETS - 1], 3);
	assert_int_equal(s.sum_ns, 35 * SEC + 35 * US);
}

/* STATS' p50 and p99: the bound of the bucket the rank falls in. */
static void
test_latency_quantile(void **state)
{
	struct latency_hist	h;
	struct latency_sum	s;
	int			i;

	(void)state;
	memset(&h, 0, sizeof h);
	merged(&h, &s);
	assert_int_equal(latency_quantile_us(&s, 0.5), 0);	/* none */
	latency_add(&h, 3 * SEC);
	merged(&h, &s);
	assert_int_equal(latency_quantile_us(&s, 0.5), 5000000);
	assert_int_equal(latency_quantile_us(&s, 0.99), 5000000);
	/* 50 at 5 us, 49 at 200 us, 1 at 2 s */
	memset(&h, 0, sizeof h);
	for (i = 0; i < 50; i++)
		latency_add(&h, 5 * US);
	for (i = 0; i < 49; i++)
		latency_add(&h, 200 * US);
	latency_add(&h, 2 * SEC);
	merged(&h, &s);
	assert_int_equal(latency_quantile_us(&s, 0.5), 250);
	assert_int_equal(latency_quantile_us(&s, 0.49), 10);
	assert_int_equal(latency_quantile_us(&s, 0.99), 2500000);
	/* past the last bound: the last bound */
	memset(&h, 0, sizeof h);
	latency_add(&h, 20 * SEC);
	merged(&h, &s);
	assert_int_equal(latency_quantile_us(&s, 0.5), 10000000);
}

/*
 * Known counts in, every line out: 3 requests of 5 us, 1 of exactly
 * 10 us, 2 of 40 us, 1 of 3 s and 1 of 12 s.
 */
static void
test_latency_prometheus(void **state)
{
	static const uint64_t	cum[NBOUNDS] = {
		4, 4, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7
	};
	struct latency_hist	h;
	struct latency_sum	s;
	struct evbuffer		*b;
	char			want[4096], got[4096], *p = want;
	const char		*label;
	size_t			i;
	int			k;

	(void)state;
	memset(&h, 0, sizeof h);
	for (k = 0; k < 3; k++)
		latency_add(&h, 5 * US);
	latency_add(&h, 10 * US);
	latency_add(&h, 40 * US);
	latency_add(&h, 40 * US);
	latency_add(&h, 3 * SEC);
	latency_add(&h, 12 * SEC);
	merged(&h, &s);
	assert_non_null(b = evbuffer_new());
	for (k = 0; k < 2; k++) {
		label = k == 0 ? "verb=\"solve\"," : "";
		p = want;
		for (i = 0; i < NBOUNDS; i++)
			p += sprintf(p, "t_bucket{%sle=\"%s\"} %llu\n", label,
			    bounds[i].le, (unsigned long long)cum[i]);
		p += sprintf(p, "t_bucket{%sle=\"+Inf\"} 8\n", label);
		sprintf(p, k == 0 ? "t_sum{verb=\"solve\"} 15.000105\n"
		    "t_count{verb=\"solve\"} 8\n" : "t_sum 15.000105\n"
		    "t_count 8\n");
		latency_prometheus(b, "t", k == 0 ? "verb=\"solve\"" : "", &s);
		text_of(b, got, sizeof got);
		if (strcmp(got, want) != 0)
			test_fail("got:\n%s\nwant:\n%s", got, want);
	}
	evbuffer_free(b);
}

/* The request= of the one entry of sl, and the whole listing. */
static void
slow_request(struct slowlog *sl, size_t max, char *listing, size_t size,
    const char **request)
{
	struct evbuffer	*b;
	uint64_t	 at = UINT64_MAX, left = 1;
	char		*r;

	assert_non_null(b = evbuffer_new());
	assert_int_equal(slowlog_get(sl, max, &at, &left, b, 65536), 1);
	text_of(b, listing, size);
	evbuffer_free(b);
	assert_non_null(r = strstr(listing, " request="));
	*request = r + 9;
}

/*
 * Every byte that is not printable ASCII, '?': control bytes, TAB, CR,
 * ESC, DEL, NUL, UTF-8; the entry one line, its fields before it.
 */
static void
test_slowlog_escape(void **state)
{
	static const char	line[] = "PING \x01\t\r\x1b[31mred\x1b[0m "
	    "\x7f caf\xc3\xa9 \x00z \xff!";
	static const char	want[] = "PING ????[31mred?[0m ? caf?? ?z ?!\n"
	    "END\n";
	struct slowlog		*sl;
	char			 listing[1024];
	const char		*req, *p;

	(void)state;
	assert_non_null(sl = slowlog_new());
	slowlog_add(sl, 8, line, sizeof line - 1, 123456, 789,
	    "unix:pid=1:uid=2");
	slow_request(sl, 8, listing, sizeof listing, &req);
	if (strcmp(req, want) != 0)
		test_fail("request=%s, want %s", req, want);
	for (p = listing; *p != '\0'; p++)
		if ((*p < 0x20 && *p != '\n') || *p >= 0x7f)
			test_fail("byte 0x%02x in the listing",
			    (unsigned char)*p);
	assert_int_equal(strncmp(listing, "id=0 time=", 10), 0);
	assert_non_null(strstr(listing, " us=123456 guesses=789 "
	    "client=unix:pid=1:uid=2 request="));
	slowlog_free(sl);
}

/* Cut after 128 bytes, then "...": 128 kept whole, 129 cut. */
static void
test_slowlog_cut(void **state)
{
	struct slowlog	*sl;
	char		 line[200], want[200], listing[1024];
	const char	*req;
	size_t		 n;

	(void)state;
	memset(line, 'a', sizeof line);
	for (n = 127; n <= 130; n++) {
		assert_non_null(sl = slowlog_new());
		slowlog_add(sl, 4, line, n, 1, 0, "c");
		slow_request(sl, 4, listing, sizeof listing, &req);
		memset(want, 'a', n < 128 ? n : 128);
		strcpy(want + (n < 128 ? n : 128), n > 128 ? "...\nEND\n" :
		    "\nEND\n");
		if (strcmp(req, want) != 0)
			test_fail("a line of %zu bytes: request=%s", n, req);
		slowlog_free(sl);
	}
}

/* The newest max entries, newest first; ids go on. */
static void
test_slowlog_order(void **state)
{
	struct slowlog	*sl;
	struct evbuffer	*b;
	uint64_t	 at = UINT64_MAX, left = 10;
	char		 line[8], listing[2048];
	const char	*p;
	int		 i, id;

	(void)state;
	assert_non_null(sl = slowlog_new());
	assert_non_null(b = evbuffer_new());
	for (i = 0; i < 5; i++) {
		snprintf(line, sizeof line, "R%d", i);
		slowlog_add(sl, 3, line, strlen(line), 1, 0, "c");
	}
	assert_int_equal(slowlog_len(sl, 3), 3);
	assert_int_equal(slowlog_get(sl, 3, &at, &left, b, 65536), 1);
	text_of(b, listing, sizeof listing);
	p = listing;
	for (id = 4; id >= 2; id--) {
		snprintf(line, sizeof line, "id=%d ", id);
		if (strncmp(p, line, strlen(line)) != 0)
			test_fail("entry %d: %s", 4 - id, p);
		snprintf(line, sizeof line, "=R%d\n", id);
		p = strchr(p, '\n') + 1;
		if (strncmp(p - strlen(line), line, strlen(line)) != 0)
			test_fail("entry id=%d is not R%d: %s", id, id, listing);
	}
	assert_string_equal(p, "END\n");
	evbuffer_free(b);
	slowlog_free(sl);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_latency_buckets),
		cmocka_unit_test(test_latency_merge),
		cmocka_unit_test(test_latency_quantile),
		cmocka_unit_test(test_latency_prometheus),
		cmocka_unit_test(test_slowlog_escape),
		cmocka_unit_test(test_slowlog_cut),
		cmocka_unit_test(test_slowlog_order),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
