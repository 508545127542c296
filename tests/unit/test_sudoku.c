/* SPDX-License-Identifier: ISC */
/*
 * test_sudoku.c -- unit tests of the solver core (src/sudoku.h): parsing,
 * error text, formatting; main() runs the whole group (see test_sudoku.h).
 *
 * Line terminators and trailing blanks are NOT sudoku_parse()'s business:
 * whoever reads lines strips them (the daemon's connection reader, the
 * client's input reader, the data-set reader in test_sets.c).  At this
 * level "<81 cells>\r" is 82 bytes and so a LENGTH error; see
 * test_parse_length().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_sudoku.h"

/* The puzzle of doc/protocol.md (and Wikipedia), 30 givens. */
#define WIKI	"53..7....6..195....98....6.8...6...34..8.3..17...2...6" \
		".6....28....419..5....8..79"

void
test_assert_solves(const struct sudoku_grid *in,
    const struct sudoku_grid *out, const char *what)
{
	char	why[128];

	if (!checker_solution(in->cell, out->cell, why, sizeof why))
		test_fail("%s: not a solution: %s", what, why);
}

void
test_grid(const char *text, struct sudoku_grid *g)
{
	assert_int_equal(checker_grid(text, g->cell), SUDOKU_CELLS);
}

FILE *
test_fopen(const char *env, const char *dflt, const char *file, char *path,
    size_t len)
{
	const char	*dir = getenv(env), *from = env;
	FILE		*f;

	if (dir == NULL || *dir == '\0') {
		dir = dflt;
		from = "configure's default";
	}
	snprintf(path, len, "%s/%s", dir, file);
	if ((f = fopen(path, "r")) == NULL)
		test_fail("cannot read %s (directory from %s): %s; it ships "
		    "with the source, is the checkout complete?", path, from,
		    strerror(errno));
	return f;
}

/* 81 blanks with the given bytes written at the given offsets. */
static void
blank_puzzle(char *s, const char *digits, const int *at, int n)
{
	int	i;

	memset(s, '0', SUDOKU_CELLS);
	for (i = 0; i < n; i++)
		s[at[i]] = digits[i];
}

static void
expect_text(const struct sudoku_perror *err, const char *want)
{
	char	buf[256];
	int	n;

	n = sudoku_perror_text(err, buf, sizeof buf);
	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
}

/*
 * The same bytes read in two steps, sudoku_parse_cells() then
 * sudoku_conflict() (the daemon's way, its search checking the givens):
 * the same error as sudoku_parse()'s, want (kind NONE: accepted).
 */
static void
expect_two_steps(const char *s, size_t len, const struct sudoku_perror *want)
{
	struct sudoku_grid	g;
	struct sudoku_search	search;
	struct sudoku_perror	err;
	int			cells_ok = want->kind == SUDOKU_PERR_NONE ||
				    want->kind == SUDOKU_PERR_CONFLICT;

	memset(&err, 0xff, sizeof err);
	assert_int_equal(sudoku_parse_cells(s, len, &g, &err),
	    cells_ok ? 0 : -1);
	if (!cells_ok) {
		assert_int_equal(err.kind, want->kind);
		assert_int_equal(err.length, want->length);
		if (want->kind == SUDOKU_PERR_CHAR) {
			assert_int_equal(err.pos, want->pos);
			assert_int_equal(err.byte, want->byte);
		}
		return;
	}
	assert_int_equal(err.kind, SUDOKU_PERR_NONE);
	assert_int_equal(sudoku_search_init(&search, &g, SUDOKU_ANY, 1, 0),
	    want->kind == SUDOKU_PERR_NONE ? SUDOKU_MORE : SUDOKU_INVALID);
	memset(&err, 0, sizeof err);
	assert_int_equal(sudoku_conflict(&g, &err),
	    want->kind == SUDOKU_PERR_NONE ? 0 : -1);
	assert_int_equal(err.kind, want->kind);
	assert_int_equal(err.cell1, want->cell1);
	assert_int_equal(err.cell2, want->cell2);
	assert_int_equal(err.digit, want->digit);
	assert_int_equal(err.unit, want->unit);
	assert_int_equal(err.unit_index, want->unit_index);
}

