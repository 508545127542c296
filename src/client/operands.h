/* SPDX-License-Identifier: ISC */
/*
 * operands.h -- sudokuc's operands as input items.
 */
#ifndef OPERANDS_H
#define OPERANDS_H

struct input;
struct options;

/*
 * The argc operands in argv, for the command of o, into in: puzzle text
 * or a file each, "-", ping, stats or version; for hint the grid at the
 * end (*grid, allocated, the caller frees it); for generate the seeds.
 * A usage error exits 2.
 */
void	operands_add(struct options *o, struct input *in, int argc,
	    char **argv, char **grid);

#endif /* OPERANDS_H */
