/* SPDX-License-Identifier: ISC */
/*
 * test_proto_req.c -- every request of doc/protocol.md and every error
 * code a request line can get, as tables: line, status, reply, the
 * counters it moves.  Verbs in any case, blanks around and between
 * tokens, bare puzzles with '.' or '0' blanks.
 */
#include <sys/types.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autoconf.h"		/* PACKAGE_VERSION */

#include "core/sudoku.h"
#include "test_proto.h"
#include "checker.h"

#define R(line, reply, moves)	{ line, 0, PROTO_OK, reply, NULL, moves }
/* A reply whose text the documents leave free: its start, and a part. */
#define P(line, start, part, moves) { line, 0, PROTO_OK, start, part, moves }

#define D8		"........"
#define DOTS72		D9 D9 D9 D9 D9 D9 D9 D9
#define DOTS80		DOTS72 D8
#define DOTS76		D9 D9 D9 D9 D9 D9 D9 D9 "...."
#define Z40		Z9 Z9 Z9 Z9 "0000"
#define A8		"AAAAAAAA"
#define A31		A8 A8 A8 "AAAAAAA"
#define A32		A8 A8 A8 A8
#define X80		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" \
			"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
#define LOWER81		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" \
			"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
/* 81 bytes, a blank amid dots: two tokens (proto_plain() must see it). */
#define DOTS_SP		D9 D9 D9 D9 ".... ...." D9 D9 D9 D9
#define DOTS_TAB	D9 D9 D9 D9 "....\t...." D9 D9 D9 D9
/* CLASSIC with '0' for its blanks. */
#define CLASSIC0 \
	"530070000" "600195000" "098000060" \
	"800060003" "400803001" "700020006" \
	"060000280" "000419005" "000080079"
#define SOLVED		"cmd_solve solved"
#define UNKNOWN(echo)	"ERR syntax unknown command " echo ", try HELP\n"
#define LENGTH(n)	"ERR length expected 81 cells, found " n "\n"
#define NOSOLUTION	"ERR nosolution the puzzle has no solution\n"
#define HTTP		"ERR syntax this is sudokud, not an HTTP server\n"

/* Is reply (one line) a solution of puzzle?  checker.c says. */
static void
expect_solves(struct fx *f, const char *line, const char *puzzle)
{
	struct proto_job	*job = NULL;
	uint64_t		 ns;
	uint8_t			 p[81], s[81];
	char			*got, why[128];

	assert_int_equal(proto_line(&f->env, f->out, line, strlen(line),
	    UINT64_MAX, &ns, &job, NULL), PROTO_OK);
	got = take(f->out);
	assert_int_equal(strlen(got), 82);
	assert_int_equal(got[81], '\n');
	cells(puzzle, p);
	cells(got, s);
	if (!checker_solution(p, s, why, sizeof why))
		test_fail("%.60s: %s: %s", line, got, why);
	free(got);
}

static const struct rq solve_rows[] = {
	R("SOLVE " CLASSIC, CLASSIC_SOL "\n", SOLVED),
	R(CLASSIC, CLASSIC_SOL "\n", SOLVED),
	R(CLASSIC0, CLASSIC_SOL "\n", SOLVED),
	R("SOLVE " CLASSIC0, CLASSIC_SOL "\n", SOLVED),
	R("solve " CLASSIC, CLASSIC_SOL "\n", SOLVED),
	R("Solve " CLASSIC, CLASSIC_SOL "\n", SOLVED),
	R("sOlVe " CLASSIC, CLASSIC_SOL "\n", SOLVED),
	R("  SOLVE \t  " CLASSIC " \t", CLASSIC_SOL "\n", SOLVED),
	R("SOLVE\t" CLASSIC, CLASSIC_SOL "\n", SOLVED),
	R("LEXMIN" CLASSIC, UNKNOWN("'LEXMIN53..7....6..195....98....6'..."),
	    "err_syntax"),
	R("\t " CLASSIC "  ", CLASSIC_SOL "\n", SOLVED),
	R("SOLVE " HARD, HARD_SOL "\n", SOLVED),
	R(EASTER, EASTER_SOL "\n", SOLVED),
};

