/* SPDX-License-Identifier: ISC */
/*
 * options.c -- sudokuc's command line: options, commands, usage.
 *
 * One table of options makes getopt_long(3)'s tables and --help; each
 * option says which commands take it.  The global options come before
 * the command word, or after it among the command's own (generate -n,
 * -l, --seed and its shape; --seed of shuffle, minimize and constrain),
 * so that "sudokuc -L rate f" and "sudokuc rate -L f" are the same.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/defaults.h"
#include "common/log.h"
#include "common/usage.h"
#include "common/xmalloc.h"
#include "batch.h"
#include "local.h"
#include "options.h"
#include "output.h"
#include "servers.h"

/* Which commands take an option. */
#define C_SOLVE		(1 << CMD_SOLVE)
#define C_GEN		(1 << CMD_GENERATE)
#define C_SEEDED	(C_GEN | (1 << CMD_SHUFFLE) | (1 << CMD_MINIMIZE) | \
			 (1 << CMD_CONSTRAIN))
#define C_NUMBERED	(C_GEN | (1 << CMD_SOLUTIONS))
#define C_ALL		((1 << CMD__COUNT) - 1)

/* getopt's values of the options with no short form: OPT_LONG + index. */
#define OPT_LONG	256

/* Every option: getopt_long(3) and --help are made from this table. */
static const struct opt {
	const char	*name;
	int		 has_arg;	/* of the long option */
	const char	*spec;		/* the short one, as getopt(3) has it */
	int		 cmds;		/* C_* */
	const char	*arg;		/* its argument, for --help */
	const char	*help;
} opts[] = {
	{ "auth-file", required_argument, NULL, C_ALL, "=FILE",
	  "send AUTH with the secret of FILE's first line first" },
	{ "budget", required_argument, "b:", C_ALL, "=N",
	  "at most N guesses per puzzle (-L: default "
	  DEFAULTS_STRING(SUDOKU_BUDGET_SERVICE) ")" },
	{ "ca", required_argument, NULL, C_ALL, "=FILE",
	  "TLS: verify servers against the CAs of FILE" },
	{ "cert", required_argument, NULL, C_ALL, "=FILE",
	  "TLS: the client certificate of FILE (with --key)" },
	{ "connections", required_argument, "C:", C_ALL, "=N",
	  "N connections, one a server at least (default "
	  DEFAULTS_STRING(BATCH_CONN_DEFAULT) ")" },
	{ "count", optional_argument, "c::", C_SOLVE, "[=LIMIT]",
	  "count solutions, up to LIMIT (default "
	  DEFAULTS_STRING(SUDOKUC_COUNT_DEFAULT) ")" },
	{ "deadline", required_argument, "D:", C_ALL, "=MS",
	  "ERR deadline for a puzzle not done in MS ms" },
	{ "errors", optional_argument, "e", C_ALL, "[=WHERE]",
	  "error answers on stderr, or stdout (the default)" },
	{ "format", required_argument, "f:", C_ALL, "=FORMAT",
	  "print solutions as line, grid, spaced or pretty" },
	{ "help", no_argument, "h", C_ALL, "", "print this help and exit" },
	{ "host", required_argument, "H:", C_ALL, "=HOST[:PORT]",
	  "a TCP server (port " SUDOKUD_PORT_DEFAULT "; tls:// for TLS); may "
	  "repeat" },
	{ "jobs", required_argument, "j:", C_ALL, "=N",
	  "-L: solve in N threads (default 1)" },
	{ "key", required_argument, NULL, C_ALL, "=FILE",
	  "TLS: the key of the client certificate" },
	{ "local", no_argument, "L", C_ALL, "",
	  "solve in-process, without a daemon" },
	{ "lexmin", no_argument, "l", C_SOLVE, "",
	  "the lexicographically smallest solution" },
	{ "level", required_argument, "l:", C_GEN, "=LEVEL",
	  "easy, medium (the default), hard, expert or extreme" },
	{ "number", required_argument, "n:", C_NUMBERED, "=N",
	  "N puzzles (default 1), or at most N solutions ("
	  DEFAULTS_STRING(SUDOKUC_SOLUTIONS_DEFAULT) ")" },
	{ "port", required_argument, "p:", C_ALL, "=PORT",
	  "connect over TCP to PORT (on 127.0.0.1 without -H)" },
	{ "quiet", no_argument, "q", C_ALL, "",
	  "no progress line, no notes about error answers" },
	{ "seed", required_argument, NULL, C_SEEDED, "=S",
	  "seeds S, S+1, ... in turn (default: random)" },
	{ "symmetry", required_argument, NULL, C_GEN, "=S",
	  "givens symmetric under S: rot180, rot90, mirror, ..." },
	{ "clues", required_argument, NULL, C_GEN, "=LO-HI",
	  "between LO and HI givens (or exactly N)" },
	{ "pattern", required_argument, NULL, C_GEN, "=P",
	  "givens exactly at the x of P, 81 cells of x and ." },
	{ "socket", required_argument, "s:", C_ALL, "=PATH",
	  "a server on the Unix socket PATH; may repeat" },
	{ "timeout", required_argument, "t:", C_ALL, "=SECONDS",
	  "give up on a server silent that long (default "
	  DEFAULTS_STRING(BATCH_TIMEOUT_DEFAULT) ")" },
	{ "tls", no_argument, NULL, C_ALL, "",
	  "TLS to every server over TCP, verified" },
	{ "version", no_argument, "V", C_ALL, "", "print the version and exit" },
	{ "verbose", no_argument, "v", C_ALL, "",
	  "report resends, and a summary at the end, on stderr" },
	{ "window", required_argument, "w:", C_ALL, "=N",
	  "at most N requests in flight (default "
	  DEFAULTS_STRING(SUDOKUC_WINDOW_DEFAULT) ")" },
};
#define NOPTS	(sizeof opts / sizeof opts[0])

