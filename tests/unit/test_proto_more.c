/* SPDX-License-Identifier: ISC */
/*
 * test_proto_more.c -- the replies of more than one line (HELP, STATS),
 * what comes before and beside request lines (proto_first(),
 * proto_toolong()), and a long search served as a job in slices of
 * solver time: the same answer as one uninterrupted call, whatever the
 * slices, and a job dropped half-way freed cleanly.
 */
#include <sys/types.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>

#include "autoconf.h"		/* PACKAGE_VERSION */

#include "common/xmalloc.h"
#include "core/sudoku.h"
#include "daemon/walltime.h"	/* the daemon's clock, not time(2) */
#include "test_proto.h"

#define HELP_MAX	4096

/* Where a counter is in counters()' array. */
static size_t
idx(const char *name)
{
	size_t	i;

	for (i = 0; i < NCOUNTERS; i++) {
		if (strcmp(counter_names[i], name) == 0)
			return (i);
	}
	fail();
	return (0);
}

/* The HELP reply as the example of doc/protocol.md shows it. */
static char *
doc_help(void)
{
	FILE	*fp;
	char	 line[256], *out = xcalloc(1, HELP_MAX);
	size_t	 n = 0;
	int	 where = 0;	/* 1: in its section, 2: in the example */

	if ((fp = fopen(PROTOCOL_MD, "r")) == NULL)
		test_fail("%s: %s", PROTOCOL_MD, strerror(errno));
	while (where != 3 && fgets(line, sizeof line, fp) != NULL) {
		if (where == 0 && strcmp(line, "### `HELP`\n") == 0)
			where = 1;
		else if (where == 1 && strcmp(line, "    HELP\n") == 0)
			where = 2;
		else if (where == 2 && strncmp(line, "    ", 4) != 0)
			break;
		else if (where == 2) {
			n += (size_t)snprintf(out + n, HELP_MAX - n, "%s",
			    line + 4);
			assert_true(n < HELP_MAX);
			if (strcmp(line + 4, "END\n") == 0)
				where = 3;
		}
	}
	fclose(fp);
	if (where != 3)
		test_fail("%s: no HELP example ending in END", PROTOCOL_MD);
	return (out);
}

/* How many lines of text start with "  " verb " ". */
static int
request_lines(const char *text, const char *verb)
{
	const char	*p;
	size_t		 n = strlen(verb);
	int		 k = 0;

	for (p = text; p != NULL; p = strchr(p, '\n'), p = p ? p + 1 : p) {
		if (strncmp(p, "  ", 2) == 0 && strncmp(p + 2, verb, n) == 0 &&
		    p[2 + n] == ' ')
			k++;
	}
	return (k);
}

void
t_help(void **state)
{
	static const char *const verbs[] = { "<puzzle>", "SOLVE", "LEXMIN",
	    "COUNT", "PING", "VERSION", "STATS", "HELP", "QUIT" };
	struct fx	*f = *state;
	char		*doc = doc_help();
	size_t		 i, n = strlen(doc);

	expect_line(f, B("HELP"), PROTO_OK, doc, NULL, "cmd_help");
	expect_line(f, B("help"), PROTO_OK, doc, NULL, "cmd_help");
	expect_line(f, B(" Help\t"), PROTO_OK, doc, NULL, "cmd_help");
	/* Its shape: what a puzzle is, a line per request, then END. */
	assert_true(strncmp(doc, "Send one request per line; verbs may be in "
	    "any case.\n", 52) == 0);
	for (i = 0; i < sizeof verbs / sizeof verbs[0]; i++) {
		if (request_lines(doc, verbs[i]) != 1)
			test_fail("HELP: %d lines for %s", request_lines(doc,
			    verbs[i]), verbs[i]);
	}
	assert_true(n > 4 && strcmp(doc + n - 5, "\nEND\n") == 0);
	free(doc);
}

/* One line "STAT name value" of a STATS reply; the value. */
static const char *
stat_line(char **p, const char *name)
{
	char	*line = *p, *end = strchr(line, '\n');
	size_t	 n = strlen(name);

	if (end == NULL || strncmp(line, "STAT ", 5) != 0 ||
	    strncmp(line + 5, name, n) != 0 || line[5 + n] != ' ')
		test_fail("STATS: expected STAT %s, got %.40s", name, line);
	*end = '\0';
	*p = end + 1;
	if (strcmp(name, "version") != 0 &&
	    strspn(line + 6 + n, "0123456789") != strlen(line + 6 + n))
		test_fail("STATS: %s %s is not a decimal integer", name,
		    line + 6 + n);
	return (line + 6 + n);
}

