/* SPDX-License-Identifier: ISC */
/*
 * test_solve.c -- sudoku_solve() and sudoku_count(): the seeds' samples,
 * counting, unsolvable and invalid grids, stats (test_budget.c has the
 * budget, determinism and the copy of the solver in use).
 * Expected grids are written down from the problems' published samples
 * or checked by checker.c; none is output captured from the solver.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_sudoku.h"

/* Bound on the reference search's nodes for one call here. */
#define REF_NODES	20000000UL

/*
 * BOJ 2239 sample: 9 lines, no separators; LEXMIN output.  The samples
 * are also in tests/unit/samples, in the problems' own formats, and the
 * seed tests check these copies against them.
 */
const char test_boj2239_in[] =
	"103000509\n002109400\n000704000\n300502006\n060000050\n"
	"700803004\n000401000\n009205800\n804000107\n";
static const char boj2239_out[] =
	"143628579\n572139468\n986754231\n391542786\n468917352\n"
	"725863914\n237481695\n619275843\n854396127\n";

/* BOJ 2580 sample (samples/boj2580.trace), unique solution. */
const char test_boj2580_in[] =
	"0 3 5 4 6 9 2 7 8 / 7 8 2 1 0 5 6 0 9 / 0 6 0 2 7 8 1 3 5 / "
	"3 2 1 0 4 6 8 9 7 / 8 0 4 9 1 3 5 0 6 / 5 9 6 8 2 0 4 1 3 / "
	"9 1 7 6 5 2 0 8 0 / 6 0 3 7 0 1 9 5 2 / 2 5 8 3 9 4 7 6 0";
static const char boj2580_out[] =
	"1 3 5 4 6 9 2 7 8 / 7 8 2 1 3 5 6 4 9 / 4 6 9 2 7 8 1 3 5 / "
	"3 2 1 5 4 6 8 9 7 / 8 7 4 9 1 3 5 2 6 / 5 9 6 8 2 7 4 1 3 / "
	"9 1 7 6 5 2 3 8 4 / 6 4 3 7 8 1 9 5 2 / 2 5 8 3 9 4 7 6 1";

/* doc/protocol.md's SOLVE and LEXMIN examples. */
static const char wiki_in[] = "53..7....6..195....98....6.8...6...34..8.3."
	".17...2...6.6....28....419..5....8..79";
static const char wiki_out[] = "5346789126721953481983425678597614234268"
	"53791713924856961537284287419635345286179";
static const char empty_lexmin[] = "12345678945678912378912345621436589736"
	"5897214897214365531642978642978531978531642";

/* Complete grids for test_sets.c to transform into new puzzles. */
const char *const test_solutions[] = {
	wiki_out, boj2239_out, boj2580_out, empty_lexmin
};
const size_t test_nsolutions = sizeof test_solutions /
    sizeof test_solutions[0];

/* Hard ones: the forum list's first, and "Easter Monster". */
const char test_hard1[] = "........8..3...4...9..2..6.....79.......612."
	"..6.5.2.7...8...5...1.....2.4.5.....3";
const char test_easter[] = "1.......2.9.4...5...6...7...5.9.3.......7"
	".......85..4.7.....6...3...9.8...2.....1";
/* The first 17-clue puzzle of Royle's list. */
const char test_clue17[] = ".................1.....2.3......3.2...1.4..."
	"...5....6..3......4.7..8...962...7...";

/* Parses text written for people with sudoku_parse(), as a client would. */
static void
parse_text(const char *text, struct sudoku_grid *g)
{
	char			s[SUDOKU_CELLS];
	struct sudoku_perror	err;
	int			n = 0;

	for (; *text != '\0'; text++) {
		if (*text == ' ' || *text == '/' || *text == '\n')
			continue;
		assert_true(n < SUDOKU_CELLS);
		s[n++] = *text;
	}
	assert_int_equal(n, SUDOKU_CELLS);
	assert_int_equal(sudoku_parse(s, SUDOKU_CELLS, g, &err), 0);
}

