/* SPDX-License-Identifier: ISC */
/*
 * test_http.c -- http_parse() and http_parse_head(), the request heads
 * of the metrics and HTTP listeners, against RFC 9112 (HTTP/1.1 message
 * syntax) and RFC 9110 (semantics): what Prometheus, curl, browsers and
 * health checkers send, every prefix of it, and each form the server
 * must refuse, with its status; and trust.c, [http] trusted_proxies and
 * the client an X-Forwarded-For names.
 */
#include <sys/types.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <event2/buffer.h>

#include <sys/socket.h>
#include <stdlib.h>

#include "daemon/http.h"
#include "daemon/remote.h"
#include "daemon/trust.h"

#define B(s)	s, sizeof s - 1

/* A whole head: every proper prefix needs more, then these facts. */
static void
good(const char *p, size_t len, enum http_method method, const char *path,
    int keepalive)
{
	struct http_req	req;
	size_t		i;

	for (i = 0; i < len; i++)
		if (http_parse(p, i, &req) != HTTP_MORE)
			fail_msg("prefix of %zu bytes of %.40s not MORE", i, p);
	assert_int_equal(http_parse(p, len, &req), HTTP_OK);
	assert_int_equal(req.len, len);
	assert_int_equal(req.method, method);
	assert_int_equal(req.pathlen, strlen(path));
	assert_memory_equal(req.path, path, req.pathlen);
	assert_int_equal(req.keepalive, keepalive);
}

static void
t_good(void **state)
{
	(void)state;
	good(B("GET /metrics HTTP/1.1\r\nHost: 10.0.0.1:9799\r\n"
	    "User-Agent: Prometheus/2.42.0\r\nAccept: text/plain;"
	    "version=0.0.4;q=0.5,*/*;q=0.1\r\nAccept-Encoding: gzip\r\n"
	    "X-Prometheus-Scrape-Timeout-Seconds: 10\r\n\r\n"), HTTP_GET,
	    "/metrics", 1);
	good(B("HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n"), HTTP_HEAD,
	    "/metrics", 1);
	good(B("GET /metrics?name[]=x HTTP/1.1\r\nHost: x\r\n\r\n"), HTTP_GET,
	    "/metrics", 1);
	good(B("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: Close\r\n\r\n"),
	    HTTP_GET, "/metrics", 0);
	good(B("GET /metrics HTTP/1.1\r\nhost: x\r\nConnection: te, close\r\n"
	    "\r\n"), HTTP_GET, "/metrics", 0);
	/* HTTP/1.0: no Host needed, closed unless kept alive. */
	good(B("GET /healthz HTTP/1.0\r\n\r\n"), HTTP_GET, "/healthz", 0);
	good(B("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"), HTTP_GET,
	    "/", 1);
	/* Bare LF; empty lines first; the absolute form; OWS kept out. */
	good(B("GET /metrics HTTP/1.1\nHost: x\n\n"), HTTP_GET, "/metrics", 1);
	good(B("\r\n\r\nGET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"), HTTP_GET,
	    "/metrics", 1);
	good(B("GET http://x:9799/metrics HTTP/1.1\r\nHost: x:9799\r\n\r\n"),
	    HTTP_GET, "/metrics", 1);
	good(B("GET http://x HTTP/1.1\r\nHost: x\r\n\r\n"), HTTP_GET, "/", 1);
	good(B("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n"), HTTP_OTHER, "*", 1);
	good(B("DELETE /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
	    "\r\n"), HTTP_OTHER, "/metrics", 1);
	good(B("get /metrics HTTP/1.1\r\nHost: x\r\n\r\n"), HTTP_OTHER,
	    "/metrics", 1);		/* methods are case-sensitive */
}

/* Only the head is read: what follows is the next request. */
static void
t_pipelined(void **state)
{
	static const char	two[] = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
	    "HEAD /b HTTP/1.1\r\nHost: x\r\n\r\n";
	struct http_req		req;

	(void)state;
	assert_int_equal(http_parse(B(two), &req), HTTP_OK);
	assert_int_equal(req.len, 28);
	assert_int_equal(http_parse(two + 28, sizeof two - 1 - 28, &req),
	    HTTP_OK);
	assert_int_equal(req.method, HTTP_HEAD);
	assert_int_equal(req.len, sizeof two - 1 - 28);
}

static void
bad(const char *p, size_t len, int status)
{
	struct http_req	req;

	if (http_parse(p, len, &req) != HTTP_BAD)
		fail_msg("accepted: %.60s", p);
	assert_int_equal(req.status, status);
	assert_non_null(req.why);
}

