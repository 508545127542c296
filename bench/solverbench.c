/* SPDX-License-Identifier: ISC */
/*
 * solverbench.c -- single-thread speed of the solver core on puzzle sets.
 *
 * For each set and mode: one untimed pass whose answers are checked by
 * code independent of the solver (every unit holds 1..9 once, givens
 * kept, count2 as the set promises), then timed passes (at least -n, and
 * at least BENCH_MIN_SECONDS in all); the median pass is reported.  Then
 * the fixed cost of a call (bench_fixed()).  Exits 1 if any answer is
 * wrong.
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
/* The source tree's data/, where a default set missing from -d is read. */
#ifndef DATA_SRCDIR
#define DATA_SRCDIR	"data"
#endif

#define BENCH_MIN_SECONDS	0.5	/* timed time per set and mode */
#define BENCH_MAX_PASSES	1000

enum bench_mode {
	BENCH_ANY,
	BENCH_LEXMIN,
	BENCH_COUNT,
	BENCH_FIXED		/* not a mode of bench_run(): bench_fixed() */
};

static const char *const bench_mode_names[] = { "any", "lexmin", "count2" };

/* The default sets and the count2 answer each of their puzzles has. */
static const struct {
	const char	*name;
	unsigned long	 count2;
} bench_sets[] = {
	{ "puzzles2_17_clue", 1 },
	{ "puzzles3_magictour_top1465", 1 },
	{ "puzzles6_forum_hardest_1106", 1 },
	{ "puzzles7_many_solutions", 2 },
	{ "puzzles8_many_solutions_bands", 2 }
};
#define BENCH_NSETS	(sizeof bench_sets / sizeof bench_sets[0])

/* Fixed cost per call: how many grids, and from which set. */
#define BENCH_FIXED_GRIDS	20000
#define BENCH_FIXED_SET		"puzzles2_17_clue"

struct bench_set {
	const char		*name;
	struct sudoku_grid	*in;
	struct sudoku_grid	*out;
	unsigned long		*count;
	size_t			 n;
	unsigned long		 count2; /* every puzzle's count2, or 0 */
};

struct bench_result {
	double		 rate;		/* puzzles per second, median pass */
	double		 guesses;	/* per puzzle */
	int		 passes;
	size_t		 wrong;
};

static void __attribute__((noreturn))
bench_usage(void)
{
	fprintf(stderr, "usage: solverbench [-d dir] [-m any|lexmin|count2|fixed] "
	    "[-n passes] [-s set-file]\n");
	exit(2);
}

/* Reads one set; exits on a line that is not a puzzle. */
static void
bench_load(const char *path, struct bench_set *set)
{
	struct sets_grids	 s;

	sets_read("solverbench", path, &s);
	set->in = s.g;
	set->n = s.n;
	set->out = calloc(set->n, sizeof *set->out);
	set->count = calloc(set->n, sizeof *set->count);
	if (set->out == NULL || set->count == NULL) {
		perror("calloc");
		exit(2);
	}
}

/* Independent check: sol is complete and valid and keeps the givens. */
static int
bench_valid(const struct sudoku_grid *in, const struct sudoku_grid *sol)
{
	unsigned int	 row[9] = { 0 }, col[9] = { 0 }, box[9] = { 0 }, bit;
	int		 i, r, c, v;

	for (i = 0; i < SUDOKU_CELLS; i++) {
		v = sol->cell[i];
		if (v < 1 || v > 9 || (in->cell[i] != 0 && in->cell[i] != v))
			return (0);
		r = i / 9;
		c = i % 9;
		bit = 1u << v;
		if ((row[r] | col[c] | box[r / 3 * 3 + c / 3]) & bit)
			return (0);
		row[r] |= bit;
		col[c] |= bit;
		box[r / 3 * 3 + c / 3] |= bit;
	}
	return (1);
}

static double
bench_now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

/* One pass over the set; returns the guesses made, or -1 on a failure. */
static long long
bench_pass(struct bench_set *set, enum bench_mode mode)
{
	struct sudoku_stats	 st;
	enum sudoku_result	 res;
	long long		 guesses = 0, bad = 0;
	size_t			 i;

	for (i = 0; i < set->n; i++) {
		if (mode == BENCH_COUNT)
			res = sudoku_count(&set->in[i], 2, 0, &set->count[i],
			    &set->out[i], &st);
		else {
			res = sudoku_solve(&set->in[i], mode == BENCH_LEXMIN ?
			    SUDOKU_LEXMIN : SUDOKU_ANY, 0, &set->out[i], &st);
			set->count[i] = 1;
		}
		bad |= res != SUDOKU_SOLVED;
		guesses += st.guesses;
	}
	return (bad ? -1 : guesses);
}

