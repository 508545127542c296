/* SPDX-License-Identifier: ISC */
/*
 * proto_int.h -- what the files of the protocol unit share: a request
 * being served, the request table, a request's options, a job at work.
 * The files, each calling only those before it (tests/lint/circles.py):
 *
 *	proto_error.c	an ERR reply, counted; request bytes echoed
 *	proto_parse.c	a puzzle (cells or marks) and a number read
 *	proto_opts.c	name=value options: one table for the parser,
 *			HELP and HELLO
 *	proto_work.c	jobs in slices, and the end every job shares
 *	proto_solve.c	the verbs that search (SOLVE, LEXMIN, COUNT,
 *			SOLUTIONS)
 *	proto_logic.c	the verbs of the logical solver (RATE, HINT,
 *			GENERATE, ANALYZE)
 *	proto_tools.c	CANON, SHUFFLE, MINIMIZE, CONSTRAIN, PATH
 *	proto_admin.c	SLOWLOG, CLIENT LIST, AUTH
 *	proto.c		the verb table proto_cmds[], and the verbs that
 *			read it whole (HELP, HELLO, STATS) or are a line
 *			(PING, VERSION, QUIT)
 *	proto_line.c	a line served: tokens, lookup, dispatch
 *
 * and for doc/http.md, over the table: proto_value.c, proto_query.c,
 * proto_http.c (a request made lines), proto_words.c, proto_json.c
 * (replies made JSON).  A handler never reads the table: it has its
 * row (proto_req.cmd) and its index (proto_req.verb), and a job calls
 * its verb's reply through the row (proto_cmd.reply).
 */
#ifndef PROTO_INT_H
#define PROTO_INT_H

#include <stddef.h>
#include <stdint.h>

#include "core/sudoku.h"
#include "proto.h"
#include "stats.h"

/*
 * Tokens kept of a request: a verb, its arguments and its options, plus
 * one to see "too many".  The verbs of version 1 take at most three
 * arguments, and their replies to a line of more tokens still depend on
 * the first PROTO_V1_TOKENS only (a puzzle pasted with blanks in it).
 */
#define PROTO_MAXTOKENS		12
#define PROTO_V1_TOKENS		5

struct proto_token {
	const char	*p;
	size_t		 len;
};

/* The options of a request (proto_opts.c); 0 where none was given. */
struct proto_opts {
	uint64_t	 budget;	/* budget=: guesses, capped */
	uint64_t	 deadline;	/* deadline=: ms of serving */
	unsigned char	 effort;	/* effort=1: guesses= us= after */
	unsigned char	 info;		/* info=1: the seed (and level) */
	unsigned char	 shaped;	/* symmetry=, clues= or pattern= */
};

/* Which options a verb takes: bits of proto_cmd.opts. */
#define PROTO_OPT_BUDGET	0x01
#define PROTO_OPT_DEADLINE	0x02
#define PROTO_OPT_EFFORT	0x04
#define PROTO_OPT_INFO		0x08
#define PROTO_OPT_SYMMETRY	0x10
#define PROTO_OPT_CLUES		0x20
#define PROTO_OPT_PATTERN	0x40
#define PROTO_OPT_SOLVER	(PROTO_OPT_BUDGET | PROTO_OPT_DEADLINE | \
				 PROTO_OPT_EFFORT)
#define PROTO_OPT_SHAPE		(PROTO_OPT_SYMMETRY | PROTO_OPT_CLUES | \
				 PROTO_OPT_PATTERN)

struct proto_cmd;

/* One request being served. */
struct proto_req {
	const struct proto_env	*env;
	struct evbuffer		*out;
	const struct proto_cmd	*cmd;
	int			 verb;		/* its index in proto_cmds[] */
	struct proto_token	 tok[PROTO_MAXTOKENS];
	int			 ntok;		/* tok[0] is the verb */
	struct proto_opts	 opts;
	/*
	 * GENERATE's shape (those three options): a request's only, not
	 * its job's, and set only for a verb that takes one.
	 */
	struct sudoku_gen_opts	 shape;
	/* SOLVE of 81 cells known at once (proto_line.c): tok[1] read. */
	int			 plain;
	struct sudoku_grid	 grid;		/* if plain, tok[1]'s cells */
	int			 worked;	/* a job ran: it made the reply */
	struct proto_info	*info;		/* the caller's, or NULL */
	uint64_t		 clock;		/* proto_info's in, or 0 */
	uint64_t		 max_ns;	/* solver time it may take */
	uint64_t		*ns;		/* solver time it took */
	struct proto_job	**job;		/* set on PROTO_MORE */
};

