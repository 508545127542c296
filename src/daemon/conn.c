/*
 * conn.c -- one client connection: framing, backpressure, timeouts.
 *
 * Input is cut into lines at LF (a CR before it is dropped).  A line
 * longer than max_line is not kept: its bytes are discarded as they
 * arrive and a single ERR toolong is sent when its LF comes, so memory
 * stays bounded without a read watermark (a watermark that is never
 * drained makes libevent 2.1 spin, libevent#891).
 *
 * Replies go to the bufferevent's output.  Above output_high reading
 * stops and the unparsed input stays where it is; the write callback
 * (write low watermark output_low) resumes parsing.
 */
#include <sys/types.h>
#include <sys/queue.h>
#include <sys/socket.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "config.h"
#include "conn.h"
#include "common/log.h"
#include "proto.h"
#include "stats.h"
#include "worker.h"
#include "common/xmalloc.h"

/*
 * Most requests served in one go before the connection yields to the
 * others on its worker; large enough that a pipelined batch of 32 costs
 * no extra loop turn.
 */
#define CONN_BATCH		128

/*
 * Most solver time, in ns, one connection gets before it yields, so a
 * client pipelining hard requests delays the others on its worker by
 * about this much (plus one request, bounded by the search budget).
 */
#define CONN_SLICE		1000000

/*
 * Solver time, in ns, after which the replies of a pipelined batch are
 * sent before the rest of the batch is solved.  A client that keeps a
 * window of requests in flight then refills it while the worker goes
 * on, instead of both sides waiting for each other once per batch: on
 * the development VM a wake-up across CPUs costs tens of microseconds,
 * and SOLVE at depth 32 on one connection went from 35% to about 55-60% of
 * the in-process rate (doc/bench-daemon.md).  Cheap requests (PING)
 * never reach it, so their batches still cost one write.
 */
#define CONN_EARLY		8000

/* Bound on the reads of the last look at a socket before it is closed. */
#define CONN_LAST_READS		256

#define CONN_DISCARD	0x01	/* inside a line longer than max_line */
#define CONN_PAUSED	0x02	/* output above output_high: not reading */
#define CONN_EOF	0x04	/* the client will send nothing more */
#define CONN_CLOSING	0x08	/* no more requests: close once flushed */
#define CONN_DRAINING	0x10	/* server shutdown: finish and close */
#define CONN_WDIRECT	0x20	/* replies are written by conn_flush() */

struct conn {
	struct worker		*w;
	struct proto_env	*env;	/* the worker's; follows reloads */
	struct bufferevent	*bev;
	size_t			 scanned; /* input bytes known to hold no LF */
	size_t			 discard_max; /* max_line when CONN_DISCARD began */
	int			 flags;
	TAILQ_ENTRY(conn)	 entry;
};

static void	conn_readcb(struct bufferevent *, void *);
static void	conn_writecb(struct bufferevent *, void *);
static void	conn_eventcb(struct bufferevent *, short, void *);
static void	conn_process(struct conn *);

/* Last look at the socket: take what the client sent before the close. */
static void
conn_sweep(struct conn *c)
{
	char	 buf[4096];
	int	 fd = bufferevent_getfd(c->bev), i;
	ssize_t	 n;

	/* Unread input would make close() send a reset, losing replies. */
	for (i = 0; i < CONN_LAST_READS; i++) {
		if ((n = recv(fd, buf, sizeof buf, MSG_DONTWAIT)) <= 0)
			break;
		stats_add(c->env->st, STAT_BYTES_READ, (uint64_t)n);
	}
}

static void
conn_free(struct conn *c)
{
	struct worker	*w = c->w;

	if (c->flags & CONN_CLOSING)
		conn_sweep(c);
	log_debug("fd %d: connection closed",
	    (int)bufferevent_getfd(c->bev));
	TAILQ_REMOVE(worker_conns(w), c, entry);
	bufferevent_free(c->bev);
	free(c);
	worker_conn_gone(w);
}

static void
conn_count_in(struct evbuffer *buf, const struct evbuffer_cb_info *info,
    void *arg)
{
	struct conn	*c = arg;

	(void)buf;
	if (info->n_added != 0)
		stats_add(c->env->st, STAT_BYTES_READ, info->n_added);
}

