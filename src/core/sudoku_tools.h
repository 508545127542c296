/* SPDX-License-Identifier: ISC */
/*
 * sudoku_tools.h -- the part of the solver core's API added in
 * SUDOKU_1.1.  Included by sudoku.h, which is the header to include.
 */
#ifndef SUDOKU_TOOLS_H
#define SUDOKU_TOOLS_H

#ifndef SUDOKU_H
#error "include <sudoku.h>, not <sudoku_tools.h>"
#endif

/* ==== Symmetries, equivalence, reduction, paths (SUDOKU_1.1) ==========
 *
 * Files: symmetry.c (symmetries of the givens' pattern, pattern text),
 * transform.c (the rule-keeping transformations, sudoku_shuffle()),
 * canon.c, canon_level.c, canon_grid.c (canonical forms), reduce.c (minimize,
 * constrain), genx.c (generation with options), path.c (whole logical
 * solutions).  The same rules as above: no I/O, no allocation, no
 * mutable globals.
 */

/*
 * Symmetries of the pattern of givens, as subgroups of the eight
 * symmetries of the square: ROT180 a half turn (the classic newspaper
 * grid), ROT90 quarter turns (all four), MIRROR left-right (column c
 * and 10 - c, 1-based), FLIP top-bottom (rows), DIAGONAL the main
 * diagonal (r1c1 to r9c9: rRcC and rCcR), ANTIDIAGONAL the other one
 * (r1c9 to r9c1), DIHEDRAL all eight.
 */
enum sudoku_symmetry {
	SUDOKU_SYM_NONE = 0,
	SUDOKU_SYM_ROT180,
	SUDOKU_SYM_ROT90,
	SUDOKU_SYM_MIRROR,
	SUDOKU_SYM_FLIP,
	SUDOKU_SYM_DIAGONAL,
	SUDOKU_SYM_ANTIDIAGONAL,
	SUDOKU_SYM_DIHEDRAL,
	SUDOKU_SYM_COUNT
};

/* "none", "rot180", "rot90", "mirror", "flip", "diagonal",
 * "antidiagonal", "dihedral"; "unknown" out of range. */
const char *sudoku_symmetry_name(enum sudoku_symmetry s);

/* Parses len bytes of one of those names, any case; 0 or -1. */
int	sudoku_symmetry_parse(const char *s, size_t len,
	    enum sudoku_symmetry *sym);

/*
 * 1 if the pattern (a cell is given when pattern[cell] != 0; a grid's
 * cell[] will do) is invariant under every element of s, else 0 (also
 * for s out of range).
 */
int	sudoku_symmetry_holds(enum sudoku_symmetry s,
	    const uint8_t pattern[SUDOKU_CELLS]);

/*
 * Parses exactly len bytes as a pattern of givens: 'x', 'X' or '1'-'9'
 * for a given (pattern[cell] = 1), '.' or '0' for a blank (0), so a
 * puzzle is also the pattern of its givens.  Returns 0, or -1 with *err
 * (may be NULL) set as sudoku_parse() would: SUDOKU_PERR_LENGTH, then
 * SUDOKU_PERR_CHAR for the first bad byte; pattern is then untouched.
 */
int	sudoku_pattern_parse(const char *s, size_t len,
	    uint8_t pattern[SUDOKU_CELLS], struct sudoku_perror *err);

/*
 * A transformation that keeps the rules: transpose (1: rows and columns
 * swapped first), then rows and columns permuted, digits relabelled:
 *
 *	out(r, c) = digit[in'(row[r], col[c])],  in' = in or its transpose
 *
 * (0-based rows and columns).  row[] must move whole bands (row[3b],
 * row[3b + 1], row[3b + 2] in one band) and col[] whole stacks;
 * digit[0] is 0 (a blank stays blank), digit[1..9] a permutation of
 * 1..9.  Such transformations (3,359,232 without the digits) are
 * exactly the ones that turn every valid grid into a valid grid, and
 * a puzzle into one with the same number of solutions.
 */
struct sudoku_transform {
	uint8_t		transpose;
	uint8_t		row[9];
	uint8_t		col[9];
	uint8_t		digit[10];
};

/* *out = t applied to in (out may alias in); -1 if t is not valid. */
int	sudoku_transform_apply(const struct sudoku_transform *t,
	    const struct sudoku_grid *in, struct sudoku_grid *out);

