/* SPDX-License-Identifier: ISC */
/*
 * latency.c -- latency histograms summed, their quantiles, and their
 * Prometheus text (see latency.h).
 */
#include <sys/types.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <event2/buffer.h>

#include "latency.h"
#include "metrics_text.h"

/* 10 us to 10 s: 1, 2.5 and 5 of each decade, in ns. */
const uint64_t latency_bounds[LATENCY_BOUNDS] = {
	10000, 25000, 50000, 100000, 250000, 500000,
	1000000, 2500000, 5000000, 10000000, 25000000, 50000000,
	100000000, 250000000, 500000000,
	1000000000, 2500000000ULL, 5000000000ULL, 10000000000ULL
};

void
latency_merge(const struct latency_hist *const *h, size_t nh,
    struct latency_sum *s)
{
	size_t	i, b;
	uint64_t v;

	memset(s, 0, sizeof *s);
	for (i = 0; i < nh; i++) {
		for (b = 0; b < LATENCY_BUCKETS; b++) {
			v = atomic_load_explicit(&h[i]->n[b],
			    memory_order_relaxed);
			s->n[b] += v;
			s->count += v;
		}
		s->sum_ns += atomic_load_explicit(&h[i]->sum_ns,
		    memory_order_relaxed);
	}
}

uint64_t
latency_quantile_us(const struct latency_sum *s, double q)
{
	uint64_t	seen = 0, rank;
	size_t		b;

	if (s->count == 0)
		return (0);
	/* The smallest bucket holding at least q of the requests. */
	rank = (uint64_t)((double)s->count * q);
	if (rank >= s->count)
		rank = s->count - 1;
	for (b = 0; b < LATENCY_BOUNDS; b++) {
		seen += s->n[b];
		if (seen > rank)
			return (latency_bounds[b] / 1000);
	}
	return (latency_bounds[LATENCY_BOUNDS - 1] / 1000);
}

void
latency_prometheus(struct evbuffer *out, const char *name,
    const char *label, const struct latency_sum *s)
{
	char		le[32], sum[32];
	uint64_t	cum = 0;
	size_t		b;
	const char	*sep = *label != '\0' ? "," : "";

	for (b = 0; b < LATENCY_BUCKETS; b++) {
		cum += s->n[b];
		if (b < LATENCY_BOUNDS)
			metrics_number(le, sizeof le,
			    (double)latency_bounds[b] / 1e9);
		else
			snprintf(le, sizeof le, "+Inf");
		evbuffer_add_printf(out, "%s_bucket{%s%sle=\"%s\"} %" PRIu64
		    "\n", name, label, sep, le, cum);
	}
	metrics_number(sum, sizeof sum, (double)s->sum_ns / 1e9);
	evbuffer_add_printf(out, "%s_sum%s%s%s %s\n", name,
	    *label != '\0' ? "{" : "", label, *label != '\0' ? "}" : "", sum);
	evbuffer_add_printf(out, "%s_count%s%s%s %" PRIu64 "\n", name,
	    *label != '\0' ? "{" : "", label, *label != '\0' ? "}" : "",
	    s->count);
}
