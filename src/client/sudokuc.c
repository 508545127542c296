/*
 * sudokuc.c -- the sudokud client: options, operands, and the run.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "batch.h"
#include "input.h"
#include "local.h"
#include "output.h"

#ifndef SUDOKUD_SOCKET_PATH
#define SUDOKUD_SOCKET_PATH	"/run/sudokud.sock"
#endif


struct options {
	struct query	 query;
	enum format	 format;
	int		 flags;
	int		 local;
	int		 budget;	/* -b was given */
	unsigned int	 threads;	/* -j, or 0 */
	const char	*socket;
	char		*host;		/* -H */
	char		*port;		/* -p, or the port of -H */
	size_t		 window;
	size_t		 connections;
	int		 stats;		/* a stats operand was given */
};

/* Every option: getopt_long(3) and --help are made from this table. */
static const struct opt {
	const char	*name;
	int		 has_arg;	/* of the long option */
	const char	*spec;		/* the short one, as getopt(3) has it */
	const char	*arg;		/* its argument, for --help */
	const char	*help;
} opts[] = {
	{ "budget", required_argument, "b:", "=N",
	  "-L: at most N guesses per puzzle (default "
	  DEFAULTS_STRING(SUDOKU_BUDGET_SERVICE) ")" },
	{ "connections", required_argument, "C:", "=N",
	  "spread puzzles over N connections (default "
	  DEFAULTS_STRING(BATCH_CONN_DEFAULT) ")" },
	{ "count", optional_argument, "c::", "[=LIMIT]",
	  "count solutions, up to LIMIT (default "
	  DEFAULTS_STRING(SUDOKUC_COUNT_DEFAULT) ")" },
	{ "errors", optional_argument, "e", "[=WHERE]",
	  "error answers on stderr, or stdout (the default)" },
	{ "format", required_argument, "f:", "=FORMAT",
	  "print solutions as line, grid, spaced or pretty" },
	{ "help", no_argument, "h", "", "print this help and exit" },
	{ "host", required_argument, "H:", "=HOST[:PORT]",
	  "connect over TCP (port " SUDOKUD_PORT_DEFAULT " by default)" },
	{ "jobs", required_argument, "j:", "=N",
	  "-L: solve in N threads (default 1)" },
	{ "local", no_argument, "L", "",
	  "solve in-process, without a daemon" },
	{ "lexmin", no_argument, "l", "",
	  "the lexicographically smallest solution" },
	{ "port", required_argument, "p:", "=PORT",
	  "connect over TCP to PORT (on 127.0.0.1 without -H)" },
	{ "quiet", no_argument, "q", "",
	  "no progress line, no notes about error answers" },
	{ "socket", required_argument, "s:", "=PATH",
	  "connect to the Unix socket PATH" },
	{ "version", no_argument, "V", "", "print the version and exit" },
	{ "verbose", no_argument, "v", "",
	  "print a summary on standard error at the end" },
	{ "window", required_argument, "w:", "=N",
	  "at most N requests in flight (default "
	  DEFAULTS_STRING(SUDOKUC_WINDOW_DEFAULT) ")" },
};
#define NOPTS	(sizeof opts / sizeof opts[0])

static const char *formats[] = {
	[FORMAT_LINE] = "line",
	[FORMAT_GRID] = "grid",
	[FORMAT_SPACED] = "spaced",
	[FORMAT_PRETTY] = "pretty"
};

static const char *metas[] = {
	[META_PING] = "ping",
	[META_STATS] = "stats",
	[META_VERSION] = "version"
};

static const char usage_text[] =
    "usage: sudokuc [-ehLlqVv] [-b budget] [-C connections] [-c [limit]]\n"
    "               [-f format] [-H host[:port]] [-j threads] [-p port]\n"
    "               [-s socket] [-w window]\n"
    "               [puzzle | file | - | ping | stats | version] ...\n";

double
sudokuc_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

static void __attribute__((noreturn))
usage(void)
{
	fputs(usage_text, stderr);
	exit(2);
}

