/* SPDX-License-Identifier: ISC */
/*
 * batch.c -- sudokuc's batch over connections to sudokud servers.
 *
 * One poll(2) loop connects, writes requests, reads replies and reads
 * the input, all non-blocking.  A ring holds the items in input order:
 * requests sent and not yet answered, answers that came before their
 * turn, and malformed puzzles waiting for the answers before them.  New
 * items are taken only while the ring holds fewer than the window, so
 * the unanswered requests (and thus the bytes queued either way) stay
 * bounded and neither side can block the other.
 *
 * Puzzles go to the connections up, in turn.  Each connection answers
 * in the order it was asked, so it keeps a queue of its ring slots,
 * linked through next[]: a reply belongs to the oldest slot of its
 * connection.  A reply for the item at the head of the ring is printed
 * at once; one for a later item is kept until the items before it are
 * done.  A meta request (ping, stats, version) is sent alone, once
 * everything before it is done and before anything after it is taken,
 * so its reply is always for the head.  A reply of several lines (STATS,
 * PATH, SOLUTIONS) is gathered on its connection up to its END (or
 * SOLUTIONS' ERR after its solutions), then taken whole:
 * a connection lost midway leaves nothing printed, and it goes again.
 * Each of its lines ends a silence: a list streaming for longer than
 * the timeout is not a server gone quiet.
 *
 * No request is lost with a connection.  Every request is a pure
 * function of its line (doc/protocol.md), so when a connection fails
 * (reset, end of stream, silence past the timeout, ERR busy), the slots
 * of its queue move to the wait queue, also linked through next[], and
 * go out again on the connections up; those of a connection that is
 * down wait there.  The batch gives up only when no reply has come for
 * the timeout while requests were waiting for one, none of them on a
 * server that has not failed since it last answered, or when no server
 * can be reached at all at the start.
 *
 * No wrong answer is printed.  Every reply is checked first (check.c);
 * a server that answers something sudokud could not have answered (a
 * grid that is no solution, a count over the limit, a reply to nothing
 * asked, a line too long) is set aside for the rest of the batch, with
 * a warning naming it and why: every connection to it is closed, their
 * requests go to the other servers, and the exit status says so.  With
 * no server left, the batch stops.  A server that refuses sudokuc (AUTH
 * refused, a TLS handshake that fails) is set aside the same way.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/echo.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "batch.h"
#include "check.h"
#include "pool.h"

/* poll(2) timeout while waiting, so the progress line moves. */
#define BATCH_POLL_MS	250

struct batch {
	const struct query	*query;
	struct output		*out;
	struct pool		*pool;
	double			 timeout;
	int			 verbose;
	double			 now;		/* this turn of the loop */
	double			 progress;	/* last reply, or nothing owed */

	struct item		*ring;
	char			**reply;	/* answers before their turn */
	const char		**from;		/* the server of each answer */
	size_t			*next;		/* the next slot of a queue */
	size_t			 window;
	size_t			 head;
	size_t			 count;

	struct slotq		 wait;		/* requests not on a connection */
	unsigned long		 resent;
	int			 meta;		/* a meta item is in the ring */
	int			 metasent;
	char			*busy;		/* an ERR busy reply's text */
	char			*wrong;		/* why a server is set aside */
	char			 quote[ECHO_SIZE(100)];	/* a reply in it */
};

static void
batch_push(struct batch *c, struct slotq *q, size_t slot)
{
	if (q->len == 0)
		q->head = slot;
	else
		c->next[q->tail] = slot;
	q->tail = slot;
	q->len++;
}

static size_t
batch_shift(struct batch *c, struct slotq *q)
{
	size_t	slot = q->head;

	q->head = c->next[slot];
	q->len--;
	return (slot);
}

/* Sends the request for the item in slot on w. */
static void
batch_put(struct batch *c, struct peer *w, size_t slot)
{
	struct item	*it = &c->ring[slot];

	if (it->kind == ITEM_META)
		c->metasent = 1;
	peer_request(w, it, c->query);
	if (w->q.len == 0)
		w->since = c->now;	/* the reply timeout starts */
	batch_push(c, &w->q, slot);
}

/* The connection the item in slot goes to, or NULL if none is up. */
static struct peer *
batch_peer(struct batch *c, size_t slot)
{
	if (c->ring[slot].kind == ITEM_META)
		return (pool_first(c->pool));
	return (pool_next(c->pool));
}

/* Sends the request for slot, or queues it until a connection is up. */
static void
batch_send(struct batch *c, size_t slot)
{
	struct peer	*w;

	if (c->wait.len == 0 && (w = batch_peer(c, slot)) != NULL)
		batch_put(c, w, slot);
	else
		batch_push(c, &c->wait, slot);
}

