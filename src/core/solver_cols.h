/* SPDX-License-Identifier: ISC */
/*
 * solver_cols.h -- part of solver_body.h: the column step (see there),
 * for one digit (solver_columns1) and for several digits at once, one
 * vector lane per digit: digits 0-7 in one vector in the avx2 and
 * avx512 copies, 0-3 and 4-7 in two (each only if one of its digits
 * changed) in the generic (SSE2) and sse41 ones on x86-64; digit 8 by
 * solver_columns1.  The same deductions for every digit: a digit whose
 * words did not change since the last run finds nothing, so doing all
 * of them gives what doing the changed ones gives.  Why: in the scalar
 * loop each digit is a chain of some 60 dependent instructions; the
 * column step was a seventh of the work on the hardest set and a fifth
 * on easy puzzles with many solutions, where it runs for most digits.
 * With the permutations found by rotations (solver_keep2) it is a
 * tenth; 1-2 % faster on the hardest set, 5-6 % on the many-solution
 * sets (avx2).  Included before solver_prop.h, which calls
 * solver_columns().
 */

/*
 * The column step, the band step turned on its side, for each digit:
 * in each stack (three columns, three boxes) the digit needs one
 * minicolumn (a column's three cells in one band) per column and per
 * band, so minicolumns in no such permutation are cleared; this covers
 * locked candidates in columns and (through the band step) hidden
 * singles in columns.  Returns -1, 1 if something changed, else 0.
 */
static int
solver_columns1(struct board *bd, uint32_t digits, uint32_t *dirty)
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

#if SOLVER_AVX2
/*
 * Rotations of the three columns of each stack, in every lane's 9-bit
 * word (stack k at bits 3k..3k+2): column c gets column c + 1 (rot1) or
 * c + 2 (rot2), modulo 3.
 */
static inline __m256i
solver_rot1(__m256i x)
{
	return (_mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(x, 1),
	    _mm256_set1_epi32(0333)), _mm256_and_si256(_mm256_slli_epi32(x,
	    2), _mm256_set1_epi32(0444))));
}

static inline __m256i
solver_rot2(__m256i x)
{
	return (_mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(x, 2),
	    _mm256_set1_epi32(0111)), _mm256_and_si256(_mm256_slli_epi32(x,
	    1), _mm256_set1_epi32(0666))));
}

/*
 * Minicolumn (band b, column c) is in a permutation of its stack's 3x3
 * matrix iff it is set and the 2x2 matrix of the other bands and
 * columns holds one of its two permutations:
 *   keep_b = c_b & ((rot1(c_x) & rot2(c_y)) | (rot2(c_x) & rot1(c_y)))
 * for x, y the other two bands: the three stacks at once, without the
 * table (solver_perm), nine times fewer instructions than a lookup per
 * stack in a vector.
 */
static inline __m256i
solver_keep2(__m256i c, __m256i x1, __m256i x2, __m256i y1, __m256i y2)
{
	return (_mm256_and_si256(c, _mm256_or_si256(_mm256_and_si256(x1, y2),
	    _mm256_and_si256(x2, y1))));
}

/* solver_columns1() for digits 0-7 at once; the same return value. */
static inline int
solver_columns8(struct board *bd, uint32_t *dirty)
{
	const __m256i	 z = _mm256_setzero_si256(), ninth = _mm256_set1_epi32(0111);
	__m256i		 f[3], c[3], r1[3], r2[3], k[3], g;
	uint32_t	 ch = 0, m;
	int		 b;

	for (b = 0; b < 3; b++) {
		f[b] = _mm256_loadu_si256((const __m256i *)(const void *)
		    (bd->f + 9 * b));
		c[b] = _mm256_and_si256(_mm256_or_si256(f[b], _mm256_or_si256(
		    _mm256_srli_epi32(f[b], 9), _mm256_srli_epi32(f[b], 18))),
		    _mm256_set1_epi32(0x1ff));
		r1[b] = solver_rot1(c[b]);
		r2[b] = solver_rot2(c[b]);
	}
	k[0] = solver_keep2(c[0], r1[1], r2[1], r1[2], r2[2]);
	k[1] = solver_keep2(c[1], r1[0], r2[0], r1[2], r2[2]);
	k[2] = solver_keep2(c[2], r1[0], r2[0], r1[1], r2[1]);
	/* A stack without a permutation keeps nothing of band 0. */
	g = _mm256_and_si256(_mm256_or_si256(k[0], _mm256_or_si256(
	    _mm256_srli_epi32(k[0], 1), _mm256_srli_epi32(k[0], 2))), ninth);
	g = _mm256_cmpeq_epi32(g, ninth);
	if (_mm256_movemask_ps(_mm256_castsi256_ps(g)) != 0xff)
		return (-1);
	for (b = 0; b < 3; b++) {
		m = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(
		    _mm256_cmpeq_epi32(_mm256_andnot_si256(k[b], c[b]), z)));
		ch |= (m ^ 0xff) << 9 * b;
		k[b] = _mm256_or_si256(k[b], _mm256_or_si256(
		    _mm256_slli_epi32(k[b], 9), _mm256_slli_epi32(k[b], 18)));
		_mm256_storeu_si256((__m256i *)(void *)(bd->f + 9 * b),
		    _mm256_and_si256(f[b], k[b]));
	}
	*dirty |= ch;
	return (ch != 0);
}

