/* SPDX-License-Identifier: ISC */
/*
 * proto_json.c -- the replies of doc/http.md: a verb's reply lines, as
 * proto_line() made them for doc/protocol.md, made into one JSON object
 * (jansson), and the error object with its HTTP status.
 *
 * The lines are the one truth: what a verb answers is decided once, by
 * its handler, and this only says it again in JSON.  Each verb names
 * its reader in json_readers[]; a reader sees the lines without END and
 * without the effort= tokens (taken off first, into "guesses" and "us").
 */
#include <sys/types.h>

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <jansson.h>

#include "common/log.h"
#include "proto.h"
#include "proto_int.h"

/* The reply's lines, read one after another. */
struct json_lines {
	const char	*p;
	size_t		 len;		/* without the effort tokens */
	size_t		 pos;
};

/* What a reader makes of a verb's lines. */
typedef json_t	*(*json_reader)(struct json_lines *);

/* An error code of the line protocol, or of HTTP, and its status. */
static const struct json_status {
	const char	*code;
	int		 status;
} json_statuses[] = {
	{ "syntax", 400 }, { "noauth", 401 }, { "notfound", 404 },
	{ "method", 405 }, { "toolong", 413 }, { "mediatype", 415 },
	{ "length", 422 }, { "char", 422 }, { "conflict", 422 },
	{ "nosolution", 422 }, { "multiple", 422 }, { "wrong", 422 },
	{ "nostep", 422 }, { "budget", 422 }, { "busy", 503 },
	{ "deadline", 504 },
};

int
proto_http_status(const char *code, size_t len)
{
	size_t	i;

	for (i = 0; i < sizeof json_statuses / sizeof json_statuses[0]; i++)
		if (strlen(json_statuses[i].code) == len &&
		    memcmp(json_statuses[i].code, code, len) == 0)
			return (json_statuses[i].status);
	return (500);
}

/* The next line, without its LF: 1, or 0 at the end (or at END). */
static int
json_next(struct json_lines *l, const char **line, size_t *len)
{
	const char	*lf;
	size_t		 n;

	if (l->pos >= l->len)
		return (0);
	*line = l->p + l->pos;
	lf = memchr(*line, '\n', l->len - l->pos);
	n = lf != NULL ? (size_t)(lf - *line) : l->len - l->pos;
	l->pos += n + 1;
	*len = n;
	return (!(n == 3 && memcmp(*line, "END", 3) == 0));
}

/* The first line of a reply, which every one-line reader reads. */
static int
json_first(struct json_lines *l, const char **s, size_t *len)
{
	if (json_next(l, s, len))
		return (1);
	*s = "";
	*len = 0;
	return (0);
}

static json_t *
json_solution(struct json_lines *l)
{
	const char	*s;
	size_t		 len;

	json_first(l, &s, &len);
	return (json_pack("{s:s%}", "solution", s, len));
}

static json_t *
json_count(struct json_lines *l)
{
	const char	*s;
	size_t		 len;

	json_first(l, &s, &len);
	return (json_pack("{s:o}", "count", proto_words_scalar(s, len)));
}

/* Lines as an array of strings, under key: SOLUTIONS, HELP. */
static json_t *
json_strings(struct json_lines *l, const char *key)
{
	json_t		*a = json_array();
	const char	*s;
	size_t		 len;

	while (json_next(l, &s, &len))
		json_array_append_new(a, proto_words_str(s, len));
	return (json_pack("{s:o}", key, a));
}

static json_t *
json_solutions(struct json_lines *l)
{
	return (json_strings(l, "solutions"));
}

static json_t *
json_help(struct json_lines *l)
{
	return (json_strings(l, "help"));
}

static json_t *
json_analyze(struct json_lines *l)
{
	json_t		*o = json_object();
	const char	*s;
	size_t		 len;

	json_first(l, &s, &len);
	proto_words_kv(o, s, len, "status solution level hardest");
	return (o);
}