void
t_solve(void **state)
{
	ROWS(state, solve_rows);
	/* Many solutions: any one will do. */
	expect_solves(*state, "SOLVE " EMPTY, EMPTY);
	expect_solves(*state, DOTS, DOTS);
}

static const struct rq lexmin_rows[] = {
	R("LEXMIN " EMPTY, EMPTY_LEXMIN "\n", "cmd_lexmin solved"),
	R("LEXMIN " DOTS, EMPTY_LEXMIN "\n", "cmd_lexmin solved"),
	R("lexmin " EMPTY, EMPTY_LEXMIN "\n", "cmd_lexmin solved"),
	R("LexMin " CLASSIC, CLASSIC_SOL "\n", "cmd_lexmin solved"),
	R("LEXMIN " EASTER, EASTER_SOL "\n", "cmd_lexmin solved"),
};

void
t_lexmin(void **state)
{
	ROWS(state, lexmin_rows);
}

static const struct rq count_rows[] = {
	R("COUNT " CLASSIC, "1\n", "cmd_count solved"),
	R("COUNT " EMPTY, "2\n", "cmd_count solved"),
	R("COUNT " EMPTY " 10", "10\n", "cmd_count solved"),
	R("COUNT " EMPTY " 1", "1\n", "cmd_count solved"),
	R("COUNT " EMPTY " 1000", "1000\n", "cmd_count solved"),
	R("COUNT " CLASSIC " 1000", "1\n", "cmd_count solved"),
	R("count " DOTS " 7", "7\n", "cmd_count solved"),
	R("Count\t" EMPTY "  \t 4 ", "4\n", "cmd_count solved"),
	/* Spaces and tabs in turn: each blank found once (proto_line.c). */
	R("COUNT " EMPTY "\t3", "3\n", "cmd_count solved"),
	R("COUNT\t" EMPTY " 2\t", "2\n", "cmd_count solved"),
	R("COUNT " HARD " 1000", "1\n", "cmd_count solved"),
	/* No solution: 0, not ERR nosolution. */
	R("COUNT " NOSOL, "0\n", "cmd_count unsolvable"),
	R("COUNT " NOSOL " 5", "0\n", "cmd_count unsolvable"),
};

void
t_count(void **state)
{
	ROWS(state, count_rows);
}

/*
 * CLASSIC with givens taken away, first to last, until it has from 3 to
 * 200 solutions; their number and the smallest, by checker.c.
 */
static unsigned long
classic_multi(char *p, char *lexmin)
{
	uint8_t		g[81], first[81];
	unsigned long	n;
	int		i;

	memcpy(p, CLASSIC, 82);
	for (i = 0; i < 81; i++) {
		if (p[i] == '.')
			continue;
		p[i] = '.';
		cells(p, g);
		if (checker_search(g, 201, 50000000, &n, first) == 0 &&
		    n >= 3 && n <= 200) {
			text(first, lexmin);
			return (n);
		}
	}
	fail();
	return (0);
}

void
t_count_multi(void **state)
{
	struct fx	*f = *state;
	char		 p[82], lex[82], line[128], want[128];
	unsigned long	 n = classic_multi(p, lex);

	snprintf(line, sizeof line, "COUNT %s 1000", p);
	snprintf(want, sizeof want, "%lu\n", n);
	expect_line(f, line, strlen(line), PROTO_OK, want, NULL,
	    "cmd_count solved");
	snprintf(line, sizeof line, "COUNT %s %lu", p, n);
	expect_line(f, line, strlen(line), PROTO_OK, want, NULL,
	    "cmd_count solved");
	snprintf(line, sizeof line, "COUNT %s %lu", p, n - 1);
	snprintf(want, sizeof want, "%lu\n", n - 1);
	expect_line(f, line, strlen(line), PROTO_OK, want, NULL,
	    "cmd_count solved");
	snprintf(line, sizeof line, "COUNT %s", p);
	expect_line(f, line, strlen(line), PROTO_OK, "2\n", NULL,
	    "cmd_count solved");
	snprintf(line, sizeof line, "LEXMIN %s", p);
	snprintf(want, sizeof want, "%s\n", lex);
	expect_line(f, line, strlen(line), PROTO_OK, want, NULL,
	    "cmd_lexmin solved");
	snprintf(line, sizeof line, "SOLVE %s", p);
	expect_solves(f, line, p);
}