static void
expect_ref(const struct sudoku_grid *in, unsigned long want,
    const struct sudoku_grid *first)
{
	unsigned long	count;
	uint8_t		ref[SUDOKU_CELLS];

	assert_int_equal(checker_search(in->cell, 2, REF_NODES, &count, ref),
	    0);
	assert_int_equal(count, want);
	if (first != NULL)
		assert_memory_equal(ref, first->cell, SUDOKU_CELLS);
}

/* The seeds' sample files (tests/unit/samples); $SAMPLE_DIR overrides. */
#ifndef TEST_SAMPLE_DIR
#define TEST_SAMPLE_DIR	"tests/unit/samples"
#endif

/* Asserts that the text of sample file equals text (both parse_text()). */
static void
sample_equal(const char *file, const char *text)
{
	struct sudoku_grid	 fromfile, fromtext;
	char			 path[4096], buf[512];
	size_t			 len;
	FILE			*f;

	f = test_fopen("SAMPLE_DIR", TEST_SAMPLE_DIR, file, path, sizeof path);
	len = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[len] = '\0';
	parse_text(buf, &fromfile);
	parse_text(text, &fromtext);
	if (memcmp(fromfile.cell, fromtext.cell, SUDOKU_CELLS) != 0)
		test_fail("%s differs from the copy in test_solve.c", path);
}

void
test_seed_boj2239(void **state)
{
	struct sudoku_grid	in, out, want, check;
	unsigned long		n;

	(void)state;
	sample_equal("boj2239.in", test_boj2239_in);
	sample_equal("boj2239.out", boj2239_out);
	parse_text(test_boj2239_in, &in);
	test_grid(test_boj2239_in, &check);
	assert_memory_equal(in.cell, check.cell, SUDOKU_CELLS);
	test_grid(boj2239_out, &want);
	test_assert_solves(&in, &want, "expected output");
	/* The seeds' ascending row-major DFS finds the same grid first. */
	assert_int_equal(checker_search(in.cell, 1, REF_NODES, &n, out.cell),
	    0);
	assert_int_equal(n, 1);
	assert_memory_equal(out.cell, want.cell, SUDOKU_CELLS);

	memset(&out, 0, sizeof out);
	assert_int_equal(sudoku_solve(&in, SUDOKU_LEXMIN, 0, &out, NULL),
	    SUDOKU_SOLVED);
	assert_memory_equal(out.cell, want.cell, SUDOKU_CELLS);
	assert_int_equal(sudoku_solve(&in, SUDOKU_ANY, 0, &out, NULL),
	    SUDOKU_SOLVED);
	test_assert_solves(&in, &out, "BOJ 2239 ANY");
}

/* The candidates of cell (r, c) of g as a mask, bit d for digit d. */
static unsigned
candidates(const struct sudoku_grid *g, int r, int c)
{
	unsigned	used = 0;
	int		k;

	for (k = 0; k < 9; k++) {
		used |= 1U << g->cell[r * 9 + k];
		used |= 1U << g->cell[k * 9 + c];
		used |= 1U << g->cell[((r / 3) * 3 + k / 3) * 9 +
		    (c / 3) * 3 + k % 3];
	}
	return ~used & 0x3fe;
}

/*
 * samples/boj2580.trace restates what the seed write-up traces on this
 * sample: its first blanks in row-major order ("blanks (0,0) (1,4)
 * ..."), and blanks with a single candidate ("single (0,0) 1").
 */
static void
seed_trace(const struct sudoku_grid *in, const struct sudoku_grid *want)
{
	char	 path[4096], line[256], *p;
	int	 r, c, d, n, i, k, blanks = 0, singles = 0;
	FILE	*f;

	f = test_fopen("SAMPLE_DIR", TEST_SAMPLE_DIR, "boj2580.trace", path,
	    sizeof path);
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, "blanks ", 7) == 0) {
			for (p = line + 7, i = 0;
			    sscanf(p, " (%d,%d)%n", &r, &c, &n) == 2; p += n) {
				while (i < SUDOKU_CELLS && in->cell[i] != 0)
					i++;
				assert_int_equal(r * 9 + c, i);
				i++;
				blanks++;
			}
		} else if (sscanf(line, "single (%d,%d) %d", &r, &c, &d) == 3) {
			k = r * 9 + c;
			assert_true(k >= 0 && k < SUDOKU_CELLS);
			assert_int_equal(in->cell[k], 0);
			assert_int_equal(candidates(in, r, c), 1U << d);
			assert_int_equal(want->cell[k], d);
			singles++;
		}
	}
	fclose(f);
	if (blanks < 5 || singles < 2)
		test_fail("%s: %d blanks and %d singles read, expected at "
		    "least 5 and 2", path, blanks, singles);
}

