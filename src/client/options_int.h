/* SPDX-License-Identifier: ISC */
/*
 * options_int.h -- what the parts of sudokuc's command line share:
 * options.c (the values of the options, the command word) and
 * options_table.c (the table of options, getopt's tables made from
 * it, usage(), --help, a refused option).
 */
#ifndef OPTIONS_INT_H
#define OPTIONS_INT_H

#include <getopt.h>

#include "options.h"
#include "verb.h"

/* getopt's values of the options with no short form: this + index. */
#define OPTIONS_LONG	256

/* The most options in the table: room for getopt_long(3)'s tables. */
#define OPTIONS_MAX	40

/*
 * The getopt_long(3) tables of the options taken after v's word (NULL:
 * before any command word) into lo (OPTIONS_MAX + 1 rows) and short_opts
 * (3 + 3 * OPTIONS_MAX bytes), which it returns.
 */
const char	*options_getopt(struct option *lo, const struct verb *v,
		    char *short_opts);
/* The long name of getopt's value ch (OPTIONS_LONG + index), or NULL. */
const char	*options_long(int ch);
/* --help, or v's command's (v NULL or solving: the whole); exits 0. */
void		 options_help(const struct verb *v)
		    __attribute__((noreturn));
/*
 * What getopt_long(3) refused while reading the options taken after
 * v's word (NULL: before any command word): ch is what it returned ('?'
 * or ':').  An option that goes after the word of some command says
 * which; a usage error.
 */
void		 options_refused(int ch, const struct verb *v, int argc,
		    char **argv) __attribute__((noreturn));

#endif /* OPTIONS_INT_H */
