/* SPDX-License-Identifier: ISC */
/*
 * toolbench.c -- speed of the toolbox of the solver core, single
 * thread: CANON (canonical forms) on the puzzle sets and on complete
 * grids; GENERATE under each symmetry, per level; the odds of each
 * level and the givens of a random minimal puzzle under each symmetry;
 * GENERATE with a pattern; MINIMIZE and CONSTRAIN.
 *
 * Timings: the sets (or levels) take turns pass after pass, so that a
 * slow spell of the shared machine hits all of them, and the median
 * pass is reported.  Every answer is checked on the first pass (a form
 * is its own form and the same for a shuffled copy; a generated puzzle
 * has one solution, the symmetry and the level asked; a reduced one is
 * proper), and the exit status is 1 if one is wrong.
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

#define TB_MAX_PASSES	99
#define TB_GRIDS	2000	/* complete grids for CANON */

struct tb_set {
	const char		*name;
	struct sudoku_grid	*g;
	size_t			 n;
	double			 rates[TB_MAX_PASSES];
};

static size_t	tb_bad;

static void __attribute__((noreturn))
tb_usage(void)
{
	fprintf(stderr, "usage: toolbench [-d dir] [-g seeds] [-n passes] "
	    "[-o seeds]\n");
	exit(2);
}

static double
tb_now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

static int
tb_cmp(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return ((x > y) - (x < y));
}

static double
tb_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof v[0], tb_cmp);
	return (v[n / 2]);
}

static void
tb_wrong(const char *what, const struct sudoku_grid *g)
{
	char	 s[SUDOKU_CELLS];

	sudoku_format(g, s);
	fprintf(stderr, "toolbench: %s: %.81s\n", what, s);
	tb_bad++;
}

static void
tb_load(const char *dir, const char *name, struct tb_set *set)
{
	struct sets_grids	 s;

	memset(set, 0, sizeof *set);
	set->name = name;
	sets_read_in("toolbench", dir, name, &s);
	set->g = s.g;
	set->n = s.n;
}

/* Checked once: the form of a shuffled copy, and of the form itself. */
static void
tb_canon_check(const struct sudoku_grid *g, uint64_t seed)
{
	struct sudoku_grid	 f, f2, h;
	unsigned long		 a, a2;

	if (sudoku_canon(g, &f, &a, NULL) != 0) {
		tb_wrong("CANON refused", g);
		return;
	}
	sudoku_shuffle(g, seed, &h, NULL);
	if (sudoku_canon(&h, &f2, &a2, NULL) != 0 ||
	    memcmp(&f, &f2, sizeof f) != 0 || a != a2)
		tb_wrong("CANON differs for a shuffled copy", g);
	if (sudoku_canon(&f, &f2, &a2, NULL) != 0 ||
	    memcmp(&f, &f2, sizeof f) != 0)
		tb_wrong("CANON of a form is another form", g);
}

static void
tb_canon_pass(struct tb_set *set, int pass)
{
	struct sudoku_grid	 f;
	unsigned long		 a;
	size_t			 i;
	double			 start = tb_now();

	for (i = 0; i < set->n; i++)
		(void)sudoku_canon(&set->g[i], &f, &a, NULL);
	set->rates[pass] = (double)set->n / (tb_now() - start);
	if (pass == 0)
		for (i = 0; i < set->n; i += set->n > 5000 ? 7 : 1)
			tb_canon_check(&set->g[i], i);
}

static void
tb_canon(const char *dir, int passes)
{
	static const char *const names[] = { "puzzles2_17_clue",
	    "puzzles3_magictour_top1465", "puzzles6_forum_hardest_1106" };
	struct tb_set	 sets[4];
	size_t		 i, n;
	double		 r;
	int		 p, k;

	for (k = 0; k < 3; k++)
		tb_load(dir, names[k], &sets[k]);
	/* Complete grids: the solutions of the first 17-clue puzzles. */
	n = sets[0].n < TB_GRIDS ? sets[0].n : TB_GRIDS;
	memset(&sets[3], 0, sizeof sets[3]);
	sets[3].name = "complete grids (17-clue sols)";
	if ((sets[3].g = calloc(n, sizeof *sets[3].g)) == NULL)
		exit(2);
	for (i = 0; i < n; i++)
		if (sudoku_solve(&sets[0].g[i], SUDOKU_ANY, 0, &sets[3].g[i],
		    NULL) == SUDOKU_SOLVED)
			sets[3].n++;
	printf("CANON, median of %d passes, sets taking turns\n", passes);
	printf("%-30s %8s %12s %10s\n", "set", "puzzles", "puzzles/s",
	    "us/puzzle");
	for (p = 0; p < passes; p++)
		for (k = 0; k < 4; k++)
			tb_canon_pass(&sets[k], p);
	for (k = 0; k < 4; k++) {
		r = tb_median(sets[k].rates, passes);
		printf("%-30s %8zu %12.0f %10.2f\n", sets[k].name, sets[k].n,
		    r, 1e6 / r);
		free(sets[k].g);
	}
}

