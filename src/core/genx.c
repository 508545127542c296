/* SPDX-License-Identifier: ISC */
/*
 * genx.c -- generation with options: a symmetry of the givens'
 * pattern, bounds on the number of givens, or the pattern itself; and
 * the best puzzle so far, for a caller whose time runs out.
 *
 * An attempt is the first generator's (generate.c) with the orbits of
 * the symmetry in place of single cells: a random complete grid, then
 * its orbits removed in a random order while the solution stays unique
 * and clues_min givens are left, so the puzzle is minimal under the
 * symmetry (no orbit can go) unless clues_min stopped it; an attempt
 * with more than clues_max givens is rejected.  With a pattern the
 * givens are the grid's digits in the pattern's cells, and the attempt
 * is rejected unless that has one solution.  Then the puzzle is rated.
 * With no options this draws the random numbers exactly as
 * sudoku_gen_run() does: the same seed gives the same puzzles.
 */
#include <string.h>

#include "sudoku.h"
#include "gen.h"
#include "logic.h"
#include "rng.h"
#include "symmetry.h"

/* The fewest givens of a puzzle with one solution (McGuire et al.). */
#define GENX_CLUES_LEAST	17

static int
genx_count(const uint8_t *pattern)
{
	int	 i, n = 0;

	for (i = 0; i < SUDOKU_CELLS; i++)
		n += pattern[i] != 0;
	return (n);
}

/*
 * Two blank rows of one band, or columns of one stack: swapped, they
 * turn a solution of any puzzle with those givens into a second one.
 */
static int
genx_twins(const uint8_t *pattern)
{
	unsigned int	 rows = 0x1ff, cols = 0x1ff;
	int		 cell, b;

	for (cell = 0; cell < SUDOKU_CELLS; cell++)
		if (pattern[cell]) {
			rows &= ~(1u << cell / 9);
			cols &= ~(1u << cell % 9);
		}
	for (b = 0; b < 3; b++)
		if (logic_count(rows >> 3 * b & 7) >= 2 ||
		    logic_count(cols >> 3 * b & 7) >= 2)
			return (1);
	return (0);
}

/*
 * Do singles alone fill the blanks of every puzzle with these givens?
 * A logical solver stalls only where every row, column and box has no
 * open cell or at least two.  Taking away, again and again, each blank
 * that is the only one of a row, column or box (a hidden single, on any
 * digits) finds the largest set of blanks where that holds; if nothing
 * is left, no state on the way can stall, and every such puzzle is
 * easy.  (Four blanks at the corners of a rectangle are the smallest
 * set left, so three blanks or fewer are always filled so.)
 */
static int
genx_singles(const uint8_t *pattern)
{
	uint8_t		 open[LOGIC_UNITS], blank[SUDOKU_CELLS];
	int		 cell, left = 0, gone = 1;

	memset(open, 0, sizeof open);
	for (cell = 0; cell < SUDOKU_CELLS; cell++) {
		if ((blank[cell] = pattern[cell] == 0) == 0)
			continue;
		left++;
		open[logic_row(cell)]++;
		open[logic_col(cell)]++;
		open[logic_box(cell)]++;
	}
	while (left > 0 && gone) {
		gone = 0;
		for (cell = 0; cell < SUDOKU_CELLS; cell++) {
			if (!blank[cell] || (open[logic_row(cell)] > 1 &&
			    open[logic_col(cell)] > 1 &&
			    open[logic_box(cell)] > 1))
				continue;
			blank[cell] = 0;
			open[logic_row(cell)]--;
			open[logic_col(cell)]--;
			open[logic_box(cell)]--;
			left--;
			gone = 1;
		}
	}
	return (left == 0);
}

/* Can a puzzle above easy have at least lo givens?  Not at 78 or more. */
#define GENX_CLUES_EASY	(SUDOKU_CELLS - 3)

const char *
sudoku_genx_check(const struct sudoku_gen_opts *o, enum sudoku_level level)
{
	unsigned int	 hi = o->clues_max == 0 ? SUDOKU_CELLS : o->clues_max;
	unsigned int	 n;
	int		 above = level != SUDOKU_LEVEL_EASY &&
			    level != SUDOKU_LEVEL_ANY;

	if ((unsigned int)level > SUDOKU_LEVEL_ANY ||
	    (unsigned int)o->symmetry >= SUDOKU_SYM_COUNT)
		return ("no such level or symmetry");
	if (hi > SUDOKU_CELLS || hi < GENX_CLUES_LEAST || o->clues_min > hi)
		return ("the number of givens must be from 17 to 81");
	if (above && o->clues_min >= GENX_CLUES_EASY)
		return ("with 78 givens or more, every puzzle is easy");
	if (!o->use_pattern)
		return (NULL);
	n = (unsigned int)genx_count(o->pattern);
	if (n < GENX_CLUES_LEAST)
		return ("a pattern needs at least 17 givens");
	if (n < o->clues_min || n > hi)
		return ("the pattern's givens are not within the bounds on "
		    "their number");
	if (!sudoku_symmetry_holds(o->symmetry, o->pattern))
		return ("the pattern is not invariant under the symmetry");
	if (genx_twins(o->pattern))
		return ("the pattern has two blank rows of one band or columns "
		    "of one stack: swapped, they make a second solution");
	if (above && genx_singles(o->pattern))
		return ("every puzzle with that pattern is easy: each blank is, "
		    "in turn, the only one of a row, column or box");
	return (NULL);
}

