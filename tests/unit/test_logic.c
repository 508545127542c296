/* SPDX-License-Identifier: ISC */
/*
 * test_logic.c -- unit tests of the logical solver's API (src/core/
 * sudoku.h, the block after the solver): the technique table, level
 * names, candidate grids and their text, hint results, steps, ratings;
 * main() runs the whole group (see test_logic.h).
 */
#include <stdio.h>
#include <string.h>

#include "test_logic.h"

/* BOJ 2580 sample (test_solve.c), and the forum's first hardest puzzle. */
const char test_boj2580[] = "0354692787821056090602781353210468978049135"
	"06596820413917652080603701952258394760";
const char test_hard1[] = "........8..3...4...9..2..6.....79.......612..."
	"6.5.2.7...8...5...1.....2.4.5.....3";

void
test_puzzle(const char *s, struct sudoku_grid *g)
{
	assert_int_equal(strlen(s), SUDOKU_CELLS);
	assert_int_equal(sudoku_parse(s, SUDOKU_CELLS, g, NULL), 0);
}

void
marks_full(char *t)
{
	int	 i;

	for (i = 0; i < SUDOKU_CANDS_LEN; i++)
		t[i] = (char)('1' + i % 9);
	t[SUDOKU_CANDS_LEN] = '\0';
}

void
marks_set(char *t, int r, int c, const char *digits)
{
	char	*cell = t + ((r - 1) * 9 + c - 1) * 9;

	memset(cell, '.', 9);
	for (; *digits != '\0'; digits++)
		cell[*digits - '1'] = *digits;
}

void
marks_del(char *t, int r, int c, const char *digits)
{
	for (; *digits != '\0'; digits++)
		t[((r - 1) * 9 + c - 1) * 9 + *digits - '1'] = '.';
}

void
marks_del_row(char *t, int r, const char *cols, const char *digits)
{
	for (; *cols != '\0'; cols++)
		marks_del(t, r, *cols - '0', digits);
}

void
marks_del_col(char *t, int c, const char *rows, const char *digits)
{
	for (; *rows != '\0'; rows++)
		marks_del(t, *rows - '0', c, digits);
}

/* Names unique and snake_case; levels and weights never go down. */
void
test_tech_table(void **state)
{
	const char	*name, *p;
	int		 t, u;

	(void)state;
	assert_int_equal(SUDOKU_TECH_COUNT, 19);
	for (t = 0; t < SUDOKU_TECH_COUNT; t++) {
		name = sudoku_technique_name(t);
		assert_non_null(name);
		assert_true(strlen(name) > 0);
		for (p = name; *p != '\0'; p++)
			assert_true((*p >= 'a' && *p <= 'z') || *p == '_');
		for (u = 0; u < t; u++)
			assert_string_not_equal(name, sudoku_technique_name(u));
		if (t == 0)
			continue;
		assert_true(sudoku_technique_level(t) >=
		    sudoku_technique_level(t - 1));
		assert_true(sudoku_technique_weight(t) >=
		    sudoku_technique_weight(t - 1));
	}
	assert_string_equal(sudoku_technique_name(SUDOKU_TECH_NAKED_SINGLE),
	    "naked_single");
	assert_string_equal(sudoku_technique_name(SUDOKU_TECH_XY_WING),
	    "xy_wing");
	assert_string_equal(sudoku_technique_name(SUDOKU_TECH_TRIAL),
	    "trial_and_error");
	assert_string_equal(sudoku_technique_name(SUDOKU_TECH_COUNT),
	    "unknown");
	/* The level table. */
	assert_int_equal(sudoku_technique_level(SUDOKU_TECH_HIDDEN_SINGLE),
	    SUDOKU_LEVEL_EASY);
	assert_int_equal(sudoku_technique_level(SUDOKU_TECH_HIDDEN_PAIR),
	    SUDOKU_LEVEL_MEDIUM);
	assert_int_equal(sudoku_technique_level(SUDOKU_TECH_X_WING),
	    SUDOKU_LEVEL_HARD);
	assert_int_equal(sudoku_technique_level(SUDOKU_TECH_HIDDEN_QUAD),
	    SUDOKU_LEVEL_HARD);
	assert_int_equal(sudoku_technique_level(SUDOKU_TECH_JELLYFISH),
	    SUDOKU_LEVEL_EXPERT);
	assert_int_equal(sudoku_technique_level(SUDOKU_TECH_XY_CHAIN),
	    SUDOKU_LEVEL_EXPERT);
	assert_int_equal(sudoku_technique_level(SUDOKU_TECH_TRIAL),
	    SUDOKU_LEVEL_EXTREME);
	/* Level L's weights are L.0-L.9 (1.0-1.9 for easy, ...). */
	for (t = 0; t < SUDOKU_TECH_COUNT; t++)
		assert_int_equal(sudoku_technique_weight(t) / 10,
		    sudoku_technique_level(t) + 1);
}

