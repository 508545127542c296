/* SPDX-License-Identifier: ISC */
/*
 * conn_admit.c -- how a connection starts, and who may hold one: its
 * PROXY header, its TLS handshake (conn_tls.c makes the steps), ERR
 * busy's words, the per-peer limit of a client a PROXY header names,
 * and a client gone while its work is under way.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "admit.h"
#include "allow.h"
#include "common/log.h"
#include "config.h"
#include "conn_int.h"
#include "conn_set.h"
#include "proto.h"
#include "remote.h"
#include "stats.h"
#include "tls.h"
#include "walltime.h"

void
conn_refuse(struct conn *c, const char *code, const char *text)
{
	/* HTTPS before its handshake: nothing to say in the clear. */
	if (c->http != NULL && c->tls && c->ssl == NULL)
		return;
	if (c->http != NULL)
		conn_http_refuse(c, code, text);
	else
		evbuffer_add_printf(c->out, "ERR %s %s\n", code, text);
}

void
conn_busy_text(const struct config *cf, int peer, char *buf, size_t size)
{
	if (peer)
		snprintf(buf, size, "too many connections from this client "
		    "(max_connections_per_peer %d), try later",
		    cf->max_connections_per_peer);
	else
		snprintf(buf, size, "too many connections (max %d), try "
		    "later", cf->max_connections);
}

/*
 * The client a PROXY header named counted against the per-peer limit;
 * -1 (its ERR busy made) if it has as many open as it may.
 */
int
conn_admit_peer(struct conn *c, const struct remote_addr *who)
{
	struct conn_set	*set = c->set;
	char		 text[256];

	if (admit_peer(set->env->admit, who,
	    (unsigned int)conn_cf(c)->max_connections_per_peer) == 0) {
		c->counted = *who;
		return (0);
	}
	conn_busy_text(conn_cf(c), 1, text, sizeof text);
	conn_refuse(c, "busy", text);
	stats_add(set->env->st, STAT_ERR_BUSY, 1);
	stats_add(set->env->st, STAT_REJECTED_CONNECTIONS, 1);
	return (-1);
}

/*
 * Before a slice: has a Unix socket's client gone (POLLHUP, both ends
 * shut)?  Its work is dropped then, not run to the end of its budget;
 * one that only shut its sending side (nc -N) still wants its replies.
 */
int
conn_gone(struct conn *c)
{
	struct pollfd	pfd = { .fd = c->fd, .events = POLLRDHUP, .revents = 0 };

	if (poll(&pfd, 1, 0) != 1)
		return (0);
	/* TCP: a FIN, of a full close or a half one (max_half_closed). */
	if (c->card.peer.family != AF_UNIX) {
		c->fin = (pfd.revents & (POLLRDHUP | POLLHUP)) != 0;
		return (0);
	}
	if (!(pfd.revents & POLLHUP))
		return (0);
	log_debug("fd %d%s: the client has gone: its work is dropped",
	    c->fd, CONN_PEER(c));
	stats_add(c->set->env->st, STAT_GONE_KICKS, 1);
	return (1);
}

/*
 * The PROXY header, once it has all come (remote.c): taken (then IDLE),
 * or more is needed; a bad one is answered with one ERR line saying
 * why (a client that came straight to this listener learns where to
 * go), then the connection closes.
 */
void
conn_proxy(struct conn *c)
{
	struct remote_addr	 client = { 0 };
	const char		*why;
	int			 r;

	r = remote_proxy(&c->fr, c->eof, c->fd, &c->peer, &client,
	    c->set->env->st, &why);
	if (r == 0)
		return;
	if (r == 1 && conn_admit_peer(c, client.family != 0 ? &client :
	    &c->card.peer) == -1)
		r = -2;
	if (r < 0) {
		if (r == -1) {
			stats_add(c->set->env->st, STAT_ERR_SYNTAX, 1);
			conn_refuse(c, "syntax", why);
		}
		c->quit = 1;
		frame_clear(&c->fr);
	} else if (client.family != 0)
		clients_client(c->set->env->clients, &c->card, &client);
	c->state = CONN_IDLE;
	if (r == 1 && c->tls && conn_tls_start(c) == 0)
		c->state = CONN_HANDSHAKE;
	else if (r == 1 && c->tls)
		c->quit = 1;
	c->started = c->state != CONN_HANDSHAKE;
}

