/* SPDX-License-Identifier: ISC */
/*
 * proto_work.c -- requests at work: jobs that run in slices of solver
 * time, and what every job's end has in common (counters, ERR budget,
 * ERR deadline, the effort= tokens) before its verb's reply.
 *
 * Work runs in slices of solver time: a search a few dozen guesses at a
 * time (sudoku_search_run()), a generation an attempt at a time
 * (sudoku_genx_run()), a minimize or constrain a few dozen guesses of
 * its searches at a time (sudoku_reduce_run()), with a look at the
 * clock in between.  A request
 * that finishes within its first slice -- nearly all of them -- runs in
 * the worker's scratch state and costs no allocation.  One that does not
 * moves into a job that the connection owns and resumes on its later
 * turns, so work of many seconds (the budget allows some) never holds
 * the worker's event loop for more than a slice.
 *
 * A deadline (deadline=MS) counts from the request's first slice, on
 * the wall clock: the slices are cut to end by it, and the first look
 * at the clock after it answers ERR deadline, so the answer comes at
 * most one chunk of guesses late.  GENERATE answers its best puzzle
 * instead (the nearest level so far), at most one attempt late; ERR
 * deadline only when it has kept none by then, which a clue ceiling or a
 * pattern alone can cause (without them every attempt keeps its puzzle,
 * and the first slice always ends one), ERR budget when the budget ran
 * out first.
 */
#include <sys/types.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/buffer.h>

#include "common/log.h"
#include "common/xmalloc.h"
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

/*
 * The bytes of a reply of several lines (SOLUTIONS' solutions, a
 * listing's lines) that one step of a slice may add: the step ends
 * there, so that the connection can send them, and stop serving it
 * above output_high, as for any reply (a solution of an easy puzzle can
 * take less than a guess: a slice of them could be megabytes).  So a
 * connection's replies unsent are at most output_high and one piece (or
 * one reply of another verb: the longest, STATS or PATH, are a few KiB).
 */
#define WORK_PIECE	(64 * 1024)

uint64_t
proto_work_nsec(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec);
}

/* The budget in force: the server's, or less if the request asks. */
static uint64_t
work_budget(const struct proto_env *env, const struct proto_opts *o)
{
	uint64_t	b = env->cf->budget;

	if (b == 0)
		b = SUDOKU_BUDGET_DEFAULT;
	return (o->budget != 0 && o->budget < b ? o->budget : b);
}

struct proto_job *
proto_work_job(struct proto_req *req, enum proto_work kind)
{
	/* The scratch state is the job's: a job is mostly its search. */
	struct proto_job	*job = (struct proto_job *)(void *)
				    req->env->scratch;

	job->cmd = req->cmd;
	job->verb = req->verb;
	job->kind = kind;
	job->opts = req->opts;
	job->budget = work_budget(req->env, &req->opts);
	job->start = job->ns = job->seed = 0;
	job->limit = 0;
	job->expired = job->nearest = 0;
	job->marked = job->each = 0;
	return (job);
}

/*
 * Run s for at most about max_ns; the time taken goes to *ns and STATS.
 * *clock is a reading of proto_work_nsec() on the way in (the start)
 * and out (the end): the work of a request reads the clock once between
 * two of its steps, not twice (a reading costs 25-50 ns here, a SOLVE
 * a few us).
 */
static enum sudoku_result
work_search(const struct proto_env *env, struct sudoku_search *s,
    uint64_t max_ns, uint64_t *ns, uint64_t *clock)
{
	enum sudoku_result	res;
	uint64_t		t0 = *clock, t;

	do {
		res = sudoku_search_run(s, WORK_CHUNK);
		t = proto_work_nsec();
	} while (res == SUDOKU_MORE && t - t0 < max_ns);
	*clock = t;
	*ns += t - t0;
	stats_add(env->st, STAT_SOLVE_NSEC, t - t0);
	return (res);
}

/* Attempts of a generation for at most about max_ns (at least one). */
static enum sudoku_result
work_attempts(const struct proto_env *env, struct sudoku_genx *x,
    uint64_t max_ns, uint64_t *ns, uint64_t *clock)
{
	enum sudoku_gen_result	res;
	struct sudoku_grid	found;	/* also in x->gen.puzzle */
	uint64_t		t0 = *clock, t, spent = x->gen.spent;

	do {
		res = sudoku_genx_run(x, 1, &found, NULL);
		t = proto_work_nsec();
	} while (res == SUDOKU_GEN_MORE && t - t0 < max_ns);
	*clock = t;
	*ns += t - t0;
	stats_add(env->st, STAT_SOLVE_NSEC, t - t0);
	stats_add(env->st, STAT_GUESSES, x->gen.spent - spent);
	return (res == SUDOKU_GEN_FOUND ? SUDOKU_SOLVED :
	    res == SUDOKU_GEN_BUDGET ? SUDOKU_BUDGET : SUDOKU_MORE);
}

