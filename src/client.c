/*
 * client.c -- sudokuc's connection to sudokud: connect, then pipeline.
 *
 * One poll(2) loop writes requests, reads replies and reads the input,
 * all non-blocking.  A ring holds the items in input order: requests
 * sent and not yet answered, and malformed puzzles waiting for the
 * answers before them.  New items are taken only while the ring holds
 * fewer than the window, so the unanswered requests (and thus the bytes
 * queued either way) stay bounded and neither side can block the other.
 */
#include <sys/socket.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client.h"

/* Replies are short lines; a longer one means the peer is not sudokud. */
#define CLIENT_LINE_MAX	8192
/* Longest request: "COUNT <81 cells> <limit>\n". */
#define CLIENT_REQ_MAX	(6 + SUDOKU_CELLS + 1 + 20 + 1)
/* poll(2) timeout while waiting, so the progress line moves. */
#define CLIENT_POLL_MS	250

struct client {
	int			 fd;
	const char		*peer;
	const struct query	*query;
	struct output		*out;

	struct item		*ring;
	size_t			 window;
	size_t			 head;
	size_t			 count;

	char			*wbuf;		/* requests not yet written */
	size_t			 woff;
	size_t			 wlen;
	int			 wdead;		/* writing failed: only read */

	char			 rbuf[CLIENT_LINE_MAX];
	size_t			 rlen;
};

static int
client_nonblock(int fd, char *cause, size_t size)
{
	int	flags;

	if ((flags = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, flags | O_NONBLOCK) == -1) {
		snprintf(cause, size, "fcntl: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int
client_connect_unix(const char *path, char *cause, size_t size)
{
	struct sockaddr_un	sun;
	int			fd;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun.sun_path) {
		snprintf(cause, size, "%s", strerror(ENAMETOOLONG));
		return -1;
	}
	strncpy(sun.sun_path, path, sizeof sun.sun_path - 1);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1) {
		snprintf(cause, size, "socket: %s", strerror(errno));
		return -1;
	}
	if (connect(fd, (struct sockaddr *)&sun, sizeof sun) == -1) {
		snprintf(cause, size, "%s", strerror(errno));
		close(fd);
		return -1;
	}
	return client_nonblock(fd, cause, size);
}

int
client_connect_tcp(const char *host, const char *port, char *cause,
    size_t size)
{
	struct addrinfo		 hints, *res, *ai;
	int			 fd = -1, error, one = 1, saved = 0;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if ((error = getaddrinfo(host, port, &hints, &res)) != 0) {
		snprintf(cause, size, "%s", gai_strerror(error));
		return -1;
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
		    ai->ai_protocol);
		if (fd == -1) {
			saved = errno;
			continue;
		}
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		saved = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd == -1) {
		snprintf(cause, size, "%s", strerror(saved));
		return -1;
	}
	/* Requests go out in batches already; do not hold back a tail. */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return client_nonblock(fd, cause, size);
}

/* Queues the request for it. */
static void
client_request(struct client *c, struct item *it)
{
	static const char	*meta[] = { "PING", "STATS", "VERSION" };
	int			 n;

	if (c->wlen + CLIENT_REQ_MAX > c->window * CLIENT_REQ_MAX) {
		memmove(c->wbuf, c->wbuf + c->woff, c->wlen - c->woff);
		c->wlen -= c->woff;
		c->woff = 0;
	}
	if (it->kind == ITEM_META) {
		it->sent = sudokuc_now();
		n = sprintf(c->wbuf + c->wlen, "%s\n", meta[it->meta]);
	} else if (c->query->mode == MODE_COUNT)
		n = sprintf(c->wbuf + c->wlen, "COUNT %.81s %lu\n", it->cells,
		    c->query->limit);
	else if (c->query->mode == MODE_LEXMIN)
		n = sprintf(c->wbuf + c->wlen, "LEXMIN %.81s\n", it->cells);
	else
		n = sprintf(c->wbuf + c->wlen, "%.81s\n", it->cells);
	c->wlen += n;
}

/* Hands the items at the head that need no reply to output. */
static void
client_drain(struct client *c)
{
	struct item	*it;

	while (c->count > 0) {
		it = &c->ring[c->head];
		if (it->kind != ITEM_BAD && it->kind != ITEM_FAIL)
			break;
		output_item(c->out, it, NULL);
		c->head = (c->head + 1) % c->window;
		c->count--;
	}
}

