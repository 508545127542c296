/* SPDX-License-Identifier: ISC */
/*
 * check.c -- a server's answers checked against the protocol and the
 * puzzle (see check.h).
 *
 * The checks that need the puzzle's solution (a hint's actions, a
 * generated puzzle's uniqueness) solve it here, with a budget: an
 * answer is called wrong only when this side can prove it, never
 * because a search here ran out.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "check_int.h"
#include "common/cells.h"

int
check_fail(char *why, size_t size, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return (-1);
}

const char *
check_cell(int cell, char buf[16])
{
	uint8_t	c = (uint8_t)cell;

	cells_text(&c, 1, buf, 16);
	return (buf);
}

/* Does every row, column and box of g hold each digit once? */
static int
check_grid(const struct sudoku_grid *g, char *why, size_t size)
{
	static const char	*unit[] = { "row", "column", "box" };
	unsigned int		 seen, bit;
	int			 u, i, k, cell;

	for (u = 0; u < 3; u++)
		for (i = 0; i < 9; i++) {
			seen = 0;
			for (k = 0; k < 9; k++) {
				cell = u == 0 ? i * 9 + k : u == 1 ?
				    k * 9 + i : (i / 3 * 3 + k / 3) * 9 +
				    i % 3 * 3 + k % 3;
				bit = 1u << g->cell[cell];
				if (seen & bit)
					return (check_fail(why, size, "not a "
					    "solution: %s %d has two %ds",
					    unit[u], i + 1, g->cell[cell]));
				seen |= bit;
			}
		}
	return (0);
}

/*
 * 81 digits 1-9, a valid grid, the givens of it kept; of a puzzle of
 * pencil marks, each digit one of its cell's candidates.
 */
static int
check_solution(const struct item *it, const char *reply, char *why,
    size_t size)
{
	struct sudoku_grid	g;
	char			cell[16];
	int			i;

	if (strlen(reply) != SUDOKU_CELLS ||
	    strspn(reply, "123456789") != SUDOKU_CELLS)
		return (check_fail(why, size, "not 81 digits 1-9"));
	for (i = 0; i < SUDOKU_CELLS; i++) {
		g.cell[i] = (uint8_t)(reply[i] - '0');
		if (it->marked && !(it->marks.mask[i] & 1u << (g.cell[i] - 1)))
			return (check_fail(why, size, "puts %d at %s, not one "
			    "of its candidates", g.cell[i],
			    check_cell(i, cell)));
		if (it->grid.cell[i] != 0 && it->grid.cell[i] != g.cell[i])
			return (check_fail(why, size, "changes the given %d "
			    "at %s", it->grid.cell[i], check_cell(i, cell)));
	}
	return (check_grid(&g, why, size));
}

/*
 * SOLUTIONS' n lines (at reply, 82 bytes apart) are the puzzle's first
 * n solutions: a walk here in the same increasing order meets each in
 * its place (check_solutions() made sure they are solutions and
 * increasing, not that none was skipped); and with END before the n
 * asked (ended) it finds no (n+1)-th.  A walk out of budget cannot
 * tell: it passes.
 */
