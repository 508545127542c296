/* SPDX-License-Identifier: ISC */
/*
 * conn_http.c -- a connection of an HTTP listener (doc/http.md): its
 * input read as HTTP/1.1 requests instead of lines, each request made
 * into request lines (proto_http.c) that the connection serves in its
 * slices as it serves any line (conn.c), and their replies made into
 * one response: a JSON object with Content-Length, or a batch's answers
 * in chunks as they are made.
 *
 * A request is served once it has come whole, head and body, in the
 * connection's input (frame.h holds it, bounded: a head by
 * HTTP_MAX_HEAD, a body by [http] max_body, refused with 413 as soon as
 * its head says it is larger).  Its lines go one by one, a step of a
 * slice each, and a response is queued on c->out once the request is
 * over; the next request of a pipeline is not looked at before.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <event2/buffer.h>

#include "auth.h"
#include "clients.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "config.h"
#include "conn_int.h"
#include "http.h"
#include "proto.h"
#include "stats.h"
#include "trust.h"
#include "www.h"

/* The extra header lines of a response of the API, and of the page. */
#define HTTP_API_HEADERS	"Cache-Control: no-store\r\n"
#define HTTP_FILE_HEADERS	"Cache-Control: no-cache\r\n" \
				"X-Content-Type-Options: nosniff\r\n"
#define HTTP_HTML_HEADERS	HTTP_FILE_HEADERS \
				"Content-Security-Policy: default-src 'self'\r\n"

#define HTTP_JSON		"application/json"

struct conn_http {
	struct proto_http	*req;		/* the request under way */
	struct evbuffer		*lines;		/* a line's reply */
	struct evbuffer		*body;		/* a reply's JSON */
	size_t			 need;		/* bytes of the next request,
						   head and body; 0: unknown */
	struct http_scan	 scan;		/* of its head, until then */
	struct remote_addr	 via;		/* whose X-Forwarded-For counts */
	unsigned int		 expect:1;	/* it waits for 100 Continue */
	unsigned int		 continued:1;	/* which was sent */
	unsigned int		 head:1;	/* HEAD: no body */
	unsigned int		 keepalive:1;	/* the response says so */
	unsigned int		 chunked:1;	/* a batch, HTTP/1.1 */
	unsigned int		 authed:1;	/* its bearer token is right */
	size_t			 items;		/* a batch's answers sent */
};

struct conn_http *
conn_http_new(void)
{
	struct conn_http	*h = xcalloc(1, sizeof *h);

	if ((h->lines = evbuffer_new()) == NULL ||
	    (h->body = evbuffer_new()) == NULL)
		fatalx("%s: out of memory", __func__);
	return (h);
}

void
conn_http_free(struct conn_http *h)
{
	if (h == NULL)
		return;
	proto_http_free(h->req);
	evbuffer_free(h->lines);
	evbuffer_free(h->body);
	free(h);
}

struct evbuffer *
conn_http_lines(struct conn *c)
{
	return (c->http->lines);
}

/* A response's status counted by its class. */
static void
conn_http_count(struct conn *c, int status)
{
	stats_add(c->set->env->st, status < 300 ? STAT_HTTP_2XX :
	    status < 500 ? STAT_HTTP_4XX : STAT_HTTP_5XX, 1);
}

/* A whole response of body (drained) to c->out. */
static void
conn_http_send(struct conn *c, int status, const char *type,
    struct evbuffer *body, const char *extra)
{
	struct conn_http	*h = c->http;

	http_head(c->out, status, type, evbuffer_get_length(body),
	    h->keepalive, extra);
	if (h->head)
		evbuffer_drain(body, evbuffer_get_length(body));
	else
		evbuffer_add_buffer(c->out, body);
	conn_http_count(c, status);
	if (!h->keepalive)
		c->quit = 1;
}