static void
expect_length(const char *s, size_t len, size_t found)
{
	struct sudoku_grid	g;
	struct sudoku_perror	err;
	char			want[64];

	memset(&err, 0, sizeof err);
	assert_int_equal(sudoku_parse(s, len, &g, &err), -1);
	assert_int_equal(err.kind, SUDOKU_PERR_LENGTH);
	assert_int_equal(err.length, found);
	snprintf(want, sizeof want, "expected 81 cells, found %zu", found);
	expect_text(&err, want);
	expect_two_steps(s, len, &err);
}

static void
test_parse_blanks(void **state)
{
	struct sudoku_grid	g, want;
	struct sudoku_perror	err;
	char			s[SUDOKU_CELLS + 1];
	int			i;

	(void)state;
	/* The same puzzle with '.', then '0', then both, as blanks. */
	strcpy(s, WIKI);
	test_grid(WIKI, &want);
	for (i = 0; i < 3; i++) {
		memset(&g, 0xff, sizeof g);
		assert_int_equal(sudoku_parse(s, SUDOKU_CELLS, &g, &err), 0);
		assert_memory_equal(g.cell, want.cell, SUDOKU_CELLS);
		expect_two_steps(s, SUDOKU_CELLS, &err);
		for (char *p = s; *p != '\0'; p++)
			if (*p == '.' && (i == 1 || (p - s) % 2 == 0))
				*p = '0';
	}
	/* All blanks, both spellings; err may be NULL. */
	memset(s, '.', SUDOKU_CELLS);
	assert_int_equal(sudoku_parse(s, SUDOKU_CELLS, &g, NULL), 0);
	for (i = 0; i < SUDOKU_CELLS; i++)
		assert_int_equal(g.cell[i], 0);
	memset(s, '0', SUDOKU_CELLS);
	assert_int_equal(sudoku_parse(s, SUDOKU_CELLS, &g, NULL), 0);
	for (i = 0; i < SUDOKU_CELLS; i++)
		assert_int_equal(g.cell[i], 0);
}

static void
test_parse_length(void **state)
{
	static char	buf[1024];

	(void)state;
	memset(buf, '0', sizeof buf);
	expect_length("", 0, 0);
	expect_length(buf, 80, 80);
	expect_length(buf, 82, 82);
	expect_length(buf, 1024, 1024);
	expect_length(buf, 1, 1);
	/* Length is checked before bytes: bad bytes don't matter here. */
	buf[3] = 'x';
	expect_length(buf, 80, 80);
	/* A CR or a trailing blank left by a line reader: 82 cells. */
	memcpy(buf, WIKI, SUDOKU_CELLS);
	buf[81] = '\r';
	expect_length(buf, 82, 82);
	buf[81] = ' ';
	expect_length(buf, 82, 82);
	buf[81] = '\n';
	expect_length(buf, 82, 82);
	/* The same bytes without the terminator parse; err may be NULL. */
	assert_int_equal(sudoku_parse(buf, 82, NULL, NULL), -1);
	assert_int_equal(sudoku_parse(buf, 81, NULL, NULL), 0);
}

/* One bad byte b at pos in an otherwise valid puzzle. */
static void
expect_char(unsigned char b, size_t pos, const char *want, const char *alt)
{
	struct sudoku_grid	g;
	struct sudoku_perror	err;
	char			s[SUDOKU_CELLS], buf[256];

	memcpy(s, WIKI, SUDOKU_CELLS);
	s[pos] = (char)b;
	memset(&err, 0, sizeof err);
	assert_int_equal(sudoku_parse(s, SUDOKU_CELLS, &g, &err), -1);
	assert_int_equal(err.kind, SUDOKU_PERR_CHAR);
	assert_int_equal(err.pos, pos);
	assert_int_equal(err.byte, b);
	sudoku_perror_text(&err, buf, sizeof buf);
	if (strcmp(buf, want) != 0 && (alt == NULL || strcmp(buf, alt) != 0))
		test_fail("byte 0x%02x at %zu: got \"%s\", want \"%s\"", b,
		    pos, buf, want);	expect_two_steps(s, SUDOKU_CELLS, &err);
}

