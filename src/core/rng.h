/* SPDX-License-Identifier: ISC */
/*
 * rng.h -- the core's pseudo-random numbers: xoshiro256** seeded from
 * a 64-bit seed by splitmix64, integer arithmetic only, so that a seed
 * gives the same numbers on every machine.  Shared by generate.c,
 * transform.c and reduce.c; the generator's seeds are part of the
 * protocol, so none of these may change what it returns.
 *
 * Private to the solver core; nothing outside src/core includes it.
 */
#ifndef RNG_H
#define RNG_H

#include <stdint.h>

/* splitmix64: turns the seed into the xoshiro state. */
static inline uint64_t
rng_splitmix(uint64_t *x)
{
	uint64_t	 z;

	z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31));
}

static inline void
rng_seed(uint64_t s[4], uint64_t seed)
{
	int	 i;

	for (i = 0; i < 4; i++)
		s[i] = rng_splitmix(&seed);
}

static inline uint64_t
rng_rotl(uint64_t x, int k)
{
	return ((x << k) | (x >> (64 - k)));
}

/* xoshiro256**, one 64-bit output. */
static inline uint64_t
rng_next(uint64_t s[4])
{
	uint64_t	 out = rng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return (out);
}

/* A number in 0..n-1 (n >= 1); the small modulo bias does not matter. */
static inline unsigned int
rng_below(uint64_t s[4], unsigned int n)
{
	return ((unsigned int)(rng_next(s) % n));
}

/* Shuffles p[0..n-1] in place (Fisher-Yates, from the top). */
static inline void
rng_shuffle(uint64_t s[4], uint8_t *p, int n)
{
	uint8_t	 t;
	int	 i, j;

	for (i = n - 1; i > 0; i--) {
		j = (int)rng_below(s, (unsigned int)i + 1);
		t = p[i];
		p[i] = p[j];
		p[j] = t;
	}
}

#endif /* RNG_H */
