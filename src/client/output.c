/* SPDX-License-Identifier: ISC */
/*
 * output.c -- sudokuc's answers, each in its verb's print (verb.h), and
 * the messages about them; the run's progress line, summary and exit
 * status are output_run.c's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "common/echo.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "draw.h"
#include "output_int.h"
#include "verb.h"

void
output_clear(struct output *out)
{
	fflush(stdout);
	if (out->drawn) {
		fputs("\r\033[K", stderr);
		out->drawn = 0;
	}
}

void
output_warnx(struct output *out, const char *fmt, ...)
{
	va_list	ap;

	output_clear(out);
	va_start(ap, fmt);
	log_vlog(LOG_WARNING, fmt, ap);
	va_end(ap);
}

static void	output_at(struct output *, const struct item *, const char *,
		    ...) __attribute__((format(printf, 3, 4)));

void
output_where(const struct output *out, const struct item *it, char *buf,
    size_t size)
{
	if (it->kind == ITEM_META)
		snprintf(buf, size, "%s (%s)", it->src,
		    item_meta_name(it->meta));
	else if (out->query.verb->flags & VERB_SEEDS)
		snprintf(buf, size, "seed %llu", (unsigned long long)it->seed);
	else if (it->line != 0)
		snprintf(buf, size, "%s:%lu", it->src, it->line);
	else
		snprintf(buf, size, "%s", it->src);
}

/* A message about one item: "sudokuc: FILE:LINE: text", "seed N: text". */
static void
output_at(struct output *out, const struct item *it, const char *fmt, ...)
{
	char	text[ITEM_MSGLEN + 64], where[ITEM_MSGLEN];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	output_where(out, it, where, sizeof where);
	output_warnx(out, "%s: %s", where, text);
}

/* The format an answer to it is printed in. */
static enum format
output_format(const struct output *out, const struct item *it)
{
	static const enum format	byshape[] = {
		[SHAPE_LINE] = FORMAT_LINE,
		[SHAPE_GRID] = FORMAT_GRID,
		[SHAPE_SPACED] = FORMAT_SPACED,
		[SHAPE_PRETTY] = FORMAT_PRETTY
	};

	/* -P: a line, whatever the puzzle's shape (-f is refused). */
	if (out->query.verb->flags & VERB_GRID)
		return (out->format != FORMAT_AUTO ? out->format :
		    (out->flags & OUTPUT_PUZZLE) ? FORMAT_LINE :
		    byshape[it->shape]);
	/* A line, or lines; a hint may be drawn. */
	if ((out->query.verb->flags & VERB_DRAWN) &&
	    out->format == FORMAT_PRETTY)
		return (FORMAT_PRETTY);
	return (FORMAT_LINE);
}

/* Is the answer to it several lines: a grid, a drawing, a PATH? */
static int
output_multi(const struct output *out, const struct item *it)
{
	return (output_format(out, it) != FORMAT_LINE ||
	    (out->query.verb->flags & VERB_BLOCK));
}

/* Starts an answer of one or several lines on stdout. */
static void
output_begin(struct output *out, int multi)
{
	if (out->printed && (multi || out->prevmulti))
		putchar_unlocked('\n');
	out->printed = 1;
	out->prevmulti = multi;
}

/*
 * The end of a line of an answer to it: LF, or with -P a tab and its
 * puzzle as it was read (81 cells, or 729 pencil marks), or where a
 * malformed one is, then LF.
 */
static void
output_end(const struct output *out, const struct item *it)
{
	char	buf[SUDOKU_CANDS_LEN + 1];

	if (!(out->flags & OUTPUT_PUZZLE) || it->kind == ITEM_META) {
		putchar_unlocked('\n');
		return;
	}
	putchar_unlocked('\t');
	if (it->kind == ITEM_BAD)
		output_where(out, it, buf, sizeof buf);
	else if (it->marked)
		sudoku_cands_format(&it->marks, buf);
	else
		memcpy(buf, it->cells, SUDOKU_CELLS);
	fwrite_unlocked(buf, 1, it->kind == ITEM_BAD ? strlen(buf) :
	    it->marked ? SUDOKU_CANDS_LEN : SUDOKU_CELLS, stdout);
	putchar_unlocked('\n');
}

/* A solution of 81 digits (or a puzzle), in the answer's format. */
static void
output_grid(const struct output *out, const struct item *it,
    const char *sol)
{
	char		buf[512], *p = buf;
	int		r, c;

	switch (output_format(out, it)) {
	case FORMAT_PRETTY:
		p += draw_grid(sol, buf);
		break;
	case FORMAT_GRID:
		for (r = 0; r < 9; r++) {
			memcpy(p, sol + 9 * r, 9);
			p[9] = '\n';
			p += 10;
		}
		break;
	case FORMAT_SPACED:
		for (r = 0; r < 9; r++)
			for (c = 0; c < 9; c++) {
				*p++ = sol[9 * r + c];
				*p++ = c == 8 ? '\n' : ' ';
			}
		break;
	default:
		fwrite_unlocked(sol, 1, SUDOKU_CELLS, stdout);
		output_end(out, it);
		return;
	}
	fwrite_unlocked(buf, 1, p - buf, stdout);
}