/* The headers of an error response, as its status asks, then extra. */
static void
conn_http_fail_headers(char *hdr, size_t size, int status, const char *extra)
{
	snprintf(hdr, size, "%s%s%s", HTTP_API_HEADERS,
	    status == 503 ? "Retry-After: 1\r\n" : status == 401 ?
	    "WWW-Authenticate: Bearer realm=\"sudokud\"\r\n" : "",
	    extra != NULL ? extra : "");
}

/* An error response: its code's status, JSON, headers as the code says. */
static void
conn_http_fail(struct conn *c, int status, const char *code,
    const char *text, const char *extra)
{
	struct conn_http	*h = c->http;
	char			 hdr[256];

	proto_http_error(h->body, code, text);
	conn_http_fail_headers(hdr, sizeof hdr, status, extra);
	conn_http_send(c, status, HTTP_JSON, h->body, hdr);
}

void
conn_http_refuse(struct conn *c, const char *code, const char *text)
{
	c->http->keepalive = 0;
	conn_http_fail(c, proto_http_status(code, strlen(code)), code, text,
	    NULL);
}

void
conn_http_refusal(struct evbuffer *out, const char *code, const char *text)
{
	struct evbuffer	*body = evbuffer_new();
	int		 status = proto_http_status(code, strlen(code));
	char		 hdr[256];

	if (body == NULL)
		fatalx("%s: out of memory", __func__);
	proto_http_error(body, code, text);
	conn_http_fail_headers(hdr, sizeof hdr, status, NULL);
	http_head(out, status, HTTP_JSON, evbuffer_get_length(body), 0, hdr);
	evbuffer_add_buffer(out, body);
	evbuffer_free(body);
}

/* Are the len bytes at p CR and LF alone (what may come between requests)? */
static int
conn_http_blank(const char *p, size_t len)
{
	size_t	i;

	for (i = 0; i < len && (p[i] == '\r' || p[i] == '\n'); i++)
		;
	return (i == len);
}

/*
 * Is a request waiting: the lines of one under way, or a whole one in
 * the input (or a head to refuse)?  Notes when an incomplete one began,
 * for [http] request_timeout, and sends 100 Continue to one whose head
 * asks for it before its body.
 */
int
conn_http_ready(struct conn *c)
{
	struct conn_http	*h = c->http;
	struct http_req		 req;
	const char		*p;
	size_t			 len;

	if (h->req != NULL)
		return (1);
	p = frame_data(&c->fr, &len);
	if (len == 0)
		return (0);
	/* The end of input: a request is served, or one cut short refused. */
	if (c->eof)
		return (!conn_http_blank(p, len));
	if (h->need == 0 && http_head_due(p, len, &h->scan)) {
		switch (http_parse_head(p, len, &req)) {
		case HTTP_BAD:
			h->need = 1;	/* to refuse: ready from now on */
			return (1);
		case HTTP_OK:
			if (req.chunked ||
			    req.length > conn_cf(c)->http_max_body) {
				h->need = 1;
				return (1);
			}
			h->need = req.len + (size_t)req.length;
			/* RFC 9110, 10.1.1: HTTP/1.0 knows no 1xx. */
			h->expect = req.expect && req.length > 0 &&
			    req.minor >= 1;
			break;
		default:
			break;
		}
	}
	if (h->need != 0 && len >= h->need)
		return (1);
	if (h->need != 0 && h->expect && !h->continued) {
		evbuffer_add(c->out, "HTTP/1.1 100 Continue\r\n\r\n", 25);
		h->continued = 1;
		conn_writing(c, 1);
	}
	if (c->m.partial == 0)
		c->m.partial = deadline_now();
	return (0);
}

