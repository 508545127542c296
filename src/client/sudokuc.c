/*
 * sudokuc.c -- the sudokud client: options, operands, and the run.
 */
#include <ctype.h>
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
	const char	*socket;
	const char	*host;
	const char	*port;
	size_t		 window;
	size_t		 connections;
	int		 stats;		/* a stats operand was given */
};

static const struct option longopts[] = {
	{ "connections", required_argument,	NULL,	'C' },
	{ "count",	optional_argument,	NULL,	'c' },
	{ "errors",	optional_argument,	NULL,	'e' },
	{ "format",	required_argument,	NULL,	'f' },
	{ "help",	no_argument,		NULL,	'h' },
	{ "host",	required_argument,	NULL,	'H' },
	{ "lexmin",	no_argument,		NULL,	'l' },
	{ "local",	no_argument,		NULL,	'L' },
	{ "port",	required_argument,	NULL,	'p' },
	{ "quiet",	no_argument,		NULL,	'q' },
	{ "socket",	required_argument,	NULL,	's' },
	{ "verbose",	no_argument,		NULL,	'v' },
	{ "version",	no_argument,		NULL,	'V' },
	{ "window",	required_argument,	NULL,	'w' },
	{ NULL,		0,			NULL,	0 }
};

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

double
sudokuc_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

static void __attribute__((noreturn))
usage(int status)
{
	fprintf(status == 0 ? stdout : stderr,
	    "usage: sudokuc [-ehLlqVv] [-C connections] [-c [limit]] "
	    "[-f format] [-H host]\n"
	    "               [-p port] [-s socket] [-w window]\n"
	    "               [puzzle | file | - | ping | stats | version] "
	    "...\n");
	exit(status);
}

/* A decimal number in [min, max]; -1 with *cause if s is not one. */
static int
number(const char *s, unsigned long min, unsigned long max, const char *what,
    unsigned long *n, char **cause)
{
	char	*end;

	if (!isdigit((unsigned char)*s)) {
		xasprintf(cause, "%s must be a number: %s", what, s);
		return (-1);
	}
	*n = strtoul(s, &end, 10);
	if (*end != '\0' || *n < min || *n > max) {
		xasprintf(cause, "%s must be from %lu to %lu: %s", what, min,
		    max, s);
		return (-1);
	}
	return (0);
}

/* An option's number: a usage error unless in [min, max]. */
static unsigned long
option_number(const char *s, unsigned long min, unsigned long max,
    const char *what)
{
	unsigned long	 n;
	char		*cause;

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

static int
errors_parse(const char *s)
{
	if (s == NULL || strcmp(s, "stderr") == 0)
		return (OUTPUT_ERRSTDERR);
	if (strcmp(s, "stdout") == 0)
		return (0);
	fatalx("--errors is stdout or stderr, not '%s'", s);
}

/* -c takes its limit attached, or as the next argument if it is a number. */
static void
count_parse(struct options *o, int argc, char **argv)
{
	const char	*arg = optarg;

	if (o->query.mode == MODE_LEXMIN)
		fatalx("--count and --lexmin exclude each other");
	o->query.mode = MODE_COUNT;
	if (arg == NULL && optind < argc && strlen(argv[optind]) < 10 &&
	    strspn(argv[optind], "0123456789") == strlen(argv[optind]) &&
	    argv[optind][0] != '\0')
		arg = argv[optind++];
	if (arg != NULL)
		o->query.limit = option_number(arg, 1, SUDOKUC_COUNT_MAX,
		    "count limit");
}

static void
options_parse(struct options *o, int argc, char **argv)
{
	int	ch;

	while ((ch = getopt_long(argc, argv, "+C:c::ef:H:hLlp:qs:Vvw:", longopts,
	    NULL)) != -1) {
		switch (ch) {
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
			o->host = optarg;
			break;
		case 'h':
			usage(0);
		case 'L':
			o->local = 1;
			break;
		case 'l':
			if (o->query.mode == MODE_COUNT)
				fatalx("--count and --lexmin exclude each "
				    "other");
			o->query.mode = MODE_LEXMIN;
			break;
		case 'p':
			o->port = optarg;
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
			usage(2);
		}
	}
}

/* Is s puzzle text: only cells, blanks and newlines? */
static int
operand_is_puzzle(const char *s)
{
	return (strspn(s, "0123456789. \t\r\n") == strlen(s) &&
	    strpbrk(s, "0123456789.") != NULL);
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
		} else if (operand_is_puzzle(argv[i])) {
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
		fatalx("-L solves locally: -s, -H and -p make no sense with it");
	if (o->local && o->stats)
		fatalx("stats needs a daemon: not with -L");
	if (o->socket != NULL && (o->host != NULL || o->port != NULL))
		fatalx("-s and -H/-p exclude each other");
	if (o->host != NULL && o->port == NULL)
		fatalx("-H needs a port (-p)");
}

/* Connects as the options say; exits 2 with a hint if it cannot. */
static int
connect_daemon(const struct options *o, char *peer, size_t size)
{
	const char	*path = o->socket, *host = o->host;
	char		*cause;
	int		 fd;

	if (o->port != NULL) {
		if (host == NULL)
			host = "127.0.0.1";
		snprintf(peer, size, strchr(host, ':') != NULL ?
		    "tcp:[%s]:%s" : "tcp:%s:%s", host, o->port);
		fd = peer_connect_tcp(host, o->port, &cause);
	} else {
		if (path == NULL && (path = getenv("SUDOKUD_SOCKET")) != NULL &&
		    *path == '\0')
			path = NULL;
		if (path == NULL)
			path = SUDOKUD_SOCKET_PATH;
		snprintf(peer, size, "unix:%s", path);
		fd = peer_connect_unix(path, &cause);
	}
	if (fd == -1)
		fatalx("cannot connect to %s: %s", peer, cause);
	return (fd);
}

int
main(int argc, char **argv)
{
	struct options	 o;
	struct input	*in;
	struct output	*out;
	char		 peer[512];
	int		 fds[BATCH_CONN_MAX], r, status;
	size_t		 i;

	log_init_program("sudokuc", 2);
	memset(&o, 0, sizeof o);
	o.query.limit = SUDOKUC_COUNT_DEFAULT;
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
	if (o.local)
		r = local_run(in, &o.query, out);
	else {
		for (i = 0; i < o.connections; i++)
			fds[i] = connect_daemon(&o, peer, sizeof peer);
		output_peer(out, peer);
		r = batch_run(fds, o.connections, peer, in, &o.query, out,
		    o.window);
	}
	status = output_finish(out, r == -1);
	output_free(out);
	input_free(in);
	return (status);
}
