/* SPDX-License-Identifier: ISC */
/*
 * generate.c -- the puzzle generator: random complete grid, givens
 * removed in a random order while the solution stays unique, rated;
 * repeated until the level is the one asked for.
 *
 * Determinism.  Every random choice is drawn from the generator's own
 * xoshiro256** (seeded from the 64-bit seed by splitmix64) in a fixed
 * order: the grid fill shuffles each cell's digits, the removal order
 * is a Fisher-Yates shuffle of the 81 cells.  Uniqueness comes from
 * sudoku_count() with limit 2, whose answer (1 or 2) does not depend on
 * the solver's search order, and the rating uses no search at all.  So
 * a seed gives the same sequence of puzzles on every machine, as long
 * as the techniques and their order stay the same.  The grid fill is
 * written here and not taken from the solver for the same reason.
 */
#include <string.h>

#include "sudoku.h"
#include "logic.h"

enum {
	GEN_RUNNING = 0,
	GEN_FOUND,
	GEN_OUT			/* of budget */
};

/* splitmix64: turns the seed into the xoshiro state. */
static uint64_t
gen_splitmix(uint64_t *x)
{
	uint64_t	 z;

	z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31));
}

static uint64_t
gen_rotl(uint64_t x, int k)
{
	return ((x << k) | (x >> (64 - k)));
}

/* xoshiro256**, one 64-bit output. */
static uint64_t
gen_next(uint64_t s[4])
{
	uint64_t	 out = gen_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = gen_rotl(s[3], 45);
	return (out);
}

/* A number in 0..n-1 (n >= 1); the small modulo bias does not matter. */
static unsigned int
gen_below(uint64_t s[4], unsigned int n)
{
	return ((unsigned int)(gen_next(s) % n));
}

/* Shuffles p[0..n-1] in place (Fisher-Yates, from the top). */
static void
gen_shuffle(uint64_t s[4], uint8_t *p, int n)
{
	uint8_t	 t;
	int	 i, j;

	for (i = n - 1; i > 0; i--) {
		j = (int)gen_below(s, (unsigned int)i + 1);
		t = p[i];
		p[i] = p[j];
		p[j] = t;
	}
}

/* A level of the fill's search: a cell, its digits in the order tried. */
struct gen_frame {
	uint8_t		cell;
	uint8_t		n;
	uint8_t		at;
	uint8_t		digit[9];
};

/* The fill's state: the grid, each unit's digits, the search stack. */
struct gen_fill {
	struct sudoku_grid	 g;
	uint16_t		 used[LOGIC_UNITS];
	struct gen_frame	 stack[SUDOKU_CELLS];
};

static void
gen_set(struct gen_fill *F, int cell, int digit)
{
	uint16_t	 bit = logic_bit(digit);

	F->g.cell[cell] = (uint8_t)digit;
	F->used[logic_row(cell)] ^= bit;
	F->used[logic_col(cell)] ^= bit;
	F->used[logic_box(cell)] ^= bit;
}

static void
gen_unset(struct gen_fill *F, int cell)
{
	gen_set(F, cell, F->g.cell[cell]);
	F->g.cell[cell] = 0;
}

/* The blank with the fewest possible digits (the first such); -1 if full. */
static int
gen_pick(const struct gen_fill *F, unsigned int *free)
{
	unsigned int	 m;
	int		 cell, best = -1, n, bestn = 10;

	for (cell = 0; cell < SUDOKU_CELLS && bestn > 0; cell++) {
		if (F->g.cell[cell] != 0)
			continue;
		m = LOGIC_ALL & ~(F->used[logic_row(cell)] |
		    F->used[logic_col(cell)] | F->used[logic_box(cell)]);
		if ((n = logic_count(m)) < bestn) {
			best = cell;
			bestn = n;
			*free = m;
		}
	}
	return (best);
}

/* Backs up to the latest level with a digit left to try; -1 if none. */
static int
gen_backtrack(struct gen_fill *F, int *depth, uint64_t *guesses)
{
	struct gen_frame	*f;

	while (*depth > 0) {
		f = &F->stack[*depth - 1];
		gen_unset(F, f->cell);
		if (++f->at < f->n) {
			gen_set(F, f->cell, f->digit[f->at]);
			(*guesses)++;
			return (0);
		}
		(*depth)--;
	}
	return (-1);
}