void
test_seed_boj2580(void **state)
{
	struct sudoku_grid	in, out, want;
	unsigned long		n;

	(void)state;
	sample_equal("boj2580.in", test_boj2580_in);
	sample_equal("boj2580.out", boj2580_out);
	parse_text(test_boj2580_in, &in);
	test_grid(boj2580_out, &want);
	test_assert_solves(&in, &want, "expected output");
	seed_trace(&in, &want);
	expect_ref(&in, 1, &want);

	memset(&out, 0, sizeof out);
	assert_int_equal(sudoku_solve(&in, SUDOKU_ANY, 0, &out, NULL),
	    SUDOKU_SOLVED);
	test_assert_solves(&in, &out, "BOJ 2580 ANY");
	assert_memory_equal(out.cell, want.cell, SUDOKU_CELLS);
	assert_int_equal(sudoku_solve(&in, SUDOKU_LEXMIN, 0, &out, NULL),
	    SUDOKU_SOLVED);
	assert_memory_equal(out.cell, want.cell, SUDOKU_CELLS);
	assert_int_equal(sudoku_count(&in, 2, 0, &n, &out, NULL),
	    SUDOKU_SOLVED);
	assert_int_equal(n, 1);
	assert_memory_equal(out.cell, want.cell, SUDOKU_CELLS);
}

void
test_lexmin_empty(void **state)
{
	struct sudoku_grid	in, out, want;

	(void)state;
	memset(&in, 0, sizeof in);
	test_grid(empty_lexmin, &want);
	test_assert_solves(&in, &want, "protocol.md example");
	expect_ref(&in, 2, &want);
	assert_int_equal(sudoku_solve(&in, SUDOKU_LEXMIN, 0, &out, NULL),
	    SUDOKU_SOLVED);
	assert_memory_equal(out.cell, want.cell, SUDOKU_CELLS);
	assert_int_equal(sudoku_solve(&in, SUDOKU_ANY, 0, &out, NULL),
	    SUDOKU_SOLVED);
	test_assert_solves(&in, &out, "empty grid ANY");
}

void
test_count_unique(void **state)
{
	static const struct test_known known[] = {
		{ "protocol.md", wiki_in, wiki_out },
		{ "BOJ 2580", test_boj2580_in, boj2580_out },
		{ "17 clues", test_clue17, NULL },
		{ "hardest #1", test_hard1, NULL },
		{ "Easter Monster", test_easter, NULL },
	};
	static const unsigned long limits[] = { 1, 2, 1000 };
	struct sudoku_grid	in, first, want;
	unsigned long		n;
	size_t			i, j;

	(void)state;
	test_grid(wiki_in, &in);
	expect_ref(&in, 1, NULL);
	for (i = 0; i < sizeof known / sizeof known[0]; i++) {
		test_grid(known[i].puzzle, &in);
		for (j = 0; j < sizeof limits / sizeof limits[0]; j++) {
			memset(&first, 0, sizeof first);
			assert_int_equal(sudoku_count(&in, limits[j], 0, &n,
			    &first, NULL), SUDOKU_SOLVED);
			assert_int_equal(n, 1);
			test_assert_solves(&in, &first, known[i].name);
			if (known[i].solution == NULL)
				continue;
			test_grid(known[i].solution, &want);
			assert_memory_equal(first.cell, want.cell,
			    SUDOKU_CELLS);
		}
		/* first may be NULL. */
		assert_int_equal(sudoku_count(&in, 2, 0, &n, NULL, NULL),
		    SUDOKU_SOLVED);
		assert_int_equal(n, 1);
	}
}

