/* SPDX-License-Identifier: ISC */
/*
 * test_proto.c -- unit tests for proto_line() and its kin (proto.c,
 * proto_*.c): every request and every error code of doc/protocol.md, the
 * counters each request moves, proto_first(), proto_toolong(), and the
 * job path of a long search served in slices.
 *
 * The environment is built by hand, as a worker builds it: the built-in
 * configuration, one worker's counters, a scratch job.  Expected
 * replies come from doc/protocol.md and sudokud(8) (texts and examples,
 * and the HELP block read from the document itself), from known puzzle
 * solutions written here, and from checker.c, the test-side oracle;
 * never from the code's own output.  Texts the documents do not fix
 * are checked for their code word and the fact they must state.
 */
#include <sys/types.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <event2/buffer.h>

#include "autoconf.h"		/* PACKAGE_VERSION */

#include "common/xmalloc.h"
#include "core/sudoku.h"
#include "daemon/admit.h"
#include "daemon/clients.h"
#include "daemon/config.h"
#include "daemon/proto.h"
#include "daemon/slowlog.h"
#include "daemon/stats.h"
#include "checker.h"
#include "test_proto.h"

/* The counters of the STATS table of doc/protocol.md, in its order. */
const char *const counter_names[NCOUNTERS] = {
	"total_connections", "rejected_connections", "cmd_solve",
	"cmd_lexmin", "cmd_count", "cmd_rate", "cmd_hint", "cmd_generate",
	"cmd_ping", "cmd_version", "cmd_help", "cmd_stats", "cmd_quit",
	"cmd_analyze", "cmd_hello", "cmd_slowlog", "cmd_client",
	"cmd_canon", "cmd_shuffle", "cmd_minimize", "cmd_constrain",
	"cmd_path", "cmd_solutions", "cmd_auth", "err_syntax", "err_length", "err_char", "err_conflict",
	"err_nosolution", "err_multiple", "err_budget", "err_wrong",
	"err_nostep", "err_toolong", "err_busy", "err_deadline", "err_noauth",
	"solved",
	"unsolvable",
	"guesses", "solve_usec",
	"bytes_read", "bytes_written", "idle_kicks", "output_kicks",
	"gone_kicks",
	"toolong_lines", "tls_handshake_errors", "auth_failures",
	"proxy_headers",
	"proxy_errors",
	"generate_pool_hits", "generate_pool_misses", "metrics_evicted",
	"metrics_refused", "http_2xx", "http_4xx", "http_5xx"
};

int
fx_setup(void **state)
{
	struct fx	*f;
	char		*cause;

	f = xcalloc(1, sizeof *f);
	f->cf = config_load(NULL, &cause);
	assert_non_null(f->cf);
	/* The defaults of sudokud.conf(5) that replies below depend on. */
	assert_int_equal(f->cf->count_max, 1000);
	assert_int_equal(f->cf->budget, 100000);
	f->alt = *f->cf;	/* shares its strings: never freed */
	f->admit = admit_new();
	f->ss = stats_server_new(1, f->admit);
	f->env.cf = f->cf;
	f->env.st = stats_worker(f->ss, 0);
	f->env.ss = f->ss;
	f->env.admit = f->admit;
	f->env.clients = clients_new();
	f->env.slow = slowlog_new();
	f->env.scratch = proto_scratch_new();
	f->out = evbuffer_new();
	assert_non_null(f->out);
	*state = f;
	return (0);
}

int
fx_teardown(void **state)
{
	struct fx	*f = *state;

	evbuffer_free(f->out);
	free(f->env.scratch);
	stats_server_free(f->ss);
	admit_free(f->admit);
	clients_free(f->env.clients);
	slowlog_free(f->env.slow);
	config_free(f->cf);
	free(f);
	return (0);
}

/* What was appended to b, as a string; b is emptied. */
char *
take(struct evbuffer *b)
{
	size_t	 n = evbuffer_get_length(b);
	char	*s = xmalloc(n + 1);

	assert_int_equal(evbuffer_remove(b, s, n), (int)n);
	s[n] = '\0';
	return (s);
}

