/* SPDX-License-Identifier: ISC */
/*
 * local.h -- sudokuc -L: answers from the solver core, in-process.
 */
#ifndef LOCAL_H
#define LOCAL_H

#include "input.h"
#include "output.h"

/* Threads -j may ask for. */
#define LOCAL_THREADS_MAX	64

/*
 * Answers every item of in with nthreads threads (the caller's among
 * them) and hands them to out in input order.  Returns 0, -1 if
 * output_item() said stop, or -1 with *cause set if the threads could
 * not be started (nothing was read then).
 */
int	local_run(struct input *in, const struct query *q, struct output *out,
	    unsigned int nthreads, char **cause);

#endif /* LOCAL_H */