static void
bad_head(const char *p, size_t len, int status)
{
	struct http_req	req;

	if (http_parse_head(p, len, &req) != HTTP_BAD)
		fail_msg("accepted: %.60s", p);
	assert_int_equal(req.status, status);
}

static void
t_bad(void **state)
{
	char	big[HTTP_MAX_HEAD + 64];
	size_t	n;

	(void)state;
	bad(B("GET /metrics\r\n\r\n"), 400);
	bad(B("GET  /metrics HTTP/1.1\r\nHost: x\r\n\r\n"), 400);
	bad(B("GET /metrics HTTP/1.1 \r\nHost: x\r\n\r\n"), 400);
	bad(B("GET metrics HTTP/1.1\r\nHost: x\r\n\r\n"), 400);
	bad(B("G(T /metrics HTTP/1.1\r\nHost: x\r\n\r\n"), 400);
	bad(B("GET /m\x01 HTTP/1.1\r\nHost: x\r\n\r\n"), 400);
	bad(B("GET /metrics HTTP/1.x\r\nHost: x\r\n\r\n"), 400);
	bad(B("GET /metrics http/1.1\r\nHost: x\r\n\r\n"), 400);
	bad(B("GET /metrics HTTP/2.0\r\nHost: x\r\n\r\n"), 505);
	bad(B("GET /metrics HTTP/0.9\r\n\r\n"), 505);
	bad(B("GET /metrics HTTP/1.1\r\n\r\n"), 400);		/* no Host */
	bad(B("GET /metrics HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"), 400);
	bad(B("GET /metrics HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n"), 400);
	bad(B("GET /metrics HTTP/1.1\r\nHost : x\r\n\r\n"), 400);
	bad(B("GET /metrics HTTP/1.1\r\n: x\r\nHost: x\r\n\r\n"), 400);
	bad(B("GET /metrics HTTP/1.1\r\nHost x\r\n\r\n"), 400);
	bad(B("GET /metrics HTTP/1.1\r\nHost: x\0y\r\n\r\n"), 400);
	bad(B("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
	    "\r\nhello"), 413);
	bad(B("GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: "
	    "chunked\r\n\r\n"), 413);
	/* A bad line is refused as soon as it is whole, not at the end. */
	bad(B("GET /metrics HTTP/3\r\n"), 400);
	/* The limit: a head that does not end within 8 KiB. */
	n = (size_t)snprintf(big, sizeof big, "GET /metrics HTTP/1.1\r\n"
	    "Host: x\r\nX-Pad: ");
	memset(big + n, 'a', sizeof big - n);
	bad(big, HTTP_MAX_HEAD, 431);
	bad(big, sizeof big, 431);
	assert_int_equal(http_parse(big, HTTP_MAX_HEAD - 1, &(struct
	    http_req){ 0 }), HTTP_MORE);
	memset(big, '\n', sizeof big);		/* empty lines only */
	bad(big, sizeof big, 431);
}

/* What the head says of a request of the HTTP listener, and its body. */
static void
t_api(void **state)
{
	static const char	post[] = "POST /v2/solve?a=1&b=%20 HTTP/1.1\r\n"
	    "Host: x\r\nContent-Type:  application/json \r\n"
	    "Authorization: Bearer s3cret\r\nX-Forwarded-For: 1.2.3.4\r\n"
	    "X-Forwarded-For: 5.6.7.8, 9.9.9.9\r\nAccept: text/html, "
	    "application/x-ndjson;q=0.9\r\nExpect: 100-continue\r\n"
	    "Content-Length: 0042\r\n\r\n{\"puzzle\": ...";
	struct http_req		req;

	(void)state;
	assert_int_equal(http_parse_head(B(post), &req), HTTP_OK);
	assert_int_equal(req.method, HTTP_POST);
	assert_int_equal(req.pathlen, 9);
	assert_memory_equal(req.query, "a=1&b=%20", 9);
	assert_int_equal(req.querylen, 9);
	assert_int_equal(req.length, 42);
	assert_int_equal(req.len, strstr(post, "{") - post);
	assert_int_equal(req.expect, 1);
	assert_int_equal(req.accept, HTTP_ACCEPT_NDJSON);
	assert_int_equal(req.ctype.len, 16);
	assert_memory_equal(req.ctype.p, "application/json", 16);
	assert_memory_equal(req.auth.p, "Bearer s3cret", req.auth.len);
	/* Every X-Forwarded-For line, in order: one list (RFC 9110, 5.3). */
	assert_int_equal(req.nxff, 2);
	assert_memory_equal(req.xff[0].p, "1.2.3.4", req.xff[0].len);
	assert_memory_equal(req.xff[1].p, "5.6.7.8, 9.9.9.9", req.xff[1].len);
	assert_int_equal(req.minor, 1);
	/* The metrics listener refuses the same head for its body. */
	assert_int_equal(http_parse(B(post), &req), HTTP_BAD);
	assert_int_equal(req.status, 413);
	/* No field: none said. */
	assert_int_equal(http_parse_head(B("GET /v2/ping HTTP/1.0\r\n\r\n"),
	    &req), HTTP_OK);
	assert_null(req.query);
	assert_null(req.ctype.p);
	assert_null(req.auth.p);
	assert_int_equal(req.accept, HTTP_ACCEPT_JSON);
	assert_int_equal(req.length, 0);
	assert_int_equal(req.minor, 0);
	assert_int_equal(http_parse_head(B("GET / HTTP/1.1\r\nHost: x\r\n"
	    "Accept: application/jsonl\r\n\r\n"), &req), HTTP_OK);
	assert_int_equal(req.accept, HTTP_ACCEPT_JSONL);
	assert_int_equal(http_parse_head(B("POST / HTTP/1.1\r\nHost: x\r\n"
	    "Transfer-Encoding: chunked\r\n\r\n"), &req), HTTP_OK);
	assert_int_equal(req.chunked, 1);
}

