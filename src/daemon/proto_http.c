/* SPDX-License-Identifier: ISC */
/*
 * proto_http.c -- the requests of doc/http.md: a resource, a JSON object
 * or a query string made into the request lines of doc/protocol.md, for
 * proto_line() to serve as it serves any line.
 *
 * One resource per verb of the request table, named by it: a verb's
 * arguments are fields named by its table entry (proto_cmd.args), its
 * options fields named by http_opts[] below.  The object is read
 * strictly (jansson, duplicate keys refused), and every value is
 * checked here for what would change the meaning of a line: a blank or
 * a '=' in a string, a number that is not a number.  What a value means
 * (an 80-cell puzzle, a seed too large for a verb) is the verb's to say,
 * as on the line protocol.
 */
#include <sys/types.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <event2/buffer.h>
#include <jansson.h>

#include "common/echo.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "config.h"
#include "proto.h"
#include "proto_int.h"

/* Deepest nesting of a request's JSON: a request is an object of arrays. */
#define HTTP_DEPTH	8

/*
 * Bytes an 81-character puzzle takes in a batch's array ("...",): a
 * batch holds at most max_body / HTTP_PUZZLE_ROOM puzzles, and a body at
 * most that many values and HTTP_FIELDS more.  jansson spends some 90
 * bytes on a value, whatever its size: 256 KiB of "1", would be 7 MiB,
 * held while the batch is answered; 84 bytes a value keep what a body
 * costs parsed within about its size again.
 */
#define HTTP_PUZZLE_ROOM	84
#define HTTP_FIELDS		16

/* The options, by their HTTP names; the line's names after. */
static const struct http_opt {
	const char	*field;
	const char	*line;
	unsigned int	 bit;		/* PROTO_OPT_* */
	enum proto_kind	 kind;
} http_opts[] = {
	{ "budget", "budget", PROTO_OPT_BUDGET, PROTO_U64 },
	{ "deadline_ms", "deadline", PROTO_OPT_DEADLINE, PROTO_UINT },
	{ "effort", "effort", PROTO_OPT_EFFORT, PROTO_BOOL },
	{ "symmetry", "symmetry", PROTO_OPT_SYMMETRY, PROTO_WORD },
	{ "clues", "clues", PROTO_OPT_CLUES, PROTO_CLUES },
	{ "pattern", "pattern", PROTO_OPT_PATTERN, PROTO_WORD },
};
#define HTTP_NOPTS	(sizeof http_opts / sizeof http_opts[0])

/* The arguments' kinds, by the names of proto_cmd.args. */
static const struct http_arg {
	const char	*name;
	enum proto_kind	 kind;
} http_args[] = {
	{ "puzzle", PROTO_WORD }, { "grid", PROTO_WORD },
	{ "level", PROTO_NAME }, { "action", PROTO_NAME },
	{ "limit", PROTO_UINT }, { "n", PROTO_UINT }, { "seed", PROTO_U64 },
};
#define HTTP_NARGS	(sizeof http_args / sizeof http_args[0])

/* A verb's arguments, as its table entry names them. */
struct http_sig {
	char		 lower[16];	/* the verb: the resource's name */
	char		 names[PROTO_V1_TOKENS][16];
	const char	*defs[PROTO_V1_TOKENS];	/* "=word" defaults */
	int		 n;
	char		 buf[64];
};

struct proto_http {
	const struct proto_cmd	*cmd;
	json_t			*puzzles;	/* a batch's, or NULL */
	size_t			 n;		/* lines in all */
	size_t			 next;		/* the next to serve */
	char			*head;		/* the line up to its puzzle */
	char			*tail;		/* after it */
	char			*line;		/* the line served */
	size_t			 linesize;	/* its block's */
	int			 effort;
	int			 lines;		/* a batch as JSON Lines */
};

