/* SPDX-License-Identifier: ISC */
/*
 * options_table.c -- sudokuc's table of options, and what is made from
 * it and from the verb table (verb.h): getopt_long(3)'s tables, usage(),
 * --help and a command's --help, and the message for an option refused
 * (one that goes after the word of some command says which).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/defaults.h"
#include "common/log.h"
#include "common/usage.h"
#include "batch.h"
#include "item.h"
#include "options_int.h"

/*
 * Where an option goes (struct opt, where): anywhere, before any command
 * word only, or after the word of a command whose row has one of the
 * VERB_OPT_* bits of where.
 */
#define O_ALL		0x100
#define O_SOLVE		0x200
/* The options of commands. */
#define O_COMMAND	(VERB_OPT_NUMBER | VERB_OPT_LIMIT | VERB_OPT_LEVEL | \
			 VERB_OPT_SEED | VERB_OPT_SHAPE)

/* Every option: getopt_long(3) and --help are made from this table. */
static const struct opt {
	const char	*name;
	int		 has_arg;	/* of the long option */
	const char	*spec;		/* the short one, as getopt(3) has it */
	int		 where;		/* O_*, VERB_OPT_* */
	const char	*arg;		/* its argument, for --help */
	const char	*help;
} opts[] = {
	{ "auth-file", required_argument, NULL, O_ALL, "=FILE",
	  "send AUTH with the secret of FILE's first line first" },
	{ "budget", required_argument, "b:", O_ALL, "=N",
	  "at most N guesses per puzzle (-L: default "
	  DEFAULTS_STRING(SUDOKU_BUDGET_SERVICE) ")" },
	{ "ca", required_argument, NULL, O_ALL, "=FILE",
	  "TLS: verify servers against the CAs of FILE" },
	{ "cert", required_argument, NULL, O_ALL, "=FILE",
	  "TLS: the client certificate of FILE (with --key)" },
	{ "connections", required_argument, "C:", O_ALL, "=N",
	  "N connections, one a server at least (default "
	  DEFAULTS_STRING(BATCH_CONN_DEFAULT) ")" },
	{ "count", optional_argument, "c::", O_SOLVE, "[=LIMIT]",
	  "count solutions, up to LIMIT (default "
	  DEFAULTS_STRING(SUDOKUC_COUNT_DEFAULT) ")" },
	{ "deadline", required_argument, "D:", O_ALL, "=MS",
	  "ERR deadline for a puzzle not done in MS ms" },
	{ "errors", optional_argument, "e", O_ALL, "[=WHERE]",
	  "error answers on stderr, or stdout (the default)" },
	{ "format", required_argument, "f:", O_ALL, "=FORMAT",
	  "print solutions as line, grid, spaced or pretty" },
	{ "help", no_argument, "h", O_ALL, "", "print this help and exit" },
	{ "host", required_argument, "H:", O_ALL, "=HOST[:PORT]",
	  "a TCP server (port " SUDOKUD_PORT_DEFAULT "; tls:// for TLS); may "
	  "repeat" },
	{ "jobs", required_argument, "j:", O_ALL, "=N",
	  "-L: solve in N threads (default 1)" },
	{ "key", required_argument, NULL, O_ALL, "=FILE",
	  "TLS: the key of the client certificate" },
	{ "local", no_argument, "L", O_ALL, "",
	  "solve in-process, without a daemon" },
	{ "lexmin", no_argument, "l", O_SOLVE, "",
	  "the lexicographically smallest solution" },
	{ "level", required_argument, "l:", VERB_OPT_LEVEL, "=LEVEL",
	  "easy, medium (the default), hard, expert or extreme" },
	{ "number", required_argument, "n:", VERB_OPT_NUMBER | VERB_OPT_LIMIT,
	  "=N",
	  "N puzzles (default 1), or at most N solutions ("
	  DEFAULTS_STRING(SUDOKUC_SOLUTIONS_DEFAULT) ")" },
	{ "port", required_argument, "p:", O_ALL, "=PORT",
	  "connect over TCP to PORT (on 127.0.0.1 without -H)" },
	{ "with-puzzle", no_argument, "P", O_ALL, "",
	  "print each answer's lines, a tab, then its puzzle" },
	{ "quiet", no_argument, "q", O_ALL, "",
	  "no progress line, no notes about error answers" },
	{ "seed", required_argument, NULL, VERB_OPT_SEED, "=S",
	  "seeds S, S+1, ... in turn (default: random)" },
	{ "symmetry", required_argument, NULL, VERB_OPT_SHAPE, "=S",
	  "givens symmetric under S: rot180, rot90, mirror, ..." },
	{ "clues", required_argument, NULL, VERB_OPT_SHAPE, "=LO-HI",
	  "between LO and HI givens (or exactly N)" },
	{ "pattern", required_argument, NULL, VERB_OPT_SHAPE, "=P",
	  "givens exactly at the x of P, 81 cells of x and ." },
	{ "socket", required_argument, "s:", O_ALL, "=PATH",
	  "a server on the Unix socket PATH; may repeat" },
	{ "timeout", required_argument, "t:", O_ALL, "=SECONDS",
	  "give up on a server silent that long (default "
	  DEFAULTS_STRING(BATCH_TIMEOUT_DEFAULT) ")" },
	{ "tls", no_argument, NULL, O_ALL, "",
	  "TLS to every server over TCP, verified" },
	{ "version", no_argument, "V", O_ALL, "", "print the version and exit" },
	{ "verbose", no_argument, "v", O_ALL, "",
	  "report resends, and a summary at the end, on stderr" },
	{ "window", required_argument, "w:", O_ALL, "=N",
	  "at most N requests in flight (default "
	  DEFAULTS_STRING(SUDOKUC_WINDOW_DEFAULT) ")" },
};
#define NOPTS	(sizeof opts / sizeof opts[0])
_Static_assert(NOPTS <= OPTIONS_MAX, "OPTIONS_MAX: room for every option");