/*
 * A STATS reply of a fresh environment, after that one request, made
 * between the wall clock times before and after.
 */
static void
check_stats(char *reply, time_t before, time_t after)
{
	/* The verbs of HELP, in its order (doc/protocol.md). */
	static const char *const latency_verbs[] = {
		"solve", "lexmin", "count", "solutions", "analyze", "rate",
		"hint",
		"generate", "canon", "shuffle", "minimize", "constrain",
		"path", "hello", "auth", "ping", "version", "stats", "slowlog",
		"client", "help", "quit"
	};
	char		*p = reply, name[64];
	const char	*v;
	size_t		 i;

	assert_int_equal(strtoll(stat_line(&p, "pid"), NULL, 10), getpid());
	assert_true(strtoll(stat_line(&p, "uptime"), NULL, 10) <= 5);
	v = stat_line(&p, "time");
	assert_true(strtoll(v, NULL, 10) >= (long long)before &&
	    strtoll(v, NULL, 10) <= (long long)after);
	assert_string_equal(stat_line(&p, "version"), PACKAGE_VERSION);
	assert_string_equal(stat_line(&p, "workers"), "1");
	assert_string_equal(stat_line(&p, "curr_connections"), "0");
	for (i = 0; i < NCOUNTERS; i++) {
		v = stat_line(&p, counter_names[i]);
		assert_string_equal(v, strcmp(counter_names[i], "cmd_stats") ==
		    0 ? "1" : "0");
	}
	/* The pool's depth per level: none made ahead here. */
	for (i = 0; i < SUDOKU_LEVEL_COUNT; i++) {
		snprintf(name, sizeof name, "generate_pool_%s",
		    sudoku_level_name((enum sudoku_level)i));
		assert_string_equal(stat_line(&p, name), "0");
	}
	/* The latency of each verb, then the wait: nothing recorded yet. */
	for (i = 0; i < sizeof latency_verbs / sizeof latency_verbs[0];
	    i++) {
		snprintf(name, sizeof name, "latency_%s_p50_usec",
		    latency_verbs[i]);
		assert_string_equal(stat_line(&p, name), "0");
		snprintf(name, sizeof name, "latency_%s_p99_usec",
		    latency_verbs[i]);
		assert_string_equal(stat_line(&p, name), "0");
	}
	assert_string_equal(stat_line(&p, "queue_wait_p50_usec"), "0");
	assert_string_equal(stat_line(&p, "queue_wait_p99_usec"), "0");
	assert_string_equal(p, "END\n");
}

void
t_stats(void **state)
{
	static const char *const lines[] = { "STATS", "stats", "Stats" };
	struct fx		*f = *state;
	struct proto_job	*job = NULL;
	uint64_t		 a[NCOUNTERS], b[NCOUNTERS], ns;
	char			*got;
	size_t			 i;
	time_t			 before;

	for (i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		counters(f, a);
		before = (time_t)wall_seconds();
		assert_int_equal(proto_line(&f->env, f->out, lines[i],
		    strlen(lines[i]), UINT64_MAX, &ns, &job, NULL), PROTO_OK);
		assert_null(job);
		assert_int_equal(ns, 0);
		got = take(f->out);
		if (i == 0)
			check_stats(got, before, (time_t)wall_seconds());
		else
			assert_true(strncmp(got, "STAT pid ", 9) == 0 &&
			    strstr(got, "\nEND\n") != NULL);
		counters(f, b);
		check_moves(a, b, "cmd_stats", lines[i]);
		free(got);
	}
}

