/* SPDX-License-Identifier: ISC */
/*
 * verb_path.c -- PATH (sudokuc path), a row of the verb table (verb.h):
 * its reply checked by a walk from the puzzle whose steps this side
 * applies and finds sound, and for -L made as the daemon makes it
 * (proto_tools.c).  As in check.c, an answer is called wrong only when
 * a search here could tell.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "reply.h"
#include "verb_int.h"

/* sudokud makes each line of a path in 1024 bytes (proto_tools.c). */
#define PATH_STEPLEN		1024

/* A digit's bit in struct sudoku_cands: 1 << 0 for 1, ... */
#define PATH_BIT(d)		((uint16_t)(1u << ((d) - 1)))

/* The 20 peers of each cell, made once by path_peers(). */
struct path_peers {
	uint8_t		peer[SUDOKU_CELLS][20];
};

static void
path_peers(struct path_peers *p)
{
	int	i, j, n;

	for (i = 0; i < SUDOKU_CELLS; i++)
		for (j = n = 0; j < SUDOKU_CELLS; j++)
			if (j != i && (j / 9 == i / 9 || j % 9 == i % 9 ||
			    (j / 27 == i / 27 && j % 9 / 3 == i % 9 / 3)))
				p->peer[i][n++] = (uint8_t)j;
}

/* A walk from the puzzle: its state, what is placed, the steps so far. */
struct path_walk {
	struct path_peers	 peers;
	struct sudoku_cands	 c;
	uint8_t			 placed[SUDOKU_CELLS];
	struct sudoku_grid	 sol;
	int			 sure;		/* sol is the one solution */
	unsigned int		 used[SUDOKU_TECH_COUNT];
	unsigned int		 steps;
};

/* Places d at cell: it only there, gone from the peers. */
static void
path_place(struct path_walk *w, int cell, int d)
{
	int	k;

	w->placed[cell] = 1;
	w->c.mask[cell] = PATH_BIT(d);
	for (k = 0; k < 20; k++)
		w->c.mask[w->peers.peer[cell][k]] &= (uint16_t)~PATH_BIT(d);
}

/*
 * The start: the puzzle's givens placed, so that a candidate is one
 * that no placed digit rules out; the solution, if a search tells.
 */
static void
path_start(struct path_walk *w, const struct item *it)
{
	unsigned long	n = 0;
	int		i;

	memset(w, 0, sizeof *w);
	path_peers(&w->peers);
	sudoku_cands_init(&w->c, &it->grid);
	for (i = 0; i < SUDOKU_CELLS; i++)
		if (it->grid.cell[i] != 0)
			path_place(w, i, it->grid.cell[i]);
	w->sure = sudoku_count(&it->grid, 2, CHECK_BUDGET, &n, &w->sol,
	    NULL) == SUDOKU_SOLVED && n == 1;
}

/* One action of a step, at *s: sound, and possible in the state. */
static int
path_act(struct path_walk *w, const char **s, char *why, size_t size)
{
	const char	*p = *s;
	char		 cell[16];
	int		 i, d;

	if (check_action(s, w->sure ? &w->sol : NULL, why, size) != 0)
		return (-1);
	i = (p[1] - '1') * 9 + (p[3] - '1');
	d = p[5] - '0';
	if (w->placed[i] || !(w->c.mask[i] & PATH_BIT(d)))
		return (check_fail(why, size, "step %u: %.6s, but %s %s",
		    w->steps, p, check_cell(i, cell), w->placed[i] ?
		    "is placed already" : "has no such candidate left"));
	if (p[4] == '=')
		path_place(w, i, d);
	else
		w->c.mask[i] &= (uint16_t)~PATH_BIT(d);
	return (0);
}

/* A step line "<technique> <actions> <text>", applied to the walk. */
static int
path_step(struct path_walk *w, const char *line, char *why, size_t size)
{
	enum sudoku_technique	 t;
	const char		*p;
	size_t			 len = strcspn(line, " ");

	w->steps++;
	if ((t = check_technique(line, len)) == SUDOKU_TECH_COUNT ||
	    line[len] != ' ')
		return (check_fail(why, size, "step %u: no technique",
		    w->steps));
	w->used[t]++;
	for (p = line + len + 1;; p++) {
		if (path_act(w, &p, why, size) != 0)
			return (-1);
		if (*p != ',')
			break;
	}
	if (*p != ' ')
		return (check_fail(why, size, "step %u: no explanation",
		    w->steps));
	return (0);
}

/* Is every cell down to one candidate? */
static int
path_done(const struct path_walk *w)
{
	int	i;

	for (i = 0; i < SUDOKU_CELLS; i++)
		if (w->c.mask[i] == 0 || (w->c.mask[i] & (w->c.mask[i] - 1)))
			return (0);
	return (1);
}

/*
 * The summary: a rating (RATE's form; extreme exactly after a dead end)
 * whose hardest technique is at least as hard as every one the path
 * used, then " <technique>=<steps>" for each one used, in the table's
 * order, the counts the steps'.
 */
