/* SPDX-License-Identifier: ISC */
/*
 * solver_cols.h -- part of solver_prop.h: the column step
 * (solver_columns1) for many digits at once, one vector lane per digit,
 * in the avx2 and avx512 copies: digits 0-7 in a vector, digit 8 by
 * solver_columns1.  The same deductions for every digit: a digit
 * whose words did not change since the last run finds nothing, so doing
 * all of them gives what doing the changed ones gives, and a lane costs
 * nothing more than the vector.  Why: in the scalar loop each digit is
 * a chain of some 60 dependent instructions; the column step was a
 * seventh of the work on the hardest set and a sixth on easy puzzles
 * with many solutions, where it runs for most digits.
 */

/* The six permutation matrices of a 3x3 matrix, bit row * 3 + column. */
static const uint32_t solver_permq[6] = {
	0x111, 0x0a1, 0x10a, 0x062, 0x08c, 0x054
};

#if SOLVER_AVX2 && !defined(NO_V_COLS)
/* solver_perm[] of every lane's 9-bit matrix m. */
static inline __m256i
solver_perms8(__m256i m)
{
	__m256i		 r = _mm256_setzero_si256(), q;
	int		 j;

	for (j = 0; j < 6; j++) {
		q = _mm256_set1_epi32((int)solver_permq[j]);
		r = _mm256_or_si256(r, _mm256_and_si256(q,
		    _mm256_cmpeq_epi32(_mm256_and_si256(m, q), q)));
	}
	return (r);
}

/* Bits 3k..3k+2 of a, b, c at bits 0-2, 3-5, 6-8. */
static inline __m256i
solver_gather3(__m256i a, __m256i b, __m256i c, int k)
{
	const __m256i	 seven = _mm256_set1_epi32(7);

	a = _mm256_and_si256(_mm256_srli_epi32(a, 3 * k), seven);
	b = _mm256_and_si256(_mm256_srli_epi32(b, 3 * k), seven);
	c = _mm256_and_si256(_mm256_srli_epi32(c, 3 * k), seven);
	return (_mm256_or_si256(a, _mm256_or_si256(_mm256_slli_epi32(b, 3),
	    _mm256_slli_epi32(c, 6))));
}

/* solver_columns1() for digits 0-7 at once; the same return value. */
static inline int
solver_columns8(struct board *bd, uint32_t *dirty)
{
	const __m256i	 z = _mm256_setzero_si256();
	__m256i		 f[3], c[3], p[3], k, bad;
	uint32_t	 ch = 0, m;
	int		 b;

	for (b = 0; b < 3; b++) {
		f[b] = _mm256_loadu_si256((const __m256i *)(const void *)
		    (bd->f + 9 * b));
		c[b] = _mm256_or_si256(f[b], _mm256_or_si256(
		    _mm256_srli_epi32(f[b], 9), _mm256_srli_epi32(f[b], 18)));
	}
	for (b = 0; b < 3; b++)
		p[b] = solver_perms8(solver_gather3(c[0], c[1], c[2], b));
	bad = _mm256_or_si256(_mm256_cmpeq_epi32(p[0], z), _mm256_or_si256(
	    _mm256_cmpeq_epi32(p[1], z), _mm256_cmpeq_epi32(p[2], z)));
	if (!_mm256_testz_si256(bad, bad))
		return (-1);
	for (b = 0; b < 3; b++) {
		k = solver_gather3(p[0], p[1], p[2], b);
		m = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(
		    _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_andnot_si256(k,
		    c[b]), _mm256_set1_epi32(0x1ff)), z)));
		ch |= (m ^ 0xff) << 9 * b;
		k = _mm256_or_si256(k, _mm256_or_si256(_mm256_slli_epi32(k, 9),
		    _mm256_slli_epi32(k, 18)));
		_mm256_storeu_si256((__m256i *)(void *)(bd->f + 9 * b),
		    _mm256_and_si256(f[b], k));
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
#else
#define solver_columns	solver_columns1
#endif
