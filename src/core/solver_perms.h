/* SPDX-License-Identifier: ISC */
/*
 * solver_perms.h -- part of solver_body.h: the branching rule of a hard
 * puzzle's search (SOLVER_HARD; see solver_search.h), tdoku's, read in
 * its source (github t-dillon/tdoku), not copied: in the band or stack
 * with the fewest permutations left over all digits (not yet down to
 * one per digit), the first digit with two permutations left, else
 * three, else four; the branch is "d in m" / "d not in m" for m a
 * minirow (minicolumn) of its first permutation in no other one, so
 * that the first side keeps that permutation alone.  It reads the
 * packed words of the triad step (solver_triad.h).
 *
 * A permutation in a band: a box per row, each box once; in a stack: a
 * column of the stack per band.  Rows (bands) r0, r1, r2 of the packed
 * word, solver_rot() turning the boxes (columns) by one: x holds bit j
 * if the permutation r0 -> j, r1 -> j + 1, r2 -> j + 2 (mod 3) is
 * there, y if r0 -> j, r1 -> j + 2, r2 -> j + 1 is.
 */
struct solver_perms {
	uint32_t	 x, y;		/* bands: bit 3j + b; stacks: 3s + j */
};

/*
 * Turns by k = 1 or 2: the boxes of each packed row (bits 3x + b) for a
 * band, the columns of each stack (bits 3s + j) for a stack.
 */
static inline uint32_t
solver_rot(uint32_t v, int k, int stack)
{
	if (stack)
		return (k == 1 ? (v >> 1 & 0333) | (v << 2 & 0444) :
		    (v >> 2 & 0111) | (v << 1 & 0666));
	return ((v >> 3 * k | v << (9 - 3 * k)) & 0x1ff);
}

/* The permutations in the packed minirows (stack 0) or minicolumns w. */
static inline struct solver_perms
solver_perms_of(uint32_t w, int stack)
{
	uint32_t	 r0 = w & 0x1ff, r1 = w >> 9 & 0x1ff, r2 = w >> 18;
	struct solver_perms p;

	p.x = r0 & solver_rot(r1, 1, stack) & solver_rot(r2, 2, stack);
	p.y = r0 & solver_rot(r1, 2, stack) & solver_rot(r2, 1, stack);
	return (p);
}

/*
 * The permutations of digit d's perms p in band or stack k (0-2 the
 * bands, 3-5 the stacks) as 6 bits: bit q < 3 for x's j = q, bit 3 + j
 * for y's j.  Permutation q puts row (band) r in box (column of the
 * stack) (j + r) % 3 for x, (j + 2r) % 3 for y.
 */
static inline uint32_t
solver_perm6(struct solver_perms p, int k)
{
	uint32_t	 x, y;

	if (k < 3) {
		x = p.x >> k & 0111;
		y = p.y >> k & 0111;
		x = (x | x >> 2 | x >> 4) & 7;
		y = (y | y >> 2 | y >> 4) & 7;
	} else {
		x = p.x >> 3 * (k - 3) & 7;
		y = p.y >> 3 * (k - 3) & 7;
	}
	return (x | y << 3);
}

static inline int
solver_perm_col(int q, int r)
{
	return (q < 3 ? (q + r) % 3 : (q - 3 + 2 * r) % 3);
}

/* One branch on digit d: the cells each band's word of d loses. */
struct solver_branch {
	int		 d;
	uint32_t	 a[3];		/* the side searched first: d in m */
	uint32_t	 b[3];		/* the other one: d not in m */
};

/*
 * The branch for digit d with permutations q6 in unit k, if its first
 * permutation has a minirow (minicolumn) in no other: 1, else 0.
 */
