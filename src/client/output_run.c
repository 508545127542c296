/* SPDX-License-Identifier: ISC */
/*
 * output_run.c -- sudokuc's run as a whole: the output's state, where
 * the answers come from, the progress line, the summary at the end and
 * the exit status (see output.h).
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "output_int.h"
#include "verb.h"

struct output *
output_new(enum format format, const struct query *q, int flags)
{
	struct output	*out;

	out = xcalloc(1, sizeof *out);
	out->format = format;
	out->query = *q;
	out->flags = flags;
	out->start = item_clock();
	return (out);
}

void
output_free(struct output *out)
{
	free(out);
}

void
output_peer(struct output *out, const char *peer)
{
	out->peer = peer;
}

void
output_local(struct output *out, unsigned int threads)
{
	out->threads = threads;
}

void
output_setaside(struct output *out)
{
	out->setaside++;
}

void
output_total(struct output *out, unsigned long total)
{
	out->total = total;
}

int
output_one_terminal(void)
{
	struct stat	o, e;

	return (isatty(STDOUT_FILENO) && isatty(STDERR_FILENO) &&
	    fstat(STDOUT_FILENO, &o) == 0 && fstat(STDERR_FILENO, &e) == 0 &&
	    o.st_rdev == e.st_rdev);
}

void
output_tick(struct output *out)
{
	double	now, rate, elapsed;

	if (!(out->flags & OUTPUT_PROGRESS))
		return;
	now = item_clock();
	elapsed = now - out->start;
	if (elapsed < OUTPUT_PROGRESS_AFTER ||
	    now - out->lastdraw < OUTPUT_PROGRESS_EVERY)
		return;
	out->lastdraw = now;
	rate = out->done / elapsed;
	fprintf(stderr, "\r%lu", out->done);
	if (out->total > out->done)
		fprintf(stderr, "/%lu puzzles (%.0f%%)", out->total,
		    100.0 * out->done / out->total);
	else
		fprintf(stderr, " puzzles");
	fprintf(stderr, ", %.0f/s", rate);
	if (out->total > out->done && rate > 0)
		fprintf(stderr, ", ETA %.0f s",
		    (out->total - out->done) / rate);
	fputs("\033[K", stderr);
	out->drawn = 1;
}

/* -v: what was done, how fast, and by what. */
static void
output_summary(struct output *out)
{
	double			 elapsed = item_clock() - out->start;

	output_warnx(out, "%lu puzzle%s in %.3f s (%.0f/s): %lu %s, "
	    "%lu unsolvable, %lu invalid, %lu other errors",
	    out->done, out->done == 1 ? "" : "s", elapsed,
	    elapsed > 0 ? out->done / elapsed : 0.0, out->solved,
	    out->query.verb->done,
	    out->unsolvable, out->invalid, out->errors);
	if (out->threads > 0)
		output_warnx(out, "solved in-process: %u thread%s, search "
		    "budget %llu guesses per puzzle", out->threads,
		    out->threads == 1 ? "" : "s",
		    (unsigned long long)out->query.budget);
}

int
output_finish(struct output *out, int fatal)
{
	output_clear(out);
	if (ferror(stdout) || fflush(stdout) == EOF) {
		output_warnx(out, "standard output: %s", strerror(errno));
		fatal = 1;
	}
	if (out->flags & OUTPUT_VERBOSE)
		output_summary(out);
	if (out->setaside > 0 && !fatal)
		output_warnx(out, "%lu server%s set aside for wrong answers or "
		    "refusals; every answer printed passed the checks",
		    out->setaside,
		    out->setaside == 1 ? " was" : "s were");
	if (fatal || out->failed > 0)
		return (2);
	if (out->setaside > 0)
		return (3);
	if (out->invalid > 0 || out->errors > 0)
		return (1);
	if (out->unsolvable > 0 && out->query.verb->print != VERB_PRINT_COUNT)
		return (1);
	return (0);
}
