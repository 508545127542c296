/* SPDX-License-Identifier: ISC */
/*
 * proto_value.c -- a value of a request of doc/http.md (a field of its
 * JSON object, or a query parameter) as the token of a request line it
 * becomes: checked for what would change the line's meaning (a blank
 * or '=' in a string splits it; a sign or a fraction is no number of
 * the protocol), and written as the protocol writes it.  And the
 * refusal every part of such a request makes (proto_http_refuse()).
 */
#include <sys/types.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <event2/buffer.h>
#include <jansson.h>

#include "proto.h"
#include "proto_int.h"

/*
 * A refusal of a request of doc/http.md, its value's or another's (the
 * query's, the body's, the resource's): proto_http_err made.
 */
int
proto_http_refuse(struct proto_http_err *err, int status, const char *code,
    const char *fmt, ...)
{
	va_list	ap;

	err->status = status;
	err->code = code;
	err->header = NULL;
	va_start(ap, fmt);
	vsnprintf(err->text, sizeof err->text, fmt, ap);
	va_end(ap);
	return (-1);
}

/* Where a value goes wrong, for a message: "limit", "puzzles[3]". */
int
proto_value_bad(struct proto_http_err *err, const char *name, const char *what)
{
	return (proto_http_refuse(err, 400, "syntax", "%s must be %s", name, what));
}

/* A string argument: no blank, control byte or '=' (it would split). */
int
proto_value_word(const char *name, const char *s, size_t len, int letters,
    struct proto_http_err *err)
{
	size_t	i;

	if (len == 0)
		return (proto_value_bad(err, name, "a string that is not "
		    "empty"));
	for (i = 0; i < len; i++) {
		if ((unsigned char)s[i] <= ' ' || s[i] == '=' || s[i] == 0x7f)
			return (proto_value_bad(err, name, "a string without "
			    "blanks, control characters or '='"));
		if (letters && !((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z'))
			return (proto_value_bad(err, name, "a word of letters"));
	}
	return (0);
}

/* Digits alone, for a number sent as a string (a query, a big seed). */
static int
http_digits(const char *s, size_t len)
{
	size_t	i;

	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return (0);
	return (len > 0 && len <= 20);
}

/* v, of kind, as the line writes it, appended to out. */
int
proto_value(struct evbuffer *out, const char *name, const json_t *v,
    enum proto_kind kind, int query, struct proto_http_err *err)
{
	const char	*s = json_is_string(v) ? json_string_value(v) : NULL;
	size_t		 len = s != NULL ? json_string_length(v) : 0;

	switch (kind) {
	case PROTO_WORD:
	case PROTO_NAME:
		if (s == NULL)
			return (proto_value_bad(err, name, "a string"));
		if (proto_value_word(name, s, len, kind == PROTO_NAME, err) != 0)
			return (-1);
		evbuffer_add(out, s, len);
		return (0);
	case PROTO_BOOL:
		if (json_is_boolean(v) || (query && s != NULL &&
		    (strcmp(s, "true") == 0 || strcmp(s, "false") == 0 ||
		    strcmp(s, "1") == 0 || strcmp(s, "0") == 0))) {
			evbuffer_add(out, json_is_true(v) || (s != NULL &&
			    (s[0] == 't' || s[0] == '1')) ? "1" : "0", 1);
			return (0);
		}
		return (proto_value_bad(err, name, "true or false"));
	case PROTO_CLUES:
		if (s != NULL) {
			if (proto_value_word(name, s, len, 0, err) != 0)
				return (-1);
			evbuffer_add(out, s, len);
			return (0);
		}
		/* FALLTHROUGH */
	default:
		if (json_is_integer(v) && json_integer_value(v) >= 0) {
			evbuffer_add_printf(out, "%" JSON_INTEGER_FORMAT,
			    json_integer_value(v));
			return (0);
		}
		if (s != NULL && (query || kind == PROTO_U64) &&
		    http_digits(s, len)) {
			evbuffer_add(out, s, len);
			return (0);
		}
		return (proto_value_bad(err, name, kind == PROTO_U64 ? "an "
		    "integer from 0, or a string of its digits" :
		    "an integer from 0"));
	}
}