/* The command words, and the mode each asks for. */
static const struct {
	const char	*name;
	enum mode	 mode;
} commands[CMD__COUNT] = {
	[CMD_SOLVE] = { NULL, MODE_SOLVE },
	[CMD_RATE] = { "rate", MODE_RATE },
	[CMD_HINT] = { "hint", MODE_HINT },
	[CMD_GENERATE] = { "generate", MODE_GENERATE },
	[CMD_ANALYZE] = { "analyze", MODE_ANALYZE },
	[CMD_CANON] = { "canon", MODE_CANON },
	[CMD_SHUFFLE] = { "shuffle", MODE_SHUFFLE },
	[CMD_MINIMIZE] = { "minimize", MODE_MINIMIZE },
	[CMD_CONSTRAIN] = { "constrain", MODE_CONSTRAIN },
	[CMD_PATH] = { "path", MODE_PATH },
	[CMD_SOLUTIONS] = { "solutions", MODE_SOLUTIONS }
};

static const char *formats[] = {
	[FORMAT_LINE] = "line",
	[FORMAT_GRID] = "grid",
	[FORMAT_SPACED] = "spaced",
	[FORMAT_PRETTY] = "pretty"
};

static const char usage_text[] =
    "usage: sudokuc [-ehLlqVv] [-b budget] [-C connections] [-c [limit]]\n"
    "               [-D deadline] [-f format] [-H host[:port]] [-j threads]\n"
    "               [-p port] [-s socket] [-t timeout] [-w window]\n"
    "               [--auth-file file] [--ca file] [--cert file --key file]\n"
    "               [--tls]\n"
    "               [puzzle | file | - | ping | stats | version] ...\n"
    "       sudokuc [options] analyze [puzzle | file | -] ...\n"
    "       sudokuc [options] rate [puzzle | file | -] ...\n"
    "       sudokuc [options] hint [puzzle | file | -] [grid]\n"
    "       sudokuc [options] canon [puzzle | file | -] ...\n"
    "       sudokuc [options] path [puzzle | file | -] ...\n"
    "       sudokuc [options] solutions [-n number] [puzzle | file | -] ...\n"
    "       sudokuc [options] shuffle [--seed seed] [puzzle | file | -] ...\n"
    "       sudokuc [options] minimize [--seed seed] [puzzle | file | -] ...\n"
    "       sudokuc [options] constrain [--seed seed] [puzzle | file | -] "
    "...\n"
    "       sudokuc [options] generate [-n number] [-l level] "
    "[--seed seed]\n"
    "                [--symmetry symmetry] [--clues lo-hi] "
    "[--pattern pattern]\n";

