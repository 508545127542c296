/* SPDX-License-Identifier: ISC */
/*
 * test_sets.c -- the solver against the reference search on generated
 * puzzles, and against the checker on every puzzle of the sets in data/
 * ($PUZZLE_DIR).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_sudoku.h"

/*
 * Bound on the reference search per generated puzzle; cases that need
 * more are dropped (the plain backtracker is slow on a few of them).
 */
#define REF_NODES	100000UL

/* Fixed seeds: the same puzzles on every run. */
#define LEXMIN_SEED	0x2239u
#define COUNT_SEED	0x2580u

/* The failures of one data-set run: how many, and the first one. */
struct set_result {
	unsigned long	puzzles;
	unsigned long	failed;
	unsigned long	first_line;
	char		first_why[160];
};

static void
grid_text(const uint8_t *cell, char *buf)
{
	int	i;

	for (i = 0; i < SUDOKU_CELLS; i++)
		buf[i] = '0' + cell[i];
	buf[SUDOKU_CELLS] = '\0';
}

/* A new puzzle: a transformed known grid keeping keep..keep+span-1 cells. */
static void
random_puzzle(uint32_t *rs, int keep, int span, struct sudoku_grid *in)
{
	struct sudoku_grid	base;
	uint8_t			full[SUDOKU_CELLS];

	test_grid(test_solutions[checker_random(rs) % test_nsolutions], &base);
	checker_shuffle(base.cell, rs, full);
	checker_keep(full, keep + (int)(checker_random(rs) % span), rs,
	    in->cell);
}

/* Puts at a random blank a random digit its units don't hold yet. */
static void
random_extra(uint32_t *rs, struct sudoku_grid *in)
{
	int		cell, d, k, r, c;
	unsigned	used;

	do
		cell = checker_random(rs) % SUDOKU_CELLS;
	while (in->cell[cell] != 0);
	r = cell / 9;
	c = cell % 9;
	used = 0;
	for (k = 0; k < 9; k++) {
		used |= 1U << in->cell[r * 9 + k];
		used |= 1U << in->cell[k * 9 + c];
		used |= 1U << in->cell[((r / 3) * 3 + k / 3) * 9 +
		    (c / 3) * 3 + k % 3];
	}
	if ((used & 0x3fe) == 0x3fe)
		return;
	do
		d = 1 + checker_random(rs) % 9;
	while (used & (1U << d));
	in->cell[cell] = d;
}

/* The oracle itself: it must reject what is wrong, or nothing is tested. */
void
test_checker(void **state)
{
	struct sudoku_grid	empty, sol, g, first;
	unsigned long		n;
	uint32_t		rs = 1;
	size_t			i;
	int			k, kept;

	(void)state;
	memset(&empty, 0, sizeof empty);
	for (i = 0; i < test_nsolutions; i++) {
		test_grid(test_solutions[i], &sol);
		assert_true(checker_solution(empty.cell, sol.cell, NULL, 0));
		for (k = 0; k < 50; k++) {	/* shuffles stay valid */
			checker_shuffle(sol.cell, &rs, g.cell);
			assert_true(checker_solution(empty.cell, g.cell, NULL,
			    0));
		}
		checker_keep(g.cell, 25, &rs, first.cell);
		for (k = kept = 0; k < SUDOKU_CELLS; k++)
			if (first.cell[k] != 0) {
				assert_int_equal(first.cell[k], g.cell[k]);
				kept++;
			}
		assert_int_equal(kept, 25);
		assert_true(checker_solution(first.cell, g.cell, NULL, 0));
		g = sol;		/* swap two cells of row 1 */
		g.cell[0] = sol.cell[1];
		g.cell[1] = sol.cell[0];
		assert_false(checker_solution(empty.cell, g.cell, NULL, 0));
		g = sol;		/* the same digit, another cell */
		g.cell[40] = 0;
		assert_false(checker_solution(empty.cell, g.cell, NULL, 0));
		g.cell[40] = 10;
		assert_false(checker_solution(empty.cell, g.cell, NULL, 0));
		g = empty;		/* a given not kept */
		g.cell[80] = sol.cell[80] % 9 + 1;
		assert_false(checker_solution(g.cell, sol.cell, NULL, 0));
		/* A complete grid has one solution, itself. */
		assert_int_equal(checker_search(sol.cell, 2, 100, &n,
		    first.cell), 0);
		assert_int_equal(n, 1);
		assert_memory_equal(first.cell, sol.cell, SUDOKU_CELLS);
	}
	assert_int_equal(checker_search(empty.cell, 10, REF_NODES, &n,
	    first.cell), 0);
	assert_int_equal(n, 10);
	test_grid(test_solutions[3], &sol);	/* protocol.md's LEXMIN */
	assert_memory_equal(first.cell, sol.cell, SUDOKU_CELLS);
	assert_int_equal(checker_search(empty.cell, 10, 5, &n, NULL), -1);
	g = empty;
	g.cell[0] = g.cell[80] = 10;
	assert_int_equal(checker_search(g.cell, 2, 100, &n, NULL), -2);
	g = empty;
	g.cell[30] = g.cell[50] = 4;
	assert_int_equal(checker_search(g.cell, 2, 100, &n, NULL), -2);
}

