/* SPDX-License-Identifier: ISC */
/*
 * mkmanysol.c -- makes the sets of easy puzzles with many solutions,
 * from the unique puzzles of the shared sets:
 *
 *   mkmanysol DIR > puzzles7_many_solutions
 *   mkmanysol -b DIR > puzzles8_many_solutions_bands
 *
 * The first (default) mode thins whole grids:
 * Puzzle k (0..MANY_COUNT-1) comes from puzzles2_17_clue when k % 10 is
 * 0..6, from puzzles3_magictour_top1465 when it is 7 or 8, from
 * puzzles6_forum_hardest_1106 when it is 9, taking each set's puzzles in
 * file order (wrapping around).  Its clues are removed one at a time, in
 * an order shuffled by xorshift32 seeded with MANY_SEED + k, until
 * sudoku_count() finds at least MANY_SOLUTIONS solutions.
 *
 * -b: the kind that many givens leave slowest, the whole work in one
 * band: 34 or 35 givens (BANDS_GIVENS), two bands nearly full and one
 * nearly empty.  Puzzle k comes from puzzle k of puzzles2_17_clue (its
 * unique solution); band k % 3 keeps k % 4 cells (0..3) and the other
 * two bands lose 54 + k % 4 - BANDS_GIVENS cells, both chosen in an
 * order shuffled by xorshift32 seeded with BANDS_SEED + k; an order
 * that leaves one solution only (rare) is shuffled again.
 *
 * Deterministic: the same files give the same output.  The solver is the
 * generator's counter; the tests check the sets with an independent one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sudoku.h"
#include "sets.h"

#define MANY_COUNT	10000	/* puzzles made */
#define MANY_SOLUTIONS	100	/* "many": at least this many solutions */
#define MANY_SEED	0x5eed7u
#define BANDS_SEED	0xba9d5u
/* Givens of puzzle k in -b: 34 for one in four, else 35. */
#define BANDS_GIVENS(k)	((k) % 4 == 0 ? 34 : 35)

static const char *const many_sets[] = {
	"puzzles2_17_clue",
	"puzzles3_magictour_top1465",
	"puzzles6_forum_hardest_1106"
};

struct many_set {
	struct sudoku_grid	*g;
	size_t			 n;
	size_t			 next;
};

static void
many_load(const char *dir, const char *name, struct many_set *set)
{
	struct sets_grids	 s;

	sets_read_in("mkmanysol", dir, name, &s);
	set->g = s.g;
	set->n = s.n;
}

static uint32_t
many_random(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return (*s);
}