/* Content-Type: application/json, with no charset but UTF-8. */
static int
conn_http_json_type(const struct http_value *v)
{
	static const char	*const forms[] = {
		"", ";charset=utf-8", ";charset=\"utf-8\""
	};
	char			 rest[64];
	size_t			 i, n = 0;

	if (v->p == NULL || v->len < 16 || strncasecmp(v->p,
	    "application/json", 16) != 0)
		return (0);
	for (i = 16; i < v->len && n < sizeof rest - 1; i++)
		if (v->p[i] != ' ' && v->p[i] != '\t')
			rest[n++] = v->p[i];
	if (i < v->len)
		return (0);
	rest[n] = '\0';
	for (i = 0; i < sizeof forms / sizeof forms[0]; i++)
		if (strcasecmp(rest, forms[i]) == 0)
			return (1);
	return (0);
}

/* Authorization: Bearer <secret>: 1 right, 0 none needed or sent, -1. */
static int
conn_http_bearer(struct conn *c, const struct http_value *v)
{
	const struct config	*cf = conn_cf(c);
	const char		*p;
	size_t			 len;

	if (cf->auth == NULL || v->p == NULL)
		return (0);
	if (v->len < 7 || strncasecmp(v->p, "Bearer ", 7) != 0)
		return (-1);
	for (p = v->p + 7, len = v->len - 7; len > 0 && *p == ' '; p++)
		len--;
	return (auth_check(cf->auth, p, len) ? 1 : -1);
}

/*
 * X-Forwarded-For from a trusted proxy, its lines read as one list from
 * the right: the client CLIENT LIST shows.
 */
static void
conn_http_forwarded(struct conn *c, const struct http_req *req)
{
	const struct config	*cf = conn_cf(c);
	struct conn_http	*h = c->http;
	struct remote_addr	 client, a;
	int			 i, r = -1, found = 0;

	if (req->nxff == 0 || cf->http_trusted.n == 0)
		return;
	if (h->via.family == 0)
		h->via = c->card.client.family != 0 ? c->card.client :
		    c->card.peer;
	if (!trust_has(&cf->http_trusted, &h->via))
		return;
	for (i = req->nxff - 1; i >= 0 && r != 0; i--) {
		if ((r = trust_xff(&cf->http_trusted, req->xff[i].p,
		    req->xff[i].len, &a)) == -1)
			break;
		client = a;
		found = 1;
	}
	if (found && memcmp(&client, &c->card.client, sizeof client) != 0)
		clients_client(c->set->env->clients, &c->card, &client);
}

/* A batch's response begins: its head, then its answers in chunks. */
static void
conn_http_open(struct conn *c, const struct http_req *req)
{
	struct conn_http	*h = c->http;
	const char		*type = HTTP_JSON;

	if (proto_http_batch(h->req) == PROTO_HTTP_LINES)
		type = req->accept == HTTP_ACCEPT_JSONL ? "application/jsonl" :
		    "application/x-ndjson";
	h->chunked = req->minor >= 1;
	if (!h->chunked)
		h->keepalive = 0;	/* HTTP/1.0: the end is the close */
	http_head(c->out, 200, type, h->chunked ? HTTP_CHUNKED : HTTP_CLOSES,
	    h->keepalive, HTTP_API_HEADERS);
	h->items = 0;
	conn_http_count(c, 200);
}