/* A minimize or constrain for about max_ns, WORK_CHUNK at a time. */
static enum sudoku_result
work_reduce(const struct proto_env *env, struct sudoku_reduce *r,
    uint64_t max_ns, uint64_t *ns, uint64_t *clock)
{
	enum sudoku_result	res;
	uint64_t		t0 = *clock, t;

	do {
		res = sudoku_reduce_run(r, WORK_CHUNK);
		t = proto_work_nsec();
	} while (res == SUDOKU_MORE && t - t0 < max_ns);
	*clock = t;
	*ns += t - t0;
	stats_add(env->st, STAT_SOLVE_NSEC, t - t0);
	return (res);
}

/* SOLUTIONS' search is over: had it any solution? */
static enum sudoku_result
work_listed(const struct sudoku_search *s)
{
	unsigned long	found = 0;

	sudoku_search_result(s, &found, NULL, NULL);
	return (found > 0 ? SUDOKU_SOLVED : SUDOKU_NOSOLUTION);
}

/*
 * SOLUTIONS: each solution found, a line in out, for about max_ns and
 * at most WORK_PIECE; once they are all out, SUDOKU_SOLVED, or
 * SUDOKU_NOSOLUTION if there were none (counted unsolvable, as COUNT's
 * 0 is; the reply is END all the same).  The limit-th solution ends it
 * at once: a slice that stopped right after it must not leave the job
 * to a deadline checked before the search would have said it is done.
 */
static enum sudoku_result
work_each(const struct proto_env *env, struct evbuffer *out,
    struct sudoku_search *s, unsigned long limit, uint64_t max_ns,
    uint64_t *ns, uint64_t *clock)
{
	struct sudoku_grid	g;
	enum sudoku_result	res;
	uint64_t		t0 = *clock, t;
	size_t			n = 0;
	unsigned long		found;
	char			line[SUDOKU_CELLS + 1];

	line[SUDOKU_CELLS] = '\n';
	do {
		if ((res = sudoku_search_next(s, WORK_CHUNK, &g)) ==
		    SUDOKU_SOLVED) {
			sudoku_format(&g, line);
			evbuffer_add(out, line, sizeof line);
			n += sizeof line;
			sudoku_search_result(s, &found, NULL, NULL);
			res = found >= limit ? SUDOKU_SOLVED : SUDOKU_MORE;
		} else if (res == SUDOKU_NOSOLUTION)
			res = work_listed(s);
		t = proto_work_nsec();
	} while (res == SUDOKU_MORE && t - t0 < max_ns &&
	    n < WORK_PIECE);
	*clock = t;
	*ns += t - t0;
	stats_add(env->st, STAT_SOLVE_NSEC, t - t0);
	return (res);
}

/* A listing's next piece: SUDOKU_SOLVED once its END is out. */
static enum sudoku_result
work_list(const struct proto_env *env, struct evbuffer *out,
    struct proto_list *l, uint64_t *ns, uint64_t *clock)
{
	uint64_t	t0 = *clock;
	int		done;

	done = l->more(env, l, out, WORK_PIECE);
	*clock = proto_work_nsec();
	*ns += *clock - t0;
	return (done ? SUDOKU_SOLVED : SUDOKU_MORE);
}

/* The job's work for about max_ns (less, by its deadline). */
static enum sudoku_result
work_run(const struct proto_env *env, struct evbuffer *out,
    struct proto_job *job, uint64_t max_ns, uint64_t *ns)
{
	switch (job->kind) {
	case PROTO_WORK_LIST:
		return (work_list(env, out, &job->u.list, ns, &job->clock));
	case PROTO_WORK_SEARCH:
		if (job->each)
			return (work_each(env, out, &job->u.search,
			    job->limit, max_ns, ns, &job->clock));
		return (work_search(env, &job->u.search, max_ns, ns,
		    &job->clock));
	case PROTO_WORK_GENERATE:
		return (work_attempts(env, &job->u.genx, max_ns, ns,
		    &job->clock));
	default:
		return (work_reduce(env, &job->u.reduce, max_ns, ns,
		    &job->clock));
	}
}

/*
 * GENERATE at its deadline, or out of budget under one: its best puzzle
 * so far will do (SUDOKU_SOLVED, job->nearest); with none kept, ERR
 * deadline (job->expired) or ERR budget.  Going on to the first puzzle
 * kept would break the deadline's promise: with a clue ceiling or a
 * pattern that may take the whole budget (issue 34).
 */
static enum sudoku_result
work_nearest(struct proto_job *job)
{
	struct sudoku_grid	best;

	if (sudoku_genx_best(&job->u.genx, &best, NULL) == 0) {
		job->nearest = 1;
		return (SUDOKU_SOLVED);
	}
	return (SUDOKU_BUDGET);
}