void
t_first(void **state)
{
	/* A TLS ClientHello starts so: a handshake record (0x16). */
	static const char	 tls[] = "\x16\x03\x01\x02\x00\x01\x00\x01\xfc";
	static const size_t	 tls_len[] = { 1, sizeof tls - 1 };
	static const struct {
		const char	*p;
		size_t		 len;
	}			 plain[] = {
		{ B("PING\n") }, { B(CLASSIC) }, { B("\x17\x03\x01") },
		{ B("GET / HTTP/1.1\r\n") }, { B("\0") }, { B(".") },
		{ "", 0 },
	};
	struct fx		*f = *state;
	uint64_t		 a[NCOUNTERS], b[NCOUNTERS];
	char			*got;
	size_t			 i;

	for (i = 0; i < sizeof tls_len / sizeof tls_len[0]; i++) {
		counters(f, a);
		assert_int_equal(proto_first(&f->env, f->out, tls, tls_len[i], 0),
		    PROTO_CLOSE);
		got = take(f->out);
		assert_true(strncmp(got, "ERR syntax ", 11) == 0);
		assert_non_null(strstr(got, "TLS"));
		assert_ptr_equal(strchr(got, '\n'), got + strlen(got) - 1);
		counters(f, b);
		check_moves(a, b, "err_syntax", "TLS");
		free(got);
	}
	/* Anything else: nothing now, the lines are served as they come. */
	for (i = 0; i < sizeof plain / sizeof plain[0]; i++) {
		counters(f, a);
		assert_int_equal(proto_first(&f->env, f->out, plain[i].p,
		    plain[i].len, 0), PROTO_OK);
		assert_int_equal(evbuffer_get_length(f->out), 0);
		counters(f, b);
		check_moves(a, b, "", "first bytes");
	}
}

/*
 * A PROXY header sent to a plain listener is refused however its bytes
 * are split: every prefix too short to tell waits (PROTO_MORE, nothing
 * said), the whole signature is one ERR syntax line and PROTO_CLOSE;
 * at the end of input a prefix is only bytes, served as lines.
 */
void
t_first_proxy(void **state)
{
	static const char	 v1[] = "PROXY TCP4 1.2.3.4 5.6.7.8 1 2\r\n";
	static const char	 v2[] = "\r\n\r\n\0\r\nQUIT\n\x21\x11\0\x0c";
	static const struct {
		const char	*p;
		size_t		 len, sig;
	}			 hdr[] = {
		{ v1, sizeof v1 - 1, 6 }, { v2, sizeof v2 - 1, 12 },
	};
	struct fx		*f = *state;
	uint64_t		 a[NCOUNTERS], b[NCOUNTERS];
	char			*got;
	size_t			 i, k;

	for (i = 0; i < sizeof hdr / sizeof hdr[0]; i++) {
		for (k = 1; k < hdr[i].sig; k++) {
			assert_int_equal(proto_first(&f->env, f->out,
			    hdr[i].p, k, 0), PROTO_MORE);
			assert_int_equal(proto_first(&f->env, f->out,
			    hdr[i].p, k, 1), PROTO_OK);
			assert_int_equal(evbuffer_get_length(f->out), 0);
		}
		for (k = hdr[i].sig; k <= hdr[i].len; k++) {
			counters(f, a);
			assert_int_equal(proto_first(&f->env, f->out,
			    hdr[i].p, k, 0), PROTO_CLOSE);
			got = take(f->out);
			assert_string_equal(got, "ERR syntax a PROXY protocol "
			    "header, but this listener is not tcp_proxy\n");
			free(got);
			counters(f, b);
			check_moves(a, b, "err_syntax proxy_errors", "PROXY");
		}
	}
	/* What only begins like one is told apart at its first other byte. */
	assert_int_equal(proto_first(&f->env, f->out, "PI", 2, 0), PROTO_OK);
	assert_int_equal(proto_first(&f->env, f->out, "\r\nP", 3, 0),
	    PROTO_OK);
	assert_int_equal(evbuffer_get_length(f->out), 0);
}

void
t_toolong(void **state)
{
	struct fx	*f = *state;
	uint64_t	 a[NCOUNTERS], b[NCOUNTERS];
	char		*got;

	counters(f, a);
	proto_toolong(&f->env, f->out, 1024);
	got = take(f->out);
	assert_string_equal(got, "ERR toolong request line longer than 1024 "
	    "bytes\n");
	free(got);
	proto_toolong(&f->env, f->out, 128);
	got = take(f->out);
	assert_string_equal(got, "ERR toolong request line longer than 128 "
	    "bytes\n");
	free(got);
	counters(f, b);
	check_moves(a, b, "err_toolong toolong_lines err_toolong "
	    "toolong_lines", "toolong");
}

/*
 * Serve line in slices of at most max_ns of solver time, resuming its
 * job until it is done: the status; the reply in *reply, the number of
 * calls in *calls.
 */
static enum proto_status
sliced(struct fx *f, const char *line, uint64_t max_ns, char **reply,
    int *calls)
{
	struct proto_job	*job = NULL;
	enum proto_status	 st;
	uint64_t		 ns = 0;

	st = proto_line(&f->env, f->out, line, strlen(line), max_ns, &ns,
	    &job, NULL);
	for (*calls = 1; st == PROTO_MORE; (*calls)++) {
		assert_non_null(job);
		assert_true(ns > 0);
		assert_int_equal(evbuffer_get_length(f->out), 0);
		assert_true(*calls < 10000000);
		st = proto_resume(&f->env, f->out, job, max_ns, &ns, NULL);
	}
	*reply = take(f->out);
	return (st);
}

