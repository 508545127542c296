/* SPDX-License-Identifier: ISC */
/*
 * solver_body.h -- bitboard propagation and depth-first search, the
 * engine, compiled once per instruction set: solver.c includes it for
 * the portable copy, solver_sse41.c, solver_avx2.c and solver_avx512.c
 * for the x86-64 ones (see there).  Before including it, define
 * SOLVER_ENGINE (the copy's name: generic, sse41, avx2, avx512),
 * SOLVER_POPCNT (1 if the copy may use the popcnt instruction),
 * SOLVER_SSE41 (1 for SSE4.1 code), SOLVER_AVX2 (1 for AVX2 code) and
 * SOLVER_AVX512 (1 for AVX-512 code).  Every copy makes the same deductions
 * in the same order: the same answers, guesses and steps.
 *
 * Layout.  The grid is cut into three bands of three rows.  For every
 * band b and digit d (0..8) one 27-bit word f[b * 9 + d] holds the cells
 * of the band where d may still go: bit (row % 3) * 9 + column.  A
 * placed cell keeps its own digit's bit and loses every other digit's.
 * u[b] holds the band's cells not placed yet.
 *
 * Start (solver_init): the givens of each band and digit are found with
 * byte compares, and every word is cut to the givens and the blanks that
 * no given of the digit sees, with a few shifts and masks per word; the
 * same masks find two givens of a digit in one unit.  Words where the
 * digit is settled (three givens, nothing else) need no band step.
 *
 * Propagation (solver_propagate) repeats until nothing changes:
 *  - band step (solver_band), for each (band, digit) word that changed:
 *    split the word into nine minirows (one row's three cells in one
 *    box); d needs one minirow per row and per box, i.e. a permutation
 *    of the 3x3 minirow matrix, so a minirow in no such permutation is
 *    cleared (this covers locked candidates both ways and hidden singles
 *    in boxes) and no permutation at all is a contradiction.  A row left
 *    with one cell places d there: the cell is cleared from the other
 *    digits and the column from the other two bands;
 *  - cell step (solver_cells): naked singles (one digit left) and empty
 *    cells, counted with bitwise adders over the nine digit words;
 *  - column step (solver_columns), at a fixpoint of the first two: the
 *    band step turned on its side, on the minicolumns of each stack
 *    (locked candidates in columns, hidden singles in columns through
 *    the band step, empty columns), only for the digits whose words
 *    changed since its last run.
 * Each deduction only removes candidates that are in no solution of the
 * current grid; a single is "placed" by cutting its row down to it and
 * letting the band step do the rest.
 *
 * Search: at a fixpoint that is neither solved nor contradictory, pick a
 * cell and its smallest digit d (solver_pick), push a copy of the state
 * with d removed from the cell (the other branch) and go on with d
 * placed; a guess is one such branch point.  A count of a hard puzzle
 * (SOLVER_HARD, chosen at the first fixpoint) adds the triad step
 * (solver_triad.h) to propagation and branches on a digit's place in a
 * band or stack instead (solver_perms.h), tdoku's rule.  The stack
 * holds at most 81 states: with o the cells open (unsolved) in a
 * state, depth + o never exceeds 81 -- a cell branch adds one to the
 * depth and takes at least one cell off o once propagated, and a band
 * branch, which may place no cell, is taken only where depth + o < 81
 * (solver_step), so that a branch point (o >= 2) is at depth 79 at
 * most.  No allocation, no undo log: the stack, the current state and
 * the counters are one struct solver of about 10 KB, which lives in the
 * caller's struct sudoku_search, so a search can stop after any number
 * of guesses and go on later (solver_step()).
 */
#include <stdint.h>
#include <string.h>

#include "sudoku.h"
#include "solver.h"

/* 1 in solver_hard*.c: only the hard copy of the loop (solver_search.h). */
#ifndef SOLVER_HARD_PART
#define SOLVER_HARD_PART	0
#endif

#define SOLVER_CAT(a, b)	a##_##b
#define SOLVER_XCAT(a, b)	SOLVER_CAT(a, b)
#define SOLVER_FN(x)		SOLVER_XCAT(x, SOLVER_ENGINE)
#define SOLVER_STR(x)		#x
#define SOLVER_NAME		SOLVER_XSTR(SOLVER_ENGINE)
#define SOLVER_XSTR(x)		SOLVER_STR(x)

#define SOLVER_ALL	0x7ffffffu	/* the 27 cells of a band */

/* The branching rule: see solver_pick(). */
enum solver_mode {
	SOLVER_ANY = 0,		/* a bivalue cell: fewest guesses */
	SOLVER_COUNT,		/* the same, the likelier digit first */
	SOLVER_LEXMIN,		/* the first open cell: smallest first */
	SOLVER_HARD		/* COUNT on a hard puzzle: see solver_hard() */
};

enum {
	SOLVER_STALL = 0,	/* fixpoint, not solved: guess */
	SOLVER_SOLVED,
	SOLVER_FAIL		/* contradiction */
};

/*
 * Tables, built by the preprocessor so that they stay const and need no
 * generator: TBL(f) is f(0), f(1), ..., f(511).
 */
#define TBL2(f, n)	f(n), f((n) + 1)
#define TBL8(f, n)	TBL2(f, n), TBL2(f, (n) + 2), TBL2(f, (n) + 4), \
			TBL2(f, (n) + 6)
#define TBL64(f, n)	TBL8(f, n), TBL8(f, (n) + 8), TBL8(f, (n) + 16), \
			TBL8(f, (n) + 24), TBL8(f, (n) + 32), \
			TBL8(f, (n) + 40), TBL8(f, (n) + 48), TBL8(f, (n) + 56)
