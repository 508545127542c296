/* SPDX-License-Identifier: ISC */
/*
 * test_solve.c -- sudoku_solve() and sudoku_count(): the seeds' samples,
 * counting, unsolvable and invalid grids, the budget, stats, determinism.
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
static const char boj2239_in[] =
	"103000509\n002109400\n000704000\n300502006\n060000050\n"
	"700803004\n000401000\n009205800\n804000107\n";
static const char boj2239_out[] =
	"143628579\n572139468\n986754231\n391542786\n468917352\n"
	"725863914\n237481695\n619275843\n854396127\n";

/* BOJ 2580 sample (samples/boj2580.trace), unique solution. */
static const char boj2580_in[] =
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
static const char hard1[] = "........8..3...4...9..2..6.....79.......612."
	"..6.5.2.7...8...5...1.....2.4.5.....3";
static const char easter[] = "1.......2.9.4...5...6...7...5.9.3.......7"
	".......85..4.7.....6...3...9.8...2.....1";
/* The first 17-clue puzzle of Royle's list. */
static const char clue17[] = ".................1.....2.3......3.2...1.4..."
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
	sample_equal("boj2239.in", boj2239_in);
	sample_equal("boj2239.out", boj2239_out);
	parse_text(boj2239_in, &in);
	test_grid(boj2239_in, &check);
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
	sample_equal("boj2580.in", boj2580_in);
	sample_equal("boj2580.out", boj2580_out);
	parse_text(boj2580_in, &in);
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
		{ "BOJ 2580", boj2580_in, boj2580_out },
		{ "17 clues", clue17, NULL },
		{ "hardest #1", hard1, NULL },
		{ "Easter Monster", easter, NULL },
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
		/* The search does not depend on the limit: same first. */
		if (i == 0)
			first1 = first;
		else
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

void
test_budget_empty(void **state)
{
	struct sudoku_grid	in, first;
	struct sudoku_stats	st;
	unsigned long		n = 0;

	(void)state;
	memset(&in, 0, sizeof in);
	assert_int_equal(sudoku_count(&in, 1000000, 1000, &n, &first, &st),
	    SUDOKU_BUDGET);
	assert_true(n < 1000000);	/* a lower bound, not a claim */
	assert_true(st.guesses <= 1000);	/* the most allowed */
	if (n > 0)
		test_assert_solves(&in, &first, "empty grid, budget");
}

/* Budget b on a hard puzzle: no answer or a right one, never a wrong one. */
static void
budget_try(const struct sudoku_grid *in, uint64_t b, int strict)
{
	static const enum sudoku_policy pol[] = { SUDOKU_ANY, SUDOKU_LEXMIN };
	struct sudoku_grid	out;
	struct sudoku_stats	st;
	enum sudoku_result	r;
	unsigned long		n;
	size_t			i;

	for (i = 0; i < 2; i++) {
		r = sudoku_solve(in, pol[i], b, &out, &st);
		assert_true(st.guesses <= b);
		if (r == SUDOKU_SOLVED && !strict)
			test_assert_solves(in, &out, "budget");
		else
			assert_int_equal(r, SUDOKU_BUDGET);
	}
	/* Proving a hard puzzle unique takes more than a few guesses. */
	n = 99;
	r = sudoku_count(in, 2, b, &n, &out, &st);
	assert_int_equal(r, SUDOKU_BUDGET);
	assert_true(st.guesses <= b);
	assert_true(n <= 1);
	if (n == 1)
		test_assert_solves(in, &out, "budget, count");
}

void
test_budget_hard(void **state)
{
	static const uint64_t budgets[] = { 2, 3, 5 };
	struct sudoku_grid	in, out;
	size_t			i;

	(void)state;
	test_grid(easter, &in);
	budget_try(&in, 1, 1);
	for (i = 0; i < sizeof budgets / sizeof budgets[0]; i++)
		budget_try(&in, budgets[i], 0);
	test_grid(hard1, &in);
	budget_try(&in, 1, 0);
	for (i = 0; i < sizeof budgets / sizeof budgets[0]; i++)
		budget_try(&in, budgets[i], 0);
	/* The default budget is plenty for them. */
	assert_int_equal(sudoku_solve(&in, SUDOKU_ANY, 0, &out, NULL),
	    SUDOKU_SOLVED);
	test_assert_solves(&in, &out, "hardest #1");
}

/* Mode m of the tests: 0 ANY, 1 LEXMIN, 2 COUNT with limit 2. */
static enum sudoku_result
run_mode(const struct sudoku_grid *in, int m, uint64_t b,
    struct sudoku_grid *out, unsigned long *n, struct sudoku_stats *st)
{
	*n = 1;
	if (m == 2)
		return sudoku_count(in, 2, b, n, out, st);
	return sudoku_solve(in, m == 0 ? SUDOKU_ANY : SUDOKU_LEXMIN, b, out,
	    st);
}

