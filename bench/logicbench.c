/* SPDX-License-Identifier: ISC */
/*
 * logicbench.c -- speed of the logical solver core: RATE on the puzzle
 * sets and GENERATE per level, single thread.
 *
 * RATE: each set is rated in passes, the sets taking turns (set 1, 2,
 * 3, 1, 2, 3, ...) so that a slow spell of the shared machine hits all
 * of them; the median pass is reported, with the levels found and the
 * slowest puzzle (its fastest time over the passes).  Each pass also
 * rates the canonical form of every puzzle (sudoku_canon() then
 * sudoku_rate(): the rating that is the same for every equivalent
 * puzzle, doc/rating.md) right after, and checks that its level and
 * hardest technique are the puzzle's: what that rating costs more.
 *
 * GENERATE: for each level, the same seeds in every pass, levels
 * taking turns; reported: puzzles/s of the median pass, attempts per
 * puzzle, the slowest puzzle.  Every puzzle is checked (sudoku_count
 * says 1, sudoku_rate gives the level).  Then the odds: the level of
 * the first minimal puzzle of each of -o seeds, and the cost of one
 * attempt.  Exits 1 if an answer is wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/sudoku.h"
#include "sets.h"

#ifndef PUZZLE_DIR
#define PUZZLE_DIR	"."
#endif

#define BENCH_MAX_PASSES	99

static const char *const bench_sets[] = {
	"puzzles2_17_clue",
	"puzzles3_magictour_top1465",
	"puzzles6_forum_hardest_1106"
};
#define BENCH_NSETS	3

struct bench_set {
	const char		*name;
	struct sudoku_grid	*in;
	double			*best;		/* per puzzle, fastest pass */
	double			 rates[BENCH_MAX_PASSES];
	double			 crates[BENCH_MAX_PASSES];	/* canonical */
	unsigned long		 levels[SUDOKU_LEVEL_COUNT];
	size_t			 n;
};

static void __attribute__((noreturn))
bench_usage(void)
{
	fprintf(stderr, "usage: logicbench [-d dir] [-g seeds] [-n passes] "
	    "[-o seeds]\n");
	exit(2);
}

static double
bench_now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

static int
bench_cmp(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return ((x > y) - (x < y));
}

static double
bench_median(double *v, int n)
{
	qsort(v, n, sizeof v[0], bench_cmp);
	return (v[n / 2]);
}

/* Reads one set; exits on a line that is not a puzzle. */
static void
bench_load(const char *dir, const char *name, struct bench_set *set)
{
	struct sets_grids	 s;

	memset(set, 0, sizeof *set);
	set->name = name;
	sets_read_in("logicbench", dir, name, &s);
	set->in = s.g;
	set->n = s.n;
	if ((set->best = calloc(set->n, sizeof *set->best)) == NULL)
		exit(2);
}

/* One pass of RATE over a set; returns the failures. */
static size_t
bench_rate_pass(struct bench_set *set, int pass)
{
	struct sudoku_rating	 r;
	size_t			 i, bad = 0;
	double			 t0, t, start = bench_now();

	for (i = 0; i < set->n; i++) {
		t0 = bench_now();
		if (sudoku_rate(&set->in[i], 0, &r) != SUDOKU_SOLVED)
			bad++;
		t = bench_now() - t0;
		if (pass == 0 || t < set->best[i])
			set->best[i] = t;
		if (pass == 0)
			set->levels[r.level]++;
	}
	set->rates[pass] = set->n / (bench_now() - start);
	return (bad);
}

/*
 * One pass of the canonical form's rating; returns the puzzles whose
 * level or hardest technique is not the puzzle's own.
 */
