/* SPDX-License-Identifier: ISC */
/*
 * proto_int.h -- what proto.c and work.c share: a request being served
 * and the request table.  Private to those two files.
 */
#ifndef PROTO_INT_H
#define PROTO_INT_H

#include <stddef.h>
#include <stdint.h>

#include "proto.h"
#include "stats.h"

/* A verb and up to three arguments, plus one to see "too many". */
#define PROTO_MAXTOKENS		5

struct proto_token {
	const char	*p;
	size_t		 len;
};

struct proto_cmd;

/* One request being served. */
struct proto_req {
	const struct proto_env	*env;
	struct evbuffer		*out;
	const struct proto_cmd	*cmd;
	struct proto_token	 tok[PROTO_MAXTOKENS];
	int			 ntok;		/* tok[0] is the verb */
	uint64_t		 max_ns;	/* solver time it may take */
	uint64_t		*ns;		/* solver time it took */
	struct proto_job	**job;		/* set on PROTO_MORE */
};

/* The requests, in HELP order; the index names the table entry. */
enum proto_index {
	PROTO_SOLVE = 0,
	PROTO_LEXMIN,
	PROTO_COUNT,
	PROTO_RATE,
	PROTO_HINT,
	PROTO_GENERATE,
	PROTO_PING,
	PROTO_VERSION,
	PROTO_STATS,
	PROTO_HELP,
	PROTO_QUIT,
	PROTO__COUNT
};

struct proto_cmd {
	const char	*name;
	const char	*usage;		/* HELP's first column */
	const char	*help;		/* HELP's second column */
	enum proto_status (*handler)(struct proto_req *);
	int		 min_args;
	int		 max_args;
	enum stat_id	 stat;		/* counts requests of this verb */
};

extern const struct proto_cmd	proto_cmds[PROTO__COUNT];

/* One "ERR code text" reply, counted in stat. */
void	proto_error(struct proto_req *, enum stat_id stat, const char *code,
	    const char *text);

/* work.c: the requests that run the solver. */
enum proto_status work_solve(struct proto_req *);
enum proto_status work_lexmin(struct proto_req *);
enum proto_status work_count(struct proto_req *);
enum proto_status work_rate(struct proto_req *);
enum proto_status work_hint(struct proto_req *);
enum proto_status work_generate(struct proto_req *);

#endif /* PROTO_INT_H */
