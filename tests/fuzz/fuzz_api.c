/* SPDX-License-Identifier: ISC */
/*
 * fuzz_api.c -- libFuzzer target for doc/http.md's requests and replies:
 * a POST body or a query string for one of the resources made into
 * request lines (proto_http_new(), jansson, proto_query.c), each line
 * served (proto_line(), its job resumed to the end) and its reply made
 * into JSON (proto_json.c); or reply lines of a verb, any printable
 * text, made into JSON.
 *
 * Checked against doc/http.md, not against the code's own output: a
 * request refused has a status and code of the table; a line made of a
 * request starts with its verb and holds no control byte (nothing of a
 * body may split it or start another); every reply is one JSON object,
 * valid UTF-8, with a status of the table (500 for an ERR line of a
 * code the table lacks, which only made-up reply lines have).
 *
 * The first byte says what the rest is: 0 a body, 1 a query, 2 reply
 * lines; the second, which resource.
 */
#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <jansson.h>

#include "common/xmalloc.h"
#include "daemon/admit.h"
#include "daemon/clients.h"
#include "daemon/config.h"
#include "daemon/proto.h"
#include "daemon/slowlog.h"
#include "daemon/stats.h"

#define FUZZ_BUDGET	2000
#define FUZZ_SLICE_NS	20000

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char *const fuzz_verbs[] = {
	"solve", "lexmin", "count", "solutions", "analyze", "rate", "hint",
	"generate", "canon", "shuffle", "minimize", "constrain", "path",
	"hello", "ping", "version", "stats", "slowlog", "client", "help",
	"auth", "nope"
};
#define FUZZ_NVERBS	(sizeof fuzz_verbs / sizeof fuzz_verbs[0])

/* A body each resource takes, for the replies of mode 2. */
static const char *const fuzz_bodies[] = {
	"{\"puzzle\":\"1\"}", "{\"puzzle\":\"1\",\"n\":1}", "{}"
};

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
	cf->http_max_body = 1024;	/* a batch of 12 puzzles at most */
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

/* A status of doc/http.md's table. */
static int
fuzz_status(int status)
{
	static const int	ok[] = { 200, 400, 401, 404, 405, 413, 415,
				    422, 503, 504 };
	size_t			i;

	for (i = 0; i < sizeof ok / sizeof ok[0]; i++)
		if (status == ok[i])
			return (1);
	return (0);
}

/* body holds exactly one JSON object, and nothing else. */
static void
fuzz_json(struct evbuffer *body)
{
	size_t	 len = evbuffer_get_length(body);
	json_t	*o;

	o = json_loadb((const char *)evbuffer_pullup(body, -1), len, 0, NULL);
	if (o == NULL || !json_is_object(o))
		abort();
	json_decref(o);
	evbuffer_drain(body, len);
}

/* Every line of h served to the end, its reply made JSON. */
static void
fuzz_serve(struct proto_http *h, const char *verb)
{
	struct evbuffer		*lines = evbuffer_new(), *body = evbuffer_new();
	struct proto_job	*job;
	const char		*line;
	enum proto_status	 st;
	uint64_t		 ns;
	size_t			 len, i, vlen = strlen(verb);

	while ((line = proto_http_next(h, &len)) != NULL) {
		if (len < vlen || strncasecmp(line, verb, vlen) != 0 ||
		    (len > vlen && line[vlen] != ' '))
			abort();
		for (i = 0; i < len; i++)
			if ((unsigned char)line[i] < 0x20)
				abort();
		job = NULL;
		st = proto_line(fuzz_env, lines, line, len, FUZZ_SLICE_NS, &ns,
		    &job, NULL);
		while (st == PROTO_MORE)
			st = proto_resume(fuzz_env, lines, job, FUZZ_SLICE_NS,
			    &ns, NULL);
		if (!fuzz_status(proto_http_reply(h, lines, body)))
			abort();
		fuzz_json(body);
	}
	evbuffer_free(lines);
	evbuffer_free(body);
}

/* Mode 2: any printable lines as the reply of verb. */
static void
fuzz_reply(const char *verb, const uint8_t *p, size_t len)
{
	struct proto_http_in	 in;
	struct proto_http_err	 err;
	struct proto_http	*h;
	struct evbuffer		*lines = evbuffer_new(), *body = evbuffer_new();
	size_t			 i, k;
	int			 st;
	char			 ch;

	memset(&in, 0, sizeof in);
	in.post = 1;
	in.verb = verb;
	in.verblen = strlen(verb);
	for (k = 0; k < 3; k++) {
		in.body = fuzz_bodies[k];
		in.bodylen = strlen(in.body);
		if (proto_http_new(fuzz_env, &in, &h, &err) == 0)
			break;
	}
	if (k == 3)
		goto done;
	for (i = 0; i < len; i++) {
		ch = (p[i] >= 0x20 && p[i] < 0x7f) || p[i] == '\n' ?
		    (char)p[i] : '?';
		evbuffer_add(lines, &ch, 1);
	}
	/* An ERR line of a code no verb gives: 500, the server's fault. */
	st = proto_http_reply(h, lines, body);
	if (!fuzz_status(st) && st != 500)
		abort();
	fuzz_json(body);
	proto_http_free(h);
done:
	evbuffer_free(lines);
	evbuffer_free(body);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proto_http_in	 in;
	struct proto_http_err	 err;
	struct proto_http	*h;
	const char		*verb;

	if (fuzz_env == NULL)
		fuzz_env = fuzz_setup();
	if (size < 2)
		return (0);
	verb = fuzz_verbs[data[1] % FUZZ_NVERBS];
	if (data[0] % 3 == 2) {
		fuzz_reply(verb, data + 2, size - 2);
		return (0);
	}
	memset(&in, 0, sizeof in);
	in.post = data[0] % 3 == 0;
	in.verb = verb;
	in.verblen = strlen(verb);
	in.body = in.post ? (const char *)data + 2 : NULL;
	in.bodylen = in.post ? size - 2 : 0;
	in.query = in.post ? NULL : (const char *)data + 2;
	in.querylen = in.post ? 0 : size - 2;
	in.authed = data[0] & 0x80;
	in.lines = data[0] & 0x40;
	if (proto_http_new(fuzz_env, &in, &h, &err) != 0) {
		if (!fuzz_status(err.status) && err.status != 411)
			abort();
		if (err.code == NULL || proto_http_status(err.code,
		    strlen(err.code)) != err.status)
			abort();
		return (0);
	}
	fuzz_serve(h, verb);
	proto_http_free(h);
	return (0);
}