static size_t
bench_canon_pass(struct bench_set *set, int pass)
{
	struct sudoku_rating	 r, rc;
	struct sudoku_grid	 form;
	size_t			 i, bad = 0;
	double			 start = bench_now();

	for (i = 0; i < set->n; i++) {
		if (sudoku_canon(&set->in[i], &form, NULL, NULL) != 0 ||
		    sudoku_rate(&form, 0, &rc) != SUDOKU_SOLVED)
			bad++;
		else if (pass == 0 && (sudoku_rate(&set->in[i], 0, &r) !=
		    SUDOKU_SOLVED || r.level != rc.level ||
		    r.hardest != rc.hardest))
			bad++;
	}
	set->crates[pass] = set->n / (bench_now() - start);
	return (bad);
}

static size_t
bench_rate(const char *dir, int passes)
{
	struct bench_set	 sets[BENCH_NSETS];
	size_t			 bad = 0, i, k;
	double			 worst, rate;
	int			 p;

	printf("RATE, median of %d passes, sets taking turns\n", passes);
	printf("%-28s %8s %10s %10s %10s  %s\n", "set", "puzzles",
	    "puzzles/s", "us/puzzle", "worst us", "easy/medium/hard/expert/"
	    "extreme");
	for (i = 0; i < BENCH_NSETS; i++)
		bench_load(dir, bench_sets[i], &sets[i]);
	for (p = 0; p < passes; p++)
		for (i = 0; i < BENCH_NSETS; i++) {
			bad += bench_rate_pass(&sets[i], p);
			bad += bench_canon_pass(&sets[i], p);
		}
	for (i = 0; i < BENCH_NSETS; i++) {
		for (k = 0, worst = 0; k < sets[i].n; k++)
			if (sets[i].best[k] > worst)
				worst = sets[i].best[k];
		/* The median first: it sorts rates. */
		rate = bench_median(sets[i].rates, passes);
		printf("%-28s %8zu %10.0f %10.1f %10.0f  %lu/%lu/%lu/%lu/%lu\n",
		    sets[i].name, sets[i].n, rate, 1e6 / rate, worst * 1e6,
		    sets[i].levels[0], sets[i].levels[1], sets[i].levels[2],
		    sets[i].levels[3], sets[i].levels[4]);
	}
	printf("RATE of the canonical form (CANON, then RATE of the form), "
	    "in the same passes\n%-28s %10s %10s %10s\n", "set", "RATE us",
	    "canon us", "canon/RATE");
	for (i = 0; i < BENCH_NSETS; i++) {
		rate = bench_median(sets[i].rates, passes);
		printf("%-28s %10.1f %10.1f %10.2f\n", sets[i].name, 1e6 / rate,
		    1e6 / bench_median(sets[i].crates, passes),
		    rate / bench_median(sets[i].crates, passes));
		free(sets[i].in);
		free(sets[i].best);
	}
	return (bad);
}

/* Independent of the generator: one solution, rated as asked. */
static int
bench_gen_check(const struct sudoku_grid *p, enum sudoku_level level)
{
	struct sudoku_rating	 r;
	unsigned long		 n;

	return (sudoku_count(p, 2, 0, &n, NULL, NULL) == SUDOKU_SOLVED &&
	    n == 1 && sudoku_rate(p, 0, &r) == SUDOKU_SOLVED &&
	    r.level == level);
}

/* One level, seeds 1..nseeds, one attempt per call as a daemon would. */
static size_t
bench_gen_pass(int level, int nseeds, double *rate, double *worst,
    unsigned long *attempts, int check)
{
	struct sudoku_gen	 gen;
	struct sudoku_grid	 p;
	enum sudoku_gen_result	 res;
	double			 t0, t, start = bench_now();
	size_t			 bad = 0;
	int			 s;

	*attempts = 0;
	for (s = 1; s <= nseeds; s++) {
		t0 = bench_now();
		sudoku_gen_init(&gen, (uint64_t)s, level, 0);
		while ((res = sudoku_gen_run(&gen, 1, &p, NULL)) ==
		    SUDOKU_GEN_MORE)
			;
		t = bench_now() - t0;
		if (t > *worst)
			*worst = t;
		*attempts += gen.attempts;
		if (res != SUDOKU_GEN_FOUND || (check &&
		    !bench_gen_check(&p, level)))
			bad++;
	}
	*rate = nseeds / (bench_now() - start);
	return (bad);
}