/* Unique, symmetric, of the level: independent of the generator. */
static void
tb_gen_check(const struct sudoku_grid *p, enum sudoku_level level,
    enum sudoku_symmetry s)
{
	struct sudoku_rating	 r;
	unsigned long		 n;

	if (sudoku_count(p, 2, 0, &n, NULL, NULL) != SUDOKU_SOLVED ||
	    n != 1 || !sudoku_symmetry_holds(s, p->cell) ||
	    sudoku_rate(p, 0, &r) != SUDOKU_SOLVED ||
	    (level != SUDOKU_LEVEL_ANY && r.level != level))
		tb_wrong("GENERATE", p);
}

/* One generation, an attempt per call as a daemon runs it: seconds. */
static double
tb_gen_one(uint64_t seed, enum sudoku_level level,
    const struct sudoku_gen_opts *o, unsigned long *attempts, int check)
{
	struct sudoku_genx	 x;
	struct sudoku_grid	 p;
	enum sudoku_gen_result	 res;
	double			 t0 = tb_now(), t;

	sudoku_genx_init(&x, seed, level, 0, o);
	while ((res = sudoku_genx_run(&x, 1, &p, NULL)) == SUDOKU_GEN_MORE)
		;
	t = tb_now() - t0;
	*attempts += x.gen.attempts;
	if (res != SUDOKU_GEN_FOUND) {
		tb_wrong("GENERATE ran out of budget", &p);
		return (t);
	}
	if (check)
		tb_gen_check(&p, level, o->symmetry);
	return (t);
}

struct tb_gen_cell {
	double		 ms[TB_MAX_PASSES];
	double		 worst;
	unsigned long	 attempts;
};

static void
tb_gen_print(int s, struct tb_gen_cell *c, int passes, int nseeds)
{
	int	 l;

	printf("%-13s", sudoku_symmetry_name(s));
	for (l = 0; l < SUDOKU_LEVEL_COUNT; l++)
		printf(" %6.2f %5.1f %5.0f", tb_median(c[l].ms, passes),
		    (double)c[l].attempts / nseeds, c[l].worst);
	printf("\n");
}

/* GENERATE per symmetry and level: ms per puzzle, attempts, worst ms. */
static void
tb_generate(int nseeds, int passes)
{
	struct tb_gen_cell	 cell[SUDOKU_SYM_COUNT][SUDOKU_LEVEL_COUNT];
	struct sudoku_gen_opts	 o;
	unsigned long		 att;
	double			 t, sum, worst;
	int			 p, s, l, k;

	memset(cell, 0, sizeof cell);
	memset(&o, 0, sizeof o);
	printf("\nGENERATE, seeds 1-%d per level and symmetry, one attempt "
	    "per call, median of %d passes:\n", nseeds, passes);
	printf("ms per puzzle, attempts per puzzle, slowest puzzle (ms)\n");
	printf("%-13s", "symmetry");
	for (l = 0; l < SUDOKU_LEVEL_COUNT; l++)
		printf(" %-18s", sudoku_level_name(l));
	printf("\n");
	for (p = 0; p < passes; p++)
		for (s = 0; s < SUDOKU_SYM_COUNT; s++)
			for (l = 0; l < SUDOKU_LEVEL_COUNT; l++) {
				o.symmetry = s;
				att = 0;
				for (k = 1, sum = worst = 0; k <= nseeds; k++) {
					t = tb_gen_one((uint64_t)k, l, &o,
					    &att, p == 0);
					sum += t;
					if (t > worst)
						worst = t;
				}
				cell[s][l].ms[p] = sum / nseeds * 1e3;
				cell[s][l].attempts = att;
				if (p == 0 || worst * 1e3 < cell[s][l].worst)
					cell[s][l].worst = worst * 1e3;
			}
	for (s = 0; s < SUDOKU_SYM_COUNT; s++)
		tb_gen_print(s, cell[s], passes, nseeds);
}

