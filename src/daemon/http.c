/* SPDX-License-Identifier: ISC */
/*
 * http.c -- HTTP/1.x request heads in, response heads out (see http.h).
 *
 * Strict where a lax reading could desynchronise a connection kept
 * alive (RFC 9112, 6.3 and 11.2): a Content-Length that is not one
 * decimal number, or one sent with a Transfer-Encoding, is 400 (a
 * request smuggled past a proxy that reads the other); obsolete line
 * folding, a blank before a field's colon and control bytes are 400;
 * HTTP/1.1 needs exactly one Host.  Lenient where the RFC allows it: bare LF
 * ends a line, empty lines before the request line are skipped, the
 * absolute form of a target is read for its path.
 */
#include <sys/types.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <event2/buffer.h>

#include "http.h"
#include "walltime.h"

/* Longest method token read: longer ones are not methods anyone sends. */
#define HTTP_METHOD_MAX	16

/* The next line from *pos: 0 and the line without CR LF, or -1. */
static int
http_line(const char *p, size_t len, size_t *pos, const char **line,
    size_t *linelen)
{
	const char	*lf;
	size_t		 n;

	if (*pos >= len ||
	    (lf = memchr(p + *pos, '\n', len - *pos)) == NULL)
		return (-1);
	*line = p + *pos;
	n = (size_t)(lf - *line);
	*pos += n + 1;
	if (n > 0 && (*line)[n - 1] == '\r')
		n--;
	*linelen = n;
	return (0);
}

/* A token character of RFC 9110, 5.6.2. */
static int
http_tchar(unsigned char ch)
{
	return ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	    (ch >= '0' && ch <= '9') ||
	    (ch != '\0' && strchr("!#$%&'*+-.^_`|~", ch) != NULL));
}

static enum http_result
http_bad(struct http_req *req, int status, const char *why)
{
	req->status = status;
	req->why = why;
	return (HTTP_BAD);
}

/* The path of a request target: origin, absolute or asterisk form. */
static enum http_result
http_target(const char *t, size_t n, struct http_req *req)
{
	const char	*q, *slash;
	size_t		 skip;

	if (n == 1 && t[0] == '*') {
		req->path = t;
		req->pathlen = 1;
		return (HTTP_OK);
	}
	if (n > 7 && strncasecmp(t, "http://", 7) == 0)
		skip = 7;
	else if (n > 8 && strncasecmp(t, "https://", 8) == 0)
		skip = 8;
	else if (n > 0 && t[0] == '/')
		skip = 0;
	else
		return (http_bad(req, 400, "malformed request target"));
	if (skip > 0) {
		/* The authority is the Host; the path starts after it. */
		slash = memchr(t + skip, '/', n - skip);
		req->path = slash != NULL ? slash : "/";
		req->pathlen = slash != NULL ? n - (size_t)(slash - t) : 1;
	} else {
		req->path = t;
		req->pathlen = n;
	}
	if ((q = memchr(req->path, '?', req->pathlen)) != NULL) {
		req->query = q + 1;
		req->querylen = req->pathlen - (size_t)(q + 1 - req->path);
		req->pathlen = (size_t)(q - req->path);
	}
	return (HTTP_OK);
}

/* "METHOD SP target SP HTTP/1.x"; *minor gets x. */
static enum http_result
http_request_line(const char *s, size_t n, struct http_req *req, int *minor)
{
	const char	*sp1, *sp2, *v;
	size_t		 i, mlen;

	if ((sp1 = memchr(s, ' ', n)) == NULL ||
	    (sp2 = memchr(sp1 + 1, ' ', n - (size_t)(sp1 + 1 - s))) == NULL)
		return (http_bad(req, 400, "malformed request line"));
	mlen = (size_t)(sp1 - s);
	for (i = 0; i < mlen; i++)
		if (!http_tchar((unsigned char)s[i]))
			break;
	if (mlen == 0 || i < mlen || mlen > HTTP_METHOD_MAX)
		return (http_bad(req, 400, "malformed method"));
	for (v = sp1 + 1; v < sp2; v++)
		if ((unsigned char)*v <= 0x20 || (unsigned char)*v >= 0x7f)
			return (http_bad(req, 400, "malformed request target"));
	v = sp2 + 1;
	if ((size_t)(s + n - v) != 8 || memcmp(v, "HTTP/", 5) != 0 ||
	    v[5] < '0' || v[5] > '9' || v[6] != '.' || v[7] < '0' ||
	    v[7] > '9')
		return (http_bad(req, 400, "malformed HTTP version"));
	if (v[5] != '1')
		return (http_bad(req, 505, "only HTTP/1.0 and HTTP/1.1 are "
		    "served"));
	*minor = v[7] - '0';
	if (mlen == 3 && memcmp(s, "GET", 3) == 0)
		req->method = HTTP_GET;
	else if (mlen == 4 && memcmp(s, "HEAD", 4) == 0)
		req->method = HTTP_HEAD;
	else if (mlen == 4 && memcmp(s, "POST", 4) == 0)
		req->method = HTTP_POST;
	else
		req->method = HTTP_OTHER;
	return (http_target(sp1 + 1, (size_t)(sp2 - sp1 - 1), req));
}