const char *
options_command_name(enum command cmd)
{
	return (cmd > CMD_SOLVE && cmd < CMD__COUNT ? commands[cmd].name :
	    "solve");
}

void
options_usage(void)
{
	usage_exit(usage_text);
}

/* One line of --help for opts[i]. */
static void
help_line(size_t i)
{
	char	left[40];

	if (opts[i].spec != NULL)
		snprintf(left, sizeof left, "-%c, --%s%s", opts[i].spec[0],
		    opts[i].name, opts[i].arg);
	else
		snprintf(left, sizeof left, "    --%s%s", opts[i].name,
		    opts[i].arg);
	printf("  %-24s %s\n", left, opts[i].help);
}

/* --help: the usage, then every option on a line, like redis-cli. */
static void __attribute__((noreturn))
help(void)
{
	size_t	i;

	printf("%s\nSolve Sudoku puzzles with sudokud, or in-process with "
	    "-L; one answer per\npuzzle on standard output, in input order, "
	    "an ERR line for an error.\nanalyze: solutions, clues, effort "
	    "and rating; rate: their difficulty;\nhint: the next logical step; "
	    "path: every step; solutions: the first N,\nsmallest first; "
	    "generate: new puzzles; canon: the canonical form;\nshuffle: an "
	    "equivalent; minimize, constrain: givens removed, added.\n\n",
	    usage_text);
	for (i = 0; i < NOPTS; i++)
		if (opts[i].cmds & C_SOLVE)
			help_line(i);
	printf("\nOptions of generate (-n also of solutions; --seed also of "
	    "shuffle,\nminimize, constrain):\n");
	for (i = 0; i < NOPTS; i++)
		if (!(opts[i].cmds & C_SOLVE))
			help_line(i);
	printf("\nOperands: puzzle text (a line of 81 cells, or a grid), "
	    "a file, - for\nstandard input, ping, stats, version; none: "
	    "standard input.\nThe servers are $SUDOKUD_SERVERS, or else "
	    "$SUDOKUD_SOCKET, or else\n" SUDOKUD_SOCKET_PATH ".\nMore in "
	    "sudokuc(1).\n");
	exit(0);
}

/* A decimal number in [min, max]; -1 with *cause if s is not one. */
static int
number(const char *s, unsigned long long min, unsigned long long max,
    const char *what, unsigned long long *n, char **cause)
{
	char	*end;

	errno = 0;
	if (isdigit((unsigned char)*s))
		*n = strtoull(s, &end, 10);
	if (!isdigit((unsigned char)*s) || *end != '\0' || errno != 0 ||
	    *n < min || *n > max) {
		xasprintf(cause, "%s must be a number from %llu to %llu: '%s'",
		    what, min, max, s);
		return (-1);
	}
	return (0);
}

/* An option's number: a usage error unless in [min, max]. */
static unsigned long long
option_number(const char *s, unsigned long long min, unsigned long long max,
    const char *what)
{
	unsigned long long	 n;
	char			*cause;

	if (number(s, min, max, what, &n, &cause) == -1)
		fatalx("%s", cause);
	return (n);
}

