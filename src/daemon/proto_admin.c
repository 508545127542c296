/* SPDX-License-Identifier: ISC */
/*
 * proto_admin.c -- the requests about the server itself: HELLO, STATS,
 * SLOWLOG and CLIENT LIST.  Anyone who can connect may send them (see
 * sudokud(8), SECURITY CONSIDERATIONS).
 */
#include <sys/types.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <event2/buffer.h>

#include "autoconf.h"	/* PACKAGE_VERSION, from configure */

#include "auth.h"
#include "clients.h"
#include "config.h"
#include "config_table.h"
#include "proto.h"
#include "proto_int.h"
#include "slowlog.h"
#include "stats.h"

/* The protocol version HELLO names (doc/protocol.md). */
#define ADMIN_WIRE_VERSION	2

/* SLOWLOG GET without a count: as redis, the newest 10. */
#define ADMIN_SLOWLOG_GET	10

/*
 * HELLO's http=: the HTTP listeners (doc/http.md) as URLs, for a client
 * of the line protocol to find the API; "none" if there is none.
 */
static void
admin_http(const struct config *cf, struct evbuffer *out)
{
	const struct listen_spec	*l;
	size_t				 i, n = 0;

	for (i = 0; i < cf->nlisten; i++) {
		l = &cf->listen[i];
		if (!config_spec_http(l))
			continue;
		if (n++ > 0)
			evbuffer_add(out, ",", 1);
		if (l->type == LISTEN_UNIX)
			evbuffer_add_printf(out, "unix:%s", l->path);
		else
			evbuffer_add_printf(out, strchr(l->host, ':') != NULL ?
			    "%s://[%s]:%s" : "%s://%s:%s", l->kind ==
			    LISTEN_HTTPS || l->kind == LISTEN_HTTPS_PROXIED ?
			    "https" : "http", l->host, l->port);
	}
	if (n == 0)
		evbuffer_add(out, "none", 4);
}

/*
 * HELLO: who answers and what a client must respect, from the tables:
 * the verbs of HELP, the options, the levels and symmetries GENERATE
 * takes (the core's names), and the configuration's limits that are
 * marked for clients (CONFIG_HELLO), as the file would give them.
 */
enum proto_status
proto_admin_hello(struct proto_req *req)
{
	const struct config_key	*k;
	unsigned int		 opts = 0;
	char			 buf[128];
	size_t			 i;

	evbuffer_add_printf(req->out, "HELLO server=sudokud version=%s "
	    "proto=%d verbs=", PACKAGE_VERSION, ADMIN_WIRE_VERSION);
	for (i = 0; i < PROTO__COUNT; i++) {
		evbuffer_add_printf(req->out, "%s%s", i == 0 ? "" : ",",
		    proto_cmds[i].name);
		opts |= proto_cmds[i].opts;
	}
	proto_opts_names(opts, buf, sizeof buf);
	evbuffer_add_printf(req->out, " options=%s levels=", buf);
	for (i = 0; i < SUDOKU_LEVEL_COUNT; i++)
		evbuffer_add_printf(req->out, "%s%s", i == 0 ? "" : ",",
		    sudoku_level_name((enum sudoku_level)i));
	evbuffer_add(req->out, " symmetries=", 12);
	for (i = 0; i < SUDOKU_SYM_COUNT; i++)
		evbuffer_add_printf(req->out, "%s%s", i == 0 ? "" : ",",
		    sudoku_symmetry_name((enum sudoku_symmetry)i));
	for (i = 0; i < config_table_size; i++) {
		k = &config_table[i];
		if (!(k->flags & CONFIG_HELLO))
			continue;
		config_table_format(req->env->cf, k, buf, sizeof buf);
		evbuffer_add_printf(req->out, " %s=%s", k->name, buf);
	}
	evbuffer_add(req->out, " http=", 6);
	admin_http(req->env->cf, req->out);
	evbuffer_add_printf(req->out, " auth=%s\n", req->env->cf->auth !=
	    NULL ? "required" : "none");
	return (PROTO_OK);
}

