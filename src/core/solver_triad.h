/* SPDX-License-Identifier: ISC */
/*
 * solver_triad.h -- part of solver_body.h: the triad step of a hard
 * puzzle's search (SOLVER_HARD; see solver_search.h).
 *
 * A minirow (a row's three cells in one box) holds exactly three
 * digits, and so does a minicolumn.  A digit is certain in a minirow
 * when its row of the band has no other minirow for it, in a minicolumn
 * when its column has it in no other band.  The triad step, at a
 * fixpoint of the others:
 *  - three digits certain in a minirow or minicolumn fill it: the
 *    other digits lose its cells (four: a contradiction);
 *  - a minirow or minicolumn where only three digits can go holds
 *    them: each loses the rest of that row and box of the band (column
 *    and stack) (fewer than three: a contradiction).
 * The idea is tdoku's (github t-dillon/tdoku, its triads), whose
 * search this mode follows; read, not copied.  Layouts, for digit d,
 * the three bands packed in one word:
 *   rows: bit 9r + 3x + b: d may go in band b, row r, box x;
 *   cols: bit 9b + c: d may go in band b, column c.
 * Digits 0-7 are done in lanes (solver_lanes.h) where there are lanes,
 * digit 8 and the rest by the scalar code.
 */

#define TRI_MR		0x1249249u	/* bits 9r + 3x: a word's minirows */
#define TRI_BASE	0x1c0e07u	/* bits 9r + b: box 0 of each row */
#define TRI_COL		0x40201u	/* a column of a band */
#define TRI_ALL		0x7ffffffu	/* every minirow, every minicolumn */

/* Digit d's minirows, packed (see the top). */
static inline uint32_t
solver_tri_rows(const struct board *bd, int d)
{
	uint32_t	 w0 = bd->f[d], w1 = bd->f[9 + d], w2 = bd->f[18 + d];

	return (((w0 | w0 >> 1 | w0 >> 2) & TRI_MR) |
	    ((w1 << 1 | w1 | w1 >> 1) & TRI_MR << 1) |
	    ((w2 << 2 | w2 << 1 | w2) & TRI_MR << 2));
}

/* Digit d's minicolumns, packed. */
static inline uint32_t
solver_tri_cols(const struct board *bd, int d)
{
	uint32_t	 w0 = bd->f[d], w1 = bd->f[9 + d], w2 = bd->f[18 + d];

	return (((w0 | w0 >> 9 | w0 >> 18) & 0x1ff) |
	    ((w1 << 9 | w1 | w1 >> 9) & 0x1ffu << 9) |
	    ((w2 << 18 | w2 << 9 | w2) & 0x1ffu << 18));
}

/* The minirows of t alone in their row: certain. */
static inline uint32_t
solver_tri_certr(uint32_t t)
{
	uint32_t	 two;

	/* Rows with two minirows or more, at their box 0, spread. */
	two = ((t & (t >> 3 | t >> 6)) | (t >> 3 & t >> 6)) & TRI_BASE;
	return (t & ~(two | two << 3 | two << 6));
}

/* The minicolumns of m in no other band: certain. */
static inline uint32_t
solver_tri_certc(uint32_t m)
{
	return (m & ~(m >> 9 | m << 18 | m >> 18 | m << 9));
}

/*
 * One state's packed words, from its last triad step (the branching
 * rule reads them too), and their counts over the digits.
 */
struct solver_tri {
	uint32_t	 w[4][9];	/* per digit: minirows, minicolumns,
					   the certain ones of each */
	uint32_t	 n[4][3];	/* per bit: at least 3, 4 digits in
					   [1], [2] ([0]: 2, while counting) */
};

enum {
	TRI_T = 0,		/* minirows */
	TRI_M,			/* minicolumns */
	TRI_CR,			/* certain minirows */
	TRI_CC			/* certain minicolumns */
};