/* Takes items while the window allows: 1 if input needs reading, -1 done. */
static int
client_fill(struct client *c, struct input *in)
{
	struct item	*it;
	int		 r;

	while (c->count < c->window) {
		it = &c->ring[(c->head + c->count) % c->window];
		if ((r = input_next(in, it)) != 1)
			return r == 0 ? 1 : -1;
		c->count++;
		if (it->kind == ITEM_PUZZLE || it->kind == ITEM_META)
			client_request(c, it);
		else
			client_drain(c);
	}
	return 0;
}

/* One reply line for the item at the head; -1 to stop. */
static int
client_reply(struct client *c, const char *line)
{
	struct item	*it;
	int		 r;

	if (c->count == 0) {
		output_warnx(c->out, "%s: unexpected reply: %.100s", c->peer,
		    line);
		return -1;
	}
	it = &c->ring[c->head];
	if (it->kind == ITEM_META && it->meta == META_STATS)
		r = output_stat(c->out, line);
	else
		r = output_item(c->out, it, line) == -1 ? -1 : 1;
	if (r == 1) {
		c->head = (c->head + 1) % c->window;
		c->count--;
		client_drain(c);
	}
	return r == -1 ? -1 : 0;
}

/* Reads what the server sent and hands over whole lines; -1 to stop. */
static int
client_read(struct client *c)
{
	char	*p, *nl, *end;
	ssize_t	 n;

	n = read(c->fd, c->rbuf + c->rlen, sizeof c->rbuf - c->rlen);
	if (n == -1 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0) {
		output_warnx(c->out, "%s: connection %s with %zu request%s "
		    "unanswered", c->peer, n == 0 ? "closed by the server" :
		    strerror(errno), c->count, c->count == 1 ? "" : "s");
		return -1;
	}
	c->rlen += n;
	p = c->rbuf;
	end = c->rbuf + c->rlen;
	while ((nl = memchr(p, '\n', end - p)) != NULL) {
		*nl = '\0';
		if (nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		if (client_reply(c, p) == -1)
			return -1;
		p = nl + 1;
	}
	c->rlen = end - p;
	memmove(c->rbuf, p, c->rlen);
	if (c->rlen == sizeof c->rbuf) {
		output_warnx(c->out, "%s: reply line too long", c->peer);
		return -1;
	}
	return 0;
}

static void
client_write(struct client *c)
{
	ssize_t	n;

	n = send(c->fd, c->wbuf + c->woff, c->wlen - c->woff, MSG_NOSIGNAL);
	if (n == -1) {
		if (errno == EINTR || errno == EAGAIN)
			return;
		/* Read what the server said before it went away. */
		c->wdead = 1;
		c->woff = c->wlen = 0;
		return;
	}
	c->woff += n;
	if (c->woff == c->wlen)
		c->woff = c->wlen = 0;
}

/* Waits for the socket and the input; flushes stdout before blocking. */
static int
client_poll(struct client *c, struct input *in, int wantinput,
    struct pollfd *pfd)
{
	int	n = 1, r;

	pfd[0].fd = c->fd;
	pfd[0].events = c->count > 0 ? POLLIN : 0;
	if (c->wlen > c->woff && !c->wdead)
		pfd[0].events |= POLLOUT;
	pfd[0].revents = pfd[1].revents = 0;
	if (wantinput && input_fd(in) != -1) {
		pfd[1].fd = input_fd(in);
		pfd[1].events = POLLIN;
		n = 2;
	}
	if ((r = poll(pfd, n, 0)) == 0) {
		fflush(stdout);
		r = poll(pfd, n, CLIENT_POLL_MS);
	}
	if (r == -1 && errno != EINTR)
		err(2, "poll");
	return n;
}

static int
client_loop(struct client *c, struct input *in)
{
	struct pollfd	pfd[2];
	int		state, n;

	for (;;) {
		if ((state = client_fill(c, in)) == -1 && c->count == 0)
			return 0;
		n = client_poll(c, in, state == 1, pfd);
		if (pfd[0].revents & POLLOUT)
			client_write(c);
		if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR) &&
		    c->count > 0 && client_read(c) == -1)
			return -1;
		if (n == 2 && pfd[1].revents != 0)
			input_read(in);
		output_tick(c->out);
	}
}

int
client_run(int fd, const char *peer, struct input *in,
    const struct query *q, struct output *out, size_t window)
{
	struct client	c;
	int		r;

	memset(&c, 0, sizeof c);
	c.fd = fd;
	c.peer = peer;
	c.query = q;
	c.out = out;
	c.window = window;
	c.ring = calloc(window, sizeof *c.ring);
	c.wbuf = malloc(window * CLIENT_REQ_MAX + 1);
	if (c.ring == NULL || c.wbuf == NULL)
		err(2, NULL);
	r = client_loop(&c, in);
	free(c.ring);
	free(c.wbuf);
	close(fd);
	return r;
}
