/*
 * proto.c -- the request parser and verb table of doc/protocol.md.
 */
#include <sys/types.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <event2/buffer.h>

#include "autoconf.h"	/* PACKAGE_VERSION, from configure */

#include "config.h"
#include "proto.h"
#include "stats.h"
#include "core/sudoku.h"

/* A verb and up to three arguments, plus one to see "too many". */
#define PROTO_MAXTOKENS		5

/* Bytes of a request echoed in error text before it is cut short. */
#define PROTO_ECHO_MAX		32

struct proto_token {
	const char	*p;
	size_t		 len;
};

/* One request being served. */
struct proto_req {
	const struct proto_env	*env;
	struct evbuffer		*out;
	struct proto_token	 tok[PROTO_MAXTOKENS];
	int			 ntok;		/* tok[0] is the verb */
};

struct proto_cmd {
	const char	*name;
	enum proto_status (*handler)(struct proto_req *);
	int		 min_args;
	int		 max_args;
	enum stat_id	 stat;
};

static enum proto_status proto_solve(struct proto_req *);
static enum proto_status proto_lexmin(struct proto_req *);
static enum proto_status proto_count(struct proto_req *);
static enum proto_status proto_ping(struct proto_req *);
static enum proto_status proto_version(struct proto_req *);
static enum proto_status proto_help(struct proto_req *);
static enum proto_status proto_stats(struct proto_req *);
static enum proto_status proto_quit(struct proto_req *);

static const struct proto_cmd proto_cmds[] = {
	{ "SOLVE",	proto_solve,	1, 1, STAT_CMD_SOLVE },
	{ "LEXMIN",	proto_lexmin,	1, 1, STAT_CMD_LEXMIN },
	{ "COUNT",	proto_count,	1, 2, STAT_CMD_COUNT },
	{ "PING",	proto_ping,	0, 0, STAT_CMD_PING },
	{ "VERSION",	proto_version,	0, 0, STAT_CMD_VERSION },
	{ "HELP",	proto_help,	0, 0, STAT_CMD_HELP },
	{ "STATS",	proto_stats,	0, 0, STAT_CMD_STATS },
	{ "QUIT",	proto_quit,	0, 0, STAT_CMD_QUIT },
};
#define PROTO_NCMDS	(sizeof proto_cmds / sizeof proto_cmds[0])

/* The bare-puzzle form is SOLVE. */
#define PROTO_CMD_SOLVE	(&proto_cmds[0])

/* Word by word as in doc/protocol.md. */
static const char proto_help_text[] =
    "HELP <puzzle>                  solve (same as SOLVE)\n"
    "HELP SOLVE <puzzle>            any solution\n"
    "HELP LEXMIN <puzzle>           the lexicographically smallest solution\n"
    "HELP COUNT <puzzle> [<limit>]  number of solutions, up to limit (default 2)\n"
    "HELP PING                      reply PONG\n"
    "HELP VERSION                   server version\n"
    "HELP STATS                     server statistics\n"
    "HELP HELP                      this text\n"
    "HELP QUIT                      close the connection\n"
    "END\n";

/* First words of HTTP request lines. */
static const char *const proto_http_methods[] = {
	"GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS",
	"TRACE", "PATCH"
};

static int
proto_isblank(unsigned char ch)
{
	return (ch == ' ' || ch == '\t');
}

/*
 * End of the token starting at i: the first blank after it, or len.
 * memchr() scans a word at a time; a puzzle token is 81 bytes, and a
 * byte loop here cost about as much as formatting the reply.
 */
static size_t
proto_token_end(const char *s, size_t i, size_t len)
{
	const char	*sp, *tab;
	size_t		 end;

	sp = memchr(s + i, ' ', len - i);
	end = sp != NULL ? (size_t)(sp - s) : len;
	tab = memchr(s + i, '\t', end - i);
	return (tab != NULL ? (size_t)(tab - s) : end);
}

/* Split into blank-separated tokens; more than PROTO_MAXTOKENS are cut. */
static void
proto_tokenize(struct proto_req *req, const char *s, size_t len)
{
	size_t	i = 0, start;

	req->ntok = 0;
	while (i < len && req->ntok < PROTO_MAXTOKENS) {
		while (i < len && proto_isblank(s[i]))
			i++;
		if (i == len)
			break;
		start = i;
		i = proto_token_end(s, i, len);
		req->tok[req->ntok].p = s + start;
		req->tok[req->ntok].len = i - start;
		req->ntok++;
	}
}

/*
 * Request bytes for error text: runs of printable ASCII in quotes, other
 * bytes as 0xNN, so 'FOO', 0x00 or 'GE' 0xc3 0xa9 'T'.
 */
