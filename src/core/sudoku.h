/* SPDX-License-Identifier: ISC */
/*
 * sudoku.h -- the sudokud solver core.
 *
 * Pure computation: no I/O, no global mutable state, no allocation.
 * Every function is reentrant; one call per thread needs no locking.
 * The daemon, the client, the tests and the benchmarks all link this.
 */
#ifndef SUDOKU_H
#define SUDOKU_H

#include <stddef.h>
#include <stdint.h>

/* C++ programs include this too: C linkage, and C++'s alignas. */
#ifdef __cplusplus
extern "C" {
#define SUDOKU_ALIGNAS(n)	alignas(n)
#else
#define SUDOKU_ALIGNAS(n)	_Alignas(n)
#endif

#define SUDOKU_CELLS	81

/*
 * Default search budget: the most branch points (guesses) one call may
 * make.  The hardest known 9x9 puzzles need a few thousand guesses with
 * this solver; counting an empty grid to a large limit needs about one
 * guess per solution.  The budget keeps every call bounded.
 */
#define SUDOKU_BUDGET_DEFAULT	1000000ULL

/* A grid: cell[r * 9 + c] is 0 for a blank, 1..9 for a digit. */
struct sudoku_grid {
	uint8_t	cell[SUDOKU_CELLS];
};

enum sudoku_perr {
	SUDOKU_PERR_NONE = 0,
	SUDOKU_PERR_LENGTH,	/* not 81 cells: length holds the count */
	SUDOKU_PERR_CHAR,	/* bad byte at pos (0-based) */
	SUDOKU_PERR_CONFLICT,	/* two givens share a digit in a unit */
	SUDOKU_PERR_CANDLEN	/* sudoku_cands_parse(): not 81 nor 729 */
};

enum sudoku_unit {
	SUDOKU_UNIT_ROW = 0,
	SUDOKU_UNIT_COL,
	SUDOKU_UNIT_BOX
};

/* Why a puzzle was refused by sudoku_parse(). */
struct sudoku_perror {
	enum sudoku_perr	kind;
	size_t			length;	/* LENGTH, CANDLEN: cells found */
	size_t			pos;	/* CHAR: 0-based byte offset */
	unsigned char		byte;	/* CHAR: the offending byte */
	int			cell1;	/* CONFLICT: first cell, 0..80 */
	int			cell2;	/* CONFLICT: second cell, > cell1 */
	int			digit;	/* CONFLICT: 1..9 */
	enum sudoku_unit	unit;	/* CONFLICT: row, column or box */
	int			unit_index; /* CONFLICT: 0..8 */
};

/* Outcome of a solve or count. */
enum sudoku_result {
	SUDOKU_SOLVED = 0,	/* a solution was found (count >= 1) */
	SUDOKU_NOSOLUTION,	/* proved unsolvable (count == 0) */
	SUDOKU_BUDGET,		/* search budget exhausted; no answer */
	SUDOKU_INVALID,		/* givens break a rule (unparsed grid) */
	SUDOKU_MORE,		/* sudoku_search_*(): not done yet */
	SUDOKU_MULTIPLE		/* sudoku_rate(): more than one solution */
};

enum sudoku_policy {
	SUDOKU_ANY = 0,		/* any solution, fastest */
	SUDOKU_LEXMIN		/* the lexicographically smallest one */
};

/* Effort of one call. */
struct sudoku_stats {
	uint64_t	guesses;	/* branch points */
	uint64_t	steps;		/* propagation steps (cells placed) */
};

/*
 * Parse exactly len bytes as one puzzle: '1'-'9' givens, '0' or '.'
 * blanks.  The caller strips the line terminator (LF, CRLF) and any
 * trailing blanks it wants to tolerate; sudoku_parse() itself accepts
 * nothing else.  Checks, in order: length (must be 81), every byte,
 * then the givens against each other (the first conflict in row-major
 * order of the second cell is reported).  Returns 0 or -1 with *err set.
 * err may be NULL.
 */
int	sudoku_parse(const char *s, size_t len, struct sudoku_grid *g,
	    struct sudoku_perror *err);

/*
 * Human text for a parse error, without the error code word, e.g.
 * "expected 81 cells, found 80", "bad character 'x' (0x78) at position 5",
 * "digit 5 twice in row 1: r1c2 and r1c7".  Positions are 1-based; cells
 * are in r1c1 notation.  Returns what snprintf() returns.
 */
int	sudoku_perror_text(const struct sudoku_perror *err, char *buf,
	    size_t size);

/* Writes the 81 digits ('0' for a blank); no terminator is added. */
void	sudoku_format(const struct sudoku_grid *g, char out[SUDOKU_CELLS]);

/* The name of a unit, "row", "column" or "box". */
const char *sudoku_unit_name(enum sudoku_unit u);

/*
 * The copy of the solver in use: the engine is built for several
 * instruction sets and the best one the CPU runs is picked on the first
 * call.  "generic" (portable C; SSE2 on x86-64), "sse41" (x86-64 with
 * SSSE3, SSE4.1, SSE4.2, POPCNT), "avx2" (x86-64 with AVX2, BMI1,
 * BMI2, POPCNT) or "avx512" (the avx2 set and AVX-512 F, BW, DQ, VL;
 * never picked by itself, as it is no faster than avx2 where measured:
 * only SUDOKU_ISA=avx512 runs it).  Every copy gives the same answers and the same
 * effort.  For tests: SUDOKU_ISA=name in the environment (read once, at
 * that first call) forces a copy, if the CPU runs it; otherwise the
 * choice is the usual one, and this tells which was made.
 */
const char *sudoku_isa(void);

/*
 * Solve in with the given policy.  budget is the most guesses allowed
 * (0 means SUDOKU_BUDGET_DEFAULT).  On SUDOKU_SOLVED *out holds the
 * complete grid.  out may alias in.  st may be NULL; if not, it is
 * overwritten with this call's effort.  Deterministic.
 */
enum sudoku_result sudoku_solve(const struct sudoku_grid *in,
	    enum sudoku_policy policy, uint64_t budget,
	    struct sudoku_grid *out, struct sudoku_stats *st);

/*
 * Count solutions of in, stopping at limit (limit >= 1).  *count gets
 * the number found (== limit means "at least limit").  When at least
 * one exists and first is not NULL, *first gets the first one found.
 * Returns SUDOKU_SOLVED if count >= 1, SUDOKU_NOSOLUTION if 0,
 * SUDOKU_BUDGET if the budget ran out first (*count then holds what was
 * found so far, a lower bound), SUDOKU_INVALID for broken givens.
 */
enum sudoku_result sudoku_count(const struct sudoku_grid *in,
	    unsigned long limit, uint64_t budget, unsigned long *count,
	    struct sudoku_grid *first, struct sudoku_stats *st);

/*
 * A search that runs in slices, for a caller that must not be held for
 * the whole of a long search (the daemon's event loop serves other
 * clients between slices).  The state is the caller's memory and plain
 * data: it may be copied (memcpy) between calls and needs no cleanup.
 * Its size is part of the ABI.
 */
#define SUDOKU_SEARCH_SIZE	16384

struct sudoku_search {
	SUDOKU_ALIGNAS(16) unsigned char	opaque[SUDOKU_SEARCH_SIZE];
};

/*
 * Start a search of in for up to limit solutions (0 counts as 1),
 * branching as policy says (SUDOKU_LEXMIN finds solutions in increasing
 * order), within budget guesses (0 = SUDOKU_BUDGET_DEFAULT).  Returns
 * SUDOKU_MORE, or SUDOKU_INVALID for broken givens (nothing to run).
 */
enum sudoku_result sudoku_search_init(struct sudoku_search *s,
	    const struct sudoku_grid *in, enum sudoku_policy policy,
	    unsigned long limit, uint64_t budget);

/*
 * Go on for at most slice more guesses (0: until done).  Returns
 * SUDOKU_MORE when the slice ran out (call again), else the outcome as
 * sudoku_count() gives it; once done, further calls return it again.
 * The answer is the same whatever the slices.
 */
enum sudoku_result sudoku_search_run(struct sudoku_search *s,
	    uint64_t slice);

/*
 * Solutions found so far (the count), the first one (written only when
 * the count is at least 1; first may be NULL) and the effort so far.
 */
void	sudoku_search_result(const struct sudoku_search *s,
	    unsigned long *count, struct sudoku_grid *first,
	    struct sudoku_stats *st);

/* ==== Logical solving, rating and generation ===========================
 *
 * A logical solver that works the way people do: on pencil marks
 * (candidates), one step at a time, always with the easiest technique
 * that makes progress.  Files: cands.c (candidate grids), logic.c
 * (the technique table, singles, locked candidates, subsets), fish.c,
 * wing.c, chain.c (the harder techniques), step.c (step text), rate.c
 * (levels and scores), generate.c (puzzle generator).  The same rules
 * as above: no I/O, no allocation, no mutable globals; the caller owns
 * every struct.  doc/rating.md describes the techniques and the figures.
 */

/* Levels of difficulty, easiest first. */
enum sudoku_level {
	SUDOKU_LEVEL_EASY = 0,	/* singles */
	SUDOKU_LEVEL_MEDIUM,	/* locked candidates, naked/hidden pairs */
	SUDOKU_LEVEL_HARD,	/* triples, quads, X-wing, swordfish, wings */
	SUDOKU_LEVEL_EXPERT,	/* jellyfish, colouring, chains */
	SUDOKU_LEVEL_EXTREME,	/* none of these is enough: trial and error */
	SUDOKU_LEVEL_COUNT
};

/*
 * The techniques, in the order the solver tries them, which is also the
 * order of difficulty: X(ID, name, level, weight).  The weight is in
 * tenths (34 is 3.4); see struct sudoku_rating for the score.  Levels
 * never decrease down the list, so "the hardest technique needed when
 * the easiest is always taken first" is well defined.  trial_and_error
 * is never a step: it stands for the dead ends of an extreme puzzle.
 */
#define SUDOKU_TECHNIQUES(X)						\
	X(NAKED_SINGLE,		naked_single,		EASY,	 10)	\
	X(HIDDEN_SINGLE,	hidden_single,		EASY,	 12)	\
	X(POINTING,		pointing,		MEDIUM,	 20)	\
	X(CLAIMING,		claiming,		MEDIUM,	 21)	\
	X(NAKED_PAIR,		naked_pair,		MEDIUM,	 23)	\
	X(HIDDEN_PAIR,		hidden_pair,		MEDIUM,	 25)	\
	X(X_WING,		x_wing,			HARD,	 30)	\
	X(NAKED_TRIPLE,		naked_triple,		HARD,	 31)	\
	X(SWORDFISH,		swordfish,		HARD,	 32)	\
	X(HIDDEN_TRIPLE,	hidden_triple,		HARD,	 33)	\
	X(XY_WING,		xy_wing,		HARD,	 34)	\
	X(XYZ_WING,		xyz_wing,		HARD,	 35)	\
	X(NAKED_QUAD,		naked_quad,		HARD,	 36)	\
	X(HIDDEN_QUAD,		hidden_quad,		HARD,	 36)	\
	X(JELLYFISH,		jellyfish,		EXPERT,	 40)	\
	X(SIMPLE_COLOURING,	simple_colouring,	EXPERT,	 42)	\
	X(X_CHAIN,		x_chain,		EXPERT,	 44)	\
	X(XY_CHAIN,		xy_chain,		EXPERT,	 46)	\
	X(TRIAL,		trial_and_error,	EXTREME, 50)

#define SUDOKU_TECH_ENUM(id, name, level, weight)	SUDOKU_TECH_##id,
enum sudoku_technique {
	SUDOKU_TECHNIQUES(SUDOKU_TECH_ENUM)
	SUDOKU_TECH_COUNT
};
#undef SUDOKU_TECH_ENUM

/* Longest chain (cells) x_chain and xy_chain look for. */
#define SUDOKU_CHAIN_MAX	12

/*
 * Candidates (pencil marks): bit d - 1 of mask[cell] is set while digit
 * d may still go in the cell (cells row-major, 0..80).  A cell with one
 * candidate is filled, whether a step placed it or eliminations left
 * it so (the 729-byte layout has no other way to say "placed").  A
 * filled cell's digit is not a candidate of its peers (the cells
 * sharing its row, column or box) even while their masks still have
 * the bit: the techniques work on these effective candidates, so a
 * client may clear a placed digit from the peers' marks or not, and a
 * blank may start with all nine.
 */
struct sudoku_cands {
	uint16_t	mask[SUDOKU_CELLS];
};

/* Length of the pencil-mark text: nine characters per cell. */
#define SUDOKU_CANDS_LEN	(9 * SUDOKU_CELLS)

/*
 * The state a player starts from: a filled cell of g has its digit only,
 * a blank all nine (no pencil marks yet; the filled peers' digits are
 * ignored as above).  The same as sudoku_cands_parse() of g's 81 cells.
 * g is not checked for conflicts.
 */
void	sudoku_cands_init(struct sudoku_cands *c, const struct sudoku_grid *g);

/*
 * Parses a player's state: either 81 cells as for sudoku_parse() (a
 * blank has every candidate, the digits are not checked against each
 * other), or SUDOKU_CANDS_LEN bytes of pencil marks: for each cell in
 * row-major order nine bytes, the k-th '1' + k while digit k + 1 is a
 * candidate and '.' once it is not (the layout tdoku reads).  When
 * puzzle is not NULL its givens are kept: a given cell's candidates are
 * cut to the given (a state that lost it is then "wrong", below).
 * Returns 0, or -1 with *err (may be NULL) set: SUDOKU_PERR_CANDLEN for
 * a length other than 81 or SUDOKU_CANDS_LEN, SUDOKU_PERR_CHAR for a
 * bad byte (pos is 0-based, the text 1-based as for puzzles).
 */
int	sudoku_cands_parse(const char *s, size_t len,
	    const struct sudoku_grid *puzzle, struct sudoku_cands *c,
	    struct sudoku_perror *err);

/* Writes the SUDOKU_CANDS_LEN bytes of pencil marks; no terminator. */
void	sudoku_cands_format(const struct sudoku_cands *c,
	    char out[SUDOKU_CANDS_LEN]);

/*
 * The cells of c that disagree with solution: whose candidates do not
 * include the solution's digit (for an 81-cell state: the filled cells
 * that are wrong).  Writes them in row-major order to cells (may be
 * NULL) and returns how many.  Check this before asking for a hint: the
 * techniques assume a state that the solution satisfies.
 */
int	sudoku_cands_wrong(const struct sudoku_cands *c,
	    const struct sudoku_grid *solution, uint8_t cells[SUDOKU_CELLS]);

/* One thing a step does. */
struct sudoku_action {
	uint8_t		cell;		/* 0..80 */
	uint8_t		digit;		/* 1..9 */
	uint8_t		place;		/* 1: place digit, 0: eliminate it */
};

/*
 * Most actions of a step: its eliminations are of one digit (at most
 * one per cell), or of several digits in at most nine cells of a unit.
 */
#define SUDOKU_STEP_ACTIONS	SUDOKU_CELLS
/*
 * Most pattern cells a step names: a colour of a conjugate cluster has
 * at most 9 true cells, each with at most 3 partners of the other colour.
 */
#define SUDOKU_STEP_CELLS	36

/*
 * A step of the logical solver: what it does (actions, eliminations in
 * row-major order of cell, then digit) and what its explanation names.
 * unit[] holds units as 0..8 rows, 9..17 columns, 18..26 boxes (for a
 * fish the base lines, then the cover lines); cell[] the pattern's cells
 * with their candidates in cands[] (for a chain, in chain order; for
 * simple colouring, the first colour's nsplit cells, then the other's);
 * digits the digits the pattern is about, as a mask.
 */
struct sudoku_step {
	enum sudoku_technique	tech;
	uint16_t		digits;
	uint8_t			nunits;
	uint8_t			unit[8];
	uint8_t			ncells;
	uint8_t			nsplit;	/* colouring: cells of colour 1 */
	uint8_t			wrap;	/* colouring: colour 1 is false */
	uint8_t			cell[SUDOKU_STEP_CELLS];
	uint16_t		cands[SUDOKU_STEP_CELLS];
	uint8_t			nactions;
	struct sudoku_action	action[SUDOKU_STEP_ACTIONS];
};

enum sudoku_hint_result {
	SUDOKU_HINT_STEP = 0,	/* *step holds the next step */
	SUDOKU_HINT_DONE,	/* every cell is filled, consistently */
	SUDOKU_HINT_NOSTEP,	/* no technique applies: an extreme dead end */
	SUDOKU_HINT_BROKEN	/* the state contradicts itself */
};

/*
 * The next step of the logical solver on c: the first technique in the
 * table that makes progress, and within it the first pattern found in
 * a fixed scan order (so the answer depends on c only).  Never guesses.
 * Every placement and elimination holds in every solution of c.
 */
enum sudoku_hint_result sudoku_hint(const struct sudoku_cands *c,
	    struct sudoku_step *step);

/*
 * Applies step to c: a placement leaves the cell that digit only and
 * removes it from the cell's peers; an elimination removes one digit.
 */
void	sudoku_step_apply(struct sudoku_cands *c,
	    const struct sudoku_step *step);

/*
 * The wire text of a step, one line of 7-bit ASCII without a newline:
 * "<technique> <actions> <explanation>", actions comma-separated as
 * rRcC=D (place) or rRcC-D (eliminate), e.g. "hidden_single r3c5=7 7
 * can only go in r3c5 within box 2".  Returns what snprintf() returns.
 */
int	sudoku_step_text(const struct sudoku_step *step, char *buf,
	    size_t size);

/* "naked_single", ...; "unknown" out of range. */
const char *sudoku_technique_name(enum sudoku_technique t);
enum sudoku_level sudoku_technique_level(enum sudoku_technique t);
unsigned int sudoku_technique_weight(enum sudoku_technique t);

/* "easy" .. "extreme"; "unknown" out of range. */
const char *sudoku_level_name(enum sudoku_level l);

/* Parses len bytes "easy" .. "extreme", any case; 0 or -1. */
int	sudoku_level_parse(const char *s, size_t len, enum sudoku_level *l);

/*
 * The rating of a puzzle.  The logical solver runs from the givens to
 * the end, always taking the easiest step.  At a dead end (extreme
 * only) the unsolved cell with the fewest candidates (the first one in
 * row-major order) is given its digit from the solution, counted as a
 * trial, and the solver goes on.
 *
 * level is the level of the hardest technique used (trial_and_error
 * when there was a dead end), and, in tenths,
 *
 *	score = w + min(floor(log2(k)), 9 - w % 10),  w = weight(hardest)
 *
 * where k counts the steps whose technique is of the puzzle's level,
 * naked singles left out (for an extreme puzzle: the trials); k = 0
 * (naked singles only) counts as 1.  So a tenth for each doubling of
 * k, and a level's scores stay in x.0-x.9 (easy 1.0-1.9, ..., extreme
 * 5.0-5.9): every puzzle of a level scores below every puzzle of the
 * next.
 */
struct sudoku_rating {
	enum sudoku_level	level;
	enum sudoku_technique	hardest;
	unsigned int		score;	/* tenths: 34 means 3.4 */
	unsigned int		steps;	/* logical steps, trials excluded */
	unsigned int		hard;	/* k above */
	unsigned int		trials;	/* dead ends (extreme only) */
};

/*
 * Rates a puzzle.  First checks it with sudoku_count(limit 2, budget):
 * SUDOKU_INVALID (conflicting givens), SUDOKU_NOSOLUTION, SUDOKU_MULTIPLE
 * or SUDOKU_BUDGET are returned as they come and *r is untouched; on
 * SUDOKU_SOLVED (exactly one solution) *r holds the rating.  The rating
 * itself needs no search beyond that check.
 */
enum sudoku_result sudoku_rate(const struct sudoku_grid *puzzle,
	    uint64_t budget, struct sudoku_rating *r);

/* "<level> <score> <hardest>", e.g. "hard 3.4 xy_wing"; as snprintf(). */
int	sudoku_rating_text(const struct sudoku_rating *r, char *buf,
	    size_t size);

/*
 * Puzzle generator, resumable: sudoku_gen_init(), then sudoku_gen_run()
 * until it returns something other than SUDOKU_GEN_MORE.  An attempt
 * fills a grid by a randomized search, removes givens in a random order
 * while the solution stays unique (sudoku_count, limit 2) until no
 * given can go, and rates the result; the first attempt whose puzzle
 * has the level asked for is the answer.  Every random choice comes
 * from the generator's own PRNG (xoshiro256** seeded with splitmix64),
 * never from the solver's search order, so a seed gives the same puzzle
 * on every machine and every version with the same techniques.
 */
struct sudoku_gen {
	uint64_t		rng[4];		/* xoshiro256** state */
	uint64_t		budget;		/* guesses allowed in all */
	uint64_t		spent;		/* guesses used so far */
	unsigned long		attempts;	/* minimal puzzles made */
	unsigned long		seen[SUDOKU_LEVEL_COUNT]; /* their levels */
	enum sudoku_level	level;		/* the level wanted */
	int			state;		/* private */
	struct sudoku_grid	puzzle;		/* found: the answer */
	struct sudoku_rating	rating;		/* found: its rating */
};

enum sudoku_gen_result {
	SUDOKU_GEN_FOUND = 0,	/* *out holds the puzzle */
	SUDOKU_GEN_MORE,	/* the slice is used up: call again */
	SUDOKU_GEN_BUDGET	/* the budget ran out: no puzzle */
};

/*
 * Starts a generation.  budget bounds the guesses of all attempts
 * together (0 means SUDOKU_BUDGET_DEFAULT): those of the uniqueness
 * checks, plus one per digit the grid fill retries after a dead end.
 * An attempt takes about 110.  The budget decides whether a puzzle is
 * found, never which one.
 */
void	sudoku_gen_init(struct sudoku_gen *gen, uint64_t seed,
	    enum sudoku_level level, uint64_t budget);

/*
 * Makes at most max_attempts attempts (each a few milliseconds at
 * most; 0 makes none).  On SUDOKU_GEN_FOUND *out is the puzzle (blanks
 * 0) and *r (if not NULL) its rating; calling again after FOUND or
 * BUDGET returns the same result without work.
 */
enum sudoku_gen_result sudoku_gen_run(struct sudoku_gen *gen,
	    unsigned int max_attempts, struct sudoku_grid *out,
	    struct sudoku_rating *r);

/*
 * Symmetries, equivalence (canonical forms), generation with options,
 * minimize and constrain, whole logical paths: the functions added in
 * SUDOKU_1.1, in a header of their own (included from here only).
 */
#include "sudoku_tools.h"

#ifdef __cplusplus
}
#endif

#endif /* SUDOKU_H */
