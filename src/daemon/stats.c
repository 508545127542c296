/*
 * stats.c -- server counters: per-thread blocks summed for STATS.
 */
#include <sys/types.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>

#include "common/log.h"
#include "stats.h"
#include "common/xmalloc.h"

struct stats_server {
	struct stats		*blocks;	/* nworkers + 1, aligned */
	unsigned int		 nworkers;
	struct timespec		 start;		/* CLOCK_MONOTONIC */
	_Atomic uint64_t	 curr;		/* open connections */
};

#define STATS_NAME(id, name, div)	[STAT_##id] = name,
static const char *const stats_names[STAT__COUNT] = {
	STATS_COUNTERS(STATS_NAME)
};
#undef STATS_NAME

#define STATS_DIV(id, name, div)	[STAT_##id] = div,
static const unsigned int stats_div[STAT__COUNT] = {
	STATS_COUNTERS(STATS_DIV)
};
#undef STATS_DIV

struct stats_server *
stats_server_new(unsigned int nworkers)
{
	struct stats_server	*ss;
	size_t			 size;
	unsigned int		 i, j;

	ss = xcalloc(1, sizeof *ss);
	/* aligned_alloc() wants a multiple of the alignment: it is. */
	size = ((size_t)nworkers + 1) * sizeof *ss->blocks;
	if ((ss->blocks = aligned_alloc(_Alignof(struct stats), size)) ==
	    NULL)
		fatal("%s", __func__);
	for (i = 0; i <= nworkers; i++) {
		for (j = 0; j < STAT__COUNT; j++)
			atomic_init(&ss->blocks[i].c[j], 0);
	}
	ss->nworkers = nworkers;
	atomic_init(&ss->curr, 0);
	clock_gettime(CLOCK_MONOTONIC, &ss->start);
	return (ss);
}

void
stats_server_free(struct stats_server *ss)
{
	if (ss == NULL)
		return;
	free(ss->blocks);
	free(ss);
}

struct stats *
stats_worker(struct stats_server *ss, unsigned int i)
{
	return (&ss->blocks[i]);
}

/* The block after the workers' is the accepting thread's. */
struct stats *
stats_acceptor(struct stats_server *ss)
{
	return (&ss->blocks[ss->nworkers]);
}

/* Count a new connection unless max are open already; 0 or -1. */
int
stats_conn_open(struct stats_server *ss, unsigned int max)
{
	uint64_t	n;

	n = atomic_fetch_add_explicit(&ss->curr, 1, memory_order_relaxed);
	if (n >= max) {
		atomic_fetch_sub_explicit(&ss->curr, 1, memory_order_relaxed);
		return (-1);
	}
	return (0);
}

void
stats_conn_close(struct stats_server *ss)
{
	atomic_fetch_sub_explicit(&ss->curr, 1, memory_order_relaxed);
}

uint64_t
stats_conn_current(struct stats_server *ss)
{
	return (atomic_load_explicit(&ss->curr, memory_order_relaxed));
}

static uint64_t
stats_sum(struct stats_server *ss, enum stat_id id)
{
	uint64_t	sum = 0;
	unsigned int	i;

	for (i = 0; i <= ss->nworkers; i++) {
		sum += atomic_load_explicit(&ss->blocks[i].c[id],
		    memory_order_relaxed);
	}
	return (sum);
}

/* The whole STATS reply, END included. */
void
stats_print(struct stats_server *ss, struct evbuffer *out,
    const char *version)
{
	struct timespec	now;
	uint64_t	v;
	unsigned int	i;

	clock_gettime(CLOCK_MONOTONIC, &now);
	evbuffer_add_printf(out, "STAT pid %ld\n", (long)getpid());
	evbuffer_add_printf(out, "STAT uptime %lld\n",
	    (long long)(now.tv_sec - ss->start.tv_sec));
	evbuffer_add_printf(out, "STAT time %lld\n", (long long)time(NULL));
	evbuffer_add_printf(out, "STAT version %s\n", version);
	evbuffer_add_printf(out, "STAT workers %u\n", ss->nworkers);
	evbuffer_add_printf(out, "STAT curr_connections %" PRIu64 "\n",
	    stats_conn_current(ss));
	for (i = 0; i < STAT__COUNT; i++) {
		v = stats_sum(ss, i) / stats_div[i];
		evbuffer_add_printf(out, "STAT %s %" PRIu64 "\n",
		    stats_names[i], v);
	}
	evbuffer_add(out, "END\n", 4);
}