/* The table entry of the verb named by the len bytes at p, lower case. */
static const struct proto_cmd *
http_verb(const char *p, size_t len)
{
	size_t	i, k;

	for (i = 0; i < PROTO__COUNT; i++) {
		if (proto_cmds[i].args == NULL ||
		    strlen(proto_cmds[i].name) != len)
			continue;
		for (k = 0; k < len; k++)
			if (p[k] != (proto_cmds[i].name[k] | 0x20))
				break;
		if (k == len)
			return (&proto_cmds[i]);
	}
	return (NULL);
}

static void
http_sig(const struct proto_cmd *cmd, struct http_sig *sig)
{
	char	*s, *p, *eq;

	size_t	i;

	for (i = 0; i < sizeof sig->lower - 1 && cmd->name[i] != '\0'; i++)
		sig->lower[i] = (char)(cmd->name[i] | 0x20);
	sig->lower[i] = '\0';
	snprintf(sig->buf, sizeof sig->buf, "%s", cmd->args);
	sig->n = 0;
	for (p = sig->buf; (s = strsep(&p, " ")) != NULL &&
	    sig->n < PROTO_V1_TOKENS;) {
		if (*s == '\0')
			continue;
		if ((eq = strchr(s, '=')) != NULL)
			*eq++ = '\0';
		snprintf(sig->names[sig->n], sizeof sig->names[0], "%s", s);
		sig->defs[sig->n++] = eq;
	}
}

static enum proto_kind
http_arg_kind(const char *name)
{
	size_t	i;

	for (i = 0; i < HTTP_NARGS; i++)
		if (strcmp(http_args[i].name, name) == 0)
			return (http_args[i].kind);
	return (PROTO_WORD);
}

/*
 * The fields a verb takes, for the message of one it does not: its
 * arguments, "puzzles" with "puzzle", its options.
 */
static void
http_fields(const struct proto_cmd *cmd, const struct http_sig *sig,
    char *buf, size_t size)
{
	size_t	i, n = 0;
	int	k;

	buf[0] = '\0';
	for (k = 0; k < sig->n && n < size; k++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s%s", n ? ", " :
		    "", sig->names[k], strcmp(sig->names[k], "puzzle") == 0 ?
		    ", puzzles" : "");
	for (i = 0; i < HTTP_NOPTS && n < size; i++)
		if (cmd->opts & http_opts[i].bit)
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ?
			    ", " : "", http_opts[i].field);
	if (n == 0)
		snprintf(buf, size, "nothing");
}

/* The most puzzles a batch may hold. */
static size_t
http_max_puzzles(const struct config *cf)
{
	return ((size_t)cf->http_max_body / HTTP_PUZZLE_ROOM);
}

/*
 * Nesting deeper than HTTP_DEPTH (-1), or more than max values (-2),
 * found before jansson reads it (which recurses to 2048, and spends
 * memory on each value): brackets and commas outside strings are
 * counted.
 */
static int
http_shape(const char *p, size_t len, size_t max)
{
	size_t	i, commas = 0;
	int	depth = 0, str = 0;

	for (i = 0; i < len; i++) {
		if (str) {
			if (p[i] == '\\')
				i++;
			else if (p[i] == '"')
				str = 0;
		} else if (p[i] == '"')
			str = 1;
		else if (p[i] == '{' || p[i] == '[') {
			if (++depth > HTTP_DEPTH)
				return (-1);
		} else if (p[i] == '}' || p[i] == ']')
			depth--;
		else if (p[i] == ',' && ++commas >= max)
			return (-2);
	}
	return (0);
}

/* A batch over the most puzzles it may hold: 413. */
static int
http_toomany(const struct config *cf, struct proto_http_err *err)
{
	return (proto_http_refuse(err, 413, "toolong", "a batch holds at most "
	    "%zu puzzles (max_body / %d), and a body as many values",
	    http_max_puzzles(cf), HTTP_PUZZLE_ROOM));
}

