/* SPDX-License-Identifier: ISC */
/*
 * peer.c -- one of sudokuc's connections to sudokud.
 *
 * Connecting without blocking, a buffer of requests not yet written,
 * and a buffer of bytes read that is cut into reply lines.  The socket
 * is non-blocking; the caller polls it and keeps the requests in flight
 * bounded, so the write buffer grows to a bounded size at most.
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
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/echo.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "peer.h"
#include "peer_tls.h"
#include "verb.h"

/*
 * Why connect(2) to s failed with error.  When no daemon seems to be
 * there, s->unreached asks pool_why() for the hint, said once for all
 * the servers; a socket that refuses this user says whose group it is.
 */
static void
peer_why(struct endpoint *s, int error, char **cause)
{
	struct stat	 st;
	struct group	*gr;

	if (error != EACCES || s->path == NULL) {
		s->unreached = 1;
		xasprintf(cause, "%s", strerror(error));
		return;
	}
	/*
	 * The socket is writable by its owner and its group only: other
	 * users must be in that group ("sudokud" as installed).
	 */
	if (stat(s->path, &st) == 0 && (gr = getgrgid(st.st_gid)) != NULL)
		xasprintf(cause, "%s (you must be in the socket's group, "
		    "'%s', to connect; -L solves without a daemon)",
		    strerror(error), gr->gr_name);
	else
		xasprintf(cause, "%s (you must be in the socket's group, "
		    "'%s' by default, to connect; -L solves without a "
		    "daemon)", strerror(error), SUDOKUD_GROUP_DEFAULT);
}

/*
 * A non-blocking socket connecting to sa: 0 connected, 1 in progress,
 * -1 with *error.
 */
static int
peer_start(struct peer *w, int family, const struct sockaddr *sa,
    socklen_t len, int *error)
{
	int	one = 1;

	w->fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (w->fd == -1) {
		*error = errno;
		return (-1);
	}
	/* Requests go out in batches already; do not hold back a tail. */
	if (family != AF_UNIX)
		setsockopt(w->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (connect(w->fd, sa, len) == 0)
		return (0);
	if (errno == EINPROGRESS)
		return (1);
	*error = errno;
	close(w->fd);
	w->fd = -1;
	return (-1);
}

/*
 * The state after a connect step: 0 up, 1 connecting, -1 or -2 down.
 * TCP up to a TLS server is its handshake beginning.
 */
static int
peer_state(struct peer *w, int r, char **cause)
{
	if (r == 0 && w->server->tls != NULL && w->ssl == NULL)
		r = peer_tls_start(w, cause);
	if (r < 0 && w->fd != -1) {
		peer_tls_close(w);
		close(w->fd);
		w->fd = -1;
	}
	w->state = r == 0 ? PEER_UP : r == 1 ? PEER_CONNECTING : PEER_DOWN;
	if (r == 0) {
		w->rlen = w->wlen = w->woff = 0;
		w->wdead = 0;
	}
	return (r);
}

/* From w->ai on, the first address that connects or is connecting. */
static int
peer_next(struct peer *w, int error, char **cause)
{
	int	r;

	for (; w->ai != NULL; w->ai = w->ai->ai_next) {
		r = peer_start(w, w->ai->ai_family, w->ai->ai_addr,
		    w->ai->ai_addrlen, &error);
		if (r != -1)
			return (peer_state(w, r, cause));
	}
	peer_why(w->server, error, cause);
	return (peer_state(w, -1, cause));
}

int
peer_open(struct peer *w, char **cause)
{
	struct sockaddr_un	 sun;
	struct endpoint		*s = w->server;
	int			 error = 0, r;

	if (s->path == NULL) {
		if (servers_resolve(s, cause) == -1)
			return (peer_state(w, -1, cause));
		w->ai = s->ai;
		return (peer_next(w, ECONNREFUSED, cause));
	}
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(s->path) >= sizeof sun.sun_path) {
		xasprintf(cause, "%s", strerror(ENAMETOOLONG));
		return (peer_state(w, -1, cause));
	}
	strncpy(sun.sun_path, s->path, sizeof sun.sun_path - 1);
	if ((r = peer_start(w, AF_UNIX, (struct sockaddr *)&sun, sizeof sun,
	    &error)) == -1)
		peer_why(s, error, cause);
	return (peer_state(w, r, cause));
}

