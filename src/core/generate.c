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
#include "gen.h"
#include "logic.h"
#include "rng.h"

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
 * a dead end as a guess; -1 at a dead end with limit guesses made, so
 * that no more than limit are ever counted, as the solver's budget is
 * (the fill and its random draws are the same until then).
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
			if (*guesses >= limit ||
			    gen_backtrack(F, &depth, guesses) != 0)
				return (-1);
			continue;
		}
		f = &F->stack[depth++];
		f->cell = (uint8_t)cell;
		f->at = f->n = 0;
		for (; free != 0; free &= free - 1)
			f->digit[f->n++] = (uint8_t)logic_digit(free);
		rng_shuffle(s, f->digit, f->n);
		gen_set(F, cell, f->digit[0]);
	}
	return (0);
}

int
gen_grid(struct sudoku_gen *gen, struct sudoku_grid *g)
{
	struct gen_fill		 F;

	if (gen_fill(gen->rng, &F, &gen->spent, gen->budget) != 0)
		return (-1);
	*g = F.g;
	return (0);
}

int
gen_count(struct sudoku_gen *gen, const struct sudoku_grid *p,
    unsigned long limit, unsigned long *n, struct sudoku_grid *first)
{
	struct sudoku_stats	 st;
	enum sudoku_result	 res;

	if (gen->spent >= gen->budget)
		return (-1);
	res = sudoku_count(p, limit, gen->budget - gen->spent, n, first, &st);
	gen->spent += st.guesses;
	if (res == SUDOKU_BUDGET)
		return (-1);
	if (res != SUDOKU_SOLVED)
		*n = 0;
	return (0);
}

int
gen_unique(struct sudoku_gen *gen, const struct sudoku_grid *p)
{
	unsigned long	 n;

	if (gen_count(gen, p, 2, &n, NULL) != 0)
		return (-1);
	return (n == 1);
}

/*
 * Each orbit in a random order goes unless the solution stops being
 * unique.  One pass is enough: an orbit that cannot go now cannot go
 * later either, with fewer givens around it.  With no symmetry the
 * orbits are the 81 cells, shuffled as the first generator did.
 */
int
gen_thin(struct sudoku_gen *gen, struct sudoku_grid *p,
    const struct sym_orbits *o, int floor)
{
	uint8_t		 order[SUDOKU_CELLS], keep[SUDOKU_CELLS];
	int		 i, k, givens = 0, first, size, u;

	for (i = 0; i < SUDOKU_CELLS; i++)
		givens += p->cell[i] != 0;
	for (i = 0; i < o->n; i++)
		order[i] = (uint8_t)i;
	rng_shuffle(gen->rng, order, o->n);
	for (i = 0; i < o->n; i++) {
		first = o->start[order[i]];
		size = o->start[order[i] + 1] - first;
		if (p->cell[o->cell[first]] == 0 || givens - size < floor)
			continue;
		for (k = 0; k < size; k++) {
			keep[k] = p->cell[o->cell[first + k]];
			p->cell[o->cell[first + k]] = 0;
		}
		if ((u = gen_unique(gen, p)) < 0)
			return (-1);
		if (u)
			givens -= size;
		else
			for (k = 0; k < size; k++)
				p->cell[o->cell[first + k]] = keep[k];
	}
	return (0);
}

/* One minimal puzzle, rated; -1 when the budget runs out. */
static int
gen_attempt(struct sudoku_gen *gen, struct sudoku_grid *p,
    struct sudoku_rating *r)
{
	struct sym_orbits	 o;
	struct sudoku_grid	 sol;

	if (gen_grid(gen, &sol) != 0)
		return (-1);
	*p = sol;
	sym_orbits(SUDOKU_SYM_NONE, &o);
	if (gen_thin(gen, p, &o, 0) != 0)
		return (-1);
	rate_known(p, &sol, r);
	gen->attempts++;
	gen->seen[r->level]++;
	return (0);
}

void
sudoku_gen_init(struct sudoku_gen *gen, uint64_t seed,
    enum sudoku_level level, uint64_t budget)
{
	memset(gen, 0, sizeof *gen);
	rng_seed(gen->rng, seed);
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