/*
 * A step of the TLS handshake: done (then IDLE, and what came with it is
 * read), waiting, or failed (-1: close).
 */
int
conn_handshake(struct conn *c)
{
	char	subject[256], text[320];
	int	r;

	if ((r = conn_tls_step(c)) <= 0)
		return (r);
	tls_subject(c->ssl, subject, sizeof subject);
	if (subject[0] != '\0')
		clients_cert(c->set->env->clients, &c->card, subject);
	if (conn_cf(c)->tls_allow != NULL &&
	    !tls_allowed(c->ssl, conn_cf(c)->tls_allow)) {
		snprintf(text, sizeof text, "certificate %s is not allowed "
		    "here (allow_names)", subject[0] != '\0' ? subject :
		    "(none)");
		conn_refuse(c, "noauth", text);
		stats_add(c->set->env->st, STAT_ERR_NOAUTH, 1);
		c->quit = 1;
	}
	conn_writing(c, 0);
	c->state = CONN_IDLE;
	c->started = 1;
	c->m.quiet = deadline_now();
	return (1);
}

size_t
conn_admit_reply(int how, const char *code, const char *text, char *buf,
    size_t size)
{
	struct evbuffer	*b;
	size_t		 n;
	int		 len;

	if (!(how & CONN_SET_HTTP)) {
		len = snprintf(buf, size, "ERR %s %s\n", code, text);
		return (len < 0 ? 0 : (size_t)len < size ? (size_t)len :
		    size - 1);
	}
	if ((how & CONN_SET_TLS) || (b = evbuffer_new()) == NULL)
		return (0);
	conn_http_refusal(b, code, text);
	n = (size_t)evbuffer_remove(b, buf, size);
	evbuffer_free(b);
	return (n);
}

int
conn_admit_unix(struct conn_set *set, int fd, int how)
{
	const struct config	*cf = set->env->cf;
	char			 buf[1024], text[128];
	uint32_t		 uid = 0;
	size_t			 len;

	if (allow_peer(&cf->allow_users, &cf->allow_groups, fd, &uid))
		return (0);
	snprintf(text, sizeof text, "user %u may not connect to this socket "
	    "(allow_users, allow_groups)", uid);
	len = conn_admit_reply(how, "noauth", text, buf, sizeof buf);
	if (send(fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT) == -1)
		log_debug("noauth reply: %s", strerror(errno));
	stats_add(set->env->st, STAT_ERR_NOAUTH, 1);
	stats_add(set->env->st, STAT_REJECTED_CONNECTIONS, 1);
	if (wall_due(&set->allow_warned, 60))
		log_warnx("unix: uid %u refused: not in allow_users or "
		    "allow_groups (logged once a minute)", uid);
	(void)recv(fd, buf, sizeof buf, MSG_DONTWAIT);
	close(fd);
	return (-1);
}

int
conn_half(struct conn *c, int work)
{
	struct conn_set	*set = c->set;
	int		 want;

	want = c->card.peer.family != AF_UNIX && (c->eof || c->fin) &&
	    !c->quit && !c->stop && work;
	if (want == (int)c->half)
		return (0);
	if (!want) {
		admit_half_close(set->env->admit);
		c->half = 0;
		return (0);
	}
	if (admit_half(set->env->admit,
	    (unsigned int)conn_cf(c)->max_half_closed) == 0) {
		c->half = 1;
		return (0);
	}
	stats_add(set->env->st, STAT_GONE_KICKS, 1);
	if (wall_due(&set->half_warned, 60))
		log_warnx("fd %d%s: ended its sending side with work left, "
		    "one of more than max_half_closed (%d): dropped (logged "
		    "once a minute)", c->fd, CONN_PEER(c),
		    conn_cf(c)->max_half_closed);
	return (-1);
}

/*
 * The first bytes of a connection from a plain listener, all of them so
 * far (proto_first()): served from now on, refused, or to be looked at
 * again with more.
 */
void
conn_first(struct conn *c)
{
	const char	*p;
	size_t		 len;

	p = frame_data(&c->fr, &len);
	switch (proto_first(c->set->env, c->out, p, len, c->eof)) {
	case PROTO_MORE:
		return;
	case PROTO_CLOSE:
		c->quit = 1;
		frame_clear(&c->fr);
		break;
	case PROTO_OK:
		break;
	}
	c->started = 1;
}