static void
test_parse_char(void **state)
{
	struct sudoku_perror	err;
	char			s[SUDOKU_CELLS];

	(void)state;
	expect_char('x', 4, "bad character 'x' (0x78) at position 5", NULL);
	expect_char('A', 0, "bad character 'A' (0x41) at position 1", NULL);
	expect_char('z', 80, "bad character 'z' (0x7a) at position 81",
	    "bad character 'z' (0x7A) at position 81");
	expect_char('-', 40, "bad character '-' (0x2d) at position 41",
	    "bad character '-' (0x2D) at position 41");
	expect_char('\t', 9, "bad byte 0x09 at position 10", NULL);
	expect_char('\0', 4, "bad byte 0x00 at position 5", NULL);
	expect_char('\r', 80, "bad byte 0x0d at position 81",
	    "bad byte 0x0D at position 81");
	expect_char(0xc3, 17, "bad byte 0xc3 at position 18",
	    "bad byte 0xC3 at position 18");
	expect_char(0x7f, 2, "bad byte 0x7f at position 3",
	    "bad byte 0x7F at position 3");
	/* ' ' is printable; the text is left to the implementation. */
	expect_char(' ', 30, "bad character ' ' (0x20) at position 31",
	    "bad byte 0x20 at position 31");

	/* The first bad byte is the one reported. */
	memcpy(s, WIKI, SUDOKU_CELLS);
	s[50] = 'y';
	s[12] = '#';
	s[70] = '\0';
	assert_int_equal(sudoku_parse(s, SUDOKU_CELLS, NULL, &err), -1);
	assert_int_equal(err.kind, SUDOKU_PERR_CHAR);
	assert_int_equal(err.pos, 12);
	assert_int_equal(err.byte, '#');

	/* Bytes are checked before givens: 5 at r1c1 and r1c3, q at 81. */
	memcpy(s, WIKI, SUDOKU_CELLS);
	s[2] = '5';
	s[80] = 'q';
	assert_int_equal(sudoku_parse(s, SUDOKU_CELLS, NULL, &err), -1);
	assert_int_equal(err.kind, SUDOKU_PERR_CHAR);
	assert_int_equal(err.pos, 80);
	assert_int_equal(err.byte, 'q');
}

/* Puzzle from digits placed at cells; expect this conflict. */
static void
expect_conflict(const char *digits, const int *at, int n, int c1, int c2,
    int digit, enum sudoku_unit unit, int index, const char *text)
{
	struct sudoku_grid	g;
	struct sudoku_perror	err;
	char			s[SUDOKU_CELLS];

	blank_puzzle(s, digits, at, n);
	memset(&err, 0, sizeof err);
	assert_int_equal(sudoku_parse(s, SUDOKU_CELLS, &g, &err), -1);
	assert_int_equal(err.kind, SUDOKU_PERR_CONFLICT);
	assert_int_equal(err.cell1, c1);
	assert_int_equal(err.cell2, c2);
	assert_int_equal(err.digit, digit);
	expect_two_steps(s, SUDOKU_CELLS, &err);
	if (text == NULL)
		return;		/* unit not determined by the spec */
	assert_int_equal(err.unit, unit);
	assert_int_equal(err.unit_index, index);
	expect_text(&err, text);
}

