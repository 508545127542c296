/* SPDX-License-Identifier: ISC */
/*
 * solver_lanes.h -- part of solver_body.h: eight 32-bit lanes, one per
 * digit 0-7, for the steps of solver_triad.h and solver_perms.h: one
 * AVX2 vector in the avx2 and avx512 copies, two SSE2 ones in the
 * generic and sse41 copies on x86-64 (SSE2 is part of the baseline).
 * SOLVER_LANES is 1 where they exist; elsewhere those steps use their
 * scalar loops.  The same results either way.
 */

#if SOLVER_AVX2
#define SOLVER_LANES	1
typedef __m256i		solver_v;

static inline solver_v
solver_v_load(const uint32_t *p)
{
	return (_mm256_loadu_si256((const __m256i *)(const void *)p));
}

static inline void
solver_v_store(uint32_t *p, solver_v x)
{
	_mm256_storeu_si256((__m256i *)(void *)p, x);
}

#define solver_v_set1(c)	_mm256_set1_epi32((int)(c))
#define solver_v_and(a, b)	_mm256_and_si256(a, b)
#define solver_v_or(a, b)	_mm256_or_si256(a, b)
#define solver_v_andnot(a, b)	_mm256_andnot_si256(a, b)	/* ~a & b */
#define solver_v_add(a, b)	_mm256_add_epi32(a, b)
#define solver_v_sub(a, b)	_mm256_sub_epi32(a, b)
#define solver_v_srli(a, n)	_mm256_srli_epi32(a, n)
#define solver_v_slli(a, n)	_mm256_slli_epi32(a, n)

/* Bit i: lane i is not zero. */
static inline uint32_t
solver_v_nonzero(solver_v x)
{
	return ((uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(
	    _mm256_cmpeq_epi32(x, _mm256_setzero_si256()))) ^ 0xff);
}

/* Bit i: lane i equals c. */
static inline uint32_t
solver_v_equal(solver_v x, uint32_t c)
{
	return ((uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(
	    _mm256_cmpeq_epi32(x, _mm256_set1_epi32((int)c)))));
}

static inline __m128i
solver_v_lo(solver_v x)
{
	return (_mm256_castsi256_si128(x));
}

static inline __m128i
solver_v_hi(solver_v x)
{
	return (_mm256_extracti128_si256(x, 1));
}
#elif defined(__SSE2__)
#define SOLVER_LANES	1
typedef struct {
	__m128i		lo, hi;
} solver_v;

static inline solver_v
solver_v_load(const uint32_t *p)
{
	solver_v	 x;

	x.lo = _mm_loadu_si128((const __m128i *)(const void *)p);
	x.hi = _mm_loadu_si128((const __m128i *)(const void *)(p + 4));
	return (x);
}

static inline void
solver_v_store(uint32_t *p, solver_v x)
{
	_mm_storeu_si128((__m128i *)(void *)p, x.lo);
	_mm_storeu_si128((__m128i *)(void *)(p + 4), x.hi);
}

static inline solver_v
solver_v_set1(uint32_t c)
{
	solver_v	 x;

	x.lo = x.hi = _mm_set1_epi32((int)c);
	return (x);
}

/* The binary operations, lane by lane on both halves. */
#define SOLVER_V_OP2(name, op)						\
static inline solver_v							\
name(solver_v a, solver_v b)						\
{									\
	solver_v	 x;						\
									\
	x.lo = op(a.lo, b.lo);						\
	x.hi = op(a.hi, b.hi);						\
	return (x);							\
}
SOLVER_V_OP2(solver_v_and, _mm_and_si128)
SOLVER_V_OP2(solver_v_or, _mm_or_si128)
SOLVER_V_OP2(solver_v_andnot, _mm_andnot_si128)
SOLVER_V_OP2(solver_v_add, _mm_add_epi32)
SOLVER_V_OP2(solver_v_sub, _mm_sub_epi32)
#undef SOLVER_V_OP2

static inline solver_v
solver_v_srli(solver_v a, int n)
{
	a.lo = _mm_srl_epi32(a.lo, _mm_cvtsi32_si128(n));
	a.hi = _mm_srl_epi32(a.hi, _mm_cvtsi32_si128(n));
	return (a);
}