/* A job cut short, by its deadline (job->expired) or its budget. */
static enum sudoku_result
work_cut(struct proto_job *job, enum sudoku_result res)
{
	return (job->kind == PROTO_WORK_GENERATE ? work_nearest(job) : res);
}

/*
 * A job's slice: SUDOKU_MORE while it is not done, and not once its
 * deadline has passed (then job->expired).
 */
static enum sudoku_result
work_slice(const struct proto_env *env, struct evbuffer *out,
    struct proto_job *job, uint64_t max_ns, uint64_t *ns)
{
	enum sudoku_result	res;
	uint64_t		end = 0, now, spent = *ns;

	if (job->opts.deadline != 0) {
		end = job->start + job->opts.deadline * 1000000;
		if ((now = job->clock) >= end) {
			job->expired = 1;
			return (work_cut(job, SUDOKU_BUDGET));
		}
		if (end - now < max_ns)
			max_ns = end - now;
	}
	res = work_run(env, out, job, max_ns, ns);
	job->ns += *ns - spent;
	if (res == SUDOKU_MORE && end != 0 && job->clock >= end) {
		job->expired = 1;
		return (work_cut(job, SUDOKU_BUDGET));
	}
	if (res == SUDOKU_BUDGET && end != 0)
		return (work_cut(job, res));
	return (res);
}

/* The effort so far: guesses made, and solver time. */
static uint64_t
work_guesses(const struct proto_job *job)
{
	struct sudoku_stats	sst;

	if (job->kind == PROTO_WORK_LIST)
		return (0);
	if (job->kind == PROTO_WORK_GENERATE)
		return (job->u.genx.gen.spent);
	if (job->kind == PROTO_WORK_REDUCE)
		sudoku_reduce_result(&job->u.reduce, NULL, &sst);
	else
		sudoku_search_result(&job->u.search, NULL, NULL, &sst);
	return (sst.guesses);
}

/* ERR budget or ERR deadline: the job ended without an answer. */
static void
work_cutoff(struct proto_done *d)
{
	const struct proto_job	*job = d->job;
	char			 text[128];

	if (job->expired) {
		snprintf(text, sizeof text, "deadline of %llu ms passed "
		    "before an answer", (unsigned long long)job->opts.deadline);
		proto_error(d->env, d->out, STAT_ERR_DEADLINE, "deadline",
		    text);
		return;
	}
	snprintf(text, sizeof text, "search budget of %llu guesses "
	    "exceeded", (unsigned long long)job->budget);
	proto_error(d->env, d->out, STAT_ERR_BUDGET, "budget", text);
}

/* The reply: the verb's, or the cutoff's. */
static void
work_answer(struct proto_done *d, enum sudoku_result res)
{
	if (res == SUDOKU_BUDGET)
		work_cutoff(d);
	else
		d->job->cmd->reply(d);
}

void
proto_work_effort(struct evbuffer *out, struct evbuffer *tmp,
    const struct proto_cmd *cmd, uint64_t guesses, uint64_t ns)
{
	size_t	len;

	if ((len = evbuffer_get_length(tmp)) > 0)
		evbuffer_remove_buffer(tmp, out, len - 1);
	evbuffer_drain(tmp, evbuffer_get_length(tmp));
	if (!(cmd->flags & PROTO_CMD_GUESSES))
		evbuffer_add_printf(out, " guesses=%llu",
		    (unsigned long long)guesses);
	evbuffer_add_printf(out, " us=%llu\n", (unsigned long long)(ns /
	    1000));
}

/*
 * The reply, in out; with effort=1, made aside, then moved with it.  Its
 * making is solver time too (a rating takes up to a millisecond): it
 * counts in *ns, the job's effort and STATS.
 */
static void
work_reply(const struct proto_env *env, struct proto_done *d,
    enum sudoku_result res, uint64_t *ns)
{
	struct proto_job	*job = (struct proto_job *)d->job;
	struct evbuffer		*out = d->out, *tmp = NULL;
	uint64_t		 t0 = job->clock, t;

	if (job->opts.effort && (d->out = tmp = evbuffer_new()) == NULL)
		fatalx("%s: out of memory", __func__);
	work_answer(d, res);
	job->clock = proto_work_nsec();
	t = job->clock - t0;
	*ns += t;
	job->ns += t;
	stats_add(env->st, STAT_SOLVE_NSEC, t);
	if (tmp == NULL)
		return;
	d->out = out;
	proto_work_effort(out, tmp, job->cmd, d->guesses, job->ns);
	evbuffer_free(tmp);
}

/*
 * A job is over: count it and reply.  A search's count, first solution
 * and effort come from one look at it (SOLVE: every request).
 */
