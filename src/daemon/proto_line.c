/* SPDX-License-Identifier: ISC */
/*
 * proto_line.c -- one request line served: its tokens, its verb looked
 * up in the verb table (proto.c), AUTH first if the server has a
 * secret, its options taken (proto_opts.c), its arguments counted, then
 * its handler; with effort=1, the effort after the reply.  And what is
 * refused before any line is: a line too long, a connection's first
 * bytes that are no request (a TLS handshake, a PROXY header).
 */
#include <sys/types.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <event2/buffer.h>

#include "config.h"
#include "proto.h"
#include "proto_int.h"
#include "proxy.h"
#include "stats.h"

/* First words of HTTP request lines, matched in any case. */
static const char *const proto_http_methods[] = {
	"GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS",
	"TRACE", "PATCH"
};

static int
proto_isblank(unsigned char ch)
{
	return (ch == ' ' || ch == '\t');
}

/* The first ch at i or after it, or len. */
static size_t
proto_next(const char *s, size_t i, size_t len, int ch)
{
	const char	*p = memchr(s + i, ch, len - i);

	return (p != NULL ? (size_t)(p - s) : len);
}

/*
 * Split into blank-separated tokens; past PROTO_MAXTOKENS they are
 * counted (ntok) but not kept.  A token ends at the next space or tab,
 * each found with memchr(), which scans a word at a time (a puzzle
 * token is 81 bytes, and a byte loop cost about as much as formatting
 * the reply).  Each is looked for again only once the token has passed
 * it: a line of tab-separated tokens is one scan for a space, not one a
 * token to the line's end (1.8 s of a worker for a refused 1 MB line).
 */
static void
proto_tokenize(struct proto_req *req, const char *s, size_t len)
{
	size_t	i = 0, start, sp = 0, tab = 0;

	req->ntok = 0;
	while (i < len) {
		while (i < len && proto_isblank(s[i]))
			i++;
		if (i == len)
			break;
		start = i;
		/* s[start] is no blank: a blank found at or before it is old. */
		if (sp <= start)
			sp = proto_next(s, start, len, ' ');
		if (tab <= start)
			tab = proto_next(s, start, len, '\t');
		i = sp < tab ? sp : tab;
		if (req->ntok < PROTO_MAXTOKENS) {
			req->tok[req->ntok].p = s + start;
			req->tok[req->ntok].len = i - start;
		}
		req->ntok++;
	}
}

static const struct proto_cmd *
proto_lookup(const struct proto_token *t)
{
	size_t	i;

	/* The first letter first: most verbs are out at one compare. */
	for (i = 0; i < PROTO__COUNT; i++) {
		if ((proto_cmds[i].name[0] | 0x20) == (t->p[0] | 0x20) &&
		    strlen(proto_cmds[i].name) == t->len &&
		    strncasecmp(proto_cmds[i].name, t->p, t->len) == 0)
			return (&proto_cmds[i]);
	}
	return (NULL);
}

static int
proto_is_http(const struct proto_req *req)
{
	const struct proto_token	*t = &req->tok[0], *last;
	size_t				 i, n;

	if (req->ntok < 2 || req->ntok > PROTO_V1_TOKENS)
		return (0);
	last = &req->tok[req->ntok - 1];
	if (last->len >= 5 && strncasecmp(last->p, "HTTP/", 5) == 0)
		return (1);
	for (i = 0; i < sizeof proto_http_methods /
	    sizeof proto_http_methods[0]; i++) {
		n = strlen(proto_http_methods[i]);
		if (t->len == n && strncasecmp(t->p, proto_http_methods[i],
		    n) == 0)
			return (1);
	}
	return (0);
}

static enum proto_status
proto_unknown(struct proto_req *req)
{
	char	echo[PROTO_ECHO_MAX * 6 + 16], text[sizeof echo + 64];

	if (proto_is_http(req)) {
		proto_error(req->env, req->out, STAT_ERR_SYNTAX, "syntax",
		    "this is sudokud, not an HTTP server");
		return (PROTO_CLOSE);
	}
	proto_echo(&req->tok[0], echo, sizeof echo);
	snprintf(text, sizeof text, "unknown command %s, try HELP", echo);
	proto_error(req->env, req->out, STAT_ERR_SYNTAX, "syntax", text);
	return (PROTO_OK);
}