static int
solver_branch_of(int k, int d, uint32_t q6, struct solver_branch *br)
{
	uint32_t	 used[3] = { 0 }, o;
	int		 q1 = solver_ctz(q6), q, r, j, c, b;

	for (o = q6 & (q6 - 1); o != 0; o &= o - 1) {
		q = solver_ctz(o);
		for (r = 0; r < 3; r++)
			used[r] |= 1u << solver_perm_col(q, r);
	}
	for (r = 0; r < 3; r++)
		if ((used[r] >> solver_perm_col(q1, r) & 1) == 0)
			break;
	if (r == 3)
		return (0);
	j = solver_perm_col(q1, r);
	br->d = d;
	memset(br->a, 0, sizeof br->a);
	memset(br->b, 0, sizeof br->b);
	if (k < 3) {
		/* Minirow (row r, box j) of band k. */
		br->b[k] = 7u << (9 * r + 3 * j);
		br->a[k] = ((0x1ffu << 9 * r) | (0x1c0e07u << 3 * j)) &
		    ~br->b[k];
	} else {
		/* Minicolumn (band r, column c) of stack k - 3. */
		c = 3 * (k - 3) + j;
		for (b = 0; b < 3; b++)
			br->a[b] = TRI_COL << c;
		br->b[r] = TRI_COL << c;
		br->a[r] = (TRI_COL * (7u << 3 * (k - 3))) & ~br->b[r];
	}
	return (1);
}

#if SOLVER_LANES
/* solver_rot() in each lane. */
static inline solver_v
solver_rot_v(solver_v v, int k, int stack)
{
	if (stack)
		return (k == 1 ? solver_v_or(solver_v_and(solver_v_srli(v, 1),
		    solver_v_set1(0333)), solver_v_and(solver_v_slli(v, 2),
		    solver_v_set1(0444))) : solver_v_or(solver_v_and(
		    solver_v_srli(v, 2), solver_v_set1(0111)), solver_v_and(
		    solver_v_slli(v, 1), solver_v_set1(0666))));
	return (solver_v_and(solver_v_or(k == 1 ? solver_v_srli(v, 3) :
	    solver_v_srli(v, 6), k == 1 ? solver_v_slli(v, 6) :
	    solver_v_slli(v, 3)), solver_v_set1(0x1ff)));
}

/* solver_perms_of() in each lane, as x | y << 9. */
static inline solver_v
solver_perms_v(const uint32_t *w, int stack)
{
	const solver_v	 nine = solver_v_set1(0x1ff);
	solver_v	 v, r0, r1, r2;

	v = solver_v_load(w);
	r0 = solver_v_and(v, nine);
	r1 = solver_v_and(solver_v_srli(v, 9), nine);
	r2 = solver_v_srli(v, 18);
	return (solver_v_or(solver_v_and(r0, solver_v_and(solver_rot_v(r1, 1,
	    stack), solver_rot_v(r2, 2, stack))), solver_v_slli(solver_v_and(
	    r0, solver_v_and(solver_rot_v(r1, 2, stack), solver_rot_v(r2, 1,
	    stack))), 9)));
}

/*
 * The permutations of band k, from z (x | y << 9 of the rows), counted
 * with shifts and adds: its bits are 3i + k, i = 0..5.
 */
static inline solver_v
solver_count_band(solver_v z, int k)
{
	solver_v	 v;

	v = solver_v_and(k == 0 ? z : k == 1 ? solver_v_srli(z, 1) :
	    solver_v_srli(z, 2), solver_v_set1(0x9249));
	v = solver_v_and(solver_v_add(v, solver_v_srli(v, 3)),
	    solver_v_set1(0x30c3));
	return (solver_v_and(solver_v_add(v, solver_v_add(solver_v_srli(v,
	    6), solver_v_srli(v, 12))), solver_v_set1(7)));
}

/* The same for stack k: its bits are 3k + j and 9 + 3k + j. */
static inline solver_v
solver_count_stack(solver_v z, int k)
{
	solver_v	 v, h;

	v = solver_v_and(k == 0 ? z : k == 1 ? solver_v_srli(z, 3) :
	    solver_v_srli(z, 6), solver_v_set1(0xe07));
	/* Each 3-bit group y becomes y - y / 2 - y / 4, its bits. */
	h = solver_v_add(solver_v_and(solver_v_srli(v, 1), solver_v_set1(0x603)),
	    solver_v_and(solver_v_srli(v, 2), solver_v_set1(0x201)));
	v = solver_v_sub(v, h);
	return (solver_v_add(solver_v_and(v, solver_v_set1(3)),
	    solver_v_srli(v, 9)));
}

