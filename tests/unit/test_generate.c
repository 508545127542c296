/* SPDX-License-Identifier: ISC */
/*
 * test_generate.c -- the puzzle generator: every puzzle it makes has
 * one solution (sudoku_count, limit 2), is minimal (removing any one
 * given leaves two or more), is rated the level asked for, and is the
 * same for the same seed: here, and (the golden table) on every
 * machine and in every later version.
 */
#include <stdio.h>
#include <string.h>

#include "test_logic.h"

/* Attempts per call when a test does not care about slices. */
#define GEN_SLICE	100000

/*
 * Puzzles that seeds must keep producing.  They were made by this
 * generator when it was written; if one changes, GENERATE answers
 * differently for a seed than before, which the protocol promises not
 * to do (unless the technique table changes, a new protocol version).
 */
static const struct {
	uint64_t		 seed;
	enum sudoku_level	 level;
	const char		*puzzle;
} gen_golden[] = {
	{ 1, SUDOKU_LEVEL_EASY,
	    "7....3.165.9........2...7.4...267.9......"
	    "...1.......8.3..98.......1...7.21...43.." },
	{ 2, SUDOKU_LEVEL_MEDIUM,
	    ".36.4..97..2.9.8.......8.2.....5.4.946..7"
	    "...3.1.......1..4.3..57....23..........." },
	{ 3, SUDOKU_LEVEL_HARD,
	    ".21...5.....2.......9..56......9..83..4.."
	    "....1...6.92..7..83...8....9.4......47.." },
	{ 4, SUDOKU_LEVEL_EXPERT,
	    ".1.92.5..83...1.....2...4.....3.7........"
	    ".6.8.614.5..23.76............4.5....2..9" },
	{ 5, SUDOKU_LEVEL_EXTREME,
	    ".6.5.2..41.34.......9.7..............1..9"
	    ".53....8....74....5.2.6....3.7..2..4.1.." },
	{ 0xdeadbeefcafef00dULL, SUDOKU_LEVEL_MEDIUM,
	    ".........5...84..7..9.7.3.1.2..5...3..3.."
	    ".....143..8.....6..4....1..7..9.4.2.3.7." },
};

static void
gen_text(const struct sudoku_grid *g, char *s)
{
	int	 i;

	for (i = 0; i < SUDOKU_CELLS; i++)
		s[i] = g->cell[i] ? (char)('0' + g->cell[i]) : '.';
	s[SUDOKU_CELLS] = '\0';
}

/* Generates with one big slice; asserts that it is found. */
static void
gen_one(uint64_t seed, enum sudoku_level level, struct sudoku_grid *p,
    struct sudoku_rating *r, unsigned long *attempts)
{
	struct sudoku_gen	 gen;

	sudoku_gen_init(&gen, seed, level, 0);
	assert_int_equal(sudoku_gen_run(&gen, GEN_SLICE, p, r),
	    SUDOKU_GEN_FOUND);
	assert_int_equal(gen.seen[level], 1);
	assert_true(gen.spent <= gen.budget);
	if (attempts != NULL)
		*attempts = gen.attempts;
}

/* Unique, minimal, rated as asked: checked with the public API only. */
static void
gen_check(const struct sudoku_grid *p, enum sudoku_level level,
    const struct sudoku_rating *r)
{
	struct sudoku_grid	 q, sol;
	struct sudoku_rating	 r2;
	unsigned long		 n;
	char			 s[SUDOKU_CELLS + 1];
	int			 i, givens = 0;

	gen_text(p, s);
	assert_int_equal(sudoku_count(p, 2, 0, &n, &sol, NULL), SUDOKU_SOLVED);
	if (n != 1)
		test_fail("%s: COUNT 2 says %lu", s, n);
	assert_true(checker_solution(p->cell, sol.cell, NULL, 0));
	for (i = 0; i < SUDOKU_CELLS; i++) {
		if (p->cell[i] == 0)
			continue;
		givens++;
		q = *p;
		q.cell[i] = 0;
		assert_int_equal(sudoku_count(&q, 2, 0, &n, NULL, NULL),
		    SUDOKU_SOLVED);
		if (n != 2)
			test_fail("%s: not minimal, r%dc%d can go", s,
			    i / 9 + 1, i % 9 + 1);
	}
	assert_true(givens >= 17);
	assert_int_equal(sudoku_rate(p, 0, &r2), SUDOKU_SOLVED);
	if (r2.level != level)
		test_fail("%s: rated %s, asked %s", s,
		    sudoku_level_name(r2.level), sudoku_level_name(level));
	assert_memory_equal(&r2, r, sizeof r2);
}

void
test_gen_levels(void **state)
{
	struct sudoku_grid	 p, p2;
	struct sudoku_rating	 r, r2;
	unsigned long		 attempts, total = 0;
	uint64_t		 seed;
	int			 level;
	char			 s[SUDOKU_CELLS + 1];

	(void)state;
	for (level = 0; level < SUDOKU_LEVEL_COUNT; level++) {
		for (seed = 100; seed < 104; seed++) {
			gen_one(seed, level, &p, &r, &attempts);
			total += attempts;
			gen_check(&p, level, &r);
			gen_one(seed, level, &p2, &r2, NULL);
			gen_text(&p, s);
			if (memcmp(&p, &p2, sizeof p) != 0)
				test_fail("seed %llu %s: not the same twice",
				    (unsigned long long)seed,
				    sudoku_level_name(level));
		}
	}
	print_message("# generate: 20 puzzles, %lu attempts\n", total);
}

