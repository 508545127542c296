/* SPDX-License-Identifier: ISC */
/*
 * genpool.c -- a worker's puzzles made ahead (see genpool.h).
 *
 * One generation is under way at a time, for the level whose pool is
 * the emptiest (the easiest first among equals), from a random seed;
 * each turn gives it attempts for at most a slice, then lets the loop
 * poll the sockets again.  A generation that runs out of budget (a rare
 * level, a small budget) is dropped and the next level tried; a level
 * whose last GENPOOL_TRIES generations all ran out is left alone until
 * a GENERATE asks for it (one more try) or a reload, so one level can
 * never starve the others, and a budget too small for any level leaves
 * an idle worker idle instead of spinning on generations that fail.
 */
#include <sys/types.h>
#include <sys/random.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "config.h"
#include "conn_set.h"
#include "genpool.h"
#include "proto.h"
#include "stats.h"

/* How long a busy worker waits before it looks at the pool again. */
#define GENPOOL_BUSY_US		1000

/* Generations of a level out of budget in a row before it waits. */
#define GENPOOL_TRIES		4

struct genpool_puzzle {
	struct sudoku_grid	grid;
	uint64_t		seed;
};

struct genpool {
	const struct conn_set	*set;
	const struct proto_env	*env;
	struct event		*ev;		/* the next turn of filling */
	struct genpool_puzzle	*slot[SUDOKU_LEVEL_COUNT];
	unsigned int		 n[SUDOKU_LEVEL_COUNT];
	unsigned int		 fails[SUDOKU_LEVEL_COUNT]; /* in a row */
	unsigned int		 cap;		/* slots allocated per level */
	int			 busy;		/* a generation is under way */
	enum sudoku_level	 level;		/* its level */
	uint64_t		 seed;		/* its seed */
	struct sudoku_gen	 gen;
};

static uint64_t
genpool_nsec(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec);
}

static unsigned int
genpool_size(const struct genpool *p)
{
	return ((unsigned int)p->env->cf->generate_pool);
}

/*
 * The emptiest level below the size, of those not out of tries, or -1
 * if there is none.
 */
static int
genpool_wanted(const struct genpool *p)
{
	unsigned int	size = genpool_size(p);
	int		i, best = -1;

	for (i = 0; i < SUDOKU_LEVEL_COUNT; i++)
		if (p->n[i] < size && p->fails[i] < GENPOOL_TRIES &&
		    (best == -1 || p->n[i] < p->n[best]))
			best = i;
	return (best);
}

/* Another turn: at once if the worker is idle, a little later if not. */
static void
genpool_arm(struct genpool *p, int later)
{
	struct timeval	tv = { 0, later ? GENPOOL_BUSY_US : 0 };

	if (genpool_wanted(p) != -1 || p->busy)
		evtimer_add(p->ev, &tv);
}

static void
genpool_start(struct genpool *p, enum sudoku_level level)
{
	if (getrandom(&p->seed, sizeof p->seed, GRND_NONBLOCK) !=
	    sizeof p->seed)
		p->seed = genpool_nsec();
	p->level = level;
	p->busy = 1;
	sudoku_gen_init(&p->gen, p->seed, level, p->env->cf->budget);
}

/* A puzzle found: kept if its level still has room. */
static void
genpool_keep(struct genpool *p)
{
	struct genpool_puzzle	*slot;
	unsigned int		 i;

	p->busy = 0;
	p->fails[p->level] = 0;
	if (p->n[p->level] >= genpool_size(p))
		return;
	if (genpool_size(p) > p->cap) {
		for (i = 0; i < SUDOKU_LEVEL_COUNT; i++)
			p->slot[i] = xreallocarray(p->slot[i], genpool_size(p),
			    sizeof *p->slot[i]);
		p->cap = genpool_size(p);
	}
	slot = &p->slot[p->level][p->n[p->level]++];
	slot->grid = p->gen.puzzle;
	slot->seed = p->seed;
	stats_pool(p->env->st, p->level, p->n[p->level]);
}