static void
proto_echo(const struct proto_token *t, char *buf, size_t size)
{
	size_t		 i, n = 0;
	unsigned char	 ch;
	int		 quoted = 0;

	for (i = 0; i < t->len && i < PROTO_ECHO_MAX && n + 12 < size; i++) {
		ch = (unsigned char)t->p[i];
		if (ch >= 0x20 && ch < 0x7f) {
			if (!quoted)
				buf[n++] = i == 0 ? '\'' : ' ';
			if (!quoted && i != 0)
				buf[n++] = '\'';
			quoted = 1;
			buf[n++] = (char)ch;
			continue;
		}
		if (quoted)
			buf[n++] = '\'';
		n += (size_t)snprintf(buf + n, size - n, "%s0x%02x",
		    i == 0 ? "" : " ", ch);
		quoted = 0;
	}
	if (quoted)
		buf[n++] = '\'';
	if (i < t->len)
		n += (size_t)snprintf(buf + n, size - n, "...");
	buf[n] = '\0';
}

static void
proto_error(struct proto_req *req, enum stat_id stat, const char *code,
    const char *text)
{
	stats_add(req->env->st, stat, 1);
	evbuffer_add_printf(req->out, "ERR %s %s\n", code, text);
}

static const struct proto_cmd *
proto_lookup(const struct proto_token *t)
{
	size_t	i;

	for (i = 0; i < PROTO_NCMDS; i++) {
		if (strlen(proto_cmds[i].name) == t->len &&
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

	last = &req->tok[req->ntok - 1];
	if (req->ntok >= 2 && last->len >= 5 &&
	    strncmp(last->p, "HTTP/", 5) == 0)
		return (1);
	for (i = 0; i < sizeof proto_http_methods /
	    sizeof proto_http_methods[0]; i++) {
		n = strlen(proto_http_methods[i]);
		if (req->ntok >= 2 && t->len == n &&
		    memcmp(t->p, proto_http_methods[i], n) == 0)
			return (1);
	}
	return (0);
}

static enum proto_status
proto_unknown(struct proto_req *req)
{
	char	echo[PROTO_ECHO_MAX * 6 + 16], text[sizeof echo + 64];

	if (proto_is_http(req)) {
		proto_error(req, STAT_ERR_SYNTAX, "syntax",
		    "this is sudokud, not an HTTP server");
		return (PROTO_CLOSE);
	}
	proto_echo(&req->tok[0], echo, sizeof echo);
	snprintf(text, sizeof text, "unknown command %s, try HELP", echo);
	proto_error(req, STAT_ERR_SYNTAX, "syntax", text);
	return (PROTO_OK);
}

enum proto_status
proto_line(const struct proto_env *env, struct evbuffer *out,
    const char *line, size_t len)
{
	struct proto_req	 req;
	const struct proto_cmd	*cmd;
	int			 nargs;
	char			 text[64];

	req.env = env;
	req.out = out;
	proto_tokenize(&req, line, len);
	if (req.ntok == 0)
		return (PROTO_OK);		/* blank line: no reply */

	if ((req.tok[0].p[0] >= '0' && req.tok[0].p[0] <= '9') ||
	    req.tok[0].p[0] == '.') {
		/* A bare puzzle: every token is an argument of SOLVE. */
		cmd = PROTO_CMD_SOLVE;
		memmove(&req.tok[1], &req.tok[0],
		    (PROTO_MAXTOKENS - 1) * sizeof req.tok[0]);
		if (req.ntok < PROTO_MAXTOKENS)
			req.ntok++;
	} else if ((cmd = proto_lookup(&req.tok[0])) == NULL)
		return (proto_unknown(&req));

	stats_add(env->st, cmd->stat, 1);
	nargs = req.ntok - 1;
	if (nargs < cmd->min_args || nargs > cmd->max_args) {
		snprintf(text, sizeof text,
		    "wrong number of arguments for %s, try HELP", cmd->name);
		proto_error(&req, STAT_ERR_SYNTAX, "syntax", text);
		return (PROTO_OK);
	}
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

/* Parse the puzzle argument or reply with its error; 0 or -1. */
static int
proto_puzzle(struct proto_req *req, const struct proto_token *t,
    struct sudoku_grid *g)
{
	struct sudoku_perror	 perr;
	char			 text[128];
	const char		*code;
	enum stat_id		 stat;

	if (sudoku_parse(t->p, t->len, g, &perr) == 0)
		return (0);
	switch (perr.kind) {
	case SUDOKU_PERR_LENGTH:
		code = "length";
		stat = STAT_ERR_LENGTH;
		break;
	case SUDOKU_PERR_CHAR:
		code = "char";
		stat = STAT_ERR_CHAR;
		break;
	default:
		code = "conflict";
		stat = STAT_ERR_CONFLICT;
		break;
	}
	sudoku_perror_text(&perr, text, sizeof text);
	proto_error(req, stat, code, text);
	return (-1);
}

static uint64_t
proto_budget(const struct proto_req *req)
{
	if (req->env->cf->budget == 0)
		return (SUDOKU_BUDGET_DEFAULT);
	return (req->env->cf->budget);
}

static uint64_t
proto_nsec(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec);
}

/* Count one solver call: effort, time and outcome. */
static void
proto_account(struct proto_req *req, const struct sudoku_stats *sst,
    uint64_t t0, enum sudoku_result res)
{
	struct stats	*st = req->env->st;

	stats_add(st, STAT_GUESSES, sst->guesses);
	stats_add(st, STAT_SOLVE_USEC, proto_nsec() - t0);
	if (res == SUDOKU_SOLVED)
		stats_add(st, STAT_SOLVED, 1);
	else if (res == SUDOKU_NOSOLUTION)
		stats_add(st, STAT_UNSOLVABLE, 1);
}

static void
proto_failed(struct proto_req *req, enum sudoku_result res)
{
	char	text[80];

	if (res == SUDOKU_NOSOLUTION) {
		proto_error(req, STAT_ERR_NOSOLUTION, "nosolution",
		    "the puzzle has no solution");
		return;
	}
	snprintf(text, sizeof text, "search budget of %llu guesses exceeded",
	    (unsigned long long)proto_budget(req));
	proto_error(req, STAT_ERR_BUDGET, "budget", text);
}

static enum proto_status
proto_solve_policy(struct proto_req *req, enum sudoku_policy policy)
{
	struct sudoku_grid	 g;
	struct sudoku_stats	 sst;
	enum sudoku_result	 res;
	uint64_t		 t0;
	char			 line[SUDOKU_CELLS + 1];

	if (proto_puzzle(req, &req->tok[1], &g) != 0)
		return (PROTO_OK);
	t0 = proto_nsec();
	res = sudoku_solve(&g, policy, proto_budget(req), &g, &sst);
	proto_account(req, &sst, t0, res);
	if (res != SUDOKU_SOLVED) {
		proto_failed(req, res);
		return (PROTO_OK);
	}
	sudoku_format(&g, line);
	line[SUDOKU_CELLS] = '\n';
	evbuffer_add(req->out, line, sizeof line);
	return (PROTO_OK);
}

static enum proto_status
proto_solve(struct proto_req *req)
{
	return (proto_solve_policy(req, SUDOKU_ANY));
}

static enum proto_status
proto_lexmin(struct proto_req *req)
{
	return (proto_solve_policy(req, SUDOKU_LEXMIN));
}

/* A decimal limit from 1 to count_max; 0 if it is not one. */
static unsigned long
proto_limit(const struct proto_req *req, const struct proto_token *t)
{
	unsigned long	 v = 0, max = req->env->cf->count_max;
	size_t		 i;

	if (t->len == 0)
		return (0);
	for (i = 0; i < t->len; i++) {
		if (t->p[i] < '0' || t->p[i] > '9')
			return (0);
		v = v * 10 + (unsigned long)(t->p[i] - '0');
		if (v > max)
			return (0);
	}
	return (v);
}

static enum proto_status
proto_count(struct proto_req *req)
{
	struct sudoku_grid	 g;
	struct sudoku_stats	 sst;
	enum sudoku_result	 res;
	unsigned long		 limit = 2, count = 0;
	uint64_t		 t0;
	char			 text[80];

	if (req->ntok == 3 && (limit = proto_limit(req, &req->tok[2])) == 0) {
		snprintf(text, sizeof text, "COUNT limit must be a number "
		    "from 1 to %lu", req->env->cf->count_max);
		proto_error(req, STAT_ERR_SYNTAX, "syntax", text);
		return (PROTO_OK);
	}
	if (proto_puzzle(req, &req->tok[1], &g) != 0)
		return (PROTO_OK);
	t0 = proto_nsec();
	res = sudoku_count(&g, limit, proto_budget(req), &count, NULL, &sst);
	proto_account(req, &sst, t0, res);
	if (res == SUDOKU_BUDGET) {
		proto_failed(req, res);
		return (PROTO_OK);
	}
	evbuffer_add_printf(req->out, "%lu\n", count);
	return (PROTO_OK);
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
	evbuffer_add(req->out, proto_help_text, sizeof proto_help_text - 1);
	return (PROTO_OK);
}

static enum proto_status
proto_stats(struct proto_req *req)
{
	stats_print(req->env->ss, req->out, PACKAGE_VERSION);
	return (PROTO_OK);
}

static enum proto_status
proto_quit(struct proto_req *req)
{
	evbuffer_add(req->out, "BYE\n", 4);
	return (PROTO_CLOSE);
}