void
test_level_names(void **state)
{
	static const char *const names[] = {
		"easy", "medium", "hard", "expert", "extreme"
	};
	static const char *const bad[] = {
		"", "eas", "easyy", "hardest", "0", "easy ", " easy"
	};
	enum sudoku_level	 l;
	size_t			 i;

	(void)state;
	assert_int_equal(SUDOKU_LEVEL_COUNT, 5);
	for (i = 0; i < 5; i++) {
		assert_string_equal(sudoku_level_name(i), names[i]);
		l = SUDOKU_LEVEL_COUNT;
		assert_int_equal(sudoku_level_parse(names[i],
		    strlen(names[i]), &l), 0);
		assert_int_equal(l, i);
	}
	assert_int_equal(sudoku_level_parse("HaRd", 4, &l), 0);
	assert_int_equal(l, SUDOKU_LEVEL_HARD);
	assert_int_equal(sudoku_level_parse("EXTREME", 7, &l), 0);
	assert_int_equal(l, SUDOKU_LEVEL_EXTREME);
	assert_int_equal(sudoku_level_parse("MEDIUM", 6, &l), 0);
	assert_int_equal(l, SUDOKU_LEVEL_MEDIUM);
	assert_int_equal(sudoku_level_parse("m\305dium", 6, &l), -1);
	/* len counts, not the terminator: "hard" out of "hardest". */
	assert_int_equal(sudoku_level_parse("hardest", 4, &l), 0);
	assert_int_equal(l, SUDOKU_LEVEL_HARD);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(sudoku_level_parse(bad[i], strlen(bad[i]),
		    &l), -1);
	assert_string_equal(sudoku_level_name(SUDOKU_LEVEL_COUNT), "unknown");
}

/* 81-cell and 729-byte forms, and format() back. */
void
test_cands_roundtrip(void **state)
{
	struct sudoku_grid	 g;
	struct sudoku_cands	 c, c2;
	char			 text[SUDOKU_CANDS_LEN + 1];
	char			 want[SUDOKU_CANDS_LEN + 1];
	int			 i;

	(void)state;
	test_puzzle(test_boj2580, &g);
	sudoku_cands_init(&c, &g);
	/* Givens: one candidate; blanks: all nine, no marks made yet. */
	for (i = 0; i < SUDOKU_CELLS; i++)
		assert_int_equal(c.mask[i], g.cell[i] ?
		    1 << (g.cell[i] - 1) : 0x1ff);
	sudoku_cands_format(&c, text);
	text[SUDOKU_CANDS_LEN] = '\0';
	assert_memory_equal(text, "123456789..3......", 18);
	assert_int_equal(sudoku_cands_parse(text, SUDOKU_CANDS_LEN, &g, &c2,
	    NULL), 0);
	assert_memory_equal(c.mask, c2.mask, sizeof c.mask);
	/* The 81-cell form is the same state. */
	assert_int_equal(sudoku_cands_parse(test_boj2580, SUDOKU_CELLS, NULL,
	    &c2, NULL), 0);
	assert_memory_equal(c.mask, c2.mask, sizeof c.mask);
	/* Every candidate everywhere, cut to a puzzle's givens. */
	marks_full(want);
	assert_int_equal(sudoku_cands_parse(want, SUDOKU_CANDS_LEN, &g, &c2,
	    NULL), 0);
	assert_memory_equal(c.mask, c2.mask, sizeof c.mask);
	/* Any marks go through format() and parse() unchanged. */
	for (i = 0; i < SUDOKU_CELLS; i++)
		c.mask[i] = (uint16_t)((i * 37 + 11) % 512);
	sudoku_cands_format(&c, text);
	assert_memory_equal(text, "12.4.....", 9);	/* 11: 1, 2, 4 */
	assert_int_equal(sudoku_cands_parse(text, SUDOKU_CANDS_LEN, NULL,
	    &c2, NULL), 0);
	assert_memory_equal(c.mask, c2.mask, sizeof c.mask);
}

