/* SPDX-License-Identifier: ISC */
/*
 * reply.c -- the replies of sudokud, made in-process for sudokuc -L.
 *
 * Each function follows the daemon's code path for its request
 * (src/daemon/proto_work.c, proto_solve.c, proto_logic.c and
 * proto_tools.c: the end of a job, proto_solve_found(),
 * proto_logic_rated(), proto_logic_hinted(), proto_logic_generated(),
 * proto_logic_analyzed(), proto_tools_canon(), proto_tools_shuffle(),
 * proto_tools_reduced(), proto_tools_pathed(), work_each()) with the
 * same core calls in the same order, so that the same request gets the
 * same bytes either way: the tests compare the two outputs.  A search, a
 * generation or a reduction the daemon runs in slices gives the same
 * answer in one call (sudoku.h, sudoku_tools.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cells.h"
#include "common/xmalloc.h"
#include "reply.h"

/* A puzzle as every request that returns one prints it: '.' blanks. */
static void
reply_puzzle(const struct sudoku_grid *g, char *buf)
{
	int	i;

	sudoku_format(g, buf);
	for (i = 0; i < SUDOKU_CELLS; i++)
		if (buf[i] == '0')
			buf[i] = '.';
}

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

/*
 * SOLVE, LEXMIN, COUNT: one search, from the givens or the marks, as
 * the daemon's (proto_solve.c).
 */