static void
conn_count_out(struct evbuffer *buf, const struct evbuffer_cb_info *info,
    void *arg)
{
	struct conn	*c = arg;

	(void)buf;
	if (info->n_deleted != 0)
		stats_add(c->env->st, STAT_BYTES_WRITTEN, info->n_deleted);
}

static void
conn_timeouts(struct conn *c)
{
	const struct config	*cf = c->env->cf;
	struct timeval		 rtv = { cf->idle_timeout, 0 };
	struct timeval		 wtv = { cf->write_timeout, 0 };

	bufferevent_set_timeouts(c->bev, cf->idle_timeout > 0 ? &rtv : NULL,
	    cf->write_timeout > 0 ? &wtv : NULL);
}

/* Apply the limits of the worker's current config to c. */
static void
conn_configure(struct conn *c)
{
	bufferevent_setwatermark(c->bev, EV_WRITE, c->env->cf->output_low, 0);
	conn_timeouts(c);
}

/* After a reload: the new timeouts and output_low for every connection. */
void
conn_reconfigure_all(struct conn_list *list)
{
	struct conn	*c;

	TAILQ_FOREACH(c, list, entry)
		conn_configure(c);
}

int
conn_accept(struct worker *w, int fd)
{
	struct conn	*c;

	c = xcalloc(1, sizeof *c);
	c->w = w;
	c->env = worker_env(w);
	c->bev = bufferevent_socket_new(worker_base(w), fd,
	    BEV_OPT_CLOSE_ON_FREE);
	if (c->bev == NULL) {
		log_warnx("%s: bufferevent_socket_new failed", __func__);
		close(fd);
		free(c);
		worker_conn_gone(w);
		return (-1);
	}
	TAILQ_INSERT_TAIL(worker_conns(w), c, entry);
	bufferevent_setcb(c->bev, conn_readcb, conn_writecb, conn_eventcb, c);
	evbuffer_add_cb(bufferevent_get_input(c->bev), conn_count_in, c);
	evbuffer_add_cb(bufferevent_get_output(c->bev), conn_count_out, c);
	conn_configure(c);
	bufferevent_enable(c->bev, EV_READ);
	log_debug("fd %d: connection accepted", fd);
	return (0);
}

/* Serve one line of len bytes copied out of the input, LF removed. */
static void
conn_serve(struct conn *c, struct evbuffer *out, char *line, size_t len)
{
	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len > c->env->cf->max_line) {
		proto_toolong(c->env, out, c->env->cf->max_line);
		return;
	}
	if (proto_line(c->env, out, line, len) == PROTO_CLOSE)
		c->flags |= CONN_CLOSING;
}

/*
 * The one reply to a line longer than max_line, naming the limit it broke
 * (the one in force when discarding began, should a reload change it).
 */
static void
conn_toolong(struct conn *c, struct evbuffer *out)
{
	size_t	max = c->env->cf->max_line;

	if (c->flags & CONN_DISCARD)
		max = c->discard_max;
	c->flags &= ~CONN_DISCARD;
	proto_toolong(c->env, out, max);
}

/* No LF in the input: keep it for later, or discard a too long line. */
static void
conn_partial(struct conn *c, struct evbuffer *in)
{
	size_t	len = evbuffer_get_length(in);

	/* max_line + 1: the line may still end in CRLF. */
	if ((c->flags & CONN_DISCARD) || len > c->env->cf->max_line + 1) {
		if (!(c->flags & CONN_DISCARD))
			c->discard_max = c->env->cf->max_line;
		c->flags |= CONN_DISCARD;
		evbuffer_drain(in, len);
		c->scanned = 0;
	} else
		c->scanned = len;
}

