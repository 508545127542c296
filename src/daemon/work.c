/* SPDX-License-Identifier: ISC */
/*
 * work.c -- the requests that run the solver: SOLVE, LEXMIN, COUNT, and
 * RATE, HINT and GENERATE of the logical solver.
 *
 * Work runs in slices of solver time: a search a few dozen guesses at a
 * time (sudoku_search_run()), a generation an attempt at a time
 * (sudoku_gen_run()), with a look at the clock in between.  A request
 * that finishes within its first slice -- nearly all of them -- runs in
 * the worker's scratch state and costs no allocation.  One that does not
 * moves into a job that the connection owns and resumes on its later
 * turns, so work of many seconds (the budget allows some) never holds
 * the worker's event loop for more than a slice.
 *
 * RATE and HINT first make sure the puzzle has exactly one solution,
 * with a search counting to two; the rating and the hint themselves are
 * plain calls (the slowest rating of the puzzle sets takes about 1.3 ms,
 * doc/rating.md).
 */
#include <sys/types.h>
#include <sys/random.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/buffer.h>

#include "common/cells.h"
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

/* The level GENERATE makes when none is asked for. */
#define WORK_LEVEL	SUDOKU_LEVEL_MEDIUM

enum work_kind {
	WORK_SEARCH,		/* SOLVE, LEXMIN, COUNT; RATE, HINT check */
	WORK_GENERATE
};

/* A request at work: what it is, and the state of its search. */
struct proto_job {
	const struct proto_cmd	*cmd;
	enum work_kind		 kind;
	uint64_t		 budget;	/* in force when it began */
	struct sudoku_grid	 puzzle;	/* RATE, HINT */
	struct sudoku_cands	 cands;		/* HINT: the player's grid */
	union {
		struct sudoku_search	search;
		struct sudoku_gen	gen;
	} u;
};

static void	work_done(const struct proto_env *, struct evbuffer *,
		    struct proto_job *, enum sudoku_result);

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

/* One error reply, counted; for the code paths without a request. */
static void
work_error(const struct proto_env *env, struct evbuffer *out,
    enum stat_id stat, const char *code, const char *text)
{
	stats_add(env->st, stat, 1);
	evbuffer_add_printf(out, "ERR %s %s\n", code, text);
}

/* A parse error's reply: "length", "char" or "conflict". */
static void
work_perror(struct proto_req *req, const struct sudoku_perror *perr)
{
	char		 text[192];
	const char	*code = "conflict";
	enum stat_id	 stat = STAT_ERR_CONFLICT;
	int		 n;

	if (perr->kind == SUDOKU_PERR_LENGTH ||
	    perr->kind == SUDOKU_PERR_CANDLEN) {
		code = "length";
		stat = STAT_ERR_LENGTH;
	} else if (perr->kind == SUDOKU_PERR_CHAR) {
		code = "char";
		stat = STAT_ERR_CHAR;
	}
	n = sudoku_perror_text(perr, text, sizeof text);
	/* A row of a pasted 9-line grid, most likely: say what to send. */
	if (perr->kind == SUDOKU_PERR_LENGTH && perr->length <= 9 && n > 0 &&
	    (size_t)n < sizeof text)
		snprintf(text + n, sizeof text - (size_t)n, " (one row of a "
		    "grid? send the whole puzzle on one line, row by row)");
	proto_error(req, stat, code, text);
}

/* Parse the puzzle argument or reply with its error; 0 or -1. */
static int
work_puzzle(struct proto_req *req, const struct proto_token *t,
    struct sudoku_grid *g)
{
	struct sudoku_perror	perr;

	if (sudoku_parse(t->p, t->len, g, &perr) == 0)
		return (0);
	work_perror(req, &perr);
	return (-1);
}