/* A request for /v2/<verb>: refused (0), or its lines to serve (1). */
static int
conn_http_api(struct conn *c, const struct http_req *req, const char *body)
{
	struct conn_http	*h = c->http;
	struct proto_http_in	 in;
	struct proto_http_err	 err;
	int			 bearer;

	if (req->method == HTTP_OTHER) {
		conn_http_fail(c, 405, "method", "a resource takes GET, HEAD "
		    "and POST", "Allow: GET, HEAD, POST\r\n");
		return (0);
	}
	if (req->method == HTTP_POST && req->length > 0 &&
	    !conn_http_json_type(&req->ctype)) {
		conn_http_fail(c, 415, "mediatype", "a body must be JSON: "
		    "Content-Type: application/json", NULL);
		return (0);
	}
	if (req->method == HTTP_POST && req->querylen > 0) {
		conn_http_fail(c, 400, "syntax", "a POST takes its fields in "
		    "its JSON body, not in a query string", NULL);
		return (0);
	}
	if ((bearer = conn_http_bearer(c, &req->auth)) == -1) {
		stats_add(c->set->env->st, STAT_AUTH_FAILURES, 1);
		conn_auth_failed(c);
		conn_http_fail(c, 401, "noauth", "wrong secret", NULL);
		return (0);
	}
	h->authed = bearer == 1;
	conn_watch_auth(c, h->authed);	/* CLIENT LIST: this request's */
	memset(&in, 0, sizeof in);
	in.post = req->method == HTTP_POST;
	in.verb = req->path + 4;
	in.verblen = req->pathlen - 4;
	in.query = req->query;
	in.querylen = req->querylen;
	in.body = body;
	in.bodylen = (size_t)req->length;
	in.authed = h->authed;
	in.lines = req->accept != HTTP_ACCEPT_JSON;
	if (proto_http_new(c->set->env, &in, &h->req, &err) != 0) {
		conn_http_fail(c, err.status, err.code, err.text, err.header);
		return (0);
	}
	if (proto_http_batch(h->req) != PROTO_HTTP_ONE)
		conn_http_open(c, req);
	return (1);
}

/* A request outside /v2/: a file of the page, or 404. */
static void
conn_http_page(struct conn *c, const struct http_req *req)
{
	const struct config	*cf = conn_cf(c);
	const struct www_file	*f = NULL;
	struct conn_http	*h = c->http;

	if (cf->http_page)
		f = www_find(cf->www, req->path, req->pathlen);
	if (f == NULL) {
		conn_http_fail(c, 404, "notfound", cf->http_page ? "no such "
		    "file; the API is under /v2/" : "no page here ([http] "
		    "page = 0); the API is under /v2/", NULL);
		return;
	}
	if (req->method != HTTP_GET && req->method != HTTP_HEAD) {
		conn_http_fail(c, 405, "method", "a file takes GET and HEAD",
		    "Allow: GET, HEAD\r\n");
		return;
	}
	/* A copy: a reload may free the file before the response is sent. */
	evbuffer_add(h->body, f->data, f->len);
	conn_http_send(c, 200, f->type, h->body, strncmp(f->type, "text/html",
	    9) == 0 ? HTTP_HTML_HEADERS : HTTP_FILE_HEADERS);
}

/* A head that cannot be served: its refusal, and the connection ends. */
static void
conn_http_bad(struct conn *c, const struct http_req *req, enum http_result r)
{
	c->http->keepalive = 0;
	if (r == HTTP_BAD)
		conn_http_fail(c, req->status, req->status == 413 ||
		    req->status == 431 ? "toolong" : "syntax", req->why, NULL);
	else if (r == HTTP_MORE)
		conn_http_fail(c, 400, "syntax", "the input ended in the middle "
		    "of a request", NULL);
	else if (req->chunked)
		conn_http_fail(c, 411, "syntax", "a body needs a "
		    "Content-Length (no chunked request bodies)", NULL);
	else
		conn_http_fail(c, 413, "toolong", "the body is larger than "
		    "max_body", NULL);
	frame_clear(&c->fr);
}

/*
 * The request at the start of the input, whole: answered (0) or made
 * ready to serve (1).
 */