/* The counters, read as STATS shows them (stats_print()). */
void
counters(struct fx *f, uint64_t *v)
{
	struct evbuffer		*b = evbuffer_new();
	char			*text, *line, *save, name[64];
	unsigned long long	 val;
	size_t			 i, found = 0, nverbs;
	const char *const	*verbs = proto_verbs(&nverbs);

	stats_print(f->ss, b, PACKAGE_VERSION, verbs, nverbs);
	text = take(b);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "STAT %63s %llu", name, &val) != 2)
			continue;
		for (i = 0; i < NCOUNTERS; i++) {
			if (strcmp(name, counter_names[i]) == 0) {
				v[i] = val;
				found++;
			}
		}
	}
	assert_int_equal(found, NCOUNTERS);
	free(text);
	evbuffer_free(b);
}

/* How many of the blank-separated words of list are word. */
static unsigned int
words(const char *list, const char *word)
{
	size_t		n = strlen(word);
	unsigned int	k = 0;
	const char	*p = list;

	while (*p != '\0') {
		while (*p == ' ')
			p++;
		if (strncmp(p, word, n) == 0 && (p[n] == ' ' || p[n] == '\0'))
			k++;
		while (*p != ' ' && *p != '\0')
			p++;
	}
	return (k);
}

/* Did a request moving these counters run the solver? */
int
searched(const char *moves)
{
	return (words(moves, "solved") || words(moves, "unsolvable") ||
	    words(moves, "err_budget"));
}

/*
 * Each counter named in moves rose by one per mention, every other
 * stayed, except that a request that ran the solver may move guesses
 * and solve_usec.
 */
void
check_moves(const uint64_t *a, const uint64_t *b, const char *moves,
    const char *what)
{
	size_t		i;
	unsigned int	want;
	int		ran = searched(moves);

	for (i = 0; i < NCOUNTERS; i++) {
		if (ran && (strcmp(counter_names[i], "guesses") == 0 ||
		    strcmp(counter_names[i], "solve_usec") == 0))
			continue;
		want = words(moves, counter_names[i]);
		if (b[i] - a[i] != want)
			test_fail("%.60s: %s rose by %llu, expected %u", what,
			    counter_names[i], (unsigned long long)(b[i] - a[i]),
			    want);
	}
}

/*
 * One request line served in one call: its status, its reply (exact,
 * or: starting with reply and holding part, on one line) and the
 * counters it moved.
 */
void
expect_line(struct fx *f, const char *line, size_t len,
    enum proto_status status, const char *reply, const char *part,
    const char *moves)
{
	uint64_t		 a[NCOUNTERS], b[NCOUNTERS], ns = 12345;
	struct proto_job	*job = NULL;
	enum proto_status	 st;
	char			*got;

	counters(f, a);
	st = proto_line(&f->env, f->out, line, len, UINT64_MAX, &ns, &job, NULL);
	got = take(f->out);
	assert_null(job);
	if (part == NULL)
		assert_string_equal(got, reply);
	else if (strncmp(got, reply, strlen(reply)) != 0 ||
	    strstr(got, part) == NULL || strchr(got, '\n') == NULL ||
	    strchr(got, '\n')[1] != '\0')
		test_fail("%.60s: got %s, expected one line %s...%s...",
		    line, got, reply, part);
	if (st != status)
		test_fail("%.60s: status %d, expected %d", line, st, status);
	if (!searched(moves) && ns != 0)
		test_fail("%.60s: %llu ns of solver time", line,
		    (unsigned long long)ns);
	counters(f, b);
	check_moves(a, b, moves, line);
	free(got);
}

void
run_rows(void **state, const struct rq *rows, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		expect_line(*state, rows[i].line, rows[i].len != 0 ?
		    rows[i].len : strlen(rows[i].line), rows[i].status,
		    rows[i].reply, rows[i].part, rows[i].moves);
	}
}

/* A puzzle as checker.c takes it: 81 values, 0 for a blank. */
void
cells(const char *p, uint8_t *g)
{
	int	i;

	for (i = 0; i < 81; i++)
		g[i] = p[i] >= '1' && p[i] <= '9' ? (uint8_t)(p[i] - '0') : 0;
}

/* A grid as a request line's puzzle: 81 digits, '.' for a blank. */
void
text(const uint8_t *g, char *p)
{
	int	i;

	for (i = 0; i < 81; i++)
		p[i] = g[i] == 0 ? '.' : (char)('0' + g[i]);
	p[81] = '\0';
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		TEST_PROTO_CASES
	};

	/* Keep TAP lines and failure text in order in the log. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	return (cmocka_run_group_tests_name("proto", tests, NULL, NULL));
}
