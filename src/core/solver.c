/*
 * solver.c -- bitboard propagation and depth-first search.
 *
 * Layout.  The grid is cut into three bands of three rows.  For every
 * band b and digit d (0..8) one 27-bit word f[b * 9 + d] holds the cells
 * of the band where d may still go: bit (row % 3) * 9 + column.  A
 * placed cell keeps its own digit's bit and loses every other digit's.
 * u[b] holds the band's cells not placed yet.
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
 * letting the band step do the rest.  On x86-64 (SSE2 is part of the
 * base ISA) clearing a placed cell from the nine digit words of its band
 * uses SSE2; elsewhere the same is done with a plain loop.
 *
 * Search: at a fixpoint that is neither solved nor contradictory, pick a
 * cell and its smallest digit d (solver_pick; its scoring uses popcnt
 * on x86-64 CPUs that have it, checked at run time), push a copy of the
 * state with d removed from the cell (the other branch) and go on with
 * d placed; a guess is one such branch point.  The stack holds at most 81
 * states: each entry has strictly more unsolved cells than the one above
 * it, and the current state fewer than the top one, once propagated.
 * No allocation, no undo log: the stack, the current state and the
 * counters are one struct solver of about 10 KB, which lives in the
 * caller's struct sudoku_search, so a search can stop after any number
 * of guesses and go on later (solver_step()).
 */
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "sudoku.h"
#include "solver.h"

/* Run-time choice of the popcnt instruction: see solver_bivalue(). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__POPCNT__)
#define SOLVER_POPCNT	1
#else
#define SOLVER_POPCNT	0
#endif

#define SOLVER_ALL	0x7ffffffu	/* the 27 cells of a band */

/* The branching rule: see solver_pick(). */
enum solver_mode {
	SOLVER_ANY = 0,		/* a bivalue cell: fewest guesses */
	SOLVER_LEXMIN		/* the first open cell: smallest first */
};
#define SOLVER_DEPTH	81		/* pending branches; see above */

struct board {
	uint32_t	f[27];		/* f[b * 9 + d]: where digit d may go */
	uint32_t	u[3];		/* cells of band b not placed yet */
	uint32_t	dirty;		/* words to revisit when popped */
};

/* Effort and scratch of one search. */
struct search {
	uint64_t	guesses;
	uint64_t	steps;
	uint32_t	bival[3];	/* bivalue cells seen by solver_cells */
	int		popcnt;		/* the CPU has popcnt */
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

static inline int
solver_ctz(uint32_t x)
{
	return (__builtin_ctz(x));
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

/* Fills bd from a grid; -1 if a value is > 9 or two givens conflict. */
static int
solver_init(struct board *bd, const struct sudoku_grid *g)
{
	uint32_t	 p, col;
	int		 cell, b, d, e, j;

	for (j = 0; j < 27; j++)
		bd->f[j] = SOLVER_ALL;
	bd->u[0] = bd->u[1] = bd->u[2] = SOLVER_ALL;
	for (cell = 0; cell < SUDOKU_CELLS; cell++) {
		if (g->cell[cell] == 0)
			continue;
		if (g->cell[cell] > 9)
			return (-1);
		d = g->cell[cell] - 1;
		b = cell / 27;
		j = cell % 27;
		p = 1u << j;
		if ((bd->f[b * 9 + d] & p) == 0)
			return (-1);	/* a peer holds d already */
		col = 0x40201u << (cell % 9);
		for (e = 0; e < 3; e++)
			bd->f[e * 9 + d] &= ~col;
		bd->f[b * 9 + d] &= ~solver_peers[j];
		bd->f[b * 9 + d] |= p;
		for (e = 0; e < 9; e++)
			if (e != d)
				bd->f[b * 9 + e] &= ~p;
		bd->u[b] &= ~p;
	}
	bd->dirty = (1u << 27) - 1;
	return (0);
}

/*
 * Clears cells nw from the nine digit words f[0..8] of a band; returns
 * which words changed (bit d for word d).
 */
#ifdef __SSE2__
static inline uint32_t
solver_clear(uint32_t *f, uint32_t nw)
{
	__m128i		 n = _mm_set1_epi32((int)nw), z = _mm_setzero_si128();
	__m128i		 v0, v1;
	uint32_t	 ch;

	v0 = _mm_loadu_si128((const __m128i *)f);
	v1 = _mm_loadu_si128((const __m128i *)(f + 4));
	ch = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(
	    _mm_and_si128(v0, n), z))) |
	    _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(
	    _mm_and_si128(v1, n), z))) << 4 |
	    ((f[8] & nw) == 0) << 8;
	_mm_storeu_si128((__m128i *)f, _mm_andnot_si128(n, v0));
	_mm_storeu_si128((__m128i *)(f + 4), _mm_andnot_si128(n, v1));
	f[8] &= ~nw;
	return (ch ^ 0x1ff);
}
#else
static inline uint32_t
solver_clear(uint32_t *f, uint32_t nw)
{
	uint32_t	 ch = 0;
	int		 d;

	for (d = 0; d < 9; d++) {
		ch |= (uint32_t)((f[d] & nw) != 0) << d;
		f[d] &= ~nw;
	}
	return (ch);
}
#endif