static enum format
format_parse(const char *s)
{
	size_t	i;

	for (i = 1; i < sizeof formats / sizeof formats[0]; i++)
		if (strcmp(s, formats[i]) == 0)
			return (i);
	fatalx("unknown format '%s' (line, grid, spaced or pretty)", s);
}

static void
mode_set(struct options *o, enum mode mode)
{
	if (o->query.mode != MODE_SOLVE && o->query.mode != mode)
		fatalx("--count and --lexmin exclude each other");
	o->query.mode = mode;
	o->moded = 1;
}

/* -c takes its limit attached, or as the next argument if it is a number. */
static void
count_parse(struct options *o, int argc, char **argv)
{
	const char	*arg = optarg;

	mode_set(o, MODE_COUNT);
	if (arg == NULL && optind < argc && strlen(argv[optind]) < 10 &&
	    strspn(argv[optind], "0123456789") == strlen(argv[optind]) &&
	    argv[optind][0] != '\0')
		arg = argv[optind++];
	if (arg != NULL)
		o->query.limit = option_number(arg, 1, SUDOKUC_COUNT_MAX,
		    "count limit");
}

static int
errors_parse(const char *s)
{
	if (s == NULL || strcmp(s, "stderr") == 0)
		return (OUTPUT_ERRSTDERR);
	if (strcmp(s, "stdout") == 0)
		return (0);
	fatalx("--errors is stdout or stderr, not '%s'", s);
}

static void
level_option(struct options *o, const char *arg)
{
	if (sudoku_level_parse(arg, strlen(arg), &o->query.level) != 0)
		fatalx("unknown level '%s' (easy, medium, hard, expert or "
		    "extreme)", arg);
}

/* The options of getopt_long(3) for command cmd, from opts[]. */
static const char *
options_table(struct option *lo, enum command cmd, char *short_opts)
{
	char		*p = short_opts;
	size_t		 i, n = 0;

	*p++ = '+';	/* options end at the first operand */
	*p++ = ':';	/* tell a missing argument from an unknown option */
	for (i = 0; i < NOPTS; i++) {
		if (!(opts[i].cmds & (1 << cmd)))
			continue;
		lo[n].name = opts[i].name;
		lo[n].has_arg = opts[i].has_arg;
		lo[n].flag = NULL;
		lo[n++].val = opts[i].spec != NULL ? opts[i].spec[0] :
		    OPT_LONG + (int)i;
		if (opts[i].spec != NULL)
			p = stpcpy(p, opts[i].spec);
	}
	*p = '\0';
	memset(&lo[n], 0, sizeof lo[n]);
	return (short_opts);
}

/* A getopt error, worded as sudokud words it (common/usage.c). */
static void __attribute__((noreturn))
option_error(int ch, char **argv)
{
	usage_option(ch, optopt, argv[optind - 1]);
	options_usage();
}

/* --clues LO-HI or N: 17 to 81, as the daemon takes them. */
static void
clues_option(struct options *o, const char *arg)
{
	unsigned long long	 lo, hi;
	char			*a = xstrdup(arg), *b = strchr(a, '-'), *cause;

	if (b != NULL)
		*b++ = '\0';
	if (number(a, 17, SUDOKU_CELLS, "", &lo, &cause) == -1 || number(b ?
	    b : a, 17, SUDOKU_CELLS, "", &hi, &cause) == -1 || lo > hi)
		fatalx("--clues must be a number from 17 to 81, or LO-HI: '%s'",
		    arg);
	free(a);
	o->query.gen.clues_min = (unsigned int)lo;
	o->query.gen.clues_max = (unsigned int)hi;
	o->query.shaped |= GEN_CLUES;
}