/* Adds a digit's words x[0..3] to the counts ("at least 1" in a1). */
static inline void
solver_tri_add(struct solver_tri *tr, uint32_t *a1, const uint32_t *x)
{
	int	 k;

	for (k = 0; k < 4; k++) {
		tr->n[k][2] |= tr->n[k][1] & x[k];
		tr->n[k][1] |= tr->n[k][0] & x[k];
		tr->n[k][0] |= a1[k] & x[k];
		a1[k] |= x[k];
	}
}

#if SOLVER_LANES
/* Digits 0-7: their words and counts (n[k][0..2]). */
static inline void
solver_tri_pack8(const struct board *bd, struct solver_tri *tr)
{
	const solver_v	 mr = solver_v_set1(TRI_MR);
	const solver_v	 nine = solver_v_set1(0x1ff);
	solver_v	 f0, f1, f2, t, m, two, cr, cc;

	f0 = solver_v_load(bd->f);
	f1 = solver_v_load(bd->f + 9);
	f2 = solver_v_load(bd->f + 18);
	t = solver_v_or3(solver_v_and(solver_v_or3(f0, solver_v_srli(f0, 1),
	    solver_v_srli(f0, 2)), mr), solver_v_and(solver_v_or3(f1,
	    solver_v_slli(f1, 1), solver_v_srli(f1, 1)), solver_v_slli(mr, 1)),
	    solver_v_and(solver_v_or3(f2, solver_v_slli(f2, 1),
	    solver_v_slli(f2, 2)), solver_v_slli(mr, 2)));
	m = solver_v_or3(solver_v_and(solver_v_or3(f0, solver_v_srli(f0, 9),
	    solver_v_srli(f0, 18)), nine), solver_v_and(solver_v_or3(f1,
	    solver_v_slli(f1, 9), solver_v_srli(f1, 9)), solver_v_slli(nine,
	    9)), solver_v_and(solver_v_or3(f2, solver_v_slli(f2, 9),
	    solver_v_slli(f2, 18)), solver_v_slli(nine, 18)));
	solver_v_store(tr->w[TRI_T], t);
	solver_v_store(tr->w[TRI_M], m);
	two = solver_v_and(solver_v_or(solver_v_and(t, solver_v_or(
	    solver_v_srli(t, 3), solver_v_srli(t, 6))), solver_v_and(
	    solver_v_srli(t, 3), solver_v_srli(t, 6))), solver_v_set1(TRI_BASE));
	cr = solver_v_andnot(solver_v_or3(two, solver_v_slli(two, 3),
	    solver_v_slli(two, 6)), t);
	cc = solver_v_andnot(solver_v_or(solver_v_or(solver_v_srli(m, 9),
	    solver_v_slli(m, 18)), solver_v_or(solver_v_srli(m, 18),
	    solver_v_slli(m, 9))), m);
	solver_v_store(tr->w[TRI_CR], cr);
	solver_v_store(tr->w[TRI_CC], cc);
	solver_v_count(t, m, tr->n[TRI_T], tr->n[TRI_M]);
	solver_v_count(cr, cc, tr->n[TRI_CR], tr->n[TRI_CC]);
}
#endif

/* The words of every digit and their counts, into tr. */
static inline void
solver_tri_pack(const struct board *bd, struct solver_tri *tr)
{
	uint32_t	 x[4], a1[4] = { 0 };
	int		 d = 0;

#if SOLVER_LANES
	/* Digit 8 is the last: "at least 1" (a1) no longer matters. */
	solver_tri_pack8(bd, tr);
	d = 8;
#else
	memset(tr->n, 0, sizeof tr->n);
#endif
	for (; d < 9; d++) {
		x[TRI_T] = tr->w[TRI_T][d] = solver_tri_rows(bd, d);
		x[TRI_M] = tr->w[TRI_M][d] = solver_tri_cols(bd, d);
		x[TRI_CR] = tr->w[TRI_CR][d] = solver_tri_certr(x[TRI_T]);
		x[TRI_CC] = tr->w[TRI_CC][d] = solver_tri_certc(x[TRI_M]);
		solver_tri_add(tr, a1, x);
	}
}

