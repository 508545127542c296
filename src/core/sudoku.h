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
	SUDOKU_PERR_CONFLICT	/* two givens share a digit in a unit */
};

enum sudoku_unit {
	SUDOKU_UNIT_ROW = 0,
	SUDOKU_UNIT_COL,
	SUDOKU_UNIT_BOX
};

/* Why a puzzle was refused by sudoku_parse(). */
struct sudoku_perror {
	enum sudoku_perr	kind;
	size_t			length;	/* LENGTH: cells found */
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
	SUDOKU_MORE		/* sudoku_search_*(): not done yet */
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
 * SSSE3, SSE4.1, SSE4.2, POPCNT) or "avx2" (x86-64 with AVX2, BMI1,
 * BMI2, POPCNT).  Every copy gives the same answers and the same
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
	_Alignas(16) unsigned char	opaque[SUDOKU_SEARCH_SIZE];
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
void	sudoku_search_result(const struct sudoku_search *s, unsigned long *count,
	    struct sudoku_grid *first, struct sudoku_stats *st);

#endif /* SUDOKU_H */