int
sudoku_genx_init(struct sudoku_genx *x, uint64_t seed,
    enum sudoku_level level, uint64_t budget,
    const struct sudoku_gen_opts *opts)
{
	memset(x, 0, sizeof *x);
	sudoku_gen_init(&x->gen, seed, level, budget);
	if (opts != NULL)
		x->opts = *opts;
	if (sudoku_genx_check(&x->opts, level) != NULL) {
		x->gen.state = GEN_OUT;
		return (-1);
	}
	return (0);
}

/*
 * With a pattern, the digits of a random grid in the pattern's cells
 * rarely have one solution (about once in 20,000 grids for 24 cells),
 * so an attempt is a descent: the number of solutions, counted up to
 * GENX_CAP, is brought down one cell at a time.  A move tries the other
 * digits of a random pattern cell, in a random order, that clash with
 * no other given; it takes the first one with fewer solutions, else the
 * last with as many (a sideways move, to get off a plateau), else none.
 * After GENX_STUCK moves without a fall the descent starts again from a
 * new grid.  Each call does one start or one move: at most nine counts.
 */
#define GENX_CAP	64
#define GENX_STUCK	100

/*
 * What a descent costs the budget besides its searches' guesses, so that
 * the budget measures its work as it measures an attempt without a
 * pattern (about 100 guesses, 14 k instructions a guess all told,
 * callgrind): a new random grid 12 guesses (its fill takes 170 k
 * instructions, of which the guesses count only the retries after a
 * dead end) and the rating of a puzzle kept one a logical step.  A
 * move (peer checks and up to nine counts of a few solutions) costs its
 * guesses alone: on dense givens about 4 k instructions and none.
 * Before, a guess on this path cost 12 to 19 times one of a plain
 * GENERATE; now 0.2 to 1.1 times (doc/rating.md).
 */
#define GENX_GRID_COST	12

/* Counts n guesses more; -1 when that spends the budget. */
static int
genx_charge(struct sudoku_gen *gen, uint64_t n)
{
	if (gen->budget - gen->spent <= n) {
		gen->spent = gen->budget;
		return (-1);
	}
	gen->spent += n;
	return (0);
}

/* Could digit d go in cell c of p without clashing with a given? */
static int
genx_fits(const struct sudoku_grid *p, int c, int d)
{
	uint8_t	 peers[20];
	int	 i, n = logic_peers(c, peers);

	for (i = 0; i < n; i++)
		if (p->cell[peers[i]] == d)
			return (0);
	return (1);
}

/* A new descent: the pattern's cells of a random grid. */
static int
genx_start(struct sudoku_genx *x)
{
	struct sudoku_grid	 sol;
	int			 i;

	if (gen_grid(&x->gen, &sol) != 0 ||
	    genx_charge(&x->gen, GENX_GRID_COST) != 0)
		return (-1);
	for (i = 0; i < SUDOKU_CELLS; i++)
		x->work.cell[i] = x->opts.pattern[i] ? sol.cell[i] : 0;
	x->stuck = 0;
	x->walking = 1;
	return (gen_count(&x->gen, &x->work, GENX_CAP, &x->work_count, NULL));
}

/* One move of the descent. */
static int
genx_move(struct sudoku_genx *x)
{
	struct sudoku_grid	*p = &x->work;
	unsigned long		 n, now = x->work_count;
	uint8_t			 cells[SUDOKU_CELLS], digits[9];
	int			 nc = 0, c, i, keep, pick, fell = 0;

	for (i = 0; i < SUDOKU_CELLS; i++)
		if (x->opts.pattern[i])
			cells[nc++] = (uint8_t)i;
	c = cells[rng_below(x->gen.rng, (unsigned int)nc)];
	pick = keep = p->cell[c];
	for (i = 0; i < 9; i++)
		digits[i] = (uint8_t)(i + 1);
	rng_shuffle(x->gen.rng, digits, 9);
	for (i = 0; i < 9 && !fell; i++) {
		if (digits[i] == keep || !genx_fits(p, c, digits[i]))
			continue;
		p->cell[c] = digits[i];
		if (gen_count(&x->gen, p, GENX_CAP, &n, NULL) != 0)
			return (-1);
		if (n >= 1 && n <= x->work_count) {
			pick = digits[i];
			fell = n < x->work_count;
			now = n;
		}
	}
	p->cell[c] = (uint8_t)pick;
	x->work_count = now;
	x->stuck = fell ? 0 : x->stuck + 1;
	return (0);
}

