/* SPDX-License-Identifier: ISC */
/*
 * test_proto_opts.c -- what protocol version 2 adds, as tables (line,
 * status, reply, the counters it moves): ANALYZE, HELLO and the options
 * budget=, deadline=, effort= and info= (doc/protocol.md, "Options").
 */
#include <sys/types.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autoconf.h"		/* PACKAGE_VERSION */

#include "core/sudoku.h"
#include "test_proto.h"

#define R(line, reply, moves)	{ line, 0, PROTO_OK, reply, NULL, moves }
#define P(line, start, part, moves) { line, 0, PROTO_OK, start, part, moves }
#define OPTERR(text)	"ERR syntax " text "\n"

static const struct rq analyze_rows[] = {
	R("ANALYZE " CLASSIC, "status=unique clues=30 guesses=0 solution="
	    CLASSIC_SOL " level=easy score=1.0 hardest=naked_single\n",
	    "cmd_analyze solved"),
	P("ANALYZE " EMPTY, "status=multiple clues=0 guesses=", "",
	    "cmd_analyze solved"),
	R("ANALYZE " NOSOL, "status=nosolution clues=9 guesses=0\n",
	    "cmd_analyze unsolvable"),
	P("analyze " HARD, "status=unique clues=22 guesses=", " solution="
	    HARD_SOL " level=", "cmd_analyze solved"),
	R("ANALYZE 12", "ERR length expected 81 cells, found 2 (one row of a "
	    "grid? send the whole puzzle on one line, row by row)\n",
	    "cmd_analyze err_length"),
	R("ANALYZE", "ERR syntax wrong number of arguments for ANALYZE, try "
	    "HELP\n", "cmd_analyze err_syntax"),
};

void
t_analyze(void **state)
{
	ROWS(state, analyze_rows);
}

