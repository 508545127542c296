/* SPDX-License-Identifier: ISC */
/*
 * solver_init.h -- part of solver_body.h: the start state from a grid,
 * the check of the givens, and the solution back into a grid.
 */

/*
 * v[b * 10 + x]: the cells of band b holding x (0 for the blanks,
 * 1..9).  Returns nonzero if some cell holds a value > 9.  The copies
 * compare a band's bytes with each value at once; loads stay inside the
 * 81 bytes of the grid (overlapping where a band is not a whole vector).
 */
#if SOLVER_AVX2
static inline uint32_t
solver_values(const struct sudoku_grid *g, uint32_t *v)
{
	const __m256i	 nine = _mm256_set1_epi8(9);
	__m256i		 w0, w1, w2, k;
	int		 x;

	w0 = _mm256_loadu_si256((const __m256i *)(const void *)g->cell);
	w1 = _mm256_loadu_si256((const __m256i *)(const void *)
	    (g->cell + 27));
	/* Bytes 49..80: band 2 is at bits 5..31 of its masks. */
	w2 = _mm256_loadu_si256((const __m256i *)(const void *)
	    (g->cell + 49));
	for (x = 0; x < 10; x++) {
		k = _mm256_set1_epi8((char)x);
		v[x] = (uint32_t)_mm256_movemask_epi8(
		    _mm256_cmpeq_epi8(w0, k)) & SOLVER_ALL;
		v[10 + x] = (uint32_t)_mm256_movemask_epi8(
		    _mm256_cmpeq_epi8(w1, k)) & SOLVER_ALL;
		v[20 + x] = (uint32_t)_mm256_movemask_epi8(
		    _mm256_cmpeq_epi8(w2, k)) >> 5;
	}
	k = _mm256_max_epu8(_mm256_max_epu8(w0, w1), w2);
	return ((uint32_t)~_mm256_movemask_epi8(_mm256_cmpeq_epi8(
	    _mm256_max_epu8(k, nine), nine)));
}
#elif defined(__SSE2__)
static inline uint32_t
solver_values(const struct sudoku_grid *g, uint32_t *v)
{
	const __m128i	 nine = _mm_set1_epi8(9);
	__m128i		 lo[3], hi[3], k, big;
	int		 b, x;

	/* Bytes 0..15 and 11..26 of each band. */
	for (b = 0; b < 3; b++) {
		lo[b] = _mm_loadu_si128((const __m128i *)(const void *)
		    (g->cell + 27 * b));
		hi[b] = _mm_loadu_si128((const __m128i *)(const void *)
		    (g->cell + 27 * b + 11));
	}
	for (x = 0; x < 10; x++) {
		k = _mm_set1_epi8((char)x);
		for (b = 0; b < 3; b++)
			v[b * 10 + x] = ((uint32_t)_mm_movemask_epi8(
			    _mm_cmpeq_epi8(lo[b], k)) |
			    (uint32_t)_mm_movemask_epi8(
			    _mm_cmpeq_epi8(hi[b], k)) << 11);
	}
	big = _mm_max_epu8(_mm_max_epu8(_mm_max_epu8(lo[0], hi[0]),
	    _mm_max_epu8(lo[1], hi[1])), _mm_max_epu8(lo[2], hi[2]));
	return ((uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
	    _mm_max_epu8(big, nine), nine)) ^ 0xffff);
}
#else
static inline uint32_t
solver_values(const struct sudoku_grid *g, uint32_t *v)
{
	uint32_t	 big = 0, x;
	int		 b, j;

	memset(v, 0, 30 * sizeof *v);
	for (b = 0; b < 3; b++) {
		for (j = 0; j < 27; j++) {
			x = g->cell[b * 27 + j];
			big |= x > 9;
			v[b * 10 + (x > 9 ? 0 : x)] |= 1u << j;
		}
	}
	return (big);
}
#endif

/*
 * What a row's givens r (9 bits) of one digit see, for a row at
 * position 0, 1, 2 of its band: their row (if any) and their boxes.
 * ROWINFO(r): the boxes r touches (3 bits), and bit 3 if r holds two
 * givens.
 */
#define BOXES(m)	(((m) & 1) * 0x1c0e07u | ((m) >> 1 & 1) * 0xe07038u | \
			((m) >> 2 & 1) * 0x70381c0u)