/* The body, a JSON object, into *obj. */
static int
http_json(const struct config *cf, const char *body, size_t len,
    json_t **obj, struct proto_http_err *err)
{
	json_error_t	 je;
	size_t		 i;
	int		 r;

	if (len == 0) {
		*obj = json_object();
		return (0);
	}
	if ((r = http_shape(body, len, http_max_puzzles(cf) + HTTP_FIELDS))
	    == -2)
		return (http_toomany(cf, err));
	if (r != 0)
		return (proto_http_refuse(err, 400, "syntax", "the JSON is nested "
		    "deeper than %d", HTTP_DEPTH));
	if ((*obj = json_loadb(body, len, JSON_REJECT_DUPLICATES, &je)) ==
	    NULL) {
		/* jansson quotes the input near the error: bytes, not text. */
		for (i = 0; je.text[i] != '\0'; i++)
			if (je.text[i] < 0x20 || je.text[i] > 0x7e)
				je.text[i] = '?';
		return (proto_http_refuse(err, 400, "syntax", "malformed JSON at "
		    "line %d, column %d: %s", je.line, je.column, je.text));
	}
	if (!json_is_object(*obj)) {
		json_decref(*obj);
		return (proto_http_refuse(err, 400, "syntax", "the body must be a "
		    "JSON object"));
	}
	return (0);
}

/* The field name k, for a message: 'name', other bytes as 0xNN. */
static void
http_echo(const char *k, size_t len, char *buf, size_t size)
{
	echo_bytes(k, len, 32, buf, size);
}

/* Is key a field of the verb (an argument, "puzzles", an option)? */
static int
http_takes(const struct proto_cmd *cmd, const struct http_sig *sig,
    const char *key)
{
	size_t	i;
	int	k;

	for (k = 0; k < sig->n; k++)
		if (strcmp(key, sig->names[k]) == 0)
			return (1);
	if (strcmp(key, "puzzles") == 0)
		return (sig->n > 0 && strcmp(sig->names[0], "puzzle") == 0);
	for (i = 0; i < HTTP_NOPTS; i++)
		if ((cmd->opts & http_opts[i].bit) &&
		    strcmp(key, http_opts[i].field) == 0)
			return (1);
	return (0);
}

/* Every field of obj is one the verb takes; else 400, naming it. */
static int
http_known(const struct proto_cmd *cmd, const struct http_sig *sig,
    json_t *obj, struct proto_http_err *err)
{
	const char	*key;
	json_t		*v;
	char		 echo[200], fields[200];

	json_object_foreach(obj, key, v) {
		if (http_takes(cmd, sig, key))
			continue;
		http_echo(key, strlen(key), echo, sizeof echo);
		http_fields(cmd, sig, fields, sizeof fields);
		return (proto_http_refuse(err, 400, "syntax", "unknown field %s for "
		    "/v2/%s; it takes %s", echo, sig->lower, fields));
	}
	return (0);
}

/* A batch's puzzles: an array of 1 or more strings, each a word. */
static int
http_puzzles(json_t *a, struct proto_http_err *err)
{
	size_t	 i;
	json_t	*v;
	char	 name[32];

	if (!json_is_array(a) || json_array_size(a) == 0)
		return (proto_value_bad(err, "puzzles", "an array of one or "
		    "more puzzles"));
	json_array_foreach(a, i, v) {
		snprintf(name, sizeof name, "puzzles[%zu]", i);
		if (!json_is_string(v))
			return (proto_value_bad(err, name, "a string"));
		if (proto_value_word(name, json_string_value(v),
		    json_string_length(v), 0, err) != 0)
			return (-1);
	}
	return (0);
}

/* The arguments into the line: head up to a batch's puzzle, tail after. */
static int
http_args_line(struct proto_http *h, const struct http_sig *sig,
    json_t *obj, int query, struct evbuffer *head, struct evbuffer *tail,
    struct proto_http_err *err)
{
	struct evbuffer	*cur = head;
	json_t		*v;
	int		 k;

