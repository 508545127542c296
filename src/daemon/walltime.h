/* SPDX-License-Identifier: ISC */
/*
 * walltime.h -- the wall clock in whole seconds, for what the daemon
 * shows (STAT time, the slow log, the HTTP Date) and its once-a-minute
 * warnings.
 *
 * Read as clock_gettime(CLOCK_REALTIME), the clock of the log's time
 * stamps and of the clients (gettimeofday(), Python's time.time()), not
 * with time(2): on Linux that one reads the time kept at the last timer
 * tick, which for a few milliseconds after a second begins still gives
 * the second before, so a STAT time could be older than a reading a
 * client took before sending STATS.
 */
#ifndef WALLTIME_H
#define WALLTIME_H

#include <stdint.h>
#include <time.h>

static inline int64_t
wall_seconds(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((int64_t)ts.tv_sec);
}

#endif /* WALLTIME_H */
