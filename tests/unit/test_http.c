/* SPDX-License-Identifier: ISC */
/*
 * test_http.c -- http_parse(), the metrics listener's request heads,
 * against RFC 9112 (HTTP/1.1 message syntax) and RFC 9110 (semantics):
 * what Prometheus, curl and health checkers send, every prefix of it,
 * and each form the server must refuse, with its status.
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

#include "daemon/http.h"

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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_good),
		cmocka_unit_test(t_pipelined),
		cmocka_unit_test(t_bad),
		cmocka_unit_test(t_head),
	};

	return (cmocka_run_group_tests_name("http", tests, NULL, NULL));
}
