/* SPDX-License-Identifier: ISC */
/*
 * cfref.c -- a configuration shared by threads, reference counted (see
 * cfref.h).
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "cfref.h"
#include "common/xmalloc.h"
#include "config.h"

struct cfref {
	struct config		*cf;
	_Atomic unsigned int	 refs;
	int			 owned;		/* config_free() at the end */
};

struct cfref *
cfref_new(struct config *cf, int owned)
{
	struct cfref	*r;

	r = xcalloc(1, sizeof *r);
	r->cf = cf;
	r->owned = owned;
	atomic_init(&r->refs, 1);
	return (r);
}

struct cfref *
cfref_hold(struct cfref *r)
{
	atomic_fetch_add_explicit(&r->refs, 1, memory_order_relaxed);
	return (r);
}

struct config *
cfref_config(const struct cfref *r)
{
	return (r->cf);
}

/* The last release frees: acquire what the other threads released. */
void
cfref_release(struct cfref *r)
{
	if (atomic_fetch_sub_explicit(&r->refs, 1,
	    memory_order_acq_rel) != 1)
		return;
	if (r->owned)
		config_free(r->cf);
	free(r);
}