	evbuffer_add_printf(head, "%s", h->cmd->name);
	for (k = 0; k < sig->n; k++) {
		v = json_object_get(obj, sig->names[k]);
		if (k == 0 && h->puzzles != NULL) {
			if (v != NULL)
				return (proto_http_refuse(err, 400, "syntax", "give "
				    "puzzle or puzzles, not both"));
			evbuffer_add(head, " ", 1);
			cur = tail;
			continue;
		}
		if (v == NULL && sig->defs[k] != NULL)
			evbuffer_add_printf(cur, " %s", sig->defs[k]);
		else if (v == NULL && k < h->cmd->min_args)
			return (proto_http_refuse(err, 400, "syntax", "missing field "
			    "%s%s", sig->names[k], k == 0 && strcmp(
			    sig->names[0], "puzzle") == 0 ? " (or puzzles)" :
			    ""));
		else if (v != NULL) {
			evbuffer_add(cur, " ", 1);
			if (proto_value(cur, sig->names[k], v,
			    http_arg_kind(sig->names[k]), query, err) != 0)
				return (-1);
		}
	}
	return (0);
}

/* The options into the tail of the line, info=1 where it is taken. */
static int
http_opts_line(struct proto_http *h, json_t *obj, int query,
    struct evbuffer *tail, struct proto_http_err *err)
{
	const struct http_opt	*o;
	json_t			*v;
	size_t			 i;

	for (i = 0; i < HTTP_NOPTS; i++) {
		o = &http_opts[i];
		if (!(h->cmd->opts & o->bit) ||
		    (v = json_object_get(obj, o->field)) == NULL)
			continue;
		evbuffer_add_printf(tail, " %s=", o->line);
		if (proto_value(tail, o->field, v, o->kind, query, err) != 0)
			return (-1);
		if (o->bit == PROTO_OPT_EFFORT)
			h->effort = json_is_true(v) || (json_is_string(v) &&
			    strchr("t1", json_string_value(v)[0]) != NULL);
	}
	/* Over HTTP the seed is always said: a reply with it or without. */
	if (h->cmd->opts & PROTO_OPT_INFO)
		evbuffer_add(tail, " info=1", 7);
	return (0);
}

/* An evbuffer's bytes as a string of their own. */
static char *
http_string(struct evbuffer *b)
{
	size_t	 len = evbuffer_get_length(b);
	char	*s = xmalloc(len + 1);

	evbuffer_remove(b, s, len);
	s[len] = '\0';
	return (s);
}

static int
http_build(const struct config *cf, struct proto_http *h,
    const struct http_sig *sig, json_t *obj, int query,
    struct proto_http_err *err)
{
	struct evbuffer	*head, *tail;
	int		 r = -1;

	if ((head = evbuffer_new()) == NULL || (tail = evbuffer_new()) == NULL)
		fatalx("%s: out of memory", __func__);
	if ((h->puzzles = json_object_get(obj, "puzzles")) != NULL) {
		if ((json_array_size(h->puzzles) > http_max_puzzles(cf) ?
		    http_toomany(cf, err) : http_puzzles(h->puzzles, err)) != 0) {
			h->puzzles = NULL;
			goto done;
		}
		if (json_object_get(obj, "grid") != NULL) {
			h->puzzles = NULL;
			proto_http_refuse(err, 400, "syntax", "grid goes with one "
			    "puzzle, not with puzzles");
			goto done;
		}
		json_incref(h->puzzles);
		h->n = json_array_size(h->puzzles);
	} else
		h->n = 1;
	if (http_args_line(h, sig, obj, query, head, tail, err) != 0 ||
	    http_opts_line(h, obj, query, tail, err) != 0)
		goto done;
	h->head = http_string(head);
	h->tail = http_string(tail);
	r = 0;
done:
	evbuffer_free(head);
	evbuffer_free(tail);
	return (r);
}

