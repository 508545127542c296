/* SPDX-License-Identifier: ISC */
/*
 * options.h -- sudokuc's command line: options, the command word (the
 * row of the verb table it names, query.verb), usage.
 */
#ifndef OPTIONS_H
#define OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "item.h"

/* A server named by -s or -H, in the order given. */
struct spec {
	char		*path;		/* -s */
	char		*host;		/* -H */
	char		*port;		/* of -H, or NULL */
	int		 tls;		/* -H tls://HOST */
};

/* Puzzles generate -n may ask for in one run. */
#define OPTIONS_NUMBER_MAX	1000000000UL

struct options {
	struct query	 query;
	enum format	 format;
	int		 flags;		/* OUTPUT_* */
	int		 errorsset;	/* -e was given */
	int		 local;		/* -L */
	int		 budget;	/* -b was given */
	int		 moded;		/* -c or -l (lexmin) was given */
	unsigned int	 threads;	/* -j, or 0 */
	size_t		 window;	/* -w */
	size_t		 connections;	/* -C, or 0 */
	unsigned int	 timeout;	/* -t, or 0 */
	struct spec	*specs;		/* -s, -H */
	size_t		 nspecs;
	char		*port;		/* -p */
	int		 hostport;	/* an -H gave a port */
	int		 tls;		/* --tls */
	char		*ca;		/* --ca */
	char		*cert;		/* --cert */
	char		*key;		/* --key */
	char		*authfile;	/* --auth-file */
	unsigned long	 number;	/* generate -n; not solutions -n */
	uint64_t	 seed;		/* --seed: the first item's */
	int		 seeded;	/* --seed was given */
	int		 stats;		/* a stats operand was given */
};

/* The defaults. */
void	options_init(struct options *);
void	options_free(struct options *);

/*
 * The options, the command word and the command's options (the global
 * ones may come before or after the command word); a usage error exits
 * 2.  Returns the index in argv of the first operand.
 */
int	options_parse(struct options *, int argc, char **argv);

/* Options that exclude each other, once the operands are known. */
void	options_check(const struct options *);

/* The usage on stderr, exit 2. */
void	options_usage(void) __attribute__((noreturn));

#endif /* OPTIONS_H */
