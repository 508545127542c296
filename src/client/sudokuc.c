/* SPDX-License-Identifier: ISC */
/*
 * sudokuc.c -- the sudokud client: operands, servers, and the run.
 */
#include <sys/random.h>
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
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
#include "options.h"
#include "output.h"
#include "server.h"

#ifndef SUDOKUD_SOCKET_PATH
#define SUDOKUD_SOCKET_PATH	"/run/sudokud.sock"
#endif

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

/* Operand i (0-based): puzzle text, "-" or a file. */
static void
operand_input(struct input *in, const char *arg, int i)
{
	char	name[32];

	if (strcmp(arg, "-") != 0 && operand_is_puzzle(arg)) {
		snprintf(name, sizeof name, "argument %d", i + 1);
		input_add_text(in, arg, name);
	} else
		input_add_file(in, arg);
}

/*
 * The player's grid of hint, in any shape sudokuc reads: its cells or
 * pencil marks without the blanks, bars, rules and comment lines.
 */
static void
operand_grid(struct options *o, const char *arg, char **grid)
{
	struct sudoku_perror	 pe;
	struct sudoku_cands	 c;
	const char		*line, *end;
	char			*p, text[160];

	p = *grid = xmalloc(strlen(arg) + 1);
	for (line = arg; *line != '\0'; line = end + (*end == '\n')) {
		end = line + strcspn(line, "\n");
		line += strspn(line, " \t");
		if (*line == '#' || (*line == '+' &&
		    strspn(line, "+-\r \t") >= (size_t)(end - line)))
			continue;
		for (; line < end; line++)
			if (strchr(" \t\r|", *line) == NULL)
				*p++ = *line;
	}
	*p = '\0';
	if (sudoku_cands_parse(*grid, p - *grid, NULL, &c, &pe) == -1) {
		sudoku_perror_text(&pe, text, sizeof text);
		fatalx("hint: the grid, argument 2: %s", text);
	}
	o->query.grid = *grid;
	o->query.gridlen = p - *grid;
}

/* A random seed for generate without --seed. */
static uint64_t
operand_seed(void)
{
	uint64_t	seed;

	if (getrandom(&seed, sizeof seed, GRND_NONBLOCK) != sizeof seed)
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	return (seed);
}

static void
operands_add(struct options *o, struct input *in, int argc, char **argv,
    char **grid)
{
	size_t	m;
	int	i;

	if (o->command == CMD_GENERATE) {
		if (argc > 0)
			fatalx("generate takes no operands: '%s'", argv[0]);
		if (!o->seeded)
			o->seed = operand_seed();
		input_add_seeds(in, o->seed, o->number);
		return;
	}
	if (o->command == CMD_HINT && argc > 2)
		fatalx("hint takes a puzzle and a grid, not '%s'", argv[2]);
	if (o->command == CMD_HINT && argc == 2)
		operand_grid(o, argv[--argc], grid);
	if (argc == 0)
		input_add_file(in, "-");
	for (i = 0; i < argc; i++) {
		for (m = 0; m < sizeof metas / sizeof metas[0]; m++)
			if (strcasecmp(argv[i], metas[m]) == 0)
				break;
		if (m < sizeof metas / sizeof metas[0]) {
			input_add_meta(in, m);
			o->stats |= m == META_STATS;
		} else
			operand_input(in, argv[i], i);
	}
}

/* One -s or -H, as a server. */
static void
servers_spec(const struct options *o, const struct spec *sp,
    struct server *s)
{
	const char	*port = sp->port != NULL ? sp->port : o->port;

	if (sp->path != NULL)
		server_unix(s, sp->path);
	else
		server_tcp(s, xstrdup(sp->host), xstrdup(port != NULL ? port :
		    SUDOKUD_PORT_DEFAULT));
}

/*
 * The servers: those of -s, -H and -p, or else of SUDOKUD_SERVERS, or
 * else of SUDOKUD_SOCKET, or else the default socket.
 */
static struct server *
servers_get(const struct options *o, size_t *n)
{
	struct server	*v = NULL;
	const char	*env;
	char		*cause;
	size_t		 i;
	int		 hosts = 0;

	*n = 0;
	if (o->nspecs > 0 || o->port != NULL) {
		v = xcalloc(o->nspecs + 1, sizeof *v);
		for (i = 0; i < o->nspecs; i++) {
			servers_spec(o, &o->specs[i], &v[(*n)++]);
			hosts |= o->specs[i].host != NULL;
		}
		/* -p is the port of the -H without one, or of 127.0.0.1. */
		if (o->port != NULL && !hosts)
			server_tcp(&v[(*n)++], xstrdup("127.0.0.1"),
			    xstrdup(o->port));
	} else if ((env = getenv("SUDOKUD_SERVERS")) != NULL && *env != '\0') {
		if (server_list(env, "SUDOKUD_SERVERS", 0, &v, n,
		    &cause) == -1)
			fatalx("%s", cause);
	} else if ((env = getenv("SUDOKUD_SOCKET")) != NULL && *env != '\0')
		server_list(env, "SUDOKUD_SOCKET", 1, &v, n, &cause);
	if (*n == 0) {
		v = xreallocarray(v, 1, sizeof *v);
		server_unix(&v[(*n)++], SUDOKUD_SOCKET_PATH);
	}
	if (*n > BATCH_CONN_MAX)
		fatalx("at most %d servers", BATCH_CONN_MAX);
	return (v);
}

/* The batch with the servers; 0, or -1 if it had to stop. */
static int
run_daemon(const struct options *o, struct input *in, struct output *out)
{
	struct batch_opts	 bo;
	struct server		*v;
	size_t			 n, i, nconn;
	int			 r;

	v = servers_get(o, &n);
	nconn = o->connections != 0 ? o->connections : BATCH_CONN_DEFAULT;
	if (nconn < n)
		nconn = n;	/* at least one connection a server */
	bo.window = o->window;
	bo.timeout = o->timeout != 0 ? o->timeout : BATCH_TIMEOUT_DEFAULT;
	bo.verbose = (o->flags & OUTPUT_VERBOSE) != 0;
	r = batch_run(v, n, nconn, in, &o->query, out, &bo);
	output_peer(out, NULL);		/* the names are freed */
	for (i = 0; i < n; i++)
		server_free(&v[i]);
	free(v);
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
	char		*grid = NULL;
	int		 first, r, status;

	log_init_program("sudokuc", 2);
	options_init(&o);
	first = options_parse(&o, argc, argv);
	in = input_new();
	operands_add(&o, in, argc - first, argv + first, &grid);
	options_check(&o);
	if (!(o.flags & OUTPUT_QUIET) && isatty(STDERR_FILENO) &&
	    !isatty(STDOUT_FILENO))
		o.flags |= OUTPUT_PROGRESS;
	if (o.command == CMD_GENERATE && (o.flags & OUTPUT_VERBOSE))
		log_warnx("generate: %s puzzles, seeds %llu to %llu",
		    sudoku_level_name(o.query.level),
		    (unsigned long long)o.seed,
		    (unsigned long long)(o.seed + (o.number - 1)));
	out = output_new(o.format, &o.query, o.flags);
	if (o.flags & OUTPUT_PROGRESS)
		output_total(out, input_estimate(in));
	r = o.local ? run_local(&o, in, out) : run_daemon(&o, in, out);
	status = output_finish(out, r == -1);
	output_free(out);
	input_free(in);
	options_free(&o);
	free(grid);
	return (status);
}