/* Shuffles v[0..n-1] with xorshift32 from *seed (Fisher-Yates). */
static void
many_shuffle(int *v, int n, uint32_t *seed)
{
	int	 i, j, t;

	for (i = n - 1; i > 0; i--) {
		j = (int)(many_random(seed) % (uint32_t)(i + 1));
		t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

/* Removes clues of g in a seeded order until it has many solutions. */
static void
many_thin(struct sudoku_grid *g, uint32_t seed)
{
	unsigned long	 n = 0;
	int		 clue[SUDOKU_CELLS], nclue = 0, i;

	for (i = 0; i < SUDOKU_CELLS; i++)
		if (g->cell[i] != 0)
			clue[nclue++] = i;
	many_shuffle(clue, nclue, &seed);
	for (i = 0; i < nclue; i++) {
		g->cell[clue[i]] = 0;
		if (sudoku_count(g, MANY_SOLUTIONS, 0, &n, NULL, NULL) !=
		    SUDOKU_SOLVED) {
			fprintf(stderr, "mkmanysol: count failed\n");
			exit(1);
		}
		if (n >= MANY_SOLUTIONS)
			return;
	}
}

/*
 * -b: the solution sol thinned into g: band k % 3 keeps k % 4 of its
 * cells, the other two bands BANDS_GIVENS(k) less that; reshuffled
 * while that leaves a single solution.
 */
static void
many_bands(const struct sudoku_grid *sol, int k, struct sudoku_grid *g)
{
	unsigned long	 n = 0;
	uint32_t	 seed = BANDS_SEED + (uint32_t)k;
	int		 empty[27], full[54], ne, nf, keep, i, b;

	do {
		*g = *sol;
		ne = nf = 0;
		for (i = 0; i < SUDOKU_CELLS; i++) {
			b = i / 27 == k % 3;
			if (b)
				empty[ne++] = i;
			else
				full[nf++] = i;
		}
		many_shuffle(empty, ne, &seed);
		many_shuffle(full, nf, &seed);
		keep = k % 4;
		for (i = keep; i < ne; i++)
			g->cell[empty[i]] = 0;
		for (i = 0; i < 54 + keep - BANDS_GIVENS(k); i++)
			g->cell[full[i]] = 0;
		if (sudoku_count(g, 2, 0, &n, NULL, NULL) != SUDOKU_SOLVED) {
			fprintf(stderr, "mkmanysol: count failed\n");
			exit(1);
		}
	} while (n < 2);
}

static void
many_print(const struct sudoku_grid *g)
{
	char	 text[SUDOKU_CELLS + 1];
	int	 i;

	for (i = 0; i < SUDOKU_CELLS; i++)
		text[i] = g->cell[i] == 0 ? '.' : '0' + g->cell[i];
	text[SUDOKU_CELLS] = '\0';
	printf("%s\n", text);
}

/* -b: the band set from puzzles2_17_clue's first MANY_COUNT puzzles. */
static int
many_bands_set(struct many_set *src)
{
	struct sudoku_grid	 sol, g;
	int			 k;

	printf("# %d puzzles with two solutions or more, 34 or 35 givens: "
	    "two bands nearly full,\n# one nearly empty; from the solutions "
	    "of puzzles2_17_clue, made by\n# bench/mkmanysol -b "
	    "(seed 0x%x)\n", MANY_COUNT, BANDS_SEED);
	for (k = 0; k < MANY_COUNT; k++) {
		if (sudoku_solve(&src->g[k % src->n], SUDOKU_ANY, 0, &sol,
		    NULL) != SUDOKU_SOLVED) {
			fprintf(stderr, "mkmanysol: solve failed\n");
			return (1);
		}
		many_bands(&sol, k, &g);
		many_print(&g);
	}
	return (0);
}

int
main(int argc, char **argv)
{
	struct many_set		 sets[3];
	struct sudoku_grid	 g;
	int			 k, s, r;

	memset(sets, 0, sizeof sets);
	if (argc == 3 && strcmp(argv[1], "-b") == 0) {
		many_load(argv[2], many_sets[0], &sets[0]);
		r = many_bands_set(&sets[0]);
		free(sets[0].g);
		return (r);
	}
	if (argc != 2) {
		fprintf(stderr, "usage: mkmanysol [-b] dir\n");
		return (2);
	}
	for (s = 0; s < 3; s++)
		many_load(argv[1], many_sets[s], &sets[s]);
	printf("# %d puzzles with at least %d solutions each: clues removed "
	    "in a seeded random order\n# from puzzles2_17_clue (7 in 10), "
	    "puzzles3_magictour_top1465 (2 in 10) and\n"
	    "# puzzles6_forum_hardest_1106 (1 in 10); made by "
	    "bench/mkmanysol (seed 0x%x)\n", MANY_COUNT, MANY_SOLUTIONS,
	    MANY_SEED);
	for (k = 0; k < MANY_COUNT; k++) {
		s = k % 10 < 7 ? 0 : k % 10 < 9 ? 1 : 2;
		g = sets[s].g[sets[s].next++ % sets[s].n];
		if (sudoku_solve(&g, SUDOKU_ANY, 0, &g, NULL) != SUDOKU_SOLVED) {
			fprintf(stderr, "mkmanysol: solve failed\n");
			return (1);
		}
		many_thin(&g, MANY_SEED + (uint32_t)k);
		many_print(&g);
	}
	for (s = 0; s < 3; s++)
		free(sets[s].g);
	return (0);
}
