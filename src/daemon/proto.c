/* SPDX-License-Identifier: ISC */
/*
 * proto.c -- the verb table of doc/protocol.md, proto_cmds[]: every
 * request, its usage, arguments and options, its handler and the reply
 * its job makes.  A verb is a row here.  The handlers are in the files
 * of their kind -- the verbs that solve in proto_solve.c, proto_logic.c
 * and proto_tools.c, SLOWLOG, CLIENT LIST and AUTH in proto_admin.c --
 * and none of them reads the table back (tests/lint/circles.py): the
 * verbs that list it whole are here, HELP, HELLO (verbs=, options=) and
 * STATS (its histograms by verb, proto_verbs()), with PING, VERSION and
 * QUIT, a line each.  proto_line.c looks a request's verb up in it.
 */
#include <sys/types.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <event2/buffer.h>

#include "autoconf.h"	/* PACKAGE_VERSION, from configure */

#include "core/sudoku.h"
#include "config.h"
#include "config_table.h"
#include "proto.h"
#include "proto_int.h"
#include "stats.h"

/* The protocol version HELLO names (doc/protocol.md). */
#define PROTO_WIRE_VERSION	2

static enum proto_status proto_hello(struct proto_req *);
static enum proto_status proto_ping(struct proto_req *);
static enum proto_status proto_version(struct proto_req *);
static enum proto_status proto_stats(struct proto_req *);
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
	[PROTO_SOLUTIONS] = { .name = "SOLUTIONS", .args = "puzzle n",
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
	[PROTO_GENERATE] = { .name = "GENERATE", .args = "level seed",
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
	[PROTO_SHUFFLE] = { .name = "SHUFFLE", .args = "puzzle seed",
	    .usage = "SHUFFLE <puzzle> [<seed>]",
	    .help = "an equivalent puzzle, the same for a seed",
	    .handler = proto_tools_shuffle, .min_args = 1, .max_args = 2,
	    .opts = PROTO_OPT_INFO, .stat = STAT_CMD_SHUFFLE },
	[PROTO_MINIMIZE] = { .name = "MINIMIZE", .args = "puzzle seed",
	    .usage = "MINIMIZE <puzzle> [<seed>]",
	    .help = "givens removed until none can be",
	    .handler = proto_tools_minimize, .reply = proto_tools_reduced,
	    .min_args = 1, .max_args = 2,
	    .opts = PROTO_OPT_SOLVER | PROTO_OPT_INFO,
	    .stat = STAT_CMD_MINIMIZE },
	[PROTO_CONSTRAIN] = { .name = "CONSTRAIN", .args = "puzzle seed",
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
	    .handler = proto_hello,
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
	    .help = "server statistics", .handler = proto_stats,
	    .flags = PROTO_CMD_V1ARGS, .stat = STAT_CMD_STATS },
	[PROTO_SLOWLOG] = { .name = "SLOWLOG", .args = "action=GET n",
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

/* The verbs' names in lower case, proto_verbs(): the histograms'. */
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

/*
 * HELLO's http=: the HTTP listeners (doc/http.md) as URLs, for a client
 * of the line protocol to find the API; "none" if there is none.
 */
static void
hello_http(const struct config *cf, struct evbuffer *out)
{
	const struct listen_spec	*l;
	size_t				 i, n = 0;

	for (i = 0; i < cf->nlisten; i++) {
		l = &cf->listen[i];
		if (!config_spec_http(l))
			continue;
		if (n++ > 0)
			evbuffer_add(out, ",", 1);
		if (l->type == LISTEN_UNIX)
			evbuffer_add_printf(out, "unix:%s", l->path);
		else
			evbuffer_add_printf(out, strchr(l->host, ':') != NULL ?
			    "%s://[%s]:%s" : "%s://%s:%s", l->kind ==
			    LISTEN_HTTPS || l->kind == LISTEN_HTTPS_PROXIED ?
			    "https" : "http", l->host, l->port);
	}
	if (n == 0)
		evbuffer_add(out, "none", 4);
}

/*
 * HELLO: who answers and what a client must respect, from the tables:
 * the verbs of HELP, the options, the levels and symmetries GENERATE
 * takes (the core's names), and the configuration's limits that are
 * marked for clients (CONFIG_HELLO), as the file would give them.
 */
static enum proto_status
proto_hello(struct proto_req *req)
{
	const struct config_key	*k;
	unsigned int		 opts = 0;
	char			 buf[128];
	size_t			 i;

	evbuffer_add_printf(req->out, "HELLO server=sudokud version=%s "
	    "proto=%d verbs=", PACKAGE_VERSION, PROTO_WIRE_VERSION);
	for (i = 0; i < PROTO__COUNT; i++) {
		evbuffer_add_printf(req->out, "%s%s", i == 0 ? "" : ",",
		    proto_cmds[i].name);
		opts |= proto_cmds[i].opts;
	}
	proto_opts_names(opts, buf, sizeof buf);
	evbuffer_add_printf(req->out, " options=%s levels=", buf);
	for (i = 0; i < SUDOKU_LEVEL_COUNT; i++)
		evbuffer_add_printf(req->out, "%s%s", i == 0 ? "" : ",",
		    sudoku_level_name((enum sudoku_level)i));
	evbuffer_add(req->out, " symmetries=", 12);
	for (i = 0; i < SUDOKU_SYM_COUNT; i++)
		evbuffer_add_printf(req->out, "%s%s", i == 0 ? "" : ",",
		    sudoku_symmetry_name((enum sudoku_symmetry)i));
	for (i = 0; i < config_table_size; i++) {
		k = &config_table[i];
		if (!(k->flags & CONFIG_HELLO))
			continue;
		config_table_format(req->env->cf, k, buf, sizeof buf);
		evbuffer_add_printf(req->out, " %s=%s", k->name, buf);
	}
	evbuffer_add(req->out, " http=", 6);
	hello_http(req->env->cf, req->out);
	evbuffer_add_printf(req->out, " auth=%s\n", req->env->cf->auth !=
	    NULL ? "required" : "none");
	return (PROTO_OK);
}

/* STATS: every thread's counters, and the histograms by verb. */
static enum proto_status
proto_stats(struct proto_req *req)
{
	size_t			 n;
	const char *const	*verbs = proto_verbs(&n);

	stats_print(req->env->ss, req->out, PACKAGE_VERSION, verbs, n);
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