/* A body's length that could be read two ways is refused (smuggling). */
static void
t_api_bad(void **state)
{
	(void)state;
	bad_head(B("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
	    "Transfer-Encoding: chunked\r\n\r\n"), 400);
	bad_head(B("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
	    "Content-Length: 5\r\n\r\n"), 400);
	bad_head(B("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 5\r\n"
	    "\r\n"), 400);
	bad_head(B("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n"
	    "\r\n"), 400);
	bad_head(B("POST / HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n\r\n"),
	    400);
	bad_head(B("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: "
	    "99999999999999999999\r\n\r\n"), 400);
	assert_string_equal(http_reason(415), "Unsupported Media Type");
	assert_string_equal(http_reason(422), "Unprocessable Content");
}

static void
t_head(void **state)
{
	struct evbuffer	*out = evbuffer_new();
	char		 buf[512];
	size_t		 n;

	(void)state;
	http_head(out, 404, "text/plain", 12, 0, "Allow: GET\r\n");
	n = evbuffer_remove(out, buf, sizeof buf - 1);
	buf[n] = '\0';
	assert_true(strncmp(buf, "HTTP/1.1 404 Not Found\r\nDate: ", 30) == 0);
	assert_non_null(strstr(buf, "\r\nContent-Type: text/plain\r\n"
	    "Content-Length: 12\r\nConnection: close\r\nAllow: GET\r\n\r\n"));
	assert_ptr_equal(strstr(buf, "\r\n\r\n") + 4, buf + n);
	/* Kept alive: said, for an HTTP/1.0 client that asked. */
	http_head(out, 200, "text/plain", 0, 1, NULL);
	n = evbuffer_remove(out, buf, sizeof buf - 1);
	buf[n] = '\0';
	assert_non_null(strstr(buf, "\r\nContent-Length: 0\r\n"
	    "Connection: keep-alive\r\n\r\n"));
	assert_null(strstr(buf, "close"));
	assert_string_equal(http_reason(431), "Request Header Fields Too Large");
	evbuffer_free(out);
}

static int
xff(const struct trust_list *l, const char *v, const char *want)
{
	struct remote_addr	a;
	char			text[REMOTE_TEXT];

	if (trust_xff(l, v, strlen(v), &a) < 0)
		return (want == NULL);
	remote_text(&a, text, sizeof text);
	if (want == NULL || strcmp(text, want) != 0)
		fail_msg("X-Forwarded-For %s: %s, expected %s", v, text,
		    want == NULL ? "none" : want);
	return (1);
}