/* Serve the next complete line: 1 if there was one, 0 if not. */
static int
conn_line(struct conn *c, struct evbuffer *in, struct evbuffer *out)
{
	struct evbuffer_ptr	 p;
	size_t			 len;
	char			*line;

	if (evbuffer_ptr_set(in, &p, c->scanned, EVBUFFER_PTR_SET) != 0)
		return (0);
	p = evbuffer_search(in, "\n", 1, &p);
	if (p.pos == -1) {
		conn_partial(c, in);
		return (0);
	}
	c->scanned = 0;
	len = (size_t)p.pos;
	if ((c->flags & CONN_DISCARD) || len > c->env->cf->max_line + 1) {
		evbuffer_drain(in, len + 1);
		conn_toolong(c, out);
		return (1);
	}
	line = worker_linebuf(c->w);
	evbuffer_remove(in, line, len);
	evbuffer_drain(in, 1);
	conn_serve(c, out, line, len);
	return (1);
}

/* At EOF a last line without LF is served as if it had one. */
static void
conn_last_line(struct conn *c, struct evbuffer *in, struct evbuffer *out)
{
	size_t	 len = evbuffer_get_length(in);
	char	*line;

	/* Longer than max_line + 1 only if a reload made max_line smaller. */
	if ((c->flags & CONN_DISCARD) || len > c->env->cf->max_line + 1) {
		evbuffer_drain(in, len);
		conn_toolong(c, out);
	} else if (len > 0) {
		line = worker_linebuf(c->w);
		evbuffer_remove(in, line, len);
		conn_serve(c, out, line, len);
	}
}

/*
 * Write the replies now rather than on the next loop turn, and watch for
 * writability only if some are left: for a request and its reply that
 * saves two epoll_ctl() and one epoll_wait().  conn_process() disables
 * EV_WRITE (free while no write is pending) and sets CONN_WDIRECT when
 * it starts with an empty output buffer.
 */
static void
conn_flush(struct conn *c)
{
	struct evbuffer	*out = bufferevent_get_output(c->bev);

	if (!(c->flags & CONN_WDIRECT) || evbuffer_get_length(out) == 0)
		return;
	/* The bufferevent freezes the start of its output; so does it. */
	evbuffer_unfreeze(out, 1);
	evbuffer_write(out, bufferevent_getfd(c->bev));
	evbuffer_freeze(out, 1);
	if (evbuffer_get_length(out) != 0) {
		/* The rest, and any error, is the bufferevent's business. */
		c->flags &= ~CONN_WDIRECT;
		bufferevent_enable(c->bev, EV_WRITE);
	}
}

/* No more requests: close now if everything is sent, else once it is. */
static void
conn_finish(struct conn *c)
{
	struct evbuffer	*in = bufferevent_get_input(c->bev);

	conn_flush(c);
	c->flags |= CONN_CLOSING;
	bufferevent_disable(c->bev, EV_READ);
	evbuffer_drain(in, evbuffer_get_length(in));
	if (evbuffer_get_length(bufferevent_get_output(c->bev)) == 0)
		conn_free(c);
}

static void
conn_pause(struct conn *c)
{
	c->flags |= CONN_PAUSED;
	bufferevent_disable(c->bev, EV_READ);
}

/*
 * Serve complete lines until there are none, the connection closes, its
 * output is over output_high or a batch is done (then yield: the read
 * callback runs again on the next loop turn).  May free c.
 */
static void
conn_process(struct conn *c)
{
	struct evbuffer	*in = bufferevent_get_input(c->bev);
	struct evbuffer	*out = bufferevent_get_output(c->bev);
	size_t		 high = c->env->cf->output_high;
	int		 n;
	uint64_t	 t0 = stats_get(c->env->st, STAT_SOLVE_USEC);
	uint64_t	 now, tflush = t0;

	if (evbuffer_get_length(out) == 0) {
		c->flags |= CONN_WDIRECT;
		bufferevent_disable(c->bev, EV_WRITE);
	}
	for (n = 0; !(c->flags & CONN_CLOSING); n++) {
		if (evbuffer_get_length(out) > high) {
			conn_flush(c);
			if (evbuffer_get_length(out) > high) {
				conn_pause(c);
				return;
			}
		}
		if ((n == CONN_BATCH ||
		    stats_get(c->env->st, STAT_SOLVE_USEC) - t0 > CONN_SLICE)) {
			conn_flush(c);
			bufferevent_trigger(c->bev, EV_READ,
			    BEV_OPT_DEFER_CALLBACKS);
			return;
		}
		if (conn_line(c, in, out) == 0)
			break;
		if ((now = stats_get(c->env->st, STAT_SOLVE_USEC)) - tflush >
		    CONN_EARLY) {
			conn_flush(c);
			tflush = now;
		}
	}
	if ((c->flags & CONN_EOF) && !(c->flags & CONN_CLOSING))
		conn_last_line(c, in, out);
	if (c->flags & (CONN_CLOSING | CONN_EOF | CONN_DRAINING))
		conn_finish(c);
	else
		conn_flush(c);
}

