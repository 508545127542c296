/* SPDX-License-Identifier: ISC */
/*
 * mkmanysol.c -- makes data/puzzles7_many_solutions: easy puzzles with
 * many solutions, from the unique puzzles of the shared sets.
 *
 *   mkmanysol DIR > puzzles7_many_solutions
 *
 * Puzzle k (0..MANY_COUNT-1) comes from puzzles2_17_clue when k % 10 is
 * 0..6, from puzzles3_magictour_top1465 when it is 7 or 8, from
 * puzzles6_forum_hardest_1106 when it is 9, taking each set's puzzles in
 * file order (wrapping around).  Its clues are removed one at a time, in
 * an order shuffled by xorshift32 seeded with MANY_SEED + k, until
 * sudoku_count() finds at least MANY_SOLUTIONS solutions.  Deterministic:
 * the same files give the same output.  The solver is the generator's
 * counter; the tests check the set with an independent one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sudoku.h"

#define MANY_COUNT	10000	/* puzzles made */
#define MANY_SOLUTIONS	100	/* "many": at least this many solutions */
#define MANY_SEED	0x5eed7u

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
	char		 path[4096], line[256];
	size_t		 len, cap = 0;
	FILE		*f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((f = fopen(path, "r")) == NULL) {
		perror(path);
		exit(2);
	}
	while (fgets(line, sizeof line, f) != NULL) {
		len = strlen(line);
		while (len > 0 && strchr("\r\n \t", line[len - 1]) != NULL)
			len--;
		if (len == 0 || line[0] == '#')
			continue;
		if (set->n == cap) {
			cap = cap == 0 ? 1024 : cap * 2;
			if ((set->g = realloc(set->g, cap * sizeof *set->g)) ==
			    NULL) {
				perror("realloc");
				exit(2);
			}
		}
		if (sudoku_parse(line, len, &set->g[set->n], NULL) != 0) {
			fprintf(stderr, "%s: not a puzzle\n", path);
			exit(2);
		}
		set->n++;
	}
	fclose(f);
}

static uint32_t
many_random(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return (*s);
}

/* Removes clues of g in a seeded order until it has many solutions. */
static void
many_thin(struct sudoku_grid *g, uint32_t seed)
{
	unsigned long	 n = 0;
	int		 clue[SUDOKU_CELLS], nclue = 0, i, j, t;

	for (i = 0; i < SUDOKU_CELLS; i++)
		if (g->cell[i] != 0)
			clue[nclue++] = i;
	for (i = nclue - 1; i > 0; i--) {
		j = (int)(many_random(&seed) % (uint32_t)(i + 1));
		t = clue[i];
		clue[i] = clue[j];
		clue[j] = t;
	}
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

int
main(int argc, char **argv)
{
	struct many_set		 sets[3];
	struct sudoku_grid	 g;
	char			 text[SUDOKU_CELLS + 1];
	int			 k, s, i;

	if (argc != 2) {
		fprintf(stderr, "usage: mkmanysol dir\n");
		return (2);
	}
	memset(sets, 0, sizeof sets);
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
		for (i = 0; i < SUDOKU_CELLS; i++)
			text[i] = g.cell[i] == 0 ? '.' : '0' + g.cell[i];
		text[SUDOKU_CELLS] = '\0';
		printf("%s\n", text);
	}
	for (s = 0; s < 3; s++)
		free(sets[s].g);
	return (0);
}