/* RATE's words, "level score hardest", into o. */
static void
json_rating(json_t *o, const char *s, size_t len, const char **rest,
    size_t *restlen)
{
	const char	*p;
	size_t		 n, plen;

	n = proto_words_word(s, len, &p, &plen);
	json_object_set_new(o, "level", proto_words_str(s, n));
	s = p;
	n = proto_words_word(s, plen, &p, &plen);
	json_object_set_new(o, "score", proto_words_scalar(s, n));
	s = p;
	n = proto_words_word(s, plen, rest, restlen);
	json_object_set_new(o, "hardest", proto_words_str(s, n));
}

static json_t *
json_rate(struct json_lines *l)
{
	json_t		*o = json_object();
	const char	*s, *rest;
	size_t		 len, restlen;

	json_first(l, &s, &len);
	json_rating(o, s, len, &rest, &restlen);
	return (o);
}

static json_t *
json_hint(struct json_lines *l)
{
	const char	*s;
	size_t		 len;

	json_first(l, &s, &len);
	if (len == 6 && memcmp(s, "solved", 6) == 0)
		return (json_pack("{s:b}", "solved", 1));
	return (proto_words_step(s, len, 1));
}

/* "<puzzle> key=value...": GENERATE, SHUFFLE, MINIMIZE, CONSTRAIN. */
static json_t *
json_puzzle(struct json_lines *l)
{
	json_t		*o = json_object();
	const char	*s, *rest;
	size_t		 len, n, restlen;

	json_first(l, &s, &len);
	n = proto_words_word(s, len, &rest, &restlen);
	json_object_set_new(o, "puzzle", proto_words_str(s, n));
	proto_words_kv(o, rest, restlen, "seed level");
	return (o);
}

static json_t *
json_canon(struct json_lines *l)
{
	const char	*s, *rest;
	size_t		 len, n, restlen;

	json_first(l, &s, &len);
	n = proto_words_word(s, len, &rest, &restlen);
	return (json_pack("{s:s%,s:o}", "canonical", s, n, "automorphisms",
	    proto_words_scalar(rest, restlen)));
}

/* PATH: steps, maybe "nostep ...", the summary. */
static json_t *
json_path(struct json_lines *l)
{
	json_t		*o = json_object(), *steps = json_array(), *t;
	const char	*s, *rest, *last = NULL;
	size_t		 len, restlen, lastlen = 0;
	int		 complete = 1;

	while (json_next(l, &s, &len)) {
		if (last != NULL)
			json_array_append_new(steps, proto_words_step(last, lastlen,
			    0));
		if (len > 7 && memcmp(s, "nostep ", 7) == 0) {
			complete = 0;
			last = NULL;
			continue;
		}
		last = s;
		lastlen = len;
	}
	json_object_set_new(o, "steps", steps);
	json_object_set_new(o, "complete", json_boolean(complete));
	if (last == NULL)
		return (o);
	json_rating(o, last, lastlen, &rest, &restlen);
	t = json_object();
	proto_words_kv(t, rest, restlen, "");
	json_object_set_new(o, "techniques", t);
	return (o);
}

/* "WORD key=value...": HELLO. */
static json_t *
json_hello(struct json_lines *l)
{
	json_t		*o = json_object();
	const char	*s, *rest;
	size_t		 len, restlen;

	json_first(l, &s, &len);
	proto_words_word(s, len, &rest, &restlen);
	proto_words_kv(o, rest, restlen, "server version auth");
	return (o);
}

static json_t *
json_ping(struct json_lines *l)
{
	(void)l;
	return (json_pack("{s:b}", "pong", 1));
}

static json_t *
json_version(struct json_lines *l)
{
	const char	*s, *rest;
	size_t		 len, restlen;

	json_first(l, &s, &len);
	proto_words_word(s, len, &rest, &restlen);
	return (json_pack("{s:s%}", "version", rest, restlen));
}