#define BADLIMIT(lim) P("COUNT " CLASSIC " " lim, "ERR syntax ", "1000", \
	"cmd_count err_syntax")
static const struct rq limit_rows[] = {
	BADLIMIT("0"), BADLIMIT("1001"), BADLIMIT("-1"), BADLIMIT("abc"),
	BADLIMIT("1.5"), BADLIMIT("10x"), BADLIMIT("99999999999999999999"),
	BADLIMIT("0x10"), BADLIMIT("+5"), BADLIMIT("1e3"),
	BADLIMIT("18446744073709551617"),
};

void
t_count_limit(void **state)
{
	struct fx	*f = *state;

	ROWS(state, limit_rows);
	/* count_max bounds the limit, whatever it is set to. */
	f->alt.count_max = 50;
	f->env.cf = &f->alt;
	expect_line(f, B("COUNT " EMPTY " 50"), PROTO_OK, "50\n", NULL,
	    "cmd_count solved");
	expect_line(f, B("COUNT " EMPTY " 51"), PROTO_OK, "ERR syntax ", "50",
	    "cmd_count err_syntax");
	f->alt.count_max = 100000;
	expect_line(f, B("COUNT " EMPTY " 1001"), PROTO_OK, "1001\n", NULL,
	    "cmd_count solved");
}

static const struct rq ping_rows[] = {
	R("PING", "PONG\n", "cmd_ping"),
	R("ping", "PONG\n", "cmd_ping"),
	R("Ping", "PONG\n", "cmd_ping"),
	R("pInG", "PONG\n", "cmd_ping"),
	R("  PING", "PONG\n", "cmd_ping"),
	R("PING \t ", "PONG\n", "cmd_ping"),
	R("\tPING\t", "PONG\n", "cmd_ping"),
	R("VERSION", "VERSION " PACKAGE_VERSION "\n", "cmd_version"),
	R("version", "VERSION " PACKAGE_VERSION "\n", "cmd_version"),
	R("Version", "VERSION " PACKAGE_VERSION "\n", "cmd_version"),
};

void
t_ping_version(void **state)
{
	ROWS(state, ping_rows);
}

static const struct rq quit_rows[] = {
	{ "QUIT", 0, PROTO_CLOSE, "BYE\n", NULL, "cmd_quit" },
	{ "quit", 0, PROTO_CLOSE, "BYE\n", NULL, "cmd_quit" },
	{ "qUiT", 0, PROTO_CLOSE, "BYE\n", NULL, "cmd_quit" },
	{ " QUIT\t", 0, PROTO_CLOSE, "BYE\n", NULL, "cmd_quit" },
};

void
t_quit(void **state)
{
	ROWS(state, quit_rows);
}

/* Empty after the blanks are gone: no reply, no counter. */
static const struct rq blank_rows[] = {
	R("", "", ""), R(" ", "", ""), R("\t", "", ""), R(" \t \t ", "", ""),
};

void
t_blank(void **state)
{
	ROWS(state, blank_rows);
}

