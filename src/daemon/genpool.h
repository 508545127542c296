/* SPDX-License-Identifier: ISC */
/*
 * genpool.h -- a worker's puzzles made ahead: GENERATE without a seed
 * (and without a shape) takes one in microseconds instead of making one.
 *
 * Each worker keeps up to generate_pool puzzles per level, each with
 * the seed that makes it (so info=1 and a later GENERATE of that seed
 * agree), and makes more only while it has nothing else to do: a zero
 * timer, like the run queue's, that does one slice of generation (at
 * most GENPOOL_SLICE_NS of attempts, or one attempt) when the worker's
 * run queue is empty and waits a millisecond when it is not.  Worker
 * thread only; its depth per level and its hits and misses are kept in
 * the worker's statistics (stats.h).
 */
#ifndef GENPOOL_H
#define GENPOOL_H

#include <stdint.h>

#include "core/sudoku.h"

/* Solving time one turn of filling may take: a slice (conn.c). */
#define GENPOOL_SLICE_NS	1000000

struct event_base;
struct conn_set;
struct proto_env;
struct genpool;

/*
 * A pool on base that fills while set has nothing to run, up to
 * env->cf->generate_pool puzzles per level (0: none, and no work).
 */
struct genpool	*genpool_new(struct event_base *, const struct conn_set *,
		    const struct proto_env *);
void		 genpool_free(struct genpool *);

/*
 * A puzzle of level made ahead, and its seed: 0, or -1 if there is none
 * (then filling goes on, if it had stopped; a level whose generations
 * kept running out of budget gets one more try).
 */
int		 genpool_take(struct genpool *, enum sudoku_level,
		    struct sudoku_grid *, uint64_t *seed);

/*
 * The configuration changed: a smaller pool drops its extra puzzles, and
 * every level may try again (the budget may have grown).
 */
void		 genpool_reconfigure(struct genpool *);

#endif /* GENPOOL_H */
