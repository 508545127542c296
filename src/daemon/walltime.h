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

/*
 * For a warning that can repeat for as long as its cause lasts: true, and
 * *last set to now, when secs have passed since *last (0: never yet).
 */
static inline int
wall_due(int64_t *last, int64_t secs)
{
	int64_t	now = wall_seconds();

	if (now - *last < secs)
		return (0);
	*last = now;
	return (1);
}

#endif /* WALLTIME_H */