/*
 * The budget is exact: a call that needs k guesses succeeds, the same
 * way, with budget k and stops with budget k - 1 (the search is
 * deterministic and the budget only caps it).
 */
void
test_budget_exact(void **state)
{
	const char *const	 puzzles[] = { hard1, easter, clue17,
				    boj2239_in, boj2580_in };
	struct sudoku_grid	 in, a, b;
	struct sudoku_stats	 sa, sb;
	unsigned long		 na, nb;
	size_t			 i;
	int			 m;

	(void)state;
	for (i = 0; i < sizeof puzzles / sizeof puzzles[0]; i++) {
		test_grid(puzzles[i], &in);
		for (m = 0; m < 3; m++) {
			assert_int_equal(run_mode(&in, m, 0, &a, &na, &sa),
			    SUDOKU_SOLVED);
			test_assert_solves(&in, &a, puzzles[i]);
			if (sa.guesses == 0)
				continue;
			assert_int_equal(run_mode(&in, m, sa.guesses, &b, &nb,
			    &sb), SUDOKU_SOLVED);
			assert_memory_equal(a.cell, b.cell, SUDOKU_CELLS);
			assert_int_equal(na, nb);
			assert_int_equal(sa.guesses, sb.guesses);
			if (sa.guesses == 1)
				continue;
			assert_int_equal(run_mode(&in, m, sa.guesses - 1, &b,
			    &nb, &sb), SUDOKU_BUDGET);
			assert_true(sb.guesses <= sa.guesses - 1);
		}
	}
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

void
test_determinism(void **state)
{
	static const enum sudoku_policy pol[] = { SUDOKU_ANY, SUDOKU_LEXMIN };
	struct sudoku_grid	in, a, b;
	struct sudoku_stats	sa, sb;
	unsigned long		na, nb;
	size_t			i, k;

	(void)state;
	for (k = 0; k < 3; k++) {
		if (k == 0)
			memset(&in, 0, sizeof in);
		else
			test_grid(k == 1 ? hard1 : boj2239_in, &in);
		for (i = 0; i < 2; i++) {
			assert_int_equal(sudoku_solve(&in, pol[i], 0, &a, &sa),
			    SUDOKU_SOLVED);
			assert_int_equal(sudoku_solve(&in, pol[i], 0, &b, &sb),
			    SUDOKU_SOLVED);
			assert_memory_equal(a.cell, b.cell, SUDOKU_CELLS);
			assert_memory_equal(&sa, &sb, sizeof sa);
		}
		assert_int_equal(sudoku_count(&in, 10, 0, &na, &a, &sa),
		    SUDOKU_SOLVED);
		assert_int_equal(sudoku_count(&in, 10, 0, &nb, &b, &sb),
		    SUDOKU_SOLVED);
		assert_int_equal(na, nb);
		assert_memory_equal(a.cell, b.cell, SUDOKU_CELLS);
		assert_memory_equal(&sa, &sb, sizeof sa);
	}
}

/* Can this CPU run the copy of the solver named isa (sudoku.h)? */
static int
isa_runs(const char *isa)
{
	if (strcmp(isa, "generic") == 0)
		return 1;
#if defined(__x86_64__) && defined(__GNUC__)
	__builtin_cpu_init();
	if (strcmp(isa, "sse41") == 0)
		return __builtin_cpu_supports("sse4.1") &&
		    __builtin_cpu_supports("sse4.2") &&
		    __builtin_cpu_supports("ssse3") &&
		    __builtin_cpu_supports("popcnt");
	if (strcmp(isa, "avx2") == 0)
		return __builtin_cpu_supports("avx2") &&
		    __builtin_cpu_supports("bmi") &&
		    __builtin_cpu_supports("bmi2") &&
		    __builtin_cpu_supports("popcnt");
#endif
	return 0;
}

/*
 * The copy of the solver in use is the one SUDOKU_ISA names, when the
 * CPU runs it: scripts/check runs the unit tests once per copy that
 * way.  Skipped when the CPU cannot run the copy asked for.
 */
void
test_isa(void **state)
{
	const char	*want = getenv("SUDOKU_ISA"), *got = sudoku_isa();

	(void)state;
	print_message("# solver copy in use: %s (SUDOKU_ISA %s)\n", got,
	    want != NULL ? want : "unset");
	assert_true(strcmp(got, "generic") == 0 || strcmp(got, "sse41") == 0 ||
	    strcmp(got, "avx2") == 0);
	if (want == NULL || *want == '\0' || strcmp(want, got) == 0)
		return;
	if (strcmp(want, "generic") != 0 && strcmp(want, "sse41") != 0 &&
	    strcmp(want, "avx2") != 0)
		test_fail("SUDOKU_ISA=%s names no copy of the solver", want);
	if (isa_runs(want))
		test_fail("SUDOKU_ISA=%s, but %s is in use", want, got);
	skip();
}
