/* SPDX-License-Identifier: ISC */
/*
 * proto_logic.c -- the requests of the logical solver: RATE, HINT,
 * GENERATE, and ANALYZE, which answers COUNT's, SOLVE's and RATE's
 * questions in one line.
 *
 * RATE, HINT and ANALYZE first find out how many solutions the puzzle
 * has, with a search counting to two (a job, in slices); the rating and
 * the hint themselves are plain calls (the slowest rating of the puzzle
 * sets takes about 1.3 ms, doc/rating.md).
 */
#include <sys/types.h>
#include <sys/random.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <event2/buffer.h>

#include "common/cells.h"
#include "genpool.h"
#include "proto.h"
#include "proto_int.h"
#include "stats.h"

/* The level GENERATE makes when none is asked for. */
#define LOGIC_LEVEL	SUDOKU_LEVEL_MEDIUM

enum proto_status
proto_logic_check(struct proto_req *req, const struct sudoku_grid *g,
    const struct sudoku_cands *cands)
{
	struct proto_job	*job;

	job = proto_work_job(req, PROTO_WORK_SEARCH);
	job->puzzle = *g;
	if (cands != NULL)
		job->cands = *cands;
	return (proto_work_search(req, job, g, SUDOKU_ANY, 2));
}

int
proto_logic_unique(struct proto_done *d)
{
	if (d->count == 1)
		return (0);
	if (d->count == 0)
		proto_error(d->env, d->out, STAT_ERR_NOSOLUTION, "nosolution",
		    "the puzzle has no solution");
	else
		proto_error(d->env, d->out, STAT_ERR_MULTIPLE, "multiple",
		    "the puzzle has more than one solution");
	return (-1);
}

/* The rating of the job's puzzle, or ERR budget; 0 or -1. */
static int
logic_rating(struct proto_done *d, struct sudoku_rating *r)
{
	/* Its uniqueness check finds at once what the search found. */
	if (sudoku_rate(&d->job->puzzle, d->job->budget, r) == SUDOKU_SOLVED)
		return (0);
	proto_error(d->env, d->out, STAT_ERR_BUDGET, "budget", "the rating "
	    "ran out of budget");
	return (-1);
}

enum proto_status
proto_logic_rate(struct proto_req *req)
{
	struct sudoku_grid	g;

	if (proto_puzzle(req, &req->tok[1], &g) != 0)
		return (PROTO_OK);
	return (proto_logic_check(req, &g, NULL));
}

void
proto_logic_rated(struct proto_done *d)
{
	struct sudoku_rating	r;
	char			text[64];

	if (proto_logic_unique(d) != 0 || logic_rating(d, &r) != 0)
		return;
	sudoku_rating_text(&r, text, sizeof text);
	evbuffer_add_printf(d->out, "%s\n", text);
}

enum proto_status
proto_logic_hint(struct proto_req *req)
{
	struct sudoku_grid	 g;
	struct sudoku_cands	 c;
	struct sudoku_perror	 perr;
	const struct proto_token *t = &req->tok[req->ntok == 3 ? 2 : 1];

	if (proto_puzzle(req, &req->tok[1], &g) != 0)
		return (PROTO_OK);
	if (sudoku_cands_parse(t->p, t->len, &g, &c, &perr) != 0) {
		proto_perror(req, &perr);
		return (PROTO_OK);
	}
	return (proto_logic_check(req, &g, &c));
}

int
proto_logic_state(struct proto_done *d)
{
	uint8_t	cells[SUDOKU_CELLS];
	char	text[CELLS_TEXT_MAX];
	int	n;

	if (proto_logic_unique(d) != 0)
		return (-1);
	if ((n = sudoku_cands_wrong(&d->job->cands, &d->first, cells)) == 0)
		return (0);
	cells_text(cells, n, text, sizeof text);
	proto_error(d->env, d->out, STAT_ERR_WRONG, "wrong", text);
	return (-1);
}

void
proto_logic_hinted(struct proto_done *d)
{
	struct sudoku_step	 step;
	char			 text[1024];

	if (proto_logic_state(d) != 0)
		return;
	switch (sudoku_hint(&d->job->cands, &step)) {
	case SUDOKU_HINT_STEP:
		sudoku_step_text(&step, text, sizeof text);
		evbuffer_add_printf(d->out, "%s\n", text);
		break;
	case SUDOKU_HINT_DONE:
		evbuffer_add(d->out, "solved\n", 7);
		break;
	case SUDOKU_HINT_NOSTEP:
		proto_error(d->env, d->out, STAT_ERR_NOSTEP, "nostep", "no "
		    "logical step applies; this needs trial and error");
		break;
	default:	/* cannot be: the state agrees with the solution */
		proto_error(d->env, d->out, STAT_ERR_WRONG, "wrong", "the grid "
		    "contradicts itself");
		break;
	}
}

int
proto_logic_seed(struct proto_req *req, int i, uint64_t *seed)
{
	char	text[96];

	if (req->ntok > i + 1 || (req->ntok == i + 1 &&
	    proto_number(&req->tok[i], 0, UINT64_MAX, seed) != 0)) {
		snprintf(text, sizeof text, "%s seed must be a number from 0 "
		    "to 18446744073709551615", req->cmd->name);
		proto_error(req->env, req->out, STAT_ERR_SYNTAX, "syntax",
		    text);
		return (-1);
	}
	if (req->ntok == i &&
	    getrandom(seed, sizeof *seed, GRND_NONBLOCK) != sizeof *seed)
		*seed = proto_work_nsec();
	return (0);
}

/*
 * GENERATE's arguments: a level, a seed, both (in that order), none;
 * *seeded says whether the seed was given.
 */
