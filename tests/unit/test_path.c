/* SPDX-License-Identifier: ISC */
/*
 * test_path.c -- whole logical paths (PATH) and the rating of a state:
 * every step of a path agrees with the solution (a placement puts the
 * solution's digit, an elimination never removes it); a path that ends
 * DONE has filled the grid with the solution, and its counts of each
 * technique are sudoku_rate()'s; an extreme puzzle's path ends at a
 * dead end where no hint applies.  A path from a state part way along
 * is the rest of the path; the summary line is RATE's words and the
 * counts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_toolbox.h"

/* The first 17-clue puzzle of the set: medium. */
static const char path_17[] = ".................1.....2.3......3.2...1.4....."
	".5....6..3......4.7..8...962...7...";

/* Each action of st holds in the solution. */
static void
path_step_check(const struct sudoku_step *st, const struct sudoku_grid *sol,
    const char *text)
{
	const struct sudoku_action	*a;
	int				 k;

	for (k = 0; k < st->nactions; k++) {
		a = &st->action[k];
		if ((a->place != 0) != (a->digit == sol->cell[a->cell]))
			test_fail("%s: %s %s r%dc%d %d, the solution has %d",
			    text, sudoku_technique_name(st->tech),
			    a->place ? "places" : "eliminates",
			    a->cell / 9 + 1, a->cell % 9 + 1, a->digit,
			    sol->cell[a->cell]);
	}
}

/* Walks p to its end, checking each step; returns the end. */
static enum sudoku_hint_result
path_walk(struct sudoku_path *p, const struct sudoku_grid *sol,
    const char *text)
{
	struct sudoku_step	 st;
	enum sudoku_hint_result	 res;

	while ((res = sudoku_path_next(p, &st)) == SUDOKU_HINT_STEP)
		path_step_check(&st, sol, text);
	assert_int_equal(sudoku_path_next(p, &st), res);
	return (res);
}

static void
path_puzzle(const struct sudoku_grid *g, unsigned long *levels)
{
	struct sudoku_cands	 c;
	struct sudoku_path	 p;
	struct sudoku_grid	 sol;
	struct sudoku_rating	 r, r2;
	struct sudoku_step	 st;
	enum sudoku_hint_result	 end;
	unsigned int		 used[SUDOKU_TECH_COUNT];
	char			 text[SUDOKU_CELLS + 1];
	int			 cell;

	tb_text(g, text);
	assert_int_equal(tb_solutions(g, &sol), 1);
	assert_int_equal(sudoku_rate(g, 0, &r), SUDOKU_SOLVED);
	sudoku_cands_init(&c, g);
	assert_int_equal(sudoku_rate_cands(&c, &sol, &r2, used),
	    SUDOKU_HINT_DONE);
	assert_memory_equal(&r, &r2, sizeof r);
	assert_int_equal(used[SUDOKU_TECH_TRIAL], r.trials);
	sudoku_path_init(&p, &c);
	end = path_walk(&p, &sol, text);
	levels[r.level]++;
	assert_int_equal(sudoku_cands_wrong(&p.cands, &sol, NULL), 0);
	if (r.level == SUDOKU_LEVEL_EXTREME) {
		if (end != SUDOKU_HINT_NOSTEP)
			test_fail("%s: extreme, the path ends with %d", text,
			    end);
		assert_int_equal(sudoku_hint(&p.cands, &st),
		    SUDOKU_HINT_NOSTEP);
		assert_true(p.steps < r.steps);
		return;
	}
	if (end != SUDOKU_HINT_DONE)
		test_fail("%s: %s, the path ends with %d", text,
		    sudoku_level_name(r.level), end);
	assert_int_equal(p.steps, r.steps);
	assert_memory_equal(p.used, used, sizeof used);
	for (cell = 0; cell < SUDOKU_CELLS; cell++)
		assert_int_equal(p.cands.mask[cell],
		    1u << (sol.cell[cell] - 1));
}

void
test_path_sets(void **state)
{
	static const struct {
		const char	*name;
		size_t		 step;
	} sets[] = { { "puzzles3_magictour_top1465", 1 },
	    { "puzzles6_forum_hardest_1106", 1 },
	    { "puzzles2_17_clue", 40 } };
	struct tb_set		 set;
	unsigned long		 levels[SUDOKU_LEVEL_COUNT];
	size_t			 k, i, step;

	(void)state;
	for (k = 0; k < sizeof sets / sizeof sets[0]; k++) {
		memset(levels, 0, sizeof levels);
		tb_load(sets[k].name, &set);
		step = sets[k].step * (tb_slow() ? 4 : 1);
		for (i = 0; i < set.n; i += step)
			path_puzzle(&set.g[i], levels);
		print_message("# path: %s, every %zu: %lu/%lu/%lu/%lu/%lu\n",
		    sets[k].name, step, levels[0], levels[1], levels[2],
		    levels[3], levels[4]);
		tb_free(&set);
	}
}

