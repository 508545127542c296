/*
 * work.c -- the requests that run the solver: SOLVE, LEXMIN, COUNT.
 *
 * A search runs in slices of solver time (sudoku_search_run(), a few
 * dozen guesses at a time between looks at the clock).  A request that
 * finishes within its first slice -- nearly all of them -- runs in the
 * worker's scratch state and costs no allocation.  One that does not is
 * copied into a job the connection owns and resumes on its later turns,
 * so a search of many seconds (the budget allows some) never holds the
 * worker's event loop for more than a slice.
 */
#include <sys/types.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/buffer.h>

#include "common/xmalloc.h"
#include "core/sudoku.h"
#include "config.h"
#include "proto.h"
#include "proto_int.h"
#include "stats.h"

/*
 * Guesses between two looks at the clock: 64 guesses of the hardest
 * known puzzles take 30-150 us here, well inside a slice, and a search
 * that ends before them (most do) reads the clock only twice.
 */
#define WORK_CHUNK	64

struct proto_job {
	const struct proto_cmd	*cmd;
	uint64_t		 budget;	/* in force when it began */
	struct sudoku_search	 search;
};

static uint64_t
work_nsec(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec);
}

static uint64_t
work_budget(const struct proto_env *env)
{
	if (env->cf->budget == 0)
		return (SUDOKU_BUDGET_DEFAULT);
	return (env->cf->budget);
}

/* Parse the puzzle argument or reply with its error; 0 or -1. */
static int
work_puzzle(struct proto_req *req, const struct proto_token *t,
    struct sudoku_grid *g)
{
	struct sudoku_perror	 perr;
	char			 text[192];
	const char		*code;
	enum stat_id		 stat;
	int			 n;

	if (sudoku_parse(t->p, t->len, g, &perr) == 0)
		return (0);
	switch (perr.kind) {
	case SUDOKU_PERR_LENGTH:
		code = "length";
		stat = STAT_ERR_LENGTH;
		break;
	case SUDOKU_PERR_CHAR:
		code = "char";
		stat = STAT_ERR_CHAR;
		break;
	default:
		code = "conflict";
		stat = STAT_ERR_CONFLICT;
		break;
	}
	n = sudoku_perror_text(&perr, text, sizeof text);
	/* A row of a pasted 9-line grid, most likely: say what to send. */
	if (perr.kind == SUDOKU_PERR_LENGTH && perr.length <= 9 && n > 0 &&
	    (size_t)n < sizeof text)
		snprintf(text + n, sizeof text - (size_t)n, " (one row of a "
		    "grid? send the whole puzzle on one line, row by row)");
	proto_error(req, stat, code, text);
	return (-1);
}

/* Run s for at most about max_ns; the time taken goes to *ns and STATS. */
static enum sudoku_result
work_run(const struct proto_env *env, struct sudoku_search *s,
    uint64_t max_ns, uint64_t *ns)
{
	enum sudoku_result	res;
	uint64_t		t0 = work_nsec(), t;

	do {
		res = sudoku_search_run(s, WORK_CHUNK);
		t = work_nsec();
	} while (res == SUDOKU_MORE && t - t0 < max_ns);
	*ns += t - t0;
	stats_add(env->st, STAT_SOLVE_NSEC, t - t0);
	return (res);
}

/* A search is over: count it and reply. */
static void
work_done(const struct proto_env *env, struct evbuffer *out,
    const struct proto_cmd *cmd, const struct sudoku_search *s,
    enum sudoku_result res, uint64_t budget)
{
	struct sudoku_grid	 g;
	struct sudoku_stats	 sst;
	unsigned long		 count;
	char			 line[SUDOKU_CELLS + 1];

	sudoku_search_result(s, &count, &g, &sst);
	stats_add(env->st, STAT_GUESSES, sst.guesses);
	if (res == SUDOKU_SOLVED)
		stats_add(env->st, STAT_SOLVED, 1);
	else if (res == SUDOKU_NOSOLUTION)
		stats_add(env->st, STAT_UNSOLVABLE, 1);