/* What a job does between its slices. */
enum proto_work {
	PROTO_WORK_SEARCH,	/* a search: the verb's, or a check's */
	PROTO_WORK_GENERATE,	/* GENERATE's attempts */
	PROTO_WORK_REDUCE,	/* MINIMIZE's or CONSTRAIN's searches */
	PROTO_WORK_LIST		/* a listing's pieces (SLOWLOG, CLIENT) */
};

/*
 * A reply of any length made a piece at a time, so that it is queued
 * no faster than the connection sends it (SLOWLOG GET, CLIENT LIST).
 * more() adds the lines after the cursor, about max bytes of them, and
 * moves the cursor on; it returns 1 once it has added the last, END.
 */
struct proto_list {
	int		(*more)(const struct proto_env *, struct proto_list *,
			    struct evbuffer *, size_t max);
	uint64_t	 at;		/* the lister's cursor */
	uint64_t	 left;		/* lines still wanted */
};

/* A request at work: what it is, and the state of its search. */
struct proto_job {
	const struct proto_cmd	*cmd;
	int			 verb;		/* the request's */
	enum proto_work		 kind;
	struct proto_opts	 opts;
	uint64_t		 budget;	/* in force: the server's, or less */
	uint64_t		 start;		/* ns: when it was first served */
	uint64_t		 clock;		/* ns: its latest clock reading */
	uint64_t		 ns;		/* solver time so far */
	uint64_t		 seed;		/* GENERATE */
	unsigned long		 limit;		/* SOLUTIONS, COUNT */
	int			 expired;	/* its deadline passed */
	int			 nearest;	/* GENERATE: the best by then */
	int			 marked;	/* the puzzle came as marks */
	int			 each;		/* SOLUTIONS: a line each */
	enum sudoku_level	 level;		/* GENERATE: asked for */
	struct sudoku_grid	 puzzle;	/* RATE, HINT, ANALYZE, PATH */
	struct sudoku_cands	 cands;		/* HINT, PATH: the player's */
	union {
		struct sudoku_search	search;
		struct sudoku_genx	genx;
		struct sudoku_reduce	reduce;
		struct proto_list	list;
	} u;
};

/* What a search that is over hands its verb's reply. */
struct proto_done {
	const struct proto_env	*env;
	struct evbuffer		*out;
	const struct proto_job	*job;
	unsigned long		 count;		/* solutions found */
	struct sudoku_grid	 first;		/* the first, if count >= 1 */
	uint64_t		 guesses;	/* the search's */
	enum sudoku_result	 result;	/* how the work ended */
};

/* The requests, in HELP order; the index names the table entry. */
enum proto_index {
	PROTO_SOLVE = 0,
	PROTO_LEXMIN,
	PROTO_COUNT,
	PROTO_SOLUTIONS,
	PROTO_ANALYZE,
	PROTO_RATE,
	PROTO_HINT,
	PROTO_GENERATE,
	PROTO_CANON,
	PROTO_SHUFFLE,
	PROTO_MINIMIZE,
	PROTO_CONSTRAIN,
	PROTO_PATH,
	PROTO_HELLO,
	PROTO_AUTH,
	PROTO_PING,
	PROTO_VERSION,
	PROTO_STATS,
	PROTO_SLOWLOG,
	PROTO_CLIENT,
	PROTO_HELP,
	PROTO_QUIT,
	PROTO__COUNT
};

struct proto_cmd {
	const char	*name;
	const char	*usage;		/* HELP's first column */
	const char	*help;		/* HELP's second column */
	/*
	 * Its arguments' names over HTTP, in order, blank-separated
	 * (doc/http.md); "name=word": word when it is left out.  NULL:
	 * no HTTP resource (AUTH, QUIT: HTTP has Authorization and
	 * Connection: close).
	 */
	const char	*args;
	enum proto_status (*handler)(struct proto_req *);
	void		(*reply)(struct proto_done *); /* a job's, when over */
	int		 min_args;
	int		 max_args;
	unsigned int	 opts;		/* PROTO_OPT_* it takes */
	unsigned int	 flags;		/* PROTO_CMD_* */
	enum stat_id	 stat;		/* counts requests of this verb */
};

/* Its reply has guesses= of its own: effort=1 adds only us=. */
#define PROTO_CMD_GUESSES	0x01
/*
 * It does nothing but a short fixed reply (proto_info's instant): the
 * connection need not read the clock after it to time it (conn.c).
 */
#define PROTO_CMD_INSTANT	0x02
/*
 * A verb of version 1 that takes no options (PING, VERSION, STATS,
 * HELP, QUIT): a name=value token after it is an argument too many, as
 * version 1 answered, byte for byte.  Every other verb refuses one it
 * does not take as an option, naming it.
 */
