/* SPDX-License-Identifier: ISC */
/*
 * stats.c -- server counters: per-thread blocks summed for STATS.
 */
#include <sys/types.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>

#include "admit.h"
#include "common/log.h"
#include "latency.h"
#include "metrics_text.h"
#include "stats.h"
#include "common/xmalloc.h"
#include "walltime.h"

struct stats_server {
	struct stats		*blocks;	/* nworkers + 1, aligned */
	unsigned int		 nworkers;
	struct timespec		 start;		/* CLOCK_MONOTONIC */
	const struct admit	*admit;		/* the open connections */
};

#define STATS_NAME(id, name, div, metric, label, mdiv)	[STAT_##id] = name,
static const char *const stats_names[STAT__COUNT] = {
	STATS_COUNTERS(STATS_NAME)
};
#undef STATS_NAME

#define STATS_DIV(id, name, div, metric, label, mdiv)	[STAT_##id] = div,
static const unsigned int stats_div[STAT__COUNT] = {
	STATS_COUNTERS(STATS_DIV)
};
#undef STATS_DIV

/* The counters as Prometheus metrics: name, label, divisor. */
struct stats_metric {
	const char	*name;		/* after "sudokud_" */
	const char	*label;		/* "" or 'verb="solve"' */
	double		 div;
};
#define STATS_METRIC(id, name, div, metric, label, mdiv)		\
	[STAT_##id] = { metric, label, mdiv },
static const struct stats_metric stats_metrics[STAT__COUNT] = {
	STATS_COUNTERS(STATS_METRIC)
};
#undef STATS_METRIC

/* What each metric family means: its # HELP line. */
static const struct {
	const char	*name;
	const char	*help;
} stats_help[] = {
	{ "connections_total", "Connections accepted." },
	{ "connections_rejected_total", "Connections refused with ERR busy." },
	{ "requests_total", "Requests, by verb (a bare puzzle is solve)." },
	{ "errors_total", "Error replies, by code." },
	{ "solved_total", "Requests that found at least one solution." },
	{ "unsolvable_total", "Requests on puzzles proved unsolvable." },
	{ "guesses_total", "Branch points made by the solver." },
	{ "solve_seconds_total", "Time spent in the solver." },
	{ "read_bytes_total", "Bytes received from clients." },
	{ "written_bytes_total", "Bytes sent to clients." },
	{ "idle_kicks_total", "Connections closed for idling." },
	{ "output_kicks_total", "Connections closed for not reading." },
	{ "gone_kicks_total", "Connections closed with work under way "
	  "because their client had gone." },
	{ "toolong_lines_total", "Request lines longer than max_line." },
	{ "tls_handshake_errors_total", "TLS handshakes that failed or did "
	  "not finish within handshake_timeout." },
	{ "auth_failures_total", "AUTH requests with a wrong secret." },
	{ "proxy_headers_total", "PROXY protocol headers accepted." },
	{ "proxy_errors_total", "Connections refused for a bad PROXY header." },
	{ "generate_pool_hits_total", "GENERATE requests served from the "
	  "pool of puzzles made ahead." },
	{ "generate_pool_misses_total", "GENERATE requests the pool could "
	  "have served but had no puzzle for." },
	{ "metrics_evicted_total", "Metrics connections closed to make room "
	  "for a new one at metrics_max_connections." },
	{ "metrics_refused_total", "Metrics connections refused with 503: "
	  "every one open was sending a response." },
	{ "http_responses_total", "Responses of the HTTP listeners, by "
	  "class of status." },
};

/* The puzzles of level made ahead, in every worker's pool. */
static uint64_t
stats_pool_sum(struct stats_server *ss, int level)
{
	uint64_t	sum = 0;
	unsigned int	i;

	for (i = 0; i <= ss->nworkers; i++)
		sum += atomic_load_explicit(&ss->blocks[i].pool[level],
		    memory_order_relaxed);
	return (sum);
}

struct stats_server *
stats_server_new(unsigned int nworkers, const struct admit *admit)
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
	/* Zero bits are zero atomics on every target C11 allows us. */
	memset(ss->blocks, 0, size);
	for (i = 0; i <= nworkers; i++) {
		for (j = 0; j < STAT__COUNT; j++)
			atomic_init(&ss->blocks[i].c[j], 0);
	}
	ss->nworkers = nworkers;
	ss->admit = admit;
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

/* The sum over every thread of verb's histogram (or, < 0, the waits). */
static void
stats_latency_sum(struct stats_server *ss, int verb, struct latency_sum *s)
{
	const struct latency_hist	*h[257];
	unsigned int			 i;

	for (i = 0; i <= ss->nworkers && i < 257; i++)
		h[i] = verb < 0 ? &ss->blocks[i].lat.wait :
		    &ss->blocks[i].lat.verb[verb];
	latency_merge(h, i, s);
}

/* STATS' latency lines: the median and the 99th percentile, in us. */
static void
stats_print_latency(struct stats_server *ss, struct evbuffer *out,
    const char *const *verbs, size_t nverbs)
{
	struct latency_sum	s;
	size_t			i;

	for (i = 0; i < nverbs && i < LATENCY_VERBS; i++) {
		stats_latency_sum(ss, (int)i, &s);
		evbuffer_add_printf(out, "STAT latency_%s_p50_usec %" PRIu64
		    "\nSTAT latency_%s_p99_usec %" PRIu64 "\n", verbs[i],
		    latency_quantile_us(&s, 0.5), verbs[i],
		    latency_quantile_us(&s, 0.99));
	}
	stats_latency_sum(ss, -1, &s);
	evbuffer_add_printf(out, "STAT queue_wait_p50_usec %" PRIu64 "\n"
	    "STAT queue_wait_p99_usec %" PRIu64 "\n",
	    latency_quantile_us(&s, 0.5), latency_quantile_us(&s, 0.99));
}

/* The whole STATS reply, END included. */
void
stats_print(struct stats_server *ss, struct evbuffer *out,
    const char *version, const char *const *verbs, size_t nverbs)
{
	struct timespec	now;
	uint64_t	v;
	unsigned int	i;

	clock_gettime(CLOCK_MONOTONIC, &now);
	evbuffer_add_printf(out, "STAT pid %ld\n", (long)getpid());
	evbuffer_add_printf(out, "STAT uptime %lld\n",
	    (long long)(now.tv_sec - ss->start.tv_sec));
	evbuffer_add_printf(out, "STAT time %lld\n", (long long)wall_seconds());
	evbuffer_add_printf(out, "STAT version %s\n", version);
	evbuffer_add_printf(out, "STAT workers %u\n", ss->nworkers);
	evbuffer_add_printf(out, "STAT curr_connections %" PRIu64 "\n",
	    admit_current(ss->admit));
	for (i = 0; i < STAT__COUNT; i++) {
		v = stats_sum(ss, i) / stats_div[i];
		evbuffer_add_printf(out, "STAT %s %" PRIu64 "\n",
		    stats_names[i], v);
	}
	for (i = 0; i < SUDOKU_LEVEL_COUNT; i++)
		evbuffer_add_printf(out, "STAT generate_pool_%s %" PRIu64 "\n",
		    sudoku_level_name((enum sudoku_level)i),
		    stats_pool_sum(ss, (int)i));
	stats_print_latency(ss, out, verbs, nverbs);
	evbuffer_add(out, "END\n", 4);
}

static const char *
stats_help_of(const char *name)
{
	size_t	i;

	for (i = 0; i < sizeof stats_help / sizeof stats_help[0]; i++) {
		if (strcmp(stats_help[i].name, name) == 0)
			return (stats_help[i].help);
	}
	return ("");
}

/* One sample; its family's HELP and TYPE lines first when it is new. */
static void
stats_sample(struct evbuffer *out, const struct stats_metric *m,
    const struct stats_metric *prev, double v)
{
	char	num[32];

	if (prev == NULL || strcmp(prev->name, m->name) != 0)
		evbuffer_add_printf(out, "# HELP sudokud_%s %s\n"
		    "# TYPE sudokud_%s counter\n", m->name,
		    stats_help_of(m->name), m->name);
	metrics_number(num, sizeof num, v);
	evbuffer_add_printf(out, "sudokud_%s%s%s%s %s\n", m->name,
	    *m->label != '\0' ? "{" : "", m->label,
	    *m->label != '\0' ? "}" : "", num);
}

/* The histograms: request duration by verb, and the wait before serving. */
static void
stats_prometheus_latency(struct stats_server *ss, struct evbuffer *out,
    const char *const *verbs, size_t nverbs)
{
	struct latency_sum	s;
	char			label[64];
	size_t			i;

	evbuffer_add_printf(out, "# HELP sudokud_request_duration_seconds "
	    "Time from a request's last byte to its reply queued, by verb.\n"
	    "# TYPE sudokud_request_duration_seconds histogram\n");
	for (i = 0; i < nverbs && i < LATENCY_VERBS; i++) {
		stats_latency_sum(ss, (int)i, &s);
		snprintf(label, sizeof label, "verb=\"%s\"", verbs[i]);
		latency_prometheus(out, "sudokud_request_duration_seconds",
		    label, &s);
	}
	evbuffer_add_printf(out, "# HELP sudokud_queue_wait_seconds Time "
	    "from a request's last byte to the start of its serving.\n"
	    "# TYPE sudokud_queue_wait_seconds histogram\n");
	stats_latency_sum(ss, -1, &s);
	latency_prometheus(out, "sudokud_queue_wait_seconds", "", &s);
}

void
stats_prometheus(struct stats_server *ss, struct evbuffer *out,
    const char *version, const char *const *verbs, size_t nverbs)
{
	struct timespec	 now;
	unsigned int	 i;

	clock_gettime(CLOCK_MONOTONIC, &now);
	evbuffer_add_printf(out, "# HELP sudokud_build_info The running "
	    "version.\n# TYPE sudokud_build_info gauge\n"
	    "sudokud_build_info{version=\"%s\"} 1\n", version);
	evbuffer_add_printf(out, "# HELP sudokud_uptime_seconds Time since "
	    "the start.\n# TYPE sudokud_uptime_seconds gauge\n"
	    "sudokud_uptime_seconds %lld\n",
	    (long long)(now.tv_sec - ss->start.tv_sec));
	evbuffer_add_printf(out, "# HELP sudokud_workers Worker threads.\n"
	    "# TYPE sudokud_workers gauge\nsudokud_workers %u\n",
	    ss->nworkers);
	evbuffer_add_printf(out, "# HELP sudokud_open_connections Open client "
	    "connections.\n# TYPE sudokud_open_connections gauge\n"
	    "sudokud_open_connections %" PRIu64 "\n", admit_current(ss->admit));
	for (i = 0; i < STAT__COUNT; i++)
		stats_sample(out, &stats_metrics[i], i == 0 ? NULL :
		    &stats_metrics[i - 1], (double)stats_sum(ss, i) /
		    stats_metrics[i].div);
	evbuffer_add_printf(out, "# HELP sudokud_generate_pool_puzzles "
	    "Puzzles made ahead for GENERATE, by level.\n"
	    "# TYPE sudokud_generate_pool_puzzles gauge\n");
	for (i = 0; i < SUDOKU_LEVEL_COUNT; i++)
		evbuffer_add_printf(out, "sudokud_generate_pool_puzzles"
		    "{level=\"%s\"} %" PRIu64 "\n",
		    sudoku_level_name((enum sudoku_level)i),
		    stats_pool_sum(ss, (int)i));
	stats_prometheus_latency(ss, out, verbs, nverbs);
}
