/* SPDX-License-Identifier: ISC */
/*
 * solver_sse41.c -- the search engine (solver_body.h) for x86-64 CPUs
 * with SSSE3, SSE4.1, SSE4.2 and POPCNT (x86-64-v2),
 * compiled with a target attribute on every function so that the rest
 * of the build keeps the baseline; solver.c calls it only on such CPUs.
 */
#include <stdint.h>
#include <string.h>

#include "sudoku.h"
#include "solver.h"

#if SOLVER_X86
#include <immintrin.h>

#ifdef __clang__
#pragma clang attribute push (__attribute__((target("sse4.1,sse4.2,ssse3,popcnt"))), \
    apply_to = function)
#else
#pragma GCC target("sse4.1,sse4.2,ssse3,popcnt")
#endif

#define SOLVER_ENGINE	sse41
#define SOLVER_POPCNT	1
#define SOLVER_AVX2	0
#define SOLVER_AVX512	0
#define SOLVER_SSE41	1
#include "solver_body.h"

#ifdef __clang__
#pragma clang attribute pop
#endif
#endif /* SOLVER_X86 */