/*
 * What one band's word (band b) of a digit loses for the packed
 * minirows fr and minicolumns fc the digit must be in: the rest of
 * their rows and boxes, columns and stacks.
 */
static inline uint32_t
solver_tri_mates(uint32_t fr, uint32_t fc, int b)
{
	uint32_t	 f = fr >> b & TRI_MR, own, x, cells;

	cells = f * 7;
	x = ((f | f >> 3 | f >> 6) & TRI_COL) * 0x1ff |
	    ((f | f >> 9 | f >> 18) & 0111) * TRI_BASE;
	x &= ~cells;
	own = fc >> 9 * b & 0x1ff;
	cells = (fc | fc >> 9 | fc >> 18) & 0x1ff & ~own;
	cells |= ((own | own >> 1 | own >> 2) & 0111) * 7 & ~own;
	return (x | cells * TRI_COL);
}

/*
 * The digits that lose something: a cell in the minirows fr or
 * minicolumns fc, full of other digits, or a place in ex (minirows)
 * or ec (minicolumns), which hold only three digits, where they are
 * not certain.
 */
static inline uint32_t
solver_tri_need(const struct solver_tri *tr, uint32_t r, uint32_t c)
{
	uint32_t	 need = 0;
	int		 d = 0;

#if SOLVER_LANES
	need = solver_v_nonzero(solver_v_or(solver_v_and(solver_v_andnot(
	    solver_v_load(tr->w[TRI_CR]), solver_v_load(tr->w[TRI_T])),
	    solver_v_set1(r)), solver_v_and(solver_v_andnot(
	    solver_v_load(tr->w[TRI_CC]), solver_v_load(tr->w[TRI_M])),
	    solver_v_set1(c))));
	d = 8;
#endif
	for (; d < 9; d++)
		need |= (uint32_t)(((tr->w[TRI_T][d] & ~tr->w[TRI_CR][d] & r) |
		    (tr->w[TRI_M][d] & ~tr->w[TRI_CC][d] & c)) != 0) << d;
	return (need);
}

/*
 * The triad step, at a fixpoint of the others; tr gets the packed
 * words.  Returns -1 on a contradiction, 1 if something was cleared,
 * else 0.
 */
static int
solver_triads(struct board *bd, uint32_t *dirty, struct solver_tri *tr)
{
	uint32_t	 fr, fc, er, ec, need, xr, xc, m;
	int		 b, d, i, found = 0;

	solver_tri_pack(bd, tr);
	if ((tr->n[TRI_CR][2] | tr->n[TRI_CC][2]) != 0 ||
	    ((tr->n[TRI_T][1] & tr->n[TRI_M][1]) ^ TRI_ALL) != 0)
		return (-1);
	fr = tr->n[TRI_CR][1];
	fc = tr->n[TRI_CC][1];
	er = tr->n[TRI_T][1] & ~tr->n[TRI_T][2];
	ec = tr->n[TRI_M][1] & ~tr->n[TRI_M][2];
	for (need = solver_tri_need(tr, fr | er, fc | ec); need != 0;
	    need &= need - 1) {
		d = solver_ctz(need);
		xr = fr & ~tr->w[TRI_CR][d];
		xc = fc & ~tr->w[TRI_CC][d];
		for (b = 0; b < 3; b++) {
			m = (xr >> b & TRI_MR) * 7 |
			    (xc >> 9 * b & 0x1ff) * TRI_COL |
			    solver_tri_mates(tr->w[TRI_T][d] & er &
			    ~tr->w[TRI_CR][d], tr->w[TRI_M][d] & ec &
			    ~tr->w[TRI_CC][d], b);
			i = b * 9 + d;
			if ((bd->f[i] & m) != 0) {
				bd->f[i] &= ~m;
				*dirty |= 1u << i;
				found = 1;
			}
		}
	}
	return (found);
}
