/* SPDX-License-Identifier: ISC */
/*
 * test_proto.h -- the cases of tests/unit/test_proto, one cmocka group
 * over three files: test_proto.c (the environment, the helpers, main),
 * test_proto_req.c (every request and error, as tables of lines and
 * replies) and test_proto_more.c (HELP, STATS, proto_first(),
 * proto_toolong() and jobs served in slices).
 */
#ifndef TEST_PROTO_H
#define TEST_PROTO_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "daemon/config.h"
#include "daemon/proto.h"
#include "test_fail.h"

/* Puzzles and their known answers (doc/protocol.md, sudokud(8)). */
#define D9		"........."
#define Z9		"000000000"
#define DOTS		D9 D9 D9 D9 D9 D9 D9 D9 D9
#define EMPTY		Z9 Z9 Z9 Z9 Z9 Z9 Z9 Z9 Z9
#define CLASSIC \
	"53..7...." "6..195..." ".98....6." \
	"8...6...3" "4..8.3..1" "7...2...6" \
	".6....28." "...419..5" "....8..79"
#define CLASSIC_SOL \
	"534678912" "672195348" "198342567" \
	"859761423" "426853791" "713924856" \
	"961537284" "287419635" "345286179"
#define EMPTY_LEXMIN \
	"123456789" "456789123" "789123456" \
	"214365897" "365897214" "897214365" \
	"531642978" "642978531" "978531642"
/* Consistent givens, yet r1c9 has no candidate: no solution. */
#define NOSOL		"12345678." "........9" D9 D9 D9 D9 D9 D9 D9
#define SOLVED_EFFORT	"cmd_solve solved"
/*
 * Two of the forum's hardest puzzles, each with one solution (checked
 * with tests/e2e/reference.py, an independent solver): they need more
 * guesses than one slice of the solver makes.
 */
#define EASTER \
	"1.......2" ".9.4...5." "..6...7.." \
	".5.9.3..." "....7...." "...85..4." \
	"7.....6.." ".3...9.8." "..2.....1"
#define EASTER_SOL \
	"174385962" "293467158" "586192734" \
	"451923876" "928674315" "367851249" \
	"719548623" "635219487" "842736591"
#define HARD \
	"..39....." "4...8..36" "..8...1.." \
	".4..6..73" "8......1." ".....2..." \
	"..4.7..68" "6........" "7.....5.."
#define HARD_SOL \
	"523916784" "417285936" "968347125" \
	"245169873" "839754612" "176832459" \
	"394571268" "651428397" "782693541"
/*
 * A puzzle of the forum's hardest set that takes the solver hundreds of
 * guesses (357 today; HARD takes 20 since issue 19), so that a search
 * runs in more than one chunk of work.c's WORK_CHUNK (64) guesses; its
 * solution checked unique by tests/e2e/reference.py's plain search.
 */
#define SLOW \
	"..3..2..." "4...8..36" "..8...1.." \
	".4..6..73" "...9....." "..6......" \
	"..4.7..68" "6........" "7.....59."
#define SLOW_SOL \
	"913642785" "427581936" "568793142" \
	"149265873" "875934621" "236817459" \
	"354179268" "692458317" "781326594"

/* The environment a worker serves requests with, built by hand. */
struct fx {
	struct config		*cf;	/* config_load(NULL): the defaults */
	struct config		 alt;	/* a copy to change, then use */
	struct admit		*admit;
	struct stats_server	*ss;
	struct proto_env	 env;
	struct evbuffer		*out;
};

/* The counters of STATS, as names; v[i] below is counter_names[i]. */
#define NCOUNTERS	58
extern const char *const counter_names[NCOUNTERS];

/*
 * One request line and what it must get.  reply is exact unless part is
 * set: then the reply is one line starting with reply and holding part
 * (for texts the documents leave free).  moves names the counters that
 * rise by one.
 */
struct rq {
	const char		*line;
	size_t			 len;		/* 0: strlen(line) */
	enum proto_status	 status;
	const char		*reply;
	const char		*part;
	const char		*moves;
};
#define B(s)		s, sizeof(s) - 1	/* bytes that may hold NULs */
#define ROWS(state, rows) run_rows(state, rows, sizeof rows / sizeof rows[0])

int	 fx_setup(void **);
int	 fx_teardown(void **);
char	*take(struct evbuffer *);
void	 counters(struct fx *, uint64_t *);
int	 searched(const char *);
void	 check_moves(const uint64_t *, const uint64_t *, const char *,
	    const char *);
void	 expect_line(struct fx *, const char *, size_t, enum proto_status,
	    const char *, const char *, const char *);
void	 run_rows(void **, const struct rq *, size_t);
void	 cells(const char *, uint8_t *);
void	 text(const uint8_t *, char *);

/* test_proto_req.c */
void	t_solve(void **);
void	t_lexmin(void **);
void	t_count(void **);
void	t_count_multi(void **);
void	t_count_limit(void **);
void	t_ping_version(void **);
void	t_quit(void **);
void	t_blank(void **);
void	t_unknown(void **);
void	t_http(void **);
void	t_nargs(void **);
void	t_spaced(void **);
void	t_length(void **);
void	t_char(void **);
void	t_conflict(void **);
void	t_nosolution(void **);
void	t_budget(void **);

/* test_proto_more.c */
void	t_help(void **);
void	t_stats(void **);
void	t_first(void **);
void	t_first_proxy(void **);
void	t_toolong(void **);
void	t_job_count(void **);
void	t_job_grid(void **);
void	t_job_budget(void **);
void	t_job_free(void **);
void	t_analyze(void **);
void	t_opts(void **);
void	t_hello(void **);

#define TEST_PROTO_CASE(t) cmocka_unit_test_setup_teardown(t, fx_setup, \
	fx_teardown)
#define TEST_PROTO_CASES						\
	TEST_PROTO_CASE(t_solve), TEST_PROTO_CASE(t_lexmin),		\
	TEST_PROTO_CASE(t_count), TEST_PROTO_CASE(t_count_multi),	\
	TEST_PROTO_CASE(t_count_limit),					\
	TEST_PROTO_CASE(t_ping_version), TEST_PROTO_CASE(t_quit),	\
	TEST_PROTO_CASE(t_blank), TEST_PROTO_CASE(t_unknown),		\
	TEST_PROTO_CASE(t_http), TEST_PROTO_CASE(t_nargs),		\
	TEST_PROTO_CASE(t_spaced), TEST_PROTO_CASE(t_length),		\
	TEST_PROTO_CASE(t_char), TEST_PROTO_CASE(t_conflict),		\
	TEST_PROTO_CASE(t_nosolution), TEST_PROTO_CASE(t_budget),	\
	TEST_PROTO_CASE(t_help), TEST_PROTO_CASE(t_stats),		\
	TEST_PROTO_CASE(t_first), TEST_PROTO_CASE(t_first_proxy),	\
	TEST_PROTO_CASE(t_toolong),					\
	TEST_PROTO_CASE(t_job_count), TEST_PROTO_CASE(t_job_grid),	\
	TEST_PROTO_CASE(t_job_budget), TEST_PROTO_CASE(t_job_free),	\
	TEST_PROTO_CASE(t_analyze), TEST_PROTO_CASE(t_opts),		\
	TEST_PROTO_CASE(t_hello)

#endif /* TEST_PROTO_H */