/* Does the comma-separated list v hold the token tok, in any case? */
static int
http_has_token(const char *v, size_t n, const char *tok)
{
	size_t	i = 0, start, end, tlen = strlen(tok);

	while (i < n) {
		while (i < n && (v[i] == ' ' || v[i] == '\t' || v[i] == ','))
			i++;
		start = i;
		while (i < n && v[i] != ',')
			i++;
		end = i;
		while (end > start && (v[end - 1] == ' ' || v[end - 1] == '\t'))
			end--;
		if (end - start == tlen && strncasecmp(v + start, tok,
		    tlen) == 0)
			return (1);
	}
	return (0);
}

/* What the header fields say, counted as they come. */
struct http_fields {
	int	hosts;
	int	close;
	int	keepalive;
	int	lengths;	/* Content-Length fields */
};

/* Is the media type at the start of v (before any ';') type? */
static int
http_media(const char *v, size_t n, const char *type)
{
	size_t	tlen = strlen(type);

	return (n >= tlen && strncasecmp(v, type, tlen) == 0 &&
	    (n == tlen || v[tlen] == ';' || v[tlen] == ' ' ||
	    v[tlen] == '\t' || v[tlen] == ','));
}

/* Accept: the first of the media types a batch may be sent as. */
static enum http_accept
http_accept(const char *v, size_t n)
{
	size_t	i = 0;

	while (i < n) {
		while (i < n && (v[i] == ' ' || v[i] == '\t' || v[i] == ','))
			i++;
		if (http_media(v + i, n - i, "application/x-ndjson"))
			return (HTTP_ACCEPT_NDJSON);
		if (http_media(v + i, n - i, "application/jsonl"))
			return (HTTP_ACCEPT_JSONL);
		while (i < n && v[i] != ',')
			i++;
	}
	return (HTTP_ACCEPT_JSON);
}

/* Content-Length: decimal digits alone, at most 2^62. */
static enum http_result
http_length(const char *v, size_t n, struct http_req *req,
    struct http_fields *f)
{
	uint64_t	len = 0;
	size_t		i;

	if (n == 0 || ++f->lengths > 1)
		return (http_bad(req, 400, "malformed Content-Length"));
	for (i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9' || len > (UINT64_C(1) << 62) / 10)
			return (http_bad(req, 400, "malformed Content-Length"));
		len = len * 10 + (uint64_t)(v[i] - '0');
	}
	req->length = len;
	return (HTTP_OK);
}

/* Is the field name at s, nlen bytes, name (in any case)? */
static int
http_named(const char *s, size_t nlen, const char *name)
{
	return (nlen == strlen(name) && strncasecmp(s, name, nlen) == 0);
}

/* The fields a request's handling reads; others are skipped. */
static enum http_result
http_value(const char *s, size_t nlen, const char *v, size_t n,
    struct http_req *req, struct http_fields *f)
{
	struct http_value	val = { v, n };

	if (http_named(s, nlen, "Host"))
		f->hosts++;
	else if (http_named(s, nlen, "Connection")) {
		f->close |= http_has_token(v, n, "close");
		f->keepalive |= http_has_token(v, n, "keep-alive");
	} else if (http_named(s, nlen, "Content-Length"))
		return (http_length(v, n, req, f));
	else if (http_named(s, nlen, "Transfer-Encoding"))
		req->chunked = 1;
	else if (http_named(s, nlen, "Expect"))
		req->expect |= http_has_token(v, n, "100-continue");
	else if (http_named(s, nlen, "Accept") && req->accept ==
	    HTTP_ACCEPT_JSON)
		req->accept = http_accept(v, n);
	else if (http_named(s, nlen, "Content-Type"))
		req->ctype = val;
	else if (http_named(s, nlen, "Authorization"))
		req->auth = val;
	else if (http_named(s, nlen, "X-Forwarded-For")) {
		if (req->nxff == HTTP_XFF_LINES) {
			memmove(req->xff, req->xff + 1, sizeof req->xff -
			    sizeof req->xff[0]);
			req->nxff--;
		}
		req->xff[req->nxff++] = val;
	}
	return (HTTP_OK);
}

static enum http_result
http_field(const char *s, size_t n, struct http_req *req,
    struct http_fields *f)
{
	const char	*colon, *v, *end = s + n;
	size_t		 i, nlen;