/* Do tokens from first on hold nothing but puzzle cells? */
static int
proto_all_cells(const struct proto_req *req, int first)
{
	const struct proto_token	*t;
	int				 i;
	size_t				 j;

	if (req->ntok > PROTO_V1_TOKENS)
		return (1);	/* a spaced puzzle, most likely: see below */
	for (i = first; i < req->ntok; i++) {
		t = &req->tok[i];
		for (j = 0; j < t->len; j++) {
			if (!(t->p[j] >= '0' && t->p[j] <= '9') &&
			    t->p[j] != '.')
				return (0);
		}
	}
	return (1);
}

/*
 * Wrong number of arguments.  A puzzle pasted with blanks between its
 * cells (a spaced grid flattened to one line) reads as many arguments:
 * say what was understood and what to send instead.
 */
static enum proto_status
proto_nargs(struct proto_req *req, const struct proto_cmd *cmd, int bare)
{
	char	text[160];

	if (cmd->min_args > 0 && req->ntok > cmd->max_args + 1 &&
	    proto_all_cells(req, !bare)) {
		snprintf(text, sizeof text, "a puzzle is 81 cells with no "
		    "blanks between them, '0' or '.' for blanks; this line "
		    "has %d pieces", req->ntok - 1);
		proto_error(req->env, req->out, STAT_ERR_SYNTAX, "syntax", text);
		return (PROTO_OK);
	}
	snprintf(text, sizeof text, "wrong number of arguments for %s, "
	    "try HELP", cmd->name);
	proto_error(req->env, req->out, STAT_ERR_SYNTAX, "syntax", text);
	return (PROTO_OK);
}

/*
 * The commonest request, SOLVE of 81 cells with no option ("SOLVE
 * <puzzle>" or the puzzle alone), known by its length, its first bytes
 * and its 81 cells read: no blank is a cell, so the tokenizer would cut
 * the line into the same tokens.  They are set without it and without
 * the table's lookup, and the cells read are the puzzle's (req->plain:
 * proto_given() takes req->grid): the usual way took 300 instructions
 * more, of the 2,000 the daemon spent around the search of a 17-clue
 * puzzle (issue 35).  Any other line, a puzzle with a bad byte too, goes
 * the usual way, which answers it as ever; from there both take the
 * same steps to the same handler.
 */
static int
proto_plain(struct proto_req *req, const char *line, size_t len)
{
	static const char	 verb[] = "SOLVE ";
	const size_t		 vlen = sizeof verb - 1;
	const char		*p = line;

	if (len == vlen + SUDOKU_CELLS && (memcmp(line, verb, vlen) == 0 ||
	    strncasecmp(line, verb, vlen) == 0))
		p = line + vlen;
	else if (len != SUDOKU_CELLS)
		return (0);
	if (sudoku_parse_cells(p, SUDOKU_CELLS, &req->grid, NULL) != 0)
		return (0);
	req->tok[0].p = line;
	req->tok[0].len = p == line ? len : vlen - 1;
	req->tok[1].p = p;
	req->tok[1].len = SUDOKU_CELLS;
	req->ntok = 2;
	req->plain = 1;
	return (1);
}

/*
 * The verb of a line, its tokens cut (*bare: a puzzle alone, SOLVE's
 * arguments); NULL for a blank line (ntok 0: no reply) or an unknown
 * verb.
 */
static const struct proto_cmd *
proto_verb(struct proto_req *req, const char *line, size_t len, int *bare)
{
	const struct proto_token	*t = &req->tok[0];

	if (proto_plain(req, line, len)) {
		*bare = len == SUDOKU_CELLS;
		return (&proto_cmds[PROTO_SOLVE]);
	}
	proto_tokenize(req, line, len);
	if (req->ntok == 0)
		return (NULL);
	*bare = (t->p[0] >= '0' && t->p[0] <= '9') || t->p[0] == '.';
	if (!*bare)
		return (proto_lookup(t));
	/* A bare puzzle: every token is an argument of SOLVE. */
	memmove(&req->tok[1], &req->tok[0],
	    (PROTO_MAXTOKENS - 1) * sizeof req->tok[0]);
	req->ntok++;
	return (&proto_cmds[PROTO_SOLVE]);
}

/*
 * effort=1: a reply that no job made (a malformed puzzle, a bad
 * argument) ends with guesses=0 us=0 too; a job's reply has its own.
 */
