/* SPDX-License-Identifier: ISC */
/*
 * operands.c -- sudokuc's operands: puzzle text, files and "-", the meta
 * requests (ping, stats, version), hint's grid and generate's seeds, as
 * the items of the input (input.c).
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
#include "input.h"
#include "operands.h"
#include "options.h"
#include "verb.h"

/*
 * Is s puzzle text rather than a file name?  Yes if it is made of cells,
 * blanks, newlines and the rules of the pretty shape; and if it names no
 * file (or is too long to, as pencil marks are) and is mostly cells, as
 * a mistyped puzzle is, so that the parse error says what is wrong with
 * it rather than "No such file".
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
	return (2 * cells > len && stat(s, &st) == -1 && (errno == ENOENT ||
	    errno == ENAMETOOLONG));
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
		fatalx("%s: the grid, argument 2: %s",
		    verb_name(o->query.verb), text);
	}
	o->query.grid = *grid;
	o->query.gridlen = p - *grid;
}

/* A random seed for generate, shuffle, ... without --seed. */
static uint64_t
operand_seed(void)
{
	uint64_t	seed;

	if (getrandom(&seed, sizeof seed, GRND_NONBLOCK) != sizeof seed)
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	return (seed);
}

void
operands_add(struct options *o, struct input *in, int argc, char **argv,
    char **grid)
{
	const struct verb	*v = o->query.verb;
	size_t			 m;
	char	name[32];
	int	i;

	if ((v->flags & VERB_SEEDED) && !o->seeded)
		o->seed = operand_seed();
	if (v->flags & VERB_SEEDS) {
		if (argc > 0)
			fatalx("%s takes no operands: '%s'", v->word, argv[0]);
		input_add_seeds(in, o->seed, o->number);
		return;
	}
	if (v->flags & VERB_SEEDED)
		input_seed(in, o->seed);
	if (v->flags & VERB_MARKS)
		input_marks(in);
	if (v->arg == VERB_ARG_GRID && argc > 2)
		fatalx("%s takes a puzzle and a grid, not '%s'", v->word,
		    argv[2]);
	if (v->arg == VERB_ARG_GRID && argc == 2)
		operand_grid(o, argv[--argc], grid);
	if (argc == 0)
		input_add_file(in, "-");
	for (i = 0; i < argc; i++) {
		for (m = 0; m < META_COUNT; m++)
			if (strcasecmp(argv[i], item_meta_name(m)) == 0)
				break;
		if (m < META_COUNT) {
			snprintf(name, sizeof name, "argument %d", i + 1);
			input_add_meta(in, m, name);
			o->stats |= m == META_STATS;
		} else
			operand_input(in, argv[i], i);
	}
}