static void
test_parse_conflict(void **state)
{
	(void)state;
	/* r1c2 and r1c7: row only. */
	expect_conflict("55", (int[]){ 1, 6 }, 2, 1, 6, 5, SUDOKU_UNIT_ROW, 0,
	    "digit 5 twice in row 1: r1c2 and r1c7");
	/* r9c1 and r9c9: row 9. */
	expect_conflict("11", (int[]){ 72, 80 }, 2, 72, 80, 1,
	    SUDOKU_UNIT_ROW, 8, "digit 1 twice in row 9: r9c1 and r9c9");
	/* r2c4 and r8c4: column only. */
	expect_conflict("33", (int[]){ 12, 66 }, 2, 12, 66, 3,
	    SUDOKU_UNIT_COL, 3, "digit 3 twice in column 4: r2c4 and r8c4");
	/* r1c9 and r9c9: column 9. */
	expect_conflict("99", (int[]){ 8, 80 }, 2, 8, 80, 9,
	    SUDOKU_UNIT_COL, 8, "digit 9 twice in column 9: r1c9 and r9c9");
	/* r4c4 and r6c6 share only box 5. */
	expect_conflict("77", (int[]){ 30, 50 }, 2, 30, 50, 7,
	    SUDOKU_UNIT_BOX, 4, "digit 7 twice in box 5: r4c4 and r6c6");
	/* r7c9 and r9c7 share only box 9; other digits around them. */
	expect_conflict("1822", (int[]){ 0, 60, 62, 78 }, 4, 62, 78, 2,
	    SUDOKU_UNIT_BOX, 8, "digit 2 twice in box 9: r7c9 and r9c7");
	/* r1c3 and r3c1 share only box 1. */
	expect_conflict("44", (int[]){ 2, 18 }, 2, 2, 18, 4,
	    SUDOKU_UNIT_BOX, 0, "digit 4 twice in box 1: r1c3 and r3c1");
	/* Same row and box: the unit is not specified, the cells are. */
	expect_conflict("66", (int[]){ 0, 1 }, 2, 0, 1, 6, 0, 0, NULL);
	/*
	 * First conflict in row-major order of the second cell: 9 at
	 * r1c1/r9c1 (second cell 72) loses to 2 at r4c4/r4c5 (31).
	 */
	expect_conflict("9229", (int[]){ 0, 30, 31, 72 }, 4, 30, 31, 2,
	    SUDOKU_UNIT_ROW, 3, "digit 2 twice in row 4: r4c4 and r4c5");
	/* Three equal digits in a row: the pair ending first. */
	expect_conflict("888", (int[]){ 3, 5, 8 }, 3, 3, 5, 8,
	    SUDOKU_UNIT_ROW, 0, "digit 8 twice in row 1: r1c4 and r1c6");
}

static void
test_parse_conflict_solved(void **state)
{
	struct sudoku_perror	err;
	char			s[SUDOKU_CELLS + 1] = "5346789126721953481983"
	    "42567859761423426853791713924856961537284287419635345286179";

	(void)state;
	assert_int_equal(sudoku_parse(s, SUDOKU_CELLS, NULL, &err), 0);
	/*
	 * r1c1 5 -> 9: 9 is also at r1c7 (row), r3c2 (box) and r7c1
	 * (column); the pair with the smallest second cell is the row's.
	 */
	s[0] = '9';
	assert_int_equal(sudoku_parse(s, SUDOKU_CELLS, NULL, &err), -1);
	assert_int_equal(err.kind, SUDOKU_PERR_CONFLICT);
	assert_int_equal(err.cell1, 0);
	assert_int_equal(err.cell2, 6);
	assert_int_equal(err.digit, 9);
	assert_int_equal(err.unit, SUDOKU_UNIT_ROW);
	assert_int_equal(err.unit_index, 0);
	expect_text(&err, "digit 9 twice in row 1: r1c1 and r1c7");
	expect_two_steps(s, SUDOKU_CELLS, &err);
	/* Without the row clash the box's pair (second cell 19) is next. */
	s[6] = '0';
	assert_int_equal(sudoku_parse(s, SUDOKU_CELLS, NULL, &err), -1);
	assert_int_equal(err.cell1, 0);
	assert_int_equal(err.cell2, 19);
	assert_int_equal(err.unit, SUDOKU_UNIT_BOX);
	assert_int_equal(err.unit_index, 0);
	expect_text(&err, "digit 9 twice in box 1: r1c1 and r3c2");
	expect_two_steps(s, SUDOKU_CELLS, &err);
	s[19] = '0';
	assert_int_equal(sudoku_parse(s, SUDOKU_CELLS, NULL, &err), -1);
	assert_int_equal(err.cell2, 54);
	assert_int_equal(err.unit, SUDOKU_UNIT_COL);
	expect_text(&err, "digit 9 twice in column 1: r1c1 and r7c1");
	expect_two_steps(s, SUDOKU_CELLS, &err);
}