/* The band step for word i (band i / 9, digit i % 9); see the top. */
static inline int
solver_band(struct board *bd, int i, uint32_t *dirty, struct search *sr)
{
	uint32_t	 a = bd->f[i], k, s, nw, col;
	int		 b = i / 9, o1, o2;

	k = solver_keep[solver_occ[a & 0x1ff] |
	    solver_occ[a >> 9 & 0x1ff] << 3 | solver_occ[a >> 18] << 6];
	if (k == 0)
		return (-1);
	a &= k;
	s = solver_single[a & 0x1ff] |
	    (uint32_t)solver_single[a >> 9 & 0x1ff] << 9 |
	    (uint32_t)solver_single[a >> 18] << 18;
	nw = s & bd->u[b];
	if (nw == 0) {
		bd->f[i] = a;
		return (0);
	}
	bd->u[b] &= ~nw;
	*dirty |= solver_clear(&bd->f[b * 9], nw) << b * 9;
	bd->f[i] = a;
	*dirty &= ~(1u << i);

	col = (nw | nw >> 9 | nw >> 18) & 0x1ff;
	col *= 0x40201u;
	o1 = i >= 18 ? i - 18 : i + 9;
	o2 = i >= 9 ? i - 9 : i + 18;
	*dirty |= (uint32_t)((bd->f[o1] & col) != 0) << o1;
	*dirty |= (uint32_t)((bd->f[o2] & col) != 0) << o2;
	bd->f[o1] &= ~col;
	bd->f[o2] &= ~col;
	do {
		sr->steps++;
		nw &= nw - 1;
	} while (nw != 0);
	return (0);
}

/*
 * The cell step: fails on a cell with no digit left, places naked
 * singles, and notes bivalue cells for the branching rule.  Returns -1,
 * or 1 if something was placed, else 0.
 */
static int
solver_cells(struct board *bd, uint32_t *dirty, struct search *sr)
{
	uint32_t	 x1, x2, x3, m, ns, s, p;
	int		 b, d, found = 0;

	for (b = 0; b < 3; b++) {
		sr->bival[b] = 0;
		if (bd->u[b] == 0)
			continue;
		x1 = x2 = x3 = 0;
		for (d = 0; d < 9; d++) {
			m = bd->f[b * 9 + d];
			x3 |= x2 & m;
			x2 |= x1 & m;
			x1 |= m;
		}
		if ((bd->u[b] & ~x1) != 0)
			return (-1);
		sr->bival[b] = bd->u[b] & x2 & ~x3;
		ns = bd->u[b] & ~x2;
		if (ns == 0)
			continue;
		found = 1;
		for (d = 0; d < 9 && ns != 0; d++) {
			s = bd->f[b * 9 + d] & ns;
			ns &= ~s;
			while (s != 0) {
				p = s & -s;
				s ^= p;
				solver_place(bd, b * 9 + d, p, dirty);
			}
		}
	}
	return (found);
}

/*
 * The column step, the band step turned on its side, for each digit:
 * in each stack (three columns, three boxes) the digit needs one
 * minicolumn (a column's three cells in one band) per column and per
 * band, so minicolumns in no such permutation are cleared; this covers
 * locked candidates in columns and (through the band step) hidden
 * singles in columns.  Returns -1, 1 if something changed, else 0.
 */