void
test_lexmin_reference(void **state)
{
	struct sudoku_grid	in, out, ref;
	unsigned long		n, cn, tries, cases = 0, twos = 0;
	uint32_t		rs = LEXMIN_SEED;
	char			text[SUDOKU_CELLS + 1];

	(void)state;
	for (tries = 0; tries < 1000 && cases < 300; tries++) {
		random_puzzle(&rs, 22, 9, &in);
		if (checker_search(in.cell, 2, REF_NODES, &n, ref.cell) != 0)
			continue;
		cases++;
		grid_text(in.cell, text);
		assert_int_not_equal(n, 0);
		if (sudoku_solve(&in, SUDOKU_LEXMIN, 0, &out, NULL) !=
		    SUDOKU_SOLVED ||
		    memcmp(out.cell, ref.cell, SUDOKU_CELLS) != 0)
			test_fail("case %lu: LEXMIN differs from the reference"
			    " on %s", cases, text);
		if (sudoku_count(&in, 2, 0, &cn, NULL, NULL) !=
		    SUDOKU_SOLVED || cn != n)
			test_fail("case %lu: COUNT 2 gave %lu, reference %lu, "
			    "on %s", cases, cn, n, text);
		twos += n == 2;
	}
	print_message("# lexmin_reference: %lu cases (%lu tried), %lu with "
	    "several solutions\n", cases, tries, twos);
	assert_true(cases >= 200);
	assert_true(twos * 10 >= cases * 9);
}

/* One generated puzzle against the reference count n (limit 2). */
static void
count_case(const struct sudoku_grid *in, unsigned long n,
    const struct sudoku_grid *ref, unsigned long k)
{
	struct sudoku_grid	out, out1;
	struct sudoku_stats	st;
	enum sudoku_result	want = n == 0 ? SUDOKU_NOSOLUTION :
				    SUDOKU_SOLVED;
	unsigned long		cn = 99;
	char			text[SUDOKU_CELLS + 1];

	grid_text(in->cell, text);
	if (sudoku_count(in, 2, 0, &cn, &out, &st) != want || cn != n)
		test_fail("case %lu: COUNT 2 gave %lu, reference %lu, on %s", k,
		    cn, n, text);
	if (n > 0)
		test_assert_solves(in, &out, text);
	if (n == 2 && st.guesses == 0)
		test_fail("case %lu: 2 solutions without a guess on %s", k,
		    text);
	/* The first found does not depend on a limit above 1. */
	if (n > 0 && (sudoku_count(in, 3, 0, &cn, &out1, NULL) !=
	    SUDOKU_SOLVED || cn < n ||
	    memcmp(out.cell, out1.cell, SUDOKU_CELLS) != 0))
		test_fail("case %lu: COUNT 3 differs from COUNT 2 on %s", k,
		    text);
	/* A limit of 1 searches as SOLVE does: the same solution. */
	if (n > 0 && (sudoku_count(in, 1, 0, &cn, &out1, NULL) !=
	    SUDOKU_SOLVED || cn != 1 ||
	    sudoku_solve(in, SUDOKU_ANY, 0, &out, NULL) != SUDOKU_SOLVED ||
	    memcmp(out.cell, out1.cell, SUDOKU_CELLS) != 0))
		test_fail("case %lu: COUNT 1 differs from SOLVE on %s", k,
		    text);
	if (sudoku_solve(in, SUDOKU_ANY, 0, &out, NULL) != want)
		test_fail("case %lu: ANY result wrong on %s", k, text);
	if (n > 0)
		test_assert_solves(in, &out, text);
	if (sudoku_solve(in, SUDOKU_LEXMIN, 0, &out, NULL) != want)
		test_fail("case %lu: LEXMIN result wrong on %s", k, text);
	if (n > 0 && memcmp(out.cell, ref->cell, SUDOKU_CELLS) != 0)
		test_fail("case %lu: LEXMIN differs from the reference on %s",
		    k, text);
}

