/* SPDX-License-Identifier: ISC */
/*
 * latency.h -- latency histograms: how long requests take, per verb,
 * from the moment a request is complete (its LF read) to its reply being
 * queued, and how long they wait before their first slice.
 *
 * Kept as the counters are (stats.h): each thread owns its histograms
 * and is the only writer, an update is relaxed loads and stores, and a
 * reader (STATS, GET /metrics) sums every thread's without a lock.  The
 * buckets are fixed, 10 us to 10 s in steps of 1, 2.5 and 5 a decade,
 * as Prometheus' client libraries and redis' LATENCY HISTOGRAM make
 * them, so that quantiles can be taken across instances.
 */
#ifndef LATENCY_H
#define LATENCY_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct evbuffer;

/* Upper bounds of the buckets, in ns, then one for anything longer. */
#define LATENCY_BOUNDS	19
#define LATENCY_BUCKETS	(LATENCY_BOUNDS + 1)

/* Histograms a thread keeps: one a verb, at most this many verbs. */
#define LATENCY_VERBS	24

extern const uint64_t	latency_bounds[LATENCY_BOUNDS];

struct latency_hist {
	_Atomic uint64_t	n[LATENCY_BUCKETS];	/* not cumulative */
	_Atomic uint64_t	sum_ns;
};

/* One thread's: its verbs' latencies and the waits before serving. */
struct latency {
	struct latency_hist	verb[LATENCY_VERBS];
	struct latency_hist	wait;
};

static inline void
latency_inc(_Atomic uint64_t *p, uint64_t n)
{
	atomic_store_explicit(p, atomic_load_explicit(p,
	    memory_order_relaxed) + n, memory_order_relaxed);
}

/* Only the thread owning h may call this. */
static inline void
latency_add(struct latency_hist *h, uint64_t ns)
{
	size_t	i = 0;

	/* Most requests take microseconds: the first buckets. */
	while (i < LATENCY_BOUNDS && ns > latency_bounds[i])
		i++;
	latency_inc(&h->n[i], 1);
	latency_inc(&h->sum_ns, ns);
}

/* The sum of nh histograms (one a thread), as plain numbers. */
struct latency_sum {
	uint64_t	n[LATENCY_BUCKETS];
	uint64_t	sum_ns;
	uint64_t	count;
};
void	latency_merge(const struct latency_hist *const *h, size_t nh,
	    struct latency_sum *);

/*
 * The q-quantile (0 < q < 1) of s in microseconds: the upper bound of
 * the bucket it falls in (the last bound for the overflow bucket); 0
 * when s is empty.
 */
uint64_t latency_quantile_us(const struct latency_sum *, double q);

/*
 * A Prometheus histogram sample set: the _bucket lines (cumulative, le=
 * in seconds, +Inf last), _sum (seconds) and _count, for metric name
 * with the label text (e.g. 'verb="solve"', or "").
 */
void	latency_prometheus(struct evbuffer *, const char *name,
	    const char *label, const struct latency_sum *);

#endif /* LATENCY_H */
