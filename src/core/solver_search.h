/* SPDX-License-Identifier: ISC */
/*
 * solver_search.h -- part of solver_body.h: the branching rule and the
 * depth-first search, and this copy's entry points.
 */

/*
 * Fewest-candidates unsolved cell when no cell is bivalue: the first
 * one, in band order then bit order, with the fewest digits.
 */
static void
solver_fewest_loop(const struct board *bd, int *bp, uint32_t *pp)
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

/*
 * The same, the usual case first: with no cell of one or two digits,
 * the first cell of three if there is one, from bitwise adders over the
 * words (a third of the loop's instructions); else the loop.
 */
static void
solver_fewest(const struct board *bd, int *bp, uint32_t *pp)
{
	uint32_t	 a1, a2, a3, a4, m, three;
	int		 b, d;

	for (b = 0; b < 3; b++) {
		a1 = a2 = a3 = a4 = 0;
		for (d = 0; d < 9; d++) {
			m = bd->f[b * 9 + d];
			a4 |= a3 & m;
			a3 |= a2 & m;
			a2 |= a1 & m;
			a1 |= m;
		}
		three = bd->u[b] & a3 & ~a4;
		if (three != 0) {
			*bp = b;
			*pp = three & -three;
			return;
		}
	}
	solver_fewest_loop(bd, bp, pp);
}

/*
 * Among the bivalue cells, the one with the most unsolved peers (a
 * guess there settles the most): fewer guesses than the first one by
 * about half on hard puzzles.  Of several such cells the last one: 1-3 %
 * fewer guesses when counting (where the whole tree is searched) than
 * the first.  Returns its band, its bit in *pp.
 */
static inline int
solver_bivalue(const struct board *bd, const struct search *sr,
    uint32_t *pp)
{
	uint64_t	 x;
	uint32_t	 bv, u1, u2;
	int		 b, j, n, best = -1, bestb = 0;

	for (b = 0; b < 3; b++) {
		u1 = bd->u[b == 2 ? 0 : b + 1];
		u2 = bd->u[b == 0 ? 2 : b - 1];
		for (bv = sr->bival[b]; bv != 0; bv &= bv - 1) {
			j = solver_ctz(bv);
			x = (uint64_t)(bd->u[b] & solver_peers[j]) |
			    (uint64_t)(u1 & solver_cols[j]) << 32 |
			    (uint64_t)(u2 & solver_cols[j]) << 33;
			n = solver_popcount(x);
			if (n >= best) {
				best = n;
				bestb = b;
				*pp = bv & -bv;
			}
		}
	}
	return (bestb);
}

/* Candidates left of digit d (0..8) in the whole grid. */
static inline int
solver_digit_count(const struct board *bd, int d)
{
	return (solver_popcount((uint64_t)bd->f[d] |
	    (uint64_t)bd->f[9 + d] << 27) + solver_popcount(bd->f[18 + d]));
}

/*
 * The branch cell and digit.  ANY and COUNT take the bivalue cell with
 * the most unsolved peers (else the cell with the fewest digits), ANY
 * its smallest digit.  COUNT (a search for more than one solution)
 * takes of its first two digits the one with more candidates left in
 * the grid (the less constrained one, the likelier to be right: 8 %
 * fewer guesses for a first solution on the hardest set, 8-21 % on the
 * sets of easy puzzles with many solutions; comparing all the digits
 * of a cell that has more than two did no better).  ANY keeps the
 * smallest digit because the order decides which solution a puzzle
 * with several gets, and SOLVE's answer is part of protocol version 1
 * (tests/e2e/protocol_v2.py): a count does not depend on the order.
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
	int		 b, d, e;

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
	if (mode == SOLVER_COUNT) {
		/* Its next digit (the other one of a bivalue cell). */
		for (e = d + 1; e < 8; e++)
			if (bd->f[b * 9 + e] & p)
				break;
		if (solver_digit_count(bd, e) > solver_digit_count(bd, d))
			d = e;
	}
	*pp = p;
	return (b * 9 + d);
}


/* The cells not placed yet. */
static inline int
solver_open(const struct board *bd)
{
	return (solver_popcount((uint64_t)bd->u[0] | (uint64_t)bd->u[1] << 27) +
	    solver_popcount(bd->u[2]));
}

