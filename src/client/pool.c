/* SPDX-License-Identifier: ISC */
/*
 * pool.c -- the connections of a sudokuc batch to its servers.
 *
 * Connection i goes to server i % nserver, for good: every server keeps
 * its share of connections, and those of a server that went away come
 * back to it when it does, so that the load spreads again.  Connecting
 * never blocks: a connect in progress is polled like the rest, and one
 * that takes longer than the timeout fails.
 *
 * A connection to a server that has failed since it last answered is
 * asked a PING first, and takes requests only once PONG comes: a server
 * that accepts connections and never answers (stopped, wedged) holds no
 * request again after its first timeout, while a restarted daemon gets
 * its share again at once.  A server set aside for a wrong answer is
 * never connected to again.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "pool.h"

struct pool {
	struct endpoint	*servers;
	size_t		 nserver;
	struct peer	*peers;
	size_t		 npeer;
	size_t		 turn;		/* round robin over the peers */
	double		 timeout;
	struct output	*out;
	int		 verbose;
	int		 started;	/* a connection was up once */
};

struct pool *
pool_new(struct endpoint *servers, size_t nserver, size_t npeer,
    double timeout, struct output *out, int verbose)
{
	struct pool	*p;
	size_t		 i;

	if (npeer < nserver)
		npeer = nserver;
	p = xcalloc(1, sizeof *p);
	p->servers = servers;
	p->nserver = nserver;
	p->npeer = npeer;
	p->timeout = timeout;
	p->out = out;
	p->verbose = verbose;
	p->peers = xcalloc(npeer, sizeof *p->peers);
	for (i = 0; i < npeer; i++)
		peer_init(&p->peers[i], &servers[i % nserver]);
	return (p);
}

void
pool_free(struct pool *p)
{
	size_t	i;

	if (p == NULL)
		return;
	for (i = 0; i < p->npeer; i++)
		peer_free(&p->peers[i]);
	free(p->peers);
	free(p);
}

size_t
pool_size(const struct pool *p)
{
	return (p->npeer);
}

struct peer *
pool_peer(struct pool *p, size_t i)
{
	return (&p->peers[i]);
}

/*
 * A connect step ended with r (0 up, 1 in progress, -1 failed, -2 the
 * server refused for good: cause is its refusal, for the batch).
 */
static void
pool_step(struct pool *p, struct peer *w, int r, double now, char *cause)
{
	struct endpoint	*s = w->server;
	char		*why;

	if (r == 1)
		return;
	if (r == -2) {
		free(s->refusal);
		s->refusal = cause;
		return;
	}
	if (r == 0) {
		if (w->wasup && p->verbose)
			output_warnx(p->out, "%s: connected again", s->name);
		s->reconnects += w->wasup;
		p->started = w->wasup = 1;
		w->since = now;
		if (s->secret != NULL)
			peer_auth(w);
		if (s->why != NULL)
			peer_probe(w);
		return;
	}
	xasprintf(&why, "cannot connect to %s: %s", s->name, cause);
	free(cause);
	if (p->started && p->verbose && s->why == NULL)
		output_warnx(p->out, "%s; trying again", why);
	servers_failed(s, now, why, 0);
}

void
pool_connect(struct pool *p, double now)
{
	struct peer	*w;
	char		*cause;
	size_t		 i;
	int		 r;

	for (i = 0; i < p->npeer; i++) {
		w = &p->peers[i];
		if (w->state == PEER_CONNECTING &&
		    now - w->since >= p->timeout) {
			peer_close(w);
			pool_step(p, w, -1, now, xstrdup(strerror(ETIMEDOUT)));
		}
		if (w->state != PEER_DOWN || w->server->retry_at > now ||
		    w->server->setaside || w->server->refusal != NULL)
			continue;
		cause = NULL;
		w->since = now;
		r = peer_open(w, &cause);
		pool_step(p, w, r, now, cause);
	}
}

void
pool_opened(struct pool *p, struct peer *w, double now)
{
	char	*cause = NULL;
	int	 r;

	r = peer_opened(w, &cause);
	pool_step(p, w, r, now, cause);
}

/* Can w take a request? */
static int
pool_usable(const struct peer *w)
{
	return (w->state == PEER_UP && !w->wdead && !w->probing &&
	    !w->server->setaside && w->server->refusal == NULL);
}

struct peer *
pool_next(struct pool *p)
{
	struct peer	*w;
	size_t		 i;

	for (i = 0; i < p->npeer; i++) {
		w = &p->peers[p->turn++ % p->npeer];
		if (pool_usable(w))
			return (w);
	}
	return (NULL);
}

struct peer *
pool_first(struct pool *p)
{
	size_t	i;

	for (i = 0; i < p->npeer; i++)
		if (pool_usable(&p->peers[i]))
			return (&p->peers[i]);
	return (NULL);
}

struct peer *
pool_stalled(struct pool *p, double now)
{
	struct peer	*w;
	size_t		 i;

	for (i = 0; i < p->npeer; i++) {
		w = &p->peers[i];
		if (w->state == PEER_UP && (w->q.len > 0 || w->probing ||
		    w->authing) && now - w->since >= p->timeout)
			return (w);
	}
	return (NULL);
}

