/* SPDX-License-Identifier: ISC */
/*
 * fuzz_http.c -- libFuzzer target for http_parse(), the metrics
 * listener's request heads: whatever the bytes, a result consistent with
 * itself and with every split of them.  A whole head is at most
 * HTTP_MAX_HEAD bytes, ends in an empty line, and names a path inside
 * the input (or "/", for an absolute target with none); one that needs
 * more is shorter than the limit; a refusal has a status and a reason.
 * Every prefix, as a connection that has sent only that much, gets an
 * answer the whole agrees with: needs more before a whole head ends,
 * the same head from its end on, never a whole head where the whole is
 * refused.
 */
#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/http.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
check(const char *p, size_t size, enum http_result r,
    const struct http_req *req)
{
	switch (r) {
	case HTTP_OK:
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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char		*p = (const char *)data;
	struct http_req		 req, part;
	enum http_result	 r, q;
	size_t			 k, n;

	r = http_parse(p, size, &req);
	check(p, size, r, &req);
	/* Splits: bounded, as the server never holds more than the limit. */
	n = size < HTTP_MAX_HEAD + 8 ? size : HTTP_MAX_HEAD + 8;
	for (k = 0; k < n; k++) {
		q = http_parse(p, k, &part);
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
	return (0);
}
