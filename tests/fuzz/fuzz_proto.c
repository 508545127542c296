/* SPDX-License-Identifier: ISC */
/*
 * fuzz_proto.c -- libFuzzer target for the request path: a connection's
 * bytes cut into lines (frame.c) and served (proto_line(), jobs resumed
 * with proto_resume() until done), as conn.c does.
 *
 * Each reply is checked against doc/protocol.md's framing, not against
 * the server's own output: 7-bit printable ASCII lines ending in LF; no
 * reply to a blank line; one line per request, except HELP and STATS
 * alone, SLOWLOG GET and CLIENT LIST, which answer lines ending with
 * END, PATH, which answers one ERR line or steps and a summary ending
 * with END, and SOLUTIONS, solutions then END or a cut's ERR line.
 */
#include <sys/types.h>

#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <event2/buffer.h>

#include "common/xmalloc.h"
#include "core/sudoku.h"
#include "daemon/admit.h"
#include "daemon/clients.h"
#include "daemon/config.h"
#include "daemon/frame.h"
#include "daemon/proto.h"
#include "daemon/slowlog.h"
#include "daemon/stats.h"

/* Small limits keep every input fast: guesses, and solver time a call. */
#define FUZZ_BUDGET	2000
#define FUZZ_SLICE_NS	20000

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct proto_env	*fuzz_env;

static struct proto_env *
fuzz_setup(void)
{
	struct proto_env	*env;
	struct config		*cf;
	char			*cause;

	if ((cf = config_load(NULL, &cause)) == NULL)
		abort();
	cf->budget = FUZZ_BUDGET;
	cf->count_max = 50;
	cf->max_line = 200;
	env = xcalloc(1, sizeof *env);
	env->cf = cf;
	env->admit = admit_new();
	env->ss = stats_server_new(1, env->admit);
	env->clients = clients_new();
	env->slow = slowlog_new();
	env->st = stats_worker(env->ss, 0);
	env->scratch = proto_scratch_new();
	return (env);
}

/*
 * What a request's reply must look like, by its first word: one line;
 * none (a blank line); lines ending with END (HELP, STATS alone); one
 * line or lines ending with END (SLOWLOG, CLIENT: GET and LIST answer
 * lists, the others a line); one ERR line or steps and a summary ending
 * with END (PATH); solutions, then END or an ERR line of a cut, or one
 * ERR line (SOLUTIONS).
 */
enum fuzz_kind {
	FUZZ_LINE, FUZZ_BLANK, FUZZ_BLOCK, FUZZ_LIST, FUZZ_PATH, FUZZ_SOLUTIONS
};

static const struct {
	const char	*verb;
	int		 alone;		/* the kind only without arguments */
	enum fuzz_kind	 kind;
} fuzz_kinds[] = {
	{ "HELP", 1, FUZZ_BLOCK },
	{ "STATS", 1, FUZZ_BLOCK },
	{ "SLOWLOG", 0, FUZZ_LIST },
	{ "CLIENT", 0, FUZZ_LIST },
	{ "PATH", 0, FUZZ_PATH },
	{ "SOLUTIONS", 0, FUZZ_SOLUTIONS },
};

static enum fuzz_kind
fuzz_kind(const char *s, ssize_t len)
{
	ssize_t	i = 0, start, end;
	size_t	k, n;

	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i == len)
		return (FUZZ_BLANK);
	start = i;
	while (i < len && s[i] != ' ' && s[i] != '\t')
		i++;
	end = i;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	for (k = 0; k < sizeof fuzz_kinds / sizeof fuzz_kinds[0]; k++) {
		n = strlen(fuzz_kinds[k].verb);
		if ((size_t)(end - start) == n &&
		    strncasecmp(s + start, fuzz_kinds[k].verb, n) == 0 &&
		    (i == len) == fuzz_kinds[k].alone)
			return (fuzz_kinds[k].kind);
	}
	return (FUZZ_LINE);
}

/* Does the line at p (of len bytes, LF included) start with word? */
static int
fuzz_starts(const unsigned char *p, size_t len, const char *word)
{
	size_t	n = strlen(word);

	return (len > n && memcmp(p, word, n) == 0 &&
	    (p[n] == ' ' || p[n] == '\n'));
}

/*
 * SOLUTIONS: one ERR line, or 81-digit lines, then END (effort tokens
 * after it) or the ERR line of a cut.  0 if so.
 */