/* Echoed bytes: printable runs in quotes, others 0xNN, 32 at most. */
static const struct rq unknown_rows[] = {
	R("FOO", UNKNOWN("'FOO'"), "err_syntax"),
	R("foo", UNKNOWN("'foo'"), "err_syntax"),
	R("x", UNKNOWN("'x'"), "err_syntax"),
	R("PINGS", UNKNOWN("'PINGS'"), "err_syntax"),
	R("PIN", UNKNOWN("'PIN'"), "err_syntax"),
	R("-1", UNKNOWN("'-1'"), "err_syntax"),
	R("GET", UNKNOWN("'GET'"), "err_syntax"),
	R("SOLVEX " CLASSIC, UNKNOWN("'SOLVEX'"), "err_syntax"),
	/* 81 bytes, the length of a bare puzzle, not starting as one. */
	R("x" X80, UNKNOWN("'" "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" "'..."),
	    "err_syntax"),
	{ B("\0"), PROTO_OK, UNKNOWN("0x00"), NULL, "err_syntax" },
	{ B("PI\0NG"), PROTO_OK, UNKNOWN("'PI' 0x00 'NG'"), NULL,
	    "err_syntax" },
	{ B("PING\0"), PROTO_OK, UNKNOWN("'PING' 0x00"), NULL, "err_syntax" },
	{ B("GE\xc3\xa9T"), PROTO_OK, UNKNOWN("'GE' 0xc3 0xa9 'T'"), NULL,
	    "err_syntax" },
	{ B("\x1b[A"), PROTO_OK, UNKNOWN("0x1b '[A'"), NULL, "err_syntax" },
	{ B("\x7f"), PROTO_OK, UNKNOWN("0x7f"), NULL, "err_syntax" },
	{ B("\x16\x03\x01"), PROTO_OK, UNKNOWN("0x16 0x03 0x01"), NULL,
	    "err_syntax" },
	R(A32, UNKNOWN("'" A32 "'"), "err_syntax"),
	R(A32 "B", UNKNOWN("'" A32 "'..."), "err_syntax"),
	R(A32 A8 " x", UNKNOWN("'" A32 "'..."), "err_syntax"),
	{ B(A31 "\xff\xff"), PROTO_OK, UNKNOWN("'" A31 "' 0xff..."), NULL,
	    "err_syntax" },
};

void
t_unknown(void **state)
{
	char	line[40], want[256];
	size_t	i, n;

	ROWS(state, unknown_rows);
	/* 40 NULs: 32 of them shown, then "...". */
	memset(line, 0, sizeof line);
	n = (size_t)snprintf(want, sizeof want, "ERR syntax unknown command "
	    "0x00");
	for (i = 1; i < 32; i++)
		n += (size_t)snprintf(want + n, sizeof want - n, " 0x00");
	snprintf(want + n, sizeof want - n, "..., try HELP\n");
	expect_line(*state, line, sizeof line, PROTO_OK, want, NULL,
	    "err_syntax");
}

#define HTTPROW(line)	{ line, 0, PROTO_CLOSE, HTTP, NULL, "err_syntax" }
static const struct rq http_rows[] = {
	HTTPROW("GET / HTTP/1.1"), HTTPROW("get / http/1.1"),
	HTTPROW("Post /solve HTTP/1.0"), HTTPROW("HEAD / HTTP/1.1"),
	HTTPROW("PUT /x HTTP/1.1"), HTTPROW("DELETE /x HTTP/1.1"),
	HTTPROW("OPTIONS * HTTP/1.1"), HTTPROW("TRACE / HTTP/1.1"),
	HTTPROW("PATCH /x HTTP/1.1"),
	HTTPROW("CONNECT example.org:443 HTTP/1.1"),
	HTTPROW("GET /"),			/* HTTP/0.9 */
	HTTPROW("BREW /pot HTTP/1.1"),		/* any method */
};

void
t_http(void **state)
{
	ROWS(state, http_rows);
}