int
peer_opened(struct peer *w, char **cause)
{
	socklen_t	len = sizeof (int);
	int		error = 0;

	if (w->ssl != NULL)
		return (peer_state(w, peer_tls_handshake(w, cause), cause));
	if (getsockopt(w->fd, SOL_SOCKET, SO_ERROR, &error, &len) == -1)
		error = errno;
	if (error == 0)
		return (peer_state(w, 0, cause));
	close(w->fd);
	w->fd = -1;
	if (w->server->path != NULL || w->ai == NULL) {
		peer_why(w->server, error, cause);
		return (peer_state(w, -1, cause));
	}
	w->ai = w->ai->ai_next;
	return (peer_next(w, error, cause));
}

void
peer_close(struct peer *w)
{
	peer_tls_close(w);
	if (w->fd != -1)
		close(w->fd);
	w->fd = -1;
	w->state = PEER_DOWN;
	w->rlen = w->wlen = w->woff = w->blen = w->blines = 0;
	w->wdead = w->probing = w->authing = 0;
	free(w->refusal);
	w->refusal = NULL;
}

short
peer_events(const struct peer *w)
{
	short	ev = 0;

	if (w->state == PEER_CONNECTING)
		return (w->ssl != NULL ? w->tlswant : POLLOUT);
	if (peer_pending(w))
		ev = POLLOUT;
	if (w->state == PEER_UP)
		ev |= POLLIN;
	return (ev);
}

void
peer_init(struct peer *w, struct endpoint *server)
{
	memset(w, 0, sizeof *w);
	w->fd = -1;
	w->server = server;
}

void
peer_free(struct peer *w)
{
	peer_close(w);
	free(w->wbuf);
	free(w->block);
	w->wbuf = w->block = NULL;
}

/* Room for len more bytes at the end of the write buffer. */
static char *
peer_room(struct peer *w, size_t len)
{
	if (w->woff > 0 && w->wlen + len > w->wsize) {
		memmove(w->wbuf, w->wbuf + w->woff, w->wlen - w->woff);
		w->wlen -= w->woff;
		w->woff = 0;
	}
	if (w->wlen + len > w->wsize) {
		/* At most the window's requests are ever unwritten. */
		w->wsize = w->wsize == 0 ? 4096 : w->wsize;
		while (w->wlen + len > w->wsize)
			w->wsize *= 2;
		w->wbuf = xreallocarray(w->wbuf, w->wsize, 1);
	}
	return (w->wbuf + w->wlen);
}

void
peer_auth(struct peer *w)
{
	size_t	len = strlen(w->server->secret) + 6;

	memcpy(peer_room(w, len), "AUTH ", 5);
	memcpy(w->wbuf + w->wlen + 5, w->server->secret, len - 6);
	w->wbuf[w->wlen + len - 1] = '\n';
	w->wlen += len;
	w->authing = 1;
}

void
peer_probe(struct peer *w)
{
	memcpy(peer_room(w, 5), "PING\n", 5);
	w->wlen += 5;
	w->probing = 1;
}

/*
 * The shape asked of GENERATE (VERB_OPT_SHAPE): " symmetry=S
 * clues=LO-HI pattern=P", or none when none was.
 */
static int
peer_shape(const struct query *q, char *p)
{
	int	i, n = 0;

	if (q->shaped & GEN_SYMMETRY)
		n += sprintf(p + n, " symmetry=%s",
		    sudoku_symmetry_name(q->gen.symmetry));
	if (q->shaped & GEN_CLUES)
		n += sprintf(p + n, " clues=%u-%u", q->gen.clues_min,
		    q->gen.clues_max);
	if (q->shaped & GEN_PATTERN) {
		n += sprintf(p + n, " pattern=");
		for (i = 0; i < SUDOKU_CELLS; i++)
			p[n++] = q->gen.pattern[i] ? 'x' : '.';
	}
	return (n);
}

