/* SPDX-License-Identifier: ISC */
/*
 * solver_hard_sse41.c -- the hard copy of the search loop of solver_sse41.c,
 * in a unit of its own (see SOLVER_HARD_PART in solver_search.h).
 */
#define SOLVER_HARD_PART	1
#include "solver_sse41.c"