#define PROTO_CMD_V1ARGS	0x04
/* Served before AUTH when the server has a secret (auth_file). */
#define PROTO_CMD_OPEN		0x08
/* The longest line refused before any work that is still instant. */
#define PROTO_INSTANT_LEN	256

/* proto.c: the table, indexed by enum proto_index. */
extern const struct proto_cmd	proto_cmds[PROTO__COUNT];

/*
 * proto_error.c: request bytes for error text, runs of printable ASCII
 * in quotes, other bytes as 0xNN, cut short after PROTO_ECHO_MAX.
 */
#define PROTO_ECHO_MAX		32
void	proto_echo(const struct proto_token *, char *buf, size_t size);
/* proto_error.c: one "ERR code text" reply, counted in stat. */
void	proto_error(const struct proto_env *, struct evbuffer *out,
	    enum stat_id stat, const char *code, const char *text);

/*
 * proto_opts.c: take the options off the end of req's tokens (never
 * its first min_args arguments) into req->opts; 0, or -1 with the ERR
 * syntax reply made.
 */
int	proto_opts_take(struct proto_req *);
/* "budget,deadline,effort,info": the options of mask, for HELLO. */
void	proto_opts_names(unsigned int mask, char *buf, size_t size);
/* HELP's lines about the options, each ending in LF. */
void	proto_opts_help(struct evbuffer *out);

/*
 * proto_work.c: the worker's scratch job, made ready for req (verb,
 * options, budget); the verb fills in the rest, then starts it.
 */
struct proto_job *proto_work_job(struct proto_req *, enum proto_work);
/* A search of g for up to limit solutions, as the job of req. */
enum proto_status proto_work_search(struct proto_req *, struct proto_job *,
		    const struct sudoku_grid *g, enum sudoku_policy,
		    unsigned long limit);
/*
 * The same of the job's puzzle as proto_given() left it; or, if two of
 * its givens clash, PROTO_OK with ERR conflict made.
 */
enum proto_status proto_work_given(struct proto_req *, struct proto_job *,
		    enum sudoku_policy, unsigned long limit);
/* Run job's first slice; on PROTO_MORE it is the connection's now. */
enum proto_status proto_work_first(struct proto_req *, struct proto_job *);
/* A listing from cursor at, of at most left lines, as the job of req. */
enum proto_status proto_work_list(struct proto_req *,
		    int (*more)(const struct proto_env *, struct proto_list *,
		    struct evbuffer *, size_t), uint64_t at, uint64_t left);
uint64_t proto_work_nsec(void);
/*
 * effort=1: what tmp holds into out, its last line ending with
 * " guesses=N us=N" (" us=N" for a verb whose reply has guesses=).
 */
void	proto_work_effort(struct evbuffer *out, struct evbuffer *tmp,
	    const struct proto_cmd *, uint64_t guesses, uint64_t ns);

/* proto_parse.c: what the verbs take -- a puzzle, a number. */
int	proto_puzzle(struct proto_req *, const struct proto_token *,
	    struct sudoku_grid *);
/*
 * A puzzle of 81 cells, or of pencil marks (SUDOKU_CANDS_LEN bytes, the
 * form HINT reads): 0 with job->puzzle (for marks, its cells with one
 * candidate) and, for marks, job->cands and job->marked; or -1 with the
 * ERR reply made (for marks, the cell left without a candidate).  The
 * givens of 81 cells are checked against each other by the search that
 * proto_work_given() starts (ERR conflict), not twice.
 */
int	proto_given(struct proto_req *, const struct proto_token *,
	    struct proto_job *);
void	proto_perror(struct proto_req *, const struct sudoku_perror *);
int	proto_number(const struct proto_token *, uint64_t min, uint64_t max,
	    uint64_t *);

/* proto_solve.c: the search verbs. */
enum proto_status proto_solve_any(struct proto_req *);
enum proto_status proto_solve_lexmin(struct proto_req *);
enum proto_status proto_solve_count(struct proto_req *);
enum proto_status proto_solve_solutions(struct proto_req *);
void	proto_solve_found(struct proto_done *);
void	proto_solve_counted(struct proto_done *);
void	proto_solve_listed(struct proto_done *);

/* proto_admin.c: the requests about the server's state. */
enum proto_status proto_admin_slowlog(struct proto_req *);
enum proto_status proto_admin_client(struct proto_req *);
enum proto_status proto_admin_auth(struct proto_req *);

/* proto_logic.c: the verbs of the logical solver. */
enum proto_status proto_logic_rate(struct proto_req *);
enum proto_status proto_logic_hint(struct proto_req *);
/* A search counting to two of g, for a verb that needs a unique puzzle. */
enum proto_status proto_logic_check(struct proto_req *,
		    const struct sudoku_grid *g, const struct sudoku_cands *);
