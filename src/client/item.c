/* SPDX-License-Identifier: ISC */
/*
 * item.c -- the clock sudokuc's run is timed by (see item.h).
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