/* usage(): the global options, then a line for each command. */
static const char usage_head[] =
    "usage: sudokuc [-ehLlPqVv] [-b budget] [-C connections] [-c [limit]]\n"
    "               [-D deadline] [-f format] [-H host[:port]] [-j threads]\n"
    "               [-p port] [-s socket] [-t timeout] [-w window]\n"
    "               [--auth-file file] [--ca file] [--cert file --key file]\n"
    "               [--tls]\n"
    "               [puzzle | file | - | ping | stats | version] ...\n";

/* Room for usage(): the lines above and one or two a command. */
#define USAGE_MAX	4096

/* The usage line of v's command, after lead ("usage: " or blanks). */
static size_t
usage_line(char *buf, size_t size, const char *lead, const struct verb *v)
{
	int	n;

	n = snprintf(buf, size, "%ssudokuc [options] %s %s\n", lead, v->word,
	    v->usage);
	return (n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1);
}

/* The whole usage into buf (USAGE_MAX bytes). */
static const char *
usage_text(char *buf)
{
	const struct verb	*v;
	size_t			 i, n;

	n = strlen(strcpy(buf, usage_head));
	for (i = 0; (v = verb_at(i)) != NULL; i++)
		if (v->word != NULL)
			n += usage_line(buf + n, USAGE_MAX - n, "       ", v);
	return (buf);
}

void
options_usage(void)
{
	char	buf[USAGE_MAX];

	usage_exit(usage_text(buf));
}

const char *
options_getopt(struct option *lo, const struct verb *v, char *short_opts)
{
	char		*p = short_opts;
	size_t		 i, n = 0;
	int		 where = v == NULL ? O_ALL | O_SOLVE : O_ALL | v->opts;

	*p++ = '+';	/* options end at the first operand */
	*p++ = ':';	/* tell a missing argument from an unknown option */
	for (i = 0; i < NOPTS; i++) {
		if (!(opts[i].where & where))
			continue;
		lo[n].name = opts[i].name;
		lo[n].has_arg = opts[i].has_arg;
		lo[n].flag = NULL;
		lo[n++].val = opts[i].spec != NULL ? opts[i].spec[0] :
		    OPTIONS_LONG + (int)i;
		if (opts[i].spec != NULL)
			p = stpcpy(p, opts[i].spec);
	}
	*p = '\0';
	memset(&lo[n], 0, sizeof lo[n]);
	return (short_opts);
}