/*
 * Is the puzzle hard, so that a count (SOLVER_COUNT) goes on as
 * SOLVER_HARD?  Asked once, at the first fixpoint: 55 to 64 cells open
 * and fewer than 8 of them with two digits -- every puzzle of the two
 * hardest sets (rated 11+ and hardest_1106: 55-61 open, 0-7 bivalue),
 * where triads and the band rule take 26 % and 21 % fewer guesses
 * counting to 2 and 13-18 % less time.  The bound used to be 49 open and
 * 12 bivalue: that took in puzzles of the many-solution set (up to 57
 * open, 4-20 bivalue), where the likelier digit of a bivalue cell finds
 * a second solution sooner (6.23 -> 6.39 guesses, 5 % more time), and
 * more of top1465's, where the hard count takes fewer guesses but more
 * instructions (doc/bench-solver.md, "The hard count").
 */
static inline int
solver_hard(const struct board *bd, const struct search *sr)
{
	int	 open = solver_open(bd);

	return (open >= 55 && open <= 64 && solver_popcount((uint64_t)
	    sr->bival[0] | (uint64_t)sr->bival[1] << 27) +
	    solver_popcount(sr->bival[2]) < 8);
}

/* Clears cells x[b] from digit d's word of each band b; the dirty bits. */
static inline uint32_t
solver_cut(struct board *bd, int d, const uint32_t *x)
{
	uint32_t	 dirty = 0;
	int		 b;

	for (b = 0; b < 3; b++)
		if ((bd->f[b * 9 + d] & x[b]) != 0) {
			bd->f[b * 9 + d] &= ~x[b];
			dirty |= 1u << (b * 9 + d);
		}
	return (dirty);
}

#if !SOLVER_HARD_PART
static enum sudoku_result
SOLVER_FN(solver_start)(struct solver *s, const struct sudoku_grid *in,
    enum sudoku_policy policy, unsigned long limit, uint64_t budget)
{
	memset(&s->sr, 0, sizeof s->sr);
	s->budget = budget == 0 ? SUDOKU_BUDGET_DEFAULT : budget;
	s->limit = limit == 0 ? 1 : limit;
	s->mode = policy == SUDOKU_LEXMIN ? SOLVER_LEXMIN : s->limit > 1 ?
	    SOLVER_COUNT : SOLVER_ANY;
	s->keep_first = 1;
	s->each = s->fresh = 0;
	s->n = 0;
	s->depth = 0;
	s->res = SUDOKU_MORE;
	if (solver_init(&s->cur, in) != 0)
		s->res = SUDOKU_INVALID;
	s->first = *in;
	memcpy(s->blank, s->cur.u, sizeof s->blank);
	return (s->res);
}

#endif /* !SOLVER_HARD_PART */

/*
 * Depth-first search from s->cur until done, or until slice more
 * guesses are made (0: no limit).  A search stops for the slice at a
 * fixpoint, just before a guess: s->cur is kept as it is (dirty 0), and
 * the next call propagates it again, finding the same fixpoint and the
 * same branch.  The loop works on local copies, stored back on the way
 * out.  hard is a constant: the plain copy (0, solver_step) has none of
 * the hard count's tests, and stops at the first fixpoint of a hard
 * puzzle with s->mode SOLVER_HARD for the hard copy (1,
 * solver_loop_hard) to go on from there.
 */