static void
conn_readcb(struct bufferevent *bev, void *arg)
{
	struct conn	*c = arg;

	(void)bev;
	if (c->flags & CONN_CLOSING) {
		conn_finish(c);
		return;
	}
	if (c->flags & CONN_PAUSED)
		return;		/* the write callback resumes */
	conn_process(c);
}

static void
conn_writecb(struct bufferevent *bev, void *arg)
{
	struct conn	*c = arg;
	size_t		 len = evbuffer_get_length(bufferevent_get_output(bev));

	if (c->flags & CONN_CLOSING) {
		if (len == 0)
			conn_free(c);
		return;
	}
	if ((c->flags & CONN_PAUSED) && len <= c->env->cf->output_low) {
		c->flags &= ~CONN_PAUSED;
		/* A draining connection has read all it will read. */
		if (!(c->flags & (CONN_EOF | CONN_DRAINING)))
			bufferevent_enable(bev, EV_READ);
		conn_process(c);
	}
}

static void
conn_eventcb(struct bufferevent *bev, short what, void *arg)
{
	struct conn	*c = arg;
	struct evbuffer	*out = bufferevent_get_output(bev);

	if (what & BEV_EVENT_EOF) {
		c->flags |= CONN_EOF;
		if (!(c->flags & CONN_PAUSED))
			conn_process(c);
		return;
	}
	if ((what & BEV_EVENT_TIMEOUT) && (what & BEV_EVENT_WRITING)) {
		log_debug("fd %d: closing a connection that does not read",
		    (int)bufferevent_getfd(bev));
		stats_add(c->env->st, STAT_OUTPUT_KICKS, 1);
	} else if (what & BEV_EVENT_TIMEOUT) {
		if (evbuffer_get_length(out) > 0 ||
		    evbuffer_get_length(bufferevent_get_input(bev)) >
		    c->scanned) {
			/* Not idle: requests or replies are on the way. */
			bufferevent_enable(bev, EV_READ);
			return;
		}
		log_debug("fd %d: idle, closing", (int)bufferevent_getfd(bev));
		stats_add(c->env->st, STAT_IDLE_KICKS, 1);
	} else if (what & BEV_EVENT_ERROR)
		log_debug("fd %d: %s", (int)bufferevent_getfd(bev),
		    evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
	conn_free(c);
}

/* Read what the kernel holds already, then finish like at EOF. */
static void
conn_drain(struct conn *c)
{
	struct evbuffer	*in = bufferevent_get_input(c->bev);
	int		 fd = bufferevent_getfd(c->bev), i, n;

	c->flags |= CONN_DRAINING;
	if (c->flags & CONN_CLOSING) {
		conn_finish(c);
		return;
	}
	bufferevent_disable(c->bev, EV_READ);
	/* The end of the input is frozen but for the bufferevent's reads. */
	evbuffer_unfreeze(in, 0);
	for (i = 0; i < CONN_LAST_READS && !(c->flags & CONN_EOF); i++) {
		n = evbuffer_read(in, fd, -1);
		if (n == 0)
			c->flags |= CONN_EOF;
		if (n <= 0)
			break;
	}
	evbuffer_freeze(in, 0);
	conn_process(c);
}

void
conn_drain_all(struct conn_list *list)
{
	struct conn	*c, *next;

	for (c = TAILQ_FIRST(list); c != NULL; c = next) {
		next = TAILQ_NEXT(c, entry);
		conn_drain(c);
	}
}

unsigned int
conn_close_all(struct conn_list *list)
{
	struct conn	*c;
	unsigned int	 n = 0;

	while ((c = TAILQ_FIRST(list)) != NULL) {
		conn_free(c);
		n++;
	}
	return (n);
}