static enum proto_status
proto_effort(struct proto_req *req)
{
	struct evbuffer		*out = req->out;
	enum proto_status	 st;

	if ((req->out = evbuffer_new()) == NULL)
		return (req->cmd->handler(req));
	st = req->cmd->handler(req);
	if (req->worked)
		evbuffer_add_buffer(out, req->out);
	else
		proto_work_effort(out, req->out, req->cmd, 0, 0);
	evbuffer_free(req->out);
	req->out = out;
	return (st);
}

enum proto_status
proto_line(const struct proto_env *env, struct evbuffer *out,
    const char *line, size_t len, uint64_t max_ns, uint64_t *ns,
    struct proto_job **job, struct proto_info *info)
{
	struct proto_req	 req;
	const struct proto_cmd	*cmd;
	int			 bare;

	/* Not a memset: the tokens are the most of it, and set as found. */
	req.env = env;
	req.out = out;
	req.cmd = NULL;
	req.worked = 0;
	req.plain = 0;
	req.clock = 0;
	req.max_ns = max_ns;
	req.ns = ns;
	req.job = job;
	*ns = 0;
	req.info = info;
	if (info != NULL) {
		req.clock = info->clock;
		info->clock = 0;
		info->verb = PROTO_NOVERB;
		info->guesses = 0;
		info->auth_failed = info->secret = 0;
		/* Until its handler runs; a long line takes its time to read. */
		info->instant = len <= PROTO_INSTANT_LEN;
	}
	if ((cmd = proto_verb(&req, line, len, &bare)) == NULL)
		return (req.ntok == 0 ? PROTO_OK : proto_unknown(&req));

	req.cmd = cmd;
	req.verb = (int)(cmd - proto_cmds);
	if (info != NULL)
		info->verb = req.verb;
	stats_add(env->st, cmd->stat, 1);
	if (env->cf->auth != NULL && !(cmd->flags & PROTO_CMD_OPEN) &&
	    (info == NULL || !info->authed)) {
		proto_error(env, out, STAT_ERR_NOAUTH, "noauth",
		    "authentication required: AUTH <secret> first");
		return (PROTO_OK);
	}
	if (proto_opts_take(&req) != 0)
		return (PROTO_OK);
	if (req.ntok - 1 < cmd->min_args || req.ntok - 1 > cmd->max_args)
		return (proto_nargs(&req, cmd, bare));
	if (info != NULL)
		info->instant = (cmd->flags & PROTO_CMD_INSTANT) != 0 &&
		    len <= PROTO_INSTANT_LEN;
	if (req.opts.effort)
		return (proto_effort(&req));
	return (cmd->handler(&req));
}

void
proto_toolong(const struct proto_env *env, struct evbuffer *out,
    size_t max)
{
	stats_add(env->st, STAT_TOOLONG_LINES, 1);
	stats_add(env->st, STAT_ERR_TOOLONG, 1);
	evbuffer_add_printf(out, "ERR toolong request line longer than %zu "
	    "bytes\n", max);
}

enum proto_status
proto_first(const struct proto_env *env, struct evbuffer *out,
    const char *p, size_t len, int eof)
{
	/* A TLS record starts 0x16 (handshake): no request ever does. */
	if (len >= 1 && (unsigned char)p[0] == 0x16) {
		stats_add(env->st, STAT_ERR_SYNTAX, 1);
		evbuffer_add_printf(out, "ERR syntax this is sudokud, a plain "
		    "text line protocol, not a TLS server\n");
		return (PROTO_CLOSE);
	}
	/*
	 * A load balancer's PROXY header on a listener not configured for
	 * one (tcp_proxy), however it is split across reads: while the
	 * bytes could still begin one ("P" may be a PING, "\r\n" an empty
	 * line), wait; once its signature is whole, refuse it.
	 */
	if (!proxy_looks_like((const uint8_t *)p, len))
		return (PROTO_OK);
	if ((p[0] == 'P' && len >= 6) || (p[0] == '\r' && len >= 12)) {
		stats_add(env->st, STAT_ERR_SYNTAX, 1);
		stats_add(env->st, STAT_PROXY_ERRORS, 1);
		evbuffer_add_printf(out, "ERR syntax a PROXY protocol header, "
		    "but this listener is not tcp_proxy\n");
		return (PROTO_CLOSE);
	}
	return (eof ? PROTO_OK : PROTO_MORE);
}