/* Checks the answers of the last pass; returns how many are wrong. */
static size_t
bench_check(const struct bench_set *set, enum bench_mode mode)
{
	size_t	 i, wrong = 0;

	for (i = 0; i < set->n; i++) {
		if (!bench_valid(&set->in[i], &set->out[i]) ||
		    (mode == BENCH_COUNT && set->count2 != 0 &&
		    set->count[i] != set->count2)) {
			if (wrong++ < 5)
				fprintf(stderr, "solverbench: %s: puzzle %zu: "
				    "wrong answer (%s)\n", set->name, i + 1,
				    bench_mode_names[mode]);
		}
	}
	return (wrong);
}

static int
bench_cmp(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return ((x > y) - (x < y));
}

static void
bench_run(struct bench_set *set, enum bench_mode mode, int passes,
    struct bench_result *br)
{
	double		 rates[BENCH_MAX_PASSES], t0, t, total = 0;
	long long	 g;
	int		 k;

	memset(br, 0, sizeof *br);
	g = bench_pass(set, mode);
	br->wrong = bench_check(set, mode);
	if (g < 0 && br->wrong == 0)
		br->wrong = 1;	/* a budget or invalid result */
	br->guesses = g < 0 ? 0 : (double)g / set->n;
	for (k = 0; k < BENCH_MAX_PASSES; k++) {
		if (k >= passes && total >= BENCH_MIN_SECONDS)
			break;
		t0 = bench_now();
		bench_pass(set, mode);
		t = bench_now() - t0;
		total += t;
		rates[k] = set->n / (t > 0 ? t : 1e-9);
	}
	br->passes = k;
	qsort(rates, k, sizeof rates[0], bench_cmp);
	br->rate = rates[k / 2];
	br->wrong += bench_check(set, mode);
}

static const char *
bench_base(const char *path)
{
	const char	*s = strrchr(path, '/');

	return (s != NULL ? s + 1 : path);
}

/* Benchmarks one file in the selected modes; returns answers wrong. */
static size_t
bench_file(const char *path, unsigned long count2, int modes, int passes,
    size_t *checked)
{
	struct bench_set	 set;
	struct bench_result	 br;
	size_t			 wrong = 0;
	int			 m;

	memset(&set, 0, sizeof set);
	set.name = bench_base(path);
	set.count2 = count2;
	bench_load(path, &set);
	for (m = BENCH_ANY; m <= BENCH_COUNT; m++) {
		if ((modes & (1 << m)) == 0)
			continue;
		bench_run(&set, m, passes, &br);
		printf("%-28s %8zu  %-7s %11.0f %10.2f %10.2f %6d%s\n",
		    set.name, set.n, bench_mode_names[m], br.rate,
		    1e6 / br.rate, br.guesses, br.passes,
		    br.wrong ? "  WRONG" : "");
		fflush(stdout);
		wrong += br.wrong;
		*checked += 2 * set.n;	/* warm-up and last timed pass */
	}
	free(set.in);
	free(set.out);
	free(set.count);
	return (wrong);
}

/* The median of k pass times per call, in ns. */
static double
bench_median_ns(double *t, int k, size_t calls)
{
	qsort(t, k, sizeof t[0], bench_cmp);
	return (t[k / 2] / calls * 1e9);
}

/*
 * Times n calls on grids g (text: from their 81-character text, parsed
 * and formatted in the loop); every answer must be want.  Returns the
 * median ns per call, or -1 if an answer is wrong.
 */
static double
bench_fixed_time(const struct sudoku_grid *g, const char (*text)[81],
    const struct sudoku_grid *want, size_t n, int passes)
{
	double			 t[BENCH_MAX_PASSES], t0, total = 0;
	struct sudoku_grid	 in, out;
	char			 line[SUDOKU_CELLS];
	size_t			 i, c, bad = 0;
	int			 k;

	/* Pass 0 is the warm-up, where every answer is compared whole. */
	for (k = 0; k < BENCH_MAX_PASSES; k++) {
		if (k > passes && total >= BENCH_MIN_SECONDS)
			break;
		t0 = bench_now();
		for (i = 0; i < n; i++) {
			c = (i * 7) % SUDOKU_CELLS;	/* the blank */
			if (text == NULL)
				bad |= sudoku_solve(&g[i], SUDOKU_ANY, 0, &out,
				    NULL) != SUDOKU_SOLVED;
			else {
				bad |= sudoku_parse(text[i], SUDOKU_CELLS, &in,
				    NULL) != 0;
				bad |= sudoku_solve(&in, SUDOKU_ANY, 0, &out,
				    NULL) != SUDOKU_SOLVED;
				sudoku_format(&out, line);
				bad |= line[c] != '0' + want[i].cell[c];
			}
			bad |= out.cell[c] != want[i].cell[c];
			if (k == 0)
				bad |= memcmp(&out, &want[i], sizeof out) != 0;
		}
		t[k] = bench_now() - t0;
		if (k > 0)
			total += t[k];
	}
	return (bad ? -1 : bench_median_ns(t + 1, k - 1, n));
}

/*
 * Fixed cost per call: BENCH_FIXED_GRIDS complete grids (the solutions
 * of the first puzzles of path) and the same with one blank each, timed
 * as grids and as text (parse, solve, format).  Returns answers wrong.
 */