static int
logic_gen_args(struct proto_req *req, enum sudoku_level *level,
    uint64_t *seed, int *seeded)
{
	int	i = 1;

	*level = LOGIC_LEVEL;
	if (req->ntok > i && !(req->tok[i].p[0] >= '0' &&
	    req->tok[i].p[0] <= '9')) {
		if (sudoku_level_parse(req->tok[i].p, req->tok[i].len,
		    level) != 0) {
			proto_error(req->env, req->out, STAT_ERR_SYNTAX,
			    "syntax", "GENERATE level must be easy, medium, "
			    "hard, expert or extreme");
			return (-1);
		}
		i++;
	}
	*seeded = req->ntok > i;
	return (proto_logic_seed(req, i, seed));
}

/* GENERATE's line for puzzle g of seed and level (nearest: not asked). */
static void
logic_gen_line(struct evbuffer *out, const struct proto_opts *o,
    const struct sudoku_grid *g, uint64_t seed, enum sudoku_level level,
    int nearest)
{
	char	line[SUDOKU_CELLS + 1];

	proto_logic_format(g, line);
	if (o->info)
		evbuffer_add_printf(out, "%.81s seed=%llu level=%s\n", line,
		    (unsigned long long)seed, sudoku_level_name(level));
	else if (nearest)
		evbuffer_add_printf(out, "%.81s level=%s\n", line,
		    sudoku_level_name(level));
	else {
		line[SUDOKU_CELLS] = '\n';
		evbuffer_add(out, line, sizeof line);
	}
}

enum proto_status
proto_logic_generate(struct proto_req *req)
{
	struct proto_job	*job;
	struct sudoku_grid	 g;
	enum sudoku_level	 level;
	uint64_t		 seed;
	int			 seeded;
	char			 why[256];

	if (logic_gen_args(req, &level, &seed, &seeded) != 0)
		return (PROTO_OK);
	/* Any puzzle will do: one made ahead, if there is one. */
	if (!seeded && !req->opts.shaped &&
	    genpool_take(req->env->pool, level, &g, &seed) == 0) {
		stats_add(req->env->st, STAT_SOLVED, 1);
		logic_gen_line(req->out, &req->opts, &g, seed, level, 0);
		return (PROTO_OK);
	}
	job = proto_work_job(req, PROTO_WORK_GENERATE);
	job->seed = seed;
	job->level = level;
	/* Without symmetry=, clues= or pattern=: sudoku_gen_init()'s puzzles. */
	if (sudoku_genx_init(&job->u.genx, seed, level, job->budget,
	    req->opts.shaped ? &req->shape : NULL) != 0) {
		snprintf(why, sizeof why, "no puzzle has that shape: %s",
		    req->opts.shaped ? sudoku_genx_check(&req->shape,
		    level) : "no such level");
		proto_error(req->env, req->out, STAT_ERR_SYNTAX, "syntax",
		    why);
		return (PROTO_OK);
	}
	return (proto_work_first(req, job));
}

void
proto_logic_format(const struct sudoku_grid *g, char out[SUDOKU_CELLS])
{
	int	i;

	sudoku_format(g, out);
	for (i = 0; i < SUDOKU_CELLS; i++) {
		if (out[i] == '0')
			out[i] = '.';
	}
}

/*
 * GENERATE's puzzle; with info=1, its seed and level; a puzzle of
 * another level than asked (the deadline came first) says its level.
 */
void
proto_logic_generated(struct proto_done *d)
{
	const struct proto_job	*job = d->job;
	struct sudoku_grid	 g = job->u.genx.gen.puzzle;
	struct sudoku_rating	 r = job->u.genx.gen.rating;

	if (job->nearest)
		(void)sudoku_genx_best(&job->u.genx, &g, &r);
	logic_gen_line(d->out, &job->opts, &g, job->seed, r.level,
	    job->nearest);
}

enum proto_status
proto_logic_analyze(struct proto_req *req)
{
	struct proto_job	*job = proto_work_job(req, PROTO_WORK_SEARCH);

	if (proto_given(req, &req->tok[1], job) != 0)
		return (PROTO_OK);
	return (proto_work_given(req, job, SUDOKU_ANY, 2));
}

/*
 * ANALYZE: status=unique|multiple|nosolution clues=N guesses=N, and for
 * a unique puzzle solution= level= score= hardest=, as RATE says them.
 */
void
proto_logic_analyzed(struct proto_done *d)
{
	static const char	*status[] = { "nosolution", "unique",
				    "multiple" };
	struct sudoku_rating	 r;
	char			 sol[SUDOKU_CELLS + 1];
	int			 i, clues = 0;

	/* Pencil marks: a cell with one candidate is a given. */
	for (i = 0; i < SUDOKU_CELLS; i++)
		clues += d->job->puzzle.cell[i] != 0;
	if (d->count == 1 && d->job->marked &&
	    sudoku_rate_cands(&d->job->cands, &d->first, &r, NULL) !=
	    SUDOKU_HINT_DONE) {
		proto_error(d->env, d->out, STAT_ERR_BUDGET, "budget",
		    "the rating ran out of budget");
		return;
	}
	if (d->count == 1 && !d->job->marked && logic_rating(d, &r) != 0)
		return;
	evbuffer_add_printf(d->out, "status=%s clues=%d guesses=%llu",
	    status[d->count < 2 ? d->count : 2], clues,
	    (unsigned long long)d->guesses);
	if (d->count != 1) {
		evbuffer_add(d->out, "\n", 1);
		return;
	}
	sudoku_format(&d->first, sol);
	sol[SUDOKU_CELLS] = '\0';
	evbuffer_add_printf(d->out, " solution=%s level=%s score=%u.%u "
	    "hardest=%s\n", sol, sudoku_level_name(r.level), r.score / 10,
	    r.score % 10, sudoku_technique_name(r.hardest));
}