static void
test_perror_text(void **state)
{
	struct sudoku_perror	err;
	char			buf[16];
	int			n;

	(void)state;
	memset(&err, 0, sizeof err);
	err.kind = SUDOKU_PERR_LENGTH;
	err.length = 80;
	expect_text(&err, "expected 81 cells, found 80");
	err.length = 0;
	expect_text(&err, "expected 81 cells, found 0");

	memset(&err, 0, sizeof err);
	err.kind = SUDOKU_PERR_CHAR;
	err.pos = 4;
	err.byte = 'x';
	expect_text(&err, "bad character 'x' (0x78) at position 5");
	err.byte = 0;
	expect_text(&err, "bad byte 0x00 at position 5");

	memset(&err, 0, sizeof err);
	err.kind = SUDOKU_PERR_CONFLICT;
	err.cell1 = 1;
	err.cell2 = 6;
	err.digit = 5;
	err.unit = SUDOKU_UNIT_ROW;
	err.unit_index = 0;
	expect_text(&err, "digit 5 twice in row 1: r1c2 and r1c7");

	/* snprintf() semantics: truncated, terminated, full length back. */
	memset(buf, 'Z', sizeof buf);
	n = sudoku_perror_text(&err, buf, 10);
	assert_int_equal(n, strlen("digit 5 twice in row 1: r1c2 and r1c7"));
	assert_string_equal(buf, "digit 5 t");
	assert_int_equal(buf[10], 'Z');
	memset(buf, 'Z', sizeof buf);
	n = sudoku_perror_text(&err, buf, 0);
	assert_int_equal(n, strlen("digit 5 twice in row 1: r1c2 and r1c7"));
	assert_int_equal(buf[0], 'Z');
}

static void
test_format(void **state)
{
	struct sudoku_grid	g;
	char			out[SUDOKU_CELLS + 1];
	int			i;

	(void)state;
	for (i = 0; i < SUDOKU_CELLS; i++)
		g.cell[i] = i % 10;	/* 0 blank, 1..9 digits */
	out[SUDOKU_CELLS] = 'Z';
	sudoku_format(&g, out);
	assert_int_equal(out[SUDOKU_CELLS], 'Z');	/* no terminator */
	for (i = 0; i < SUDOKU_CELLS; i++)
		assert_int_equal(out[i], '0' + i % 10);
	/* A value that is no cell's is '?', wherever it is. */
	for (i = 0; i < SUDOKU_CELLS; i++) {
		g.cell[i] = (uint8_t[]){ 10, 0x7f, 0x80, 0xff }[i % 4];
		sudoku_format(&g, out);
		assert_int_equal(out[i], '?');
		assert_int_equal(out[(i + 1) % SUDOKU_CELLS],
		    '0' + (i + 1) % SUDOKU_CELLS % 10);
		g.cell[i] = i % 10;
	}
	/* format then parse gives the grid back (no two equal in a unit). */
	test_grid(WIKI, &g);
	sudoku_format(&g, out);
	assert_memory_equal(out, "53007000060019500009800006080006000340080"
	    "3001700020006060000280000419005000080079", SUDOKU_CELLS);
}

static void
test_unit_name(void **state)
{
	(void)state;
	assert_string_equal(sudoku_unit_name(SUDOKU_UNIT_ROW), "row");
	assert_string_equal(sudoku_unit_name(SUDOKU_UNIT_COL), "column");
	assert_string_equal(sudoku_unit_name(SUDOKU_UNIT_BOX), "box");
}