static const struct rq opts_rows[] = {
	/* budget= lowers the budget; the server's (100000) is the most. */
	R("COUNT " EMPTY " 1000 budget=10", "ERR budget search budget of 10 "
	    "guesses exceeded\n", "cmd_count err_budget"),
	R("COUNT " CLASSIC " 5 budget=1", "1\n", "cmd_count solved"),
	R("COUNT " EMPTY " 1000 budget=1000000000000", "1000\n",
	    "cmd_count solved"),
	/* effort=1: the reply, then guesses= and us= (an error's too). */
	P("SOLVE " CLASSIC " effort=1", CLASSIC_SOL " guesses=0 us=", "",
	    SOLVED_EFFORT),
	P(CLASSIC " effort=1", CLASSIC_SOL " guesses=0 us=", "",
	    SOLVED_EFFORT),
	P("SOLVE 12 effort=1", "ERR length expected 81 cells, found 2 (one row "
	    "of a grid? send the whole puzzle on one line, row by row) "
	    "guesses=0 us=0\n", "", "cmd_solve err_length"),
	P("ANALYZE " CLASSIC " effort=1", "status=unique clues=30 guesses=0 "
	    "solution=", " hardest=naked_single us=", "cmd_analyze solved"),
	R("SOLVE " CLASSIC " effort=0", CLASSIC_SOL "\n", SOLVED_EFFORT),
	/* deadline= far away: the answer as without it. */
	R("LEXMIN " EMPTY " deadline=86400000", EMPTY_LEXMIN "\n",
	    "cmd_lexmin solved"),
	/* GENERATE info=1: the seed given, and the level. */
	R("GENERATE easy 42 info=1", "....587.....7......3.6..49.16....9......"
	    "....22..5......9...48.6..81..3...27..9... seed=42 level=easy\n",
	    "cmd_generate solved"),
	/* Refused options: the verb's counter, then err_syntax. */
	R("SOLVE " CLASSIC " foo=1", OPTERR("unknown option 'foo' for SOLVE, "
	    "try HELP"), "cmd_solve err_syntax"),
	R("SOLVE " CLASSIC " info=1", OPTERR("unknown option 'info' for SOLVE, "
	    "try HELP"), "cmd_solve err_syntax"),
	R("RATE " CLASSIC " effort=1 effort=0", OPTERR("option effort given "
	    "twice"), "cmd_rate err_syntax"),
	R("SOLVE " CLASSIC " budget=0", OPTERR("budget must be a number of "
	    "guesses from 1 to 18446744073709551615"), "cmd_solve err_syntax"),
	R("SOLVE " CLASSIC " budget=18446744073709551616", OPTERR("budget must "
	    "be a number of guesses from 1 to 18446744073709551615"),
	    "cmd_solve err_syntax"),
	R("SOLVE " CLASSIC " deadline=x", OPTERR("deadline must be a number of "
	    "milliseconds from 1 to 86400000"), "cmd_solve err_syntax"),
	R("SOLVE " CLASSIC " effort=yes", OPTERR("effort must be 0 or 1"),
	    "cmd_solve err_syntax"),
	R("SOLVE " CLASSIC " =1", OPTERR("an option is name=value, not '=1'"),
	    "cmd_solve err_syntax"),
	R("SOLVE " CLASSIC " f\x01o=1", OPTERR("unknown option 'f' 0x01 'o' "
	    "for SOLVE, try HELP"), "cmd_solve err_syntax"),
	/* A number is digits alone: no sign, leading zeros allowed. */
	R("SOLVE " CLASSIC " budget=+1", OPTERR("budget must be a number of "
	    "guesses from 1 to 18446744073709551615"), "cmd_solve err_syntax"),
	R("SOLVE " CLASSIC " deadline=-0", OPTERR("deadline must be a number "
	    "of milliseconds from 1 to 86400000"), "cmd_solve err_syntax"),
	R("COUNT " CLASSIC " -0", "ERR syntax COUNT limit must be a number "
	    "from 1 to 1000\n", "cmd_count err_syntax"),
	R("COUNT " CLASSIC " +1", "ERR syntax COUNT limit must be a number "
	    "from 1 to 1000\n", "cmd_count err_syntax"),
	R("COUNT " CLASSIC " 0002", "1\n", "cmd_count solved"),
	/* Never where the arguments a verb needs are: version 1 replies. */
	R("SOLVE x=1", "ERR length expected 81 cells, found 3 (one row of a "
	    "grid? send the whole puzzle on one line, row by row)\n",
	    "cmd_solve err_length"),
	R("PING x=1", "ERR syntax wrong number of arguments for PING, try "
	    "HELP\n", "cmd_ping err_syntax"),
	R("VERSION budget=1", "ERR syntax wrong number of arguments for "
	    "VERSION, try HELP\n", "cmd_version err_syntax"),
	R("STATS x=1", "ERR syntax wrong number of arguments for STATS, try "
	    "HELP\n", "cmd_stats err_syntax"),
	R("HELP x=1", "ERR syntax wrong number of arguments for HELP, try "
	    "HELP\n", "cmd_help err_syntax"),
	R("QUIT x=1", "ERR syntax wrong number of arguments for QUIT, try "
	    "HELP\n", "cmd_quit err_syntax"),
	/* A verb of version 2 without options names the one it refuses. */
	R("CANON " CLASSIC " budget=1", OPTERR("unknown option 'budget' for "
	    "CANON, try HELP"), "cmd_canon err_syntax"),
	R("HELLO effort=1", OPTERR("unknown option 'effort' for HELLO, try "
	    "HELP"), "cmd_hello err_syntax"),
	R("SLOWLOG GET budget=1", OPTERR("unknown option 'budget' for "
	    "SLOWLOG, try HELP"), "cmd_slowlog err_syntax"),
	R("CLIENT LIST x=1", OPTERR("unknown option 'x' for CLIENT, try "
	    "HELP"), "cmd_client err_syntax"),
	R("CANON " CLASSIC " =1", OPTERR("an option is name=value, not '=1'"),
	    "cmd_canon err_syntax"),
	/* ... but not where its arguments are. */
	R("CANON budget=1", "ERR length expected 81 cells, found 8 (one row "
	    "of a grid? send the whole puzzle on one line, row by row)\n",
	    "cmd_canon err_length"),
	R("x=1", "ERR syntax unknown command 'x=1', try HELP\n", "err_syntax"),
};

void
t_opts(void **state)
{
	ROWS(state, opts_rows);
}

/* HELLO: one line of key=value tokens, from the tables. */
void
t_hello(void **state)
{
	struct fx	*f = *state;

	expect_line(f, "HELLO", 5, PROTO_OK, "HELLO server=sudokud version="
	    PACKAGE_VERSION " proto=2 verbs=SOLVE,LEXMIN,COUNT,SOLUTIONS,"
	    "ANALYZE,RATE,"
	    "HINT,GENERATE,CANON,SHUFFLE,MINIMIZE,CONSTRAIN,PATH,HELLO,AUTH,"
	    "PING,"
	    "VERSION,STATS,SLOWLOG,CLIENT,HELP,QUIT options=budget,deadline,"
	    "effort,info,symmetry,clues,pattern levels=easy,medium,hard,"
	    "expert,extreme symmetries=none,rot180,rot90,mirror,flip,diagonal,"
	    "antidiagonal,dihedral max_connections=1024 idle_timeout=300 "
	    "write_timeout=30 max_line=1024 output_high=262144 budget=100000 "
	    "count_max=1000 http=none auth=none\n", NULL, "cmd_hello");
	/* The configuration in force, not the defaults. */
	f->alt = *f->cf;
	f->alt.count_max = 7;
	f->alt.max_line = 4096;
	f->env.cf = &f->alt;
	expect_line(f, "HELLO", 5, PROTO_OK, "HELLO server=sudokud ",
	    " max_line=4096 output_high=262144 budget=100000 count_max=7 "
	    "http=none auth=none\n",
	    "cmd_hello");
	f->env.cf = f->cf;
}
