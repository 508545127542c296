/* SPDX-License-Identifier: ISC */
/*
 * verb_solve.c -- the verbs of a search: SOLVE, LEXMIN and COUNT (no
 * command word: solving, -l, -c) and SOLUTIONS (sudokuc solutions),
 * each a row of the verb table (verb.h) with its reply checked and, for
 * -L, made as the daemon makes it (proto_solve.c, proto_work.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "reply.h"
#include "verb_int.h"

static int
solve_check(const struct query *q, const struct item *it,
    const char *reply, char *why, size_t size)
{
	(void)q;
	return (check_solution(it, reply, why, size));
}

/*
 * One search from the givens or the marks, as the daemon's: its end,
 * the solutions found (*n) and the first (*sol).
 */
static enum sudoku_result
solve_search(const struct item *it, const struct query *q,
    enum sudoku_policy policy, unsigned long limit, unsigned long *n,
    struct sudoku_grid *sol)
{
	struct sudoku_search	s;
	enum sudoku_result	r;

	item_search(it, &s, policy, limit, q->budget);
	r = sudoku_search_run(&s, 0);
	sudoku_search_result(&s, n, sol, NULL);
	return (r);
}

/* SOLVE and LEXMIN: the solution, or why there is none. */
static void
solve_reply(const struct item *it, const struct query *q,
    struct reply_buf *b)
{
	struct sudoku_grid	sol;
	enum sudoku_result	r;
	unsigned long		n;

	r = solve_search(it, q, q->verb == &verb_lexmin ? SUDOKU_LEXMIN :
	    SUDOKU_ANY, 1, &n, &sol);
	if (r != SUDOKU_SOLVED || b->size <= SUDOKU_CELLS)
		reply_result(r, q->budget, b->p, b->size);
	else {
		sudoku_format(&sol, b->p);
		b->p[SUDOKU_CELLS] = '\0';
	}
}

/*
 * A decimal count, no sign or leading zero, at most the limit; and the
 * puzzle's, as a count here to one more than it (at most the limit)
 * finds, unless that runs out: 0 is COUNT's "no solution".
 */
static int
count_check(const struct query *q, const struct item *it,
    const char *reply, char *why, size_t size)
{
	struct sudoku_search	s;
	unsigned long		n, found = 0;
	char			*end;

	if (reply[0] < '0' || reply[0] > '9' ||
	    (reply[0] == '0' && reply[1] != '\0'))
		return (check_fail(why, size, "not a count"));
	n = strtoul(reply, &end, 10);
	if (*end != '\0')
		return (check_fail(why, size, "not a count"));
	if (n > q->limit)
		return (check_fail(why, size, "a count of %lu, over the limit "
		    "%lu asked", n, q->limit));
	item_search(it, &s, SUDOKU_ANY, n < q->limit ? n + 1 : q->limit,
	    CHECK_BUDGET);
	if (sudoku_search_run(&s, 0) == SUDOKU_BUDGET)
		return (0);
	sudoku_search_result(&s, &found, NULL, NULL);
	if (found == n)
		return (0);
	return (check_fail(why, size, "a count of %lu, but the puzzle has %s"
	    "%lu solution%s", n, found > n ? "at least " : "", found,
	    found == 1 ? "" : "s"));
}

static void
count_reply(const struct item *it, const struct query *q,
    struct reply_buf *b)
{
	enum sudoku_result	r;
	unsigned long		n;

	r = solve_search(it, q, SUDOKU_ANY, q->limit, &n, NULL);
	if (r != SUDOKU_BUDGET)
		snprintf(b->p, b->size, "%lu", n);
	else
		reply_result(r, q->budget, b->p, b->size);
}

/*
 * SOLUTIONS' n lines (at reply, 82 bytes apart) are the puzzle's first
 * n solutions: a walk here in the same increasing order meets each in
 * its place (solutions_check() made sure they are solutions and
 * increasing, not that none was skipped); and with END before the n
 * asked (ended) it finds no (n+1)-th.  A walk out of budget cannot
 * tell: it passes.
 */
static int
solutions_complete(const struct query *q, const struct item *it,
    const char *reply, unsigned long n, int ended, char *why, size_t size)
{
	struct sudoku_search	s;
	struct sudoku_grid	g;
	unsigned long		i;
	char			line[SUDOKU_CELLS];

	item_search(it, &s, SUDOKU_LEXMIN, n < q->limit ? n + 1 : q->limit,
	    CHECK_BUDGET);
	for (i = 0; sudoku_search_next(&s, 0, &g) == SUDOKU_SOLVED; i++) {
		if (i == n)
			return (ended ? check_fail(why, size, "%lu solution%s, "
			    "then END, but the puzzle has more", n, n == 1 ?
			    "" : "s") : 0);
		sudoku_format(&g, line);
		if (memcmp(line, reply + i * (SUDOKU_CELLS + 1),
		    SUDOKU_CELLS) == 0)
			continue;
		if (i == 0)
			return (check_fail(why, size, "the first solution is "
			    "not the least"));
		return (check_fail(why, size, "line %lu: a solution left "
		    "out before it", i + 1));
	}
	/*
	 * The walk cannot end before line n: each line is a solution larger
	 * than the one before, the walk met the first i in their places, so
	 * line i + 1 is one more it meets (or it ran out of budget).
	 */
	return (0);
}