/* From a state part way along, as the player's 729 marks: the rest. */
void
test_path_state(void **state)
{
	struct sudoku_cands	 c, mid;
	struct sudoku_path	 whole, rest, p;
	struct sudoku_grid	 g, sol;
	struct sudoku_rating	 r, rm;
	struct sudoku_step	 st;
	char			 marks[SUDOKU_CANDS_LEN];
	unsigned int		 k, t, used[SUDOKU_TECH_COUNT];

	(void)state;
	/* BOJ 2580's sample, then a 17-clue puzzle. */
	tb_puzzle("0354692787821056090602781353210468978049135065968204139"
	    "17652080603701952258394760", &g);
	for (k = 0; k < 2; k++) {
		if (k == 1)
			tb_puzzle(path_17, &g);
		assert_int_equal(tb_solutions(&g, &sol), 1);
		assert_int_equal(sudoku_rate(&g, 0, &r), SUDOKU_SOLVED);
		sudoku_cands_init(&c, &g);
		sudoku_path_init(&whole, &c);
		assert_int_equal(path_walk(&whole, &sol, "whole"),
		    SUDOKU_HINT_DONE);
		sudoku_path_init(&p, &c);
		for (t = 0; t < whole.steps / 2; t++)
			assert_int_equal(sudoku_path_next(&p, &st),
			    SUDOKU_HINT_STEP);
		sudoku_cands_format(&p.cands, marks);
		assert_int_equal(sudoku_cands_parse(marks, sizeof marks, &g,
		    &mid, NULL), 0);
		sudoku_path_init(&rest, &mid);
		assert_int_equal(path_walk(&rest, &sol, "rest"),
		    SUDOKU_HINT_DONE);
		assert_int_equal(rest.steps, whole.steps - whole.steps / 2);
		for (t = 0; t < SUDOKU_TECH_COUNT; t++)
			assert_int_equal(rest.used[t] + p.used[t],
			    whole.used[t]);
		assert_memory_equal(&rest.cands, &whole.cands,
		    sizeof rest.cands);
		assert_int_equal(sudoku_rate_cands(&mid, &sol, &rm, used),
		    SUDOKU_HINT_DONE);
		assert_int_equal(rm.steps, rest.steps);
		assert_memory_equal(used, rest.used, sizeof used);
	}
	/* A filled grid is done at once; a broken state is broken. */
	sudoku_cands_init(&c, &sol);
	sudoku_path_init(&p, &c);
	assert_int_equal(sudoku_path_next(&p, &st), SUDOKU_HINT_DONE);
	assert_int_equal(p.steps, 0);
	g = sol;
	g.cell[1] = g.cell[0];
	sudoku_cands_init(&c, &g);
	sudoku_path_init(&p, &c);
	assert_int_equal(sudoku_path_next(&p, &st), SUDOKU_HINT_BROKEN);
	assert_int_equal(sudoku_rate_cands(&c, &sol, &rm, NULL),
	    SUDOKU_HINT_BROKEN);
}

void
test_path_text(void **state)
{
	struct sudoku_cands	 c;
	struct sudoku_path	 p;
	struct sudoku_grid	 g, sol;
	struct sudoku_rating	 r;
	struct sudoku_step	 st;
	char			 text[1024], rate[64], small[10], *tok, *eq;
	unsigned int		 sum = 0;
	int			 n, t, last = -1;

	(void)state;
	tb_puzzle(path_17, &g);
	assert_int_equal(tb_solutions(&g, &sol), 1);
	sudoku_cands_init(&c, &g);
	assert_int_equal(sudoku_rate_cands(&c, &sol, &r, NULL),
	    SUDOKU_HINT_DONE);
	sudoku_path_init(&p, &c);
	while (sudoku_path_next(&p, &st) == SUDOKU_HINT_STEP)
		;
	n = sudoku_path_text(&p, &r, text, sizeof text);
	assert_int_equal(n, (int)strlen(text));
	sudoku_rating_text(&r, rate, sizeof rate);
	assert_int_equal(strncmp(text, rate, strlen(rate)), 0);
	assert_int_equal(text[strlen(rate)], ' ');
	for (tok = strtok(text + strlen(rate), " "); tok != NULL;
	    tok = strtok(NULL, " ")) {
		assert_non_null(eq = strchr(tok, '='));
		*eq = '\0';
		for (t = 0; t < SUDOKU_TECH_COUNT; t++)
			if (strcmp(tok, sudoku_technique_name(t)) == 0)
				break;
		assert_true(t < SUDOKU_TECH_COUNT);
		assert_true(t > last);		/* the table's order */
		last = t;
		assert_int_equal(strtoul(eq + 1, NULL, 10), p.used[t]);
		assert_true(p.used[t] > 0);
		sum += p.used[t];
	}
	assert_int_equal(sum, p.steps);
	/* snprintf()'s rules: the length it needs, a cut text. */
	assert_int_equal(sudoku_path_text(&p, &r, small, sizeof small), n);
	assert_int_equal(strlen(small), sizeof small - 1);
	assert_int_equal(sudoku_path_text(&p, &r, NULL, 0), n);
}
