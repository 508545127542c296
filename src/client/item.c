/* SPDX-License-Identifier: ISC */
/*
 * item.c -- the clock sudokuc's run is timed by, the names of the meta
 * requests, what a reply to an item is like (see item.h).
 */
#include <time.h>

#include "item.h"
#include "verb.h"

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

int
item_block(const struct item *it, const struct query *q)
{
	if (it->kind == ITEM_META)
		return (it->meta == META_STATS);
	return ((q->verb->flags & VERB_BLOCK) != 0);
}

/*
 * STATS: its lines are the server's to add, so a bound well above the
 * hundred or so of sudokud's.  A verb's: its row's, or the number asked.
 */
size_t
item_block_lines(const struct item *it, const struct query *q)
{
	if (it->kind == ITEM_META)
		return (4096);
	return (q->verb->lines != 0 ? q->verb->lines : q->limit);
}

void
item_search(const struct item *it, struct sudoku_search *s,
    enum sudoku_policy policy, unsigned long limit, uint64_t budget)
{
	if (it->marked)
		(void)sudoku_search_init_cands(s, &it->marks, policy, limit,
		    budget);
	else
		(void)sudoku_search_init(s, &it->grid, policy, limit, budget);
}