/*
 * The len bytes of a server's line at s on stdout, then the end of a
 * line of an answer to it: as they are if printable ASCII, else shown as
 * the protocol shows bytes (common/echo.h), so that no escape sequence
 * reaches a terminal.
 */
static void
output_shown(const struct output *out, const struct item *it,
    const char *s, size_t len)
{
	char	*shown = echo_text(s, len);

	fputs(shown, stdout);
	free(shown);
	output_end(out, it);
}

/* A rating or a hint: its line, or the hint drawn (-f pretty). */
static int
output_line(struct output *out, const struct item *it, const char *reply)
{
	int	drawn = output_format(out, it) == FORMAT_PRETTY;

	out->solved++;
	output_begin(out, drawn);
	if (!drawn || draw_hint(stdout, &it->grid, &out->query, reply) == -1)
		output_shown(out, it, reply, strlen(reply));
	return (0);
}

/*
 * An error answer.  By default its ERR record goes to stdout, where the
 * answer would have been, and a note on stderr says where the puzzle is
 * (the record's rank does not: grids, comments, several files); -q drops
 * the note.  With -e the record goes to stderr instead, with where the
 * puzzle is, and -q keeps it: it is an answer, not a note.
 */
static void
output_error(struct output *out, const struct item *it, const char *code,
    const char *text, int inblock)
{
	char	where[ITEM_MSGLEN];

	if (out->flags & OUTPUT_ERRSTDERR) {
		output_at(out, it, "ERR %s%s%s", code, *text ? " " : "", text);
		return;
	}
	if (!inblock)	/* else the end of an answer begun */
		output_begin(out, output_multi(out, it));
	printf("ERR %s%s%s", code, *text ? " " : "", text);
	output_end(out, it);
	if (out->flags & OUTPUT_QUIET)
		return;
	/* The cells are the grid's, not the puzzle's: say so. */
	if (out->query.verb->arg == VERB_ARG_GRID &&
	    strcmp(code, "wrong") == 0) {
		output_where(out, it, where, sizeof where);
		output_warnx(out, "%s: the grid, argument 2, has digits the "
		    "solution of %s does not: %s",
		    verb_name(out->query.verb), where, text);
	} else
		output_at(out, it, "%s", text);
}

/* "ERR code text": counts and prints it (inblock: as output_error()). */
static int
output_err(struct output *out, const struct item *it, const char *reply,
    int inblock)
{
	const char	*code = reply + 4, *text;
	char		 word[32], *shown;
	size_t		 len;

	len = strcspn(code, " ");
	text = code[len] == ' ' ? code + len + 1 : code + len;
	if (len == 10 && strncmp(code, "nosolution", 10) == 0)
		out->unsolvable++;
	else
		out->errors++;
	/* The code is letters (check.c); the text is the server's. */
	snprintf(word, sizeof word, "%.*s", (int)len, code);
	shown = echo_text(text, strlen(text));
	output_error(out, it, word, shown, inblock);
	free(shown);
	return (0);
}

/* A count: the batch checked its form (check.c). */
static int
output_count(struct output *out, const struct item *it, const char *reply)
{
	unsigned long	n = strtoul(reply, NULL, 10);

	if (n == 0)
		out->unsolvable++;
	else
		out->solved++;
	output_begin(out, 0);
	printf("%lu", n);
	output_end(out, it);
	return (0);
}

/* A reply of several lines (PATH): its lines, but not the END. */
static int
output_block(struct output *out, const struct item *it, const char *reply)
{
	const char	*p, *end = strrchr(reply, '\n');
	size_t		 len;

	out->solved++;
	output_begin(out, 1);
	for (p = reply; end != NULL && p <= end; p += len + 1) {
		len = strcspn(p, "\n");
		output_shown(out, it, p, len);
	}
	return (0);
}

/*
 * SOLUTIONS' list (checked: check.c, or made by the core): each
 * solution in the answer's format, then the ERR that cut the list
 * short, if one did; a blank line between the lists of two puzzles, as
 * between PATH's.  Solutions as lines follow each other; as grids, each
 * is an answer of several lines, a blank line before the next and
 * before the ERR.  No solution at all is SOLVE's ERR nosolution, so
 * that each puzzle has its record.
 */
static int
output_solutions(struct output *out, const struct item *it,
    const char *reply)
{
	const char	*p;
	int		 grids = output_format(out, it) != FORMAT_LINE;

	if (strcmp(reply, "END") == 0)
		return (output_err(out, it, "ERR nosolution the puzzle has no "
		    "solution", 0));
	output_begin(out, 1);
	for (p = reply; strchr(p, '\n') != NULL; p = strchr(p, '\n') + 1) {
		if (grids && p != reply)
			output_begin(out, 1);
		output_grid(out, it, p);
	}
	if (strncmp(p, "ERR ", 4) == 0)
		return (output_err(out, it, p, !grids));
	out->solved++;
	return (0);
}

/*
 * GENERATE's " level=L" after the puzzle: the deadline (-D) came before
 * a puzzle of the level asked, and this is the nearest one made.
 */
