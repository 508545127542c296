/* SPDX-License-Identifier: ISC */
/*
 * proto_query.c -- a query string of doc/http.md ("level=hard&seed=42")
 * as the object of strings a POST's body would have been: names of
 * lower-case letters, digits and '_', each once; values percent-decoded
 * ('+' a blank), any bytes, which proto_http.c then checks as it checks
 * a body's strings.
 */
#include <sys/types.h>

#include <stdio.h>
#include <string.h>

#include <event2/buffer.h>
#include <jansson.h>

#include "common/echo.h"
#include "common/log.h"
#include "proto.h"
#include "proto_int.h"

static int
http_hex(int c)
{
	if (c >= '0' && c <= '9')
		return (c - '0');
	c |= 0x20;
	return (c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1);
}

/* The len bytes at s percent-decoded ('+' a blank) into out; -1: bad. */
static int
http_unescape(const char *s, size_t len, struct evbuffer *out)
{
	size_t	i;
	int	hi, lo;
	char	c;

	for (i = 0; i < len; i++) {
		c = s[i] == '+' ? ' ' : s[i];
		if (s[i] == '%') {
			if (i + 2 >= len)
				return (-1);
			if ((hi = http_hex((unsigned char)s[i + 1])) < 0 ||
			    (lo = http_hex((unsigned char)s[i + 2])) < 0)
				return (-1);
			c = (char)(hi << 4 | lo);
			i += 2;
		}
		evbuffer_add(out, &c, 1);
	}
	return (0);
}

/* A parameter's name: lower-case letters, digits and '_'. */
static int
http_param_name(const char *s, size_t len)
{
	size_t	i;

	for (i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' &&
		    s[i] <= '9') || s[i] == '_'))
			return (0);
	return (len > 0);
}

/* One name=value of a query into obj (b: scratch). */
static int
http_param(const char *s, size_t len, json_t *obj, struct evbuffer *b,
    struct proto_http_err *err)
{
	const char	*eq = memchr(s, '=', len), *p;
	size_t		 nlen, vlen;
	char		 echo[200];

	evbuffer_drain(b, evbuffer_get_length(b));
	if (http_unescape(s, eq != NULL ? (size_t)(eq - s) : len, b) != 0)
		goto bad;
	nlen = evbuffer_get_length(b);
	if (eq != NULL && http_unescape(eq + 1, len - (size_t)(eq + 1 - s),
	    b) != 0)
		goto bad;
	vlen = evbuffer_get_length(b) - nlen;
	p = (const char *)evbuffer_pullup(b, -1);
	if (!http_param_name(p, nlen)) {
		echo_bytes(p, nlen, 32, echo, sizeof echo);
		return (proto_http_refuse(err, 400, "syntax", "no such query "
		    "parameter %s: a name is lower-case letters, digits and "
		    "'_'", echo));
	}
	if (json_object_getn(obj, p, nlen) != NULL) {
		echo_bytes(p, nlen, 32, echo, sizeof echo);
		return (proto_http_refuse(err, 400, "syntax", "query parameter %s "
		    "given twice", echo));
	}
	json_object_setn_new_nocheck(obj, p, nlen,
	    json_stringn_nocheck(p + nlen, vlen));
	return (0);
bad:
	return (proto_http_refuse(err, 400, "syntax", "malformed percent-encoding "
	    "in the query string"));
}

int
proto_query(const char *q, size_t len, json_t **obj,
    struct proto_http_err *err)
{
	struct evbuffer	*b;
	const char	*amp;
	size_t		 pos = 0, end;
	int		 r = 0;

	*obj = json_object();
	if ((b = evbuffer_new()) == NULL || *obj == NULL)
		fatalx("%s: out of memory", __func__);
	while (q != NULL && pos < len && r == 0) {
		amp = memchr(q + pos, '&', len - pos);
		end = amp != NULL ? (size_t)(amp - q) : len;
		if (end > pos)
			r = http_param(q + pos, end - pos, *obj, b, err);
		pos = end + 1;
	}
	evbuffer_free(b);
	if (r != 0) {
		json_decref(*obj);
		*obj = NULL;
	}
	return (r);
}