static const struct rq nargs_rows[] = {
	{ "SOLVE", 0, PROTO_OK, "ERR syntax ", "SOLVE",
	    "cmd_solve err_syntax" },
	{ "LEXMIN", 0, PROTO_OK, "ERR syntax ", "LEXMIN",
	    "cmd_lexmin err_syntax" },
	{ "COUNT", 0, PROTO_OK, "ERR syntax ", "COUNT",
	    "cmd_count err_syntax" },
	{ "SOLVE " CLASSIC " x", 0, PROTO_OK, "ERR syntax ", "SOLVE",
	    "cmd_solve err_syntax" },
	{ "COUNT " CLASSIC " 10 x", 0, PROTO_OK, "ERR syntax ", "COUNT",
	    "cmd_count err_syntax" },
	{ "PING PONG", 0, PROTO_OK, "ERR syntax ", "PING",
	    "cmd_ping err_syntax" },
	{ "VERSION x", 0, PROTO_OK, "ERR syntax ", "VERSION",
	    "cmd_version err_syntax" },
	{ "HELP ME", 0, PROTO_OK, "ERR syntax ", "HELP",
	    "cmd_help err_syntax" },
	{ "STATS x", 0, PROTO_OK, "ERR syntax ", "STATS",
	    "cmd_stats err_syntax" },
	{ "QUIT now", 0, PROTO_OK, "ERR syntax ", "QUIT",
	    "cmd_quit err_syntax" },
	/* Extra arguments that look like cells: a text of its own. */
	P("SOLVE " CLASSIC " " CLASSIC, "ERR syntax ", "",
	    "cmd_solve err_syntax"),
	P("LEXMIN " EMPTY " 2", "ERR syntax ", "", "cmd_lexmin err_syntax"),
	P("COUNT " CLASSIC " 10 10", "ERR syntax ", "", "cmd_count err_syntax"),
	P("VERSION 2", "ERR syntax ", "", "cmd_version err_syntax"),
	/* 81 bytes after SOLVE, or alone, with a blank among them. */
	P("SOLVE " DOTS_SP, "ERR syntax a puzzle is 81 cells", "has 2 pieces",
	    "cmd_solve err_syntax"),
	P("SOLVE " DOTS_TAB, "ERR syntax a puzzle is 81 cells",
	    "has 2 pieces", "cmd_solve err_syntax"),
	P(DOTS_SP, "ERR syntax a puzzle is 81 cells", "has 2 pieces",
	    "cmd_solve err_syntax"),
	P(DOTS_TAB, "ERR syntax a puzzle is 81 cells", "has 2 pieces",
	    "cmd_solve err_syntax"),
};

void
t_nargs(void **state)
{
	ROWS(state, nargs_rows);
}

/* A grid pasted with blanks between its cells, or as 9 rows. */
void
t_spaced(void **state)
{
	struct fx	*f = *state;
	char		 sp[200], line[220], rows[100];
	int		 i, n = 0, m = 0;

	for (i = 0; i < 81; i++) {
		sp[n++] = CLASSIC[i];
		sp[n++] = i % 3 == 2 ? '\t' : ' ';
		rows[m++] = CLASSIC0[i];
		if (i % 9 == 8)
			rows[m++] = ' ';
	}
	sp[n - 1] = rows[m - 1] = '\0';
	expect_line(f, sp, strlen(sp), PROTO_OK, "ERR syntax ", "blanks",
	    "cmd_solve err_syntax");
	expect_line(f, rows, strlen(rows), PROTO_OK, "ERR syntax ", "blanks",
	    "cmd_solve err_syntax");
	snprintf(line, sizeof line, "SOLVE %s", sp);
	expect_line(f, line, strlen(line), PROTO_OK, "ERR syntax ", "blanks",
	    "cmd_solve err_syntax");
	snprintf(line, sizeof line, "lexmin %s", rows);
	expect_line(f, line, strlen(line), PROTO_OK, "ERR syntax ", "blanks",
	    "cmd_lexmin err_syntax");
	snprintf(line, sizeof line, "COUNT %s", sp);
	expect_line(f, line, strlen(line), PROTO_OK, "ERR syntax ", "blanks",
	    "cmd_count err_syntax");
	/* One row of a 9-line grid: the length error, and a hint. */
	expect_line(f, B("530070000"), PROTO_OK, "ERR length expected 81 "
	    "cells, found 9 ", "row", "cmd_solve err_length");
	expect_line(f, B("SOLVE .98....6."), PROTO_OK, "ERR length "
	    "expected 81 cells, found 9 ", "row", "cmd_solve err_length");
	expect_line(f, B("5"), PROTO_OK, "ERR length expected 81 cells, "
	    "found 1 ", "row", "cmd_solve err_length");
}

