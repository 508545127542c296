/* SPDX-License-Identifier: ISC */
/*
 * admit.c -- the open connections, counted against max_connections (see
 * admit.h).
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "admit.h"
#include "common/xmalloc.h"

struct admit {
	_Atomic uint64_t	open;
};

struct admit *
admit_new(void)
{
	struct admit	*a;

	a = xcalloc(1, sizeof *a);
	atomic_init(&a->open, 0);
	return (a);
}

void
admit_free(struct admit *a)
{
	free(a);
}

/* Taken, then given back if that went over: never more than max. */
int
admit_open(struct admit *a, unsigned int max)
{
	uint64_t	n;

	n = atomic_fetch_add_explicit(&a->open, 1, memory_order_relaxed);
	if (n >= max) {
		atomic_fetch_sub_explicit(&a->open, 1, memory_order_relaxed);
		return (-1);
	}
	return (0);
}

void
admit_close(struct admit *a)
{
	atomic_fetch_sub_explicit(&a->open, 1, memory_order_relaxed);
}

uint64_t
admit_current(const struct admit *a)
{
	return (atomic_load_explicit(&a->open, memory_order_relaxed));
}