/* An option with no short form: --seed, and generate's shape. */
static void
option_long(struct options *o, const char *name, const char *arg)
{
	struct sudoku_gen_opts	*g = &o->query.gen;

	if (servers_long(o, name, arg) == 0)
		return;
	if (strcmp(name, "seed") == 0) {
		o->seed = option_number(arg, 0, UINT64_MAX, "the seed");
		o->seeded = 1;
	} else if (strcmp(name, "symmetry") == 0) {
		if (sudoku_symmetry_parse(arg, strlen(arg), &g->symmetry) != 0)
			fatalx("unknown symmetry '%s' (none, rot180, rot90, "
			    "mirror, flip, diagonal, antidiagonal or dihedral)",
			    arg);
		o->query.shaped |= GEN_SYMMETRY;
	} else if (strcmp(name, "clues") == 0)
		clues_option(o, arg);
	else if (sudoku_pattern_parse(arg, strlen(arg), g->pattern, NULL) != 0)
		fatalx("--pattern must be 81 cells, 'x' for a given and '.' for "
		    "a blank: '%.100s'", arg);
	else {
		g->use_pattern = 1;
		o->query.shaped |= GEN_PATTERN;
	}
}

/* The options of the command's own; 0, or -1 if ch is none of them. */
static int
option_command(struct options *o, int ch)
{
	if (ch >= OPT_LONG && ch < OPT_LONG + (int)NOPTS) {
		option_long(o, opts[ch - OPT_LONG].name, optarg);
		return (0);
	}
	if (ch == 'n' && o->command == CMD_SOLUTIONS) {
		o->query.limit = option_number(optarg, 1,
		    SUDOKUC_SOLUTIONS_MAX, "the number of solutions");
		return (0);
	}
	if (o->command != CMD_GENERATE)
		return (-1);
	switch (ch) {
	case 'l':
		level_option(o, optarg);
		return (0);
	case 'n':
		o->number = option_number(optarg, 1, OPTIONS_NUMBER_MAX,
		    "the number of puzzles");
		return (0);
	default:
		return (-1);
	}
}

/* The options that set a value; 0, or -1 if ch is none of them. */
static int
option_value(struct options *o, int ch, int argc, char **argv)
{
	switch (ch) {
	case 'b':
		o->query.budget = option_number(optarg, 1,
		    SUDOKU_BUDGET_SERVICE_MAX, "the budget");
		o->query.sendbudget = 1;	/* a daemon's is the most */
		o->budget = 1;
		return (0);
	case 'C':
		o->connections = option_number(optarg, 1, BATCH_CONN_MAX,
		    "connections");
		return (0);
	case 'D':
		o->query.deadline = option_number(optarg, 1,
		    SUDOKUC_DEADLINE_MAX, "the deadline");
		return (0);
	case 'c':
		count_parse(o, argc, argv);
		return (0);
	case 'e':
		o->flags = (o->flags & ~OUTPUT_ERRSTDERR) |
		    errors_parse(optarg);
		o->errorsset = 1;
		return (0);
	case 'f':
		o->format = format_parse(optarg);
		return (0);
	case 'j':
		o->threads = option_number(optarg, 1, LOCAL_THREADS_MAX,
		    "threads");
		return (0);
	case 't':
		o->timeout = option_number(optarg, 1, BATCH_TIMEOUT_MAX,
		    "the timeout");
		return (0);
	case 'w':
		o->window = option_number(optarg, 1, SUDOKUC_WINDOW_MAX,
		    "window");
		return (0);
	default:
		return (-1);
	}
}

/* One option; a usage error exits. */
static void
option_one(struct options *o, int ch, int argc, char **argv)
{
	if (option_command(o, ch) == 0)
		return;
	if (option_value(o, ch, argc, argv) == 0)
		return;
	switch (ch) {
	case 'H':
	case 'p':
	case 's':
		servers_option(o, ch, optarg);
		break;
	case 'h':
		help();
	case 'L':
		o->local = 1;
		break;
	case 'l':
		mode_set(o, MODE_LEXMIN);
		break;
	case 'q':
		o->flags |= OUTPUT_QUIET;
		break;
	case 'V':
		printf("sudokuc %s\n", SUDOKUC_VERSION);
		exit(0);
	case 'v':
		o->flags |= OUTPUT_VERBOSE;
		break;
	default:
		option_error(ch, argv);
	}
}

