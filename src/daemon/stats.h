/*
 * stats.h -- server counters for the STATS request.
 *
 * Every thread that counts (the accepting thread and each worker) owns one
 * block of counters and is the only writer of it, so an update is a relaxed
 * load and store, no locked instruction.  STATS sums all blocks without a
 * lock; a sum may be a few requests stale, never torn.  The number of open
 * connections is the one counter written by several threads.
 */
#ifndef STATS_H
#define STATS_H

#include <stdatomic.h>
#include <stdint.h>

struct evbuffer;

/* In the order of the STATS table of doc/protocol.md. */
enum stat_id {
	STAT_TOTAL_CONNECTIONS = 0,
	STAT_REJECTED_CONNECTIONS,
	STAT_CMD_SOLVE,
	STAT_CMD_LEXMIN,
	STAT_CMD_COUNT,
	STAT_CMD_PING,
	STAT_CMD_VERSION,
	STAT_CMD_HELP,
	STAT_CMD_STATS,
	STAT_CMD_QUIT,
	STAT_ERR_SYNTAX,
	STAT_ERR_LENGTH,
	STAT_ERR_CHAR,
	STAT_ERR_CONFLICT,
	STAT_ERR_NOSOLUTION,
	STAT_ERR_BUDGET,
	STAT_ERR_TOOLONG,
	STAT_ERR_BUSY,
	STAT_SOLVED,
	STAT_UNSOLVABLE,
	STAT_GUESSES,
	STAT_SOLVE_USEC,	/* kept in ns (conn.c reads them), shown in us */
	STAT_BYTES_READ,
	STAT_BYTES_WRITTEN,
	STAT_IDLE_KICKS,
	STAT_OUTPUT_KICKS,
	STAT_TOOLONG_LINES,
	STAT__COUNT
};

/* One thread's counters; a cache line of its own against false sharing. */
struct stats {
	_Alignas(64) _Atomic uint64_t	c[STAT__COUNT];
};

struct stats_server;

/* Only the thread owning st may call this. */
static inline void
stats_add(struct stats *st, enum stat_id id, uint64_t n)
{
	uint64_t	v;

	v = atomic_load_explicit(&st->c[id], memory_order_relaxed);
	atomic_store_explicit(&st->c[id], v + n, memory_order_relaxed);
}

/* This thread's own count so far. */
static inline uint64_t
stats_get(struct stats *st, enum stat_id id)
{
	return (atomic_load_explicit(&st->c[id], memory_order_relaxed));
}

struct stats_server	*stats_server_new(unsigned int nblocks, int workers);
void			 stats_server_free(struct stats_server *);
struct stats		*stats_block(struct stats_server *, unsigned int);
int			 stats_conn_open(struct stats_server *, unsigned int);
void			 stats_conn_close(struct stats_server *);
uint64_t		 stats_conn_current(struct stats_server *);
void			 stats_print(struct stats_server *, struct evbuffer *,
			     const char *);

#endif /* STATS_H */
