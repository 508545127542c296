/* SPDX-License-Identifier: ISC */
/*
 * usage.h -- a bad command line, worded and ended the same way by
 * sudokud and sudokuc: "PROG: unknown option -x", the usage text, exit
 * status USAGE_STATUS.
 */
#ifndef USAGE_H
#define USAGE_H

/*
 * The exit status of a usage error in both programs: 2, as the LSB asks
 * of a daemon ("invalid or excess arguments") and as sudokuc's other
 * statuses leave free (1 is an error answer).
 */
#define USAGE_STATUS	2

/*
 * Says what getopt_long(3) refused: ch is what it returned ('?', or ':'
 * for a missing argument when the option string begins with ':'), opt
 * its optopt (a short option, or 0 or a value above 255 for a long one)
 * and arg the word on the command line (argv[optind - 1]).
 */
void	usage_option(int ch, int opt, const char *arg);

/* Prints text (the usage lines) on stderr and exits USAGE_STATUS. */
void	usage_exit(const char *text) __attribute__((__noreturn__));

#endif /* USAGE_H */