static void
expect_cands_error(const char *s, size_t len, enum sudoku_perr kind,
    size_t pos, const char *want)
{
	struct sudoku_cands	 c;
	struct sudoku_perror	 err;
	char			 buf[128];

	memset(&c, 0x5a, sizeof c);
	assert_int_equal(sudoku_cands_parse(s, len, NULL, &c, &err), -1);
	assert_int_equal(err.kind, kind);
	if (kind == SUDOKU_PERR_CHAR)
		assert_int_equal(err.pos, pos);
	sudoku_perror_text(&err, buf, sizeof buf);
	assert_string_equal(buf, want);
	assert_int_equal(c.mask[0], 0x5a5a);	/* untouched */
	assert_int_equal(sudoku_cands_parse(s, len, NULL, &c, NULL), -1);
}

/*
 * Every set of marks of a cell reads back, and every wrong byte in it
 * is reported where it is (the parser reads eight marks at a time).
 */
static void
cands_every_cell(void)
{
	static const char	 other[] = "0.x9\200\377 ";
	struct sudoku_cands	 c;
	struct sudoku_perror	 err;
	char			 t[SUDOKU_CANDS_LEN + 1], *cell = t + 40 * 9;
	unsigned int		 m;
	int			 k, i;

	for (m = 0; m < 512; m++) {
		marks_full(t);
		for (k = 0; k < 9; k++)
			cell[k] = (m >> k & 1) ? (char)('1' + k) : '.';
		assert_int_equal(sudoku_cands_parse(t, SUDOKU_CANDS_LEN, NULL,
		    &c, NULL), 0);
		assert_int_equal(c.mask[40], m);
		for (k = 0; k < 9; k++) {
			for (i = 0; other[i] != '\0'; i++) {
				if (other[i] == '1' + k || other[i] == '.')
					continue;
				cell[k] = other[i];
				assert_int_equal(sudoku_cands_parse(t,
				    SUDOKU_CANDS_LEN, NULL, &c, &err), -1);
				assert_int_equal(err.pos, 40 * 9 + k);
				cell[k] = (m >> k & 1) ? (char)('1' + k) : '.';
			}
		}
	}
}

void
test_cands_errors(void **state)
{
	char	 t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	cands_every_cell();
	marks_full(t);
	expect_cands_error(t, 80, SUDOKU_PERR_CANDLEN, 0,
	    "expected 81 cells or 729 candidates, found 80");
	expect_cands_error(t, 728, SUDOKU_PERR_CANDLEN, 0,
	    "expected 81 cells or 729 candidates, found 728");
	expect_cands_error(t, 0, SUDOKU_PERR_CANDLEN, 0,
	    "expected 81 cells or 729 candidates, found 0");
	/* A digit out of its place: '2' where '1' or '.' must be. */
	t[9] = '2';
	expect_cands_error(t, SUDOKU_CANDS_LEN, SUDOKU_PERR_CHAR, 9,
	    "bad character '2' (0x32) at position 10");
	marks_full(t);
	t[728] = '0';
	expect_cands_error(t, SUDOKU_CANDS_LEN, SUDOKU_PERR_CHAR, 728,
	    "bad character '0' (0x30) at position 729");
	marks_full(t);
	t[100] = '\n';
	expect_cands_error(t, SUDOKU_CANDS_LEN, SUDOKU_PERR_CHAR, 100,
	    "bad byte 0x0a at position 101");
	memcpy(t, test_boj2580, SUDOKU_CELLS);
	t[40] = 'x';
	expect_cands_error(t, SUDOKU_CELLS, SUDOKU_PERR_CHAR, 40,
	    "bad character 'x' (0x78) at position 41");
}