static int
check_complete(const struct query *q, const struct item *it,
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
 * A decimal count, no sign or leading zero, at most the limit; and the
 * puzzle's, as a count here to one more than it (at most the limit)
 * finds, unless that runs out: 0 is COUNT's "no solution".
 */
static int
check_count(const struct query *q, const struct item *it,
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

enum sudoku_technique
check_technique(const char *s, size_t len)
{
	const char	*name;
	int		 t;

	for (t = 0; t < SUDOKU_TECH_COUNT; t++) {
		name = sudoku_technique_name((enum sudoku_technique)t);
		if (strlen(name) == len && strncmp(name, s, len) == 0)
			return ((enum sudoku_technique)t);
	}
	return (SUDOKU_TECH_COUNT);
}

int
check_rate(const char *reply, char *why, size_t size)
{
	enum sudoku_level	 l;
	enum sudoku_technique	 t;
	const char		*sc, *hard;
	unsigned int		 score, w;
	size_t			 n = strcspn(reply, " ");

	if (sudoku_level_parse(reply, n, &l) != 0 || reply[n] != ' ')
		return (check_fail(why, size, "not a rating: no level"));
	sc = reply + n + 1;
	if (sc[0] < '1' || sc[0] > '9' || sc[1] != '.' || sc[2] < '0' ||
	    sc[2] > '9' || sc[3] != ' ')
		return (check_fail(why, size, "not a rating: no score"));
	score = (unsigned int)(sc[0] - '0') * 10 + (unsigned int)(sc[2] - '0');
	hard = sc + 4;
	t = check_technique(hard, strlen(hard));
	if (t == SUDOKU_TECH_COUNT)
		return (check_fail(why, size, "not a rating: no technique"));
	w = sudoku_technique_weight(t);
	if (sudoku_technique_level(t) != l)
		return (check_fail(why, size, "%s is not a technique of level "
		    "%s", hard, sudoku_level_name(l)));
	if (score < w || score / 10 != w / 10)
		return (check_fail(why, size, "score %c.%c out of the range "
		    "of %s", sc[0], sc[2], hard));
	return (0);
}

/* The state a hint was asked for: the player's grid, or the puzzle. */
static void
check_state(const struct query *q, const struct item *it,
    struct sudoku_cands *c)
{
	if (q->grid == NULL || sudoku_cands_parse(q->grid, q->gridlen,
	    &it->grid, c, NULL) != 0)
		sudoku_cands_init(c, &it->grid);
}

/* Is every cell of c down to one candidate? */
static int
check_filled(const struct sudoku_cands *c)
{
	int	i;

	for (i = 0; i < SUDOKU_CELLS; i++)
		if (c->mask[i] == 0 || (c->mask[i] & (c->mask[i] - 1)) != 0)
			return (0);
	return (1);
}

int
check_action(const char **s, const struct sudoku_grid *sol, char *why,
    size_t size)
{
	const char	*p = *s;
	int		 cell, d;

	if (p[0] != 'r' || p[1] < '1' || p[1] > '9' || p[2] != 'c' ||
	    p[3] < '1' || p[3] > '9' || (p[4] != '=' && p[4] != '-') ||
	    p[5] < '1' || p[5] > '9')
		return (check_fail(why, size, "not a hint: bad action"));
	cell = (p[1] - '1') * 9 + (p[3] - '1');
	d = p[5] - '0';
	if (sol != NULL && (p[4] == '=') != (sol->cell[cell] == d))
		return (check_fail(why, size, "unsound hint: %.6s, but the "
		    "solution has %d there", p, sol->cell[cell]));
	*s = p + 6;
	return (0);
}

/* "<technique> <actions> <text>", sound; or "solved" when it is. */
static int
check_hint(const struct query *q, const struct item *it, const char *reply,
    char *why, size_t size)
{
	struct sudoku_cands	 c;
	struct sudoku_grid	 sol;
	unsigned long		 n = 0;
	const char		*p;
	size_t			 len = strcspn(reply, " ");

	check_state(q, it, &c);
	if (strcmp(reply, "solved") == 0)
		return (check_filled(&c) ? 0 : check_fail(why, size,
		    "\"solved\", but cells are still open"));
	if (check_technique(reply, len) == SUDOKU_TECH_COUNT ||
	    reply[len] != ' ')
		return (check_fail(why, size, "not a hint: no technique"));
	/* The solution, if this side can be sure of it. */
	if (sudoku_count(&it->grid, 2, CHECK_BUDGET, &n, &sol, NULL) !=
	    SUDOKU_SOLVED || n != 1)
		n = 0;
	p = reply + len + 1;
	for (;;) {
		if (check_action(&p, n == 1 ? &sol : NULL, why, size) != 0)
			return (-1);
		if (*p != ',')
			break;
		p++;
	}
	if (*p != ' ')
		return (check_fail(why, size, "not a hint: no explanation"));
	return (0);
}

/*
 * "ERR <code> <text>" with a code of any or mine (" a b "), or deadline
 * when the request had one.
 */
static int
check_code(const struct query *q, const char *reply, const char *any,
    const char *mine, char *why, size_t size)
{
	char		 code[24];
	const char	*p = reply + 4;
	size_t		 n = strspn(p, "abcdefghijklmnopqrstuvwxyz");

	if (n == 0 || n > 20 || (p[n] != ' ' && p[n] != '\0'))
		return (check_fail(why, size, "a malformed ERR line"));
	snprintf(code, sizeof code, " %.*s ", (int)n, p);
	if (q->deadline != 0 && strcmp(code, " deadline ") == 0)
		return (0);
	if (strstr(any, code) == NULL && strstr(mine, code) == NULL)
		return (check_fail(why, size, "ERR %.*s, which this request "
		    "cannot get", (int)n, p));
	return (0);
}

/* What check_many() found, in words and as ANALYZE's status. */
static const char *const check_has[] = { "no solution", "one solution",
    "more than one solution" };
static const char *const check_status_name[] = { "nosolution", "unique",
    "multiple" };

/*
 * The puzzle's solutions, counted here to 2: 0, 1 or 2 (two or more),
 * or -1 if the count ran out of its budget and cannot tell.
 */
static int
check_many(const struct item *it)
{
	struct sudoku_search	s;
	unsigned long		n = 0;

	item_search(it, &s, SUDOKU_ANY, 2, CHECK_BUDGET);
	if (sudoku_search_run(&s, 0) == SUDOKU_BUDGET)
		return (-1);
	sudoku_search_result(&s, &n, NULL, NULL);
	return (n > 2 ? 2 : (int)n);
}

/*
 * ERR nosolution and ERR multiple are answers about the puzzle, as a
 * solution is: a count here must agree, unless it runs out.  Else a
 * server could pass any puzzle off as having none.
 */
static int
check_claim(const struct item *it, const char *reply, char *why,
    size_t size)
{
	const char	*code = reply + 4;
	size_t		 len = strcspn(code, " ");
	int		 claim, n;

	if (len == 10 && strncmp(code, "nosolution", len) == 0)
		claim = 0;
	else if (len == 8 && strncmp(code, "multiple", len) == 0)
		claim = 2;
	else
		return (0);
	if ((n = check_many(it)) == -1 || n == claim)
		return (0);
	return (check_fail(why, size, "ERR %.*s, but the puzzle has %s",
	    (int)len, code, check_has[n]));
}

/*
 * "ERR <code> <text>": a code the request can get.  length, char and
 * conflict never: sudokuc checked the puzzle (and the grid) itself;
 * budget only after a search (CANON and SHUFFLE make none); wrong only
 * for a HINT sent with a grid (item.c's table says which may get it).
 * nosolution and multiple only if true (check_claim()).
 */
static int
check_error(const struct query *q, const struct item *it, const char *reply,
    char *why, size_t size)
{
	const struct mode_def	*m = item_mode(q->mode);

	if (q->mode == MODE_HINT && q->grid == NULL &&
	    strncmp(reply, "ERR wrong", 9) == 0 &&
	    (reply[9] == ' ' || reply[9] == '\0'))
		return (check_fail(why, size, "ERR wrong, but no grid was "
		    "sent"));
	if (check_code(q, reply, (m->flags & MODE_SEARCH) ?
	    " syntax toolong budget " : " syntax toolong ", m->errors, why,
	    size) != 0)
		return (-1);
	return (check_claim(it, reply, why, size));
}

/*
 * The ERR line that ends SOLUTIONS' list after some solutions: only a
 * cut, by the budget or the deadline asked.  Every other error comes
 * before any search, so never after a solution.
 */
static int
check_cut(const struct query *q, const char *reply, char *why, size_t size)
{
	if (check_code(q, reply, " budget ", " ", why, size) == 0)
		return (0);
	return (check_fail(why, size, "ERR %.*s after solutions: only budget "
	    "or deadline cuts a list short", (int)strcspn(reply + 4, " "),
	    reply + 4));
}

/*
 * SOLUTIONS: lines of solutions of the puzzle, each larger than the one
 * before, then END or the ERR of a cut (check_cut()); none left out
 * (check_complete()).  An ERR alone was check_error()'s.  The reply was
 * gathered to its END or ERR line (peer_gather()) and refused at its
 * line n + 1 (batch_check()): it ends so and has at most n solutions.
 */
static int
check_solutions(const struct query *q, const struct item *it,
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
	if (strncmp(p, "ERR ", 4) == 0 && check_cut(q, p, why, size) != 0)
		return (-1);
	return (check_complete(q, it, reply, n, strcmp(p, "END") == 0, why,
	    size));
}

/* The keys of ANALYZE's reply, in their order; the last four if unique. */
static const char *const check_keys[] = {
	"status=", "clues=", "guesses=", "solution=", "level=", "score=",
	"hardest="
};
#define CHECK_NKEYS	(sizeof check_keys / sizeof check_keys[0])

/*
 * ANALYZE's status against a count to 2 here: each valid line of a
 * lying status would pass otherwise.  Unless the count runs out.
 */
static int
check_status(const struct item *it, const char *status, char *why,
    size_t size)
{
	int	n;

	if ((n = check_many(it)) == -1 ||
	    strcmp(status, check_status_name[n]) == 0)
		return (0);
	return (check_fail(why, size, "status %s, but the puzzle has %s",
	    status, check_has[n]));
}

/*
 * "status=S clues=N guesses=N", and for a unique puzzle " solution=
 * level= score= hardest=": the clues the puzzle's, the solution valid,
 * the rating as RATE's would be.
 */
static int
check_analyze(const struct item *it, const char *reply, char *why,
    size_t size)
{
	const char	*p = reply, *val[CHECK_NKEYS];
	size_t		 len[CHECK_NKEYS], n = 0, k;
	char		 text[128], sol[SUDOKU_CELLS + 1];
	int		 i, want = 0;

	for (; n < CHECK_NKEYS && *p != '\0'; n++) {
		k = strlen(check_keys[n]);
		if (strncmp(p, check_keys[n], k) != 0)
			return (check_fail(why, size, "not an analysis"));
		val[n] = p + k;
		len[n] = strcspn(val[n], " ");
		p = val[n] + len[n] + (val[n][len[n]] == ' ');
	}
	for (i = 0; i < SUDOKU_CELLS; i++)
		want += it->grid.cell[i] != 0;
	snprintf(text, sizeof text, "%d", want);
	if (*p != '\0' || (n != 3 && n != CHECK_NKEYS) ||
	    len[1] != strlen(text) || strncmp(val[1], text, len[1]) != 0 ||
	    len[2] == 0 || strspn(val[2], "0123456789") != len[2])
		return (check_fail(why, size, "not an analysis of this "
		    "puzzle"));
	snprintf(text, sizeof text, "%.*s", (int)len[0], val[0]);
	if (check_status(it, text, why, size) != 0)
		return (-1);
	if (n == 3)
		return (strcmp(text, "multiple") == 0 ||
		    strcmp(text, "nosolution") == 0 ? 0 : check_fail(why, size,
		    "not an analysis: status %s", text));
	if (strcmp(text, "unique") != 0 || len[3] != SUDOKU_CELLS)
		return (check_fail(why, size, "not an analysis: status %s",
		    text));
	memcpy(sol, val[3], SUDOKU_CELLS);
	sol[SUDOKU_CELLS] = '\0';
	if (check_solution(it, sol, why, size) != 0)
		return (-1);
	snprintf(text, sizeof text, "%.*s %.*s %.*s", (int)len[4], val[4],
	    (int)len[5], val[5], (int)len[6], val[6]);
	return (check_rate(text, why, size));
}

/* STATS: lines of "STAT <name> <value>", then END. */
static int
check_stats(const char *reply)
{
	const char	*p = reply;

	while (strncmp(p, "STAT ", 5) == 0 && strchr(p, '\n') != NULL)
		p = strchr(p, '\n') + 1;
	return (strcmp(p, "END") == 0 ? 0 : -1);
}

/* PONG, VERSION x, or STATS's lines. */
static int
check_meta(const struct item *it, const char *reply, char *why, size_t size)
{
	int	ok;

	if (it->meta == META_PING)
		ok = strcmp(reply, "PONG") == 0;
	else if (it->meta == META_VERSION)
		ok = strncmp(reply, "VERSION ", 8) == 0;
	else
		ok = check_stats(reply) == 0;
	return (ok ? 0 : check_fail(why, size, "not a reply to it"));
}

int
check_answer(const struct query *q, const struct item *it,
    const char *reply, char *why, size_t size)
{
	if (it->kind == ITEM_META)
		return (check_meta(it, reply, why, size));
	if (strncmp(reply, "ERR ", 4) == 0)
		return (check_error(q, it, reply, why, size));
	switch (q->mode) {
	case MODE_COUNT:
		return (check_count(q, it, reply, why, size));
	case MODE_RATE:
		return (check_rate(reply, why, size));
	case MODE_HINT:
		return (check_hint(q, it, reply, why, size));
	case MODE_GENERATE:
		return (check_generate(q, reply, why, size));
	case MODE_ANALYZE:
		return (check_analyze(it, reply, why, size));
	case MODE_CANON:
		return (check_canon(it, reply, why, size));
	case MODE_SHUFFLE:
		return (check_shuffle(it, reply, why, size));
	case MODE_MINIMIZE:
	case MODE_CONSTRAIN:
		return (check_reduce(q, it, reply, why, size));
	case MODE_PATH:
		return (check_path(it, reply, why, size));
	case MODE_SOLUTIONS:
		return (check_solutions(q, it, reply, why, size));
	default:
		return (check_solution(it, reply, why, size));
	}
}
