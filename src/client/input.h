/* SPDX-License-Identifier: ISC */
/*
 * input.h -- the sudokuc puzzle reader.
 *
 * Sources (files, standard input, puzzle text given as an argument, meta
 * requests) are read in order and cut into items.  Each puzzle may be an
 * 81-cell line, a grid of 9 lines of 9 digits, a grid of 9 lines of 9
 * blank-separated digits, or the boxed grid of -f pretty; see sudokuc(1)
 * and parse.h.  Reading never blocks unless
 * the caller asks it to: input_next() hands out what is buffered and
 * input_read() reads once from the current source.
 */
#ifndef INPUT_H
#define INPUT_H

#include <stdint.h>

#include "item.h"

struct input;

struct input	*input_new(void);
void		 input_free(struct input *);

/* Add a file to read ("-" is standard input). */
void		 input_add_file(struct input *, const char *path);
/* Add puzzle text given on the command line; name is e.g. "argument 2". */
void		 input_add_text(struct input *, const char *text,
		    const char *name);
/* Add an open descriptor to read (closed once read); name for messages. */
void		 input_add_fd(struct input *, int fd, const char *name);
/* Add a meta request. */
void		 input_add_meta(struct input *, enum meta, const char *name);
/*
 * Add count items for sudokuc generate, the seeds seed, seed + 1, ...
 * (modulo 2^64); count is at least 1.
 */
void		 input_add_seeds(struct input *, uint64_t seed,
		    unsigned long count);

/*
 * Read a line of 729 characters as a puzzle of pencil marks, for the
 * requests that take them (VERB_MARKS); else it is 81 cells too long.
 */
void		 input_marks(struct input *);

/*
 * Number the puzzles read from here on with the seeds seed, seed + 1,
 * ... (modulo 2^64), a malformed one too, in input order.
 */
void		 input_seed(struct input *, uint64_t seed);

/*
 * The next item: 1 with *it filled, 0 when more data must be read first
 * (poll input_fd() for reading, then call input_read()), -1 when every
 * source is done.
 */
int		 input_next(struct input *, struct item *it);
/* The descriptor input_read() will read, or -1. */
int		 input_fd(const struct input *);
/* Would input_read() return at once?  (Nothing to read counts as yes.) */
int		 input_ready(const struct input *);
/* Read once from the current source (may block if it is slow). */
void		 input_read(struct input *);

/*
 * About how many puzzles the sources hold, counting lines of regular
 * files; 0 when unknown (a pipe or a terminal is among them).
 */
unsigned long	 input_estimate(const struct input *);

#endif /* INPUT_H */
