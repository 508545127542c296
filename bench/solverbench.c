/*
 * solverbench.c -- single-thread speed of the solver core on puzzle sets.
 *
 * For each set and mode: one untimed pass whose answers are checked by
 * code independent of the solver (every unit holds 1..9 once, givens
 * kept), then timed passes (at least -n, and at least BENCH_MIN_SECONDS
 * in all); the median pass is reported.  Exits 1 if any answer is wrong.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/sudoku.h"

#ifndef PUZZLE_DIR
#define PUZZLE_DIR	"."
#endif

#define BENCH_MIN_SECONDS	0.5	/* timed time per set and mode */
#define BENCH_MAX_PASSES	1000

enum bench_mode {
	BENCH_ANY,
	BENCH_LEXMIN,
	BENCH_COUNT
};

static const char *const bench_mode_names[] = { "any", "lexmin", "count2" };

static const char *const bench_sets[] = {
	"puzzles2_17_clue",
	"puzzles3_magictour_top1465",
	"puzzles6_forum_hardest_1106"
};

struct bench_set {
	const char		*name;
	struct sudoku_grid	*in;
	struct sudoku_grid	*out;
	unsigned long		*count;
	size_t			 n;
	int			 unique; /* every puzzle has one solution */
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
	fprintf(stderr, "usage: solverbench [-d dir] [-m any|lexmin|count2] "
	    "[-n passes] [-s set-file]\n");
	exit(2);
}

/* Strips a line terminator and trailing blanks; skips '#' and blanks. */
static int
bench_line(char *line, size_t *len)
{
	size_t	 n = strlen(line);

	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' ||
	    line[n - 1] == ' ' || line[n - 1] == '\t'))
		n--;
	*len = n;
	return (n == 0 || line[0] == '#');
}

static void
bench_add(struct bench_set *set, size_t *cap, const struct sudoku_grid *g)
{
	if (set->n == *cap) {
		*cap = *cap == 0 ? 1024 : *cap * 2;
		set->in = realloc(set->in, *cap * sizeof *set->in);
		set->out = realloc(set->out, *cap * sizeof *set->out);
		set->count = realloc(set->count, *cap * sizeof *set->count);
		if (set->in == NULL || set->out == NULL || set->count == NULL) {
			perror("realloc");
			exit(2);
		}
	}
	set->in[set->n++] = *g;
}

/* Reads one set; exits on a line that is not a puzzle. */
static void
bench_load(const char *path, struct bench_set *set)
{
	struct sudoku_perror	 err;
	struct sudoku_grid	 g;
	FILE			*f;
	char			*line = NULL, text[128];
	size_t			 linesize = 0, len, cap = 0;
	unsigned long		 lineno = 0;

	if ((f = fopen(path, "r")) == NULL) {
		fprintf(stderr, "solverbench: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	while (getline(&line, &linesize, f) != -1) {
		lineno++;
		if (bench_line(line, &len))
			continue;
		if (sudoku_parse(line, len, &g, &err) != 0) {
			sudoku_perror_text(&err, text, sizeof text);
			fprintf(stderr, "solverbench: %s:%lu: %s\n", path,
			    lineno, text);
			exit(2);
		}
		bench_add(set, &cap, &g);
	}
	free(line);
	fclose(f);
	if (set->n == 0) {
		fprintf(stderr, "solverbench: %s: no puzzles\n", path);
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
		    (mode == BENCH_COUNT && set->unique && set->count[i] != 1)) {
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
bench_file(const char *path, int unique, int modes, int passes,
    size_t *checked)
{
	struct bench_set	 set;
	struct bench_result	 br;
	size_t			 wrong = 0;
	int			 m;

	memset(&set, 0, sizeof set);
	set.name = bench_base(path);
	set.unique = unique;
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

static int
bench_parse_mode(const char *s)
{
	int	 m;

	for (m = BENCH_ANY; m <= BENCH_COUNT; m++)
		if (strcmp(s, bench_mode_names[m]) == 0)
			return (1 << m);
	if (strcmp(s, "count") == 0)
		return (1 << BENCH_COUNT);
	bench_usage();
}

int
main(int argc, char **argv)
{
	const char	*dir = PUZZLE_DIR, *one = NULL;
	char		 path[4096];
	size_t		 wrong = 0, checked = 0, i;
	int		 ch, modes = 0, passes = 5;

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
		modes = 7;
	printf("%-28s %8s  %-7s %11s %10s %10s %6s\n", "set", "puzzles",
	    "mode", "puzzles/s", "us/puzzle", "guesses", "passes");
	if (one != NULL)
		wrong += bench_file(one, 0, modes, passes, &checked);
	for (i = 0; one == NULL && i < 3; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, bench_sets[i]);
		wrong += bench_file(path, 1, modes, passes, &checked);
	}
	if (wrong != 0) {
		fprintf(stderr, "solverbench: %zu wrong answers\n", wrong);
		return (1);
	}
	printf("all %zu answers checked: valid, givens kept%s\n", checked,
	    (modes & 1 << BENCH_COUNT) && one == NULL ?
	    ", count2 == 1" : "");
	return (0);
}
