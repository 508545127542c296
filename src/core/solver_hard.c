/* SPDX-License-Identifier: ISC */
/*
 * solver_hard.c -- the hard copy of the search loop of the portable
 * engine (solver.c), in a unit of its own (see SOLVER_HARD_PART in
 * solver_search.h).
 */
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "sudoku.h"
#include "solver.h"

#define SOLVER_HARD_PART	1
#define SOLVER_ENGINE	generic
#define SOLVER_POPCNT	0
#define SOLVER_AVX2	0
#define SOLVER_AVX512	0
#define SOLVER_SSE41	0
#include "solver_body.h"
