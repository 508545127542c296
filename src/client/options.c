/* SPDX-License-Identifier: ISC */
/*
 * options.c -- sudokuc's command line: the values of its options, the
 * command word.
 *
 * One table of options makes getopt_long(3)'s tables and --help; each
 * option says where it goes: anywhere, before any command word (-c and
 * -l of solving), or after the word of a command whose row in the verb
 * table (verb.h) takes it.  The global options come before the command
 * word, or after it among the command's own (generate -n, -l, --seed
 * and its shape; --seed of shuffle, minimize and constrain), so that
 * "sudokuc -L rate f" and "sudokuc rate -L f" are the same.  The table
 * of options, usage() and --help are options_table.c's.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/defaults.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "batch.h"
#include "local.h"
#include "options_int.h"
#include "output.h"
#include "servers.h"

static const char *formats[] = {
	[FORMAT_LINE] = "line",
	[FORMAT_GRID] = "grid",
	[FORMAT_SPACED] = "spaced",
	[FORMAT_PRETTY] = "pretty"
};

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

/* The verb asked of every puzzle, and the default of its limit. */
static void
verb_set(struct options *o, const struct verb *v)
{
	if (o->query.verb != v && v->arg == VERB_ARG_LIMIT)
		o->query.limit = v->limit;
	o->query.verb = v;
}

/* -c and -l: COUNT or LEXMIN in place of SOLVE. */
static void
mode_set(struct options *o, const char *wire)
{
	const struct verb	*v = verb_wire(wire);

	if (o->query.verb != verb_wire("SOLVE") && o->query.verb != v)
		fatalx("--count and --lexmin exclude each other");
	verb_set(o, v);
	o->moded = 1;
}

/* -c takes its limit attached, or as the next argument if it is a number. */
static void
count_parse(struct options *o, int argc, char **argv)
{
	const char	*arg = optarg;

	mode_set(o, "COUNT");
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
	const struct verb	*v = o->query.verb;

	if (options_long(ch) != NULL) {
		option_long(o, options_long(ch), optarg);
		return (0);
	}
	if (ch == 'n' && (v->opts & VERB_OPT_LIMIT))
		o->query.limit = option_number(optarg, 1,
		    SUDOKUC_SOLUTIONS_MAX, "the number of solutions");
	else if (ch == 'n' && (v->opts & VERB_OPT_NUMBER))
		o->number = option_number(optarg, 1, OPTIONS_NUMBER_MAX,
		    "the number of puzzles");
	else if (ch == 'l' && (v->opts & VERB_OPT_LEVEL))
		level_option(o, optarg);
	else
		return (-1);
	return (0);
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
	case 'L':
		o->local = 1;
		break;
	case 'l':
		mode_set(o, "LEXMIN");
		break;
	case 'P':
		o->flags |= OUTPUT_PUZZLE;
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
	default:	/* not in the table: cannot be */
		options_usage();
	}
}

/*
 * The options of argv from argv[1] on, those taken after v's word (NULL:
 * before any); the operands' index.
 */
static int
options_pass(struct options *o, int argc, char **argv, const struct verb *v)
{
	struct option	 lo[OPTIONS_MAX + 1];
	char		 so[3 + 3 * OPTIONS_MAX];
	int		 ch;

	options_getopt(lo, v, so);
	opterr = 0;
	optind = 0;		/* start again, from argv[1] */
	while ((ch = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (ch == 'h')
			options_help(v);
		if (ch == '?' || ch == ':')
			options_refused(ch, v, argc, argv);
		option_one(o, ch, argc, argv);
	}
	return (optind);
}

int
options_parse(struct options *o, int argc, char **argv)
{
	const struct verb	*v;
	int			 first;

	first = options_pass(o, argc, argv, NULL);
	if (first == argc || (v = verb_word(argv[first])) == NULL)
		return (first);
	if (o->moded)
		fatalx("--count and --lexmin are for solving, not with %s",
		    v->word);
	verb_set(o, v);
	/* The command word is the "program name" of its own options. */
	return (first + options_pass(o, argc - first, argv + first, v));
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
	if (!(o->query.verb->flags & VERB_SEARCH) &&
	    (o->budget || o->query.deadline != 0))
		fatalx("-b and -D are for requests that search, not for %s",
		    verb_name(o->query.verb));
	if ((o->flags & OUTPUT_PUZZLE) && o->format != FORMAT_AUTO &&
	    o->format != FORMAT_LINE)
		fatalx("-P prints each answer on the line of its puzzle: not "
		    "with -f %s", formats[o->format]);
	if ((o->flags & OUTPUT_PUZZLE) && (o->query.verb->flags & VERB_SEEDS))
		fatalx("-P prints answers beside their puzzles: %s reads none",
		    o->query.verb->word);
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
	o->query.verb = verb_wire("SOLVE");
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
