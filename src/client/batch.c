/*
 * batch.c -- sudokuc's batch over connections to sudokud.
 *
 * One poll(2) loop writes requests, reads replies and reads the input,
 * all non-blocking.  A ring holds the items in input order: requests
 * sent and not yet answered, answers that came before their turn, and
 * malformed puzzles waiting for the answers before them.  New items are
 * taken only while the ring holds fewer than the window, so the
 * unanswered requests (and thus the bytes queued either way) stay
 * bounded and neither side can block the other.
 *
 * Puzzles go to the connections in turn.  Each connection answers in
 * the order it was asked, so it keeps a queue of its ring slots, linked
 * through next[]: a reply belongs to the oldest slot of its connection.
 * A reply for the item at the head of the ring is printed at once; one
 * for a later item is kept until the items before it are done.  A meta
 * request (ping, stats, version) is sent alone, once everything before
 * it is done and before anything after it is taken, so its reply, which
 * may take several lines, is always for the head.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "batch.h"

/* poll(2) timeout while waiting, so the progress line moves. */
#define BATCH_POLL_MS	250

struct batch {
	const char		*peer;
	const struct query	*query;
	struct output		*out;

	struct item		*ring;
	char			**reply;	/* answers before their turn */
	size_t			*next;		/* a connection's next slot */
	size_t			 window;
	size_t			 head;
	size_t			 count;

	struct peer		*conns;
	size_t			 nconn;
	size_t			 seq;		/* puzzles sent */
	int			 meta;		/* a meta item is in the ring */
	int			 metasent;
};