#define SEES0(r)	(((r) != 0) * 0x1ffu | BOXES(OCC(r)))
#define SEES1(r)	(((r) != 0) * (0x1ffu << 9) | BOXES(OCC(r)))
#define SEES2(r)	(((r) != 0) * (0x1ffu << 18) | BOXES(OCC(r)))
#define ROWINFO(r)	(OCC(r) | ((r) != SINGLE(r) && (r) != 0) << 3)
static const uint32_t solver_sees0[512] = { TBL(SEES0) };
static const uint32_t solver_sees1[512] = { TBL(SEES1) };
static const uint32_t solver_sees2[512] = { TBL(SEES2) };
static const uint8_t solver_rowinfo[512] = { TBL(ROWINFO) };

/*
 * For the givens x of one digit in one band: the cells of the band they
 * see (their rows and boxes, themselves included), their columns in
 * *col, and bits in *dup if two of them share a row or a box.
 */
static inline uint32_t
solver_sees(uint32_t x, uint32_t *col, uint32_t *dup)
{
	uint32_t	 r0 = x & 0x1ff, r1 = x >> 9 & 0x1ff, r2 = x >> 18;
	uint32_t	 i0 = solver_rowinfo[r0], i1 = solver_rowinfo[r1];
	uint32_t	 i2 = solver_rowinfo[r2];

	*dup |= ((i0 | i1 | i2) & 8) | (i0 & i1) | (i0 & i2) | (i1 & i2);
	*col = r0 | r1 | r2;
	return (solver_sees0[r0] | solver_sees1[r1] | solver_sees2[r2]);
}

/*
 * One digit of solver_init(): the words of digit d (0..8) in the three
 * bands from its givens; returns the dirty bits.
 */
static inline uint32_t
solver_init1(struct board *bd, const uint32_t *v, int d, uint32_t *dup)
{
	uint32_t	 e0, e1, e2, c0, c1, c2, x0, x1, x2, f0, f1, f2, col;

	x0 = v[d + 1];
	x1 = v[11 + d];
	x2 = v[21 + d];
	e0 = solver_sees(x0, &c0, dup);
	e1 = solver_sees(x1, &c1, dup);
	e2 = solver_sees(x2, &c2, dup);
	*dup |= (c0 & c1) | (c0 & c2) | (c1 & c2);
	col = (c0 | c1 | c2) * 0x40201u;
	f0 = (v[0] & ~(e0 | col)) | x0;
	f1 = (v[10] & ~(e1 | col)) | x1;
	f2 = (v[20] & ~(e2 | col)) | x2;
	bd->f[d] = f0;
	bd->f[9 + d] = f1;
	bd->f[18 + d] = f2;
	return ((uint32_t)(((f0 ^ x0) | (e0 ^ SOLVER_ALL)) != 0) << d |
	    (uint32_t)(((f1 ^ x1) | (e1 ^ SOLVER_ALL)) != 0) << (9 + d) |
	    (uint32_t)(((f2 ^ x2) | (e2 ^ SOLVER_ALL)) != 0) << (18 + d));
}

#if SOLVER_AVX2
/* solver_sees() for eight words at once, without tables. */
static inline __m256i
solver_sees8(__m256i x, __m256i *col, __m256i *dup)
{
	const __m256i	 r9 = _mm256_set1_epi32(0x1ff), z = _mm256_setzero_si256();
	const __m256i	 one = _mm256_set1_epi32(1), f49 = _mm256_set1_epi32(0x49);
	__m256i		 r0, r1, r2, g0, g1, g2, rows;

	r0 = _mm256_and_si256(x, r9);
	r1 = _mm256_and_si256(_mm256_srli_epi32(x, 9), r9);
	r2 = _mm256_srli_epi32(x, 18);
	/* Bits 0, 3, 6: the row touches box 0, 1, 2. */
	g0 = _mm256_and_si256(_mm256_or_si256(r0, _mm256_or_si256(
	    _mm256_srli_epi32(r0, 1), _mm256_srli_epi32(r0, 2))), f49);
	g1 = _mm256_and_si256(_mm256_or_si256(r1, _mm256_or_si256(
	    _mm256_srli_epi32(r1, 1), _mm256_srli_epi32(r1, 2))), f49);
	g2 = _mm256_and_si256(_mm256_or_si256(r2, _mm256_or_si256(
	    _mm256_srli_epi32(r2, 1), _mm256_srli_epi32(r2, 2))), f49);
	*dup = _mm256_or_si256(*dup, _mm256_or_si256(_mm256_or_si256(
	    _mm256_and_si256(r0, _mm256_sub_epi32(r0, one)),
	    _mm256_and_si256(r1, _mm256_sub_epi32(r1, one))),
	    _mm256_and_si256(r2, _mm256_sub_epi32(r2, one))));
	*dup = _mm256_or_si256(*dup, _mm256_or_si256(_mm256_or_si256(
	    _mm256_and_si256(g0, g1), _mm256_and_si256(g0, g2)),
	    _mm256_and_si256(g1, g2)));
	*col = _mm256_or_si256(_mm256_or_si256(r0, r1), r2);
	rows = _mm256_or_si256(_mm256_or_si256(
	    _mm256_andnot_si256(_mm256_cmpeq_epi32(r0, z), r9),
	    _mm256_andnot_si256(_mm256_cmpeq_epi32(r1, z),
	    _mm256_slli_epi32(r9, 9))),
	    _mm256_andnot_si256(_mm256_cmpeq_epi32(r2, z),
	    _mm256_slli_epi32(r9, 18)));
	/* Each box flag times 7 is the box's columns, times 0x40201 its rows. */
	return (_mm256_or_si256(rows, _mm256_mullo_epi32(_mm256_or_si256(
	    _mm256_or_si256(g0, g1), g2), _mm256_set1_epi32(0x1c0e07))));
}