static int
conn_http_take(struct conn *c)
{
	struct conn_http	*h = c->http;
	struct http_req		 req;
	enum http_result	 r;
	const char		*p;
	size_t			 len, total;

	p = frame_data(&c->fr, &len);
	if (len == 0 || ((r = http_parse_head(p, len, &req)) == HTTP_MORE &&
	    !c->eof))
		return (-1);
	c->m.partial = 0;
	h->head = req.method == HTTP_HEAD;
	h->keepalive = r == HTTP_OK && req.keepalive && !c->stop;
	total = req.len + (size_t)req.length;
	if (r == HTTP_OK && !req.chunked &&
	    req.length <= conn_cf(c)->http_max_body && len < total) {
		if (!c->eof)
			return (-1);	/* conn_http_ready() said it was whole */
		r = HTTP_MORE;		/* cut short by the end of input */
	}
	if (r != HTTP_OK || req.chunked ||
	    req.length > conn_cf(c)->http_max_body) {
		conn_http_bad(c, &req, r);
		return (0);
	}
	c->m.quiet = deadline_now();
	h->need = 0;
	memset(&h->scan, 0, sizeof h->scan);
	h->expect = h->continued = 0;
	conn_http_forwarded(c, &req);
	if (req.pathlen >= 4 && memcmp(req.path, "/v2/", 4) == 0)
		r = conn_http_api(c, &req, p + req.len) == 1 ? HTTP_OK :
		    HTTP_MORE;
	else {
		conn_http_page(c, &req);
		r = HTTP_MORE;
	}
	frame_drop(&c->fr, total);
	return (r == HTTP_OK);
}

enum proto_status
conn_http_request(struct conn *c, uint64_t max_ns, uint64_t *ns,
    struct proto_info *info, const char **line, size_t *len)
{
	struct conn_http	*h = c->http;

	*ns = 0;
	*line = NULL;
	*len = 0;
	info->verb = PROTO_NOVERB;
	info->instant = 1;
	if (h->req == NULL && conn_http_take(c) != 1)
		return (c->quit ? PROTO_CLOSE : PROTO_OK);
	*line = proto_http_next(h->req, len);
	info->authed = h->authed;
	return (proto_line(c->set->env, h->lines, *line, *len, max_ns, ns,
	    &c->job, info));
}

int
conn_http_first(struct conn *c)
{
	return (c->http->req == NULL || proto_http_first(c->http->req));
}

/* A chunk's size line: hex digits, CRLF (not printf: one an answer). */
static void
conn_http_chunk(struct evbuffer *out, size_t n)
{
	char	buf[2 * sizeof n + 2];
	size_t	i = sizeof buf;

	buf[--i] = '\n';
	buf[--i] = '\r';
	do {
		buf[--i] = "0123456789abcdef"[n & 0xf];
		n >>= 4;
	} while (n != 0);
	evbuffer_add(out, buf + i, sizeof buf - i);
}

/* One answer of a batch: a chunk, its array's brackets around them. */
static void
conn_http_item(struct conn *c, int last)
{
	struct conn_http	*h = c->http;
	int			 lines = proto_http_batch(h->req) ==
				    PROTO_HTTP_LINES;
	const char		*pre = "", *post = "";

	if (lines)
		post = "\n";
	else {
		pre = h->items == 0 ? "{\"results\":[" : ",";
		post = last ? "]}" : "";
	}
	if (h->chunked)
		conn_http_chunk(c->out, strlen(pre) + evbuffer_get_length(
		    h->body) + strlen(post));
	evbuffer_add(c->out, pre, strlen(pre));
	evbuffer_add_buffer(c->out, h->body);
	evbuffer_add(c->out, post, strlen(post));
	if (h->chunked)
		evbuffer_add(c->out, last ? "\r\n0\r\n\r\n" : "\r\n",
		    last ? 7 : 2);
	h->items++;
}

void
conn_http_answered(struct conn *c)
{
	struct conn_http	*h = c->http;
	int			 status, last = !proto_http_more(h->req);

	status = proto_http_reply(h->req, h->lines, h->body);
	if (proto_http_batch(h->req) == PROTO_HTTP_ONE)
		conn_http_send(c, status, HTTP_JSON, h->body,
		    HTTP_API_HEADERS);
	else
		conn_http_item(c, last);
	if (!last)
		return;
	proto_http_free(h->req);
	h->req = NULL;
	if (!h->keepalive)
		c->quit = 1;
}