/*
 * The canonical form of a puzzle or a complete grid: of all the grids
 * equivalent to in (every transformation above, digits relabelled),
 * the least as an 81-digit string with blanks as 0, i.e. the
 * "minlex" form.  Its digits appear in the order 1, 2, 3, ...  Two
 * grids are equivalent exactly when their forms are equal.
 * *automorphisms (may be NULL) gets the number of the 3,359,232
 * transformations that map in onto itself up to a relabelling of its
 * digits (1 for most puzzles and grids, 648 at most for a complete
 * grid, 3,359,232 for the empty grid); *t (may be NULL) one
 * transformation that takes in to its form.  Returns 0, or -1 when in
 * is not a valid grid (a cell above 9, a digit twice in a unit), with
 * nothing written.  About 4 us for a 17-clue puzzle, 40 us for a
 * complete grid, 0.4 ms for the grid with 648 automorphisms
 * (doc/rating.md).  Up to about 25 KB of stack.
 */
int	sudoku_canon(const struct sudoku_grid *in, struct sudoku_grid *form,
	    unsigned long *automorphisms, struct sudoku_transform *t);

/*
 * A random equivalent of in: one of the transformations above, with
 * the digits relabelled, drawn from seed (the generator's PRNG, so a
 * seed gives the same transformation everywhere).  out may alias in;
 * *t (may be NULL) gets the transformation.
 */
void	sudoku_shuffle(const struct sudoku_grid *in, uint64_t seed,
	    struct sudoku_grid *out, struct sudoku_transform *t);

/*
 * Generation with options (genx.c), resumable like sudoku_gen_run().
 * struct sudoku_gen keeps its SUDOKU_1.0 size and layout: the options
 * and the best puzzle so far live in a struct sudoku_genx around one.
 *
 * symmetry: the pattern of the givens is invariant under it, and the
 * puzzle is minimal under it: no orbit of cells (the cells the
 * symmetry maps onto each other) can be removed with the solution
 * staying unique.  clues_min, clues_max: the number of givens, 0 for
 * no bound.  Removal stops short of going below clues_min (so such a
 * puzzle may be minimal only down to that bound), and an attempt with
 * more than clues_max givens is rejected.  use_pattern: the givens are
 * exactly the cells with pattern[cell] != 0 (see sudoku_pattern_parse;
 * minimality does not apply): a random grid's digits there, changed a
 * cell at a time while that lowers the number of solutions, until it is
 * one (doc/rating.md).  A zeroed struct asks for nothing: the same
 * puzzles as sudoku_gen_init().
 */
struct sudoku_gen_opts {
	enum sudoku_symmetry	symmetry;
	unsigned int		clues_min;
	unsigned int		clues_max;
	int			use_pattern;
	uint8_t			pattern[SUDOKU_CELLS];
};

/* The level that sudoku_genx_init() takes as "whatever level comes". */
#define SUDOKU_LEVEL_ANY	SUDOKU_LEVEL_COUNT

/*
 * gen is a generator state as for sudoku_gen_run(): its attempts count
 * every attempt, seen[] the levels of the puzzles kept, and on FOUND
 * puzzle and rating hold the answer.  rejected counts the attempts
 * whose puzzle had more than clues_max givens.  With a pattern, an
 * attempt is a step of a descent on the number of solutions (a start
 * from a random grid, or one cell's digit changed: at most nine counts
 * to 64, well under a millisecond), and rejected counts the descents
 * given up.  The best puzzle so far (has_best, best, best_rating) is
 * the kept one whose level is the nearest the one asked (the first
 * found of equally near ones).  Plain data, like struct sudoku_gen.
 */
struct sudoku_genx {
	struct sudoku_gen	gen;
	struct sudoku_gen_opts	opts;
	unsigned long		rejected;
	int			has_best;
	struct sudoku_grid	best;
	struct sudoku_rating	best_rating;
	struct sudoku_grid	work;		/* private from here on */
	unsigned long		work_count;
	unsigned int		stuck;
	int			walking;
};

/*
 * Starts a generation as sudoku_gen_init() does, under opts (NULL: no
 * options, and then exactly sudoku_gen_init()'s puzzles for the same
 * seed).  level may be SUDOKU_LEVEL_ANY: the first puzzle kept is the
 * answer.  Returns 0, or -1 for options no puzzle meets: a symmetry or
 * level out of range, clues_max below 17 (no puzzle with fewer givens
 * has one solution) or above 81, clues_min above clues_max, a pattern
 * of fewer than 17 cells, outside the clues bounds or not invariant
 * under the symmetry, or any other sudoku_genx_check() refuses;
 * sudoku_genx_run() then answers SUDOKU_GEN_BUDGET
 * at once.
 */
int	sudoku_genx_init(struct sudoku_genx *x, uint64_t seed,
	    enum sudoku_level level, uint64_t budget,
	    const struct sudoku_gen_opts *opts);

