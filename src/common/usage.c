/* SPDX-License-Identifier: ISC */
/*
 * usage.c -- a bad command line, the same in both programs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "usage.h"

void
usage_option(int ch, int opt, const char *arg)
{
	size_t	len = strcspn(arg, "=");
	int	shortopt;

	/* For --file without its argument getopt's optopt is 'f'. */
	shortopt = opt > 0 && opt < 256 && strncmp(arg, "--", 2) != 0;

	/* getopt's own messages are off (opterr = 0): this is the one. */
	if (ch == ':' && shortopt)
		log_warnx("option -%c needs an argument", opt);
	else if (ch == ':')
		log_warnx("option %.*s needs an argument", (int)len, arg);
	else if (shortopt)
		log_warnx("unknown option -%c", opt);
	else
		log_warnx("unknown option %.*s", (int)len, arg);
}

void
usage_exit(const char *text)
{
	fputs(text, stderr);
	exit(USAGE_STATUS);
}
