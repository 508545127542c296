/* SPDX-License-Identifier: ISC */
/*
 * proto.c -- the request table of doc/protocol.md: tokens, dispatch,
 * errors, HELP and the verbs that need no solver and say nothing of the
 * server (proto_admin.c has HELLO, STATS, SLOWLOG and CLIENT LIST;
 * proto_solve.c, proto_logic.c and proto_tools.c the verbs that solve,
 * which proto_work.c runs).
 */
#include <sys/types.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <event2/buffer.h>

#include "autoconf.h"	/* PACKAGE_VERSION, from configure */

#include "common/echo.h"
#include "core/sudoku.h"
#include "config.h"
#include "proto.h"
#include "proto_int.h"
#include "proxy.h"
#include "stats.h"


/* Bytes of a request echoed in error text before it is cut short. */
#define PROTO_ECHO_MAX		32

static enum proto_status proto_ping(struct proto_req *);
static enum proto_status proto_version(struct proto_req *);
static enum proto_status proto_help(struct proto_req *);
static enum proto_status proto_quit(struct proto_req *);

/*
 * Every request, in the order HELP lists them.  A bare puzzle is
 * PROTO_SOLVE.  usage and help are the two columns of HELP, which
 * doc/protocol.md and sudokud(8) quote (tests/lint/help.py checks);
 * HELLO's verbs= lists the names.  A verb that solves names the reply
 * its job makes when it is over, and the options it takes.
 */