static void
output_nearest(struct output *out, const struct item *it, const char *reply)
{
	if (strnlen(reply, SUDOKU_CELLS) < SUDOKU_CELLS ||
	    strncmp(reply + SUDOKU_CELLS, " level=", 7) != 0 ||
	    (out->flags & OUTPUT_QUIET))
		return;
	output_at(out, it, "a puzzle of level %s, not %s: the deadline came "
	    "first", reply + SUDOKU_CELLS + 7,
	    sudoku_level_name(out->query.level));
}

/* A solution, or a puzzle made: a grid as an answer of its own. */
static int
output_solution(struct output *out, const struct item *it, const char *sol)
{
	out->solved++;
	output_begin(out, output_format(out, it) != FORMAT_LINE);
	output_grid(out, it, sol);
	output_nearest(out, it, sol);
	return (0);
}

/*
 * An answer that is not an error, by its verb's print (verb.h): each
 * counts what it printed for the summary.  Checked: by the batch
 * (check.c), or made by the core (-L).
 */
static int
output_puzzle(struct output *out, const struct item *it, const char *reply)
{
	static int (*const print[])(struct output *, const struct item *,
	    const char *) = {
		[VERB_PRINT_LINE] = output_line,
		[VERB_PRINT_GRID] = output_solution,
		[VERB_PRINT_COUNT] = output_count,
		[VERB_PRINT_BLOCK] = output_block,
		[VERB_PRINT_LIST] = output_solutions
	};

	out->done++;
	if (strncmp(reply, "ERR ", 4) == 0)
		return (output_err(out, it, reply, 0));
	return (print[out->query.verb->print](out, it, reply));
}

/* "1h02m03s" for a number of seconds, into buf. */
static const char *
output_duration(const char *secs, char *buf, size_t size)
{
	unsigned long long	s = strtoull(secs, NULL, 10);

	if (s >= 86400)
		snprintf(buf, size, " (%llud%02lluh%02llum)", s / 86400,
		    s / 3600 % 24, s / 60 % 60);
	else
		snprintf(buf, size, " (%lluh%02llum%02llus)", s / 3600,
		    s / 60 % 60, s % 60);
	return (buf);
}

/*
 * The lines of a STATS reply, checked (check.c): names aligned, names
 * and values shown as output_shown() shows a line (one shown escaped
 * is left out of the alignment).
 */
static void
output_stats(struct output *out, const char *reply)
{
	const char	*p, *stat, *val;
	char		 human[64], *name, *value;
	size_t		 n, width = 0;

	for (p = reply; strncmp(p, "STAT ", 5) == 0; p += strcspn(p, "\n") + 1)
		if ((n = strcspn(p + 5, " \n")) > width &&
		    echo_printable(p + 5, n))
			width = n;
	output_begin(out, 1);
	for (p = reply; strncmp(p, "STAT ", 5) == 0; p += strcspn(p, "\n") + 1) {
		stat = p + 5;
		n = strcspn(stat, " \n");
		val = stat + n + (stat[n] == ' ');
		human[0] = '\0';
		if (n == 6 && strncmp(stat, "uptime", 6) == 0)
			output_duration(stat + n, human, sizeof human);
		name = echo_text(stat, n);
		value = echo_text(val, strcspn(val, "\n"));
		printf("%-*s %s%s\n", (int)width, name, value, human);
		free(name);
		free(value);
	}
}

static int
output_meta(struct output *out, const struct item *it, const char *reply)
{
	char	*shown;

	if (it->meta == META_STATS) {
		output_stats(out, reply);
		return (0);
	}
	output_begin(out, 0);
	if (it->meta == META_PING && strcmp(reply, "PONG") == 0) {
		if (out->peer == NULL)
			printf("pong (local solver, no daemon)\n");
		else
			printf("pong from %s: time=%.3f ms\n", out->peer,
			    (item_clock() - it->sent) * 1e3);
		return (0);
	}
	if (it->meta == META_VERSION && strncmp(reply, "VERSION ", 8) == 0) {
		shown = echo_text(reply + 8, strlen(reply + 8));
		if (out->peer == NULL)
			printf("sudokuc %s (local solver, no daemon)\n", shown);
		else
			printf("sudokud %s at %s (sudokuc %s)\n", shown,
			    out->peer, SUDOKUC_VERSION);
		free(shown);
		return (0);
	}
	shown = echo_text(reply, strnlen(reply, 100));
	output_warnx(out, "%s: unexpected reply: %s",
	    out->peer != NULL ? out->peer : "local", shown);
	free(shown);
	return (-1);
}

int
output_item(struct output *out, const struct item *it, const char *reply)
{
	switch (it->kind) {
	case ITEM_FAIL:
		out->failed++;
		output_warnx(out, "%s: %s", it->src, it->msg);
		return (0);
	case ITEM_BAD:
		out->done++;
		out->invalid++;
		output_error(out, it, it->code, it->msg, 0);
		return (0);
	case ITEM_META:
		return (output_meta(out, it, reply));
	default:
		return (output_puzzle(out, it, reply));
	}
}