/*
 * The ERR line that ends SOLUTIONS' list after some solutions: only a
 * cut, by the budget or the deadline asked.  Every other error comes
 * before any search, so never after a solution.
 */
static int
solutions_cut(const struct query *q, const char *reply, char *why,
    size_t size)
{
	if (check_code(q, reply, " budget ", " ", why, size) == 0)
		return (0);
	return (check_fail(why, size, "ERR %.*s after solutions: only budget "
	    "or deadline cuts a list short", (int)strcspn(reply + 4, " "),
	    reply + 4));
}

/*
 * SOLUTIONS: lines of solutions of the puzzle, each larger than the one
 * before, then END or the ERR of a cut (solutions_cut()); none left out
 * (solutions_complete()).  An ERR alone was check_answer()'s.  The reply
 * was gathered to its END or ERR line (peer_gather()) and refused at
 * its line n + 1 (batch_check()): it ends so and has at most n
 * solutions.
 */
static int
solutions_check(const struct query *q, const struct item *it,
    const char *reply, char *why, size_t size)
{
	const char	*p = reply, *prev = NULL;
	char		 line[SUDOKU_CELLS + 1], sub[CHECK_WHYLEN];
	unsigned long	 n;
	size_t		 len;

	for (n = 0; p[len = strcspn(p, "\n")] == '\n'; n++, p += len + 1) {
		snprintf(line, sizeof line, "%.*s", (int)len, p);
		if (len != SUDOKU_CELLS || check_solution(it, line, sub,
		    sizeof sub) != 0)
			return (check_fail(why, size, "line %lu: %s", n + 1,
			    len != SUDOKU_CELLS ? "not 81 digits 1-9" : sub));
		if (prev != NULL && memcmp(prev, p, SUDOKU_CELLS) >= 0)
			return (check_fail(why, size, "line %lu: not larger "
			    "than the solution before", n + 1));
		prev = p;
	}
	if (strncmp(p, "ERR ", 4) == 0 && solutions_cut(q, p, why, size) != 0)
		return (-1);
	return (solutions_complete(q, it, reply, n, strcmp(p, "END") == 0,
	    why, size));
}

/*
 * SOLUTIONS: the search of LEXMIN walked on, a line a solution, then
 * END, or the ERR budget that cut it short (proto_work.c, work_each()).
 */
static void
solutions_reply(const struct item *it, const struct query *q,
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

/*
 * The ERR codes of their own: nosolution for a solution that is not
 * there; COUNT's 0 and SOLUTIONS' END alone say it instead.  Pencil
 * marks are for the verbs of a search alone.
 */
const struct verb verb_solve = {
	.wire = "SOLVE", .done = "solved", .errors = " nosolution ",
	.flags = VERB_GRID | VERB_SEARCH | VERB_MARKS,
	.print = VERB_PRINT_GRID, .check = solve_check, .reply = solve_reply
};

const struct verb verb_lexmin = {
	.wire = "LEXMIN", .done = "solved", .errors = " nosolution ",
	.flags = VERB_GRID | VERB_SEARCH | VERB_MARKS,
	.print = VERB_PRINT_GRID, .check = solve_check, .reply = solve_reply
};

const struct verb verb_count = {
	.wire = "COUNT", .done = "solved", .errors = " ",
	.flags = VERB_SEARCH | VERB_MARKS, .arg = VERB_ARG_LIMIT,
	.limit = SUDOKUC_COUNT_DEFAULT, .print = VERB_PRINT_COUNT,
	.check = count_check, .reply = count_reply
};

/* Its solutions are grids, printed in the input's shape as SOLVE's. */
const struct verb verb_solutions = {
	.word = "solutions", .wire = "SOLUTIONS", .done = "listed",
	.errors = " ", .flags = VERB_GRID | VERB_SEARCH | VERB_BLOCK |
	VERB_MARKS, .opts = VERB_OPT_LIMIT, .arg = VERB_ARG_LIMIT,
	.limit = SUDOKUC_SOLUTIONS_DEFAULT, .print = VERB_PRINT_LIST,
	.usage = "[-n number] [puzzle | file | -] ...",
	.about = "the first N solutions, smallest first",
	.check = solutions_check, .reply = solutions_reply
};
