/* SPDX-License-Identifier: ISC */
/*
 * test_logic_sets.c -- the logical solver on every puzzle of the sets in
 * $PUZZLE_DIR: solved by repeated hints applied to 729-byte pencil
 * marks, each step checked against the solution from sudoku_solve()
 * (itself checked by checker_solution()), and the walk compared with
 * sudoku_rate().  A dead end (an extreme puzzle) is passed the way
 * sudoku.h says the rater passes it, the solution's digit in the open
 * cell with the fewest candidates, so the steps after it are checked
 * and counted too.  The pencil marks are built and updated here, by code
 * independent of the library: a placement leaves the cell its digit
 * and clears the digit from the cell's row, column and box.
 *
 * Under AddressSanitizer (several times slower) the 17-clue walk takes
 * every 8th puzzle and says so; other builds take every puzzle.  The
 * text of the steps is checked on every puzzle of top1465 and on every
 * 8th of the 17-clue set.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_logic.h"

#if defined(__SANITIZE_ADDRESS__)
#define WALK_SANITIZER	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WALK_SANITIZER	1
#endif
#endif
#ifndef WALK_SANITIZER
#define WALK_SANITIZER	0
#endif

/* Sets larger than this are sampled under a sanitizer. */
#define WALK_SAMPLE_ABOVE	10000
#define WALK_STRIDE		8

/*
 * In a sampled set (or a large one) the step text is checked on every
 * 8th puzzle: the formatting is the same code whatever the puzzle, and
 * checking it costs as much as the walk.
 */
#define WALK_TEXT_EVERY		8

/* Does cell a share a row, column or box with cell b? */
static int
marks_peer(int a, int b)
{
	return (a != b && (a / 9 == b / 9 || a % 9 == b % 9 ||
	    (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3)));
}

static int
marks_has(const char *t, int cell, int d)
{
	return (t[cell * 9 + d - 1] != '.');
}

static void
marks_place(char *t, int cell, int d)
{
	int	 other;

	memset(t + cell * 9, '.', 9);
	t[cell * 9 + d - 1] = (char)('0' + d);
	for (other = 0; other < SUDOKU_CELLS; other++)
		if (marks_peer(cell, other))
			t[other * 9 + d - 1] = '.';
}

/* A puzzle as a player starts it: givens, blanks with all nine marks. */
static void
marks_puzzle(const struct sudoku_grid *in, char *t)
{
	int	 cell;

	marks_full(t);
	for (cell = 0; cell < SUDOKU_CELLS; cell++)
		if (in->cell[cell] != 0)
			marks_set(t, cell / 9 + 1, cell % 9 + 1,
			    (char[]){ (char)('0' + in->cell[cell]), '\0' });
}

static int
marks_count(const char *t, int cell)
{
	int	 k, n = 0;

	for (k = 0; k < 9; k++)
		n += t[cell * 9 + k] != '.';
	return (n);
}

/* The text of a step: 7-bit, one line, "<name> <actions> ...". */
static int
walk_text(const struct sudoku_step *st, char *why, size_t whysize)
{
	const struct sudoku_action	*a;
	char				 text[2048], want[1024];
	size_t				 n = 0, i;
	int				 k;

	n = (size_t)snprintf(want, sizeof want, "%s ",
	    sudoku_technique_name(st->tech));
	for (k = 0; k < st->nactions && n < sizeof want - 16; k++) {
		a = &st->action[k];
		n += (size_t)snprintf(want + n, sizeof want - n, "%sr%dc%d%c%d",
		    k > 0 ? "," : "", a->cell / 9 + 1, a->cell % 9 + 1,
		    a->place ? '=' : '-', a->digit);
	}
	want[n++] = ' ';
	want[n] = '\0';
	if (sudoku_step_text(st, text, sizeof text) >= (int)sizeof text ||
	    strncmp(text, want, n) != 0 || strlen(text) < n + 10) {
		snprintf(why, whysize, "step text \"%.80s\"", text);
		return (-1);
	}
	for (i = 0; text[i] != '\0'; i++)
		if (text[i] < 0x20 || text[i] > 0x7e) {
			snprintf(why, whysize, "byte 0x%02x in step text",
			    (unsigned char)text[i]);
			return (-1);
		}
	return (0);
}