/* A start or a move; 1 when the descent has come to one solution. */
static int
genx_pattern(struct sudoku_genx *x, struct sudoku_grid *p,
    struct sudoku_grid *sol)
{
	unsigned long	 n;

	if ((x->walking ? genx_move(x) : genx_start(x)) != 0)
		return (-1);
	if (x->work_count != 1) {
		if (x->stuck >= GENX_STUCK) {
			x->walking = 0;
			x->rejected++;
		}
		return (0);
	}
	x->walking = 0;
	*p = x->work;
	/* The one solution: which one the solver finds first cannot vary. */
	if (gen_count(&x->gen, p, 1, &n, sol) != 0)
		return (-1);
	return (1);
}

/* Minimal under the symmetry, within the bounds: 1, 0 (rejected), -1. */
static int
genx_thin(struct sudoku_genx *x, struct sudoku_grid *p)
{
	struct sym_orbits	 o;

	sym_orbits(x->opts.symmetry, &o);
	if (gen_thin(&x->gen, p, &o, (int)x->opts.clues_min) != 0)
		return (-1);
	return (x->opts.clues_max == 0 ||
	    genx_count(p->cell) <= (int)x->opts.clues_max);
}

/* Is level a nearer the one wanted than level b? */
static int
genx_nearer(enum sudoku_level want, enum sudoku_level a,
    enum sudoku_level b)
{
	int	 da = (int)a - (int)want, db = (int)b - (int)want;

	return ((da < 0 ? -da : da) < (db < 0 ? -db : db));
}

/* A puzzle kept: counted, the best so far, maybe the answer. */
static void
genx_keep(struct sudoku_genx *x, const struct sudoku_grid *p,
    const struct sudoku_grid *sol)
{
	struct sudoku_gen	*gen = &x->gen;
	struct sudoku_rating	 r;

	rate_known(p, sol, &r);
	if (x->opts.use_pattern)	/* past the budget: the next count */
		(void)genx_charge(gen, r.steps + r.trials);
	gen->seen[r.level]++;
	if (!x->has_best || (gen->level != SUDOKU_LEVEL_ANY &&
	    genx_nearer(gen->level, r.level, x->best_rating.level))) {
		x->has_best = 1;
		x->best = *p;
		x->best_rating = r;
	}
	if (gen->level == SUDOKU_LEVEL_ANY || r.level == gen->level) {
		gen->puzzle = *p;
		gen->rating = r;
		gen->state = GEN_FOUND;
	}
}

/* One attempt (with a pattern, one step of a descent); -1 out of budget. */
static int
genx_attempt(struct sudoku_genx *x)
{
	struct sudoku_grid	 sol, p;
	int			 ok;

	if (x->opts.use_pattern)
		ok = genx_pattern(x, &p, &sol);
	else if (gen_grid(&x->gen, &sol) != 0)
		return (-1);
	else {
		p = sol;
		if ((ok = genx_thin(x, &p)) == 0)
			x->rejected++;
	}
	if (ok < 0)
		return (-1);
	x->gen.attempts++;
	if (ok)
		genx_keep(x, &p, &sol);
	return (0);
}

enum sudoku_gen_result
sudoku_genx_run(struct sudoku_genx *x, unsigned int max_attempts,
    struct sudoku_grid *out, struct sudoku_rating *r)
{
	struct sudoku_gen	*gen = &x->gen;
	unsigned int		 i;

	for (i = 0; gen->state == GEN_RUNNING && i < max_attempts; i++)
		if (genx_attempt(x) != 0)
			gen->state = GEN_OUT;
	if (gen->state == GEN_OUT)
		return (SUDOKU_GEN_BUDGET);
	if (gen->state == GEN_RUNNING)
		return (SUDOKU_GEN_MORE);
	*out = gen->puzzle;
	if (r != NULL)
		*r = gen->rating;
	return (SUDOKU_GEN_FOUND);
}

int
sudoku_genx_best(const struct sudoku_genx *x, struct sudoku_grid *out,
    struct sudoku_rating *r)
{
	if (!x->has_best)
		return (-1);
	*out = x->best;
	if (r != NULL)
		*r = x->best_rating;
	return (0);
}