/* The first attempt of seeds 1..nseeds under each symmetry. */
static void
tb_odds(int nseeds)
{
	struct sudoku_gen_opts	 o;
	struct sudoku_genx	 x;
	struct sudoku_grid	 p;
	unsigned long		 seen[SUDOKU_LEVEL_COUNT];
	uint64_t		 guesses;
	double			 t0, mean;
	int			 s, k, l, n, lo, hi;

	printf("\nodds among random minimal puzzles (the first attempt of "
	    "seeds 1-%d; ANY level)\n", nseeds);
	printf("%-13s %6s %6s %6s %6s %6s  %-14s %9s %8s\n", "symmetry",
	    "easy", "medium", "hard", "expert", "extr.", "givens lo-hi/mean",
	    "us/att.", "guesses");
	memset(&o, 0, sizeof o);
	for (s = 0; s < SUDOKU_SYM_COUNT; s++) {
		o.symmetry = s;
		memset(seen, 0, sizeof seen);
		guesses = 0;
		lo = 81, hi = 0, mean = 0;
		t0 = tb_now();
		for (k = 1; k <= nseeds; k++) {
			sudoku_genx_init(&x, (uint64_t)k, SUDOKU_LEVEL_ANY, 0,
			    &o);
			sudoku_genx_run(&x, 1, &p, NULL);
			for (l = 0; l < SUDOKU_LEVEL_COUNT; l++)
				seen[l] += x.gen.seen[l];
			for (l = n = 0; l < SUDOKU_CELLS; l++)
				n += p.cell[l] != 0;
			lo = n < lo ? n : lo;
			hi = n > hi ? n : hi;
			mean += n;
			guesses += x.gen.spent;
		}
		t0 = tb_now() - t0;
		printf("%-13s", sudoku_symmetry_name(s));
		for (l = 0; l < SUDOKU_LEVEL_COUNT; l++)
			printf(" %5.1f%%", 100.0 * seen[l] / nseeds);
		printf("  %2d-%2d %5.1f     %9.0f %8.0f\n", lo, hi,
		    mean / nseeds, t0 / nseeds * 1e6,
		    (double)guesses / nseeds);
	}
}

/* GENERATE pattern=: the pattern of puzzles the generator made. */
static void
tb_pattern(int nseeds)
{
	struct sudoku_gen_opts	 o, shape;
	struct sudoku_genx	 x;
	struct sudoku_grid	 p;
	unsigned long		 att;
	double			 t, t1, worst;
	int			 k, i, n, s;

	printf("\nGENERATE pattern=, the shapes of the first puzzles of "
	    "seeds 1-%d, any level\n", nseeds);
	printf("%-13s %8s %10s %12s %10s\n", "shape", "givens", "ms/puzzle",
	    "steps/puzzle", "worst ms");
	for (s = 0; s < 2; s++) {
		memset(&shape, 0, sizeof shape);
		shape.symmetry = s ? SUDOKU_SYM_ROT180 : SUDOKU_SYM_NONE;
		t = worst = 0;
		att = 0;
		n = 0;
		for (k = 1; k <= nseeds; k++) {
			sudoku_genx_init(&x, (uint64_t)k + 1000,
			    SUDOKU_LEVEL_ANY, 0, &shape);
			sudoku_genx_run(&x, 1, &p, NULL);
			memset(&o, 0, sizeof o);
			o.use_pattern = 1;
			for (i = 0; i < SUDOKU_CELLS; i++) {
				o.pattern[i] = p.cell[i] != 0;
				n += o.pattern[i];
			}
			t1 = tb_gen_one((uint64_t)k, SUDOKU_LEVEL_ANY, &o,
			    &att, 1);
			t += t1;
			worst = t1 > worst ? t1 : worst;
		}
		printf("%-13s %8.1f %10.2f %12.1f %10.1f\n",
		    sudoku_symmetry_name(shape.symmetry), (double)n / nseeds,
		    t / nseeds * 1e3, (double)att / nseeds, worst * 1e3);
	}
}