/* Checks a step against the solution and applies it to t. */
static int
walk_step(const struct sudoku_step *st, const struct sudoku_grid *sol,
    char *t, int text, char *why, size_t whysize)
{
	const struct sudoku_action	*a;
	int				 k, cell, d;

	if (st->nactions == 0) {
		snprintf(why, whysize, "%s step without actions",
		    sudoku_technique_name(st->tech));
		return (-1);
	}
	for (k = 0; k < st->nactions; k++) {
		a = &st->action[k];
		cell = a->cell;
		d = a->digit;
		if (cell >= SUDOKU_CELLS || d < 1 || d > 9 ||
		    (a->place && (d != sol->cell[cell] ||
		    marks_count(t, cell) < 2)) ||
		    (!a->place && (d == sol->cell[cell] ||
		    !marks_has(t, cell, d)))) {
			snprintf(why, whysize, "%s: bad action r%dc%d%c%d "
			    "(solution %d)", sudoku_technique_name(st->tech),
			    cell / 9 + 1, cell % 9 + 1, a->place ? '=' : '-', d,
			    sol->cell[cell]);
			return (-1);
		}
		if (a->place)
			marks_place(t, cell, d);
		else
			t[cell * 9 + d - 1] = '.';
	}
	return (text ? walk_text(st, why, whysize) : 0);
}

/* The walk ended on DONE: every cell holds the solution's digit only. */
static int
walk_done(const char *t, const struct sudoku_grid *sol, char *why,
    size_t whysize)
{
	int	 cell;

	for (cell = 0; cell < SUDOKU_CELLS; cell++)
		if (marks_count(t, cell) != 1 ||
		    !marks_has(t, cell, sol->cell[cell])) {
			snprintf(why, whysize, "done but r%dc%d is not %d",
			    cell / 9 + 1, cell % 9 + 1, sol->cell[cell]);
			return (-1);
		}
	return (0);
}

/*
 * What a walk took, to compare with sudoku_rate(): the hardest
 * technique, the steps (hints) and trials (dead ends), and for each
 * level the steps of its techniques, naked singles left out, trials
 * counted under extreme (the k of the score, struct sudoku_rating).
 */
struct walk {
	int		hardest;
	unsigned int	steps;
	unsigned int	trials;
	unsigned int	k[SUDOKU_LEVEL_COUNT];
};

/*
 * The open cell the rater gives its digit at a dead end: the fewest
 * candidates, the first in row-major order.  The candidates counted
 * are the effective ones (sudoku.h): an elimination may leave a cell
 * one mark without clearing the digit from its peers, so the peers'
 * marks are not enough.  -1 if no cell is open.
 */
static int
walk_trial_cell(const char *t)
{
	int	 filled[SUDOKU_CELLS];	/* the digit, 0 while open */
	int	 cell, other, d, n, best = -1, bestn = 10;

	for (cell = 0; cell < SUDOKU_CELLS; cell++) {
		filled[cell] = 0;
		for (d = 1; d <= 9 && marks_count(t, cell) == 1; d++)
			if (marks_has(t, cell, d))
				filled[cell] = d;
	}
	for (cell = 0; cell < SUDOKU_CELLS; cell++) {
		if (filled[cell] != 0)
			continue;
		n = marks_count(t, cell);
		for (d = 1; d <= 9; d++) {
			if (!marks_has(t, cell, d))
				continue;
			for (other = 0; other < SUDOKU_CELLS; other++)
				if (filled[other] == d &&
				    marks_peer(cell, other)) {
					n--;
					break;
				}
		}
		if (n < bestn) {
			best = cell;
			bestn = n;
		}
	}
	return (best);
}

/* One hint or, at a dead end, one trial; 1 when the walk is done. */
static int
walk_next_step(const struct sudoku_grid *in, const struct sudoku_grid *sol,
    char *t, int text, struct walk *w, char *why, size_t whysize)
{
	struct sudoku_cands	 c;
	struct sudoku_step	 st;
	enum sudoku_hint_result	 res;
	int			 cell;

	if (sudoku_cands_parse(t, SUDOKU_CANDS_LEN, in, &c, NULL) != 0 ||
	    sudoku_cands_wrong(&c, sol, NULL) != 0 ||
	    w->steps + w->trials > 729) {
		snprintf(why, whysize, "bad state after %u steps, %u trials",
		    w->steps, w->trials);
		return (-1);
	}
	res = sudoku_hint(&c, &st);
	if (res == SUDOKU_HINT_DONE)
		return (walk_done(t, sol, why, whysize) == 0 ? 1 : -1);
	if (res == SUDOKU_HINT_NOSTEP) {
		/* Past the dead end as the rater goes: the solution's digit. */
		if ((cell = walk_trial_cell(t)) < 0) {
			snprintf(why, whysize, "dead end without open cells");
			return (-1);
		}
		marks_place(t, cell, sol->cell[cell]);
		w->trials++;
		w->k[SUDOKU_LEVEL_EXTREME]++;
		w->hardest = SUDOKU_TECH_TRIAL;
		return (0);
	}
	if (res != SUDOKU_HINT_STEP) {
		snprintf(why, whysize, "hint %d after %u steps", res,
		    w->steps);
		return (-1);
	}
	if (walk_step(&st, sol, t, text, why, whysize) != 0)
		return (-1);
	w->steps++;
	if (st.tech != SUDOKU_TECH_NAKED_SINGLE)
		w->k[sudoku_technique_level(st.tech)]++;
	if ((int)st.tech > w->hardest)
		w->hardest = st.tech;
	return (0);
}

