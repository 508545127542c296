/* SPDX-License-Identifier: ISC */
/*
 * solver.h -- the search engine under sudoku_solve(), sudoku_count() and
 * sudoku_search_*().
 *
 * Private to the solver core (src/core/); nothing else includes it.
 * struct solver is the private layout of struct sudoku_search.  The
 * engine (solver_body.h) is compiled once per instruction set
 * (solver.c: the portable one; solver_sse41.c, solver_avx2.c,
 * solver_avx512.c on x86-64)
 * and solver.c picks one at run time; every copy uses these types, so a
 * state is the same bytes whichever copy made it.
 */
#ifndef SOLVER_H
#define SOLVER_H

#include <stdint.h>

#include "sudoku.h"

#define SOLVER_DEPTH	81		/* pending branches; see solver_body.h */

struct board {
	uint32_t	f[27];		/* f[b * 9 + d]: where digit d may go */
	uint32_t	u[3];		/* cells of band b not placed yet */
	uint32_t	dirty;		/* words to revisit when popped */
};

/* Effort and scratch of one search. */
struct search {
	uint64_t	guesses;
	uint64_t	steps;
	uint32_t	bival[3];	/* bivalue cells seen by solver_cells */
};

/*
 * The whole state of one search, in the caller's struct sudoku_search
 * (sudoku.h), so that it can stop after any number of guesses and go on
 * later.  may_alias: it lives in an array of another type.
 */
struct __attribute__((__may_alias__)) solver {
	struct board		 stack[SOLVER_DEPTH];
	struct board		 cur;
	struct search		 sr;
	struct sudoku_grid	 first;		/* the givens, then the first
						   solution found */
	uint32_t		 blank[3];	/* the blanks of the input */
	uint64_t		 budget;
	unsigned long		 limit;
	unsigned long		 n;		/* solutions found */
	int			 depth;
	int			 mode;		/* enum solver_mode */
	int			 keep_first;	/* write first (0: the caller
						   of sudoku_count() wants
						   only the count) */
	int			 each;		/* stop at each solution, in
						   first (sudoku_search_next) */
	int			 fresh;		/* first holds one not handed
						   out yet */
	enum sudoku_result	 res;		/* SUDOKU_MORE until done */
};

_Static_assert(sizeof(struct solver) <= sizeof(struct sudoku_search),
    "struct sudoku_search is too small for struct solver");
_Static_assert(_Alignof(struct solver) <= _Alignof(struct sudoku_search),
    "struct sudoku_search is not aligned enough for struct solver");

/*
 * Start a search of in for up to limit solutions (0 counts as 1) within
 * budget guesses (0 = SUDOKU_BUDGET_DEFAULT), branching as policy says.
 * Returns SUDOKU_MORE, or SUDOKU_INVALID for a value > 9 or conflicting
 * givens.
 */
enum sudoku_result solver_start(struct solver *, const struct sudoku_grid *in,
	    enum sudoku_policy policy, unsigned long limit, uint64_t budget);

/* Go on for at most slice guesses (0: to the end); SUDOKU_MORE if cut. */
enum sudoku_result solver_step(struct solver *, uint64_t slice);

/* solver_start() from pencil marks, which the caller checked (sudoku.c). */
enum sudoku_result solver_start_cands(struct solver *,
	    const struct sudoku_cands *, enum sudoku_policy,
	    unsigned long limit, uint64_t budget);

/* Solutions found so far, the first of them, the effort so far. */
void	solver_result(const struct solver *, unsigned long *count,
	    struct sudoku_grid *first, struct sudoku_stats *st);

/* 0 if no value is > 9 and no two givens share a digit in a unit. */
int	solver_valid(const struct sudoku_grid *g);

/* The name of the copy of the engine in use: see sudoku_isa(). */
const char *solver_isa(void);

/* One copy of the engine, per instruction set (solver_body.h). */
struct solver_engine {
	const char	*name;
	enum sudoku_result (*start)(struct solver *,
			    const struct sudoku_grid *, enum sudoku_policy,
			    unsigned long, uint64_t);
	enum sudoku_result (*step)(struct solver *, uint64_t);
	int		(*valid)(const struct sudoku_grid *);
};

extern const struct solver_engine solver_generic;
#if defined(__x86_64__) && defined(__GNUC__)
#define SOLVER_X86	1
extern const struct solver_engine solver_sse41;
extern const struct solver_engine solver_avx2;
extern const struct solver_engine solver_avx512;
#else
#define SOLVER_X86	0
#endif

#endif /* SOLVER_H */