/* 0 if the job's puzzle has one solution; else its ERR reply is made. */
int	proto_logic_unique(struct proto_done *);
/*
 * 0 if, as well, the job's candidates (HINT's, PATH's grid) agree with
 * that solution; else ERR wrong naming the cells that do not.
 */
int	proto_logic_state(struct proto_done *);
/* A puzzle as GENERATE prints it: '.' for blanks, no newline. */
void	proto_logic_format(const struct sudoku_grid *, char out[SUDOKU_CELLS]);
/*
 * A request's optional seed, the token at i if there is one (else a
 * random one); 0, or -1 with the ERR syntax reply made (what: the verb).
 */
int	proto_logic_seed(struct proto_req *, int i, uint64_t *seed);
enum proto_status proto_logic_generate(struct proto_req *);
enum proto_status proto_logic_analyze(struct proto_req *);
void	proto_logic_rated(struct proto_done *);
void	proto_logic_hinted(struct proto_done *);
void	proto_logic_generated(struct proto_done *);
void	proto_logic_analyzed(struct proto_done *);

/* proto_tools.c: the toolbox -- equivalence, reduction, whole paths. */
enum proto_status proto_tools_canon(struct proto_req *);
enum proto_status proto_tools_shuffle(struct proto_req *);
enum proto_status proto_tools_minimize(struct proto_req *);
enum proto_status proto_tools_constrain(struct proto_req *);
enum proto_status proto_tools_path(struct proto_req *);
void	proto_tools_reduced(struct proto_done *);
void	proto_tools_pathed(struct proto_done *);

struct json_t;

/*
 * proto_value.c: a refusal of an HTTP request into err (status, code,
 * the message of fmt), for proto_http.c, proto_query.c and its own
 * values; returns -1.
 */
int	proto_http_refuse(struct proto_http_err *err, int status,
	    const char *code, const char *fmt, ...)
	    __attribute__((__format__(__printf__, 4, 5)));
/*
 * proto_value.c: a value v of the field name, of kind, written as a
 * token of a request line to out (query: it came as text, so a number
 * or a boolean may be a string); 0, or -1 with err filled in.  And the
 * refusals it makes: name must be what; a string that is no token.
 */
/* The kinds of value a field takes. */
enum proto_kind {
	PROTO_WORD,		/* a string: a puzzle, a grid, a pattern */
	PROTO_NAME,		/* a string of letters: a level, an action */
	PROTO_UINT,		/* an integer >= 0 */
	PROTO_U64,		/* the same, or a string of digits (> 2^53) */
	PROTO_BOOL,		/* true or false: the option is 1 or 0 */
	PROTO_CLUES		/* an integer, or "LO-HI" */
};

int	proto_value(struct evbuffer *out, const char *name,
	    const struct json_t *v, enum proto_kind, int query,
	    struct proto_http_err *err);
int	proto_value_bad(struct proto_http_err *, const char *name,
	    const char *what);
int	proto_value_word(const char *name, const char *s, size_t len,
	    int letters, struct proto_http_err *err);

/*
 * proto_query.c: a query string (len bytes at q, q may be NULL) into
 * *obj, a JSON object of strings; 0, or -1 with err filled in.
 */
int	proto_query(const char *q, size_t len, struct json_t **obj,
	    struct proto_http_err *err);

/*
 * proto_words.c: the words of reply lines as JSON values (jansson's
 * json_t): a string of len bytes; a number if it is one (an integer
 * that fits, or digits with one '.'), else a string; key=value tokens
 * into o (strs: the blank-separated keys whose values stay strings);
 * the first word, *rest what follows its blank; every cell "rRcC" s
 * names, once each; a step of HINT or PATH ("technique actions
 * explanation"; solved: with "solved": false first).
 */
struct json_t *proto_words_str(const char *s, size_t len);
struct json_t *proto_words_scalar(const char *s, size_t len);
void	proto_words_kv(struct json_t *o, const char *s, size_t len,
	    const char *strs);
size_t	proto_words_word(const char *s, size_t len, const char **rest,
	    size_t *restlen);
struct json_t *proto_words_cells(const char *s, size_t len);
struct json_t *proto_words_step(const char *s, size_t len, int solved);
int	proto_words_digit(int c);

/*
 * proto_json.c: the reply lines of cmd (effort: effort=1 was asked) as
 * doc/http.md's JSON, appended to body; lines is drained.  Returns the
 * HTTP status.
 */
int	proto_json_reply(const struct proto_cmd *, int effort,
	    struct evbuffer *lines, struct evbuffer *body);

#endif /* PROTO_INT_H */