/* The walk to the end, through the dead ends of an extreme puzzle. */
static int
walk_run(const struct sudoku_grid *in, int text, struct walk *w,
    char *why, size_t whysize)
{
	struct sudoku_grid	 sol;
	char			 t[SUDOKU_CANDS_LEN + 1];
	int			 res;

	if (sudoku_solve(in, SUDOKU_ANY, 0, &sol, NULL) != SUDOKU_SOLVED ||
	    !checker_solution(in->cell, sol.cell, why, whysize)) {
		snprintf(why, whysize, "sudoku_solve failed");
		return (-1);
	}
	marks_puzzle(in, t);
	memset(w, 0, sizeof *w);
	w->hardest = SUDOKU_TECH_NAKED_SINGLE;
	while ((res = walk_next_step(in, &sol, t, text, w, why,
	    whysize)) == 0)
		;
	return (res == 1 ? 0 : -1);
}

/*
 * The score sudoku.h defines, from the walk's own counts: the hardest
 * technique's weight, a tenth for each doubling of k, at most x.9.
 */
static unsigned int
walk_score(const struct walk *w)
{
	unsigned int	 wt = sudoku_technique_weight(w->hardest);
	unsigned int	 k = w->k[sudoku_technique_level(w->hardest)];
	unsigned int	 extra = 0;

	for (; k > 1 && extra < 9 - wt % 10; k /= 2)
		extra++;
	return (wt + extra);
}

/* One puzzle: the walk, then the rating against it. */
static int
walk_check(const struct sudoku_grid *in, int text, unsigned long *levels,
    char *why, size_t whysize)
{
	struct sudoku_rating	 r;
	struct walk		 w;
	int			 level;

	if (walk_run(in, text, &w, why, whysize) != 0)
		return (-1);
	if (sudoku_rate(in, 0, &r) != SUDOKU_SOLVED) {
		snprintf(why, whysize, "sudoku_rate failed");
		return (-1);
	}
	levels[r.level]++;
	level = sudoku_technique_level(w.hardest);
	if ((int)r.level != level || (int)r.hardest != w.hardest ||
	    r.steps != w.steps || r.trials != w.trials ||
	    r.hard != w.k[level] || r.score != walk_score(&w) ||
	    (w.trials != 0) != (r.level == SUDOKU_LEVEL_EXTREME)) {
		snprintf(why, whysize, "walk %s in %u steps, %u trials, k %u, "
		    "score %u; rate %s %s in %u, %u, k %u, score %u",
		    sudoku_technique_name(w.hardest), w.steps, w.trials,
		    w.k[level], walk_score(&w), sudoku_level_name(r.level),
		    sudoku_technique_name(r.hardest), r.steps, r.trials,
		    r.hard, r.score);
		return (-1);
	}
	return (0);
}

FILE *
walk_open(const char *file)
{
	const char	*dir = getenv("PUZZLE_DIR");
	struct stat	 sb;
	char		 path[4096];
	FILE		*f;

	if (dir == NULL || *dir == '\0')
		test_fail("PUZZLE_DIR is not set: the data-set tests need the "
		    "puzzle sets (make check sets it; configure "
		    "--with-data-dir=DIR)");
	if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
		test_fail("PUZZLE_DIR %s is not a directory", dir);
	snprintf(path, sizeof path, "%s/%s", dir, file);
	if ((f = fopen(path, "r")) == NULL)
		test_fail("%s: %s", path, strerror(errno));
	return (f);
}

int
walk_next(FILE *f, struct sudoku_grid *g, unsigned long *lineno)
{
	char	 line[256];
	size_t	 len;

	while (fgets(line, sizeof line, f) != NULL) {
		(*lineno)++;
		len = strcspn(line, "\r\n \t");
		if (len == 0 || line[0] == '#')
			continue;
		if (sudoku_parse(line, len, g, NULL) != 0)
			test_fail("line %lu: not a puzzle", *lineno);
		return (1);
	}
	return (0);
}