/* Sends the request for the item in slot, on the connection it goes to. */
static void
batch_send(struct batch *c, size_t slot)
{
	struct item	*it = &c->ring[slot];
	struct peer	*cn;

	if (it->kind == ITEM_META) {
		cn = &c->conns[0];
		c->metasent = 1;
	} else
		cn = &c->conns[c->seq++ % c->nconn];
	peer_request(cn, it, c->query);
	if (cn->qlen == 0)
		cn->qhead = slot;
	else
		c->next[cn->qtail] = slot;
	cn->qtail = slot;
	cn->qlen++;
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

/* One reply line from cn, for its oldest request; -1 to stop. */
static int
batch_reply(void *arg, struct peer *cn, char *line)
{
	struct batch	*c = arg;
	struct item	*it;
	size_t		 slot;
	int		 r;

	if (cn->qlen == 0) {
		output_warnx(c->out, "%s: unexpected reply: %.100s", c->peer,
		    line);
		return (-1);
	}
	slot = cn->qhead;
	it = &c->ring[slot];
	if (slot != c->head) {
		/* Not its turn yet (never a meta item: sent alone). */
		c->reply[slot] = xstrdup(line);
		r = 1;
	} else if (it->kind == ITEM_META && it->meta == META_STATS)
		r = output_stat(c->out, line);
	else
		r = output_item(c->out, it, line) == -1 ? -1 : 1;
	if (r != 1)
		return (r);
	cn->qhead = c->next[slot];
	cn->qlen--;
	if (slot != c->head)
		return (0);
	batch_pop(c);
	return (batch_drain(c));
}

/*
 * Requests sent and not answered, on all the connections: each
 * connection's are the ring slots of its queue.
 */
static size_t
batch_unanswered(const struct batch *c)
{
	size_t	i, n = 0;

	for (i = 0; i < c->nconn; i++)
		n += c->conns[i].qlen;
	return (n);
}

/*
 * The connection is gone: say how, and how many requests got no answer.
 * A server that stops gracefully answers what it read, then closes.
 */
static void
batch_lost(struct batch *c, enum peer_status s, int error)
{
	size_t		 n = batch_unanswered(c);
	const char	*plural = n == 1 ? "" : "s";

	if (s == PEER_EOF && n == 0)
		output_warnx(c->out, "%s: the server closed the connection "
		    "before the end of the input (it may be shutting down)",
		    c->peer);
	else if (s == PEER_EOF)
		output_warnx(c->out, "%s: the server closed the connection "
		    "with %zu request%s unanswered (it may be shutting down)",
		    c->peer, n, plural);
	else if (error == ECONNRESET)
		output_warnx(c->out, "%s: connection reset by the server "
		    "with %zu request%s unanswered", c->peer, n, plural);
	else
		output_warnx(c->out, "%s: reading from the server: %s, with "
		    "%zu request%s unanswered", c->peer, strerror(error), n,
		    plural);
}

/* Reads what the server sent on cn; -1 to stop. */
static int
batch_read(struct batch *c, struct peer *cn)
{
	enum peer_status	s;

	switch (s = peer_read(cn, batch_reply, c)) {
	case PEER_OK:
		return (0);
	case PEER_STOP:
		return (-1);
	case PEER_TOOLONG:
		output_warnx(c->out, "%s: reply line too long", c->peer);
		return (-1);
	default:
		batch_lost(c, s, errno);
		return (-1);
	}
}

/* Waits for the sockets and the input; flushes stdout before blocking. */
static size_t
batch_poll(struct batch *c, struct input *in, int wantinput,
    struct pollfd *pfd)
{
	struct peer	*cn;
	size_t		 i, n = c->nconn;
	int		 r;

	for (i = 0; i < c->nconn; i++) {
		cn = &c->conns[i];
		pfd[i].fd = cn->fd;
		pfd[i].events = cn->qlen > 0 ? POLLIN : 0;
		if (peer_pending(cn))
			pfd[i].events |= POLLOUT;
		pfd[i].revents = 0;
	}
	pfd[n].revents = 0;
	if (wantinput && input_fd(in) != -1) {
		pfd[n].fd = input_fd(in);
		pfd[n].events = POLLIN;
		n++;
	}
	if ((r = poll(pfd, n, 0)) == 0) {
		fflush(stdout);
		r = poll(pfd, n, BATCH_POLL_MS);
	}
	if (r == -1 && errno != EINTR)
		fatal("poll");
	return (n);
}

static int
batch_loop(struct batch *c, struct input *in)
{
	struct pollfd	 pfd[BATCH_CONN_MAX + 1];
	struct peer	*cn;
	size_t		 i, n;
	int		 state;

	for (;;) {
		if ((state = batch_fill(c, in)) == -1 && c->count == 0)
			return (0);
		n = batch_poll(c, in, state == 1, pfd);
		for (i = 0; i < c->nconn; i++) {
			cn = &c->conns[i];
			if (pfd[i].revents & POLLOUT)
				peer_write(cn);
			/* A hangup with nothing asked is read too: EOF. */
			if (pfd[i].revents & (POLLIN | POLLHUP | POLLERR) &&
			    batch_read(c, cn) == -1)
				return (-1);
		}
		if (n > c->nconn && pfd[c->nconn].revents != 0)
			input_read(in);
		output_tick(c->out);
	}
}

int
batch_run(const int *fds, size_t nfd, const char *peer, struct input *in,
    const struct query *q, struct output *out, size_t window)
{
	struct batch	c;
	size_t		i;
	int		r;

	if (nfd == 0 || nfd > BATCH_CONN_MAX)
		fatalx("batch_run: %zu connections", nfd);
	memset(&c, 0, sizeof c);
	c.peer = peer;
	c.query = q;
	c.out = out;
	c.window = window;
	c.nconn = nfd;
	c.ring = xcalloc(window, sizeof *c.ring);
	c.reply = xcalloc(window, sizeof *c.reply);
	c.next = xcalloc(window, sizeof *c.next);
	c.conns = xcalloc(nfd, sizeof *c.conns);
	/* Puzzles in the ring are consecutive: each gets its share. */
	for (i = 0; i < nfd; i++)
		peer_init(&c.conns[i], fds[i], (window + nfd - 1) / nfd + 1);
	r = batch_loop(&c, in);
	for (i = 0; i < window; i++)
		free(c.reply[i]);
	for (i = 0; i < nfd; i++)
		peer_free(&c.conns[i]);
	free(c.conns);
	free(c.next);
	free(c.reply);
	free(c.ring);
	return (r);
}
