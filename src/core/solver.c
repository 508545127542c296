/* SPDX-License-Identifier: ISC */
/*
 * solver.c -- the portable copy of the search engine (solver_body.h),
 * and the choice of the copy that runs.
 *
 * The x86-64 baseline that distributions build for has SSE2 but not
 * popcnt, SSE4.1 or AVX2, and a package runs on other machines than the
 * one it was built on; so the engine is also compiled for three newer
 * levels (solver_sse41.c, solver_avx2.c, solver_avx512.c, with target
 * attributes), and
 * the first call picks the best one the CPU has.  SUDOKU_ISA in the
 * environment forces one (see sudoku_isa() in sudoku.h): the tests run
 * on every copy that way.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "sudoku.h"
#include "solver.h"

#define SOLVER_ENGINE	generic
#define SOLVER_POPCNT	0
#define SOLVER_AVX2	0
#define SOLVER_AVX512	0
#define SOLVER_SSE41	0
#include "solver_body.h"

/*
 * The copies, best first.  avx512 comes after avx2, so it runs only when
 * SUDOKU_ISA names it: on Zen 4, the one AVX-512 CPU it was measured on,
 * it is 0-5 % slower than the avx2 copy (doc/bench-solver.md); it is
 * built and tested (scripts/check) so that it can be measured on others.
 */
static const struct solver_engine *const solver_engines[] = {
#if SOLVER_X86
	&solver_avx2,
	&solver_avx512,
	&solver_sse41,
#endif
	&solver_generic
};
#define SOLVER_NENGINES	(sizeof solver_engines / sizeof solver_engines[0])

/* Can this CPU run copy e? */
static int
solver_runs(const struct solver_engine *e)
{
#if SOLVER_X86
	__builtin_cpu_init();
	if (e == &solver_avx512)
		return (__builtin_cpu_supports("avx512f") &&
		    __builtin_cpu_supports("avx512bw") &&
		    __builtin_cpu_supports("avx512dq") &&
		    __builtin_cpu_supports("avx512vl") &&
		    solver_runs(&solver_avx2));
	if (e == &solver_avx2)
		return (__builtin_cpu_supports("avx2") &&
		    __builtin_cpu_supports("bmi") &&
		    __builtin_cpu_supports("bmi2") &&
		    __builtin_cpu_supports("popcnt"));
	if (e == &solver_sse41)
		return (__builtin_cpu_supports("sse4.1") &&
		    __builtin_cpu_supports("sse4.2") &&
		    __builtin_cpu_supports("ssse3") &&
		    __builtin_cpu_supports("popcnt"));
#endif
	return (e == &solver_generic);
}

/*
 * The index of the copy to run: SUDOKU_ISA's if it names one this CPU
 * runs, else the best one it runs.
 */
static int
solver_choose(void)
{
	const char	*want = getenv("SUDOKU_ISA");
	size_t		 i;

	for (i = 0; want != NULL && i < SOLVER_NENGINES; i++)
		if (strcmp(want, solver_engines[i]->name) == 0 &&
		    solver_runs(solver_engines[i]))
			return ((int)i);
	for (i = 0; i < SOLVER_NENGINES; i++)
		if (solver_runs(solver_engines[i]))
			break;
	return ((int)i);
}

/*
 * The copy in use.  The choice is made once and kept in a static; every
 * thread that makes it makes the same one, so a relaxed atomic is
 * enough (a race only repeats the work).
 */
static const struct solver_engine *
solver_engine(void)
{
	static atomic_int	 chosen = -1;
	int			 i;

	i = atomic_load_explicit(&chosen, memory_order_relaxed);
	if (i < 0) {
		i = solver_choose();
		atomic_store_explicit(&chosen, i, memory_order_relaxed);
	}
	return (solver_engines[i]);
}

enum sudoku_result
solver_start(struct solver *s, const struct sudoku_grid *in,
    enum sudoku_policy policy, unsigned long limit, uint64_t budget)
{
	return (solver_engine()->start(s, in, policy, limit, budget));
}

/*
 * A start from pencil marks: the empty grid's start (every cell open,
 * every word to look at), each word cut to the cells where c has its
 * digit.  Propagation then places the cells left with one candidate,
 * finds the cells left with none, and so on, as from givens.
 */
enum sudoku_result
solver_start_cands(struct solver *s, const struct sudoku_cands *c,
    enum sudoku_policy policy, unsigned long limit, uint64_t budget)
{
	struct sudoku_grid	empty;
	uint32_t		w;
	int			b, d, j;

	memset(&empty, 0, sizeof empty);
	if (solver_start(s, &empty, policy, limit, budget) != SUDOKU_MORE)
		return (s->res);
	for (b = 0; b < 3; b++)
		for (d = 0; d < 9; d++) {
			for (w = 0, j = 0; j < 27; j++)
				w |= (uint32_t)(c->mask[b * 27 + j] >> d & 1) << j;
			s->cur.f[b * 9 + d] &= w;
		}
	s->cur.dirty = (1u << 27) - 1;
	return (s->res);
}

enum sudoku_result
solver_step(struct solver *s, uint64_t slice)
{
	return (solver_engine()->step(s, slice));
}

int
solver_valid(const struct sudoku_grid *g)
{
	return (solver_engine()->valid(g));
}

const char *
solver_isa(void)
{
	return (solver_engine()->name);
}

void
solver_result(const struct solver *s, unsigned long *count,
    struct sudoku_grid *first, struct sudoku_stats *st)
{
	if (count != NULL)
		*count = s->n;
	if (first != NULL && s->n > 0)
		*first = s->first;
	if (st != NULL) {
		st->guesses = s->sr.guesses;
		st->steps = s->sr.steps;
	}
}