static inline solver_v
solver_v_slli(solver_v a, int n)
{
	a.lo = _mm_sll_epi32(a.lo, _mm_cvtsi32_si128(n));
	a.hi = _mm_sll_epi32(a.hi, _mm_cvtsi32_si128(n));
	return (a);
}

static inline uint32_t
solver_v_mask(__m128i lo, __m128i hi)
{
	return ((uint32_t)_mm_movemask_ps(_mm_castsi128_ps(lo)) |
	    (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(hi)) << 4);
}

static inline uint32_t
solver_v_nonzero(solver_v x)
{
	const __m128i	 z = _mm_setzero_si128();

	return (solver_v_mask(_mm_cmpeq_epi32(x.lo, z),
	    _mm_cmpeq_epi32(x.hi, z)) ^ 0xff);
}

static inline uint32_t
solver_v_equal(solver_v x, uint32_t c)
{
	const __m128i	 k = _mm_set1_epi32((int)c);

	return (solver_v_mask(_mm_cmpeq_epi32(x.lo, k),
	    _mm_cmpeq_epi32(x.hi, k)));
}

static inline __m128i
solver_v_lo(solver_v x)
{
	return (x.lo);
}

static inline __m128i
solver_v_hi(solver_v x)
{
	return (x.hi);
}
#else
#define SOLVER_LANES	0
#endif

#if SOLVER_LANES
/* a | b | c in each lane. */
static inline solver_v
solver_v_or3(solver_v a, solver_v b, solver_v c)
{
	return (solver_v_or(a, solver_v_or(b, c)));
}

/*
 * Counts of each bit over the eight lanes of x, as "at least 2, 3, 4"
 * in r[0..2]: the two halves, then pairs of lanes, then lanes, folded
 * with adders of such counts.
 */
static inline void
solver_v_count(solver_v x, uint32_t *r)
{
	__m128i	 lo = solver_v_lo(x), hi = solver_v_hi(x);
	__m128i	 s1, s2, p1, p2, t1, t2, t3, t4, q1, q2, q3, q4;

	s1 = _mm_or_si128(lo, hi);
	s2 = _mm_and_si128(lo, hi);
	p1 = _mm_shuffle_epi32(s1, 0x4e);
	p2 = _mm_shuffle_epi32(s2, 0x4e);
	t1 = _mm_or_si128(s1, p1);
	t2 = _mm_or_si128(_mm_or_si128(s2, p2), _mm_and_si128(s1, p1));
	t3 = _mm_or_si128(_mm_and_si128(s2, p1), _mm_and_si128(s1, p2));
	t4 = _mm_and_si128(s2, p2);
	q1 = _mm_shuffle_epi32(t1, 0xb1);
	q2 = _mm_shuffle_epi32(t2, 0xb1);
	q3 = _mm_shuffle_epi32(t3, 0xb1);
	q4 = _mm_shuffle_epi32(t4, 0xb1);
	r[0] = (uint32_t)_mm_cvtsi128_si32(_mm_or_si128(_mm_or_si128(t2, q2),
	    _mm_and_si128(t1, q1)));
	r[1] = (uint32_t)_mm_cvtsi128_si32(_mm_or_si128(_mm_or_si128(t3, q3),
	    _mm_or_si128(_mm_and_si128(t2, q1), _mm_and_si128(t1, q2))));
	r[2] = (uint32_t)_mm_cvtsi128_si32(_mm_or_si128(_mm_or_si128(t4, q4),
	    _mm_or_si128(_mm_and_si128(t3, q1), _mm_or_si128(
	    _mm_and_si128(t2, q2), _mm_and_si128(t1, q3)))));
}

/* The sum of each byte over the eight lanes (no byte sum over 255). */
static inline uint32_t
solver_v_bytesum(solver_v x)
{
	__m128i	 s;

	s = _mm_add_epi8(solver_v_lo(x), solver_v_hi(x));
	s = _mm_add_epi8(s, _mm_shuffle_epi32(s, 0x4e));
	s = _mm_add_epi8(s, _mm_shuffle_epi32(s, 0xb1));
	return ((uint32_t)_mm_cvtsi128_si32(s));
}
#endif