/* One turn: a slice of attempts, if the worker has nothing to run. */
static void
genpool_turn(evutil_socket_t fd, short events, void *arg)
{
	struct genpool		*p = arg;
	struct sudoku_grid	 found;
	enum sudoku_gen_result	 res = SUDOKU_GEN_MORE;
	uint64_t		 t0, t, looked, spent;
	int			 level;

	(void)fd;
	(void)events;
	if (conn_set_busy(p->set)) {
		genpool_arm(p, 1);
		return;
	}
	if (!p->busy) {
		if ((level = genpool_wanted(p)) == -1)
			return;		/* full: until a puzzle is taken */
		genpool_start(p, (enum sudoku_level)level);
	}
	t0 = looked = genpool_nsec();
	spent = p->gen.spent;
	do {
		res = sudoku_gen_run(&p->gen, 1, &found, NULL);
		t = genpool_nsec();
		/* A request that came meanwhile goes first, as in a slice. */
		if (t - looked >= CONN_SET_PIECE_NS) {
			looked = t;
			if (conn_set_waiting(p->set))
				break;
		}
	} while (res == SUDOKU_GEN_MORE && t - t0 < GENPOOL_SLICE_NS);
	/* Solver time of the server's, but of no request's. */
	stats_add(p->env->st, STAT_SOLVE_NSEC, t - t0);
	stats_add(p->env->st, STAT_GUESSES, p->gen.spent - spent);
	if (res == SUDOKU_GEN_FOUND)
		genpool_keep(p);
	else if (res == SUDOKU_GEN_BUDGET) {
		p->busy = 0;
		p->fails[p->level]++;
	}
	genpool_arm(p, 0);
}

struct genpool *
genpool_new(struct event_base *base, const struct conn_set *set,
    const struct proto_env *env)
{
	struct genpool	*p;

	p = xcalloc(1, sizeof *p);
	p->set = set;
	p->env = env;
	if ((p->ev = evtimer_new(base, genpool_turn, p)) == NULL)
		fatalx("%s: evtimer_new failed", __func__);
	genpool_arm(p, 0);
	return (p);
}

void
genpool_free(struct genpool *p)
{
	int	i;

	if (p == NULL)
		return;
	event_free(p->ev);
	for (i = 0; i < SUDOKU_LEVEL_COUNT; i++)
		free(p->slot[i]);
	free(p);
}

int
genpool_take(struct genpool *p, enum sudoku_level level,
    struct sudoku_grid *g, uint64_t *seed)
{
	struct genpool_puzzle	*slot;

	if (p == NULL || genpool_size(p) == 0)
		return (-1);
	/* A level out of tries gets one more, for this request. */
	if (p->fails[level] >= GENPOOL_TRIES)
		p->fails[level] = GENPOOL_TRIES - 1;
	if (!evtimer_pending(p->ev, NULL))
		genpool_arm(p, 1);	/* after this request, not before */
	if (p->n[level] == 0) {
		stats_add(p->env->st, STAT_POOL_MISSES, 1);
		return (-1);
	}
	/* The oldest first: each is handed out once. */
	slot = &p->slot[level][0];
	*g = slot->grid;
	*seed = slot->seed;
	memmove(slot, slot + 1, --p->n[level] * sizeof *slot);
	stats_pool(p->env->st, level, p->n[level]);
	stats_add(p->env->st, STAT_POOL_HITS, 1);
	return (0);
}

void
genpool_reconfigure(struct genpool *p)
{
	unsigned int	size = genpool_size(p);
	int		i;

	if (size == 0)
		p->busy = 0;
	/* The budget may have changed: every level may try again. */
	memset(p->fails, 0, sizeof p->fails);
	for (i = 0; i < SUDOKU_LEVEL_COUNT; i++) {
		if (p->n[i] > size) {
			p->n[i] = size;
			stats_pool(p->env->st, (enum sudoku_level)i, size);
		}
	}
	if (!evtimer_pending(p->ev, NULL))
		genpool_arm(p, 0);
}
