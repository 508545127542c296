/* SPDX-License-Identifier: ISC */
/*
 * solver_hard_avx2.c -- the hard copy of the search loop of solver_avx2.c,
 * in a unit of its own (see SOLVER_HARD_PART in solver_search.h).
 */
#define SOLVER_HARD_PART	1
#include "solver_avx2.c"
