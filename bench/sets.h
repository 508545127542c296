/* SPDX-License-Identifier: ISC */
/*
 * sets.h -- a puzzle set read from its file, for the benchmarks
 * (solverbench, logicbench, toolbench, mkmanysol).
 */
#ifndef SETS_H
#define SETS_H

#include <stddef.h>

#include "core/sudoku.h"

struct sets_grids {
	struct sudoku_grid	*g;
	size_t			 n;
};

/*
 * Read the file at path: one puzzle a line, its first blank-separated
 * token; blank lines and lines whose first token starts with '#' are
 * skipped.  A file
 * that cannot be read, a line that is not a puzzle or a file without
 * any makes "prog: path[:line]: reason" on standard error and exit 2:
 * a benchmark on a broken set measures nothing.
 */
void	sets_read(const char *prog, const char *path, struct sets_grids *);

/* The same, for the file name in directory dir. */
void	sets_read_in(const char *prog, const char *dir, const char *name,
	    struct sets_grids *);

#endif /* SETS_H */