/*
 * A random complete grid: depth-first, the blank with the fewest digits
 * next, its digits in a random order.  Counts each digit retried after
 * a dead end as a guess; -1 when that passes limit.
 */
static int
gen_fill(uint64_t s[4], struct gen_fill *F, uint64_t *guesses,
    uint64_t limit)
{
	struct gen_frame	*f;
	unsigned int		 free = 0;
	int			 depth = 0, cell;

	memset(F, 0, sizeof *F);
	while ((cell = gen_pick(F, &free)) >= 0) {
		if (free == 0) {
			if (gen_backtrack(F, &depth, guesses) != 0 ||
			    *guesses > limit)
				return (-1);
			continue;
		}
		f = &F->stack[depth++];
		f->cell = (uint8_t)cell;
		f->at = f->n = 0;
		for (; free != 0; free &= free - 1)
			f->digit[f->n++] = (uint8_t)logic_digit(free);
		gen_shuffle(s, f->digit, f->n);
		gen_set(F, cell, f->digit[0]);
	}
	return (0);
}

/*
 * Removes the givens of p in a random order, each unless the solution
 * stops being unique.  One pass is enough: a given that cannot go now
 * cannot go later either, with fewer givens around it.  -1 when the
 * budget runs out.
 */
static int
gen_minimize(struct sudoku_gen *gen, struct sudoku_grid *p)
{
	struct sudoku_stats	 st;
	enum sudoku_result	 res;
	unsigned long		 n;
	uint8_t			 order[SUDOKU_CELLS], v;
	int			 i;

	for (i = 0; i < SUDOKU_CELLS; i++)
		order[i] = (uint8_t)i;
	gen_shuffle(gen->rng, order, SUDOKU_CELLS);
	for (i = 0; i < SUDOKU_CELLS; i++) {
		if (gen->spent >= gen->budget)
			return (-1);
		v = p->cell[order[i]];
		p->cell[order[i]] = 0;
		res = sudoku_count(p, 2, gen->budget - gen->spent, &n, NULL,
		    &st);
		gen->spent += st.guesses;
		if (res == SUDOKU_BUDGET)
			return (-1);
		if (res != SUDOKU_SOLVED || n != 1)
			p->cell[order[i]] = v;
	}
	return (0);
}

/* One minimal puzzle, rated; -1 when the budget runs out. */
static int
gen_attempt(struct sudoku_gen *gen, struct sudoku_grid *p,
    struct sudoku_rating *r)
{
	struct gen_fill		 F;

	if (gen_fill(gen->rng, &F, &gen->spent, gen->budget) != 0)
		return (-1);
	*p = F.g;
	if (gen_minimize(gen, p) != 0)
		return (-1);
	rate_known(p, &F.g, r);
	gen->attempts++;
	gen->seen[r->level]++;
	return (0);
}

void
sudoku_gen_init(struct sudoku_gen *gen, uint64_t seed,
    enum sudoku_level level, uint64_t budget)
{
	int	 i;

	memset(gen, 0, sizeof *gen);
	for (i = 0; i < 4; i++)
		gen->rng[i] = gen_splitmix(&seed);
	gen->budget = budget == 0 ? SUDOKU_BUDGET_DEFAULT : budget;
	gen->level = level;
	gen->state = GEN_RUNNING;
}

enum sudoku_gen_result
sudoku_gen_run(struct sudoku_gen *gen, unsigned int max_attempts,
    struct sudoku_grid *out, struct sudoku_rating *r)
{
	struct sudoku_grid	 p;
	struct sudoku_rating	 rt;
	unsigned int		 i;

	for (i = 0; gen->state == GEN_RUNNING && i < max_attempts; i++) {
		if (gen_attempt(gen, &p, &rt) != 0)
			gen->state = GEN_OUT;
		else if (rt.level == gen->level) {
			gen->puzzle = p;
			gen->rating = rt;
			gen->state = GEN_FOUND;
		}
	}
	if (gen->state == GEN_OUT)
		return (SUDOKU_GEN_BUDGET);
	if (gen->state == GEN_RUNNING)
		return (SUDOKU_GEN_MORE);
	*out = gen->puzzle;
	if (r != NULL)
		*r = gen->rating;
	return (SUDOKU_GEN_FOUND);
}