static const struct rq length_rows[] = {
	R(DOTS80, LENGTH("80"), "cmd_solve err_length"),
	R(DOTS ".", LENGTH("82"), "cmd_solve err_length"),
	R("5300700006", LENGTH("10"), "cmd_solve err_length"),
	R("SOLVE " DOTS80, LENGTH("80"), "cmd_solve err_length"),
	R("SOLVE  " DOTS80, LENGTH("80"), "cmd_solve err_length"),
	R("LEXMIN " EMPTY EMPTY, LENGTH("162"), "cmd_lexmin err_length"),
	R("COUNT " DOTS80 " 5", LENGTH("80"), "cmd_count err_length"),
	/* length before char */
	R("SOLVE " X80, LENGTH("80"), "cmd_solve err_length"),
};

void
t_length(void **state)
{
	ROWS(state, length_rows);
}

static const struct rq char_rows[] = {
	R("1234x" DOTS76, "ERR char bad character 'x' (0x78) at position 5\n",
	    "cmd_solve err_char"),
	R("SOLVE " LOWER81, "ERR char bad character 'a' (0x61) at position "
	    "1\n", "cmd_solve err_char"),
	R("LEXMIN " DOTS80 "X", "ERR char bad character 'X' (0x58) at "
	    "position 81\n", "cmd_lexmin err_char"),
	R("COUNT " Z40 "-" Z40 " 3", "ERR char bad character '-' (0x2d) at "
	    "position 41\n", "cmd_count err_char"),
	{ B("1234\0" DOTS76), PROTO_OK, "ERR char bad byte 0x00 at position "
	    "5\n", NULL, "cmd_solve err_char" },
	{ B("SOLVE " D9 "\x7f" D9 D9 D9 D9 D9 D9 D9 D8), PROTO_OK, "ERR char "
	    "bad byte 0x7f at position 10\n", NULL, "cmd_solve err_char" },
	{ B("1234\xc3\xa9" D9 D9 D9 D9 D9 D9 D9 D9 "..."), PROTO_OK, "ERR "
	    "char bad byte 0xc3 at position 5\n", NULL, "cmd_solve err_char" },
	{ B("SOLVE \xff" DOTS80), PROTO_OK, "ERR char bad byte 0xff at "
	    "position 1\n", NULL, "cmd_solve err_char" },
	/* char before conflict */
	R("55x" DOTS76 "..", "ERR char bad character 'x' (0x78) at position "
	    "3\n", "cmd_solve err_char"),
};

void
t_char(void **state)
{
	ROWS(state, char_rows);
}

#define CONFLICT(line, text, verb) R(line, "ERR conflict digit " text "\n", \
	"cmd_" verb " err_conflict")
static const struct rq conflict_rows[] = {
	CONFLICT(".5....5.." DOTS72, "5 twice in row 1: r1c2 and r1c7",
	    "solve"),
	CONFLICT("3" D9 D9 D9 D9 D9 D9 D9 D8 "3" D8,
	    "3 twice in column 1: r1c1 and r9c1", "solve"),
	CONFLICT(D9 D9 D9 D9 D9 D9 D9 D9 ".....7.7.",
	    "7 twice in row 9: r9c6 and r9c8", "solve"),
	CONFLICT("7" D9 "7" D9 D9 D9 D9 D9 D9 D9 ".......",
	    "7 twice in box 1: r1c1 and r2c2", "solve"),
	CONFLICT(D9 D9 D9 D9 D9 D9 "......4" D9 "4" D9 ".",
	    "4 twice in box 9: r7c7 and r8c8", "solve"),
	/* the pair whose second cell comes first in row-major order */
	CONFLICT("59......5..9" D9 D9 D9 D9 D9 D9 D9 "......",
	    "5 twice in row 1: r1c1 and r1c9", "solve"),
	CONFLICT("SOLVE 53..7...56..195....98....6.8...6...34..8.3..17...2..."
	    "6.6....28....419..5....8..79", "5 twice in row 1: r1c1 and r1c9",
	    "solve"),
	CONFLICT("LEXMIN .5....5.." DOTS72,
	    "5 twice in row 1: r1c2 and r1c7", "lexmin"),
	CONFLICT("COUNT .5....5.." DOTS72 " 3",
	    "5 twice in row 1: r1c2 and r1c7", "count"),
};