static int
solver_columns(struct board *bd, uint32_t digits, uint32_t *dirty)
{
	uint32_t	 c0, c1, c2, m0, m1, m2, k;
	int		 d, found = 0;

	for (; digits != 0; digits &= digits - 1) {
		d = solver_ctz(digits);
		c0 = bd->f[d] | bd->f[d] >> 9 | bd->f[d] >> 18;
		c1 = bd->f[9 + d] | bd->f[9 + d] >> 9 | bd->f[9 + d] >> 18;
		c2 = bd->f[18 + d] | bd->f[18 + d] >> 9 |
		    bd->f[18 + d] >> 18;
		/* Stack k's matrix: band b's three columns at bits 3b. */
		m0 = solver_perm[(c0 & 7) | (c1 & 7) << 3 | (c2 & 7) << 6];
		m1 = solver_perm[(c0 >> 3 & 7) | (c1 >> 3 & 7) << 3 |
		    (c2 >> 3 & 7) << 6];
		m2 = solver_perm[(c0 >> 6 & 7) | (c1 >> 6 & 7) << 3 |
		    (c2 >> 6 & 7) << 6];
		if (m0 == 0 || m1 == 0 || m2 == 0)
			return (-1);
		k = (m0 & 7) | (m1 & 7) << 3 | (m2 & 7) << 6;
		if ((c0 & ~k & 0x1ff) != 0) {
			bd->f[d] &= k * 0x40201u;
			*dirty |= 1u << d;
			found = 1;
		}
		k = (m0 >> 3 & 7) | (m1 & 070) | (m2 & 070) << 3;
		if ((c1 & ~k & 0x1ff) != 0) {
			bd->f[9 + d] &= k * 0x40201u;
			*dirty |= 1u << (9 + d);
			found = 1;
		}
		k = m0 >> 6 | (m1 >> 6) << 3 | (m2 >> 6) << 6;
		if ((c2 & ~k & 0x1ff) != 0) {
			bd->f[18 + d] &= k * 0x40201u;
			*dirty |= 1u << (18 + d);
			found = 1;
		}
	}
	return (found);
}

/*
 * Propagates from the words in dirty to a fixpoint.  Every word that
 * changes is marked dirty and so passes through the band loop; seen
 * collects them, and the column step only looks at the digits seen since
 * its last run: for the others it would find what it found then, i.e.
 * nothing (the state came from a fixpoint, or from solver_init with
 * every word dirty).
 */
static int
solver_propagate(struct board *bd, uint32_t dirty, struct search *sr)
{
	uint32_t	 seen = 0;
	int		 i, r;

	for (;;) {
		while (dirty != 0) {
			seen |= dirty;
			i = solver_ctz(dirty);
			dirty &= dirty - 1;
			if (solver_band(bd, i, &dirty, sr) != 0)
				return (SOLVER_FAIL);
		}
		if ((bd->u[0] | bd->u[1] | bd->u[2]) == 0)
			return (SOLVER_SOLVED);
		if ((r = solver_cells(bd, &dirty, sr)) < 0)
			return (SOLVER_FAIL);
		if (r > 0)
			continue;
		seen = (seen | seen >> 9 | seen >> 18) & 0x1ff;
		r = solver_columns(bd, seen, &dirty);
		seen = 0;
		if (r < 0)
			return (SOLVER_FAIL);
		if (r == 0)
			return (SOLVER_STALL);
	}
}

/* Fewest-candidates unsolved cell when no cell is bivalue. */
static void
solver_fewest(const struct board *bd, int *bp, uint32_t *pp)
{
	uint32_t	 u, p;
	int		 b, d, n, best = 10;

	for (b = 0; b < 3; b++) {
		for (u = bd->u[b]; u != 0; u ^= p) {
			p = u & -u;
			n = 0;
			for (d = 0; d < 9; d++)
				n += (bd->f[b * 9 + d] & p) != 0;
			if (n < best) {
				best = n;
				*bp = b;
				*pp = p;
			}
		}
	}
}