void
test_cands_wrong(void **state)
{
	struct sudoku_grid	 g, sol;
	struct sudoku_cands	 c;
	uint8_t			 cells[SUDOKU_CELLS];
	char			 s[SUDOKU_CELLS + 1], t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	test_puzzle(test_boj2580, &g);
	assert_int_equal(sudoku_solve(&g, SUDOKU_ANY, 0, &sol, NULL),
	    SUDOKU_SOLVED);
	sudoku_cands_init(&c, &g);
	assert_int_equal(sudoku_cands_wrong(&c, &sol, cells), 0);
	/* A player's grid: r1c1 right, r2c5 (3) wrong, r9c9 (1) wrong. */
	memcpy(s, test_boj2580, sizeof s);
	s[0] = '1';
	s[13] = '4';
	s[80] = '2';
	assert_int_equal(sudoku_cands_parse(s, SUDOKU_CELLS, &g, &c, NULL), 0);
	assert_int_equal(sudoku_cands_wrong(&c, &sol, cells), 2);
	assert_int_equal(cells[0], 13);
	assert_int_equal(cells[1], 80);
	assert_int_equal(sudoku_cands_wrong(&c, &sol, NULL), 2);
	/* A given overwritten by the player is wrong too. */
	s[13] = s[80] = '0';
	s[1] = '4';
	assert_int_equal(sudoku_cands_parse(s, SUDOKU_CELLS, &g, &c, NULL), 0);
	assert_int_equal(sudoku_cands_wrong(&c, &sol, cells), 1);
	assert_int_equal(cells[0], 1);
	/* Pencil marks that lost the solution's digit. */
	marks_full(t);
	marks_del(t, 5, 5, "1");		/* the solution's r5c5 */
	marks_del(t, 5, 6, "1");		/* not the solution's: fine */
	assert_int_equal(sudoku_cands_parse(t, SUDOKU_CANDS_LEN, &g, &c,
	    NULL), 0);
	assert_int_equal(sudoku_cands_wrong(&c, &sol, cells), 1);
	assert_int_equal(cells[0], 40);
}