/* The options of argv from argv[1] on, for cmd; the operands' index. */
static int
options_pass(struct options *o, int argc, char **argv, enum command cmd)
{
	struct option	 lo[NOPTS + 1];
	char		 so[3 + 3 * NOPTS];
	int		 ch;

	options_table(lo, cmd, so);
	opterr = 0;
	optind = 0;		/* start again, from argv[1] */
	while ((ch = getopt_long(argc, argv, so, lo, NULL)) != -1)
		option_one(o, ch, argc, argv);
	return (optind);
}

int
options_parse(struct options *o, int argc, char **argv)
{
	int	first;
	size_t	i;

	first = options_pass(o, argc, argv, CMD_SOLVE);
	if (first == argc)
		return (first);
	for (i = 1; i < CMD__COUNT; i++)
		if (strcmp(argv[first], commands[i].name) == 0)
			break;
	if (i == CMD__COUNT)
		return (first);
	o->command = i;
	o->query.mode = commands[i].mode;
	if (i == CMD_SOLUTIONS)		/* SOLUTIONS' n: -n, else this */
		o->query.limit = SUDOKUC_SOLUTIONS_DEFAULT;
	if (o->moded)
		fatalx("--count and --lexmin are for solving, not with %s",
		    commands[i].name);
	/* The command word is the "program name" of its own options. */
	return (first + options_pass(o, argc - first, argv + first, i));
}

void
options_check(const struct options *o)
{
	struct sudoku_genx	x;

	if (o->local && (o->nspecs > 0 || o->port != NULL ||
	    o->timeout != 0))
		fatalx("-L solves in-process: -s, -H, -p and -t make no sense "
		    "with it");
	if (o->local && (o->tls || o->ca != NULL || o->cert != NULL ||
	    o->key != NULL || o->authfile != NULL))
		fatalx("-L solves in-process: --tls, --ca, --cert, --key and "
		    "--auth-file are for servers");
	if (o->local && o->stats)
		fatalx("stats needs a daemon: not with -L");
	if (!o->local && o->threads != 0)
		fatalx("-j is for -L: the daemon has its own threads");
	if (o->local && o->query.deadline != 0)
		fatalx("-D is for a daemon: -L has no deadline");
	if (!(item_mode(o->query.mode)->flags & MODE_SEARCH) &&
	    (o->budget || o->query.deadline != 0))
		fatalx("-b and -D are for requests that search, not for %s",
		    commands[o->command].name);
	/* Can a puzzle have the shape generate was asked for? */
	if (o->query.shaped != 0 && sudoku_genx_init(&x, 0, o->query.level,
	    o->query.budget, &o->query.gen) != 0)
		fatalx("generate: no puzzle has that shape: %s",
		    sudoku_genx_check(&o->query.gen, o->query.level));
}

void
options_init(struct options *o)
{
	memset(o, 0, sizeof *o);
	o->query.limit = SUDOKUC_COUNT_DEFAULT;
	o->query.budget = SUDOKU_BUDGET_SERVICE;
	o->query.level = SUDOKU_LEVEL_MEDIUM;
	o->window = SUDOKUC_WINDOW_DEFAULT;
	o->number = 1;
}

void
options_free(struct options *o)
{
	size_t	i;

	for (i = 0; i < o->nspecs; i++) {
		free(o->specs[i].path);
		free(o->specs[i].host);
		free(o->specs[i].port);
	}
	free(o->specs);
	free(o->port);
	free(o->ca);
	free(o->cert);
	free(o->key);
	free(o->authfile);
}