/*
 * Why no puzzle of that level meets opts (as sudoku_genx_init() judges
 * them: one short English phrase, a static string), or NULL when some
 * puzzle may.  Besides the bounds above: a pattern with two blank rows
 * of one band or columns of one stack (no puzzle on it has one
 * solution), and, for a level above easy, a pattern whose blanks
 * singles always fill (taking away, again and again, a blank that is
 * the only one of its row, column or box leaves none), or clues_min of
 * 78 or more.
 */
const char *sudoku_genx_check(const struct sudoku_gen_opts *opts,
	    enum sudoku_level level);

/* As sudoku_gen_run(), for a generation with options. */
enum sudoku_gen_result sudoku_genx_run(struct sudoku_genx *x,
	    unsigned int max_attempts, struct sudoku_grid *out,
	    struct sudoku_rating *r);

/*
 * The best puzzle so far (for a caller whose deadline has come): the
 * answer once FOUND, else the kept puzzle of the nearest level.  *out
 * and *r (may be NULL) get it; returns 0, or -1 if none was kept yet.
 */
int	sudoku_genx_best(const struct sudoku_genx *x, struct sudoku_grid *out,
	    struct sudoku_rating *r);

/*
 * Minimize and constrain (reduce.c), in slices like a search.  The
 * state is plain data in the caller's memory (a struct sudoku_search
 * and some more), copyable, with no cleanup.
 *
 * MINIMIZE: the givens, in a random order drawn from seed, are each
 * removed unless that lets a second solution in; the answer is a
 * subset of the givens from which no given can be removed.  The input
 * must have exactly one solution: SUDOKU_NOSOLUTION or SUDOKU_MULTIPLE
 * otherwise.
 *
 * CONSTRAIN: a solution drawn from seed (any of the input's solutions
 * may come, the same for the same seed everywhere), then its digits
 * added to the blanks, in a random order drawn from seed, until the
 * puzzle has exactly one solution: the answer holds every given of the
 * input.  SUDOKU_NOSOLUTION if there is no solution; a proper input is
 * its own answer.
 *
 * Every random choice comes from the state's own PRNG, and the searches
 * answer only what does not depend on the solver's search order, so a
 * seed gives the same answer on every machine.  budget bounds the
 * guesses of all the searches (0: SUDOKU_BUDGET_DEFAULT).
 */
struct sudoku_reduce {
	struct sudoku_search	search;		/* the search under way */
	uint64_t		rng[4];		/* private from here on */
	uint64_t		budget;
	uint64_t		spent;		/* guesses of finished searches */
	uint64_t		steps;
	unsigned long		checks;		/* searches started */
	struct sudoku_grid	puzzle;		/* the answer so far */
	struct sudoku_grid	trial;
	struct sudoku_grid	solution;
	struct sudoku_transform	t;
	uint8_t			order[SUDOKU_CELLS];
	uint8_t			n;
	uint8_t			at;
	uint8_t			lo;
	uint8_t			hi;
	int			kind;
	int			phase;
	enum sudoku_result	result;
};

/*
 * Start a minimize or a constrain of in.  Return SUDOKU_MORE, or
 * SUDOKU_INVALID for broken givens (the state then answers that).
 */
enum sudoku_result sudoku_minimize_init(struct sudoku_reduce *r,
	    const struct sudoku_grid *in, uint64_t seed, uint64_t budget);
enum sudoku_result sudoku_constrain_init(struct sudoku_reduce *r,
	    const struct sudoku_grid *in, uint64_t seed, uint64_t budget);

/*
 * Goes on for at most about slice more guesses, each search started
 * counting one more (0: until done).  Returns SUDOKU_MORE when the
 * slice ran out (call again), else SUDOKU_SOLVED (the answer is
 * ready), SUDOKU_NOSOLUTION, SUDOKU_MULTIPLE (minimize only),
 * SUDOKU_BUDGET or SUDOKU_INVALID; once done, further calls return it
 * again.  The answer is the same whatever the slices.
 */
enum sudoku_result sudoku_reduce_run(struct sudoku_reduce *r,
	    uint64_t slice);

/*
 * The answer (once SUDOKU_SOLVED; before, the puzzle so far) and the
 * effort so far of all the searches (either may be NULL).
 */
void	sudoku_reduce_result(const struct sudoku_reduce *r,
	    struct sudoku_grid *out, struct sudoku_stats *st);