/* trusted_proxies and the client an X-Forwarded-For names (trust.c). */
static void
t_trust(void **state)
{
	struct trust_list	 l = { NULL, NULL, 0 };
	struct remote_addr	 a = { 0 };
	char			*why = NULL;

	(void)state;
	assert_int_equal(trust_parse(&l, "10.0.0.0/8, 192.0.2.7 2001:db8::/32",
	    &why), 0);
	assert_int_equal(l.n, 3);
	a.family = AF_INET;
	memcpy(a.addr, "\x0a\x01\x02\x03", 4);
	assert_true(trust_has(&l, &a));
	memcpy(a.addr, "\x0b\x01\x02\x03", 4);
	assert_false(trust_has(&l, &a));
	a.family = AF_INET6;		/* ::ffff:10.1.2.3, IPv4-mapped */
	memcpy(a.addr, "\0\0\0\0\0\0\0\0\0\0\xff\xff\x0a\x01\x02\x03", 16);
	assert_true(trust_has(&l, &a));
	assert_true(xff(&l, "198.51.100.9, 10.1.2.3", "tcp:198.51.100.9:0"));
	assert_true(xff(&l, "192.0.2.1, 198.51.100.9, 192.0.2.7, 10.0.0.1",
	    "tcp:198.51.100.9:0"));
	assert_true(xff(&l, "10.0.0.2, 10.0.0.1", "tcp:10.0.0.2:0"));
	assert_true(xff(&l, "garbage, 10.0.0.1", "tcp:10.0.0.1:0"));
	assert_true(xff(&l, "[2001:db9::1], 10.0.0.1", "tcp:[2001:db9::1]:0"));
	/* Every address trusted: the leftmost, and the line before may go on. */
	assert_int_equal(trust_xff(&l, B("10.0.0.2, 10.0.0.1"), &a), 1);
	assert_int_equal(trust_xff(&l, B("198.51.100.9, 10.0.0.1"), &a), 0);
	assert_int_equal(trust_xff(&l, B("garbage, 10.0.0.1"), &a), 0);
	assert_true(xff(&l, "10.0.0.1,", NULL));
	assert_true(xff(&l, "", NULL));
	assert_int_equal(trust_parse(&l, "10.0.0.1/8", &why), -1);
	assert_non_null(strstr(why, "'10.0.0.1/8' is not an address or a "
	    "network"));
	free(why);
	assert_int_equal(l.n, 3);	/* the list before stays */
	assert_int_equal(trust_parse(&l, "", &why), 0);
	assert_int_equal(l.n, 0);
	trust_clear(&l);
}

/*
 * http_head_due() on p fed a byte at a time, one scan kept across the
 * bytes: the lengths at which it is due, in dues (at most n), and how
 * many there were.
 */
static size_t
dues(const char *p, size_t len, size_t *at, size_t n)
{
	struct http_scan	s;
	size_t			i, k = 0;

	memset(&s, 0, sizeof s);
	for (i = 1; i <= len; i++)
		if (http_head_due(p, i, &s) && k < n)
			at[k++] = i;
	return (k);
}

/*
 * A head sent a byte a write is parsed twice, not once a byte: at the
 * end of its request line (a line-protocol client is answered at once)
 * and at its end; CR and LF before the request line are no line; a head
 * that reaches 8 KiB without its end is due (for its 431).
 */
static void
t_due(void **state)
{
	static const char	h1[] = "GET /v2/ping HTTP/1.1\r\nHost: x\r\n"
				    "Accept: */*\r\n\r\n";
	static const char	h2[] = "\r\n\r\nPOST /v2/solve HTTP/1.1\n"
				    "Host: x\nContent-Length: 2\n\n{}";
	char			big[HTTP_MAX_HEAD];
	size_t			at[8];

	(void)state;
	assert_int_equal(dues(B(h1), at, 8), 2);
	assert_int_equal(at[0], strlen("GET /v2/ping HTTP/1.1\r\n"));
	assert_int_equal(at[1], sizeof h1 - 1);
	assert_int_equal(dues(B(h2), at, 8), 2);
	assert_int_equal(at[0], strlen("\r\n\r\nPOST /v2/solve HTTP/1.1\n"));
	assert_int_equal(at[1], sizeof h2 - 3);	/* the body is not looked at */
	assert_int_equal(dues(B("SOLVE 123\n"), at, 8), 1);
	assert_int_equal(at[0], 10);
	/* A line of CR alone is no end of the head: parsed, it is refused. */
	assert_int_equal(dues(B("GET / HTTP/1.1\r\nHost: x\r\n\r\r\n"), at,
	    8), 2);
	memcpy(big, "GET / HTTP/1.1\r\n", 16);
	memset(big + 16, 'a', sizeof big - 16);
	assert_int_equal(dues(big, sizeof big, at, 8), 2);
	assert_int_equal(at[1], HTTP_MAX_HEAD);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_good),
		cmocka_unit_test(t_pipelined),
		cmocka_unit_test(t_bad),
		cmocka_unit_test(t_head),
		cmocka_unit_test(t_due),
		cmocka_unit_test(t_api),
		cmocka_unit_test(t_api_bad),
		cmocka_unit_test(t_trust),
	};

	return (cmocka_run_group_tests_name("http", tests, NULL, NULL));
}