static size_t
bench_fixed(const char *path, int passes, size_t *checked)
{
	struct bench_set	 set;
	struct sudoku_grid	*full, *one;
	char			(*text)[81];
	double			 ns[4];
	size_t			 n, i, wrong = 0;
	int			 k;

	memset(&set, 0, sizeof set);
	bench_load(path, &set);
	n = set.n < BENCH_FIXED_GRIDS ? set.n : BENCH_FIXED_GRIDS;
	full = calloc(n, sizeof *full);
	one = calloc(n, sizeof *one);
	text = calloc(2 * n, sizeof *text);
	if (full == NULL || one == NULL || text == NULL) {
		perror("calloc");
		exit(2);
	}
	for (i = 0; i < n; i++) {
		if (sudoku_solve(&set.in[i], SUDOKU_ANY, 0, &full[i], NULL) !=
		    SUDOKU_SOLVED || !bench_valid(&set.in[i], &full[i]))
			wrong++;
		one[i] = full[i];
		one[i].cell[(i * 7) % SUDOKU_CELLS] = 0;
		sudoku_format(&full[i], text[i]);
		sudoku_format(&one[i], text[n + i]);
		text[n + i][(i * 7) % SUDOKU_CELLS] = '.';
	}
	ns[0] = bench_fixed_time(full, NULL, full, n, passes);
	ns[1] = bench_fixed_time(full, text, full, n, passes);
	ns[2] = bench_fixed_time(one, NULL, full, n, passes);
	ns[3] = bench_fixed_time(one, text + n, full, n, passes);
	for (k = 0; k < 4; k++)
		wrong += ns[k] < 0;
	*checked += 4 * n;	/* the warm-up pass compares every answer */
	printf("fixed cost per call, %zu grids (solutions of %s):\n"
	    "  complete grid:   %6.0f ns solve, %6.0f ns parse+solve+format"
	    "\n  one blank:       %6.0f ns solve, %6.0f ns parse+solve+format"
	    "%s\n", n, bench_base(path), ns[0], ns[1], ns[2], ns[3],
	    wrong ? "  WRONG" : "");
	free(full);
	free(one);
	free(text);
	free(set.in);
	free(set.out);
	free(set.count);
	return (wrong);
}

static int
bench_parse_mode(const char *s)
{
	int	 m;

	for (m = BENCH_ANY; m <= BENCH_COUNT; m++)
		if (strcmp(s, bench_mode_names[m]) == 0)
			return (1 << m);
	if (strcmp(s, "count") == 0)
		return (1 << BENCH_COUNT);
	if (strcmp(s, "fixed") == 0)
		return (1 << BENCH_FIXED);
	bench_usage();
}

int
main(int argc, char **argv)
{
	const char	*dir = PUZZLE_DIR, *one = NULL;
	char		 path[4096];
	size_t		 wrong = 0, checked = 0, i;
	int		 ch, modes = 0, passes = 5, fixed;

	while ((ch = getopt(argc, argv, "d:m:n:s:")) != -1) {
		switch (ch) {
		case 'd':
			dir = optarg;
			break;
		case 'm':
			modes |= bench_parse_mode(optarg);
			break;
		case 'n':
			passes = atoi(optarg);
			if (passes < 1 || passes > BENCH_MAX_PASSES)
				bench_usage();
			break;
		case 's':
			one = optarg;
			break;
		default:
			bench_usage();
		}
	}
	if (optind != argc)
		bench_usage();
	if (modes == 0)
		modes = 017;
	fixed = (modes & 1 << BENCH_FIXED) != 0;
	printf("solver copy in use: %s (SUDOKU_ISA=generic|sse41|avx2|avx512 "
	    "forces one)\n", sudoku_isa());
	printf("%-28s %8s  %-7s %11s %10s %10s %6s\n", "set", "puzzles",
	    "mode", "puzzles/s", "us/puzzle", "guesses", "passes");
	if (one != NULL && (modes & 7) != 0)
		wrong += bench_file(one, 0, modes, passes, &checked);
	for (i = 0; one == NULL && (modes & 7) != 0 && i < BENCH_NSETS; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, bench_sets[i].name);
		if (access(path, R_OK) != 0)
			snprintf(path, sizeof path, "%s/%s", DATA_SRCDIR,
			    bench_sets[i].name);
		wrong += bench_file(path, bench_sets[i].count2, modes, passes,
		    &checked);
	}
	if (one == NULL && fixed) {
		snprintf(path, sizeof path, "%s/%s", dir, BENCH_FIXED_SET);
		wrong += bench_fixed(path, passes, &checked);
	}
	if (wrong != 0) {
		fprintf(stderr, "solverbench: %zu wrong answers\n", wrong);
		return (1);
	}
	printf("all %zu answers checked: valid, givens kept%s\n", checked,
	    (modes & 1 << BENCH_COUNT) && one == NULL ?
	    ", count2 == 1 (2 on the many-solution sets)" : "");
	return (0);
}