static int
path_summary(const struct path_walk *w, const char *line, int nostep,
    char *why, size_t size)
{
	enum sudoku_technique	 hard;
	char			 rate[64];
	const char		*p = line;
	size_t			 n;
	int			 k, t;

	for (k = 0; k < 3; k++)
		p += strcspn(p, " ") + (k < 2 && p[strcspn(p, " ")] == ' ');
	if ((size_t)(p - line) >= sizeof rate)
		return (check_fail(why, size, "not a rating: too long"));
	snprintf(rate, sizeof rate, "%.*s", (int)(p - line), line);
	if (check_rate(rate, why, size) != 0)
		return (-1);
	hard = check_technique(strrchr(rate, ' ') + 1,
	    strlen(strrchr(rate, ' ') + 1));
	if (nostep != (sudoku_technique_level(hard) == SUDOKU_LEVEL_EXTREME))
		return (check_fail(why, size, "a summary of %s %s a dead end",
		    rate, nostep ? "after" : "without"));
	for (t = 0; t < SUDOKU_TECH_COUNT; t++) {
		if (w->used[t] == 0)
			continue;
		n = strlen(sudoku_technique_name(t));
		if (p[0] != ' ' || strncmp(p + 1, sudoku_technique_name(t),
		    n) != 0 || p[n + 1] != '=' ||
		    strtoul(p + n + 2, NULL, 10) != w->used[t])
			return (check_fail(why, size, "a summary that does not "
			    "count %u %s", w->used[t], sudoku_technique_name(t)));
		if (sudoku_technique_weight(t) > sudoku_technique_weight(hard))
			return (check_fail(why, size, "a path using %s, harder "
			    "than its hardest, %s", sudoku_technique_name(t),
			    sudoku_technique_name(hard)));
		p += n + 2 + strspn(p + n + 2, "0123456789");
	}
	return (*p == '\0' ? 0 : check_fail(why, size, "a summary that "
	    "counts steps the path has not: %.40s", p));
}

/* The line at *p into buf, *p moved past it: 0, or -1 if too long. */
static int
path_line(const char **p, char buf[PATH_STEPLEN])
{
	size_t	len = strcspn(*p, "\n");

	if (len >= PATH_STEPLEN)
		return (-1);
	memcpy(buf, *p, len);
	buf[len] = '\0';
	*p += len + ((*p)[len] == '\n');
	return (0);
}

/*
 * PATH: step lines, each applied from the puzzle; "nostep ..." last if
 * logic ends before the grid is done, or else every cell down to one
 * candidate; the summary; END.
 */
static int
path_check(const struct query *q, const struct item *it,
    const char *reply, char *why, size_t size)
{
	struct path_walk	 w;
	char			 line[PATH_STEPLEN];
	const char		*p = reply, *sum;
	size_t			 len = strlen(reply);
	int			 nostep = 0;

	(void)q;
	if (len < 5 || strcmp(reply + len - 4, "\nEND") != 0)
		return (check_fail(why, size, "not a path: no summary, END"));
	for (sum = reply + len - 4; sum > reply && sum[-1] != '\n'; sum--)
		;
	path_start(&w, it);
	while (p < sum) {
		if (path_line(&p, line) != 0)
			return (check_fail(why, size, "a line over %d bytes",
			    PATH_STEPLEN - 1));
		if (strncmp(line, "nostep ", 7) == 0 && p == sum)
			nostep = 1;
		else if (path_step(&w, line, why, size) != 0)
			return (-1);
	}
	if (path_line(&p, line) != 0)
		return (check_fail(why, size, "a summary over %d bytes",
		    PATH_STEPLEN - 1));
	if (nostep == path_done(&w))
		return (check_fail(why, size, nostep ? "a dead end with every "
		    "cell done" : "a path that stops with cells open"));
	return (path_summary(&w, line, nostep, why, size));
}

/*
 * PATH of the puzzle: one solution first (as RATE), its state, the
 * steps, "nostep ..." at a dead end, the summary, END.
 */
static void
path_reply(const struct item *it, const struct query *q,
    struct reply_buf *b)
{
	struct sudoku_grid	 sol;
	struct sudoku_cands	 c;
	struct sudoku_rating	 r;
	struct sudoku_path	 path;
	struct sudoku_step	 step;
	char			 text[1024];
	size_t			 len = 0;

	sudoku_cands_init(&c, &it->grid);
	if (reply_state(it, q, &c, &sol, b) == -1)
		return;
	if (sudoku_rate_cands(&c, &sol, &r, NULL) != SUDOKU_HINT_DONE) {
		snprintf(b->p, b->size, "ERR wrong the grid contradicts "
		    "itself");
		return;
	}
	sudoku_path_init(&path, &c);
	while (sudoku_path_next(&path, &step) == SUDOKU_HINT_STEP) {
		sudoku_step_text(&step, text, sizeof text);
		reply_line(b, &len, text);
	}
	if (path.end == SUDOKU_HINT_NOSTEP)
		reply_line(b, &len, "nostep no logical step applies from "
		    "here; the rest needs trial and error");
	sudoku_path_text(&path, &r, text, sizeof text);
	reply_line(b, &len, text);
	reply_line(b, &len, "END");
}

/*
 * Its own ERR codes: a path is of a puzzle of one solution.  Each step
 * takes at least one of the 729 candidates, then its summary: at most
 * 730 lines before END.
 */
const struct verb verb_path = {
	.word = "path", .wire = "PATH", .done = "walked",
	.errors = " nosolution multiple ", .flags = VERB_SEARCH | VERB_BLOCK,
	.lines = SUDOKU_CELLS * 9 + 1, .print = VERB_PRINT_BLOCK,
	.usage = "[puzzle | file | -] ...",
	.about = "every logical step, and a summary",
	.check = path_check, .reply = path_reply
};