void
pool_lose(struct pool *p, struct peer *w, double now, char *why, int owed)
{
	(void)p;
	peer_close(w);
	w->server->losses++;
	servers_failed(w->server, now, why, owed);
}

struct endpoint *
pool_refused(struct pool *p, char **why)
{
	size_t	i;

	for (i = 0; i < p->nserver; i++)
		if (p->servers[i].refusal != NULL) {
			*why = p->servers[i].refusal;
			p->servers[i].refusal = NULL;
			p->servers[i].refused = 1;
			return (&p->servers[i]);
		}
	return (NULL);
}

size_t
pool_owed(const struct pool *p)
{
	size_t	i, n = 0;

	for (i = 0; i < p->npeer; i++)
		n += p->peers[i].q.len;
	return (n);
}

void
pool_events(const struct pool *p, struct pollfd *pfd)
{
	size_t	i;

	for (i = 0; i < p->npeer; i++) {
		pfd[i].fd = p->peers[i].fd;
		pfd[i].events = peer_events(&p->peers[i]);
		pfd[i].revents = 0;
	}
}

void
pool_setaside(struct pool *p, struct endpoint *s, char *why)
{
	size_t	i;

	for (i = 0; i < p->npeer; i++)
		if (p->peers[i].server == s && p->peers[i].state != PEER_DOWN) {
			peer_close(&p->peers[i]);
			s->losses++;
		}
	s->setaside = 1;
	free(s->why);		/* what it did is what matters now */
	s->why = why;
	s->whyowed = 1;
}

void
pool_heard(struct pool *p, struct peer *w, double now)
{
	(void)p;
	w->since = now;
}

void
pool_answered(struct pool *p, struct peer *w, double now)
{
	(void)p;
	w->since = now;
	if (w->probing)
		w->probing = 0;
	else
		w->server->answers++;
	if (w->server->delay != 0 || w->server->why != NULL)
		servers_answered(w->server);
}

int
pool_hopeless(const struct pool *p)
{
	size_t	i, aside = 0;

	for (i = 0; i < p->nserver; i++)
		aside += p->servers[i].setaside != 0;
	if (aside == p->nserver)
		return (1);
	if (p->started)
		return (0);
	for (i = 0; i < p->nserver; i++)
		if (p->servers[i].why == NULL)
			return (0);
	for (i = 0; i < p->npeer; i++)
		if (p->peers[i].state != PEER_DOWN)
			return (0);
	return (1);
}

int
pool_hopeful(const struct pool *p)
{
	const struct peer	*w;
	size_t			 i;

	for (i = 0; i < p->npeer; i++) {
		w = &p->peers[i];
		if (w->state == PEER_UP && w->q.len > 0 &&
		    w->server->why == NULL)
			return (1);
	}
	return (0);
}

double
pool_wait(const struct pool *p, double now, double max)
{
	const struct peer	*w;
	double			 due;
	size_t			 i;

	for (i = 0; i < p->npeer; i++) {
		w = &p->peers[i];
		if (w->state == PEER_DOWN)
			due = w->server->retry_at;
		else if (w->state == PEER_CONNECTING || (w->state == PEER_UP &&
		    (w->q.len > 0 || w->probing || w->authing)))
			due = w->since + p->timeout;
		else
			continue;
		if (due - now < max)
			max = due - now;
	}
	return (max < 0 ? 0 : max);
}

void
pool_why(const struct pool *p, double now)
{
	const struct endpoint	*s;
	const struct peer	*w;
	size_t			 i, j, owed;
	double			 silent;
	int			 hint = 0;

	for (i = 0; i < p->nserver; i++) {
		s = &p->servers[i];
		owed = 0;
		silent = 0;
		for (j = i; j < p->npeer; j += p->nserver) {
			w = &p->peers[j];
			if (w->state != PEER_UP || w->q.len == 0)
				continue;
			owed += w->q.len;
			if (now - w->since > silent)
				silent = now - w->since;
		}
		if (s->setaside)
			continue;	/* said when it was set aside */
		if (s->why != NULL)
			output_warnx(p->out, "%s", s->why);
		else if (owed > 0)
			output_warnx(p->out, "%s: no reply for %.0f s with %zu "
			    "request%s unanswered", s->name, silent, owed,
			    owed == 1 ? "" : "s");
		hint |= s->why != NULL && s->unreached;
	}
	/* Only before any connection was up: then the place may be wrong. */
	if (hint && !p->started)
		output_warnx(p->out, "is sudokud running? -s PATH, -H "
		    "HOST[:PORT] or SUDOKUD_SERVERS say where it listens; "
		    "-L solves without a daemon");
}

void
pool_summary(const struct pool *p)
{
	const struct endpoint	*s;
	size_t			 i;

	for (i = 0; i < p->nserver; i++) {
		s = &p->servers[i];
		output_warnx(p->out, "%s: %lu answer%s, %lu connection%s lost, "
		    "%lu reconnect%s%s", s->name, s->answers,
		    s->answers == 1 ? "" : "s", s->losses,
		    s->losses == 1 ? "" : "s", s->reconnects,
		    s->reconnects == 1 ? "" : "s",
		    !s->setaside ? "" : s->refused ? ", set aside: it refused" :
		    ", set aside for a wrong answer");
	}
}
