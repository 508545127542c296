/* SPDX-License-Identifier: ISC */
/*
 * sudokuc.c -- the sudokud client: main, and the run, with a daemon or
 * in-process (-L).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "batch.h"
#include "input.h"
#include "local.h"
#include "operands.h"
#include "options.h"
#include "output.h"
#include "servers.h"
#include "verb.h"

/* The batch with the servers; 0, or -1 if it had to stop. */
static int
run_daemon(const struct options *o, struct input *in, struct output *out)
{
	struct batch_opts	 bo;
	struct endpoint		*v;
	size_t			 n, i, nconn;
	int			 r;

	v = servers_choose(o, &n);
	nconn = o->connections != 0 ? o->connections : BATCH_CONN_DEFAULT;
	if (nconn < n)
		nconn = n;	/* at least one connection a server */
	bo.window = o->window;
	bo.timeout = o->timeout != 0 ? o->timeout : BATCH_TIMEOUT_DEFAULT;
	bo.verbose = (o->flags & OUTPUT_VERBOSE) != 0;
	r = batch_run(v, n, nconn, in, &o->query, out, &bo);
	output_peer(out, NULL);		/* the names are freed */
	for (i = 0; i < n; i++)
		servers_free(&v[i]);
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

/* -v: the seeds of the run, which --seed gives again. */
static void
run_seeds(const struct options *o)
{
	const struct verb	*v = o->query.verb;

	if ((v->flags & VERB_SEEDS) && o->number == 1)
		log_warnx("%s: 1 %s puzzle, seed %llu", v->word,
		    sudoku_level_name(o->query.level),
		    (unsigned long long)o->seed);
	else if (v->flags & VERB_SEEDS)
		log_warnx("%s: %lu %s puzzles, seeds %llu to %llu", v->word,
		    (unsigned long)o->number, sudoku_level_name(o->query.level),
		    (unsigned long long)o->seed,
		    (unsigned long long)(o->seed + (o->number - 1)));
	else if (v->flags & VERB_SEEDED)
		log_warnx("%s: seeds %llu, %llu, ... for the puzzles in turn",
		    verb_name(v), (unsigned long long)o->seed,
		    (unsigned long long)(o->seed + 1));
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
	/* One terminal shows both: an error answer once, not twice. */
	if (!o.errorsset && output_one_terminal())
		o.flags |= OUTPUT_ERRSTDERR;
	if (o.flags & OUTPUT_VERBOSE)
		run_seeds(&o);
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
