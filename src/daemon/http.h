/* SPDX-License-Identifier: ISC */
/*
 * http.h -- the little of HTTP/1.x sudokud speaks: request heads parsed
 * (RFC 9112), response heads written.
 *
 * Pure: it looks at bytes and says what they are; metrics.c and
 * conn_http.c read them from the socket and decide what to answer.  A
 * request is its head (the request line, the header fields, an empty
 * line) and, for the HTTP listener only, a body of Content-Length bytes
 * after it: http_parse_head() says how long; http_parse(), the metrics
 * listener's, refuses any body (a scrape or a health check never sends
 * one).
 */
#ifndef HTTP_H
#define HTTP_H

#include <stddef.h>
#include <stdint.h>

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
	HTTP_POST,
	HTTP_OTHER		/* any other method: 405 */
};

/* What Accept asks of a batch's reply (doc/http.md): JSON by default. */
enum http_accept {
	HTTP_ACCEPT_JSON = 0,
	HTTP_ACCEPT_NDJSON,	/* application/x-ndjson */
	HTTP_ACCEPT_JSONL	/* application/jsonl */
};

/*
 * X-Forwarded-For field lines kept, the last ones: a chain of proxies
 * that each add a line of their own (HAProxy's option forwardfor) is
 * read as the one list the lines make (RFC 9110, 5.3).
 */
#define HTTP_XFF_LINES	8

/* A header field's value, into the bytes parsed, blanks trimmed. */
struct http_value {
	const char	*p;		/* NULL: the field was not sent */
	size_t		 len;
};

struct http_req {
	size_t		 len;		/* bytes of the head, its end included */
	enum http_method method;
	const char	*path;		/* into the bytes parsed; no query */
	size_t		 pathlen;
	const char	*query;		/* after '?', or NULL */
	size_t		 querylen;
	int		 minor;		/* HTTP/1.x */
	int		 keepalive;	/* the connection may serve another */
	int		 status;	/* HTTP_BAD: 400, 413, 431, 505 */
	const char	*why;		/* HTTP_BAD: static text */

	/* What http_parse_head() reads for the HTTP listener. */
	uint64_t	 length;	/* Content-Length; 0 without one */
	int		 chunked;	/* a Transfer-Encoding was sent */
	int		 expect;	/* Expect: 100-continue */
	enum http_accept accept;
	struct http_value ctype;	/* Content-Type */
	struct http_value auth;		/* Authorization */
	struct http_value xff[HTTP_XFF_LINES];	/* X-Forwarded-For lines, */
	int		 nxff;		/* the last ones, in order */
};

/*
 * Look at the first len bytes a connection has sent since its last
 * request: its head, and what the head says of the body after it.  A
 * head longer than HTTP_MAX_HEAD is HTTP_BAD (431), however valid its
 * start; so are a Content-Length that is not one number and one with a
 * Transfer-Encoding (400).  A body is the caller's to read, or to refuse.
 */
enum http_result http_parse_head(const char *p, size_t len,
		    struct http_req *req);

/*
 * How far a head has come, between the reads of its bytes: for
 * http_head_due(), zeroed before the first byte of each request.
 */
struct http_scan {
	size_t		 pos;		/* bytes looked at */
	int		 lines;		/* lines ended, the request line's on */
	int		 text;		/* the line under way has more than CR */
};

/*
 * Is the head at p (len bytes so far) worth parsing now: its request
 * line has just ended, or the whole head has (an empty line), or it is
 * as long as a head may be?  Each byte is looked at once, however the
 * head is cut into reads: http_parse_head() at every read would cost a
 * head sent a byte at a time its length squared.
 */
int		 http_head_due(const char *p, size_t len, struct http_scan *s);

/* The same, with a body refused (413): the metrics listener's. */
enum http_result http_parse(const char *p, size_t len, struct http_req *req);

/* The reason phrase of a status this server sends. */
const char	*http_reason(int status);

/*
 * http_head()'s length for a body of chunks (HTTP/1.1 only), and for one
 * that ends when the connection closes (HTTP/1.0's; not kept alive).
 */
#define HTTP_CHUNKED	((size_t)-1)
#define HTTP_CLOSES	((size_t)-2)

/*
 * A response head: the status line, Date, Content-Type, Content-Length
 * (Transfer-Encoding: chunked for HTTP_CHUNKED),
 * Connection: keep-alive or close, any extra lines (each ending in CRLF,
 * or NULL), and the empty line.  keep-alive is said to HTTP/1.1 too, as
 * nginx does: an HTTP/1.0 client that asked for it closes without it
 * (RFC 2068, 19.7.1), and one rule needs no request's version.
 */
void		 http_head(struct evbuffer *out, int status, const char *type,
		    size_t length, int keepalive, const char *extra);

#endif /* HTTP_H */
