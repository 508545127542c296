/* SPDX-License-Identifier: ISC */
/*
 * proto_admin.c -- the requests about the server that read its state:
 * SLOWLOG and CLIENT LIST (listings made a piece at a time, as jobs of
 * proto_work.c), and AUTH.  Anyone who can connect may send them (see
 * sudokud(8), SECURITY CONSIDERATIONS).  HELLO and STATS, which read
 * the verb table, are proto.c's.
 */
#include <sys/types.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <event2/buffer.h>

#include "auth.h"
#include "clients.h"
#include "config.h"
#include "proto.h"
#include "proto_int.h"
#include "slowlog.h"
#include "stats.h"

/* SLOWLOG GET without a count: as redis, the newest 10. */
#define ADMIN_SLOWLOG_GET	10

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