/* --help: the usage, then every option on a line, like redis-cli. */
static void __attribute__((noreturn))
help(void)
{
	char	left[32];
	size_t	i;

	printf("%s\nSolve Sudoku puzzles with sudokud, or in-process with "
	    "-L; one answer per\npuzzle on standard output, in input order, "
	    "an ERR line for an error.\n\n", usage_text);
	for (i = 0; i < NOPTS; i++) {
		snprintf(left, sizeof left, "-%c, --%s%s", opts[i].spec[0],
		    opts[i].name, opts[i].arg);
		printf("  %-24s %s\n", left, opts[i].help);
	}
	printf("\nOperands: puzzle text (a line of 81 cells, or a grid), "
	    "a file, - for\nstandard input, ping, stats, version; none: "
	    "standard input.\nThe default socket is $SUDOKUD_SOCKET, or "
	    "else\n" SUDOKUD_SOCKET_PATH ".\nMore in sudokuc(1).\n");
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

/*
 * -H HOST, HOST:PORT, [ADDRESS] or [ADDRESS]:PORT; an IPv6 address
 * without brackets (two colons or more) has no port.  0, or -1 with
 * *cause.
 */
static int
host_parse(const char *arg, char **host, char **port, char **cause)
{
	const char	*end, *colon;

	*port = NULL;
	if (*arg == '[') {
		if ((end = strchr(arg, ']')) == NULL ||
		    (end[1] != '\0' && end[1] != ':')) {
			xasprintf(cause, "-H '%s' is not [ADDRESS]:PORT", arg);
			return (-1);
		}
		*host = xstrndup(arg + 1, end - arg - 1);
		colon = end[1] == ':' ? end + 1 : NULL;
	} else if ((colon = strchr(arg, ':')) != NULL &&
	    strchr(colon + 1, ':') == NULL)
		*host = xstrndup(arg, colon - arg);
	else {
		*host = xstrdup(arg);
		colon = NULL;
	}
	if (**host == '\0') {
		xasprintf(cause, "-H '%s' names no host", arg);
		free(*host);
		return (-1);
	}
	if (colon != NULL)
		*port = xstrdup(colon + 1);
	return (0);
}

static void
host_option(struct options *o, const char *arg)
{
	char	*cause, *port;

	free(o->host);
	if (host_parse(arg, &o->host, &port, &cause) == -1)
		fatalx("%s", cause);
	if (port == NULL)
		return;
	if (o->port != NULL)
		fatalx("-H %s and -p both give a port", arg);
	o->port = port;
	option_number(port, 1, 65535, "the port");
}

static void
port_option(struct options *o, const char *arg)
{
	if (o->port != NULL)
		fatalx("-p and -H HOST:PORT both give a port");
	option_number(arg, 1, 65535, "the port");
	o->port = xstrdup(arg);
}

/* The options of getopt_long(3), from opts[]. */
static const char *
options_table(struct option *lo)
{
	static char	short_opts[2 + 3 * NOPTS + 1];
	char		*p = short_opts;
	size_t		 i;

	*p++ = '+';	/* options end at the first operand */
	*p++ = ':';	/* tell a missing argument from an unknown option */
	for (i = 0; i < NOPTS; i++) {
		lo[i].name = opts[i].name;
		lo[i].has_arg = opts[i].has_arg;
		lo[i].flag = NULL;
		lo[i].val = opts[i].spec[0];
		p = stpcpy(p, opts[i].spec);
	}
	*p = '\0';
	memset(&lo[NOPTS], 0, sizeof lo[NOPTS]);
	return (short_opts);
}

/* A getopt error, with our prefix rather than argv[0]'s. */
static void __attribute__((noreturn))
option_error(int ch, char **argv)
{
	const char	*what = argv[optind - 1];

	if (ch == ':' && optopt != 0)
		log_warnx("option -%c needs an argument", optopt);
	else if (ch == ':')
		log_warnx("option %s needs an argument", what);
	else if (optopt != 0)
		log_warnx("unknown option -%c", optopt);
	else
		log_warnx("unknown option %s", what);
	usage();
}

/* One option; a usage error exits. */
static void
option_one(struct options *o, int ch, int argc, char **argv)
{
	switch (ch) {
	case 'b':
		o->query.budget = option_number(optarg, 1,
		    SUDOKU_BUDGET_SERVICE_MAX, "the budget");
		o->budget = 1;
		break;
	case 'C':
		o->connections = option_number(optarg, 1, BATCH_CONN_MAX,
		    "connections");
		break;
	case 'c':
		count_parse(o, argc, argv);
		break;
	case 'e':
		o->flags = (o->flags & ~OUTPUT_ERRSTDERR) |
		    errors_parse(optarg);
		break;
	case 'f':
		o->format = format_parse(optarg);
		break;
	case 'H':
		host_option(o, optarg);
		break;
	case 'h':
		help();
	case 'j':
		o->threads = option_number(optarg, 1, LOCAL_THREADS_MAX,
		    "threads");
		break;
	case 'L':
		o->local = 1;
		break;
	case 'l':
		mode_set(o, MODE_LEXMIN);
		break;
	case 'p':
		port_option(o, optarg);
		break;
	case 'q':
		o->flags |= OUTPUT_QUIET;
		break;
	case 's':
		o->socket = optarg;
		break;
	case 'V':
		printf("sudokuc %s\n", SUDOKUC_VERSION);
		exit(0);
	case 'v':
		o->flags |= OUTPUT_VERBOSE;
		break;
	case 'w':
		o->window = option_number(optarg, 1, SUDOKUC_WINDOW_MAX,
		    "window");
		break;
	default:
		option_error(ch, argv);
	}
}

static void
options_parse(struct options *o, int argc, char **argv)
{
	struct option	 lo[NOPTS + 1];
	const char	*so;
	int		 ch;

	so = options_table(lo);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, so, lo, NULL)) != -1)
		option_one(o, ch, argc, argv);
}

/*
 * Is s puzzle text rather than a file name?  Yes if it is made of cells,
 * blanks, newlines and the rules of the pretty shape; and if it names no
 * file and is mostly cells, as a mistyped puzzle is, so that the parse
 * error says what is wrong with it rather than "No such file".
 */