const char *
options_long(int ch)
{
	return (ch >= OPTIONS_LONG && ch < OPTIONS_LONG + (int)NOPTS ?
	    opts[ch - OPTIONS_LONG].name : NULL);
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

/* A command's --help: its usage, what it answers, its own options. */
static void __attribute__((noreturn))
help_command(const struct verb *v)
{
	char	line[256];
	size_t	i, n = 0;

	usage_line(line, sizeof line, "usage: ", v);
	printf("%s\n%s: %s.\n\n", line, v->word, v->about);
	for (i = 0; i < NOPTS; i++)
		if (opts[i].where & v->opts) {
			if (n++ == 0)
				printf("Options of %s, after its word:\n",
				    v->word);
			help_line(i);
		}
	printf("%sThe options of sudokuc --help go before or after the "
	    "command word.\n", n > 0 ? "\n" : "");
	exit(0);
}

void
options_help(const struct verb *v)
{
	const struct verb	*c;
	char			 buf[USAGE_MAX];
	size_t			 i;

	if (v != NULL && v->word != NULL)
		help_command(v);
	printf("%s\nSolve Sudoku puzzles with sudokud, or in-process with "
	    "-L; one answer per\npuzzle on standard output, in input order, "
	    "an ERR line for an error.\n\nCommands (sudokuc COMMAND --help: "
	    "its own options):\n", usage_text(buf));
	for (i = 0; (c = verb_at(i)) != NULL; i++)
		if (c->word != NULL)
			printf("  %-10s %s\n", c->word, c->about);
	printf("\n");
	for (i = 0; i < NOPTS; i++)
		if (opts[i].where & (O_ALL | O_SOLVE))
			help_line(i);
	printf("\nOptions of generate and the other commands, after the "
	    "command word:\n");
	for (i = 0; i < NOPTS; i++)
		if (opts[i].where & O_COMMAND)
			help_line(i);
	printf("\nOperands: puzzle text (a line of 81 cells, or a grid), "
	    "a file, - for\nstandard input, ping, stats, version; none: "
	    "standard input.\nThe servers are $SUDOKUD_SERVERS, or else "
	    "$SUDOKUD_SOCKET, or else\n" SUDOKUD_SOCKET_PATH ".\nMore in "
	    "sudokuc(1).\n");
	exit(0);
}

/*
 * The row of the command option getopt refused: by its letter (opt)
 * or its long name (arg, "--name" or "--name=value"); -1 if none.
 */
static int
refused_option(int opt, const char *arg)
{
	int	islong = strncmp(arg, "--", 2) == 0;
	size_t	i, len = islong ? strcspn(arg + 2, "=") : 0;

	for (i = 0; i < NOPTS; i++) {
		if (!(opts[i].where & O_COMMAND))
			continue;
		if (islong ? strlen(opts[i].name) == len &&
		    strncmp(opts[i].name, arg + 2, len) == 0 :
		    opts[i].spec != NULL && opts[i].spec[0] == opt)
			return ((int)i);
	}
	return (-1);
}

/* The words of the commands whose rows have a bit of where: "a, b or c". */
static void
refused_words(int where, char *buf, size_t size)
{
	const struct verb	*c;
	size_t			 i, n = 0, len = 0;

	for (i = 0; (c = verb_at(i)) != NULL; i++)
		n += c->word != NULL && (c->opts & where);
	buf[0] = '\0';
	for (i = 0; (c = verb_at(i)) != NULL; i++)
		if (c->word != NULL && (c->opts & where)) {
			n--;
			len += snprintf(buf + len, size - len, "%s%s",
			    len == 0 ? "" : n == 0 ? " or " : ", ", c->word);
			if (len >= size)
				return;
		}
}

/*
 * An option (name) of some commands, refused before the command word or
 * after that of another (v): say where it goes, with the usage line of
 * the command word that comes later in argv if that one takes it, else
 * the lines of every command that does.
 */
static void __attribute__((noreturn))
refused_place(size_t i, const char *name, const struct verb *v, int argc,
    char **argv)
{
	const struct verb	*c = NULL;
	char			 buf[USAGE_MAX], words[256];
	size_t			 k, n = 0;
	int			 a;

	for (a = optind; v == NULL && c == NULL && a < argc; a++)
		if ((c = verb_word(argv[a])) != NULL &&
		    !(c->opts & opts[i].where))
			c = NULL;
	if (c != NULL) {
		log_warnx("option %s goes after the command word", name);
		usage_line(buf, sizeof buf, "usage: ", c);
		usage_exit(buf);
	}
	refused_words(opts[i].where, words, sizeof words);
	log_warnx("option %s goes after the word of %s%s%s", name, words,
	    v != NULL ? ", not " : "", v != NULL ? v->word : "");
	for (k = 0; (c = verb_at(k)) != NULL; k++)
		if (c->word != NULL && (c->opts & opts[i].where))
			n += usage_line(buf + n, sizeof buf - n, n == 0 ?
			    "usage: " : "       ", c);
	usage_exit(buf);
}

void
options_refused(int ch, const struct verb *v, int argc, char **argv)
{
	const char	*arg = argv[optind - 1];
	char		 name[64];
	int		 i;

	if (ch == '?' && (i = refused_option(optopt, arg)) != -1) {
		if (strncmp(arg, "--", 2) == 0)
			snprintf(name, sizeof name, "--%.*s",
			    (int)strcspn(arg + 2, "="), arg + 2);
		else
			snprintf(name, sizeof name, "-%c", optopt);
		refused_place((size_t)i, name, v, argc, argv);
	}
	usage_option(ch, optopt, arg);
	options_usage();
}