static int
fuzz_solutions(const unsigned char *p, size_t len)
{
	size_t	i;

	while (len > 0) {
		if (fuzz_starts(p, len, "END") || fuzz_starts(p, len, "ERR"))
			return (memchr(p, '\n', len) == p + len - 1 ? 0 : -1);
		if (len < SUDOKU_CELLS + 1 || p[SUDOKU_CELLS] != '\n')
			return (-1);
		for (i = 0; i < SUDOKU_CELLS; i++)
			if (p[i] < '1' || p[i] > '9')
				return (-1);
		p += SUDOKU_CELLS + 1;
		len -= SUDOKU_CELLS + 1;
	}
	return (-1);
}

/* Does the reply (len bytes, lines of printable ASCII) fit kind? */
static int
fuzz_fits(const unsigned char *p, size_t len, size_t lines,
    enum fuzz_kind kind)
{
	int	ends = len >= 4 && memcmp(p + len - 4, "END\n", 4) == 0;

	switch (kind) {
	case FUZZ_LINE:
		return (lines == 1);
	case FUZZ_BLOCK:
		return (ends);
	case FUZZ_LIST:
		return (lines == 1 || ends);
	case FUZZ_PATH:
		return ((lines == 1 && fuzz_starts(p, len, "ERR")) ||
		    (lines >= 2 && ends && !fuzz_starts(p, len, "ERR")));
	case FUZZ_SOLUTIONS:
		return (fuzz_solutions(p, len) == 0);
	default:
		return (0);
	}
}

/* The reply in out (drained): is it what kind calls for? */
static void
fuzz_check(struct evbuffer *out, enum fuzz_kind kind)
{
	size_t		 len = evbuffer_get_length(out), i, lines = 0;
	unsigned char	*p = evbuffer_pullup(out, -1);

	if (kind == FUZZ_BLANK) {
		if (len != 0)
			abort();
		return;
	}
	if (len == 0 || p[len - 1] != '\n')
		abort();
	for (i = 0; i < len; i++) {
		if (p[i] == '\n')
			lines++;
		else if (p[i] < 0x20 || p[i] > 0x7e)
			abort();
	}
	if (!fuzz_fits(p, len, lines, kind))
		abort();
	evbuffer_drain(out, len);
}

/* Serve one line as conn.c does; a job runs to its end. */
static int
fuzz_serve(struct evbuffer *out, const char *line, ssize_t len,
    size_t limit)
{
	struct proto_job	*job = NULL;
	enum proto_status	 st;
	uint64_t		 ns;

	if (len == -1) {
		proto_toolong(fuzz_env, out, limit);
		fuzz_check(out, FUZZ_LINE);
		return (0);
	}
	st = proto_line(fuzz_env, out, line, (size_t)len, FUZZ_SLICE_NS, &ns,
	    &job, NULL);
	while (st == PROTO_MORE)
		st = proto_resume(fuzz_env, out, job, FUZZ_SLICE_NS, &ns, NULL);
	fuzz_check(out, fuzz_kind(line, len));
	return (st == PROTO_CLOSE);
}

/*
 * Serve the lines held; 1 once a request ended the session.  The input
 * comes in pieces, as reads bring it: of a size the first byte picks
 * (1 to 4081 bytes) or what frame_space() offers if less, so lines
 * cross the pieces' edges and the frame moves and grows its block.
 */
static int
fuzz_lines(struct frame *fr, struct evbuffer *out, int eof)
{
	const char	*line = NULL;
	size_t		 max = fuzz_env->cf->max_line, limit = 0;
	ssize_t		 len;

	while (frame_ready(fr, max, eof)) {
		len = frame_take(fr, max, &line, &limit);
		if (fuzz_serve(out, line, len, limit))
			return (1);	/* QUIT, HTTP: no more requests */
	}
	return (0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct evbuffer	*out;
	struct frame	 fr;
	char		 scratch[FRAME_ROOM * 2];
	char		*p;
	size_t		 off = 0, n, piece;
	int		 done = 0;

	if (fuzz_env == NULL)
		fuzz_env = fuzz_setup();
	out = evbuffer_new();
	/* A small scratch block: long lines move to the frame's own. */
	frame_init(&fr, scratch, sizeof scratch);
	if (proto_first(fuzz_env, out, (const char *)data, size, 1) ==
	    PROTO_CLOSE)
		fuzz_check(out, FUZZ_LINE);
	else {
		piece = size > 0 ? 1 + (size_t)data[0] * 16 : 1;
		while (off < size && !done) {
			p = frame_space(&fr, &n);
			n = n < piece ? n : piece;
			n = n < size - off ? n : size - off;
			memcpy(p, data + off, n);
			frame_fill(&fr, n);
			off += n;
			done = fuzz_lines(&fr, out, 0);
			frame_keep(&fr);
		}
		/* The end of input: a last line without LF. */
		if (!done)
			(void)fuzz_lines(&fr, out, 1);
	}
	frame_clear(&fr);
	evbuffer_free(out);
	return (0);
}