/* The permutations per unit k of digits 0-7, one lane each, in c[k]. */
static inline void
solver_perm_counts8(const struct solver_tri *tr, solver_v *c)
{
	solver_v	 zr = solver_perms_v(tr->w[TRI_T], 0);
	solver_v	 zc = solver_perms_v(tr->w[TRI_M], 1);

	c[0] = solver_count_band(zr, 0);
	c[1] = solver_count_band(zr, 1);
	c[2] = solver_count_band(zr, 2);
	c[3] = solver_count_stack(zc, 0);
	c[4] = solver_count_stack(zc, 1);
	c[5] = solver_count_stack(zc, 2);
}
#endif

/*
 * The permutations of one digit per unit, in c[k], from its packed
 * minirows t and minicolumns m: the bits of band k in x | y << 9 are
 * 3i + k, those of stack k 3k + j and 9 + 3k + j.
 */
static inline void
solver_perm_counts1(uint32_t t, uint32_t m, int *c)
{
	struct solver_perms	 pr = solver_perms_of(t, 0);
	struct solver_perms	 pc = solver_perms_of(m, 1);
	uint32_t		 zr = pr.x | pr.y << 9, zc = pc.x | pc.y << 9;
	int			 k;

	for (k = 0; k < 3; k++) {
		c[k] = solver_popcount(zr & 0x9249u << k);
		c[3 + k] = solver_popcount(zc & 0xe07u << 3 * k);
	}
}

/*
 * The unit (0-2 the bands, 3-5 the stacks) with the fewest
 * permutations over its digits, among those with more than one for
 * some digit, or -1; want[n - 2] the digits with n of them there, for
 * n = 2, 3, 4.
 */
static int
solver_band_unit(const struct solver_tri *tr, uint32_t *want)
{
	int		 cnt[9][6], tot[6], k, d, n, best = -1;
#if SOLVER_LANES
	solver_v	 c[6];
	uint32_t	 lo, hi;

	solver_perm_counts8(tr, c);
	lo = solver_v_bytesum(solver_v_or(solver_v_or(c[0],
	    solver_v_slli(c[1], 8)), solver_v_or(solver_v_slli(c[2], 16),
	    solver_v_slli(c[3], 24))));
	hi = solver_v_bytesum(solver_v_or(c[4], solver_v_slli(c[5], 8)));
	for (k = 0; k < 6; k++)
		tot[k] = (int)((k < 4 ? lo >> 8 * k : hi >> 8 * (k - 4)) &
		    0xff);
	d = 8;
#else
	for (k = 0; k < 6; k++)
		tot[k] = 0;
	d = 0;
#endif
	for (; d < 9; d++) {
		solver_perm_counts1(tr->w[TRI_T][d], tr->w[TRI_M][d], cnt[d]);
		for (k = 0; k < 6; k++)
			tot[k] += cnt[d][k];
	}
	for (k = 0; k < 6; k++)
		if (tot[k] > 9 && (best < 0 || tot[k] < tot[best]))
			best = k;
	if (best < 0)
		return (-1);
	for (n = 2; n <= 4; n++) {
#if SOLVER_LANES
		want[n - 2] = solver_v_equal(c[best], (uint32_t)n) |
		    (uint32_t)(cnt[8][best] == n) << 8;
#else
		want[n - 2] = 0;
		for (d = 0; d < 9; d++)
			want[n - 2] |= (uint32_t)(cnt[d][best] == n) << d;
#endif
	}
	return (best);
}

/*
 * The branching rule of SOLVER_HARD (above), from the packed words of
 * the triad step; 0 if the unit chosen has no digit to branch on.
 */
static int
solver_band_pick(const struct solver_tri *tr, struct solver_branch *br)
{
	uint32_t	 want[3], w, q6;
	int		 k, d, n;

	if ((k = solver_band_unit(tr, want)) < 0)
		return (0);
	for (n = 0; n < 3; n++)
		for (w = want[n]; w != 0; w &= w - 1) {
			d = solver_ctz(w);
			q6 = solver_perm6(k < 3 ? solver_perms_of(tr->w[TRI_T][d], 0) :
			    solver_perms_of(tr->w[TRI_M][d], 1), k);
			if (solver_branch_of(k, d, q6, br))
				return (1);
		}
	return (0);
}