/* DONE, BROKEN and the step/no-step boundary. */
void
test_hint_states(void **state)
{
	struct sudoku_grid	 g, sol;
	struct sudoku_cands	 c;
	struct sudoku_step	 st;
	char			 t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	test_puzzle(test_boj2580, &g);
	assert_int_equal(sudoku_solve(&g, SUDOKU_ANY, 0, &sol, NULL),
	    SUDOKU_SOLVED);
	sudoku_cands_init(&c, &sol);
	assert_int_equal(sudoku_hint(&c, &st), SUDOKU_HINT_DONE);
	/* Two 5s in row 1 (stale marks elsewhere do not matter). */
	marks_full(t);
	marks_set(t, 1, 1, "5");
	marks_set(t, 1, 9, "5");
	assert_int_equal(sudoku_cands_parse(t, SUDOKU_CANDS_LEN, NULL, &c,
	    NULL), 0);
	assert_int_equal(sudoku_hint(&c, &st), SUDOKU_HINT_BROKEN);
	/* A cell without candidates. */
	marks_full(t);
	marks_set(t, 4, 4, "");
	assert_int_equal(sudoku_cands_parse(t, SUDOKU_CANDS_LEN, NULL, &c,
	    NULL), 0);
	assert_int_equal(sudoku_hint(&c, &st), SUDOKU_HINT_BROKEN);
	/* A cell whose filled peers took every candidate. */
	marks_full(t);
	marks_set(t, 4, 4, "12");
	marks_set(t, 4, 9, "1");
	marks_set(t, 9, 4, "2");
	assert_int_equal(sudoku_cands_parse(t, SUDOKU_CANDS_LEN, NULL, &c,
	    NULL), 0);
	assert_int_equal(sudoku_hint(&c, &st), SUDOKU_HINT_BROKEN);
	/* 7 has no place left in row 2. */
	marks_full(t);
	marks_del_row(t, 2, "123456789", "7");
	assert_int_equal(sudoku_cands_parse(t, SUDOKU_CANDS_LEN, NULL, &c,
	    NULL), 0);
	assert_int_equal(sudoku_hint(&c, &st), SUDOKU_HINT_BROKEN);
	/* An empty grid: nothing to deduce, and no guessing. */
	marks_full(t);
	assert_int_equal(sudoku_cands_parse(t, SUDOKU_CANDS_LEN, NULL, &c,
	    NULL), 0);
	assert_int_equal(sudoku_hint(&c, &st), SUDOKU_HINT_NOSTEP);
}

/* A placement clears the digit from the peers; an elimination one bit. */
void
test_step_apply(void **state)
{
	struct sudoku_cands	 c;
	struct sudoku_step	 st;
	int			 i;

	(void)state;
	for (i = 0; i < SUDOKU_CELLS; i++)
		c.mask[i] = 0x1ff;
	memset(&st, 0, sizeof st);
	st.nactions = 2;
	st.action[0].cell = 40;		/* r5c5=3 */
	st.action[0].digit = 3;
	st.action[0].place = 1;
	st.action[1].cell = 0;		/* r1c1-9 */
	st.action[1].digit = 9;
	sudoku_step_apply(&c, &st);
	assert_int_equal(c.mask[40], 1 << 2);
	assert_int_equal(c.mask[0], 0xff);
	for (i = 0; i < SUDOKU_CELLS; i++) {
		if (i == 40 || i == 0)
			continue;
		if (i / 9 == 4 || i % 9 == 4 || (i / 27 == 1 && i % 9 / 3 == 1))
			assert_int_equal(c.mask[i], 0x1ff & ~(1 << 2));
		else
			assert_int_equal(c.mask[i], 0x1ff);
	}
}

/* The text is snprintf-like: truncated, terminated, full length back. */
void
test_step_text_size(void **state)
{
	struct sudoku_grid	 g;
	struct sudoku_cands	 c;
	struct sudoku_step	 st;
	char			 big[512], small[8];
	int			 n;

	(void)state;
	test_puzzle(test_boj2580, &g);
	sudoku_cands_init(&c, &g);
	assert_int_equal(sudoku_hint(&c, &st), SUDOKU_HINT_STEP);
	n = sudoku_step_text(&st, big, sizeof big);
	assert_string_equal(big,
	    "naked_single r1c1=1 1 is the only candidate left in r1c1");
	assert_int_equal(n, strlen(big));
	assert_int_equal(sudoku_step_text(&st, small, sizeof small), n);
	assert_string_equal(small, "naked_s");
	assert_int_equal(sudoku_step_text(&st, NULL, 0), n);
}

