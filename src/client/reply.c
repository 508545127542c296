/* SPDX-License-Identifier: ISC */
/*
 * reply.c -- the replies of sudokud, made in-process for sudokuc -L.
 *
 * Each function follows the daemon's code path for its request
 * (src/daemon/proto_work.c, proto_solve.c and proto_logic.c: the end of
 * a job, proto_solve_found(), proto_logic_rated(), proto_logic_hinted(),
 * proto_logic_generated(), proto_logic_analyzed()) with the same core
 * calls in the same order, so that the same request gets the same bytes
 * either way: the
 * tests compare the two outputs.  A search the daemon runs in slices
 * gives the same answer in one call (sudoku.h).
 */
#include <stdio.h>
#include <string.h>

#include "common/cells.h"
#include "reply.h"

static void
reply_result(enum sudoku_result r, uint64_t budget, char *buf, size_t size)
{
	if (r == SUDOKU_NOSOLUTION)
		snprintf(buf, size, "ERR nosolution the puzzle has no solution");
	else if (r == SUDOKU_BUDGET)
		snprintf(buf, size, "ERR budget search budget of %llu guesses "
		    "exceeded", (unsigned long long)budget);
	else
		snprintf(buf, size, "ERR conflict the givens break a rule");
}

/* SOLVE, LEXMIN, COUNT. */
static void
reply_solve(const struct item *it, const struct query *q, char *buf,
    size_t size)
{
	struct sudoku_grid	sol;
	enum sudoku_result	r;
	unsigned long		n;

	if (q->mode == MODE_COUNT) {
		r = sudoku_count(&it->grid, q->limit, q->budget, &n, NULL,
		    NULL);
		if (r == SUDOKU_SOLVED || r == SUDOKU_NOSOLUTION)
			snprintf(buf, size, "%lu", n);
		else
			reply_result(r, q->budget, buf, size);
		return;
	}
	r = sudoku_solve(&it->grid, q->mode == MODE_LEXMIN ? SUDOKU_LEXMIN :
	    SUDOKU_ANY, q->budget, &sol, NULL);
	if (r != SUDOKU_SOLVED || size <= SUDOKU_CELLS) {
		reply_result(r, q->budget, buf, size);
		return;
	}
	sudoku_format(&sol, buf);
	buf[SUDOKU_CELLS] = '\0';
}

/*
 * RATE and HINT first count to two: 0 if the puzzle has exactly one
 * solution (in *sol), else the reply is in buf.
 */
static int
reply_unique(const struct item *it, const struct query *q,
    struct sudoku_grid *sol, char *buf, size_t size)
{
	enum sudoku_result	r;
	unsigned long		n = 0;

	r = sudoku_count(&it->grid, 2, q->budget, &n, sol, NULL);
	if (r == SUDOKU_BUDGET || n == 0)
		reply_result(r == SUDOKU_BUDGET ? r : SUDOKU_NOSOLUTION,
		    q->budget, buf, size);
	else if (n > 1)
		snprintf(buf, size, "ERR multiple the puzzle has more than "
		    "one solution");
	return (r == SUDOKU_BUDGET || n != 1 ? -1 : 0);
}

static void
reply_rate(const struct item *it, const struct query *q, char *buf,
    size_t size)
{
	struct sudoku_grid	sol;
	struct sudoku_rating	r;

	if (reply_unique(it, q, &sol, buf, size) == -1)
		return;
	if (sudoku_rate(&it->grid, q->budget, &r) != SUDOKU_SOLVED)
		snprintf(buf, size, "ERR budget the rating ran out of budget");
	else
		sudoku_rating_text(&r, buf, size);
}