void
test_gen_golden(void **state)
{
	struct sudoku_grid	 p;
	struct sudoku_rating	 r;
	char			 s[SUDOKU_CELLS + 1];
	size_t			 i;
	int			 bad = 0;

	(void)state;
	for (i = 0; i < sizeof gen_golden / sizeof gen_golden[0]; i++) {
		gen_one(gen_golden[i].seed, gen_golden[i].level, &p, &r, NULL);
		gen_text(&p, s);
		if (strcmp(s, gen_golden[i].puzzle) != 0) {
			print_message("# seed %llu %s: got %s\n",
			    (unsigned long long)gen_golden[i].seed,
			    sudoku_level_name(gen_golden[i].level), s);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* One attempt per call gives the same answer as one call for all. */
void
test_gen_slices(void **state)
{
	struct sudoku_gen	 gen;
	struct sudoku_grid	 p, q;
	struct sudoku_rating	 r, r2;
	enum sudoku_gen_result	 res;
	unsigned long		 attempts, calls = 0;

	(void)state;
	gen_one(7, SUDOKU_LEVEL_HARD, &p, &r, &attempts);
	assert_true(attempts > 1);
	sudoku_gen_init(&gen, 7, SUDOKU_LEVEL_HARD, 0);
	while ((res = sudoku_gen_run(&gen, 1, &q, &r2)) == SUDOKU_GEN_MORE) {
		calls++;
		assert_int_equal(gen.attempts, calls);
	}
	assert_int_equal(res, SUDOKU_GEN_FOUND);
	assert_int_equal(gen.attempts, attempts);
	assert_memory_equal(&p, &q, sizeof p);
	assert_memory_equal(&r, &r2, sizeof r);
	/* Asking again after FOUND: the same answer, no work. */
	memset(&q, 0, sizeof q);
	assert_int_equal(sudoku_gen_run(&gen, 5, &q, NULL), SUDOKU_GEN_FOUND);
	assert_memory_equal(&p, &q, sizeof p);
	assert_int_equal(gen.attempts, attempts);
	/* Zero attempts: nothing done. */
	sudoku_gen_init(&gen, 7, SUDOKU_LEVEL_HARD, 0);
	assert_int_equal(sudoku_gen_run(&gen, 0, &q, NULL), SUDOKU_GEN_MORE);
	assert_int_equal(gen.attempts, 0);
}

void
test_gen_budget(void **state)
{
	struct sudoku_gen	 gen;
	struct sudoku_grid	 p;
	uint64_t		 budget;

	(void)state;
	/* An attempt takes about a hundred guesses: none can finish. */
	for (budget = 1; budget <= 30; budget *= 3) {
		sudoku_gen_init(&gen, 1, SUDOKU_LEVEL_EXTREME, budget);
		while (sudoku_gen_run(&gen, 1, &p, NULL) == SUDOKU_GEN_MORE)
			;
		assert_int_equal(sudoku_gen_run(&gen, 1, &p, NULL),
		    SUDOKU_GEN_BUDGET);
		assert_true(gen.spent <= budget);
		assert_int_equal(gen.attempts, 0);
	}
	sudoku_gen_init(&gen, 1, SUDOKU_LEVEL_EASY, 0);
	assert_int_equal(gen.budget, SUDOKU_BUDGET_DEFAULT);
}

/*
 * Whatever the seed and budget, the guesses spent are at most the
 * budget, with options or without: GENERATE's effort=1 reports them.
 * (A grid fill at a dead end with the budget spent once counted one
 * guess more before it stopped.)
 */
void
test_gen_budget_seeds(void **state)
{
	static const uint64_t	 budgets[] = { 1, 2, 3, 5, 8, 13, 40, 100,
				    150, 300, 1000 };
	struct sudoku_gen_opts	 rot = { .symmetry = SUDOKU_SYM_ROT180 };
	struct sudoku_genx	 x;
	struct sudoku_gen	 gen;
	struct sudoku_grid	 p;
	uint64_t		 seed;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof budgets / sizeof budgets[0]; i++)
		for (seed = 1; seed <= 40; seed++) {
			sudoku_gen_init(&gen, seed, SUDOKU_LEVEL_EXTREME,
			    budgets[i]);
			(void)sudoku_gen_run(&gen, GEN_SLICE, &p, NULL);
			if (gen.spent > budgets[i])
				fail_msg("seed %llu budget %llu: %llu guesses",
				    (unsigned long long)seed,
				    (unsigned long long)budgets[i],
				    (unsigned long long)gen.spent);
			assert_int_equal(sudoku_genx_init(&x, seed,
			    SUDOKU_LEVEL_EXTREME, budgets[i], &rot), 0);
			(void)sudoku_genx_run(&x, GEN_SLICE, &p, NULL);
			assert_true(x.gen.spent <= budgets[i]);
		}
}
