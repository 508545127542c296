/* SPDX-License-Identifier: ISC */
/*
 * proto_tools.c -- the puzzle toolbox over the wire: CANON and SHUFFLE
 * (equivalent puzzles), MINIMIZE and CONSTRAIN (fewer or more givens),
 * PATH (the whole logical solution).  doc/protocol.md, "The toolbox".
 *
 * CANON and SHUFFLE are plain calls (microseconds).  MINIMIZE and
 * CONSTRAIN are searches in slices (sudoku_reduce_run(), a job like a
 * search's).  PATH first checks that the puzzle has one solution (a
 * search counting to two, as RATE and HINT), then walks the steps in
 * one call: a walk costs what a rating costs, at most about a
 * millisecond on the hardest sets (doc/rating.md).
 *
 * Every puzzle is printed as GENERATE prints one, '.' for its blanks.
 */
#include <sys/types.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <event2/buffer.h>

#include "proto.h"
#include "proto_int.h"
#include "stats.h"

/* A puzzle line: the 81 cells, '.' for blanks, with info its seed, LF. */
static void
tools_puzzle_line(struct evbuffer *out, const struct sudoku_grid *g,
    int info, uint64_t seed)
{
	char	line[SUDOKU_CELLS + 1];

	proto_logic_format(g, line);
	if (info) {
		evbuffer_add_printf(out, "%.81s seed=%llu\n", line,
		    (unsigned long long)seed);
		return;
	}
	line[SUDOKU_CELLS] = '\n';
	evbuffer_add(out, line, sizeof line);
}

/* CANON <puzzle>: its minlex form, then how many automorphisms. */
enum proto_status
proto_tools_canon(struct proto_req *req)
{
	struct sudoku_grid	g, form;
	unsigned long		autos;
	char			line[SUDOKU_CELLS];

	if (proto_puzzle(req, &req->tok[1], &g) != 0)
		return (PROTO_OK);
	/* Parsed givens are a valid grid: the form always exists. */
	(void)sudoku_canon(&g, &form, &autos, NULL);
	proto_logic_format(&form, line);
	evbuffer_add_printf(req->out, "%.81s %lu\n", line, autos);
	return (PROTO_OK);
}

/* SHUFFLE <puzzle> [<seed>]: an equivalent puzzle, the same per seed. */
enum proto_status
proto_tools_shuffle(struct proto_req *req)
{
	struct sudoku_grid	g, out;
	uint64_t		seed;

	if (proto_logic_seed(req, 2, &seed) != 0 ||
	    proto_puzzle(req, &req->tok[1], &g) != 0)
		return (PROTO_OK);
	sudoku_shuffle(&g, seed, &out, NULL);
	tools_puzzle_line(req->out, &out, req->opts.info, seed);
	return (PROTO_OK);
}

/* MINIMIZE or CONSTRAIN: the puzzle and seed, then the job. */
static enum proto_status
tools_reduce(struct proto_req *req, int minimize)
{
	struct proto_job	*job;
	struct sudoku_grid	 g;
	uint64_t		 seed;

	if (proto_logic_seed(req, 2, &seed) != 0 ||
	    proto_puzzle(req, &req->tok[1], &g) != 0)
		return (PROTO_OK);
	job = proto_work_job(req, PROTO_WORK_REDUCE);
	job->seed = seed;
	/* Parsed givens: never SUDOKU_INVALID. */
	if (minimize)
		(void)sudoku_minimize_init(&job->u.reduce, &g, seed,
		    job->budget);
	else
		(void)sudoku_constrain_init(&job->u.reduce, &g, seed,
		    job->budget);
	return (proto_work_first(req, job));
}

enum proto_status
proto_tools_minimize(struct proto_req *req)
{
	return (tools_reduce(req, 1));
}

enum proto_status
proto_tools_constrain(struct proto_req *req)
{
	return (tools_reduce(req, 0));
}

/* MINIMIZE's or CONSTRAIN's answer, or why there is none. */
void
proto_tools_reduced(struct proto_done *d)
{
	struct sudoku_grid	g;

	switch (d->result) {
	case SUDOKU_SOLVED:
		sudoku_reduce_result(&d->job->u.reduce, &g, NULL);
		tools_puzzle_line(d->out, &g, d->job->opts.info, d->job->seed);
		break;
	case SUDOKU_NOSOLUTION:
		proto_error(d->env, d->out, STAT_ERR_NOSOLUTION, "nosolution",
		    "the puzzle has no solution");
		break;
	default:	/* MULTIPLE: only MINIMIZE asks for one solution */
		proto_error(d->env, d->out, STAT_ERR_MULTIPLE, "multiple",
		    "the puzzle has more than one solution");
		break;
	}
}

/* PATH <puzzle> [<grid>]: the player's grid, if any, as HINT reads it. */
enum proto_status
proto_tools_path(struct proto_req *req)
{
	struct sudoku_grid	 g;
	struct sudoku_cands	 c;
	struct sudoku_perror	 perr;

	if (proto_puzzle(req, &req->tok[1], &g) != 0)
		return (PROTO_OK);
	if (req->ntok == 3 && sudoku_cands_parse(req->tok[2].p,
	    req->tok[2].len, &g, &c, &perr) != 0) {
		proto_perror(req, &perr);
		return (PROTO_OK);
	}
	if (req->ntok != 3)
		sudoku_cands_init(&c, &g);
	return (proto_logic_check(req, &g, &c));
}

/*
 * PATH's lines: every step as HINT gives it, "nostep ..." where logic
 * ends on an extreme puzzle, the summary (RATE's words for the start,
 * then technique=steps for each technique used), END.  A grid that
 * disagrees with the solution is ERR wrong, as for HINT.
 */
void
proto_tools_pathed(struct proto_done *d)
{
	struct sudoku_path	 path;
	struct sudoku_step	 step;
	struct sudoku_rating	 r;
	char			 text[1024];

	if (proto_logic_state(d) != 0)
		return;
	if (sudoku_rate_cands(&d->job->cands, &d->first, &r, NULL) !=
	    SUDOKU_HINT_DONE) {
		proto_error(d->env, d->out, STAT_ERR_WRONG, "wrong", "the grid "
		    "contradicts itself");
		return;
	}
	sudoku_path_init(&path, &d->job->cands);
	while (sudoku_path_next(&path, &step) == SUDOKU_HINT_STEP) {
		sudoku_step_text(&step, text, sizeof text);
		evbuffer_add_printf(d->out, "%s\n", text);
	}
	if (path.end == SUDOKU_HINT_NOSTEP)
		evbuffer_add_printf(d->out, "nostep no logical step applies "
		    "from here; the rest needs trial and error\n");
	sudoku_path_text(&path, &r, text, sizeof text);
	evbuffer_add_printf(d->out, "%s\nEND\n", text);
}