void
test_count_reference(void **state)
{
	struct sudoku_grid	in, ref;
	unsigned long		n, tries, cases = 0, seen[3] = { 0, 0, 0 };
	uint32_t		rs = COUNT_SEED;

	(void)state;
	for (tries = 0; tries < 3000 && cases < 400; tries++) {
		random_puzzle(&rs, 24, 21, &in);
		if (checker_random(&rs) % 2 == 0)
			random_extra(&rs, &in);
		if (checker_search(in.cell, 2, REF_NODES, &n, ref.cell) != 0)
			continue;
		cases++;
		count_case(&in, n, &ref, cases);
		seen[n]++;
	}
	print_message("# count_reference: %lu cases (%lu tried): %lu with "
	    "0, %lu with 1, %lu with 2+ solutions\n", cases, tries, seen[0],
	    seen[1], seen[2]);
	assert_true(cases >= 300);
	assert_true(seen[0] >= 20 && seen[1] >= 20 && seen[2] >= 20);
}

static void
set_fail(struct set_result *res, unsigned long line, const char *why)
{
	if (res->failed++ == 0) {
		res->first_line = line;
		snprintf(res->first_why, sizeof res->first_why, "%s", why);
	}
}

/* One puzzle of a set; returns NULL if fine, else what went wrong. */
static const char *
set_check(const struct sudoku_grid *in, enum test_mode mode)
{
	struct sudoku_grid	out;
	enum sudoku_result	r;
	unsigned long		n = 0;

	memset(&out, 0, sizeof out);
	switch (mode) {
	case TEST_MODE_ANY:
		r = sudoku_solve(in, SUDOKU_ANY, 0, &out, NULL);
		break;
	case TEST_MODE_LEXMIN:
		r = sudoku_solve(in, SUDOKU_LEXMIN, 0, &out, NULL);
		break;
	default:
		r = sudoku_count(in, 2, 0, &n, &out, NULL);
		if (r == SUDOKU_SOLVED && n != 1)
			return "COUNT 2 is not 1";
		break;
	}
	if (r != SUDOKU_SOLVED)
		return r == SUDOKU_BUDGET ? "budget exceeded" :
		    r == SUDOKU_NOSOLUTION ? "said no solution" :
		    "said invalid";
	if (!checker_solution(in->cell, out.cell, NULL, 0))
		return "wrong solution";
	return NULL;
}

/* Strips the line terminator and trailing blanks, as line readers do. */
static size_t
set_strip(const char *line, size_t len)
{
	while (len > 0 && strchr("\r\n \t", line[len - 1]) != NULL)
		len--;
	return len;
}

static void
set_run(FILE *f, enum test_mode mode, struct set_result *res)
{
	struct sudoku_grid	 in;
	struct sudoku_perror	 err;
	char			*line = NULL, why[128];
	const char		*bad;
	size_t			 size = 0, len;
	ssize_t			 got;
	unsigned long		 lineno = 0;

	while ((got = getline(&line, &size, f)) != -1) {
		lineno++;
		len = set_strip(line, (size_t)got);
		if (len == 0 || line[0] == '#')
			continue;
		res->puzzles++;
		if (sudoku_parse(line, len, &in, &err) != 0) {
			sudoku_perror_text(&err, why, sizeof why);
			set_fail(res, lineno, why);
			continue;
		}
		if ((bad = set_check(&in, mode)) != NULL)
			set_fail(res, lineno, bad);
	}
	free(line);
}

/* Where configure puts the puzzle sets; $PUZZLE_DIR overrides it. */
#ifndef TEST_PUZZLE_DIR
#define TEST_PUZZLE_DIR	"data"
#endif

