/* SPDX-License-Identifier: ISC */
/*
 * item.h -- what sudokuc's parts share: the request asked of every
 * puzzle (query: its verb, verb.h, and what goes with it), each unit of
 * work in input order (item), how they are shaped and printed, and the
 * clock the run is timed by.
 *
 * input.c reads puzzles into items (parse.c knows their shapes), batch.c
 * sends them to sudokud over the connections of pool.c and peer.c to
 * the servers of servers.c (local.c answers them in-process instead,
 * with reply.c) and output.c prints the answers in input order.
 */
#ifndef ITEM_H
#define ITEM_H

#include <stddef.h>
#include <stdint.h>

#include "common/defaults.h"
#include "core/sudoku.h"

/*
 * Requests in flight, over all the connections.  256 puzzle requests are
 * about 21 KiB each way, far below the socket buffers and the daemon's
 * output_high (256 KiB), so neither side ever blocks the other, while
 * the daemon always has work queued.
 */
#define SUDOKUC_WINDOW_DEFAULT	256
#define SUDOKUC_WINDOW_MAX	65536

/* deadline=: at most a day, as the daemon takes it. */
#define SUDOKUC_DEADLINE_MAX	86400000UL

/* COUNT limits: the protocol's default, and the daemon's largest count_max. */
#define SUDOKUC_COUNT_DEFAULT	2
#define SUDOKUC_COUNT_MAX	1000000

/*
 * SOLUTIONS' n: sudokuc's default (the protocol has none), and the
 * most whose reply, 82 bytes a solution, fits in PEER_BLOCK_MAX.
 */
#define SUDOKUC_SOLUTIONS_DEFAULT	10
#define SUDOKUC_SOLUTIONS_MAX		10000

/* How a puzzle was written in the input. */
enum shape {
	SHAPE_LINE = 0,		/* 81 cells on one line */
	SHAPE_GRID,		/* 9 lines of 9 digits (BOJ 2239) */
	SHAPE_SPACED,		/* 9 lines of 9 blank-separated digits (BOJ 2580) */
	SHAPE_PRETTY		/* the boxed grid of -f pretty */
};

/* How answers are printed: as the puzzle came, or forced with -f. */
enum format {
	FORMAT_AUTO = 0,
	FORMAT_LINE,
	FORMAT_GRID,
	FORMAT_SPACED,
	FORMAT_PRETTY
};

/* GENERATE's shape options (query.shaped): which were given. */
#define GEN_SYMMETRY	0x1
#define GEN_CLUES	0x2
#define GEN_PATTERN	0x4

struct verb;

struct query {
	const struct verb	*verb;		/* asked of each (verb.h) */
	unsigned long		 limit;		/* VERB_ARG_LIMIT: COUNT, ... */
	uint64_t		 budget;	/* guesses per puzzle (-b) */
	int			 sendbudget;	/* -b with a daemon: budget= */
	unsigned long		 deadline;	/* -D: ms, deadline=; 0 none */
	enum sudoku_level	 level;		/* VERB_OPT_LEVEL: GENERATE */
	int			 shaped;	/* GEN_*: symmetry=, ... */
	struct sudoku_gen_opts	 gen;		/* and what they ask */
	const char		*grid;		/* hint: the player's grid, */
	size_t			 gridlen;	/* 81 or 729 bytes, or NULL */
};

enum item_kind {
	ITEM_PUZZLE = 0,	/* a well-formed puzzle, or a seed: ask */
	ITEM_BAD,		/* a malformed puzzle: code and msg say why */
	ITEM_FAIL,		/* an input that cannot be read: msg says why */
	ITEM_META		/* ping, stats or version */
};

enum meta {
	META_PING = 0,
	META_STATS,
	META_VERSION,
	META_COUNT
};

#define ITEM_MSGLEN	192

/* One unit of work, in input order. */
struct item {
	enum item_kind		kind;
	enum shape		shape;
	enum meta		meta;
	const char		*src;	/* file name, "-" or "argument N" */
	unsigned long		line;	/* first line, 0 for a one-line argument */
	const char		*code;	/* ITEM_BAD: "length", "char", ... */
	struct sudoku_grid	grid;	/* ITEM_PUZZLE: its givens */
	char			cells[SUDOKU_CELLS];	/* ITEM_PUZZLE, as sent */
	int			marked;	/* ITEM_PUZZLE: 729 marks, sent as */
	struct sudoku_cands	marks;	/* these (cells unused) */
	uint64_t		seed;	/* VERB_SEEDED */
	double			sent;	/* ITEM_META: when it was sent */
	char			msg[ITEM_MSGLEN];
};

/* Seconds on the monotonic clock (item.c). */
double		 item_clock(void);
/* "ping", "stats", "version": the operand of m (item.c). */
const char	*item_meta_name(enum meta m);
/* Is the reply to it lines up to END (STATS, VERB_BLOCK)? */
int		 item_block(const struct item *it, const struct query *q);
/*
 * The most lines a reply of several to it has before its last (END, or
 * SOLUTIONS' ERR): a server trickling more is lying, not slow.
 */
size_t		 item_block_lines(const struct item *it, const struct query *q);
/*
 * sudoku_search_init() of the puzzle of it, from its givens or its
 * marks, as the daemon starts its searches (never INVALID: parsed).
 */
void		 item_search(const struct item *it, struct sudoku_search *s,
		    enum sudoku_policy policy, unsigned long limit,
		    uint64_t budget);

#endif /* ITEM_H */
