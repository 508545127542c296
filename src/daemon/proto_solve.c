/* SPDX-License-Identifier: ISC */
/*
 * proto_solve.c -- the requests that search: SOLVE, LEXMIN, COUNT and
 * SOLUTIONS, and the parsing of what every solving request takes (a
 * puzzle, as 81 cells or as pencil marks; a number).
 */
#include <sys/types.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <event2/buffer.h>

#include "common/marks.h"
#include "config.h"
#include "proto.h"
#include "proto_int.h"
#include "stats.h"

/* A parse error's reply: "length", "char" or "conflict". */
void
proto_perror(struct proto_req *req, const struct sudoku_perror *perr)
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
	n = marks_perror_text(perr, text, sizeof text);
	/* A row of a pasted 9-line grid, most likely: say what to send. */
	if (perr->kind == SUDOKU_PERR_LENGTH && perr->length <= 9 && n > 0 &&
	    (size_t)n < sizeof text)
		snprintf(text + n, sizeof text - (size_t)n, " (one row of a "
		    "grid? send the whole puzzle on one line, row by row)");
	proto_error(req->env, req->out, stat, code, text);
}

int
proto_puzzle(struct proto_req *req, const struct proto_token *t,
    struct sudoku_grid *g)
{
	struct sudoku_perror	perr;

	if (sudoku_parse(t->p, t->len, g, &perr) == 0)
		return (0);
	proto_perror(req, &perr);
	return (-1);
}

/* Pencil marks as a puzzle, checked as common/marks.c says. */
static int
solve_marks(struct proto_req *req, const struct proto_token *t,
    struct proto_job *job)
{
	struct sudoku_perror	perr;

	if (marks_parse(t->p, t->len, &job->cands, &job->puzzle, &perr) != 0) {
		proto_perror(req, &perr);
		return (-1);
	}
	job->marked = 1;
	return (0);
}

int
proto_given(struct proto_req *req, const struct proto_token *t,
    struct proto_job *job)
{
	job->marked = 0;
	if (t->len == SUDOKU_CANDS_LEN)
		return (solve_marks(req, t, job));
	return (proto_puzzle(req, t, &job->puzzle));
}

int
proto_number(const struct proto_token *t, uint64_t min, uint64_t max,
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

/* SOLVE or LEXMIN: a search for one solution. */
static enum proto_status
solve_one(struct proto_req *req, enum sudoku_policy policy)
{
	struct proto_job	*job = proto_work_job(req, PROTO_WORK_SEARCH);

	if (proto_given(req, &req->tok[1], job) != 0)
		return (PROTO_OK);
	return (proto_work_given(req, job, policy, 1));
}

/* COUNT's or SOLUTIONS' number: 1 to count_max; -1 with ERR syntax. */
static int
solve_limit(struct proto_req *req, uint64_t *limit)
{
	char	text[80];

	if (req->ntok < 3 || proto_number(&req->tok[2], 1,
	    req->env->cf->count_max, limit) == 0)
		return (0);
	snprintf(text, sizeof text, "%s %s must be a number from 1 to %lu",
	    req->cmd->name, req->cmd == &proto_cmds[PROTO_COUNT] ? "limit" :
	    "count", req->env->cf->count_max);
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

	if (solve_limit(req, &limit) != 0)
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

	if (solve_limit(req, &n) != 0)
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