/*
 * The options of q for a request: " budget=N deadline=MS" for a verb
 * that searches, the shape asked; or none.
 */
static int
peer_options(const struct query *q, char *p)
{
	int	n = 0;

	if (!(q->verb->flags & VERB_SEARCH))
		return (0);
	if (q->sendbudget)
		n += sprintf(p + n, " budget=%llu",
		    (unsigned long long)q->budget);
	if (q->deadline != 0)
		n += sprintf(p + n, " deadline=%lu", q->deadline);
	n += peer_shape(q, p + n);
	return (n);
}

/* The puzzle of it as it came: 81 cells, or its 729 marks. */
static int
peer_puzzle(const struct item *it, char *p)
{
	if (!it->marked) {
		memcpy(p, it->cells, SUDOKU_CELLS);
		return (SUDOKU_CELLS);
	}
	sudoku_cands_format(&it->marks, p);
	return (SUDOKU_CANDS_LEN);
}

void
peer_request(struct peer *w, struct item *it, const struct query *q)
{
	static const char	*meta[] = { "PING", "STATS", "VERSION" };
	const struct verb	*v = q->verb;
	/*
	 * "HINT <81 cells> <grid> <options>\n", GENERATE's with a pattern,
	 * or "SOLUTIONS <729 marks> <n> <options>\n".
	 */
	char			*p = peer_room(w, q->gridlen +
				    SUDOKU_CANDS_LEN + 320);
	int			 n;

	if (it->kind == ITEM_META) {
		it->sent = item_clock();
		w->wlen += sprintf(p, "%s\n", meta[it->meta]);
		return;
	}
	/* Of a seed: "<level> <seed>" in place of the puzzle. */
	if (v->flags & VERB_SEEDS)
		n = sprintf(p, "%s %s %llu", v->wire,
		    sudoku_level_name(q->level), (unsigned long long)it->seed);
	else {
		n = sprintf(p, "%s ", v->wire);
		n += peer_puzzle(it, p + n);
	}
	if (v->arg == VERB_ARG_LIMIT)
		n += sprintf(p + n, " %lu", q->limit);
	else if (v->arg == VERB_ARG_GRID && q->grid != NULL)
		n += sprintf(p + n, " %.*s", (int)q->gridlen, q->grid);
	else if (v->arg == VERB_ARG_SEED)
		n += sprintf(p + n, " %llu", (unsigned long long)it->seed);
	n += peer_options(q, p + n);
	p[n++] = '\n';
	w->wlen += n;
}