/* Bits set in x; plain SWAR, as the default target has no popcnt. */
static inline int
solver_popcount(uint64_t x)
{
#ifdef __POPCNT__
	return (__builtin_popcountll(x));
#else
	x -= x >> 1 & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + (x >> 2 & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return ((int)((x * 0x0101010101010101ull) >> 56));
#endif
}

/*
 * Among the bivalue cells, the one with the most unsolved peers (a
 * guess there settles the most): fewer guesses than the first one by
 * about half on hard puzzles.  Returns its band, its bit in *pp.
 * popcount is inlined: the plain one, or the popcnt instruction in the
 * copy below that is only called where the CPU has it.
 */
static inline __attribute__((always_inline)) int
solver_bivalue_with(const struct board *bd, const struct search *sr,
    uint32_t *pp, int (*popcount)(uint64_t))
{
	uint64_t	 x;
	uint32_t	 bv, col;
	int		 b, j, n, best = -1, bestb = 0;

	for (b = 0; b < 3; b++) {
		for (bv = sr->bival[b]; bv != 0; bv &= bv - 1) {
			j = solver_ctz(bv);
			col = 0x40201u << (j % 9);
			x = (uint64_t)(bd->u[b] & solver_peers[j]) |
			    (uint64_t)(bd->u[(b + 1) % 3] & col) << 32 |
			    (uint64_t)(bd->u[(b + 2) % 3] & col) << 33;
			n = popcount(x);
			if (n > best) {
				best = n;
				bestb = b;
				*pp = bv & -bv;
			}
		}
	}
	return (bestb);
}

/*
 * The x86-64 baseline has no popcnt, and packages run on other machines
 * than the build host, so the popcnt copy is picked at run time
 * (solver_run() asks the CPU once per call).
 */
#if SOLVER_POPCNT
__attribute__((target("popcnt"))) static inline int
solver_popcount_hw(uint64_t x)
{
	return (__builtin_popcountll(x));
}

__attribute__((target("popcnt"), noinline)) static int
solver_bivalue_hw(const struct board *bd, const struct search *sr,
    uint32_t *pp)
{
	return (solver_bivalue_with(bd, sr, pp, solver_popcount_hw));
}
#endif

static int
solver_bivalue(const struct board *bd, const struct search *sr,
    uint32_t *pp)
{
#if SOLVER_POPCNT
	if (sr->popcnt)
		return (solver_bivalue_hw(bd, sr, pp));
#endif
	return (solver_bivalue_with(bd, sr, pp, solver_popcount));
}

/*
 * The branch cell and digit.  ANY and COUNT take the bivalue cell with
 * the most unsolved peers (else the cell with the fewest digits).
 *
 * LEXMIN takes the first unsolved cell in row-major order (bands in
 * order, bits in row-major order within a band) and its smallest digit.
 * Why the first solution found is then the smallest: propagation only
 * removes candidates that are in no solution of the grid it works on,
 * so at a branch point every solution of the node agrees with it on the
 * cells it has placed, in particular on all cells before the branch cell
 * c.  The node's solutions split into "c = d" (searched first, depth
 * first) and "c != d" (the pushed state, searched only after), and every
 * solution of the first part is smaller than every one of the second,
 * as they share the prefix before c and differ at c, where d is the
 * smallest digit left.  By induction on the search tree, the first
 * solution reached is the smallest of the root, i.e. the one the seeds'
 * row-major ascending search finds.
 */
static int
solver_pick(const struct board *bd, enum solver_mode mode,
    const struct search *sr, uint32_t *pp)
{
	uint32_t	 p = 0;
	int		 b, d;

	if (mode == SOLVER_LEXMIN) {
		b = bd->u[0] != 0 ? 0 : bd->u[1] != 0 ? 1 : 2;
		p = bd->u[b] & -bd->u[b];
	} else if ((sr->bival[0] | sr->bival[1] | sr->bival[2]) != 0) {
		b = solver_bivalue(bd, sr, &p);
	} else {
		b = 0;
		solver_fewest(bd, &b, &p);
	}
	for (d = 0; d < 8; d++)
		if (bd->f[b * 9 + d] & p)
			break;
	*pp = p;
	return (b * 9 + d);
}

/* Writes the solved board bd into g. */
static void
solver_extract(const struct board *bd, struct sudoku_grid *g)
{
	uint32_t	 m;
	int		 i;

	for (i = 0; i < 27; i++)
		for (m = bd->f[i]; m != 0; m &= m - 1)
			g->cell[i / 9 * 27 + solver_ctz(m)] = i % 9 + 1;
}

/*
 * The whole state of one search, in the caller's struct sudoku_search
 * (sudoku.h), so that it can stop after any number of guesses and go on
 * later.  may_alias: it lives in an array of another type.
 */
struct __attribute__((__may_alias__)) solver {
	struct board		 stack[SOLVER_DEPTH];
	struct board		 cur;
	struct search		 sr;
	struct sudoku_grid	 first;		/* the first solution found */
	uint64_t		 budget;
	unsigned long		 limit;
	unsigned long		 n;		/* solutions found */
	int			 depth;
	int			 lexmin;
	enum sudoku_result	 res;		/* SUDOKU_MORE until done */
};

_Static_assert(sizeof(struct solver) <= sizeof(struct sudoku_search),
    "struct sudoku_search is too small for struct solver");
_Static_assert(_Alignof(struct solver) <= _Alignof(struct sudoku_search),
    "struct sudoku_search is not aligned enough for struct solver");

enum sudoku_result
solver_start(struct solver *s, const struct sudoku_grid *in,
    enum sudoku_policy policy, unsigned long limit, uint64_t budget)
{
	memset(&s->sr, 0, sizeof s->sr);
#if SOLVER_POPCNT
	s->sr.popcnt = __builtin_cpu_supports("popcnt");
#endif
	s->budget = budget == 0 ? SUDOKU_BUDGET_DEFAULT : budget;
	s->limit = limit == 0 ? 1 : limit;
	s->lexmin = policy == SUDOKU_LEXMIN;
	s->n = 0;
	s->depth = 0;
	s->res = SUDOKU_MORE;
	if (solver_init(&s->cur, in) != 0)
		s->res = SUDOKU_INVALID;
	return (s->res);
}

/*
 * Depth-first search from s->cur until done, or until slice more
 * guesses are made (0: no limit).  A search stops for the slice at a
 * fixpoint, just before a guess: s->cur is kept as it is (dirty 0), and
 * the next call propagates it again, finding the same fixpoint and the
 * same branch.  The loop works on local copies, stored back on the way
 * out.
 */
enum sudoku_result
solver_step(struct solver *s, uint64_t slice)
{
	struct board		 cur = s->cur, *stack = s->stack;
	struct search		 sr = s->sr;
	enum solver_mode	 mode = s->lexmin ? SOLVER_LEXMIN : SOLVER_ANY;
	enum sudoku_result	 res = SUDOKU_MORE;
	uint64_t		 budget = s->budget, stop;
	unsigned long		 n = s->n, limit = s->limit;
	uint32_t		 p;
	int			 depth = s->depth, i, r;

	if (s->res != SUDOKU_MORE)
		return (s->res);
	stop = budget;
	if (slice != 0 && slice < budget - sr.guesses)
		stop = sr.guesses + slice;
	for (;;) {
		r = solver_propagate(&cur, cur.dirty, &sr);
		if (r == SOLVER_STALL) {
			/* depth < SOLVER_DEPTH always holds; see the top. */
			if (sr.guesses >= stop || depth == SOLVER_DEPTH) {
				if (sr.guesses >= budget ||
				    depth == SOLVER_DEPTH)
					res = SUDOKU_BUDGET;
				cur.dirty = 0;
				break;
			}
			sr.guesses++;
			i = solver_pick(&cur, mode, &sr, &p);
			stack[depth] = cur;
			stack[depth].f[i] &= ~p;
			stack[depth].dirty = 1u << i;
			depth++;
			cur.dirty = 0;
			solver_place(&cur, i, p, &cur.dirty);
			continue;
		}
		if (r == SOLVER_SOLVED) {
			if (n == 0)
				solver_extract(&cur, &s->first);
			if (++n >= limit) {
				res = SUDOKU_SOLVED;
				break;
			}
		}
		if (depth == 0) {
			res = n > 0 ? SUDOKU_SOLVED : SUDOKU_NOSOLUTION;
			break;
		}
		cur = stack[--depth];
	}
	s->cur = cur;
	s->sr = sr;
	s->n = n;
	s->depth = depth;
	s->res = res;
	return (res);
}

void
solver_result(const struct solver *s, unsigned long *count,
    struct sudoku_grid *first, struct sudoku_stats *st)
{
	if (count != NULL)
		*count = s->n;
	if (first != NULL && s->n > 0)
		*first = s->first;
	if (st != NULL) {
		st->guesses = s->sr.guesses;
		st->steps = s->sr.steps;
	}
}
