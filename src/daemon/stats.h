/* SPDX-License-Identifier: ISC */
/*
 * stats.h -- server counters for the STATS request.
 *
 * Every thread that counts (the accepting thread and each worker) owns one
 * block of counters and is the only writer of it, so an update is a relaxed
 * load and store, no locked instruction.  STATS sums all blocks without a
 * lock; a sum may be a few requests stale, never torn.  The number of open
 * connections is the one counter written by several threads.
 *
 * Counters are statistics only: nothing decides anything by reading them
 * (the connection scheduler keeps its own clock, admission its own count
 * of open connections, admit.c, which STATS shows).
 */
#ifndef STATS_H
#define STATS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/sudoku.h"
#include "latency.h"

struct evbuffer;

/*
 * Every counter, in the order of the STATS table of doc/protocol.md:
 * X(id, name in STATS, divisor from the kept unit to the one STATS
 * shows, Prometheus metric (after "sudokud_"), its label, divisor to the
 * metric's unit).  The id says the unit kept; the names the unit shown.
 */
#define STATS_COUNTERS(X)						\
	X(TOTAL_CONNECTIONS, "total_connections", 1,			\
	    "connections_total", "", 1)					\
	X(REJECTED_CONNECTIONS, "rejected_connections", 1,		\
	    "connections_rejected_total", "", 1)			\
	X(CMD_SOLVE, "cmd_solve", 1,					\
	    "requests_total", "verb=\"solve\"", 1)			\
	X(CMD_LEXMIN, "cmd_lexmin", 1,					\
	    "requests_total", "verb=\"lexmin\"", 1)			\
	X(CMD_COUNT, "cmd_count", 1,					\
	    "requests_total", "verb=\"count\"", 1)			\
	X(CMD_RATE, "cmd_rate", 1,					\
	    "requests_total", "verb=\"rate\"", 1)			\
	X(CMD_HINT, "cmd_hint", 1,					\
	    "requests_total", "verb=\"hint\"", 1)			\
	X(CMD_GENERATE, "cmd_generate", 1,				\
	    "requests_total", "verb=\"generate\"", 1)			\
	X(CMD_PING, "cmd_ping", 1,					\
	    "requests_total", "verb=\"ping\"", 1)			\
	X(CMD_VERSION, "cmd_version", 1,				\
	    "requests_total", "verb=\"version\"", 1)			\
	X(CMD_HELP, "cmd_help", 1,					\
	    "requests_total", "verb=\"help\"", 1)			\
	X(CMD_STATS, "cmd_stats", 1,					\
	    "requests_total", "verb=\"stats\"", 1)			\
	X(CMD_QUIT, "cmd_quit", 1,					\
	    "requests_total", "verb=\"quit\"", 1)			\
	X(CMD_ANALYZE, "cmd_analyze", 1,				\
	    "requests_total", "verb=\"analyze\"", 1)			\
	X(CMD_HELLO, "cmd_hello", 1,					\
	    "requests_total", "verb=\"hello\"", 1)			\
	X(CMD_SLOWLOG, "cmd_slowlog", 1,				\
	    "requests_total", "verb=\"slowlog\"", 1)			\
	X(CMD_CLIENT, "cmd_client", 1,					\
	    "requests_total", "verb=\"client\"", 1)			\
	X(CMD_CANON, "cmd_canon", 1,					\
	    "requests_total", "verb=\"canon\"", 1)			\
	X(CMD_SHUFFLE, "cmd_shuffle", 1,				\
	    "requests_total", "verb=\"shuffle\"", 1)			\
	X(CMD_MINIMIZE, "cmd_minimize", 1,				\
	    "requests_total", "verb=\"minimize\"", 1)			\
	X(CMD_CONSTRAIN, "cmd_constrain", 1,				\
	    "requests_total", "verb=\"constrain\"", 1)			\
	X(CMD_PATH, "cmd_path", 1,					\
	    "requests_total", "verb=\"path\"", 1)			\
	X(CMD_SOLUTIONS, "cmd_solutions", 1,				\
	    "requests_total", "verb=\"solutions\"", 1)			\
	X(CMD_AUTH, "cmd_auth", 1,					\
	    "requests_total", "verb=\"auth\"", 1)			\
	X(ERR_SYNTAX, "err_syntax", 1,					\
	    "errors_total", "code=\"syntax\"", 1)			\
	X(ERR_LENGTH, "err_length", 1,					\
	    "errors_total", "code=\"length\"", 1)			\
	X(ERR_CHAR, "err_char", 1,					\
	    "errors_total", "code=\"char\"", 1)				\
	X(ERR_CONFLICT, "err_conflict", 1,				\
	    "errors_total", "code=\"conflict\"", 1)			\
	X(ERR_NOSOLUTION, "err_nosolution", 1,				\
	    "errors_total", "code=\"nosolution\"", 1)			\
	X(ERR_MULTIPLE, "err_multiple", 1,				\
	    "errors_total", "code=\"multiple\"", 1)			\
	X(ERR_BUDGET, "err_budget", 1,					\
	    "errors_total", "code=\"budget\"", 1)			\
	X(ERR_WRONG, "err_wrong", 1,					\
	    "errors_total", "code=\"wrong\"", 1)			\
	X(ERR_NOSTEP, "err_nostep", 1,					\
	    "errors_total", "code=\"nostep\"", 1)			\
	X(ERR_TOOLONG, "err_toolong", 1,				\
	    "errors_total", "code=\"toolong\"", 1)			\
	X(ERR_BUSY, "err_busy", 1,					\
	    "errors_total", "code=\"busy\"", 1)				\
	X(ERR_DEADLINE, "err_deadline", 1,				\
	    "errors_total", "code=\"deadline\"", 1)			\
	X(ERR_NOAUTH, "err_noauth", 1,					\
	    "errors_total", "code=\"noauth\"", 1)			\
	X(SOLVED, "solved", 1,						\
	    "solved_total", "", 1)					\
	X(UNSOLVABLE, "unsolvable", 1,					\
	    "unsolvable_total", "", 1)					\
	X(GUESSES, "guesses", 1,					\
	    "guesses_total", "", 1)					\
	X(SOLVE_NSEC, "solve_usec", 1000,				\
	    "solve_seconds_total", "", 1e9)				\
	X(BYTES_READ, "bytes_read", 1,					\
	    "read_bytes_total", "", 1)					\
	X(BYTES_WRITTEN, "bytes_written", 1,				\
	    "written_bytes_total", "", 1)				\
	X(IDLE_KICKS, "idle_kicks", 1,					\
	    "idle_kicks_total", "", 1)					\
	X(OUTPUT_KICKS, "output_kicks", 1,				\
	    "output_kicks_total", "", 1)				\
	X(GONE_KICKS, "gone_kicks", 1,					\
	    "gone_kicks_total", "", 1)					\
	X(TOOLONG_LINES, "toolong_lines", 1,				\
	    "toolong_lines_total", "", 1)				\
	X(TLS_HANDSHAKE_ERRORS, "tls_handshake_errors", 1,		\
	    "tls_handshake_errors_total", "", 1)			\
	X(AUTH_FAILURES, "auth_failures", 1,				\
	    "auth_failures_total", "", 1)				\
	X(PROXY_HEADERS, "proxy_headers", 1,				\
	    "proxy_headers_total", "", 1)				\
	X(PROXY_ERRORS, "proxy_errors", 1,				\
	    "proxy_errors_total", "", 1)					\
	X(POOL_HITS, "generate_pool_hits", 1,				\
	    "generate_pool_hits_total", "", 1)				\
	X(POOL_MISSES, "generate_pool_misses", 1,			\
	    "generate_pool_misses_total", "", 1)			\
	X(METRICS_EVICTED, "metrics_evicted", 1,			\
	    "metrics_evicted_total", "", 1)				\
	X(METRICS_REFUSED, "metrics_refused", 1,			\
	    "metrics_refused_total", "", 1)				\
	X(HTTP_2XX, "http_2xx", 1,					\
	    "http_responses_total", "class=\"2xx\"", 1)		\
	X(HTTP_4XX, "http_4xx", 1,					\
	    "http_responses_total", "class=\"4xx\"", 1)		\
	X(HTTP_5XX, "http_5xx", 1,					\
	    "http_responses_total", "class=\"5xx\"", 1)

