/* SPDX-License-Identifier: ISC */
/*
 * proto_parse.c -- what the verbs take, read from a request's tokens: a
 * puzzle (81 cells, or pencil marks for the verbs that take them) and a
 * number, and the reply to a puzzle that is not one.  The options
 * (proto_opts.c) and every verb read their arguments with these.
 */
#include <sys/types.h>

#include <stdint.h>
#include <stdio.h>

#include "common/marks.h"
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
parse_marks(struct proto_req *req, const struct proto_token *t,
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
	struct sudoku_perror	perr;

	job->marked = 0;
	if (req->plain && t == &req->tok[1]) {
		job->puzzle = req->grid;	/* read by proto_line() */
		return (0);
	}
	if (t->len == SUDOKU_CANDS_LEN)
		return (parse_marks(req, t, job));
	/* The givens against each other: proto_work_given()'s search. */
	if (sudoku_parse_cells(t->p, t->len, &job->puzzle, &perr) == 0)
		return (0);
	proto_perror(req, &perr);
	return (-1);
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