/*
 * line served in slices of 1 ns (so in many calls) and in one call: the
 * same reply, the same counters moved, the same guesses made.
 */
static void
expect_sliced(struct fx *f, const char *line, const char *reply,
    const char *moves)
{
	uint64_t	 a[NCOUNTERS], b[NCOUNTERS], c[NCOUNTERS];
	size_t		 g = idx("guesses");
	char		*r1, *r2;
	int		 calls;

	counters(f, a);
	assert_int_equal(sliced(f, line, 1, &r1, &calls), PROTO_OK);
	counters(f, b);
	if (calls < 2)
		test_fail("%.60s: done in one call", line);
	assert_string_equal(r1, reply);
	check_moves(a, b, moves, line);
	assert_int_equal(sliced(f, line, UINT64_MAX, &r2, &calls), PROTO_OK);
	counters(f, c);
	assert_int_equal(calls, 1);
	assert_string_equal(r2, reply);
	check_moves(b, c, moves, line);
	assert_true(b[g] > a[g]);
	assert_int_equal(b[g] - a[g], c[g] - b[g]);
	free(r1);
	free(r2);
}

void
t_job_count(void **state)
{
	struct fx	*f = *state;

	f->alt.count_max = 100000;
	f->env.cf = &f->alt;
	expect_sliced(f, "COUNT " EMPTY " 1000", "1000\n", "cmd_count solved");
	expect_sliced(f, "COUNT " EMPTY " 5000", "5000\n", "cmd_count solved");
}

void
t_job_grid(void **state)
{
	struct fx	*f = *state;

	expect_sliced(f, "LEXMIN " EASTER, EASTER_SOL "\n",
	    "cmd_lexmin solved");
	expect_sliced(f, "SOLVE " SLOW, SLOW_SOL "\n", "cmd_solve solved");
	expect_sliced(f, SLOW, SLOW_SOL "\n", "cmd_solve solved");
}

/* The budget of a job is the one in force when it began. */
void
t_job_budget(void **state)
{
	static const char	 line[] = "COUNT " EMPTY " 1000";
	struct fx		*f = *state;
	struct proto_job	*job = NULL;
	enum proto_status	 st;
	uint64_t		 a[NCOUNTERS], b[NCOUNTERS], ns;
	char			*got;

	f->alt.budget = 100;
	f->env.cf = &f->alt;
	counters(f, a);
	st = proto_line(&f->env, f->out, line, strlen(line), 1, &ns, &job, NULL);
	assert_int_equal(st, PROTO_MORE);
	f->env.cf = f->cf;		/* a reload: budget 100000 */
	while (st == PROTO_MORE)
		st = proto_resume(&f->env, f->out, job, 1, &ns, NULL);
	assert_int_equal(st, PROTO_OK);
	got = take(f->out);
	assert_string_equal(got, "ERR budget search budget of 100 guesses "
	    "exceeded\n");
	counters(f, b);
	check_moves(a, b, "cmd_count err_budget", line);
	free(got);
}

/* A job dropped unfinished: no reply, its guesses counted, no leak. */
void
t_job_free(void **state)
{
	static const char	 line[] = "COUNT " EMPTY " 1000";
	struct fx		*f = *state;
	struct proto_job	*job;
	uint64_t		 a[NCOUNTERS], b[NCOUNTERS], ns;
	size_t			 i, g = idx("guesses");
	int			 resumes;

	for (resumes = 0; resumes < 3; resumes++) {
		job = NULL;
		assert_int_equal(proto_line(&f->env, f->out, line,
		    strlen(line), 1, &ns, &job, NULL), PROTO_MORE);
		for (i = 0; i < (size_t)resumes; i++)
			assert_int_equal(proto_resume(&f->env, f->out, job, 1,
			    &ns, NULL), PROTO_MORE);
		counters(f, a);
		proto_job_free(&f->env, job);
		counters(f, b);
		assert_int_equal(evbuffer_get_length(f->out), 0);
		for (i = 0; i < NCOUNTERS; i++) {
			if (i == g)
				assert_true(b[i] > a[i]);
			else
				assert_int_equal(b[i], a[i]);
		}
	}
	proto_job_free(&f->env, NULL);
}