void
test_count_empty(void **state)
{
	static const unsigned long limits[] = { 1, 2, 10, 1000 };
	struct sudoku_grid	in, first, first1;
	struct sudoku_stats	st;
	unsigned long		n;
	size_t			i;

	(void)state;
	memset(&in, 0, sizeof in);
	for (i = 0; i < sizeof limits / sizeof limits[0]; i++) {
		n = 0;
		memset(&first, 0, sizeof first);
		assert_int_equal(sudoku_count(&in, limits[i], 0, &n, &first,
		    &st), SUDOKU_SOLVED);
		assert_int_equal(n, limits[i]);
		test_assert_solves(&in, &first, "empty grid, first");
		/* n leaves of a binary search tree need n - 1 branches. */
		assert_true(st.guesses >= limits[i] - 1);
		assert_true(st.guesses <= SUDOKU_BUDGET_DEFAULT);
		/*
		 * The search does not depend on a limit above 1: the same
		 * first (limit 1 is SOLVE's search, sudoku(3)).
		 */
		if (i == 1)
			first1 = first;
		else if (i > 1)
			assert_memory_equal(first.cell, first1.cell,
			    SUDOKU_CELLS);
	}
}

/*
 * Unsolvable without an immediate clash: the protocol.md puzzle (unique,
 * as the reference confirms) with a wrong digit at a blank, one that no
 * given in the cell's units holds.  Any solution of it would solve the
 * original and differ from its only solution, so none exists; the
 * reference search confirms it too.
 */
void
test_nosolution(void **state)
{
	struct sudoku_grid	in, sol, bad, out;
	struct sudoku_perror	err;
	char			s[SUDOKU_CELLS];
	unsigned long		n;
	int			cell, d, done = 0;

	(void)state;
	test_grid(wiki_in, &in);
	test_grid(wiki_out, &sol);
	for (cell = 0; cell < SUDOKU_CELLS && done < 4; cell += 7) {
		if (in.cell[cell] != 0)
			continue;
		for (d = 1; d <= 9 && done < 4; d++) {
			if (d == sol.cell[cell])
				continue;
			bad = in;
			bad.cell[cell] = d;
			if (checker_search(bad.cell, 1, REF_NODES, &n,
			    NULL) != 0)
				continue;	/* clashes (-2) or too long */
			assert_int_equal(n, 0);
			/* It must also pass the parser: no direct clash. */
			sudoku_format(&bad, s);
			assert_int_equal(sudoku_parse(s, SUDOKU_CELLS, &out,
			    &err), 0);
			n = 99;
			assert_int_equal(sudoku_count(&bad, 2, 0, &n, NULL,
			    NULL), SUDOKU_NOSOLUTION);
			assert_int_equal(n, 0);
			assert_int_equal(sudoku_solve(&bad, SUDOKU_ANY, 0, &out,
			    NULL), SUDOKU_NOSOLUTION);
			assert_int_equal(sudoku_solve(&bad, SUDOKU_LEXMIN, 0,
			    &out, NULL), SUDOKU_NOSOLUTION);
			done++;
			break;
		}
	}
	assert_int_equal(done, 4);
}

static void
expect_invalid(const struct sudoku_grid *in)
{
	struct sudoku_grid	out;
	unsigned long		n;

	assert_int_equal(sudoku_solve(in, SUDOKU_ANY, 0, &out, NULL),
	    SUDOKU_INVALID);
	assert_int_equal(sudoku_solve(in, SUDOKU_LEXMIN, 0, &out, NULL),
	    SUDOKU_INVALID);
	assert_int_equal(sudoku_count(in, 2, 0, &n, &out, NULL),
	    SUDOKU_INVALID);
}