static void
reply_solve(const struct item *it, const struct query *q, char *buf,
    size_t size)
{
	struct sudoku_search	s;
	struct sudoku_grid	sol;
	enum sudoku_result	r;
	unsigned long		n;

	item_search(it, &s, q->mode == MODE_LEXMIN ? SUDOKU_LEXMIN :
	    SUDOKU_ANY, q->mode == MODE_COUNT ? q->limit : 1, q->budget);
	r = sudoku_search_run(&s, 0);
	sudoku_search_result(&s, &n, &sol, NULL);
	if (q->mode == MODE_COUNT && r != SUDOKU_BUDGET)
		snprintf(buf, size, "%lu", n);
	else if (r != SUDOKU_SOLVED || size <= SUDOKU_CELLS)
		reply_result(r, q->budget, buf, size);
	else {
		sudoku_format(&sol, buf);
		buf[SUDOKU_CELLS] = '\0';
	}
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

/* GENERATE, with its shape if one was asked (sudoku_genx's puzzles). */
static void
reply_generate(const struct item *it, const struct query *q, char *buf,
    size_t size)
{
	struct sudoku_genx	x;
	struct sudoku_grid	g;
	enum sudoku_gen_result	r;

	/* options_check() made sure the shape can be met. */
	(void)sudoku_genx_init(&x, it->seed, q->level, q->budget,
	    q->shaped ? &q->gen : NULL);
	while ((r = sudoku_genx_run(&x, 16, &g, NULL)) == SUDOKU_GEN_MORE)
		;
	if (r != SUDOKU_GEN_FOUND || size <= SUDOKU_CELLS) {
		reply_result(SUDOKU_BUDGET, q->budget, buf, size);
		return;
	}
	reply_puzzle(&x.gen.puzzle, buf);
	buf[SUDOKU_CELLS] = '\0';
}

/* The rating of a unique puzzle (sol its solution): 0, or -1 if none. */
static int
reply_rating(const struct item *it, const struct query *q,
    const struct sudoku_grid *sol, struct sudoku_rating *r)
{
	if (it->marked)		/* as proto_logic_analyzed() */
		return (sudoku_rate_cands(&it->marks, sol, r, NULL) ==
		    SUDOKU_HINT_DONE ? 0 : -1);
	return (sudoku_rate(&it->grid, q->budget, r) == SUDOKU_SOLVED ? 0 :
	    -1);
}

/* ANALYZE: status, clues, guesses; solution and rating if unique. */
static void
reply_analyze(const struct item *it, const struct query *q, char *buf,
    size_t size)
{
	static const char	*status[] = { "nosolution", "unique",
				    "multiple" };
	struct sudoku_search	 s;
	struct sudoku_grid	 sol;
	struct sudoku_rating	 r;
	struct sudoku_stats	 st;
	unsigned long		 n = 0;
	char			 text[SUDOKU_CELLS + 1];
	int			 i, clues = 0, len;

	for (i = 0; i < SUDOKU_CELLS; i++)
		clues += it->grid.cell[i] != 0;
	item_search(it, &s, SUDOKU_ANY, 2, q->budget);
	if (sudoku_search_run(&s, 0) == SUDOKU_BUDGET) {
		reply_result(SUDOKU_BUDGET, q->budget, buf, size);
		return;
	}
	sudoku_search_result(&s, &n, &sol, &st);
	if (n == 1 && reply_rating(it, q, &sol, &r) != 0) {
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

/* CANON: the form, then its automorphisms. */
static void
reply_canon(const struct item *it, char *buf, size_t size)
{
	struct sudoku_grid	form;
	unsigned long		autos;
	char			line[SUDOKU_CELLS];

	/* Parsed givens are a valid grid: the form always exists. */
	(void)sudoku_canon(&it->grid, &form, &autos, NULL);
	reply_puzzle(&form, line);
	snprintf(buf, size, "%.81s %lu", line, autos);
}

static void
reply_shuffle(const struct item *it, char *buf, size_t size)
{
	struct sudoku_grid	out;

	sudoku_shuffle(&it->grid, it->seed, &out, NULL);
	if (size <= SUDOKU_CELLS)
		return;
	reply_puzzle(&out, buf);
	buf[SUDOKU_CELLS] = '\0';
}

/* MINIMIZE, CONSTRAIN: the answer, or why there is none. */
static void
reply_reduce(const struct item *it, const struct query *q, char *buf,
    size_t size)
{
	struct sudoku_reduce	r;
	struct sudoku_grid	g;
	enum sudoku_result	res;

	/* Parsed givens: never SUDOKU_INVALID. */
	if (q->mode == MODE_MINIMIZE)
		(void)sudoku_minimize_init(&r, &it->grid, it->seed, q->budget);
	else
		(void)sudoku_constrain_init(&r, &it->grid, it->seed, q->budget);
	res = sudoku_reduce_run(&r, 0);
	if (res == SUDOKU_MULTIPLE)
		snprintf(buf, size, "ERR multiple the puzzle has more than "
		    "one solution");
	else if (res != SUDOKU_SOLVED || size <= SUDOKU_CELLS)
		reply_result(res, q->budget, buf, size);
	else {
		sudoku_reduce_result(&r, &g, NULL);
		reply_puzzle(&g, buf);
		buf[SUDOKU_CELLS] = '\0';
	}
}

/* Room for len more bytes after the first at of b. */
static void
reply_room(struct reply_buf *b, size_t at, size_t len)
{
	if (at + len <= b->size)
		return;
	b->size = b->size == 0 ? REPLY_MAX : b->size;
	while (at + len > b->size)
		b->size *= 2;
	b->p = xreallocarray(b->p, b->size, 1);
}

/* Appends a line to a reply of several lines, LF before all but the first. */
static void
reply_line(struct reply_buf *b, size_t *len, const char *line)
{
	size_t	n = strlen(line);

	reply_room(b, *len, n + 2);
	if (*len > 0)
		b->p[(*len)++] = '\n';
	memcpy(b->p + *len, line, n + 1);
	*len += n;
}

/*
 * PATH of the puzzle: one solution first (as RATE), its state, the
 * steps, "nostep ..." at a dead end, the summary, END.
 */
static void
reply_path(const struct item *it, const struct query *q,
    struct reply_buf *b)
{
	struct sudoku_grid	 sol;
	struct sudoku_cands	 c;
	struct sudoku_rating	 r;
	struct sudoku_path	 path;
	struct sudoku_step	 step;
	uint8_t			 cells[SUDOKU_CELLS];
	char			 text[1024];
	size_t			 len = 0;
	int			 n;

	sudoku_cands_init(&c, &it->grid);
	if (reply_unique(it, q, &sol, b->p, b->size) == -1)
		return;
	if ((n = sudoku_cands_wrong(&c, &sol, cells)) > 0) {
		cells_text(cells, n, text, sizeof text);
		snprintf(b->p, b->size, "ERR wrong %s", text);
		return;
	}
	if (sudoku_rate_cands(&c, &sol, &r, NULL) != SUDOKU_HINT_DONE) {
		snprintf(b->p, b->size, "ERR wrong the grid contradicts "
		    "itself");
		return;
	}
	sudoku_path_init(&path, &c);
	while (sudoku_path_next(&path, &step) == SUDOKU_HINT_STEP) {
		sudoku_step_text(&step, text, sizeof text);
		reply_line(b, &len, text);
	}
	if (path.end == SUDOKU_HINT_NOSTEP)
		reply_line(b, &len, "nostep no logical step applies from "
		    "here; the rest needs trial and error");
	sudoku_path_text(&path, &r, text, sizeof text);
	reply_line(b, &len, text);
	reply_line(b, &len, "END");
}

/*
 * SOLUTIONS: the search of LEXMIN walked on, a line a solution, then
 * END, or the ERR budget that cut it short (proto_work.c, work_each()).
 */
static void
reply_solutions(const struct item *it, const struct query *q,
    struct reply_buf *b)
{
	struct sudoku_search	s;
	struct sudoku_grid	g;
	enum sudoku_result	r;
	char			line[128];
	size_t			len = 0;

	item_search(it, &s, SUDOKU_LEXMIN, q->limit, q->budget);
	while ((r = sudoku_search_next(&s, 0, &g)) == SUDOKU_SOLVED) {
		sudoku_format(&g, line);
		line[SUDOKU_CELLS] = '\0';
		reply_line(b, &len, line);
	}
	if (r != SUDOKU_BUDGET) {
		reply_line(b, &len, "END");
		return;
	}
	reply_result(r, q->budget, line, sizeof line);
	reply_line(b, &len, line);
}

/* The one-line replies. */
static void
reply_one(const struct item *it, const struct query *q, char *buf,
    size_t size)
{
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
	case MODE_CANON:
		reply_canon(it, buf, size);
		break;
	case MODE_SHUFFLE:
		reply_shuffle(it, buf, size);
		break;
	case MODE_MINIMIZE:
	case MODE_CONSTRAIN:
		reply_reduce(it, q, buf, size);
		break;
	default:
		reply_solve(it, q, buf, size);
	}
}

void
reply_make(const struct item *it, const struct query *q,
    struct reply_buf *b)
{
	reply_room(b, 0, REPLY_MAX);
	if (it->kind == ITEM_META) {
		if (it->meta == META_PING)
			snprintf(b->p, b->size, "PONG");
		else
			snprintf(b->p, b->size, "VERSION %s", SUDOKUC_VERSION);
	} else if (q->mode == MODE_PATH)
		reply_path(it, q, b);
	else if (q->mode == MODE_SOLUTIONS)
		reply_solutions(it, q, b);
	else
		reply_one(it, q, b->p, b->size);
}

void
reply_buf_free(struct reply_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->size = 0;
}

void
reply_buf_trim(struct reply_buf *b)
{
	if (b->size > REPLY_KEEP)
		reply_buf_free(b);
}

size_t
reply_size(const struct query *q)
{
	if (q->mode != MODE_SOLUTIONS)
		return (REPLY_MAX);
	/* A line a solution, then the longest ERR or END. */
	return ((size_t)q->limit * (SUDOKU_CELLS + 1) + 128);
}