/* Digits 1..8 of solver_init(), eight at once; digit 9 is done apart. */
static inline uint32_t
solver_init8(struct board *bd, const uint32_t *v, uint32_t *dup)
{
	const __m256i	 all = _mm256_set1_epi32(SOLVER_ALL);
	__m256i		 x[3], e[3], c[3], col, f, dv = _mm256_setzero_si256();
	uint32_t	 dirty = 0;
	int		 b;

	for (b = 0; b < 3; b++) {
		x[b] = _mm256_loadu_si256((const __m256i *)(const void *)
		    (v + b * 10 + 1));
		e[b] = solver_sees8(x[b], &c[b], &dv);
	}
	dv = _mm256_or_si256(dv, _mm256_or_si256(_mm256_or_si256(
	    _mm256_and_si256(c[0], c[1]), _mm256_and_si256(c[0], c[2])),
	    _mm256_and_si256(c[1], c[2])));
	col = _mm256_mullo_epi32(_mm256_or_si256(_mm256_or_si256(c[0], c[1]),
	    c[2]), _mm256_set1_epi32(0x40201));
	for (b = 0; b < 3; b++) {
		f = _mm256_or_si256(_mm256_andnot_si256(_mm256_or_si256(e[b],
		    col), _mm256_set1_epi32((int)v[b * 10])), x[b]);
		_mm256_storeu_si256((__m256i *)(void *)(bd->f + b * 9), f);
		dirty |= (uint32_t)(~_mm256_movemask_ps(_mm256_castsi256_ps(
		    _mm256_and_si256(_mm256_cmpeq_epi32(f, x[b]),
		    _mm256_cmpeq_epi32(e[b], all)))) & 0xff) << b * 9;
	}
	*dup |= !_mm256_testz_si256(dv, dv);
	return (dirty);
}
#endif

/*
 * Fills bd from a grid; -1 if a value is > 9 or two givens conflict.
 * A word is cut to its givens and the blanks no given of its digit
 * sees.  Only the words with something left to decide are dirty: a
 * digit with three givens and no other cell in a band is settled there,
 * and the band step would find nothing in it.
 */
static inline int
solver_init(struct board *bd, const struct sudoku_grid *g)
{
	uint32_t	 v[30], dup, dirty = 0;
	int		 d = 0;

	dup = solver_values(g, v);
#if SOLVER_AVX2
	dirty = solver_init8(bd, v, &dup);
	d = 8;
#endif
	for (; d < 9; d++)
		dirty |= solver_init1(bd, v, d, &dup);
	bd->u[0] = v[0];
	bd->u[1] = v[10];
	bd->u[2] = v[20];
	bd->dirty = dirty;
	return (dup != 0 ? -1 : 0);
}

/*
 * Writes the solved board bd into g, which holds the givens already:
 * only the blanks of the input are filled.
 */
static inline void
solver_extract(const struct board *bd, const uint32_t *blank,
    struct sudoku_grid *g)
{
	uint32_t	 m;
	int		 b, d;

	for (b = 0; b < 3; b++) {
		if (blank[b] == 0)
			continue;
		for (d = 0; d < 9; d++)
			for (m = bd->f[b * 9 + d] & blank[b]; m != 0;
			    m &= m - 1)
				g->cell[b * 27 + solver_ctz(m)] =
				    (uint8_t)(d + 1);
	}
}
