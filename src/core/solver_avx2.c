/* SPDX-License-Identifier: ISC */
/*
 * solver_avx2.c -- the search engine (solver_body.h) for x86-64 CPUs
 * with AVX2, BMI1, BMI2, POPCNT and LZCNT (x86-64-v3 less FMA),
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
#pragma clang attribute push (__attribute__((target("avx2,bmi,bmi2,popcnt,lzcnt"))), \
    apply_to = function)
#else
#pragma GCC target("avx2,bmi,bmi2,popcnt,lzcnt")
#endif

#define SOLVER_ENGINE	avx2
#define SOLVER_POPCNT	1
#define SOLVER_AVX2	1
#define SOLVER_AVX512	0
#define SOLVER_SSE41	1
#include "solver_body.h"

#ifdef __clang__
#pragma clang attribute pop
#endif
#endif /* SOLVER_X86 */
