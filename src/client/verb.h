/* SPDX-License-Identifier: ISC */
/*
 * verb.h -- sudokuc's verb table: one row for each request sudokuc asks
 * of every puzzle (SOLVE, LEXMIN and COUNT, which no command word names,
 * and each command's), as sudokud's proto_cmds[] (src/daemon/proto.c)
 * is the other side's.  A row says how the command line asks for the
 * verb (its word, the options after it, its operands for usage() and
 * --help), how the request is written (peer.c), how the reply is
 * checked (check.c calls the row's check), printed (output.c, by the
 * row's print) and made in-process by -L (reply.c calls the row's
 * reply).  The rows are in verb_solve.c, verb_logic.c, verb_path.c
 * and verb_tools.c, each with the check and the reply of its verbs;
 * verb.c lists them.  doc/architecture.md: "Adding a verb".
 */
#ifndef VERB_H
#define VERB_H

#include <stddef.h>

struct item;
struct query;
struct reply_buf;

/* What a verb's requests and replies are like (struct verb, flags). */
#define VERB_GRID	0x01	/* its answers are grids: the input's shape */
#define VERB_SEEDED	0x02	/* a seed for each item, S, S+1, ... */
#define VERB_SEARCH	0x04	/* takes budget= and deadline= (-b, -D) */
#define VERB_BLOCK	0x08	/* a reply of lines up to END, or one ERR */
#define VERB_MARKS	0x10	/* takes a puzzle of 729 pencil marks */
#define VERB_DRAWN	0x20	/* -f pretty draws its answer (a hint) */
#define VERB_SEEDS	0x40	/* no puzzles: an item a seed (generate) */

/* The options a command takes after its word (struct verb, opts). */
#define VERB_OPT_NUMBER	0x01	/* -n N: N puzzles (of VERB_SEEDS) */
#define VERB_OPT_LIMIT	0x02	/* -n N: the request's limit, at most N */
#define VERB_OPT_LEVEL	0x04	/* -l LEVEL */
#define VERB_OPT_SEED	0x08	/* --seed S (of VERB_SEEDED) */
#define VERB_OPT_SHAPE	0x10	/* --symmetry, --clues, --pattern */

/* What the request has after its puzzle. */
enum verb_arg {
	VERB_ARG_NONE = 0,
	VERB_ARG_LIMIT,		/* the limit: -c's, or -n's */
	VERB_ARG_GRID,		/* the player's grid, when one was given */
	VERB_ARG_SEED		/* the item's seed */
};

/* How an answer is printed (output.c). */
enum verb_print {
	VERB_PRINT_LINE = 0,	/* its line (a hint drawn with VERB_DRAWN) */
	VERB_PRINT_GRID,	/* a grid, in the input's shape or -f's */
	VERB_PRINT_COUNT,	/* a count: 0 is "no solution" */
	VERB_PRINT_BLOCK,	/* its lines, without END */
	VERB_PRINT_LIST		/* its lines as grids, the ERR that cut it */
};

/*
 * A reply checked: 0 if it can be sudokud's answer (not an ERR line:
 * check_answer() checks those) to the request made for it under q,
 * else -1 and why (of size bytes) says what is wrong (check.h).
 */
typedef int	verb_check_fn(const struct query *q, const struct item *it,
		    const char *reply, char *why, size_t size);
/*
 * -L: the reply sudokud would make, into b, which has REPLY_MAX bytes
 * at least (reply.h).
 */
typedef void	verb_reply_fn(const struct item *it, const struct query *q,
		    struct reply_buf *b);

/* A verb: one row of the table. */
struct verb {
	const char	*word;		/* its command, or NULL (solving) */
	const char	*wire;		/* the request's verb */
	const char	*done;		/* -v's summary: "solved", ... */
	const char	*errors;	/* the ERR codes of its own, " a b " */
	int		 flags;		/* VERB_* */
	int		 opts;		/* VERB_OPT_*: after its word */
	enum verb_arg	 arg;
	unsigned long	 limit;		/* VERB_ARG_LIMIT: the default */
	size_t		 lines;		/* VERB_BLOCK: the most before END,
					   or 0 for the limit */
	enum verb_print	 print;
	const char	*usage;		/* its operands, for usage() */
	const char	*about;		/* what it answers, for --help */
	verb_check_fn	*check;
	verb_reply_fn	*reply;
};

/* The i-th row, in usage() order; NULL past the last. */
const struct verb *verb_at(size_t i);
/* The row of a command word, or NULL. */
const struct verb *verb_word(const char *word);
/* The row of a request verb ("SOLVE", "COUNT", ...), or NULL. */
const struct verb *verb_wire(const char *wire);
/* "rate", "generate", ...: its word, or "solve". */
const char	*verb_name(const struct verb *);

#endif /* VERB_H */