enum proto_status
proto_admin_stats(struct proto_req *req)
{
	size_t			 n;
	const char *const	*verbs = proto_verbs(&n);

	stats_print(req->env->ss, req->out, PACKAGE_VERSION, verbs, n);
	return (PROTO_OK);
}

/* Is the token t the word w, in any case? */
static int
admin_word(const struct proto_token *t, const char *w)
{
	return (t->len == strlen(w) && strncasecmp(t->p, w, t->len) == 0);
}

static enum proto_status
admin_refuse(struct proto_req *req, const char *text)
{
	proto_error(req->env, req->out, STAT_ERR_SYNTAX, "syntax", text);
	return (PROTO_OK);
}

/* SLOWLOG GET's next piece (proto_list). */
static int
admin_slowlog_more(const struct proto_env *env, struct proto_list *l,
    struct evbuffer *out, size_t bytes)
{
	return (slowlog_get(env->slow, (size_t)env->cf->slowlog_max_len,
	    &l->at, &l->left, out, bytes));
}

/* CLIENT LIST's next piece (proto_list). */
static int
admin_client_more(const struct proto_env *env, struct proto_list *l,
    struct evbuffer *out, size_t bytes)
{
	return (clients_list(env->clients, &l->at, out, bytes));
}

/* SLOWLOG GET [<n>] | LEN | RESET: the slow log, as redis has it. */
enum proto_status
proto_admin_slowlog(struct proto_req *req)
{
	const struct config	*cf = req->env->cf;
	uint64_t		 n = ADMIN_SLOWLOG_GET;
	size_t			 max = (size_t)cf->slowlog_max_len;

	if (admin_word(&req->tok[1], "GET")) {
		if (req->ntok == 3 && proto_number(&req->tok[2], 0, 100000,
		    &n) != 0)
			return (admin_refuse(req, "SLOWLOG GET count must be a "
			    "number from 0 to 100000"));
		return (proto_work_list(req, admin_slowlog_more, UINT64_MAX,
		    n));
	} else if (req->ntok == 2 && admin_word(&req->tok[1], "LEN"))
		evbuffer_add_printf(req->out, "%zu\n",
		    slowlog_len(req->env->slow, max));
	else if (req->ntok == 2 && admin_word(&req->tok[1], "RESET")) {
		slowlog_reset(req->env->slow);
		evbuffer_add(req->out, "OK\n", 3);
	} else
		return (admin_refuse(req, "SLOWLOG takes GET [<count>], LEN "
		    "or RESET"));
	return (PROTO_OK);
}

/*
 * AUTH <secret>: the connection may send every request once it has the
 * secret of auth_file (compared in constant time, auth.c).  A wrong one
 * is counted, and the connection stays, as redis keeps it.
 */
enum proto_status
proto_admin_auth(struct proto_req *req)
{
	const struct config	*cf = req->env->cf;

	if (req->info != NULL)
		req->info->secret = 1;
	if (cf->auth == NULL) {
		proto_error(req->env, req->out, STAT_ERR_NOAUTH, "noauth",
		    "no secret is set on this server (auth_file)");
		return (PROTO_OK);
	}
	if (!auth_check(cf->auth, req->tok[1].p, req->tok[1].len)) {
		stats_add(req->env->st, STAT_AUTH_FAILURES, 1);
		if (req->info != NULL)
			req->info->auth_failed = 1;
		proto_error(req->env, req->out, STAT_ERR_NOAUTH, "noauth",
		    "wrong secret");
		return (PROTO_OK);
	}
	if (req->info != NULL)
		req->info->authed = 1;
	evbuffer_add(req->out, "OK\n", 3);
	return (PROTO_OK);
}

/* CLIENT LIST: every open connection of every worker. */
enum proto_status
proto_admin_client(struct proto_req *req)
{
	if (!admin_word(&req->tok[1], "LIST"))
		return (admin_refuse(req, "CLIENT takes LIST"));
	return (proto_work_list(req, admin_client_more, 0, 0));
}
