/*
 * peer.c -- one of sudokuc's connections to sudokud.
 *
 * Connecting, a buffer of requests not yet written, and a buffer of
 * bytes read that is cut into reply lines.  The socket is non-blocking;
 * the caller polls it and keeps the requests in flight bounded, so the
 * write buffer never needs more than maxreq requests.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "peer.h"

static int
peer_nonblock(int fd, char **cause)
{
	int	flags;

	if ((flags = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, flags | O_NONBLOCK) == -1) {
		xasprintf(cause, "fcntl: %s", strerror(errno));
		close(fd);
		return (-1);
	}
	return (fd);
}

/* Why connect(2) failed with error, and what to do about it. */
static void
peer_why(const char *path, int error, char **cause)
{
	struct stat	 st;
	struct group	*gr;

	if (error != EACCES || path == NULL) {
		xasprintf(cause, "%s (is sudokud running? -L solves without "
		    "a daemon)", strerror(error));
		return;
	}
	/*
	 * The socket is writable by its owner and its group only: other
	 * users must be in that group ("sudokud" as installed).
	 */
	if (stat(path, &st) == 0 && (gr = getgrgid(st.st_gid)) != NULL)
		xasprintf(cause, "%s (you must be in the socket's group, "
		    "'%s', to connect; -L solves without a daemon)",
		    strerror(error), gr->gr_name);
	else
		xasprintf(cause, "%s (you must be in the socket's group, "
		    "'%s' by default, to connect; -L solves without a "
		    "daemon)", strerror(error), SUDOKUD_GROUP_DEFAULT);
}

int
peer_connect_unix(const char *path, char **cause)
{
	struct sockaddr_un	sun;
	int			fd, error;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun.sun_path) {
		xasprintf(cause, "%s", strerror(ENAMETOOLONG));
		return (-1);
	}
	strncpy(sun.sun_path, path, sizeof sun.sun_path - 1);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1) {
		xasprintf(cause, "socket: %s", strerror(errno));
		return (-1);
	}
	if (connect(fd, (struct sockaddr *)&sun, sizeof sun) == -1) {
		error = errno;
		close(fd);
		peer_why(path, error, cause);
		return (-1);
	}
	return (peer_nonblock(fd, cause));
}

int
peer_connect_tcp(const char *host, const char *port, char **cause)
{
	struct addrinfo		 hints, *res, *ai;
	int			 fd = -1, error, one = 1, saved = 0;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	if ((error = getaddrinfo(host, port, &hints, &res)) != 0) {
		xasprintf(cause, "%s", gai_strerror(error));
		return (-1);
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
		peer_why(NULL, saved, cause);
		return (-1);
	}
	/* Requests go out in batches already; do not hold back a tail. */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return (peer_nonblock(fd, cause));
}

void
peer_init(struct peer *w, int fd, size_t maxreq)
{
	memset(w, 0, sizeof *w);
	w->fd = fd;
	w->wsize = maxreq * PEER_REQ_MAX + 1;
	w->wbuf = xmalloc(w->wsize);
}

void
peer_free(struct peer *w)
{
	free(w->wbuf);
	w->wbuf = NULL;
	if (w->fd != -1)
		close(w->fd);
	w->fd = -1;
}

void
peer_request(struct peer *w, struct item *it, const struct query *q)
{
	static const char	*meta[] = { "PING", "STATS", "VERSION" };
	char			*p;
	int			 n;

	if (w->wlen + PEER_REQ_MAX >= w->wsize) {
		memmove(w->wbuf, w->wbuf + w->woff, w->wlen - w->woff);
		w->wlen -= w->woff;
		w->woff = 0;
	}
	if (w->wlen + PEER_REQ_MAX >= w->wsize)
		fatalx("peer_request: more than %zu requests unwritten",
		    w->wsize / PEER_REQ_MAX);
	p = w->wbuf + w->wlen;
	if (it->kind == ITEM_META) {
		it->sent = sudokuc_now();
		n = sprintf(p, "%s\n", meta[it->meta]);
	} else if (q->mode == MODE_COUNT)
		n = sprintf(p, "COUNT %.81s %lu\n", it->cells, q->limit);
	else if (q->mode == MODE_LEXMIN)
		n = sprintf(p, "LEXMIN %.81s\n", it->cells);
	else {
		memcpy(p, it->cells, SUDOKU_CELLS);
		p[SUDOKU_CELLS] = '\n';
		n = SUDOKU_CELLS + 1;
	}
	w->wlen += n;
}

int
peer_pending(const struct peer *w)
{
	return (w->wlen > w->woff && !w->wdead);
}

void
peer_write(struct peer *w)
{
	ssize_t	n;

	n = send(w->fd, w->wbuf + w->woff, w->wlen - w->woff,
	    MSG_NOSIGNAL);
	if (n == -1) {
		if (errno == EINTR || errno == EAGAIN)
			return;
		/* Read what the server said before it went away. */
		w->wdead = 1;
		w->woff = w->wlen = 0;
		return;
	}
	w->woff += n;
	if (w->woff == w->wlen)
		w->woff = w->wlen = 0;
}

enum peer_status
peer_read(struct peer *w, peer_line_cb cb, void *arg)
{
	char	*p, *nl, *end;
	ssize_t	 n;

	n = read(w->fd, w->rbuf + w->rlen, sizeof w->rbuf - w->rlen);
	if (n == -1 && (errno == EINTR || errno == EAGAIN))
		return (PEER_OK);
	if (n <= 0)
		return (n == 0 ? PEER_EOF : PEER_ERROR);
	w->rlen += n;
	p = w->rbuf;
	end = w->rbuf + w->rlen;
	while ((nl = memchr(p, '\n', end - p)) != NULL) {
		*nl = '\0';
		if (nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		if (cb(arg, w, p) == -1)
			return (PEER_STOP);
		p = nl + 1;
	}
	w->rlen = end - p;
	memmove(w->rbuf, p, w->rlen);
	return (w->rlen == sizeof w->rbuf ? PEER_TOOLONG : PEER_OK);
}