static inline enum sudoku_result
solver_loop(struct solver *s, uint64_t slice, const int hard)
{
	struct board		 cur = s->cur, *stack = s->stack;
	struct search		 sr = s->sr;
	enum solver_mode	 mode = (enum solver_mode)s->mode;
	enum sudoku_result	 res = SUDOKU_MORE;
	uint64_t		 budget = s->budget, stop;
	unsigned long		 n = s->n, limit = s->limit;
	struct solver_branch	 br;
	struct solver_tri	 tri;
	uint32_t		 p;
	int			 depth = s->depth, i, r;

	stop = budget;
	if (slice != 0 && slice < budget - sr.guesses)
		stop = sr.guesses + slice;
	for (;;) {
		r = solver_propagate(&cur, cur.dirty, &sr,
		    hard && mode == SOLVER_HARD ? &tri : NULL);
		if (r == SOLVER_STALL) {
			if (!hard && sr.guesses == 0 && mode == SOLVER_COUNT &&
			    solver_hard(&cur, &sr)) {
				mode = SOLVER_HARD;
				cur.dirty = 0;
				break;
			}
			/* depth < SOLVER_DEPTH always holds; see the top. */
			if (sr.guesses >= stop || depth == SOLVER_DEPTH) {
				if (sr.guesses >= budget || depth == SOLVER_DEPTH)
					res = SUDOKU_BUDGET;
				cur.dirty = 0;
				break;
			}
			sr.guesses++;
			if (hard && mode == SOLVER_HARD && depth +
			    solver_open(&cur) < SOLVER_DEPTH &&
			    solver_band_pick(&tri, &br)) {
				stack[depth] = cur;
				stack[depth].dirty = solver_cut(&stack[depth],
				    br.d, br.b);
				depth++;
				cur.dirty = solver_cut(&cur, br.d, br.a);
				continue;
			}
			/* pick's rule for HARD's cells is COUNT's. */
			i = solver_pick(&cur, hard && mode == SOLVER_HARD ?
			    SOLVER_COUNT : mode, &sr, &p);
			stack[depth] = cur;
			stack[depth].f[i] &= ~p;
			stack[depth].dirty = 1u << i;
			depth++;
			cur.dirty = 0;
			solver_place(&cur, i, p, &cur.dirty);
			continue;
		}
		if (r == SOLVER_SOLVED) {
			if ((n == 0 || s->each) && s->keep_first)
				solver_extract(&cur, s->blank, &s->first);
			s->fresh = s->each;
			if (++n >= limit) {
				res = SUDOKU_SOLVED;
				break;
			}
			/*
			 * Past two solutions the puzzle has many: the plain
			 * count finds them faster (10-15 % counting 10^5 of
			 * hardest_1106's with givens out).
			 */
			if (hard && n == 2 && mode == SOLVER_HARD)
				mode = SOLVER_COUNT;
			if (s->each) {
				/* Hand this one out; the next branch later. */
				if (depth == 0) {
					res = SUDOKU_SOLVED;
					break;
				}
				cur = stack[--depth];
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
	s->mode = (int)mode;
	s->sr = sr;
	s->n = n;
	s->depth = depth;
	s->res = res;
	return (res);
}

/*
 * The hard copy of the loop is compiled apart, in a unit of its own for
 * each copy of the engine (solver_hard*.c, SOLVER_HARD_PART), so that
 * the plain one here is compiled as it was before there was a hard one:
 * with both in one unit the compiler lays the plain one out otherwise,
 * 3 % more instructions on the sets that never take the hard one.
 */
enum sudoku_result SOLVER_FN(solver_loop_hard)(struct solver *, uint64_t);

#if SOLVER_HARD_PART
enum sudoku_result
SOLVER_FN(solver_loop_hard)(struct solver *s, uint64_t slice)
{
	return (solver_loop(s, slice, 1));
}
#else
/*
 * The plain loop, then the hard one if the plain one stopped at the
 * first fixpoint of a hard puzzle (or the search is in it already).
 */
static enum sudoku_result
SOLVER_FN(solver_step)(struct solver *s, uint64_t slice)
{
	enum sudoku_result	 res;

	if (s->res != SUDOKU_MORE)
		return (s->res);
	if (s->mode != SOLVER_HARD) {
		res = solver_loop(s, slice, 0);
		if (res != SUDOKU_MORE || s->mode != SOLVER_HARD)
			return (res);
	}
	return (SOLVER_FN(solver_loop_hard)(s, slice));
}

static int
SOLVER_FN(solver_valid)(const struct sudoku_grid *g)
{
	struct board	 bd;

	return (solver_init(&bd, g));
}

const struct solver_engine SOLVER_XCAT(solver, SOLVER_ENGINE) = {
	SOLVER_NAME, SOLVER_FN(solver_start), SOLVER_FN(solver_step),
	SOLVER_FN(solver_valid)
};
#endif /* SOLVER_HARD_PART */
