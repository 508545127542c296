/* SPDX-License-Identifier: ISC */
/*
 * fuzz_http.c -- libFuzzer target for http_parse_head() and
 * http_parse(), the request heads of the HTTP and metrics listeners:
 * whatever the bytes, a result consistent with itself and with every
 * split of them.  What a head says of a request (its query, Content-Type,
 * Authorization, X-Forwarded-For) lies inside it; a Content-Length is at
 * most 2^62 and never comes with a Transfer-Encoding; http_parse() is
 * http_parse_head() with a body refused (413).  A whole head is at most
 * HTTP_MAX_HEAD bytes, ends in an empty line, and names a path inside
 * the input (or "/", for an absolute target with none); one that needs
 * more is shorter than the limit; a refusal has a status and a reason.
 * Every prefix, as a connection that has sent only that much, gets an
 * answer the whole agrees with: needs more before a whole head ends,
 * the same head from its end on, never a whole head where the whole is
 * refused; and http_head_due(), which says when a head sent a byte at a
 * time is worth parsing, finds a whole head where it ends.
 */
#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/http.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* A value the head holds: inside its bytes, or not sent. */
static int
inside(const char *p, size_t len, const char *v, size_t vlen)
{
	return (v == NULL || (v >= p && v + vlen <= p + len));
}

static void
check(const char *p, size_t size, enum http_result r,
    const struct http_req *req)
{
	int	i;

	switch (r) {
	case HTTP_OK:
		if (!inside(p, req->len, req->query, req->querylen) ||
		    !inside(p, req->len, req->ctype.p, req->ctype.len) ||
		    !inside(p, req->len, req->auth.p, req->auth.len) ||
		    req->nxff < 0 || req->nxff > HTTP_XFF_LINES ||
		    req->length > (UINT64_C(1) << 62) ||
		    (req->chunked && req->length != 0) ||
		    req->minor < 0 || req->minor > 9)
			abort();
		for (i = 0; i < req->nxff; i++)
			if (req->xff[i].p == NULL ||
			    !inside(p, req->len, req->xff[i].p, req->xff[i].len))
				abort();
		if (req->len == 0 || req->len > size ||
		    req->len > HTTP_MAX_HEAD || p[req->len - 1] != '\n' ||
		    ((req->path < p || req->path + req->pathlen > p +
		    req->len) && strcmp(req->path, "/") != 0) ||
		    req->method > HTTP_OTHER)
			abort();
		break;
	case HTTP_MORE:
		if (size >= HTTP_MAX_HEAD)
			abort();
		break;
	case HTTP_BAD:
		if (req->why == NULL || req->status < 400 ||
		    req->status > 599)
			abort();
		break;
	}
}

/*
 * The HTTP listener parses a head a byte at a time only where
 * http_head_due() says: a whole head is still found where it ends, not
 * a byte later (the server would wait for bytes that may never come),
 * and never where the whole is refused.
 */
static void
due(const char *p, size_t n, enum http_result r, const struct http_req *req)
{
	struct http_scan	 scan;
	struct http_req		 part;
	enum http_result	 seen = HTTP_MORE;
	size_t			 k, at = 0;

	memset(&scan, 0, sizeof scan);
	for (k = 1; k <= n && seen == HTTP_MORE; k++)
		if (http_head_due(p, k, &scan) &&
		    (seen = http_parse_head(p, k, &part)) != HTTP_MORE)
			at = k;
	if (r == HTTP_OK && (seen != HTTP_OK || at != req->len))
		abort();
	if ((r == HTTP_BAD && seen == HTTP_OK) ||
	    (r == HTTP_MORE && seen != HTTP_MORE))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char		*p = (const char *)data;
	struct http_req		 req, part;
	enum http_result	 r, q;
	size_t			 k, n;

	r = http_parse_head(p, size, &req);
	check(p, size, r, &req);
	/* The metrics listener's: the same, with any body refused. */
	q = http_parse(p, size, &part);
	if (q != (r == HTTP_OK && (req.length != 0 || req.chunked) ?
	    HTTP_BAD : r) || (q == HTTP_BAD && r == HTTP_OK &&
	    part.status != 413))
		abort();
	/* Splits: bounded, as the server never holds more than the limit. */
	n = size < HTTP_MAX_HEAD + 8 ? size : HTTP_MAX_HEAD + 8;
	for (k = 0; k < n; k++) {
		q = http_parse_head(p, k, &part);
		check(p, k, q, &part);
		if (r == HTTP_OK && k < req.len && q != HTTP_MORE)
			abort();
		if (r == HTTP_OK && k >= req.len && (q != HTTP_OK ||
		    part.len != req.len || part.method != req.method ||
		    part.keepalive != req.keepalive))
			abort();
		if (r == HTTP_BAD && q == HTTP_OK)
			abort();
		if (r == HTTP_MORE && q != HTTP_MORE)
			abort();
	}
	due(p, n, r, &req);
	return (0);
}