/* Sends what waits, oldest first, while connections are up. */
static void
batch_pump(struct batch *c)
{
	struct peer	*w;

	while (c->wait.len > 0 &&
	    (w = batch_peer(c, c->wait.head)) != NULL)
		batch_put(c, w, batch_shift(c, &c->wait));
}

/* Removes the item at the head of the ring. */
static void
batch_pop(struct batch *c)
{
	if (c->ring[c->head].kind == ITEM_META)
		c->meta = c->metasent = 0;
	free(c->reply[c->head]);
	c->reply[c->head] = NULL;
	c->head = (c->head + 1) % c->window;
	c->count--;
}

/* Hands the items at the head that have their answer to output. */
static int
batch_drain(struct batch *c)
{
	struct item	*it;

	while (c->count > 0) {
		it = &c->ring[c->head];
		if (it->kind == ITEM_META ||
		    (it->kind == ITEM_PUZZLE && c->reply[c->head] == NULL))
			break;
		output_peer(c->out, c->from[c->head]);
		if (output_item(c->out, it, c->reply[c->head]) == -1)
			return (-1);
		batch_pop(c);
	}
	if (c->meta && !c->metasent && c->count == 1)
		batch_send(c, c->head);
	return (0);
}

/* Takes items while the window allows: 1 if input needs reading, -1 done. */
static int
batch_fill(struct batch *c, struct input *in)
{
	struct item	*it;
	size_t		 slot;
	int		 r;

	while (c->count < c->window && !c->meta) {
		slot = (c->head + c->count) % c->window;
		it = &c->ring[slot];
		if ((r = input_next(in, it)) != 1)
			return (r == 0 ? 1 : -1);
		c->count++;
		if (it->kind == ITEM_META)
			c->meta = 1;
		if (it->kind == ITEM_PUZZLE)
			batch_send(c, slot);
		else
			batch_drain(c);	/* cannot fail: no reply */
	}
	return (0);
}

/* The reply for the oldest request of w, printed or kept; -1 to stop. */
static int
batch_answer(struct batch *c, struct peer *w, char *line)
{
	struct item	*it;
	size_t		 slot = w->q.head;

	it = &c->ring[slot];
	output_peer(c->out, w->server->name);
	if (slot != c->head) {
		/* Not its turn yet (never a meta item: sent alone). */
		c->reply[slot] = xstrdup(line);
		c->from[slot] = w->server->name;
	} else if (output_item(c->out, it, line) == -1)
		return (-1);
	batch_shift(c, &w->q);
	if (slot != c->head)
		return (0);
	batch_pop(c);
	return (batch_drain(c));
}

/*
 * Is line an answer sudokud could give to the oldest request of w?  If
 * not, c->wrong says why, naming the server and the request.  more: it
 * is a line of a reply of several still coming, which may not have more
 * lines than its request can get: each ends a silence (pool_heard()),
 * so a server could keep the batch waiting by trickling lines.
 */
static int
batch_check(struct batch *c, struct peer *w, const char *line, int more)
{
	struct item	*it = &c->ring[w->q.head];
	char		 why[CHECK_WHYLEN], where[ITEM_MSGLEN];
	size_t		 most = item_block_lines(it, c->query);
	size_t		 len = strcspn(line, "\n");

	if (more && w->blines > most)
		snprintf(why, sizeof why, "a reply of more than %zu lines",
		    most);
	else if (more || check_answer(c->query, it, line, why,
	    sizeof why) == 0)
		return (0);
	output_where(c->out, it, where, sizeof where);
	xasprintf(&c->wrong, "%s: wrong answer to %s: %s: %s",
	    w->server->name, where, why,
	    echo_show(line, len < 100 ? len : 100, c->quote, sizeof c->quote));
	return (-1);
}

/*
 * One reply line from w: -1 to stop (c->busy set: to lose w only;
 * c->wrong set: to set its server aside).
 */
static int
batch_reply(void *arg, struct peer *w, char *line)
{
	struct batch	*c = arg;
	int		 r;

	/* Refused at accept, before any request was read: try later. */
	if (strncmp(line, "ERR busy", 8) == 0 &&
	    (line[8] == ' ' || line[8] == '\0')) {
		line += 8 + (line[8] == ' ');
		c->busy = echo_text(line, strlen(line));
		return (-1);
	}
	if (w->probing && strcmp(line, "PONG") == 0) {
		pool_answered(c->pool, w, c->now);
		return (0);
	}
	if (w->q.len == 0 || w->probing) {
		xasprintf(&c->wrong, "%s: a reply to nothing asked: %s",
		    w->server->name, echo_show(line, strnlen(line, 100),
		    c->quote, sizeof c->quote));
		return (-1);
	}
	/* Several lines (STATS, PATH): whole before anything is printed. */
	if (item_block(&c->ring[w->q.head], c->query) &&
	    (r = peer_gather(w, &line)) != 1) {
		if (r == 0 && batch_check(c, w, line, 1) == -1)
			return (-1);
		if (r == -1)
			xasprintf(&c->wrong, "%s: a reply longer than %d "
			    "bytes", w->server->name, PEER_BLOCK_MAX);
		else {
			pool_heard(c->pool, w, c->now);
			c->progress = c->now;
		}
		return (r);
	}
	if (batch_check(c, w, line, 0) == -1)
		return (-1);
	pool_answered(c->pool, w, c->now);
	c->progress = c->now;
	return (batch_answer(c, w, line));
}