/* Run s for at most about max_ns; the time taken goes to *ns and STATS. */
static enum sudoku_result
work_search(const struct proto_env *env, struct sudoku_search *s,
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

/* Attempts of a generation for at most about max_ns (at least one). */
static enum sudoku_gen_result
work_attempts(const struct proto_env *env, struct sudoku_gen *gen,
    uint64_t max_ns, uint64_t *ns)
{
	enum sudoku_gen_result	res;
	struct sudoku_grid	found;	/* also in gen->puzzle */
	uint64_t		t0 = work_nsec(), t, spent = gen->spent;

	do {
		res = sudoku_gen_run(gen, 1, &found, NULL);
		t = work_nsec();
	} while (res == SUDOKU_GEN_MORE && t - t0 < max_ns);
	*ns += t - t0;
	stats_add(env->st, STAT_SOLVE_NSEC, t - t0);
	stats_add(env->st, STAT_GUESSES, gen->spent - spent);
	return (res);
}

/* A job's slice; SUDOKU_MORE while it is not done. */
static enum sudoku_result
work_slice(const struct proto_env *env, struct proto_job *job,
    uint64_t max_ns, uint64_t *ns)
{
	switch (job->kind) {
	case WORK_GENERATE:
		switch (work_attempts(env, &job->u.gen, max_ns, ns)) {
		case SUDOKU_GEN_FOUND:
			return (SUDOKU_SOLVED);
		case SUDOKU_GEN_BUDGET:
			return (SUDOKU_BUDGET);
		default:
			return (SUDOKU_MORE);
		}
	default:
		return (work_search(env, &job->u.search, max_ns, ns));
	}
}

/*
 * The first slice of job, which lives on the stack or in the scratch
 * state; if it does not finish, the job moves to the heap for later.
 */
static enum proto_status
work_first(struct proto_req *req, struct proto_job *job)
{
	enum sudoku_result	 res;

	job->cmd = req->cmd;
	job->budget = work_budget(req->env);
	if ((res = work_slice(req->env, job, req->max_ns, req->ns)) !=
	    SUDOKU_MORE) {
		work_done(req->env, req->out, job, res);
		return (PROTO_OK);
	}
	*req->job = xmalloc(sizeof **req->job);
	memcpy(*req->job, job, sizeof *job);
	return (PROTO_MORE);
}

/* A search for up to limit solutions of g, in the worker's scratch. */
static enum proto_status
work_start(struct proto_req *req, const struct sudoku_grid *g,
    enum sudoku_policy policy, unsigned long limit,
    const struct sudoku_cands *cands)
{
	/* The scratch search state is the job's: a job is mostly that. */
	struct proto_job	*job = (struct proto_job *)(void *)
				    req->env->scratch;

	job->kind = WORK_SEARCH;
	job->puzzle = *g;
	if (cands != NULL)
		job->cands = *cands;
	/* The grid parsed: its givens are consistent, never INVALID. */
	(void)sudoku_search_init(&job->u.search, g, policy, limit,
	    work_budget(req->env));
	return (work_first(req, job));
}

enum proto_status
proto_resume(const struct proto_env *env, struct evbuffer *out,
    struct proto_job *job, uint64_t max_ns, uint64_t *ns)
{
	enum sudoku_result	res;

	*ns = 0;
	if ((res = work_slice(env, job, max_ns, ns)) == SUDOKU_MORE)
		return (PROTO_MORE);
	work_done(env, out, job, res);
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
	if (job->kind == WORK_SEARCH) {
		sudoku_search_result(&job->u.search, NULL, NULL, &sst);
		stats_add(env->st, STAT_GUESSES, sst.guesses);
	}
	free(job);
}

/* HINT, once the puzzle is known to have one solution. */
static void
work_hinted(const struct proto_env *env, struct evbuffer *out,
    const struct proto_job *job, const struct sudoku_grid *solution)
{
	struct sudoku_step	 step;
	uint8_t			 cells[SUDOKU_CELLS];
	char			 text[1024];
	int			 n;

	if ((n = sudoku_cands_wrong(&job->cands, solution, cells)) > 0) {
		cells_text(cells, n, text, sizeof text);
		work_error(env, out, STAT_ERR_WRONG, "wrong", text);
		return;
	}
	switch (sudoku_hint(&job->cands, &step)) {
	case SUDOKU_HINT_STEP:
		sudoku_step_text(&step, text, sizeof text);
		evbuffer_add_printf(out, "%s\n", text);
		break;
	case SUDOKU_HINT_DONE:
		evbuffer_add(out, "solved\n", 7);
		break;
	case SUDOKU_HINT_NOSTEP:
		work_error(env, out, STAT_ERR_NOSTEP, "nostep", "no logical "
		    "step applies; this needs trial and error");
		break;
	default:	/* cannot be: the state agrees with the solution */
		work_error(env, out, STAT_ERR_WRONG, "wrong", "the grid "
		    "contradicts itself");
		break;
	}
}

/* RATE, once the puzzle is known to have one solution. */
static void
work_rated(const struct proto_env *env, struct evbuffer *out,
    const struct proto_job *job)
{
	struct sudoku_rating	r;
	char			text[64];

	/* Its uniqueness check finds at once what the search found. */
	if (sudoku_rate(&job->puzzle, job->budget, &r) != SUDOKU_SOLVED) {
		work_error(env, out, STAT_ERR_BUDGET, "budget", "the rating "
		    "ran out of budget");
		return;
	}
	sudoku_rating_text(&r, text, sizeof text);
	evbuffer_add_printf(out, "%s\n", text);
}

/* GENERATE's puzzle, blanks as '.'. */
static void
work_generated(struct evbuffer *out, const struct sudoku_gen *gen)
{
	char	line[SUDOKU_CELLS + 1];
	int	i;

	sudoku_format(&gen->puzzle, line);
	for (i = 0; i < SUDOKU_CELLS; i++) {
		if (line[i] == '0')
			line[i] = '.';
	}
	line[SUDOKU_CELLS] = '\n';
	evbuffer_add(out, line, sizeof line);
}

/* The reply to a search that found count solutions (first the first). */
static void
work_found(const struct proto_env *env, struct evbuffer *out,
    const struct proto_job *job, unsigned long count,
    const struct sudoku_grid *first)
{
	char	line[SUDOKU_CELLS + 1];

	if (job->cmd == &proto_cmds[PROTO_COUNT])
		evbuffer_add_printf(out, "%lu\n", count);
	else if (count == 0)
		work_error(env, out, STAT_ERR_NOSOLUTION, "nosolution",
		    "the puzzle has no solution");
	else if (count > 1)	/* RATE, HINT */
		work_error(env, out, STAT_ERR_MULTIPLE, "multiple",
		    "the puzzle has more than one solution");
	else if (job->cmd == &proto_cmds[PROTO_RATE])
		work_rated(env, out, job);
	else if (job->cmd == &proto_cmds[PROTO_HINT])
		work_hinted(env, out, job, first);
	else {
		sudoku_format(first, line);
		line[SUDOKU_CELLS] = '\n';
		evbuffer_add(out, line, sizeof line);
	}
}

/* A job is over: count it and reply. */
static void
work_done(const struct proto_env *env, struct evbuffer *out,
    struct proto_job *job, enum sudoku_result res)
{
	struct sudoku_grid	 first;
	struct sudoku_stats	 sst;
	unsigned long		 count = 0;
	char			 text[80];

	if (job->kind == WORK_SEARCH) {
		sudoku_search_result(&job->u.search, &count, &first, &sst);
		stats_add(env->st, STAT_GUESSES, sst.guesses);
	}
	if (res == SUDOKU_SOLVED)
		stats_add(env->st, STAT_SOLVED, 1);
	else if (res == SUDOKU_NOSOLUTION)
		stats_add(env->st, STAT_UNSOLVABLE, 1);
	if (res == SUDOKU_BUDGET) {
		snprintf(text, sizeof text, "search budget of %llu guesses "
		    "exceeded", (unsigned long long)job->budget);
		work_error(env, out, STAT_ERR_BUDGET, "budget", text);
	} else if (job->kind == WORK_GENERATE)
		work_generated(out, &job->u.gen);
	else
		work_found(env, out, job, count, &first);
}

enum proto_status
work_solve(struct proto_req *req)
{
	struct sudoku_grid	g;

	if (work_puzzle(req, &req->tok[1], &g) != 0)
		return (PROTO_OK);
	return (work_start(req, &g, SUDOKU_ANY, 1, NULL));
}

enum proto_status
work_lexmin(struct proto_req *req)
{
	struct sudoku_grid	g;

	if (work_puzzle(req, &req->tok[1], &g) != 0)
		return (PROTO_OK);
	return (work_start(req, &g, SUDOKU_LEXMIN, 1, NULL));
}

/* A decimal number from min to max in *v; 0, or -1 if it is not one. */
static int
work_number(const struct proto_token *t, uint64_t min, uint64_t max,
    uint64_t *v)
{
	uint64_t	d;
	size_t		i;

	*v = 0;
	if (t->len == 0)
		return (-1);
	for (i = 0; i < t->len; i++) {
		if (t->p[i] < '0' || t->p[i] > '9')
			return (-1);
		d = (uint64_t)(t->p[i] - '0');
		if (*v > (UINT64_MAX - d) / 10)
			return (-1);
		*v = *v * 10 + d;
	}
	return (*v < min || *v > max ? -1 : 0);
}

enum proto_status
work_count(struct proto_req *req)
{
	struct sudoku_grid	 g;
	uint64_t		 limit = 2;
	char			 text[80];

	if (req->ntok == 3 && work_number(&req->tok[2], 1,
	    req->env->cf->count_max, &limit) != 0) {
		snprintf(text, sizeof text, "COUNT limit must be a number "
		    "from 1 to %lu", req->env->cf->count_max);
		proto_error(req, STAT_ERR_SYNTAX, "syntax", text);
		return (PROTO_OK);
	}
	if (work_puzzle(req, &req->tok[1], &g) != 0)
		return (PROTO_OK);
	return (work_start(req, &g, SUDOKU_ANY, (unsigned long)limit, NULL));
}

enum proto_status
work_rate(struct proto_req *req)
{
	struct sudoku_grid	g;

	if (work_puzzle(req, &req->tok[1], &g) != 0)
		return (PROTO_OK);
	return (work_start(req, &g, SUDOKU_ANY, 2, NULL));
}

enum proto_status
work_hint(struct proto_req *req)
{
	struct sudoku_grid	 g;
	struct sudoku_cands	 c;
	struct sudoku_perror	 perr;
	const struct proto_token *t = &req->tok[req->ntok == 3 ? 2 : 1];

	if (work_puzzle(req, &req->tok[1], &g) != 0)
		return (PROTO_OK);
	if (sudoku_cands_parse(t->p, t->len, &g, &c, &perr) != 0) {
		work_perror(req, &perr);
		return (PROTO_OK);
	}
	return (work_start(req, &g, SUDOKU_ANY, 2, &c));
}

/* GENERATE's arguments: a level, a seed, both (in that order), none. */
static int
work_gen_args(struct proto_req *req, enum sudoku_level *level,
    uint64_t *seed)
{
	int	i = 1;

	*level = WORK_LEVEL;
	if (req->ntok > i && !(req->tok[i].p[0] >= '0' &&
	    req->tok[i].p[0] <= '9')) {
		if (sudoku_level_parse(req->tok[i].p, req->tok[i].len,
		    level) != 0) {
			proto_error(req, STAT_ERR_SYNTAX, "syntax", "GENERATE "
			    "level must be easy, medium, hard, expert or "
			    "extreme");
			return (-1);
		}
		i++;
	}
	if (req->ntok > i + 1 || (req->ntok == i + 1 &&
	    work_number(&req->tok[i], 0, UINT64_MAX, seed) != 0)) {
		proto_error(req, STAT_ERR_SYNTAX, "syntax", "GENERATE seed "
		    "must be a number from 0 to 18446744073709551615");
		return (-1);
	}
	if (req->ntok == i &&
	    getrandom(seed, sizeof *seed, GRND_NONBLOCK) != sizeof *seed)
		*seed = work_nsec();
	return (0);
}

enum proto_status
work_generate(struct proto_req *req)
{
	struct proto_job	*job = (struct proto_job *)(void *)
				    req->env->scratch;
	enum sudoku_level	 level;
	uint64_t		 seed;

	if (work_gen_args(req, &level, &seed) != 0)
		return (PROTO_OK);
	job->kind = WORK_GENERATE;
	sudoku_gen_init(&job->u.gen, seed, level, work_budget(req->env));
	return (work_first(req, job));
}

struct proto_job *
proto_scratch_new(void)
{
	return (xmalloc(sizeof (struct proto_job)));
}