static double
walk_now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

void
test_walk_set(void **state)
{
	const struct walk_set	*ws = *state;
	struct sudoku_grid	 g;
	unsigned long		 lineno = 0, n = 0, walked = 0, failed = 0;
	unsigned long		 levels[SUDOKU_LEVEL_COUNT] = { 0 };
	unsigned long		 stride = 1;
	double			 t0 = walk_now();
	char			 why[256], first[320] = "";
	FILE			*f = walk_open(ws->file);

	if (WALK_SANITIZER && ws->puzzles > WALK_SAMPLE_ABOVE)
		stride = WALK_STRIDE;
	while (walk_next(f, &g, &lineno)) {
		if (n++ % stride != 0)
			continue;
		walked++;
		if (walk_check(&g, ws->puzzles <= WALK_SAMPLE_ABOVE ||
		    n % WALK_TEXT_EVERY == 1, levels, why, sizeof why) != 0 &&
		    failed++ == 0)
			snprintf(first, sizeof first, "line %lu: %s", lineno,
			    why);
	}
	fclose(f);
	print_message("# %s: %lu of %lu puzzles walked%s in %.1f s; levels "
	    "easy %lu, medium %lu, hard %lu, expert %lu, extreme %lu\n",
	    ws->file, walked, n, stride > 1 ? " (every 8th: sanitizer "
	    "build)" : "", walk_now() - t0, levels[0], levels[1], levels[2],
	    levels[3], levels[4]);
	if (failed != 0)
		test_fail("%s: %lu puzzles failed; first at %s", ws->file,
		    failed, first);
	assert_int_equal(n, ws->puzzles);
}

/*
 * The score's cap (doc/rating.md): a level's scores stop at x.9, below
 * the next level's.  No puzzle of the sets has enough steps for the cap
 * to change a score; this one (GENERATE expert 1700) has: xy_chain (4.6)
 * is its hardest step and 17 of its steps are of the expert level, so
 * 4.6 + floor(log2 17) tenths would be 5.0, the extreme band.  It must
 * rate 4.9 expert, and the hint walk's own count must agree.
 */
static const char test_capped[] = "500020070300000006000003009000080005"
    "063000900905601008000100000002000590600079042";

void
test_rate_cap(void **state)
{
	struct sudoku_grid	 g;
	struct sudoku_rating	 r;
	unsigned long		 levels[SUDOKU_LEVEL_COUNT] = { 0 };
	char			 why[256], buf[64];

	(void)state;
	test_puzzle(test_capped, &g);
	assert_int_equal(sudoku_rate(&g, 0, &r), SUDOKU_SOLVED);
	assert_int_equal(r.level, SUDOKU_LEVEL_EXPERT);
	assert_int_equal(r.hardest, SUDOKU_TECH_XY_CHAIN);
	assert_true(r.hard >= 16);	/* 4 doublings: over the cap of 3 */
	assert_int_equal(r.score, 49);
	sudoku_rating_text(&r, buf, sizeof buf);
	assert_string_equal(buf, "expert 4.9 xy_chain");
	if (walk_check(&g, 1, levels, why, sizeof why) != 0)
		test_fail("%s", why);
}

/* Every hardest puzzle is expert or extreme, most of them extreme. */
void
test_levels_hardest(void **state)
{
	struct sudoku_grid	 g;
	struct sudoku_rating	 r;
	unsigned long		 lineno = 0, n = 0;
	unsigned long		 levels[SUDOKU_LEVEL_COUNT] = { 0 };
	FILE			*f = walk_open("puzzles6_forum_hardest_1106");

	(void)state;
	while (walk_next(f, &g, &lineno)) {
		n++;
		if (sudoku_rate(&g, 0, &r) != SUDOKU_SOLVED)
			test_fail("line %lu: sudoku_rate failed", lineno);
		levels[r.level]++;
		if (r.level < SUDOKU_LEVEL_EXPERT)
			test_fail("line %lu: rated %s", lineno,
			    sudoku_level_name(r.level));
	}
	fclose(f);
	print_message("# hardest: %lu puzzles, expert %lu, extreme %lu\n", n,
	    levels[SUDOKU_LEVEL_EXPERT], levels[SUDOKU_LEVEL_EXTREME]);
	assert_int_equal(n, 375);
	assert_true(levels[SUDOKU_LEVEL_EXTREME] * 2 > n);
}