int
peer_gather(struct peer *w, char **line)
{
	size_t	len = strlen(*line);

	if (w->blen == 0 && strncmp(*line, "ERR ", 4) == 0)
		return (1);		/* an error is one line */
	if (w->blen + len + 2 > PEER_BLOCK_MAX)
		return (-1);
	if (w->blen + len + 2 > w->bsize) {
		w->bsize = w->bsize == 0 ? 4096 : w->bsize;
		while (w->blen + len + 2 > w->bsize)
			w->bsize *= 2;
		w->block = xreallocarray(w->block, w->bsize, 1);
	}
	if (w->blen > 0)
		w->block[w->blen++] = '\n';
	memcpy(w->block + w->blen, *line, len + 1);
	w->blen += len;
	w->blines++;
	/* SOLUTIONS cut by its budget: the lines so far, then the ERR. */
	if (strcmp(*line, "END") != 0 && strncmp(*line, "ERR ", 4) != 0)
		return (0);
	w->blen = w->blines = 0; /* the next line starts the next reply */
	*line = w->block;
	return (1);
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

	if (w->ssl != NULL)
		n = peer_tls_write(w, w->wbuf + w->woff, w->wlen - w->woff);
	else
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

/*
 * The reply to AUTH: 1 it is OK, 0 it is ERR busy (the server's refusal
 * at accept, for the caller), -1 anything else (w->refusal says it).
 */
static int
peer_authed(struct peer *w, const char *line)
{
	char	*text;

	if (strcmp(line, "OK") == 0) {
		w->authing = 0;
		return (1);
	}
	if (strncmp(line, "ERR busy", 8) == 0 &&
	    (line[8] == ' ' || line[8] == '\0'))
		return (0);
	if (strncmp(line, "ERR noauth ", 11) == 0)
		line += 11;
	text = echo_text(line, strlen(line));
	free(w->refusal);
	xasprintf(&w->refusal, "%s: authentication refused: %s",
	    w->server->name, text);
	free(text);
	return (-1);
}

/*
 * A plain TCP server that never said a thing closes at the first
 * request, or resets: sudokud's TLS port closes so on plaintext.
 */
static enum peer_status
peer_ended(struct peer *w, ssize_t n)
{
	struct endpoint	*s = w->server;

	if (s->spoke || s->path != NULL || s->tls != NULL ||
	    (n != 0 && errno != ECONNRESET))
		return (n == 0 ? PEER_EOF : PEER_ERROR);
	free(w->refusal);
	xasprintf(&w->refusal, "%s: closed by the server during the first "
	    "request, before any reply (is it a TLS port? try --tls)",
	    s->name);
	return (PEER_REFUSED);
}

/* One read, its lines handed over to cb. */
static enum peer_status
peer_read_once(struct peer *w, peer_line_cb cb, void *arg)
{
	char	*p, *nl, *end;
	ssize_t	 n;
	int	 r;

	if (w->ssl != NULL)
		n = peer_tls_read(w, w->rbuf + w->rlen,
		    sizeof w->rbuf - w->rlen);
	else
		n = read(w->fd, w->rbuf + w->rlen, sizeof w->rbuf - w->rlen);
	if (n == -1 && (errno == EINTR || errno == EAGAIN))
		return (PEER_OK);
	if (n == -1 && w->refusal != NULL)
		return (PEER_REFUSED);
	if (n <= 0)
		return (peer_ended(w, n));
	w->server->spoke = 1;
	w->rlen += n;
	p = w->rbuf;
	end = w->rbuf + w->rlen;
	while ((nl = memchr(p, '\n', end - p)) != NULL) {
		*nl = '\0';
		if (nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		r = w->authing ? peer_authed(w, p) : 0;
		if (r == -1)
			return (PEER_REFUSED);
		if (r == 0 && cb(arg, w, p) == -1)
			return (PEER_STOP);
		p = nl + 1;
	}
	w->rlen = end - p;
	memmove(w->rbuf, p, w->rlen);
	return (w->rlen == sizeof w->rbuf ? PEER_TOOLONG : PEER_OK);
}

enum peer_status
peer_read(struct peer *w, peer_line_cb cb, void *arg)
{
	enum peer_status	s;

	/* TLS may hold more than a read took: no poll(2) would say so. */
	while ((s = peer_read_once(w, cb, arg)) == PEER_OK &&
	    peer_tls_pending(w))
		;
	return (s);
}

char *
peer_lost(const struct peer *w, const char *name, enum peer_status s,
    int error, double now)
{
	size_t		 n = w->q.len;
	const char	*plural = n == 1 ? "" : "s";
	char		*why;

	if (s == PEER_OK && w->authing)
		xasprintf(&why, "%s: no reply to AUTH for %.0f s", name,
		    now - w->since);
	else if (s == PEER_OK && w->probing)
		xasprintf(&why, "%s: no reply to PING for %.0f s", name,
		    now - w->since);
	else if (s == PEER_OK)
		xasprintf(&why, "%s: no reply for %.0f s with %zu request%s "
		    "unanswered", name, now - w->since, n, plural);
	else if (s == PEER_EOF && n == 0)
		xasprintf(&why, "%s: the server closed the connection before "
		    "the end of the input (it may be shutting down)", name);
	else if (s == PEER_EOF)
		xasprintf(&why, "%s: the server closed the connection with %zu "
		    "request%s unanswered (it may be shutting down)", name, n,
		    plural);
	else if (error == ECONNRESET)
		xasprintf(&why, "%s: connection reset by the server with %zu "
		    "request%s unanswered", name, n, plural);
	else
		xasprintf(&why, "%s: reading from the server: %s, with %zu "
		    "request%s unanswered", name, strerror(error), n, plural);
	return (why);
}