/* "STAT name value" lines. */
static json_t *
json_stats(struct json_lines *l)
{
	json_t		*o = json_object();
	const char	*s, *name, *v;
	size_t		 len, n, nlen, vlen;
	char		 key[64];

	while (json_next(l, &s, &len)) {
		proto_words_word(s, len, &name, &nlen);
		n = proto_words_word(name, nlen, &v, &vlen);
		if (n >= sizeof key)
			continue;
		memcpy(key, name, n);
		key[n] = '\0';
		json_object_set_new(o, key, strcmp(key, "version") == 0 ?
		    proto_words_str(v, vlen) : proto_words_scalar(v, vlen));
	}
	return (o);
}

/* Lines of key=value, an object each, under key: SLOWLOG, CLIENT. */
static json_t *
json_records(struct json_lines *l, const char *key, const char *strs)
{
	json_t		*a = json_array(), *r;
	const char	*s;
	size_t		 len;

	while (json_next(l, &s, &len)) {
		r = json_object();
		proto_words_kv(r, s, len, strs);
		json_array_append_new(a, r);
	}
	return (json_pack("{s:o}", key, a));
}

static json_t *
json_slowlog(struct json_lines *l)
{
	const char	*s;
	size_t		 len, pos = l->pos;

	if (json_next(l, &s, &len)) {
		if (len == 2 && memcmp(s, "OK", 2) == 0)
			return (json_pack("{s:b}", "ok", 1));
		if (len > 0 && memchr(s, '=', len) == NULL)
			return (json_pack("{s:o}", "len", proto_words_scalar(s, len)));
	}
	l->pos = pos;
	return (json_records(l, "entries", "client request"));
}

static json_t *
json_client(struct json_lines *l)
{
	return (json_records(l, "clients", "transport addr via state auth "
	    "cert"));
}

static const json_reader json_readers[PROTO__COUNT] = {
	[PROTO_SOLVE] = json_solution, [PROTO_LEXMIN] = json_solution,
	[PROTO_COUNT] = json_count, [PROTO_SOLUTIONS] = json_solutions,
	[PROTO_ANALYZE] = json_analyze, [PROTO_RATE] = json_rate,
	[PROTO_HINT] = json_hint, [PROTO_GENERATE] = json_puzzle,
	[PROTO_CANON] = json_canon, [PROTO_SHUFFLE] = json_puzzle,
	[PROTO_MINIMIZE] = json_puzzle, [PROTO_CONSTRAIN] = json_puzzle,
	[PROTO_PATH] = json_path, [PROTO_HELLO] = json_hello,
	[PROTO_PING] = json_ping, [PROTO_VERSION] = json_version,
	[PROTO_STATS] = json_stats, [PROTO_SLOWLOG] = json_slowlog,
	[PROTO_CLIENT] = json_client, [PROTO_HELP] = json_help,
};

/* The error object of code and text: cells and position where named. */
static json_t *
json_errobj(const char *code, size_t clen, const char *text, size_t tlen)
{
	json_t		*e = json_object(), *cells;
	const char	*at;
	size_t		 n;

	json_object_set_new(e, "code", proto_words_str(code, clen));
	json_object_set_new(e, "message", proto_words_str(text, tlen));
	if (json_array_size(cells = proto_words_cells(text, tlen)) > 0)
		json_object_set_new(e, "cells", cells);
	else
		json_decref(cells);
	at = tlen > 12 ? memmem(text, tlen, "at position ", 12) : NULL;
	if (at != NULL) {
		at += 12;
		for (n = 0; at + n < text + tlen && proto_words_digit(at[n]); n++)
			;
		if (n > 0)
			json_object_set_new(e, "position", proto_words_scalar(at, n));
	}
	return (json_pack("{s:o}", "error", e));
}

/* "ERR code text": its object; *status gets its HTTP status. */
static json_t *
json_err(const char *s, size_t len, int *status)
{
	const char	*text;
	size_t		 n, tlen;

	n = proto_words_word(s + 4, len - 4, &text, &tlen);
	*status = proto_http_status(s + 4, n);
	return (json_errobj(s + 4, n, text, tlen));
}