/*
 * The rating of a candidate state, as sudoku_rate() rates a puzzle but
 * from c (the state of a player, or sudoku_cands_init() of a puzzle,
 * which gives sudoku_rate()'s rating) and with its solution given,
 * for the trials at dead ends.  used[t] (may be NULL) gets the number
 * of steps of technique t, the trials in used[SUDOKU_TECH_TRIAL].
 * Returns SUDOKU_HINT_DONE, or SUDOKU_HINT_BROKEN when c contradicts
 * itself or the solution (check sudoku_cands_wrong() first); the
 * rating then covers the steps up to there.
 */
enum sudoku_hint_result sudoku_rate_cands(const struct sudoku_cands *c,
	    const struct sudoku_grid *solution, struct sudoku_rating *r,
	    unsigned int used[SUDOKU_TECH_COUNT]);

/*
 * A path: the steps sudoku_hint() gives from a state, each applied,
 * until the grid is done or no technique applies (an extreme dead end,
 * where the path ends: it never guesses).  cands is the state reached,
 * used[] the steps of each technique so far, steps their number, end
 * SUDOKU_HINT_STEP until the path has ended and then how.
 */
struct sudoku_path {
	struct sudoku_cands	cands;
	unsigned int		used[SUDOKU_TECH_COUNT];
	unsigned int		steps;
	enum sudoku_hint_result	end;
};

void	sudoku_path_init(struct sudoku_path *p,
	    const struct sudoku_cands *start);

/*
 * The next step (as sudoku_hint() gives it for the state reached),
 * applied and counted: SUDOKU_HINT_STEP with *step; at the end DONE,
 * NOSTEP or BROKEN, and the same again on later calls.  A path from a
 * puzzle takes the steps sudoku_rate() counts, up to the first dead end.
 */
enum sudoku_hint_result sudoku_path_next(struct sudoku_path *p,
	    struct sudoku_step *step);

/*
 * The summary of a path: sudoku_rating_text() of r (give the rating of
 * the path's start, sudoku_rate_cands(), so the words are RATE's) and
 * " <technique>=<steps>" for each technique the path used, in the
 * order of the table, e.g. "medium 2.6 naked_pair naked_single=31
 * hidden_single=22 pointing=4 claiming=4 naked_pair=1".  Returns what
 * snprintf() returns.
 */
int	sudoku_path_text(const struct sudoku_path *p,
	    const struct sudoku_rating *r, char *buf, size_t size);

/*
 * Every solution in turn, and searches from pencil marks (sudoku.c).
 *
 * sudoku_search_next() goes on with a search started by
 * sudoku_search_init() or sudoku_search_init_cands() for at most about
 * slice more guesses (0: until the next solution) and stops at each
 * solution: SUDOKU_SOLVED with it in *sol (call again for the next),
 * SUDOKU_MORE when the slice ran out first, SUDOKU_NOSOLUTION once there
 * is none left (every solution, or limit of them, handed out),
 * SUDOKU_BUDGET, or SUDOKU_INVALID.  With SUDOKU_LEXMIN the solutions
 * come in increasing order (as 81-digit strings): the first is
 * SUDOKU_LEXMIN's, the second the next larger, and so on.  A search
 * is walked with sudoku_search_next() or sudoku_search_run(), not both.
 */
enum sudoku_result sudoku_search_next(struct sudoku_search *s,
	    uint64_t slice, struct sudoku_grid *sol);

/*
 * sudoku_search_init() of a pencil-mark puzzle (the 729-character form,
 * sudoku_cands_parse()): its solutions are the grids whose every cell
 * holds one of its candidates.  A cell with one candidate is a given; a
 * cell with none, or two givens in a unit, make SUDOKU_INVALID as broken
 * givens do (nothing to run).
 */
enum sudoku_result sudoku_search_init_cands(struct sudoku_search *s,
	    const struct sudoku_cands *c, enum sudoku_policy policy,
	    unsigned long limit, uint64_t budget);

/*
 * A puzzle read in two steps (sudoku.c).  sudoku_parse_cells() is
 * sudoku_parse() but for its last check, the givens against each other:
 * for a caller that starts a search of g at once, as the search checks
 * them as it starts (sudoku_search_init() answers SUDOKU_INVALID), and
 * checking them twice was 5 % of a SOLVE of a 17-clue puzzle.  Then
 * sudoku_conflict() names the conflict.  On -1, g may be partly written.
 */
int	sudoku_parse_cells(const char *s, size_t len, struct sudoku_grid *g,
	    struct sudoku_perror *err);
/*
 * The first conflict among g's givens, as sudoku_parse() reports it: -1
 * with *err set (err may be NULL), or 0 if there is none.
 */
int	sudoku_conflict(const struct sudoku_grid *g,
	    struct sudoku_perror *err);

#endif /* SUDOKU_TOOLS_H */
