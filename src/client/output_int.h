/* SPDX-License-Identifier: ISC */
/*
 * output_int.h -- what the parts of sudokuc's output share: output.c
 * (the answers and the messages about them) and output_run.c (the
 * run's state, progress line, summary and exit status).
 */
#ifndef OUTPUT_INT_H
#define OUTPUT_INT_H

#include "output.h"

/* How often the progress line is redrawn, and after how long at first. */
#define OUTPUT_PROGRESS_EVERY	0.25
#define OUTPUT_PROGRESS_AFTER	1.0

struct output {
	enum format	 format;
	struct query	 query;
	int		 flags;
	const char	*peer;
	unsigned int	 threads;	/* -L: solving threads; 0 with a daemon */
	unsigned long	 total;

	unsigned long	 done;		/* puzzles finished, any outcome */
	unsigned long	 solved;
	unsigned long	 unsolvable;
	unsigned long	 invalid;
	unsigned long	 errors;	/* other ERR replies */
	unsigned long	 failed;	/* inputs that could not be read */
	unsigned long	 setaside;	/* servers that answered wrong */
	int		 printed;	/* something is on stdout */
	int		 prevmulti;	/* and it took several lines */

	double		 start;
	double		 lastdraw;
	int		 drawn;		/* the progress line is showing */
};

/* Before anything goes to stderr: keep it in order with stdout. */
void	output_clear(struct output *);

#endif /* OUTPUT_INT_H */