const struct proto_cmd proto_cmds[PROTO__COUNT] = {
	[PROTO_SOLVE] = { .name = "SOLVE", .args = "puzzle",
	    .usage = "SOLVE <puzzle>",
	    .help = "any solution", .handler = proto_solve_any,
	    .reply = proto_solve_found, .min_args = 1, .max_args = 1,
	    .opts = PROTO_OPT_SOLVER, .stat = STAT_CMD_SOLVE },
	[PROTO_LEXMIN] = { .name = "LEXMIN", .args = "puzzle",
	    .usage = "LEXMIN <puzzle>",
	    .help = "the lexicographically smallest solution",
	    .handler = proto_solve_lexmin, .reply = proto_solve_found,
	    .min_args = 1, .max_args = 1, .opts = PROTO_OPT_SOLVER,
	    .stat = STAT_CMD_LEXMIN },
	[PROTO_COUNT] = { .name = "COUNT", .args = "puzzle limit",
	    .usage = "COUNT <puzzle> [<limit>]",
	    .help = "number of solutions, up to limit (default 2)",
	    .handler = proto_solve_count, .reply = proto_solve_counted,
	    .min_args = 1, .max_args = 2, .opts = PROTO_OPT_SOLVER,
	    .stat = STAT_CMD_COUNT },
	[PROTO_SOLUTIONS] = { .name = "SOLUTIONS",
.args = "puzzle n",
	    	    .usage = "SOLUTIONS <puzzle> <n>",
	    .help = "up to n solutions, smallest first, a line each",
	    .handler = proto_solve_solutions, .reply = proto_solve_listed,
	    .min_args = 2, .max_args = 2, .opts = PROTO_OPT_SOLVER,
	    .stat = STAT_CMD_SOLUTIONS },
	[PROTO_ANALYZE] = { .name = "ANALYZE", .args = "puzzle",
	    .usage = "ANALYZE <puzzle>",
	    .help = "solutions, clues, effort and rating, in one line",
	    .handler = proto_logic_analyze, .reply = proto_logic_analyzed,
	    .min_args = 1, .max_args = 1, .opts = PROTO_OPT_SOLVER,
	    .flags = PROTO_CMD_GUESSES, .stat = STAT_CMD_ANALYZE },
	[PROTO_RATE] = { .name = "RATE", .args = "puzzle",
	    .usage = "RATE <puzzle>",
	    .help = "difficulty: level, score, hardest technique",
	    .handler = proto_logic_rate, .reply = proto_logic_rated,
	    .min_args = 1, .max_args = 1, .opts = PROTO_OPT_SOLVER,
	    .stat = STAT_CMD_RATE },
	[PROTO_HINT] = { .name = "HINT", .args = "puzzle grid",
	    .usage = "HINT <puzzle> [<grid>]",
	    .help = "the next logical step from the grid so far",
	    .handler = proto_logic_hint, .reply = proto_logic_hinted,
	    .min_args = 1, .max_args = 2, .opts = PROTO_OPT_SOLVER,
	    .stat = STAT_CMD_HINT },
	[PROTO_GENERATE] = { .name = "GENERATE",
.args = "level seed",
	    	    .usage = "GENERATE [<level>] [<seed>]",
	    .help = "a new puzzle of that level (default medium)",
	    .handler = proto_logic_generate, .reply = proto_logic_generated,
	    .min_args = 0, .max_args = 2,
	    .opts = PROTO_OPT_SOLVER | PROTO_OPT_INFO | PROTO_OPT_SHAPE,
	    .stat = STAT_CMD_GENERATE },
	[PROTO_CANON] = { .name = "CANON", .args = "puzzle",
	    .usage = "CANON <puzzle>",
	    .help = "canonical (minlex) form, then its automorphisms",
	    .handler = proto_tools_canon, .min_args = 1, .max_args = 1,
	    .stat = STAT_CMD_CANON },
	[PROTO_SHUFFLE] = { .name = "SHUFFLE",
.args = "puzzle seed",
	    	    .usage = "SHUFFLE <puzzle> [<seed>]",
	    .help = "an equivalent puzzle, the same for a seed",
	    .handler = proto_tools_shuffle, .min_args = 1, .max_args = 2,
	    .opts = PROTO_OPT_INFO, .stat = STAT_CMD_SHUFFLE },
	[PROTO_MINIMIZE] = { .name = "MINIMIZE",
.args = "puzzle seed",
	    	    .usage = "MINIMIZE <puzzle> [<seed>]",
	    .help = "givens removed until none can be",
	    .handler = proto_tools_minimize, .reply = proto_tools_reduced,
	    .min_args = 1, .max_args = 2,
	    .opts = PROTO_OPT_SOLVER | PROTO_OPT_INFO,
	    .stat = STAT_CMD_MINIMIZE },
	[PROTO_CONSTRAIN] = { .name = "CONSTRAIN",
.args = "puzzle seed",
	    	    .usage = "CONSTRAIN <puzzle> [<seed>]",
	    .help = "givens added until one solution is left",
	    .handler = proto_tools_constrain, .reply = proto_tools_reduced,
	    .min_args = 1, .max_args = 2,
	    .opts = PROTO_OPT_SOLVER | PROTO_OPT_INFO,
	    .stat = STAT_CMD_CONSTRAIN },
	[PROTO_PATH] = { .name = "PATH", .args = "puzzle grid",
	    .usage = "PATH <puzzle> [<grid>]",
	    .help = "the whole logical solution, a step a line",
	    .handler = proto_tools_path, .reply = proto_tools_pathed,
	    .min_args = 1, .max_args = 2,
	    .opts = PROTO_OPT_BUDGET | PROTO_OPT_DEADLINE,
	    .stat = STAT_CMD_PATH },
	[PROTO_HELLO] = { .name = "HELLO", .args = "",
	    .usage = "HELLO",
	    .help = "server, protocol, verbs and limits, as key=value",
	    .handler = proto_admin_hello,
	    .flags = PROTO_CMD_INSTANT | PROTO_CMD_OPEN,
	    .stat = STAT_CMD_HELLO },
	[PROTO_AUTH] = { .name = "AUTH", .usage = "AUTH <secret>",
	    .help = "authenticate with the server's secret (auth_file)",
	    .handler = proto_admin_auth, .min_args = 1, .max_args = 1,
	    .flags = PROTO_CMD_INSTANT | PROTO_CMD_OPEN,
	    .stat = STAT_CMD_AUTH },
	[PROTO_PING] = { .name = "PING", .args = "",
	    .usage = "PING",
	    .help = "reply PONG", .handler = proto_ping,
	    .flags = PROTO_CMD_INSTANT | PROTO_CMD_V1ARGS | PROTO_CMD_OPEN,
	    .stat = STAT_CMD_PING },
	[PROTO_VERSION] = { .name = "VERSION", .args = "",
	    .usage = "VERSION",
	    .help = "server version", .handler = proto_version,
	    .flags = PROTO_CMD_INSTANT | PROTO_CMD_V1ARGS,
	    .stat = STAT_CMD_VERSION },
	[PROTO_STATS] = { .name = "STATS", .args = "",
	    .usage = "STATS",
	    .help = "server statistics", .handler = proto_admin_stats,
	    .flags = PROTO_CMD_V1ARGS, .stat = STAT_CMD_STATS },
	[PROTO_SLOWLOG] = { .name = "SLOWLOG",
.args = "action=GET n",
	    	    .usage = "SLOWLOG GET [<n>]|LEN|RESET",
	    .help = "the slowest requests, newest first",
	    .handler = proto_admin_slowlog, .min_args = 1, .max_args = 2,
	    .stat = STAT_CMD_SLOWLOG },
	[PROTO_CLIENT] = { .name = "CLIENT", .args = "action=LIST",
	    .usage = "CLIENT LIST",
	    .help = "one line per open connection",
	    .handler = proto_admin_client, .min_args = 1, .max_args = 1,
	    .stat = STAT_CMD_CLIENT },
	[PROTO_HELP] = { .name = "HELP", .args = "",
	    .usage = "HELP",
	    .help = "this text", .handler = proto_help,
	    .flags = PROTO_CMD_INSTANT | PROTO_CMD_V1ARGS,
	    .stat = STAT_CMD_HELP },
	[PROTO_QUIT] = { .name = "QUIT", .usage = "QUIT",
	    .help = "close the connection", .handler = proto_quit,
	    .flags = PROTO_CMD_INSTANT | PROTO_CMD_V1ARGS | PROTO_CMD_OPEN,
	    .stat = STAT_CMD_QUIT },
};