static void
work_done(const struct proto_env *env, struct evbuffer *out,
    struct proto_job *job, enum sudoku_result res, uint64_t *ns,
    struct proto_info *info)
{
	struct proto_done	 d;
	struct sudoku_stats	 sst;

	d.env = env;
	d.out = out;
	d.job = job;
	d.result = res;
	d.count = 0;
	if (job->kind == PROTO_WORK_SEARCH) {
		sudoku_search_result(&job->u.search, &d.count, &d.first, &sst);
		d.guesses = sst.guesses;
	} else {
		memset(&d.first, 0, sizeof d.first);
		d.guesses = work_guesses(job);
	}
	if (info != NULL) {
		info->verb = job->verb;
		info->guesses = d.guesses;
		info->instant = 0;
	}
	if (job->kind == PROTO_WORK_LIST)
		return;		/* its END is out; it counts nothing */
	if (job->kind == PROTO_WORK_SEARCH || job->kind == PROTO_WORK_REDUCE)
		stats_add(env->st, STAT_GUESSES, d.guesses);
	/* SOLUTIONS cut after some: they went out, so it found some. */
	if (res == SUDOKU_SOLVED || (job->each && d.count > 0))
		stats_add(env->st, STAT_SOLVED, 1);
	else if (res == SUDOKU_NOSOLUTION)
		stats_add(env->st, STAT_UNSOLVABLE, 1);
	work_reply(env, &d, res, ns);
}

enum proto_status
proto_work_first(struct proto_req *req, struct proto_job *job)
{
	enum sudoku_result	 res;

	req->worked = 1;
	job->start = job->clock = req->clock != 0 ? req->clock :
	    proto_work_nsec();
	res = work_slice(req->env, req->out, job, req->max_ns, req->ns);
	if (res != SUDOKU_MORE)
		work_done(req->env, req->out, job, res, req->ns, req->info);
	if (req->info != NULL)
		req->info->clock = job->clock;
	if (res != SUDOKU_MORE)
		return (PROTO_OK);
	*req->job = xmalloc(sizeof **req->job);
	memcpy(*req->job, job, sizeof *job);
	return (PROTO_MORE);
}

enum proto_status
proto_work_list(struct proto_req *req,
    int (*more)(const struct proto_env *, struct proto_list *,
    struct evbuffer *, size_t), uint64_t at, uint64_t left)
{
	struct proto_job	*job = proto_work_job(req, PROTO_WORK_LIST);

	job->u.list.more = more;
	job->u.list.at = at;
	job->u.list.left = left;
	return (proto_work_first(req, job));
}

enum proto_status
proto_work_search(struct proto_req *req, struct proto_job *job,
    const struct sudoku_grid *g, enum sudoku_policy policy,
    unsigned long limit)
{
	/* The grid parsed: its givens are consistent, never INVALID. */
	(void)sudoku_search_init(&job->u.search, g, policy, limit,
	    job->budget);
	return (proto_work_first(req, job));
}

enum proto_status
proto_work_given(struct proto_req *req, struct proto_job *job,
    enum sudoku_policy policy, unsigned long limit)
{
	struct sudoku_perror	perr;

	/* Marks were checked by proto_given(): never INVALID. */
	if (job->marked)
		(void)sudoku_search_init_cands(&job->u.search, &job->cands,
		    policy, limit, job->budget);
	else if (sudoku_search_init(&job->u.search, &job->puzzle, policy,
	    limit, job->budget) == SUDOKU_INVALID &&
	    sudoku_conflict(&job->puzzle, &perr) != 0) {
		/* Two givens clash: ERR conflict, as sudoku_parse() says. */
		proto_perror(req, &perr);
		return (PROTO_OK);
	}
	return (proto_work_first(req, job));
}

enum proto_status
proto_resume(const struct proto_env *env, struct evbuffer *out,
    struct proto_job *job, uint64_t max_ns, uint64_t *ns,
    struct proto_info *info)
{
	enum sudoku_result	res;

	*ns = 0;
	job->clock = proto_work_nsec();
	res = work_slice(env, out, job, max_ns, ns);
	if (res != SUDOKU_MORE)
		work_done(env, out, job, res, ns, info);
	if (info != NULL)
		info->clock = job->clock;
	if (res == SUDOKU_MORE)
		return (PROTO_MORE);
	free(job);
	return (PROTO_OK);
}

void
proto_job_free(const struct proto_env *env, struct proto_job *job)
{
	if (job == NULL)
		return;
	/* The guesses were made, even if nobody hears the answer. */
	if (job->kind != PROTO_WORK_GENERATE)	/* (counted as they go) */
		stats_add(env->st, STAT_GUESSES, work_guesses(job));
	free(job);
}

struct proto_job *
proto_scratch_new(void)
{
	return (xmalloc(sizeof (struct proto_job)));
}
