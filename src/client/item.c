/* SPDX-License-Identifier: ISC */
/*
 * item.c -- the clock sudokuc's run is timed by, the names of the meta
 * requests, the table of modes (see item.h).
 */
#include <time.h>

#include "item.h"

/*
 * Every mode: its verb, the word of -v's summary, the ERR codes only
 * its requests can get (check.c: any request may get syntax, toolong,
 * budget if it searches, and deadline when one was sent; wrong is a
 * HINT's with a grid, and sudokuc sends PATH none), and what its
 * requests and replies are like.  The options a verb takes are
 * doc/protocol.md's: CANON and SHUFFLE make no search, so neither
 * budget= nor deadline=; pencil marks are for the verbs of a search
 * alone (SOLVE, LEXMIN, COUNT, SOLUTIONS, ANALYZE).  SOLUTIONS'
 * solutions are grids, printed in the input's shape as SOLVE's.
 */
static const struct mode_def item_modes[MODE__COUNT] = {
	[MODE_SOLVE] = { "SOLVE", "solved", " nosolution ",
	    MODE_GRID | MODE_SEARCH | MODE_MARKS },
	[MODE_LEXMIN] = { "LEXMIN", "solved", " nosolution ",
	    MODE_GRID | MODE_SEARCH | MODE_MARKS },
	[MODE_COUNT] = { "COUNT", "solved", " ", MODE_SEARCH | MODE_MARKS },
	[MODE_RATE] = { "RATE", "rated", " nosolution multiple ",
	    MODE_SEARCH },
	[MODE_HINT] = { "HINT", "hinted",
	    " nosolution multiple wrong nostep ", MODE_SEARCH },
	[MODE_GENERATE] = { "GENERATE", "generated", " ",
	    MODE_GRID | MODE_SEEDED | MODE_SEARCH },
	[MODE_ANALYZE] = { "ANALYZE", "analyzed", " ",
	    MODE_SEARCH | MODE_MARKS },
	[MODE_CANON] = { "CANON", "canonicalized", " ", 0 },
	[MODE_SHUFFLE] = { "SHUFFLE", "shuffled", " ",
	    MODE_GRID | MODE_SEEDED },
	[MODE_MINIMIZE] = { "MINIMIZE", "minimized",
	    " nosolution multiple ", MODE_GRID | MODE_SEEDED | MODE_SEARCH },
	[MODE_CONSTRAIN] = { "CONSTRAIN", "constrained", " nosolution ",
	    MODE_GRID | MODE_SEEDED | MODE_SEARCH },
	[MODE_PATH] = { "PATH", "walked", " nosolution multiple ",
	    MODE_SEARCH | MODE_BLOCK },
	[MODE_SOLUTIONS] = { "SOLUTIONS", "listed", " ",
	    MODE_GRID | MODE_SEARCH | MODE_BLOCK | MODE_MARKS },
};

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

const struct mode_def *
item_mode(enum mode m)
{
	return (&item_modes[m < MODE__COUNT ? m : MODE_SOLVE]);
}

int
item_block(const struct item *it, const struct query *q)
{
	if (it->kind == ITEM_META)
		return (it->meta == META_STATS);
	return ((item_mode(q->mode)->flags & MODE_BLOCK) != 0);
}

/*
 * STATS: its lines are the server's to add, so a bound well above the
 * hundred or so of sudokud's.  PATH: each step takes at least one of the
 * 729 candidates, then its summary.  SOLUTIONS: the number asked.
 */
size_t
item_block_lines(const struct item *it, const struct query *q)
{
	if (it->kind == ITEM_META)
		return (4096);
	if (q->mode == MODE_PATH)
		return (SUDOKU_CELLS * 9 + 1);
	return (q->limit);
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
