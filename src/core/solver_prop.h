/* SPDX-License-Identifier: ISC */
/*
 * solver_prop.h -- part of solver_body.h: propagation to a fixpoint
 * (the band and cell steps, and the column step of solver_cols.h; see
 * solver_body.h).
 */

/*
 * Clears cells nw from the nine digit words f[0..8] of a band; returns
 * which words changed (bit d for word d).
 */
#if SOLVER_AVX512
/*
 * Eight words in a vector and the ninth apart, as in the avx2 copy (a
 * masked load and store of all nine is 10 % slower on Zen 4: the loads
 * that follow cannot take their data from a masked store); the changed
 * words straight from a compare into a mask register.
 */
static inline uint32_t
solver_clear(uint32_t *f, uint32_t nw)
{
	__m256i		 n = _mm256_set1_epi32((int)nw), v;
	uint32_t	 ch;

	v = _mm256_loadu_si256((const __m256i *)(void *)f);
	ch = (uint32_t)_mm256_test_epi32_mask(v, n) |
	    (uint32_t)((f[8] & nw) != 0) << 8;
	_mm256_storeu_si256((__m256i *)(void *)f, _mm256_andnot_si256(n, v));
	f[8] &= ~nw;
	return (ch);
}
#elif SOLVER_AVX2
static inline uint32_t
solver_clear(uint32_t *f, uint32_t nw)
{
	__m256i		 n = _mm256_set1_epi32((int)nw), v;
	uint32_t	 ch;

	v = _mm256_loadu_si256((const __m256i *)(void *)f);
	ch = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(
	    _mm256_cmpeq_epi32(_mm256_and_si256(v, n),
	    _mm256_setzero_si256()))) | ((f[8] & nw) == 0) << 8;
	_mm256_storeu_si256((__m256i *)(void *)f, _mm256_andnot_si256(n, v));
	f[8] &= ~nw;
	return (ch ^ 0x1ff);
}
#elif defined(__SSE2__)
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

/* For word i: its band, and the same digit's words in the other bands. */
#define BANDS(i)	{ (i) / 9, (i) >= 18 ? (i) - 18 : (i) + 9, \
			(i) >= 9 ? (i) - 9 : (i) + 18 }
static const uint8_t solver_bands[27][3] = {
	BANDS(0), BANDS(1), BANDS(2), BANDS(3), BANDS(4), BANDS(5),
	BANDS(6), BANDS(7), BANDS(8), BANDS(9), BANDS(10), BANDS(11),
	BANDS(12), BANDS(13), BANDS(14), BANDS(15), BANDS(16), BANDS(17),
	BANDS(18), BANDS(19), BANDS(20), BANDS(21), BANDS(22), BANDS(23),
	BANDS(24), BANDS(25), BANDS(26)
};

/* The band step for word i (band i / 9, digit i % 9); see the top. */
static inline int
solver_band(struct board *bd, int i, uint32_t *dirty, struct search *sr)
{
	uint32_t	 a = bd->f[i], k, s, nw, col, t;
	int		 b, o1, o2;

	/* Bit 3j of t: minirow j is not empty; gathered box-major. */
	t = a | a >> 1 | a >> 2;
#if SOLVER_AVX512
	k = solver_keep[_pext_u32(t, 01111111111)];
#else
	k = solver_keept[(t & 0x49) | (t >> 8 & 0x92) | (t >> 16 & 0x124)];
#endif
	if (k == 0)
		return (-1);
	a &= k;
	s = solver_single[a & 0x1ff] |
	    (uint32_t)solver_single[a >> 9 & 0x1ff] << 9 |
	    (uint32_t)solver_single[a >> 18] << 18;
	b = solver_bands[i][0];
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
	o1 = solver_bands[i][1];
	o2 = solver_bands[i][2];
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
 * For each band, the cells with at least one, two, three digits left:
 * bitwise adders over its nine digit words.  With SSE (every x86-64
 * copy) the three bands are added at once, one vector lane each: fewer
 * instructions and three short dependency chains instead of one long one.
 */
#if SOLVER_SSE41 || defined(__SSE2__)
static inline void
solver_counts(const struct board *bd, uint32_t *x1, uint32_t *x2,
    uint32_t *x3)
{
	const uint32_t	*f = bd->f;
	__m128i		 a1, a2, a3, m;

	/* Unrolled: gcc -O2 keeps the loop, at a quarter more instructions. */
#define SOLVER_ADD(d) do {						\
	m = _mm_setr_epi32((int)f[d], (int)f[9 + (d)], (int)f[18 + (d)], 0); \
	a3 = _mm_or_si128(a3, _mm_and_si128(a2, m));			\
	a2 = _mm_or_si128(a2, _mm_and_si128(a1, m));			\
	a1 = _mm_or_si128(a1, m);					\
} while (0)
	a1 = _mm_setr_epi32((int)f[0], (int)f[9], (int)f[18], 0);
	a2 = a3 = _mm_setzero_si128();
	SOLVER_ADD(1);
	SOLVER_ADD(2);
	SOLVER_ADD(3);
	SOLVER_ADD(4);
	SOLVER_ADD(5);
	SOLVER_ADD(6);
	SOLVER_ADD(7);
	SOLVER_ADD(8);
#undef SOLVER_ADD
	_mm_storeu_si128((__m128i *)(void *)x1, a1);
	_mm_storeu_si128((__m128i *)(void *)x2, a2);
	_mm_storeu_si128((__m128i *)(void *)x3, a3);
}
#else
static inline void
solver_counts(const struct board *bd, uint32_t *x1, uint32_t *x2,
    uint32_t *x3)
{
	uint32_t	 m;
	int		 b, d;

	for (b = 0; b < 3; b++) {
		x1[b] = x2[b] = x3[b] = 0;
		if (bd->u[b] == 0)
			continue;
		for (d = 0; d < 9; d++) {
			m = bd->f[b * 9 + d];
			x3[b] |= x2[b] & m;
			x2[b] |= x1[b] & m;
			x1[b] |= m;
		}
	}
}
#endif

/*
 * The cell step: fails on a cell with no digit left, places naked
 * singles, and notes bivalue cells for the branching rule.  Returns -1,
 * or 1 if something was placed, else 0.
 */
static int
solver_cells(struct board *bd, uint32_t *dirty, struct search *sr)
{
	uint32_t	 x1[4], x2[4], x3[4], u, ns, s, p;
	int		 b, d, found = 0;

	solver_counts(bd, x1, x2, x3);
	for (b = 0; b < 3; b++) {
		u = bd->u[b];
		if ((u & ~x1[b]) != 0)
			return (-1);
		sr->bival[b] = u & x2[b] & ~x3[b];
		ns = u & ~x2[b];
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
 * Propagates from the words in dirty to a fixpoint.  Every word that
 * changes is marked dirty and so passes through the band loop; seen
 * collects them, and the column step only looks at the digits seen since
 * its last run: for the others it would find what it found then, i.e.
 * nothing (the state came from a fixpoint, or from solver_init with
 * every word dirty).  With tri (SOLVER_HARD), the triad step at a
 * fixpoint of the others, last; tri then holds its packed words.
 */
static int
solver_propagate(struct board *bd, uint32_t dirty, struct search *sr,
    struct solver_tri *tri)
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
		if (r == 0 && tri != NULL)
			r = solver_triads(bd, &dirty, tri);
		if (r < 0)
			return (SOLVER_FAIL);
		if (r == 0)
			return (SOLVER_STALL);
	}
}