static size_t
bench_generate(int nseeds, int passes)
{
	double		 rates[SUDOKU_LEVEL_COUNT][BENCH_MAX_PASSES];
	double		 worst[SUDOKU_LEVEL_COUNT] = { 0 }, w;
	unsigned long	 attempts[SUDOKU_LEVEL_COUNT];
	size_t		 bad = 0;
	int		 p, l;

	printf("\nGENERATE, seeds 1-%d per level, one attempt per call, "
	    "median of %d passes\n", nseeds, passes);
	printf("%-8s %10s %10s %12s %10s\n", "level", "puzzles/s",
	    "ms/puzzle", "attempts/pz", "worst ms");
	for (p = 0; p < passes; p++)
		for (l = 0; l < SUDOKU_LEVEL_COUNT; l++) {
			w = 0;
			bad += bench_gen_pass(l, nseeds, &rates[l][p], &w,
			    &attempts[l], p == 0);
			if (p == 0 || w < worst[l])
				worst[l] = w;
		}
	for (l = 0; l < SUDOKU_LEVEL_COUNT; l++) {
		w = bench_median(rates[l], passes);
		printf("%-8s %10.1f %10.2f %12.1f %10.1f\n",
		    sudoku_level_name(l), w, 1e3 / w,
		    (double)attempts[l] / nseeds, worst[l] * 1e3);
	}
	return (bad);
}

/* The level of the first minimal puzzle of seeds 1..nseeds. */
static void
bench_odds(int nseeds)
{
	struct sudoku_gen	 gen;
	struct sudoku_grid	 p;
	unsigned long		 seen[SUDOKU_LEVEL_COUNT] = { 0 };
	uint64_t		 guesses = 0;
	double			 start = bench_now(), t, t0, worst = 0;
	int			 s, l;

	for (s = 1; s <= nseeds; s++) {
		t0 = bench_now();
		sudoku_gen_init(&gen, (uint64_t)s, SUDOKU_LEVEL_EASY, 0);
		sudoku_gen_run(&gen, 1, &p, NULL);
		if ((t = bench_now() - t0) > worst)
			worst = t;
		for (l = 0; l < SUDOKU_LEVEL_COUNT; l++)
			seen[l] += gen.seen[l];
		guesses += gen.spent;
	}
	t = bench_now() - start;
	printf("\nodds among random minimal puzzles (first attempt of seeds "
	    "1-%d)\n", nseeds);
	for (l = 0; l < SUDOKU_LEVEL_COUNT; l++)
		printf("%-8s %6lu %6.1f %%\n", sudoku_level_name(l), seen[l],
		    100.0 * seen[l] / nseeds);
	printf("one attempt: %.0f us, %.0f guesses; the slowest %.0f us\n",
	    t / nseeds * 1e6, (double)guesses / nseeds, worst * 1e6);
}

int
main(int argc, char **argv)
{
	const char	*dir = PUZZLE_DIR;
	size_t		 bad;
	int		 ch, passes = 5, gseeds = 100, oseeds = 1000;

	while ((ch = getopt(argc, argv, "d:g:n:o:")) != -1) {
		switch (ch) {
		case 'd':
			dir = optarg;
			break;
		case 'g':
			if ((gseeds = atoi(optarg)) < 1)
				bench_usage();
			break;
		case 'n':
			passes = atoi(optarg);
			if (passes < 1 || passes > BENCH_MAX_PASSES)
				bench_usage();
			break;
		case 'o':
			if ((oseeds = atoi(optarg)) < 1)
				bench_usage();
			break;
		default:
			bench_usage();
		}
	}
	if (optind != argc)
		bench_usage();
	bad = bench_rate(dir, passes);
	bad += bench_generate(gseeds, passes);
	bench_odds(oseeds);
	if (bad != 0) {
		fprintf(stderr, "logicbench: %zu wrong answers\n", bad);
		return (1);
	}
	printf("all answers checked: every puzzle rated; every generated "
	    "puzzle unique and of its level\n");
	return (0);
}
