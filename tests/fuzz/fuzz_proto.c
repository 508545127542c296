/* SPDX-License-Identifier: ISC */
/*
 * fuzz_proto.c -- libFuzzer target for the request path: a connection's
 * bytes cut into lines (frame.c) and served (proto_line(), jobs resumed
 * with proto_resume() until done), as conn.c does.
 *
 * Each reply is checked against doc/protocol.md's framing, not against
 * the server's own output: 7-bit printable ASCII lines ending in LF; no
 * reply to a blank line; one line per request, except HELP and STATS
 * alone, which answer lines ending with END, and PATH, which answers
 * one ERR line or steps and a summary ending with END.
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
 * The request's words: blank, HELP or STATS alone, PATH with arguments,
 * or anything else.
 */
enum fuzz_kind { FUZZ_BLANK, FUZZ_BLOCK, FUZZ_PATH, FUZZ_LINE };

static enum fuzz_kind
fuzz_kind(const char *s, ssize_t len)
{
	ssize_t	i = 0, start, end;

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
	if (i == len && ((end - start == 4 &&
	    strncasecmp(s + start, "HELP", 4) == 0) || (end - start == 5 &&
	    strncasecmp(s + start, "STATS", 5) == 0)))
		return (FUZZ_BLOCK);
	if (i < len && end - start == 4 &&
	    strncasecmp(s + start, "PATH", 4) == 0)
		return (FUZZ_PATH);
	return (FUZZ_LINE);
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
	if (kind == FUZZ_LINE && lines != 1)
		abort();
	/* PATH: one ERR line, or lines ending with END and no ERR. */
	if (kind == FUZZ_PATH && !(lines == 1 && len > 4 &&
	    memcmp(p, "ERR ", 4) == 0) && !(lines >= 2 && len >= 4 &&
	    memcmp(p + len - 4, "END\n", 4) == 0 && memcmp(p, "ERR ", 4) != 0))
		abort();
	if (kind == FUZZ_BLOCK && (len < 4 ||
	    memcmp(p + len - 4, "END\n", 4) != 0))
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
