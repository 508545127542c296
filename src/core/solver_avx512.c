/* SPDX-License-Identifier: ISC */
/*
 * solver_avx512.c -- the search engine (solver_body.h) for x86-64 CPUs
 * with AVX-512 F, BW, DQ and VL besides AVX2, BMI1, BMI2, POPCNT and
 * LZCNT (x86-64-v4), compiled with a target attribute on every function
 * so that the rest of the build keeps the baseline; solver.c calls it
 * only on such CPUs.  The code is the avx2 copy's but for two things:
 * the band step gathers its minirow matrix with pext (slow on the AMD
 * CPUs before Zen 3, which have AVX2 but no AVX-512, hence not in the
 * avx2 copy), and clearing a placed cell finds the words it changed
 * with a compare into a mask register; and the compiler has the EVEX
 * forms (three-input logic, mask registers) for the rest.  It was 3-7 %
 * faster than the avx2 copy on Zen 4 until the column step found its
 * permutations by rotations (solver_cols.h), which made the avx2 copy
 * faster and this one 0-5 % slower than it; so solver.c runs it only
 * when SUDOKU_ISA names it, for measuring it on other AVX-512 CPUs (Intel
 * ones were not available).  Wider forms were slower still on Zen 4:
 * nine words in one 512-bit register with a lane mask (masked stores
 * cannot forward to the loads that follow: 10 %), the cell step's counts
 * and the column step in 512 bits (5 % each), board copies in 32-byte
 * moves instead of the compiler's 64-byte ones (5-10 %).
 */
#include <stdint.h>
#include <string.h>

#include "sudoku.h"
#include "solver.h"

#if SOLVER_X86
#include <immintrin.h>

#ifdef __clang__
#pragma clang attribute push (__attribute__((target( \
    "avx512f,avx512bw,avx512dq,avx512vl,avx2,bmi,bmi2,popcnt,lzcnt"))), \
    apply_to = function)
#else
#pragma GCC target("avx512f,avx512bw,avx512dq,avx512vl,avx2,bmi,bmi2,popcnt,lzcnt")
#endif

#define SOLVER_ENGINE	avx512
#define SOLVER_POPCNT	1
#define SOLVER_AVX2	1
#define SOLVER_AVX512	1
#define SOLVER_SSE41	1
#include "solver_body.h"

#ifdef __clang__
#pragma clang attribute pop
#endif
#endif /* SOLVER_X86 */
