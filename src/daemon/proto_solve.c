/* SPDX-License-Identifier: ISC */
/*
 * proto_solve.c -- the requests that search: SOLVE, LEXMIN, COUNT and
 * SOLUTIONS, a puzzle of 81 cells or of pencil marks (proto_parse.c)
 * searched by a job (proto_work.c), and their replies once it is over.
 */
#include <sys/types.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <event2/buffer.h>

#include "config.h"
#include "proto.h"
#include "proto_int.h"
#include "stats.h"

/* SOLVE or LEXMIN: a search for one solution. */
static enum proto_status
solve_one(struct proto_req *req, enum sudoku_policy policy)
{
	struct proto_job	*job = proto_work_job(req, PROTO_WORK_SEARCH);

	if (proto_given(req, &req->tok[1], job) != 0)
		return (PROTO_OK);
	return (proto_work_given(req, job, policy, 1));
}

/*
 * COUNT's or SOLUTIONS' number (what: "limit", "count"), 1 to
 * count_max; -1 with ERR syntax.
 */
static int
solve_limit(struct proto_req *req, const char *what, uint64_t *limit)
{
	char	text[80];

	if (req->ntok < 3 || proto_number(&req->tok[2], 1,
	    req->env->cf->count_max, limit) == 0)
		return (0);
	snprintf(text, sizeof text, "%s %s must be a number from 1 to %lu",
	    req->cmd->name, what, req->env->cf->count_max);
	proto_error(req->env, req->out, STAT_ERR_SYNTAX, "syntax", text);
	return (-1);
}

enum proto_status
proto_solve_any(struct proto_req *req)
{
	return (solve_one(req, SUDOKU_ANY));
}

enum proto_status
proto_solve_lexmin(struct proto_req *req)
{
	return (solve_one(req, SUDOKU_LEXMIN));
}

enum proto_status
proto_solve_count(struct proto_req *req)
{
	struct proto_job	*job;
	uint64_t		 limit = 2;

	if (solve_limit(req, "limit", &limit) != 0)
		return (PROTO_OK);
	job = proto_work_job(req, PROTO_WORK_SEARCH);
	if (proto_given(req, &req->tok[1], job) != 0)
		return (PROTO_OK);
	job->limit = (unsigned long)limit;
	return (proto_work_given(req, job, SUDOKU_ANY, job->limit));
}

/*
 * SOLUTIONS: up to n of them, in increasing order (the search of
 * LEXMIN, walked on), a line each as they are found, then END.
 */
enum proto_status
proto_solve_solutions(struct proto_req *req)
{
	struct proto_job	*job;
	uint64_t		 n = 0;

	if (solve_limit(req, "count", &n) != 0)
		return (PROTO_OK);
	job = proto_work_job(req, PROTO_WORK_SEARCH);
	if (proto_given(req, &req->tok[1], job) != 0)
		return (PROTO_OK);
	job->limit = (unsigned long)n;
	job->each = 1;
	return (proto_work_given(req, job, SUDOKU_LEXMIN, job->limit));
}

/* SOLVE, LEXMIN: the solution, or ERR nosolution. */
void
proto_solve_found(struct proto_done *d)
{
	char	line[SUDOKU_CELLS + 1];

	if (d->count == 0) {
		proto_error(d->env, d->out, STAT_ERR_NOSOLUTION, "nosolution",
		    "the puzzle has no solution");
		return;
	}
	sudoku_format(&d->first, line);
	line[SUDOKU_CELLS] = '\n';
	evbuffer_add(d->out, line, sizeof line);
}

/* COUNT: how many, up to the limit. */
void
proto_solve_counted(struct proto_done *d)
{
	evbuffer_add_printf(d->out, "%lu\n", d->count);
}

/* SOLUTIONS: its lines went out as they came; the end. */
void
proto_solve_listed(struct proto_done *d)
{
	evbuffer_add(d->out, "END\n", 4);
}