static int
operand_is_puzzle(const char *s)
{
	struct stat	 st;
	size_t		 len = strlen(s), cells;

	size_t		 i;

	for (i = cells = 0; i < len; i++)
		cells += isdigit((unsigned char)s[i]) || s[i] == '.';
	if (cells == 0)
		return (0);
	if (strspn(s, "0123456789. \t\r\n|+-") == len ||
	    strchr(s, '\n') != NULL)
		return (1);
	return (2 * cells > len && stat(s, &st) == -1 && errno == ENOENT);
}

static void
operands_add(struct options *o, struct input *in, int argc, char **argv)
{
	char	name[32];
	size_t	m;
	int	i;

	if (argc == 0)
		input_add_file(in, "-");
	for (i = 0; i < argc; i++) {
		for (m = 0; m < sizeof metas / sizeof metas[0]; m++)
			if (strcasecmp(argv[i], metas[m]) == 0)
				break;
		if (m < sizeof metas / sizeof metas[0]) {
			input_add_meta(in, m);
			o->stats |= m == META_STATS;
		} else if (strcmp(argv[i], "-") != 0 &&
		    operand_is_puzzle(argv[i])) {
			snprintf(name, sizeof name, "argument %d", i + 1);
			input_add_text(in, argv[i], name);
		} else
			input_add_file(in, argv[i]);
	}
}

static void
options_check(const struct options *o)
{
	if (o->local && (o->socket != NULL || o->host != NULL ||
	    o->port != NULL))
		fatalx("-L solves in-process: -s, -H and -p make no sense "
		    "with it");
	if (o->local && o->stats)
		fatalx("stats needs a daemon: not with -L");
	if (!o->local && (o->budget || o->threads != 0))
		fatalx("-b and -j are for -L: the daemon has its own budget "
		    "and threads");
	if (o->socket != NULL && (o->host != NULL || o->port != NULL))
		fatalx("-s and -H/-p exclude each other");
}

/* Connects as the options say: a descriptor, or -1 with *cause. */
static int
connect_daemon(const struct options *o, char **name, char **cause)
{
	const char	*path = o->socket, *host = o->host, *port = o->port;

	if (host != NULL || port != NULL) {
		if (host == NULL)
			host = "127.0.0.1";
		if (port == NULL)
			port = SUDOKUD_PORT_DEFAULT;
		xasprintf(name, strchr(host, ':') != NULL ? "tcp:[%s]:%s" :
		    "tcp:%s:%s", host, port);
		return (peer_connect_tcp(host, port, cause));
	}
	if (path == NULL && (path = getenv("SUDOKUD_SOCKET")) != NULL &&
	    *path == '\0')
		path = NULL;
	if (path == NULL)
		path = SUDOKUD_SOCKET_PATH;
	xasprintf(name, "unix:%s", path);
	return (peer_connect_unix(path, cause));
}

/* The batch with a daemon; exits 2 if it cannot be reached. */
static int
run_daemon(const struct options *o, struct input *in, struct output *out)
{
	int	 fds[BATCH_CONN_MAX], r;
	char	*name = NULL, *cause;
	size_t	 i;

	for (i = 0; i < o->connections; i++) {
		free(name);
		if ((fds[i] = connect_daemon(o, &name, &cause)) == -1)
			fatalx("cannot connect to %s: %s", name, cause);
	}
	output_peer(out, name);
	r = batch_run(fds, o->connections, name, in, &o->query, out,
	    o->window);
	output_peer(out, NULL);		/* name is freed */
	free(name);
	return (r);
}

static int
run_local(const struct options *o, struct input *in, struct output *out)
{
	unsigned int	 threads = o->threads == 0 ? 1 : o->threads;
	char		*cause = NULL;
	int		 r;

	output_local(out, threads);
	if ((r = local_run(in, &o->query, out, threads, &cause)) == -1 &&
	    cause != NULL)
		fatalx("%s", cause);
	return (r);
}

int
main(int argc, char **argv)
{
	struct options	 o;
	struct input	*in;
	struct output	*out;
	int		 r, status;

	log_init_program("sudokuc", 2);
	memset(&o, 0, sizeof o);
	o.query.limit = SUDOKUC_COUNT_DEFAULT;
	o.query.budget = SUDOKU_BUDGET_SERVICE;
	o.window = SUDOKUC_WINDOW_DEFAULT;
	o.connections = BATCH_CONN_DEFAULT;
	options_parse(&o, argc, argv);
	in = input_new();
	operands_add(&o, in, argc - optind, argv + optind);
	options_check(&o);
	if (!(o.flags & OUTPUT_QUIET) && isatty(STDERR_FILENO) &&
	    !isatty(STDOUT_FILENO))
		o.flags |= OUTPUT_PROGRESS;
	out = output_new(o.format, &o.query, o.flags);
	if (o.flags & OUTPUT_PROGRESS)
		output_total(out, input_estimate(in));
	r = o.local ? run_local(&o, in, out) : run_daemon(&o, in, out);
	status = output_finish(out, r == -1);
	output_free(out);
	input_free(in);
	free(o.host);
	free(o.port);
	return (status);
}