	if (res == SUDOKU_BUDGET) {
		stats_add(env->st, STAT_ERR_BUDGET, 1);
		evbuffer_add_printf(out, "ERR budget search budget of %llu "
		    "guesses exceeded\n", (unsigned long long)budget);
	} else if (cmd == &proto_cmds[PROTO_COUNT])
		evbuffer_add_printf(out, "%lu\n", count);
	else if (res == SUDOKU_NOSOLUTION) {
		stats_add(env->st, STAT_ERR_NOSOLUTION, 1);
		evbuffer_add_printf(out, "ERR nosolution the puzzle has no "
		    "solution\n");
	} else {
		sudoku_format(&g, line);
		line[SUDOKU_CELLS] = '\n';
		evbuffer_add(out, line, sizeof line);
	}
}

/*
 * Start the search in the worker's scratch state; if its first slice
 * does not finish it, move it into a job.
 */
static enum proto_status
work_start(struct proto_req *req, const struct sudoku_grid *g,
    enum sudoku_policy policy, unsigned long limit)
{
	const struct proto_env	*env = req->env;
	struct sudoku_search	*s = env->scratch;
	struct proto_job	*job;
	enum sudoku_result	 res;
	uint64_t		 budget = work_budget(env);

	/* The grid parsed: its givens are consistent, never INVALID. */
	(void)sudoku_search_init(s, g, policy, limit, budget);
	res = work_run(env, s, req->max_ns, req->ns);
	if (res != SUDOKU_MORE) {
		work_done(env, req->out, req->cmd, s, res, budget);
		return (PROTO_OK);
	}
	job = xmalloc(sizeof *job);
	job->cmd = req->cmd;
	job->budget = budget;
	memcpy(&job->search, s, sizeof job->search);
	*req->job = job;
	return (PROTO_MORE);
}

enum proto_status
proto_resume(const struct proto_env *env, struct evbuffer *out,
    struct proto_job *job, uint64_t max_ns, uint64_t *ns)
{
	enum sudoku_result	res;

	*ns = 0;
	if ((res = work_run(env, &job->search, max_ns, ns)) == SUDOKU_MORE)
		return (PROTO_MORE);
	work_done(env, out, job->cmd, &job->search, res, job->budget);
	free(job);
	return (PROTO_OK);
}

void
proto_job_free(const struct proto_env *env, struct proto_job *job)
{
	struct sudoku_stats	sst;

	if (job == NULL)
		return;
	/* The guesses were made, even if nobody hears the answer. */
	sudoku_search_result(&job->search, NULL, NULL, &sst);
	stats_add(env->st, STAT_GUESSES, sst.guesses);
	free(job);
}

enum proto_status
work_solve(struct proto_req *req)
{
	struct sudoku_grid	g;

	if (work_puzzle(req, &req->tok[1], &g) != 0)
		return (PROTO_OK);
	return (work_start(req, &g, SUDOKU_ANY, 1));
}

enum proto_status
work_lexmin(struct proto_req *req)
{
	struct sudoku_grid	g;

	if (work_puzzle(req, &req->tok[1], &g) != 0)
		return (PROTO_OK);
	return (work_start(req, &g, SUDOKU_LEXMIN, 1));
}

/* A decimal limit from 1 to count_max; 0 if it is not one. */
static unsigned long
work_limit(const struct proto_req *req, const struct proto_token *t)
{
	unsigned long	 v = 0, max = req->env->cf->count_max;
	size_t		 i;

	if (t->len == 0)
		return (0);
	for (i = 0; i < t->len; i++) {
		if (t->p[i] < '0' || t->p[i] > '9')
			return (0);
		v = v * 10 + (unsigned long)(t->p[i] - '0');
		if (v > max)
			return (0);
	}
	return (v);
}

enum proto_status
work_count(struct proto_req *req)
{
	struct sudoku_grid	 g;
	unsigned long		 limit = 2;
	char			 text[80];

	if (req->ntok == 3 && (limit = work_limit(req, &req->tok[2])) == 0) {
		snprintf(text, sizeof text, "COUNT limit must be a number "
		    "from 1 to %lu", req->env->cf->count_max);
		proto_error(req, STAT_ERR_SYNTAX, "syntax", text);
		return (PROTO_OK);
	}
	if (work_puzzle(req, &req->tok[1], &g) != 0)
		return (PROTO_OK);
	return (work_start(req, &g, SUDOKU_ANY, limit));
}
