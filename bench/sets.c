/* SPDX-License-Identifier: ISC */
/*
 * sets.c -- a puzzle set read from its file (see sets.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sets.h"

static void __attribute__((noreturn))
sets_die(const char *prog, const char *path, unsigned long lineno,
    const char *reason)
{
	if (lineno != 0)
		fprintf(stderr, "%s: %s:%lu: %s\n", prog, path, lineno, reason);
	else
		fprintf(stderr, "%s: %s: %s\n", prog, path, reason);
	exit(2);
}

static void
sets_add(const char *prog, struct sets_grids *set, size_t *cap,
    const struct sudoku_grid *g)
{
	struct sudoku_grid	*more;

	if (set->n == *cap) {
		*cap = *cap == 0 ? 1024 : *cap * 2;
		if ((more = reallocarray(set->g, *cap, sizeof *more)) == NULL) {
			fprintf(stderr, "%s: %s\n", prog, strerror(errno));
			exit(2);
		}
		set->g = more;
	}
	set->g[set->n++] = *g;
}

void
sets_read(const char *prog, const char *path, struct sets_grids *set)
{
	struct sudoku_perror	 err;
	struct sudoku_grid	 g;
	FILE			*f;
	char			*line = NULL, *p, text[128];
	size_t			 linesize = 0, len, cap = 0;
	unsigned long		 lineno = 0;

	memset(set, 0, sizeof *set);
	if ((f = fopen(path, "r")) == NULL)
		sets_die(prog, path, 0, strerror(errno));
	while (getline(&line, &linesize, f) != -1) {
		lineno++;
		p = line + strspn(line, " \t");
		len = strcspn(p, "\r\n \t");
		if (len == 0 || *p == '#')
			continue;
		if (sudoku_parse(p, len, &g, &err) != 0) {
			sudoku_perror_text(&err, text, sizeof text);
			sets_die(prog, path, lineno, text);
		}
		sets_add(prog, set, &cap, &g);
	}
	free(line);
	if (ferror(f))
		sets_die(prog, path, 0, strerror(errno));
	fclose(f);
	if (set->n == 0)
		sets_die(prog, path, 0, "no puzzles");
}

void
sets_read_in(const char *prog, const char *dir, const char *name,
    struct sets_grids *set)
{
	char	 path[4096];

	if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >=
	    sizeof path)
		sets_die(prog, name, 0, "path too long");
	sets_read(prog, path, set);
}