void
test_set(void **state)
{
	const struct test_set	*ts = *state;
	struct set_result	 res;
	struct timespec		 t0, t1;
	char			 path[4096];
	FILE			*f;

	f = test_fopen("PUZZLE_DIR", TEST_PUZZLE_DIR, ts->file, path,
	    sizeof path);
	memset(&res, 0, sizeof res);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	set_run(f, ts->mode, &res);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fclose(f);
	print_message("# %s: %lu puzzles in %.3f s\n", ts->file, res.puzzles,
	    (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	if (res.failed != 0)
		test_fail("%s: %lu of %lu puzzles failed; first at line %lu: "
		    "%s", ts->file, res.failed, res.puzzles, res.first_line,
		    res.first_why);
	assert_int_equal(res.puzzles, ts->puzzles);
}

/*
 * The many-solution sets (data/puzzles7_many_solutions and
 * data/puzzles8_many_solutions_bands, in the source tree): every puzzle
 * has at least two solutions, so COUNT 2 is 2, and ANY, LEXMIN and
 * COUNT's first solution keep the givens and are valid.  On every
 * MANY_SAMPLE-th puzzle the reference search, independent of the
 * solver, must also count 2 and find the same LEXMIN solution.  Run
 * when PUZZLE_DIR is set, like the other sets, though the files are
 * read from the source tree.
 */
static const char *const many_files[] = {
	"puzzles7_many_solutions",
	"puzzles8_many_solutions_bands"
};
#define MANY_PUZZLES	10000
#define MANY_SAMPLE	25
#define MANY_NODES	2000000UL

/* One puzzle of the set; NULL if fine, else what went wrong. */
static const char *
many_check(const struct sudoku_grid *in, unsigned long k, unsigned long *ref)
{
	struct sudoku_grid	out, lex, first;
	unsigned long		n = 0;

	if (sudoku_count(in, 2, 0, &n, &first, NULL) != SUDOKU_SOLVED ||
	    n != 2)
		return "COUNT 2 is not 2";
	if (!checker_solution(in->cell, first.cell, NULL, 0))
		return "COUNT's first solution is wrong";
	if (sudoku_solve(in, SUDOKU_ANY, 0, &out, NULL) != SUDOKU_SOLVED ||
	    !checker_solution(in->cell, out.cell, NULL, 0))
		return "ANY solution is wrong";
	if (sudoku_solve(in, SUDOKU_LEXMIN, 0, &lex, NULL) != SUDOKU_SOLVED ||
	    !checker_solution(in->cell, lex.cell, NULL, 0))
		return "LEXMIN solution is wrong";
	if (k % MANY_SAMPLE != 0 ||
	    checker_search(in->cell, 2, MANY_NODES, &n, out.cell) != 0)
		return NULL;
	(*ref)++;
	if (n != 2)
		return "the reference search does not count 2";
	if (memcmp(out.cell, lex.cell, SUDOKU_CELLS) != 0)
		return "LEXMIN differs from the reference search";
	return NULL;
}

static void
many_set(const char *file)
{
	struct set_result	 res;
	struct sudoku_grid	 in;
	const char		*bad;
	char			 path[4096], *line = NULL;
	size_t			 size = 0, len;
	ssize_t			 got;
	unsigned long		 lineno = 0, ref = 0;
	FILE			*f;

	f = test_fopen("PUZZLE_DIR", TEST_PUZZLE_DIR, file, path,
	    sizeof path);
	memset(&res, 0, sizeof res);
	while ((got = getline(&line, &size, f)) != -1) {
		lineno++;
		len = set_strip(line, (size_t)got);
		if (len == 0 || line[0] == '#')
			continue;
		if (sudoku_parse(line, len, &in, NULL) != 0)
			bad = "not a puzzle";
		else
			bad = many_check(&in, res.puzzles, &ref);
		res.puzzles++;
		if (bad != NULL)
			set_fail(&res, lineno, bad);
	}
	free(line);
	fclose(f);
	print_message("# %s: %lu puzzles, %lu checked by the reference "
	    "search\n", file, res.puzzles, ref);
	if (res.failed != 0)
		test_fail("%s: %lu of %lu puzzles failed; first at line %lu: "
		    "%s", file, res.failed, res.puzzles, res.first_line,
		    res.first_why);
	assert_int_equal(res.puzzles, MANY_PUZZLES);
	assert_true(ref * MANY_SAMPLE * 10 >= MANY_PUZZLES * 8);
}

void
test_many_set(void **state)
{
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof many_files / sizeof many_files[0]; i++)
		many_set(many_files[i]);
}
