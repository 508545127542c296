/* SPDX-License-Identifier: ISC */
/*
 * item.c -- the clock sudokuc's run is timed by, the names of the meta
 * requests (see item.h).
 */
#include <time.h>

#include "item.h"

double
item_clock(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

const char *
item_meta_name(enum meta m)
{
	static const char	*names[META_COUNT] = {
		[META_PING] = "ping",
		[META_STATS] = "stats",
		[META_VERSION] = "version"
	};

	return (m < META_COUNT ? names[m] : "?");
}
