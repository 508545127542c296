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
 * The folds of solver_v_count(), on 128 or 256 bits (then on two sets
 * of four lanes at once, one per half): from "at least 1, 2" per lane
 * (s1, s2) to "at least 2, 3, 4" over the four lanes, in the first.
 */
#define SOLVER_V_FOLD(T, OR, AND, SHUF, s1, s2, u2, u3, u4) do {	\
	T	 p1_, p2_, t1_, t2_, t3_, t4_, q1_, q2_, q3_, q4_;	\
									\
	p1_ = SHUF(s1, 0x4e);						\
	p2_ = SHUF(s2, 0x4e);						\
	t1_ = OR(s1, p1_);						\
	t2_ = OR(OR(s2, p2_), AND(s1, p1_));				\
	t3_ = OR(AND(s2, p1_), AND(s1, p2_));				\
	t4_ = AND(s2, p2_);						\
	q1_ = SHUF(t1_, 0xb1);						\
	q2_ = SHUF(t2_, 0xb1);						\
	q3_ = SHUF(t3_, 0xb1);						\
	q4_ = SHUF(t4_, 0xb1);						\
	(u2) = OR(OR(t2_, q2_), AND(t1_, q1_));				\
	(u3) = OR(OR(t3_, q3_), OR(AND(t2_, q1_), AND(t1_, q2_)));	\
	(u4) = OR(OR(t4_, q4_), OR(AND(t3_, q1_), OR(AND(t2_, q2_),	\
	    AND(t1_, q3_))));						\
} while (0)

/*
 * Counts of each bit over the eight lanes of a and of b, as "at least
 * 2, 3, 4" in ra[0..2] and rb[0..2]: the two halves, then pairs of
 * lanes, then lanes, folded with adders of such counts.
 */
static inline void
solver_v_count(solver_v a, solver_v b, uint32_t *ra, uint32_t *rb)
{
#if SOLVER_AVX2
	/* a's halves side by side with b's: both folded at once. */
	__m256i	 lo = _mm256_permute2x128_si256(a, b, 0x20);
	__m256i	 hi = _mm256_permute2x128_si256(a, b, 0x31);
	__m256i	 u2, u3, u4;

	SOLVER_V_FOLD(__m256i, _mm256_or_si256, _mm256_and_si256,
	    _mm256_shuffle_epi32, _mm256_or_si256(lo, hi),
	    _mm256_and_si256(lo, hi), u2, u3, u4);
	ra[0] = (uint32_t)_mm256_extract_epi32(u2, 0);
	ra[1] = (uint32_t)_mm256_extract_epi32(u3, 0);
	ra[2] = (uint32_t)_mm256_extract_epi32(u4, 0);
	rb[0] = (uint32_t)_mm256_extract_epi32(u2, 4);
	rb[1] = (uint32_t)_mm256_extract_epi32(u3, 4);
	rb[2] = (uint32_t)_mm256_extract_epi32(u4, 4);
#else
	__m128i	 u2, u3, u4;

	SOLVER_V_FOLD(__m128i, _mm_or_si128, _mm_and_si128, _mm_shuffle_epi32,
	    _mm_or_si128(a.lo, a.hi), _mm_and_si128(a.lo, a.hi), u2, u3, u4);
	ra[0] = (uint32_t)_mm_cvtsi128_si32(u2);
	ra[1] = (uint32_t)_mm_cvtsi128_si32(u3);
	ra[2] = (uint32_t)_mm_cvtsi128_si32(u4);
	SOLVER_V_FOLD(__m128i, _mm_or_si128, _mm_and_si128, _mm_shuffle_epi32,
	    _mm_or_si128(b.lo, b.hi), _mm_and_si128(b.lo, b.hi), u2, u3, u4);
	rb[0] = (uint32_t)_mm_cvtsi128_si32(u2);
	rb[1] = (uint32_t)_mm_cvtsi128_si32(u3);
	rb[2] = (uint32_t)_mm_cvtsi128_si32(u4);
#endif
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