void
test_invalid(void **state)
{
	struct sudoku_grid	in;

	(void)state;
	memset(&in, 0, sizeof in);
	in.cell[1] = in.cell[6] = 5;		/* row */
	expect_invalid(&in);
	memset(&in, 0, sizeof in);
	in.cell[12] = in.cell[66] = 3;		/* column */
	expect_invalid(&in);
	memset(&in, 0, sizeof in);
	in.cell[30] = in.cell[50] = 7;		/* box only */
	expect_invalid(&in);
	test_grid(wiki_out, &in);		/* a full grid, one clash */
	in.cell[0] = 9;
	expect_invalid(&in);
	memset(&in, 0, sizeof in);
	in.cell[40] = 10;			/* not a digit */
	expect_invalid(&in);
	test_grid(wiki_in, &in);
	in.cell[2] = 10;
	expect_invalid(&in);
	in.cell[2] = 255;
	expect_invalid(&in);
}

void
test_stats_propagation(void **state)
{
	struct sudoku_grid	in, out, want;
	struct sudoku_stats	st;
	unsigned long		n;
	int			i;

	(void)state;
	/* The solution with its diagonal blanked: one blank per row. */
	test_grid(wiki_out, &want);
	in = want;
	for (i = 0; i < 9; i++)
		in.cell[i * 9 + i] = 0;
	memset(&st, 0xff, sizeof st);
	assert_int_equal(sudoku_solve(&in, SUDOKU_ANY, 0, &out, &st),
	    SUDOKU_SOLVED);
	assert_memory_equal(out.cell, want.cell, SUDOKU_CELLS);
	assert_int_equal(st.guesses, 0);
	assert_true(st.steps >= 9);	/* 9 cells were placed */
	assert_true(st.steps < 1000);
	memset(&st, 0xff, sizeof st);
	assert_int_equal(sudoku_solve(&in, SUDOKU_LEXMIN, 0, &out, &st),
	    SUDOKU_SOLVED);
	assert_memory_equal(out.cell, want.cell, SUDOKU_CELLS);
	assert_int_equal(st.guesses, 0);
	assert_true(st.steps >= 9);
	memset(&st, 0xff, sizeof st);
	assert_int_equal(sudoku_count(&in, 2, 0, &n, &out, &st),
	    SUDOKU_SOLVED);
	assert_int_equal(n, 1);
	assert_int_equal(st.guesses, 0);
	assert_true(st.steps >= 9);
	/* A full grid is its own solution, with no guess. */
	memset(&st, 0xff, sizeof st);
	assert_int_equal(sudoku_solve(&want, SUDOKU_ANY, 0, &out, &st),
	    SUDOKU_SOLVED);
	assert_memory_equal(out.cell, want.cell, SUDOKU_CELLS);
	assert_int_equal(st.guesses, 0);
}

void
test_stats_null_alias(void **state)
{
	struct sudoku_grid	g, orig, want;
	unsigned long		n;

	(void)state;
	test_grid(wiki_in, &orig);
	test_grid(wiki_out, &want);
	g = orig;
	assert_int_equal(sudoku_solve(&g, SUDOKU_ANY, 0, &g, NULL),
	    SUDOKU_SOLVED);
	assert_memory_equal(g.cell, want.cell, SUDOKU_CELLS);
	g = orig;
	assert_int_equal(sudoku_solve(&g, SUDOKU_LEXMIN, 0, &g, NULL),
	    SUDOKU_SOLVED);
	assert_memory_equal(g.cell, want.cell, SUDOKU_CELLS);
	/* Aliasing on a multi-solution grid: still a solution of it. */
	memset(&g, 0, sizeof g);
	g.cell[0] = 7;
	g.cell[80] = 3;
	orig = g;
	assert_int_equal(sudoku_solve(&g, SUDOKU_ANY, 0, &g, NULL),
	    SUDOKU_SOLVED);
	test_assert_solves(&orig, &g, "aliased ANY");
	g = orig;
	assert_int_equal(sudoku_solve(&g, SUDOKU_LEXMIN, 0, &g, NULL),
	    SUDOKU_SOLVED);
	test_assert_solves(&orig, &g, "aliased LEXMIN");
	assert_int_equal(sudoku_count(&orig, 5, 0, &n, NULL, NULL),
	    SUDOKU_SOLVED);
	assert_int_equal(n, 5);
}