static void
reply_hint(const struct item *it, const struct query *q, char *buf,
    size_t size)
{
	struct sudoku_grid	 sol;
	struct sudoku_cands	 c;
	struct sudoku_step	 step;
	uint8_t			 cells[SUDOKU_CELLS];
	char			 text[REPLY_MAX];
	int			 n;

	/* The player's grid, or the puzzle's cells, as the daemon does. */
	if (q->grid != NULL)
		n = sudoku_cands_parse(q->grid, q->gridlen, &it->grid, &c, NULL);
	else
		n = sudoku_cands_parse(it->cells, SUDOKU_CELLS, &it->grid, &c,
		    NULL);
	if (n != 0)	/* cannot be: sudokuc checked both */
		sudoku_cands_init(&c, &it->grid);
	if (reply_unique(it, q, &sol, buf, size) == -1)
		return;
	if ((n = sudoku_cands_wrong(&c, &sol, cells)) > 0) {
		cells_text(cells, n, text, sizeof text);
		snprintf(buf, size, "ERR wrong %s", text);
		return;
	}
	switch (sudoku_hint(&c, &step)) {
	case SUDOKU_HINT_STEP:
		sudoku_step_text(&step, text, sizeof text);
		snprintf(buf, size, "%s", text);
		break;
	case SUDOKU_HINT_DONE:
		snprintf(buf, size, "solved");
		break;
	case SUDOKU_HINT_NOSTEP:
		snprintf(buf, size, "ERR nostep no logical step applies; this "
		    "needs trial and error");
		break;
	default:
		snprintf(buf, size, "ERR wrong the grid contradicts itself");
		break;
	}
}

static void
reply_generate(const struct item *it, const struct query *q, char *buf,
    size_t size)
{
	struct sudoku_gen	gen;
	struct sudoku_grid	g;
	enum sudoku_gen_result	r;
	int			i;

	sudoku_gen_init(&gen, it->seed, q->level, q->budget);
	while ((r = sudoku_gen_run(&gen, 16, &g, NULL)) == SUDOKU_GEN_MORE)
		;
	if (r != SUDOKU_GEN_FOUND || size <= SUDOKU_CELLS) {
		reply_result(SUDOKU_BUDGET, q->budget, buf, size);
		return;
	}
	sudoku_format(&g, buf);
	for (i = 0; i < SUDOKU_CELLS; i++)
		if (buf[i] == '0')
			buf[i] = '.';
	buf[SUDOKU_CELLS] = '\0';
}

/* ANALYZE: status, clues, guesses; solution and rating if unique. */
static void
reply_analyze(const struct item *it, const struct query *q, char *buf,
    size_t size)
{
	static const char	*status[] = { "nosolution", "unique",
				    "multiple" };
	struct sudoku_grid	 sol;
	struct sudoku_rating	 r;
	struct sudoku_stats	 st;
	enum sudoku_result	 res;
	unsigned long		 n = 0;
	char			 text[SUDOKU_CELLS + 1];
	int			 i, clues = 0, len;

	for (i = 0; i < SUDOKU_CELLS; i++)
		clues += it->grid.cell[i] != 0;
	res = sudoku_count(&it->grid, 2, q->budget, &n, &sol, &st);
	if (res == SUDOKU_BUDGET) {
		reply_result(res, q->budget, buf, size);
		return;
	}
	if (n == 1 && sudoku_rate(&it->grid, q->budget, &r) != SUDOKU_SOLVED) {
		snprintf(buf, size, "ERR budget the rating ran out of budget");
		return;
	}
	len = snprintf(buf, size, "status=%s clues=%d guesses=%llu",
	    status[n < 2 ? n : 2], clues, (unsigned long long)st.guesses);
	if (n != 1 || len < 0 || (size_t)len >= size)
		return;
	sudoku_format(&sol, text);
	text[SUDOKU_CELLS] = '\0';
	snprintf(buf + len, size - (size_t)len, " solution=%s level=%s "
	    "score=%u.%u hardest=%s", text, sudoku_level_name(r.level),
	    r.score / 10, r.score % 10, sudoku_technique_name(r.hardest));
}

void
reply_make(const struct item *it, const struct query *q, char *buf,
    size_t size)
{
	if (it->kind == ITEM_META) {
		if (it->meta == META_PING)
			snprintf(buf, size, "PONG");
		else
			snprintf(buf, size, "VERSION %s", SUDOKUC_VERSION);
		return;
	}
	switch (q->mode) {
	case MODE_RATE:
		reply_rate(it, q, buf, size);
		break;
	case MODE_HINT:
		reply_hint(it, q, buf, size);
		break;
	case MODE_GENERATE:
		reply_generate(it, q, buf, size);
		break;
	case MODE_ANALYZE:
		reply_analyze(it, q, buf, size);
		break;
	default:
		reply_solve(it, q, buf, size);
	}
}