/* A reduce to the end, in slices of 64 guesses; seconds. */
static double
tb_reduce_one(int kind, const struct sudoku_grid *in, uint64_t seed,
    uint64_t *guesses)
{
	struct sudoku_reduce	 r;
	struct sudoku_grid	 out;
	struct sudoku_stats	 st;
	enum sudoku_result	 res;
	unsigned long		 n;
	double			 t0 = tb_now(), t;

	if (kind)
		sudoku_constrain_init(&r, in, seed, 0);
	else
		sudoku_minimize_init(&r, in, seed, 0);
	while ((res = sudoku_reduce_run(&r, 64)) == SUDOKU_MORE)
		;
	t = tb_now() - t0;
	sudoku_reduce_result(&r, &out, &st);
	*guesses += st.guesses;
	if (res != SUDOKU_SOLVED || sudoku_count(&out, 2, 0, &n, NULL,
	    NULL) != SUDOKU_SOLVED || n != 1)
		tb_wrong(kind ? "CONSTRAIN" : "MINIMIZE", in);
	return (t);
}

/*
 * MINIMIZE of 40 givens of a solution (the proper ones of 1,000
 * draws), CONSTRAIN of 12 givens of one.
 */
static void
tb_reduce(void)
{
	struct sudoku_grid	 g, sol, in;
	uint64_t		 guesses;
	unsigned long		 n;
	double			 t, t1, worst;
	int			 kind, k, i, done;

	printf("\nMINIMIZE (40 givens of a grid) and CONSTRAIN (12 givens), "
	    "slices of 64 guesses\n");
	printf("%-10s %8s %10s %10s %10s\n", "verb", "puzzles", "us/puzzle",
	    "guesses", "worst us");
	memset(&g, 0, sizeof g);
	for (kind = 0; kind < 2; kind++) {
		t = worst = 0;
		guesses = 0;
		done = 0;
		for (k = 1; k <= 1000; k++) {
			sudoku_shuffle(&g, (uint64_t)k, &in, NULL);
			(void)sudoku_solve(&in, SUDOKU_ANY, 0, &sol, NULL);
			sudoku_shuffle(&sol, (uint64_t)k, &sol, NULL);
			in = sol;
			for (i = 0; i < SUDOKU_CELLS; i++)
				if ((i * 7 + k) % 81 >= (kind ? 12 : 40))
					in.cell[i] = 0;
			if (!kind && (sudoku_count(&in, 2, 0, &n, NULL,
			    NULL) != SUDOKU_SOLVED || n != 1))
				continue;
			t1 = tb_reduce_one(kind, &in, (uint64_t)k, &guesses);
			t += t1;
			worst = t1 > worst ? t1 : worst;
			done++;
		}
		printf("%-10s %8d %10.1f %10.1f %10.0f\n", kind ? "CONSTRAIN" :
		    "MINIMIZE", done, t / done * 1e6, (double)guesses / done,
		    worst * 1e6);
	}
}

int
main(int argc, char **argv)
{
	const char	*dir = PUZZLE_DIR;
	int		 ch, passes = 5, gseeds = 20, oseeds = 1000;

	while ((ch = getopt(argc, argv, "d:g:n:o:")) != -1) {
		switch (ch) {
		case 'd':
			dir = optarg;
			break;
		case 'g':
			if ((gseeds = atoi(optarg)) < 1)
				tb_usage();
			break;
		case 'n':
			passes = atoi(optarg);
			if (passes < 1 || passes > TB_MAX_PASSES)
				tb_usage();
			break;
		case 'o':
			if ((oseeds = atoi(optarg)) < 1)
				tb_usage();
			break;
		default:
			tb_usage();
		}
	}
	if (optind != argc)
		tb_usage();
	tb_canon(dir, passes);
	tb_generate(gseeds, passes);
	tb_odds(oseeds);
	tb_pattern(gseeds);
	tb_reduce();
	if (tb_bad != 0) {
		fprintf(stderr, "toolbench: %zu wrong answers\n", tb_bad);
		return (1);
	}
	printf("all answers checked\n");
	return (0);
}