/* The resource's verb, and whether the request may have it. */
static int
http_resource(const struct proto_env *env, const struct proto_http_in *in,
    const struct proto_cmd **cmd, struct proto_http_err *err)
{
	char	echo[200];

	if ((*cmd = http_verb(in->verb, in->verblen)) == NULL) {
		http_echo(in->verb, in->verblen, echo, sizeof echo);
		return (proto_http_refuse(err, 404, "notfound", "no resource "
		    "/v2/%s; the resources are the verbs of HELLO, in lower "
		    "case", echo));
	}
	if (env->cf->auth != NULL && !in->authed &&
	    !((*cmd)->flags & PROTO_CMD_OPEN)) {
		proto_http_refuse(err, 401, "noauth", "authentication required: "
		    "Authorization: Bearer <secret>");
		err->header = "WWW-Authenticate: Bearer realm=\"sudokud\"\r\n";
		return (-1);
	}
	return (0);
}

/* SLOWLOG RESET changes the server: never by GET. */
static int
http_safe(const struct proto_cmd *cmd, json_t *obj, int post,
    struct proto_http_err *err)
{
	json_t	*a = json_object_get(obj, "action");

	if (post || cmd != &proto_cmds[PROTO_SLOWLOG] || !json_is_string(a) ||
	    strcasecmp(json_string_value(a), "reset") != 0)
		return (0);
	proto_http_refuse(err, 405, "method", "action=reset changes the slow log: "
	    "POST it");
	err->header = "Allow: POST\r\n";
	return (-1);
}

int
proto_http_new(const struct proto_env *env, const struct proto_http_in *in,
    struct proto_http **out, struct proto_http_err *err)
{
	const struct proto_cmd	*cmd;
	struct proto_http	*h;
	struct http_sig		 sig;
	json_t			*obj = NULL;
	int			 r;

	*out = NULL;
	if (http_resource(env, in, &cmd, err) != 0)
		return (-1);
	if ((in->post ? http_json(env->cf, in->body, in->bodylen, &obj, err) :
	    proto_query(in->query, in->querylen, &obj, err)) != 0)
		return (-1);
	http_sig(cmd, &sig);
	h = xcalloc(1, sizeof *h);
	h->cmd = cmd;
	h->lines = in->lines;
	r = http_known(cmd, &sig, obj, err);
	if (r == 0)
		r = http_safe(cmd, obj, in->post, err);
	if (r == 0)
		r = http_build(env->cf, h, &sig, obj, !in->post, err);
	json_decref(obj);
	if (r != 0) {
		proto_http_free(h);
		return (-1);
	}
	*out = h;
	return (0);
}

void
proto_http_free(struct proto_http *h)
{
	if (h == NULL)
		return;
	json_decref(h->puzzles);
	free(h->head);
	free(h->tail);
	free(h->line);
	free(h);
}

int
proto_http_batch(const struct proto_http *h)
{
	if (h->puzzles == NULL)
		return (PROTO_HTTP_ONE);
	return (h->lines ? PROTO_HTTP_LINES : PROTO_HTTP_ARRAY);
}

const char *
proto_http_next(struct proto_http *h, size_t *len)
{
	const json_t	*p;
	size_t		 hlen, plen, tlen;

	if (h->next >= h->n)
		return (NULL);
	/* head, the puzzle, tail: into a block of the request's own. */
	p = h->puzzles != NULL ? json_array_get(h->puzzles, h->next) : NULL;
	plen = p != NULL ? json_string_length(p) : 0;
	hlen = strlen(h->head);
	tlen = strlen(h->tail);
	if (hlen + plen + tlen + 1 > h->linesize) {
		free(h->line);
		h->linesize = hlen + plen + tlen + 1;
		h->line = xmalloc(h->linesize);
	}
	memcpy(h->line, h->head, hlen);
	if (plen > 0)
		memcpy(h->line + hlen, json_string_value(p), plen);
	memcpy(h->line + hlen + plen, h->tail, tlen + 1);
	h->next++;
	*len = hlen + plen + tlen;
	return (h->line);
}

int
proto_http_first(const struct proto_http *h)
{
	return (h->next == 0);
}

int
proto_http_reply(const struct proto_http *h, struct evbuffer *lines,
    struct evbuffer *body)
{
	return (proto_json_reply(h->cmd, h->effort, lines, body));
}

int
proto_http_more(const struct proto_http *h)
{
	return (h->next < h->n);
}