void
test_rate_results(void **state)
{
	struct sudoku_grid	 g;
	struct sudoku_rating	 r;
	char			 buf[64];

	(void)state;
	memset(&g, 0, sizeof g);
	memset(&r, 0x5a, sizeof r);
	assert_int_equal(sudoku_rate(&g, 0, &r), SUDOKU_MULTIPLE);
	assert_int_equal(r.steps, 0x5a5a5a5a);	/* untouched */
	g.cell[0] = g.cell[1] = 7;
	assert_int_equal(sudoku_rate(&g, 0, &r), SUDOKU_INVALID);
	/* Consistent givens, no solution: r1c9 can hold nothing. */
	memset(&g, 0, sizeof g);
	memcpy(g.cell, "\1\2\3\4\5\6\7\10\0", 9);
	g.cell[9 * 4 + 8] = 9;
	assert_int_equal(sudoku_rate(&g, 0, &r), SUDOKU_NOSOLUTION);
	/* An empty grid needs guesses to find two solutions. */
	memset(&g, 0, sizeof g);
	assert_int_equal(sudoku_rate(&g, 1, &r), SUDOKU_BUDGET);
	/* The text of a rating. */
	r.level = SUDOKU_LEVEL_HARD;
	r.score = 34;
	r.hardest = SUDOKU_TECH_XY_WING;
	sudoku_rating_text(&r, buf, sizeof buf);
	assert_string_equal(buf, "hard 3.4 xy_wing");
	r.level = SUDOKU_LEVEL_EASY;
	r.score = 10;
	r.hardest = SUDOKU_TECH_NAKED_SINGLE;
	sudoku_rating_text(&r, buf, sizeof buf);
	assert_string_equal(buf, "easy 1.0 naked_single");
}

void
test_rate_boj2580(void **state)
{
	struct sudoku_grid	 g;
	struct sudoku_rating	 r;
	char			 buf[64];

	(void)state;
	test_puzzle(test_boj2580, &g);
	assert_int_equal(sudoku_rate(&g, 0, &r), SUDOKU_SOLVED);
	assert_int_equal(r.level, SUDOKU_LEVEL_EASY);
	sudoku_rating_text(&r, buf, sizeof buf);
	assert_string_equal(buf, "easy 1.0 naked_single");
	assert_int_equal(r.steps, 14);		/* one per blank */
	assert_int_equal(r.trials, 0);
	/* The forum's first hardest puzzle is beyond the techniques. */
	test_puzzle(test_hard1, &g);
	assert_int_equal(sudoku_rate(&g, 0, &r), SUDOKU_SOLVED);
	assert_int_equal(r.level, SUDOKU_LEVEL_EXTREME);
	assert_int_equal(r.hardest, SUDOKU_TECH_TRIAL);
	assert_true(r.trials >= 1);
	assert_int_equal(r.hard, r.trials);
	assert_int_equal(r.score, 50 + (r.trials >= 8 ? 3 : r.trials >= 4 ? 2 :
	    r.trials >= 2));
}

#define SET_CASE(name, set)	{ name, test_walk_set, NULL, NULL, &(set) }

static struct walk_set walk_top = { "puzzles3_magictour_top1465", 1465 };
static struct walk_set walk_17 = { "puzzles2_17_clue", 49158 };

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tech_table),
		cmocka_unit_test(test_level_names),
		cmocka_unit_test(test_cands_roundtrip),
		cmocka_unit_test(test_cands_errors),
		cmocka_unit_test(test_cands_wrong),
		cmocka_unit_test(test_hint_states),
		cmocka_unit_test(test_step_apply),
		cmocka_unit_test(test_step_text_size),
		cmocka_unit_test(test_rate_results),
		cmocka_unit_test(test_rate_boj2580),
		cmocka_unit_test(test_tech_naked_single),
		cmocka_unit_test(test_tech_cases),
		cmocka_unit_test(test_tech_nostep),
		cmocka_unit_test(test_gen_levels),
		cmocka_unit_test(test_gen_golden),
		cmocka_unit_test(test_gen_slices),
		cmocka_unit_test(test_gen_budget),
		cmocka_unit_test(test_gen_budget_seeds),
		cmocka_unit_test(test_levels_hardest),
		cmocka_unit_test(test_rate_cap),
		cmocka_unit_test(test_rate_equiv),
		SET_CASE("walk_top1465", walk_top),
		SET_CASE("walk_17clue", walk_17),
	};

	/* Keep TAP lines and failure text (stderr) in order in the log. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	return cmocka_run_group_tests_name("logic", tests, NULL, NULL);
}