void
t_conflict(void **state)
{
	ROWS(state, conflict_rows);
}

static const struct rq nosolution_rows[] = {
	R(NOSOL, NOSOLUTION, "cmd_solve unsolvable err_nosolution"),
	R("SOLVE " NOSOL, NOSOLUTION, "cmd_solve unsolvable err_nosolution"),
	R("LEXMIN " NOSOL, NOSOLUTION, "cmd_lexmin unsolvable err_nosolution"),
};

void
t_nosolution(void **state)
{
	struct fx	*f = *state;
	char		 p[82], line[128];
	uint8_t		 g[81];
	unsigned long	 n;
	int		 i = (int)(strchr(CLASSIC, '.') - CLASSIC);

	ROWS(state, nosolution_rows);
	/* CLASSIC plus a consistent given that leaves no solution. */
	memcpy(p, CLASSIC, sizeof p);
	for (p[i] = '1'; p[i] <= '9'; p[i]++) {
		cells(p, g);
		if (p[i] != CLASSIC_SOL[i] &&
		    checker_search(g, 1, 50000000, &n, NULL) == 0 && n == 0)
			break;
	}
	assert_true(p[i] <= '9');
	snprintf(line, sizeof line, "SOLVE %s", p);
	expect_line(f, line, strlen(line), PROTO_OK, NOSOLUTION, NULL,
	    "cmd_solve unsolvable err_nosolution");
	snprintf(line, sizeof line, "COUNT %s 10", p);
	expect_line(f, line, strlen(line), PROTO_OK, "0\n", NULL,
	    "cmd_count unsolvable");
}

/* The solver says the search needs more than budget guesses. */
static void
over_budget(const char *p, enum sudoku_policy policy, unsigned long limit,
    uint64_t budget)
{
	struct sudoku_grid	g, out;
	unsigned long		n;

	assert_int_equal(sudoku_parse(p, 81, &g, NULL), 0);
	if (limit == 1)
		assert_int_equal(sudoku_solve(&g, policy, budget, &out, NULL),
		    SUDOKU_BUDGET);
	else
		assert_int_equal(sudoku_count(&g, limit, budget, &n, NULL,
		    NULL), SUDOKU_BUDGET);
}

void
t_budget(void **state)
{
	struct fx	*f = *state;

	f->env.cf = &f->alt;
	f->alt.budget = 1;
	over_budget(HARD, SUDOKU_ANY, 1, 1);
	expect_line(f, B("SOLVE " HARD), PROTO_OK, "ERR budget search budget "
	    "of 1 guesses exceeded\n", NULL, "cmd_solve err_budget");
	over_budget(EASTER, SUDOKU_LEXMIN, 1, 1);
	expect_line(f, B("LEXMIN " EASTER), PROTO_OK, "ERR budget search "
	    "budget of 1 guesses exceeded\n", NULL, "cmd_lexmin err_budget");
	f->alt.budget = 100;
	over_budget(EMPTY, SUDOKU_ANY, 1000, 100);
	expect_line(f, B("COUNT " EMPTY " 1000"), PROTO_OK, "ERR budget "
	    "search budget of 100 guesses exceeded\n", NULL,
	    "cmd_count err_budget");
	/* A search within the budget still answers. */
	expect_line(f, B("COUNT " CLASSIC), PROTO_OK, "1\n", NULL,
	    "cmd_count solved");
}