static inline int
solver_columns(struct board *bd, uint32_t digits, uint32_t *dirty)
{
	int	 r, r8;

	if ((r = solver_columns8(bd, dirty)) < 0)
		return (-1);
	r8 = (digits & 0x100) != 0 ? solver_columns1(bd, 0x100, dirty) : 0;
	return (r8 < 0 ? -1 : r | r8);
}
#elif defined(__SSE2__)
/* solver_rot1(), solver_rot2(), solver_keep2() in four lanes. */
static inline __m128i
solver_rot1x4(__m128i x)
{
	return (_mm_or_si128(_mm_and_si128(_mm_srli_epi32(x, 1),
	    _mm_set1_epi32(0333)), _mm_and_si128(_mm_slli_epi32(x, 2),
	    _mm_set1_epi32(0444))));
}

static inline __m128i
solver_rot2x4(__m128i x)
{
	return (_mm_or_si128(_mm_and_si128(_mm_srli_epi32(x, 2),
	    _mm_set1_epi32(0111)), _mm_and_si128(_mm_slli_epi32(x, 1),
	    _mm_set1_epi32(0666))));
}

static inline __m128i
solver_keep2x4(__m128i c, __m128i x1, __m128i x2, __m128i y1, __m128i y2)
{
	return (_mm_and_si128(c, _mm_or_si128(_mm_and_si128(x1, y2),
	    _mm_and_si128(x2, y1))));
}

/*
 * The generic (SSE2, the x86-64 baseline) and sse41 copies: digits d..d+3
 * in four lanes, as solver_columns8 does eight.
 */
static inline int
solver_columns4(struct board *bd, int d, uint32_t *dirty)
{
	const __m128i	 z = _mm_setzero_si128(), ninth = _mm_set1_epi32(0111);
	__m128i		 f[3], c[3], r1[3], r2[3], k[3], g;
	uint32_t	 ch = 0, m;
	int		 b;

	for (b = 0; b < 3; b++) {
		f[b] = _mm_loadu_si128((const __m128i *)(const void *)
		    (bd->f + 9 * b + d));
		c[b] = _mm_and_si128(_mm_or_si128(f[b], _mm_or_si128(
		    _mm_srli_epi32(f[b], 9), _mm_srli_epi32(f[b], 18))),
		    _mm_set1_epi32(0x1ff));
		r1[b] = solver_rot1x4(c[b]);
		r2[b] = solver_rot2x4(c[b]);
	}
	k[0] = solver_keep2x4(c[0], r1[1], r2[1], r1[2], r2[2]);
	k[1] = solver_keep2x4(c[1], r1[0], r2[0], r1[2], r2[2]);
	k[2] = solver_keep2x4(c[2], r1[0], r2[0], r1[1], r2[1]);
	g = _mm_and_si128(_mm_or_si128(k[0], _mm_or_si128(_mm_srli_epi32(k[0],
	    1), _mm_srli_epi32(k[0], 2))), ninth);
	if (_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(g, ninth))) !=
	    0xf)
		return (-1);
	for (b = 0; b < 3; b++) {
		m = (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(
		    _mm_andnot_si128(k[b], c[b]), z)));
		ch |= (m ^ 0xf) << (9 * b + d);
		k[b] = _mm_or_si128(k[b], _mm_or_si128(_mm_slli_epi32(k[b], 9),
		    _mm_slli_epi32(k[b], 18)));
		_mm_storeu_si128((__m128i *)(void *)(bd->f + 9 * b + d),
		    _mm_and_si128(f[b], k[b]));
	}
	*dirty |= ch;
	return (ch != 0);
}

/* Four digits at a time where one of them changed, digit 8 alone. */
static inline int
solver_columns(struct board *bd, uint32_t digits, uint32_t *dirty)
{
	int	 r = 0, t;

	if ((digits & 0x0f) != 0) {
		if ((t = solver_columns4(bd, 0, dirty)) < 0)
			return (-1);
		r |= t;
	}
	if ((digits & 0xf0) != 0) {
		if ((t = solver_columns4(bd, 4, dirty)) < 0)
			return (-1);
		r |= t;
	}
	if ((digits & 0x100) != 0) {
		if ((t = solver_columns1(bd, 0x100, dirty)) < 0)
			return (-1);
		r |= t;
	}
	return (r);
}
#else
#define solver_columns	solver_columns1
#endif