#define STATS_ENUM(id, name, div, metric, label, mdiv)	STAT_##id,
enum stat_id {
	STATS_COUNTERS(STATS_ENUM)
	STAT__COUNT
};
#undef STATS_ENUM

/*
 * One thread's counters and latency histograms; a cache line of its own
 * against false sharing.
 */
struct stats {
	_Alignas(64) _Atomic uint64_t	c[STAT__COUNT];
	struct latency			lat;
	/* Gauges: the puzzles of each level in this worker's pool. */
	_Atomic uint64_t		pool[SUDOKU_LEVEL_COUNT];
};

struct admit;
struct stats_server;

/* Only the thread owning st may call this. */
static inline void
stats_add(struct stats *st, enum stat_id id, uint64_t n)
{
	uint64_t	v;

	v = atomic_load_explicit(&st->c[id], memory_order_relaxed);
	atomic_store_explicit(&st->c[id], v + n, memory_order_relaxed);
}

/*
 * The counters of a server with nworkers worker threads: one block per
 * worker (stats_worker(ss, i), i < nworkers) and one for the accepting
 * thread (stats_acceptor(ss)).  The open connections are read from
 * admission's count.
 */
struct stats_server	*stats_server_new(unsigned int nworkers,
			     const struct admit *);
void			 stats_server_free(struct stats_server *);
struct stats		*stats_worker(struct stats_server *, unsigned int);
struct stats		*stats_acceptor(struct stats_server *);

/* Only the thread owning st: a request of verb took ns, waited wait. */
static inline void
stats_latency(struct stats *st, int verb, uint64_t ns)
{
	if (verb >= 0 && verb < LATENCY_VERBS)
		latency_add(&st->lat.verb[verb], ns);
}

static inline void
stats_wait(struct stats *st, uint64_t ns)
{
	latency_add(&st->lat.wait, ns);
}

/* Only the thread owning st: its pool holds n puzzles of level. */
static inline void
stats_pool(struct stats *st, enum sudoku_level level, uint64_t n)
{
	atomic_store_explicit(&st->pool[level], n, memory_order_relaxed);
}

/*
 * The whole STATS reply, END included; the latency of each of the
 * nverbs verbs as percentiles, under the names verbs[] gives them.
 */
void			 stats_print(struct stats_server *, struct evbuffer *,
			     const char *, const char *const *verbs,
			     size_t nverbs);

/* The same figures in Prometheus' text format (version 0.0.4). */
void			 stats_prometheus(struct stats_server *,
			     struct evbuffer *, const char *,
			     const char *const *verbs, size_t nverbs);

#endif /* STATS_H */
