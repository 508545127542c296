/* SPDX-License-Identifier: ISC */
/*
 * proto_error.c -- the reply every part of the protocol unit makes when
 * a request goes wrong: one "ERR code text" line, counted, with the
 * request's bytes echoed in its text the protocol's way.  It calls no
 * other file of the unit: the parsing, the options, the jobs, the verbs
 * and the dispatch all stand on it.
 */
#include <sys/types.h>

#include <stddef.h>

#include <event2/buffer.h>

#include "common/echo.h"
#include "proto.h"
#include "proto_int.h"
#include "stats.h"

/*
 * Request bytes for error text, the protocol's way (common/echo.h):
 * 'FOO', 0x00 or 'GE' 0xc3 0xa9 'T'.
 */
void
proto_echo(const struct proto_token *t, char *buf, size_t size)
{
	echo_bytes(t->p, t->len, PROTO_ECHO_MAX, buf, size);
}

void
proto_error(const struct proto_env *env, struct evbuffer *out,
    enum stat_id stat, const char *code, const char *text)
{
	stats_add(env->st, stat, 1);
	evbuffer_add_printf(out, "ERR %s %s\n", code, text);
}
