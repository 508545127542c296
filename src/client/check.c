/* SPDX-License-Identifier: ISC */
/*
 * check.c -- a server's answers checked against the protocol and the
 * puzzle: its errors and the meta requests' replies here, every other
 * answer by its verb's check, and the pieces those are made of (see
 * check.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/cells.h"
#include "verb.h"

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

int
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

int
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

const char *
check_has(int n)
{
	static const char *const has[] = { "no solution", "one solution",
	    "more than one solution" };

	return (has[n < 0 ? 0 : n > 2 ? 2 : n]);
}

int
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
	    (int)len, code, check_has(n)));
}

/*
 * "ERR <code> <text>": a code the request can get.  length, char and
 * conflict never: sudokuc checked the puzzle (and the grid) itself;
 * budget only after a search (CANON and SHUFFLE make none); wrong only
 * for a HINT sent with a grid (the verb's row says which may get it).
 * nosolution and multiple only if true (check_claim()).
 */
static int
check_error(const struct query *q, const struct item *it, const char *reply,
    char *why, size_t size)
{
	const struct verb	*v = q->verb;

	if (v->arg == VERB_ARG_GRID && q->grid == NULL &&
	    strncmp(reply, "ERR wrong", 9) == 0 &&
	    (reply[9] == ' ' || reply[9] == '\0'))
		return (check_fail(why, size, "ERR wrong, but no grid was "
		    "sent"));
	if (check_code(q, reply, (v->flags & VERB_SEARCH) ?
	    " syntax toolong budget " : " syntax toolong ", v->errors, why,
	    size) != 0)
		return (-1);
	return (check_claim(it, reply, why, size));
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
	return (q->verb->check(q, it, reply, why, size));
}