static struct test_set set_17_any = { "puzzles2_17_clue", 49158,
    TEST_MODE_ANY };
static struct test_set set_17_lexmin = { "puzzles2_17_clue", 49158,
    TEST_MODE_LEXMIN };
static struct test_set set_17_count = { "puzzles2_17_clue", 49158,
    TEST_MODE_COUNT };
static struct test_set set_top_any = { "puzzles3_magictour_top1465", 1465,
    TEST_MODE_ANY };
static struct test_set set_top_lexmin = { "puzzles3_magictour_top1465",
    1465, TEST_MODE_LEXMIN };
static struct test_set set_top_count = { "puzzles3_magictour_top1465", 1465,
    TEST_MODE_COUNT };
static struct test_set set_hard_any = { "puzzles6_forum_hardest_1106", 375,
    TEST_MODE_ANY };
static struct test_set set_hard_lexmin = { "puzzles6_forum_hardest_1106",
    375, TEST_MODE_LEXMIN };
static struct test_set set_hard_count = { "puzzles6_forum_hardest_1106",
    375, TEST_MODE_COUNT };

#define SET_CASE(name, set)	{ name, test_set, NULL, NULL, &(set) }

/*
 * test_sudoku --effort prints test_effort()'s hash, for test_isa_effort
 * (which runs this program so, once per copy of the solver).
 */
int
main(int argc, char **argv)
{
	const char	*self = argv[0];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_isa),
		cmocka_unit_test_prestate(test_isa_effort, &self),
		cmocka_unit_test(test_parse_blanks),
		cmocka_unit_test(test_parse_length),
		cmocka_unit_test(test_parse_char),
		cmocka_unit_test(test_parse_conflict),
		cmocka_unit_test(test_parse_conflict_solved),
		cmocka_unit_test(test_perror_text),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_unit_name),
		cmocka_unit_test(test_checker),
		cmocka_unit_test(test_seed_boj2239),
		cmocka_unit_test(test_seed_boj2580),
		cmocka_unit_test(test_lexmin_empty),
		cmocka_unit_test(test_count_unique),
		cmocka_unit_test(test_count_empty),
		cmocka_unit_test(test_nosolution),
		cmocka_unit_test(test_budget_empty),
		cmocka_unit_test(test_budget_hard),
		cmocka_unit_test(test_budget_exact),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_stats_propagation),
		cmocka_unit_test(test_stats_null_alias),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_search_slices),
		cmocka_unit_test(test_search_wrappers),
		cmocka_unit_test(test_search_invalid),
		cmocka_unit_test(test_enum_lexmin),
		cmocka_unit_test(test_enum_any),
		cmocka_unit_test(test_enum_budget),
		cmocka_unit_test(test_enum_cands),
		cmocka_unit_test(test_lexmin_reference),
		cmocka_unit_test(test_count_reference),
		cmocka_unit_test(test_hard_counts),
		SET_CASE("set_17clue_any", set_17_any),
		SET_CASE("set_17clue_lexmin", set_17_lexmin),
		SET_CASE("set_17clue_count2", set_17_count),
		SET_CASE("set_top1465_any", set_top_any),
		SET_CASE("set_top1465_lexmin", set_top_lexmin),
		SET_CASE("set_top1465_count2", set_top_count),
		SET_CASE("set_hardest_any", set_hard_any),
		SET_CASE("set_hardest_lexmin", set_hard_lexmin),
		SET_CASE("set_hardest_count2", set_hard_count),
		cmocka_unit_test(test_many_set),
	};

	if (argc == 2 && strcmp(argv[1], "--effort") == 0) {
		printf("%016llx\n", (unsigned long long)test_effort());
		return (0);
	}
	/* Keep TAP lines and failure text (stderr) in order in the log. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	return cmocka_run_group_tests_name("sudoku", tests, NULL, NULL);
}