/* Requests sent or to send, not answered yet. */
static size_t
batch_owed(const struct batch *c)
{
	return (c->wait.len + pool_owed(c->pool));
}

/* How the connection w was lost, in words. */
static char *
batch_why(struct batch *c, struct peer *w, enum peer_status s, int error)
{
	char	*why;

	if (c->wrong != NULL) {
		why = c->wrong;
		c->wrong = NULL;
	} else if (c->busy != NULL)
		xasprintf(&why, "%s: server busy: %s", w->server->name,
		    c->busy);
	else
		why = peer_lost(w, w->server->name, s, error, c->now);
	free(c->busy);
	c->busy = NULL;
	return (why);
}

/* The requests of w wait for another connection. */
static size_t
batch_requeue(struct batch *c, struct peer *w)
{
	size_t	 n = w->q.len;

	while (w->q.len > 0)
		batch_push(c, &c->wait, batch_shift(c, &w->q));
	c->resent += n;
	return (n);
}

/*
 * The server s answered wrong, or refused us (why): every connection to
 * it closed, their requests to the others, and it is never used again.
 */
static void
batch_setaside(struct batch *c, struct endpoint *s, char *why)
{
	struct peer	*v;
	size_t		 i, n = 0;

	for (i = 0; i < pool_size(c->pool); i++) {
		v = pool_peer(c->pool, i);
		if (v->server == s && v->state != PEER_DOWN)
			n += batch_requeue(c, v);
	}
	pool_setaside(c->pool, s, why);
	output_setaside(c->out);
	output_warnx(c->out, "%s; setting this server aside%s", why,
	    pool_hopeless(c->pool) ? "; no other server is left" : n == 0 ?
	    "" : n == 1 ? ", its request goes to the others" :
	    ", its requests go to the others");
}

/* w is lost: its requests wait for another connection. */
static void
batch_lose(struct batch *c, struct peer *w, enum peer_status s, int error)
{
	int	 wrong = c->wrong != NULL;
	char	*why = batch_why(c, w, s, error);
	size_t	 n;

	if (wrong) {
		batch_setaside(c, w->server, why);
		return;
	}
	n = batch_requeue(c, w);
	if (c->verbose)
		output_warnx(c->out, "%s; %s", why, n == 0 ? "connecting "
		    "again" : n == 1 ? "sending it again" : "sending them "
		    "again");
	pool_lose(c->pool, w, c->now, why, n > 0);
}

/* Reads what the server sent on w; -1 to stop. */
static int
batch_read(struct batch *c, struct peer *w)
{
	enum peer_status	s;

	switch (s = peer_read(w, batch_reply, c)) {
	case PEER_OK:
		return (0);
	case PEER_STOP:
		if (c->busy == NULL && c->wrong == NULL)
			return (-1);
		/* FALLTHROUGH */
	case PEER_EOF:
	case PEER_ERROR:
		batch_lose(c, w, s, errno);
		return (0);
	case PEER_REFUSED:
		c->wrong = w->refusal;
		w->refusal = NULL;
		w->server->refused = 1;
		batch_lose(c, w, s, 0);
		return (0);
	default:
		xasprintf(&c->wrong, "%s: a reply line longer than %d bytes",
		    w->server->name, PEER_LINE_MAX);
		batch_lose(c, w, s, 0);
		return (0);
	}
}

/* No server answered for the timeout: say what was left, and stop. */
static int
batch_giveup(struct batch *c)
{
	char	where[ITEM_MSGLEN];
	size_t	n = batch_owed(c);

	pool_why(c->pool, c->now);
	output_where(c->out, &c->ring[c->head], where, sizeof where);
	output_warnx(c->out, "no server answered for %.0f s: giving up with "
	    "%zu request%s unanswered; the answers stop before %s",
	    c->timeout, n, n == 1 ? "" : "s", where);
	return (-1);
}

/* How long poll(2) may wait, in ms: what is due first, at most 250 ms. */
static int
batch_timeout(const struct batch *c)
{
	double	wait = pool_wait(c->pool, c->now, BATCH_POLL_MS / 1e3);

	if (batch_owed(c) > 0 &&
	    c->progress + c->timeout - c->now < wait)
		wait = c->progress + c->timeout - c->now;
	return (wait <= 0 ? 0 : (int)(wait * 1e3) + 1);
}