/* HELP: what a puzzle is first, then one line per request. */
static const char proto_help_head[] =
    "Send one request per line; verbs may be in any case.\n"
    "A puzzle is 81 cells on one line, row by row: '1'-'9' for givens,\n"
    "'0' or '.' for blanks.  A puzzle alone is solved, e.g.\n"
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28...."
    "419..5....8..79\n"
    "SOLVE, LEXMIN, COUNT, SOLUTIONS and ANALYZE also take pencil marks:\n"
    "729 characters, 9 a cell, the digit while it is a candidate, else '.'.\n"
    "Requests:\n"
    "  <puzzle>                    any solution (the same as SOLVE)\n";

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

/*
 * Request bytes for error text, the protocol's way (common/echo.h):
 * 'FOO', 0x00 or 'GE' 0xc3 0xa9 'T'.
 */
void
proto_echo(const struct proto_token *t, char *buf, size_t size)
{
	echo_bytes(t->p, t->len, PROTO_ECHO_MAX, buf, size);
}

void
proto_error(const struct proto_env *env, struct evbuffer *out,
    enum stat_id stat, const char *code, const char *text)
{
	stats_add(env->st, stat, 1);
	evbuffer_add_printf(out, "ERR %s %s\n", code, text);
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

static const char *const proto_names[PROTO__COUNT] = {
	[PROTO_SOLVE] = "solve", [PROTO_LEXMIN] = "lexmin",
	[PROTO_COUNT] = "count", [PROTO_SOLUTIONS] = "solutions",
	[PROTO_ANALYZE] = "analyze",
	[PROTO_RATE] = "rate", [PROTO_HINT] = "hint",
	[PROTO_GENERATE] = "generate", [PROTO_CANON] = "canon",
	[PROTO_SHUFFLE] = "shuffle", [PROTO_MINIMIZE] = "minimize",
	[PROTO_CONSTRAIN] = "constrain", [PROTO_PATH] = "path",
	[PROTO_HELLO] = "hello", [PROTO_AUTH] = "auth",
	[PROTO_PING] = "ping", [PROTO_VERSION] = "version",
	[PROTO_STATS] = "stats", [PROTO_SLOWLOG] = "slowlog",
	[PROTO_CLIENT] = "client", [PROTO_HELP] = "help", [PROTO_QUIT] = "quit"
};
_Static_assert(PROTO__COUNT <= LATENCY_VERBS, "a histogram for each verb");

const char *const *
proto_verbs(size_t *n)
{
	*n = PROTO__COUNT;
	return (proto_names);
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
	req.max_ns = max_ns;
	req.ns = ns;
	req.job = job;
	*ns = 0;
	req.info = info;
	if (info != NULL) {
		info->verb = PROTO_NOVERB;
		info->guesses = 0;
		info->auth_failed = info->secret = 0;
		/* Until its handler runs; a long line takes its time to read. */
		info->instant = len <= PROTO_INSTANT_LEN;
	}
	proto_tokenize(&req, line, len);
	if (req.ntok == 0)
		return (PROTO_OK);		/* blank line: no reply */

	bare = (req.tok[0].p[0] >= '0' && req.tok[0].p[0] <= '9') ||
	    req.tok[0].p[0] == '.';
	if (bare) {
		/* A bare puzzle: every token is an argument of SOLVE. */
		cmd = &proto_cmds[PROTO_SOLVE];
		memmove(&req.tok[1], &req.tok[0],
		    (PROTO_MAXTOKENS - 1) * sizeof req.tok[0]);
		req.ntok++;
	} else if ((cmd = proto_lookup(&req.tok[0])) == NULL)
		return (proto_unknown(&req));

	req.cmd = cmd;
	if (info != NULL)
		info->verb = (int)(cmd - proto_cmds);
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

static enum proto_status
proto_ping(struct proto_req *req)
{
	evbuffer_add(req->out, "PONG\n", 5);
	return (PROTO_OK);
}

static enum proto_status
proto_version(struct proto_req *req)
{
	evbuffer_add(req->out, "VERSION " PACKAGE_VERSION "\n",
	    sizeof("VERSION " PACKAGE_VERSION "\n") - 1);
	return (PROTO_OK);
}

static enum proto_status
proto_help(struct proto_req *req)
{
	size_t	i;

	evbuffer_add(req->out, proto_help_head, sizeof proto_help_head - 1);
	for (i = 0; i < PROTO__COUNT; i++)
		evbuffer_add_printf(req->out, "  %-27s %s\n",
		    proto_cmds[i].usage, proto_cmds[i].help);
	proto_opts_help(req->out);
	evbuffer_add(req->out, "END\n", 4);
	return (PROTO_OK);
}

static enum proto_status
proto_quit(struct proto_req *req)
{
	evbuffer_add(req->out, "BYE\n", 4);
	return (PROTO_CLOSE);
}