/* A number at the end of the text, after " key=": taken off; -1 if not. */
static json_int_t
json_tail(struct json_lines *l, const char *key)
{
	size_t		 klen = strlen(key), end = l->len, i = end, start;
	json_int_t	 v = 0;

	while (i > 0 && proto_words_digit(l->p[i - 1]))
		i--;
	if (i == end || end - i > 18 || i < klen + 1 ||
	    l->p[i - klen - 1] != ' ' ||
	    memcmp(l->p + i - klen, key, klen) != 0)
		return (-1);
	for (start = i; i < end; i++)
		v = v * 10 + (l->p[i] - '0');
	l->len = start - klen - 1;
	return (v);
}

/* effort=1: the tokens at the end of the last line, taken off into o. */
static void
json_effort(struct json_lines *l, const struct proto_cmd *cmd, json_t *o)
{
	json_int_t	us, guesses = -1;

	if (l->len > 0 && l->p[l->len - 1] == '\n')
		l->len--;
	us = json_tail(l, "us=");
	if (!(cmd->flags & PROTO_CMD_GUESSES))
		guesses = json_tail(l, "guesses=");
	if (guesses >= 0)
		json_object_set_new(o, "guesses", json_integer(guesses));
	if (us >= 0)
		json_object_set_new(o, "us", json_integer(us));
}

/*
 * o as compact JSON appended to body: into a block on the stack when it
 * fits (nearly every reply), with one evbuffer_add(), not one a token.
 */
static void
json_out(const json_t *o, struct evbuffer *body, size_t flags)
{
	char	 buf[2048], *big;
	size_t	 n;

	if ((n = json_dumpb(o, buf, sizeof buf, flags)) == 0)
		fatalx("%s: out of memory", __func__);
	if (n <= sizeof buf) {
		evbuffer_add(body, buf, n);
		return;
	}
	if ((big = json_dumps(o, flags)) == NULL)
		fatalx("%s: out of memory", __func__);
	evbuffer_add(body, big, strlen(big));
	free(big);
}

int
proto_json_reply(const struct proto_cmd *cmd, int effort,
    struct evbuffer *lines, struct evbuffer *body)
{
	struct json_lines	 l;
	json_t			*o, *eff = json_object(), *sol;
	const char		*last;
	int			 status = 200;

	l.len = evbuffer_get_length(lines);
	l.p = l.len > 0 ? (const char *)evbuffer_pullup(lines, -1) : "";
	l.pos = 0;
	if (effort)
		json_effort(&l, cmd, eff);
	/* The last line: an ERR line ends any reply it is in. */
	last = l.p + l.len;
	if (last > l.p && last[-1] == '\n')
		last--;
	while (last > l.p && last[-1] != '\n')
		last--;
	if (l.p + l.len - last >= 4 && memcmp(last, "ERR ", 4) == 0) {
		o = json_err(last, (size_t)(l.p + l.len - last) -
		    (l.p[l.len - 1] == '\n'), &status);
		l.len = (size_t)(last - l.p);
		if (cmd == &proto_cmds[PROTO_SOLUTIONS] && l.len > 0) {
			sol = json_solutions(&l);
			json_object_update(o, sol);
			json_decref(sol);
		}
	} else
		o = json_readers[cmd - proto_cmds](&l);
	json_object_update(o, eff);
	json_decref(eff);
	json_out(o, body, JSON_COMPACT | JSON_REAL_PRECISION(4));
	json_decref(o);
	evbuffer_drain(lines, evbuffer_get_length(lines));
	return (status);
}

void
proto_http_error(struct evbuffer *body, const char *code, const char *text)
{
	json_t	*o = json_errobj(code, strlen(code), text, strlen(text));

	json_out(o, body, JSON_COMPACT);
	json_decref(o);
}