/* Waits for the sockets and the input; flushes stdout before blocking. */
static size_t
batch_poll(struct batch *c, struct input *in, int wantinput,
    struct pollfd *pfd)
{
	size_t		 n = pool_size(c->pool);
	int		 r;

	pool_events(c->pool, pfd);
	pfd[n].revents = 0;
	if (wantinput && input_fd(in) != -1) {
		pfd[n].fd = input_fd(in);
		pfd[n].events = POLLIN;
		n++;
	}
	if ((r = poll(pfd, n, 0)) == 0) {
		fflush(stdout);
		r = poll(pfd, n, batch_timeout(c));
	}
	if (r == -1 && errno != EINTR)
		fatal("poll");
	return (n);
}

/* What poll(2) said of the connections; -1 to stop. */
static int
batch_events(struct batch *c, const struct pollfd *pfd)
{
	struct peer	*w;
	size_t		 i;

	for (i = 0; i < pool_size(c->pool); i++) {
		w = pool_peer(c->pool, i);
		if (pfd[i].revents == 0 || pfd[i].fd != w->fd)
			continue;
		if (w->state == PEER_CONNECTING) {
			pool_opened(c->pool, w, c->now);
			continue;
		}
		if (pfd[i].revents & POLLOUT)
			peer_write(w);
		/* A hangup with nothing asked is read too: EOF. */
		if (pfd[i].revents & (POLLIN | POLLHUP | POLLERR) &&
		    batch_read(c, w) == -1)
			return (-1);
	}
	return (0);
}

/*
 * The deadlines: connections silent too long, and the batch's own: no
 * reply for the timeout while requests waited, and none of them on a
 * connection to a server that has not failed since it last answered
 * (requests just sent again to a sound server get their chance).
 */
static int
batch_deadlines(struct batch *c)
{
	struct peer	*w;

	if (batch_owed(c) == 0)
		c->progress = c->now;
	else if (c->now - c->progress >= c->timeout &&
	    !pool_hopeful(c->pool))
		return (batch_giveup(c));
	while ((w = pool_stalled(c->pool, c->now)) != NULL)
		batch_lose(c, w, PEER_OK, 0);
	return (0);
}

static int
batch_loop(struct batch *c, struct input *in)
{
	struct pollfd	 pfd[BATCH_CONN_MAX + 1];
	struct endpoint	*s;
	char		*why;
	size_t		 n;
	int		 state;

	c->progress = item_clock();
	for (;;) {
		c->now = item_clock();
		pool_connect(c->pool, c->now);
		while ((s = pool_refused(c->pool, &why)) != NULL)
			batch_setaside(c, s, why);
		if (pool_hopeless(c->pool)) {
			pool_why(c->pool, c->now);
			return (-1);
		}
		batch_pump(c);
		if ((state = batch_fill(c, in)) == -1 && c->count == 0)
			return (0);
		if (batch_deadlines(c) == -1)
			return (-1);
		n = batch_poll(c, in, state == 1, pfd);
		c->now = item_clock();
		if (batch_events(c, pfd) == -1)
			return (-1);
		if (n > pool_size(c->pool) &&
		    pfd[pool_size(c->pool)].revents != 0)
			input_read(in);
		output_tick(c->out);
	}
}

int
batch_run(struct endpoint *servers, size_t nserver, size_t nconn,
    struct input *in, const struct query *q, struct output *out,
    const struct batch_opts *bo)
{
	struct batch	c;
	size_t		i;
	int		r;

	if (nserver == 0 || nconn > BATCH_CONN_MAX || nserver > nconn)
		fatalx("batch_run: %zu servers, %zu connections", nserver,
		    nconn);
	memset(&c, 0, sizeof c);
	c.query = q;
	c.out = out;
	c.timeout = bo->timeout;
	c.verbose = bo->verbose;
	c.window = bo->window;
	c.ring = xcalloc(c.window, sizeof *c.ring);
	c.reply = xcalloc(c.window, sizeof *c.reply);
	c.from = xcalloc(c.window, sizeof *c.from);
	c.next = xcalloc(c.window, sizeof *c.next);
	c.pool = pool_new(servers, nserver, nconn, c.timeout, out,
	    c.verbose);
	r = batch_loop(&c, in);
	if (c.verbose && r == 0)
		pool_summary(c.pool);
	if (c.verbose && c.resent > 0)
		output_warnx(out, "%lu request%s sent again", c.resent,
		    c.resent == 1 ? "" : "s");
	for (i = 0; i < c.window; i++)
		free(c.reply[i]);
	free(c.busy);
	free(c.wrong);
	pool_free(c.pool);
	free(c.next);
	free(c.from);
	free(c.reply);
	free(c.ring);
	return (r);
}