#define TBL(f)		TBL64(f, 0), TBL64(f, 64), TBL64(f, 128), \
			TBL64(f, 192), TBL64(f, 256), TBL64(f, 320), \
			TBL64(f, 384), TBL64(f, 448)

/* Which boxes (3 bits) a row's 9 cells v touch. */
#define OCC(v)		((((v) & 0007) != 0) | (((v) & 0070) != 0) << 1 | \
			(((v) & 0700) != 0) << 2)
static const uint8_t solver_occ[512] = { TBL(OCC) };

/*
 * m is a 3x3 minirow matrix, bit row * 3 + box.  PERMS(m) is the union
 * of the six permutation matrices inside m; SPREAD turns each of its
 * bits into the minirow's three cells.
 */
#define PERM(m, q)	(((m) & (q)) == (q) ? (q) : 0)
#define PERMS(m)	(PERM(m, 0x111) | PERM(m, 0x0a1) | PERM(m, 0x10a) | \
			PERM(m, 0x062) | PERM(m, 0x08c) | PERM(m, 0x054))
#define SPREAD1(x, j)	(((x) >> (j) & 1) * (7u << 3 * (j)))
#define SPREAD(x)	(SPREAD1(x, 0) | SPREAD1(x, 1) | SPREAD1(x, 2) | \
			SPREAD1(x, 3) | SPREAD1(x, 4) | SPREAD1(x, 5) | \
			SPREAD1(x, 6) | SPREAD1(x, 7) | SPREAD1(x, 8))
#define KEEP(m)		SPREAD(PERMS(m))
static const uint32_t solver_keep[512] = { TBL(KEEP) };

/*
 * The same, indexed by the transposed matrix (bit box * 3 + row), which
 * a few shifts and masks get from a word without a table: see
 * solver_band().
 */
#define TR1(m, r, c)	(((m) >> ((c) * 3 + (r)) & 1) << ((r) * 3 + (c)))
#define TR(m)		(TR1(m, 0, 0) | TR1(m, 0, 1) | TR1(m, 0, 2) | \
			TR1(m, 1, 0) | TR1(m, 1, 1) | TR1(m, 1, 2) | \
			TR1(m, 2, 0) | TR1(m, 2, 1) | TR1(m, 2, 2))
#define KEEPT(m)	KEEP(TR(m))
static const uint32_t solver_keept[512] = { TBL(KEEPT) };
static const uint16_t solver_perm[512] = { TBL(PERMS) };

/* A row's cells v if there is exactly one, else 0. */
#define SINGLE(v)	((v) != 0 && ((v) & ((v) - 1)) == 0 ? (v) : 0)
static const uint16_t solver_single[512] = { TBL(SINGLE) };

/* The other cells of the band in the row and the box of bit j. */
#define PEERS(j)	(((0x1ffu << 9 * ((j) / 9)) | \
			(0x1c0e07u << 3 * ((j) % 9 / 3))) & ~(1u << (j)))
static const uint32_t solver_peers[27] = {
	PEERS(0), PEERS(1), PEERS(2), PEERS(3), PEERS(4), PEERS(5),
	PEERS(6), PEERS(7), PEERS(8), PEERS(9), PEERS(10), PEERS(11),
	PEERS(12), PEERS(13), PEERS(14), PEERS(15), PEERS(16), PEERS(17),
	PEERS(18), PEERS(19), PEERS(20), PEERS(21), PEERS(22), PEERS(23),
	PEERS(24), PEERS(25), PEERS(26)
};

/* The column of bit j, in all three rows of a band. */
#define COLS(j)		(0x40201u << (j) % 9)
static const uint32_t solver_cols[27] = {
	COLS(0), COLS(1), COLS(2), COLS(3), COLS(4), COLS(5), COLS(6),
	COLS(7), COLS(8), COLS(9), COLS(10), COLS(11), COLS(12), COLS(13),
	COLS(14), COLS(15), COLS(16), COLS(17), COLS(18), COLS(19), COLS(20),
	COLS(21), COLS(22), COLS(23), COLS(24), COLS(25), COLS(26)
};

static inline int
solver_ctz(uint32_t x)
{
	return (__builtin_ctz(x));
}

/*
 * Bits set in x: the popcnt instruction in the copies built for CPUs
 * that have it, else plain SWAR (the x86-64 baseline has no popcnt).
 */
static inline int
solver_popcount(uint64_t x)
{
#if SOLVER_POPCNT || defined(__POPCNT__)
	return (__builtin_popcountll(x));
#else
	x -= x >> 1 & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + (x >> 2 & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return ((int)((x * 0x0101010101010101ull) >> 56));
#endif
}

/* The band row (9 bits in place) holding the single bit p. */
static inline uint32_t
solver_rowof(uint32_t p)
{
	if (p < (1u << 9))
		return (0x1ffu);
	if (p < (1u << 18))
		return (0x1ffu << 9);
	return (0x1ffu << 18);
}

/* Keeps only cell p (one bit) in its row of word i: d is placed there. */
static inline void
solver_place(struct board *bd, int i, uint32_t p, uint32_t *dirty)
{
	bd->f[i] &= ~solver_rowof(p) | p;
	*dirty |= 1u << i;
}

#include "solver_init.h"
#include "solver_cols.h"
#include "solver_lanes.h"
#include "solver_triad.h"
#include "solver_perms.h"
#include "solver_prop.h"
#include "solver_search.h"