	if (n > 0 && (s[0] == ' ' || s[0] == '\t'))
		return (http_bad(req, 400, "obsolete line folding"));
	if ((colon = memchr(s, ':', n)) == NULL || colon == s)
		return (http_bad(req, 400, "malformed header field"));
	nlen = (size_t)(colon - s);
	for (i = 0; i < nlen; i++)
		if (!http_tchar((unsigned char)s[i]))
			return (http_bad(req, 400, "malformed header field"));
	for (v = colon + 1; v < end; v++)
		if (((unsigned char)*v < 0x20 && *v != '\t') || *v == 0x7f)
			return (http_bad(req, 400, "control byte in a header "
			    "field"));
	for (v = colon + 1; v < end && (*v == ' ' || *v == '\t'); v++)
		;
	while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	return (http_value(s, nlen, v, (size_t)(end - v), req, f));
}

enum http_result
http_parse_head(const char *p, size_t len, struct http_req *req)
{
	struct http_fields	 f;
	const char		*line;
	size_t			 pos = 0, n;
	int			 minor = 1, first = 1;
	enum http_result	 r;

	memset(req, 0, sizeof *req);
	memset(&f, 0, sizeof f);
	/* RFC 9112, 2.2: empty lines before the request line are ignored. */
	while (pos < len && (p[pos] == '\r' || p[pos] == '\n'))
		pos++;
	for (;;) {
		if (http_line(p, len, &pos, &line, &n) == -1)
			return (len < HTTP_MAX_HEAD ? HTTP_MORE : http_bad(req,
			    431, "request head longer than 8 KiB"));
		if (pos > HTTP_MAX_HEAD)
			return (http_bad(req, 431, "request head longer than "
			    "8 KiB"));
		if (first) {
			r = http_request_line(line, n, req, &minor);
			first = 0;
		} else if (n == 0)
			break;
		else
			r = http_field(line, n, req, &f);
		if (r != HTTP_OK)
			return (r);
	}
	if (minor >= 1 && f.hosts != 1)
		return (http_bad(req, 400, f.hosts == 0 ? "HTTP/1.1 request "
		    "without Host" : "more than one Host"));
	if (req->chunked && f.lengths > 0)
		return (http_bad(req, 400, "both Content-Length and "
		    "Transfer-Encoding"));
	req->len = pos;
	req->minor = minor;
	req->keepalive = !f.close && (minor >= 1 || f.keepalive);
	return (HTTP_OK);
}

int
http_head_due(const char *p, size_t len, struct http_scan *s)
{
	int	due = len >= HTTP_MAX_HEAD;

	for (; s->pos < len && !due; s->pos++) {
		if (p[s->pos] != '\n') {
			s->text |= p[s->pos] != '\r';
			continue;
		}
		/* As http_parse_head(): CR and LF before the request line. */
		if (s->lines == 0 && !s->text)
			continue;
		due = ++s->lines == 1 || !s->text;
		s->text = 0;
	}
	return (due);
}

enum http_result
http_parse(const char *p, size_t len, struct http_req *req)
{
	enum http_result	r;

	if ((r = http_parse_head(p, len, req)) == HTTP_OK &&
	    (req->length != 0 || req->chunked))
		return (http_bad(req, 413, "request bodies are not accepted"));
	return (r);
}

const char *
http_reason(int status)
{
	switch (status) {
	case 100: return ("Continue");
	case 200: return ("OK");
	case 400: return ("Bad Request");
	case 401: return ("Unauthorized");
	case 404: return ("Not Found");
	case 405: return ("Method Not Allowed");
	case 408: return ("Request Timeout");
	case 411: return ("Length Required");
	case 413: return ("Content Too Large");
	case 415: return ("Unsupported Media Type");
	case 422: return ("Unprocessable Content");
	case 431: return ("Request Header Fields Too Large");
	case 500: return ("Internal Server Error");
	case 503: return ("Service Unavailable");
	case 504: return ("Gateway Timeout");
	case 505: return ("HTTP Version Not Supported");
	default: return ("Error");
	}
}

void
http_head(struct evbuffer *out, int status, const char *type, size_t length,
    int keepalive, const char *extra)
{
	char		date[64];
	struct tm	tm;
	time_t		now = (time_t)wall_seconds();

	gmtime_r(&now, &tm);
	strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", &tm);
	evbuffer_add_printf(out, "HTTP/1.1 %d %s\r\nDate: %s\r\n"
	    "Content-Type: %s\r\n", status, http_reason(status), date, type);
	if (length == HTTP_CHUNKED)
		evbuffer_add(out, "Transfer-Encoding: chunked\r\n", 28);
	else if (length != HTTP_CLOSES)
		evbuffer_add_printf(out, "Content-Length: %zu\r\n", length);
	evbuffer_add_printf(out, "%s%s\r\n", keepalive ?
	    "Connection: keep-alive\r\n" : "Connection: close\r\n",
	    extra != NULL ? extra : "");
}
