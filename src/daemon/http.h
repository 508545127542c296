/* SPDX-License-Identifier: ISC */
/*
 * http.h -- the little of HTTP/1.x the metrics listener speaks: request
 * heads parsed (RFC 9112), response heads written.
 *
 * Pure: it looks at bytes and says what they are; metrics.c reads them
 * from the socket and decides what to answer.  No request may have a
 * body (a scrape or a health check never sends one), so a request is its
 * head: the request line, the header fields, an empty line.
 */
#ifndef HTTP_H
#define HTTP_H

#include <stddef.h>

struct evbuffer;

/*
 * Longest request head accepted, in bytes: Prometheus sends about 300,
 * a browser 1-2 KiB; 8 KiB is what most servers allow (nginx, libevent)
 * and bounds what a client can make the server hold per connection.
 */
#define HTTP_MAX_HEAD	8192

enum http_result {
	HTTP_OK = 0,		/* a whole, valid request head: see req */
	HTTP_MORE,		/* valid so far: more bytes are needed */
	HTTP_BAD		/* not valid: req->status and req->why */
};

enum http_method {
	HTTP_GET = 0,
	HTTP_HEAD,
	HTTP_OTHER		/* any other method: 405 */
};

struct http_req {
	size_t		 len;		/* bytes of the head, its end included */
	enum http_method method;
	const char	*path;		/* into the bytes parsed; no query */
	size_t		 pathlen;
	int		 keepalive;	/* the connection may serve another */
	int		 status;	/* HTTP_BAD: 400, 413, 431, 505 */
	const char	*why;		/* HTTP_BAD: static text */
};

/*
 * Look at the first len bytes a connection has sent since its last
 * request.  A head longer than HTTP_MAX_HEAD is HTTP_BAD (431), however
 * valid its start.
 */
enum http_result http_parse(const char *p, size_t len, struct http_req *req);

/* The reason phrase of a status this server sends. */
const char	*http_reason(int status);

/*
 * A response head: the status line, Date, Content-Type, Content-Length,
 * Connection: keep-alive or close, any extra lines (each ending in CRLF,
 * or NULL), and the empty line.  keep-alive is said to HTTP/1.1 too, as
 * nginx does: an HTTP/1.0 client that asked for it closes without it
 * (RFC 2068, 19.7.1), and one rule needs no request's version.
 */
void		 http_head(struct evbuffer *out, int status, const char *type,
		    size_t length, int keepalive, const char *extra);

#endif /* HTTP_H */
