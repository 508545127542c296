/* SPDX-License-Identifier: ISC */
/*
 * conn.c -- a client connection as a state machine.
 *
 * States; conn_enter() does what entering each one means, conn_settle()
 * picks the next one from the facts after anything happened:
 *
 *   PROXY    from a tcp_proxy listener: reading the load balancer's PROXY
 *            header (proxy.c), which names the client; then IDLE.
 *   IDLE     waiting for requests: reading.  A read that completes a
 *            line serves one slice at once.
 *   BUSY     requests to serve (complete lines, or a search under way),
 *            waiting in the worker's run queue for a turn; not reading,
 *            so what it holds of the client's input stays bounded.
 *   BLOCKED  more than output_high bytes of replies unsent: neither
 *            reading nor serving until the client has read them down to
 *            output_low.
 *   CLOSING  no more requests (QUIT, an HTTP or TLS client, end of input,
 *            server stop): the last replies are being sent.
 *   LINGER   all sent and the sending side shut down: whatever the
 *            client still sends is read and dropped until it closes, so
 *            that closing never resets the connection under its replies.
 *
 * A connection that fails (a read or write error, a timeout) is freed by
 * the callback that finds it out, as its last act (conn_free()).  All of
 * a connection's events are its own and are freed with it, so nothing
 * can call back into a freed connection.
 *
 * Fairness.  A slice is at most slice_us of solver time or
 * CONN_BATCH requests.  The set's run queue serves one slice per turn of
 * the event loop (conn_set.c), and a connection serves at most one slice
 * per turn from its own read event.  So a request waits for at most one
 * slice of each other connection of its worker, whatever those ask for:
 * a search longer than a slice goes on in later turns.  One that comes
 * on a connection waiting for requests waits for a piece (conn_serve()).
 *
 * Timeouts are deadlines from the moments things happened (deadline.c),
 * one timer per connection, re-armed lazily (conn_timer.c).
 */
#include <sys/types.h>
#include <sys/queue.h>
#include <sys/socket.h>

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "admit.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "config.h"
#include "conn_int.h"
#include "conn_set.h"
#include "remote.h"
#include "stats.h"
#include "tls.h"

/* Most requests of one slice: a pipelined batch of 32 takes one turn. */
#define CONN_BATCH		128

/*
 * Least solver time a request starts with, even late in a slice: below
 * this, most searches that would have finished at once would be moved
 * into a job (16 KiB) to go on next turn.
 */
#define CONN_START_NS		100000

/*
 * Solver time, in ns, after which the replies of a pipelined batch are
 * sent before the rest of the batch is solved.  A client that keeps a
 * window of requests in flight then refills it while the worker goes
 * on, instead of both sides waiting for each other once per batch; but
 * each write wakes the client, a cross-CPU wake-up paid by the writer.
 * Of 8 to 128 us, and of holding replies until little work is queued,
 * 32 us served SOLVE at depth 32 best (doc/bench-daemon.md), with the
 * reads of conn_serve() that go on once replies went early.  Cheap
 * requests (PING) never reach it, so their batches still cost one write.
 */
#define CONN_EARLY_NS		32000

/* Most reads of the last look at a socket when the server stops. */
#define CONN_LAST_READS		16

static void	conn_enter(struct conn *, enum conn_state);
static void	conn_settle(struct conn *);

/* The end: every event and buffer goes with it. */
void
conn_free(struct conn *c)
{
	struct conn_set	*set = c->set;

	log_debug("fd %d%s: connection closed", c->fd, CONN_PEER(c));
	conn_watch_close(c);
	if (c->queued)
		TAILQ_REMOVE(&set->runq, c, run);
	TAILQ_REMOVE(&set->conns, c, entry);
	proto_job_free(set->env, c->job);
	conn_http_free(c->http);
	conn_event_close(c);
	event_free(c->rev);
	event_free(c->wev);
	event_free(c->tev);
	frame_clear(&c->fr);
	evbuffer_free(c->out);
	if (c->ssl != NULL)
		tls_session_free(c->ssl);
	close(c->fd);
	if (c->counted.family != 0)
		admit_unpeer(set->env->admit, &c->counted);
	if (c->half)
		admit_half_close(set->env->admit);
	free(c->peer);
	free(c);
	admit_close(set->env->admit);
	atomic_fetch_add_explicit(&set->closed, 1, memory_order_relaxed);
	if (set->draining && TAILQ_EMPTY(&set->conns))
		event_base_loopbreak(set->base);
}

/* Send what the socket takes; -1 if the connection failed. */
static int
conn_flush(struct conn *c)
{
	int	n;

	if (evbuffer_get_length(c->out) == 0)
		return (0);
	if ((n = (int)conn_send(c)) == -2)
		return (-1);
	if (n > 0)
		stats_add(c->set->env->st, STAT_BYTES_WRITTEN, (uint64_t)n);
	if (n > 0 || !c->writing)
		c->m.write = deadline_now();
	if (evbuffer_get_length(c->out) != 0 && !c->writing) {
		conn_writing(c, 1);
		conn_timer(c);
	} else
		conn_writing(c, evbuffer_get_length(c->out) != 0);
	return (0);
}

/*
 * Is a request line waiting?  Notes when an incomplete one began.  None
 * is, before the first bytes have been looked at (conn_first()).
 */
static int
conn_frame(struct conn *c)
{
	if (!c->started)
		return (0);
	if (c->http != NULL)
		return (conn_http_ready(c));
	if (frame_ready(&c->fr, conn_cf(c)->max_line, c->eof))
		return (1);
	if (frame_partial(&c->fr) != 0 && c->m.partial == 0)
		c->m.partial = deadline_now();
	return (0);
}

/* Serve the line conn_frame() found; *line and *len get its text. */
static enum proto_status
conn_request(struct conn *c, uint64_t max_ns, uint64_t *ns,
    struct proto_info *info, const char **line, size_t *len)
{
	const struct proto_env	*env = c->set->env;
	size_t			 limit;
	ssize_t			 n;

	c->m.partial = 0;	/* (m.quiet: once a slice, conn_serve()) */
	*ns = 0;
	info->verb = PROTO_NOVERB;
	info->guesses = 0;
	info->instant = 1;	/* for a line too long: proto_line() sets it */
	n = frame_take(&c->fr, conn_cf(c)->max_line, line, &limit);
	if (n == -1) {
		*line = NULL;
		*len = 0;
		proto_toolong(env, c->out, limit);
		return (PROTO_OK);
	}
	*len = (size_t)n;
	return (proto_line(env, c->out, *line, *len, max_ns, ns, &c->job,
	    info));
}

/*
 * The job under way, or the next line, for about max_ns of solver time
 * at most: its status, or -1 if there is nothing to serve.  Timed, *t
 * is the clock at the start on the way in and at the end on the way
 * out (for an instant request, maybe the reading before it:
 * conn_watch_untimed()): a request whole since c->since waited until its
 * start, and took until its reply is queued.  No request is whole
 * unread: every read finds the lines before it served (conn.c's
 * states), so a line is whole since the last read.
 */
static int
conn_step(struct conn *c, uint64_t max_ns, uint64_t *ns, uint64_t *t)
{
	const struct proto_env	*env = c->set->env;
	struct proto_info	 info;
	enum proto_status	 st;
	const char		*line;
	size_t			 len;

	/* A job resumed or a line too long fill in only some of it. */
	memset(&info, 0, sizeof info);
	info.authed = c->authed;
	if (c->job != NULL) {
		if ((st = proto_resume(env, c->http != NULL ?
		    conn_http_lines(c) : c->out, c->job, max_ns, ns,
		    &info)) != PROTO_MORE)
			c->job = NULL;
		line = c->jobline;
		len = c->joblen;
	} else if (conn_frame(c)) {
		/* A batch's next puzzle is whole since the last was answered. */
		c->since = c->http == NULL || conn_http_first(c) || *t == 0 ?
		    c->read_ns : *t;
		if (*t != 0 && conn_cf(c)->latency_histograms)
			stats_wait(env->st, *t > c->since ? *t - c->since : 0);
		if (max_ns < CONN_START_NS)
			max_ns = CONN_START_NS;
		/* Nothing took time since the last request's end: ours. */
		if (c->http == NULL && c->untimed == 0)
			info.clock = *t;
		st = c->http != NULL ? conn_http_request(c, max_ns, ns, &info,
		    &line, &len) : conn_request(c, max_ns, ns, &info, &line,
		    &len);
		if (st == PROTO_MORE)
			conn_watch_job(c, line, len);
	} else
		return (-1);
	c->authed = info.authed;
	if (info.auth_failed)
		conn_auth_failed(c);
	if (*t != 0 && !conn_watch_untimed(c, st, &info))
		*t = info.clock != 0 ? info.clock : conn_watch_nsec();
	if (st != PROTO_MORE) {
		conn_watch_done(c, *t, line, len, &info);
		if (c->http != NULL && info.verb != PROTO_NOVERB)
			conn_http_answered(c);
	}
	return ((int)st);
}

/*
 * One read(2) into the input: bytes read, 0 at the end of input, -1 if
 * nothing was there; c->eof or a failure (-2) as found.
 */
static int
conn_read(struct conn *c)
{
	struct conn_set	*set = c->set;
	char		*p;
	size_t		 avail;
	ssize_t		 n;

	/* Where the next bytes go; if they are dropped, nothing there. */
	p = frame_space(&c->fr, &avail);
	if ((n = conn_recv(c, p, avail)) < 0)
		return ((int)n);
	if (n == 0) {
		c->eof = 1;
		if (!c->started && c->state != CONN_PROXY &&
		    c->state != CONN_LINGER)
			conn_first(c);
		return (0);
	}
	stats_add(set->env->st, STAT_BYTES_READ, (uint64_t)n);
	if (c->state == CONN_LINGER) {
		c->m.heard = deadline_now();
		return ((int)n);	/* dropped */
	}
	if (c->quit)
		return ((int)n);	/* dropped: no more requests */
	if (conn_watch_timed(c))
		c->read_ns = conn_watch_nsec();
	frame_fill(&c->fr, (size_t)n);
	if (!c->started && c->state != CONN_PROXY)
		conn_first(c);
	return ((int)n);
}

/*
 * One slice: requests until there are none, the slice's time or count
 * is used up, the output is over output_high, a request ends the
 * session, or another connection has new requests: while one is
 * reading, the slice runs in pieces and looks for its input after each
 * (CONN_SET_PIECE_NS, conn_set.h).  -1 if the connection failed.
 *
 * Once replies have gone out early, the client may have sent more
 * requests for them: when the lines read run out, the socket is read
 * again and the slice goes on with what came, instead of ending with a
 * write of the few replies since the last one and a turn of the loop
 * to find the rest.  A read that finds nothing ends that; so does the
 * server stopping, which serves only what it has read.
 */
static int
conn_serve(struct conn *c)
{
	uint64_t		 used = 0, early = 0, looked = 0, ns, t = 0;
	uint64_t		 piece, slice = conn_cf(c)->slice_us * 1000ULL;
	int			 n, r, st, refill = 0, served = 0;
	int			 others = conn_event_others(c);

	if (conn_watch_timed(c)) {
		t = conn_watch_nsec();
		c->untimed = 0;
	}
	for (n = 0; n < CONN_BATCH && used < slice && !c->quit; n++) {
		piece = slice - used;
		if (others && piece > CONN_SET_PIECE_NS)
			piece = CONN_SET_PIECE_NS;
		if ((st = conn_step(c, piece, &ns, &t)) == -1) {
			if (!refill || c->eof || c->stop)
				break;
			if ((r = conn_read(c)) == -2)
				return (-1);
			refill = r > 0;
			conn_watch_row_end(c);
			continue;
		}
		served = 1;
		used += ns;
		early += ns;
		if (st == PROTO_CLOSE)
			c->quit = 1;
		if (early > CONN_EARLY_NS ||
		    evbuffer_get_length(c->out) > conn_cf(c)->output_high) {
			early = 0;
			refill = 1;
			if (conn_flush(c) == -1)
				return (-1);
			conn_watch_row_end(c);
			if (evbuffer_get_length(c->out) >
			    conn_cf(c)->output_high)
				break;
		}
		if (others && used - looked >= CONN_SET_PIECE_NS) {
			looked = used;
			if (conn_event_waiting(c->set, c))
				break;
			conn_watch_row_end(c);
		}
	}
	if (served)
		c->m.quiet = deadline_now();	/* idle from the last line */
	return (conn_flush(c));
}

/* The sending side is done: shut it, and wait for the client's end. */
static void
conn_linger(struct conn *c)
{
	c->state = CONN_LINGER;
	c->m.linger = c->m.heard = deadline_now();
	conn_tls_end(c);
	if (shutdown(c->fd, SHUT_WR) == -1)
		log_debug("fd %d%s: shutdown: %s",
		    c->fd, CONN_PEER(c), strerror(errno));
	frame_clear(&c->fr);
	conn_reading(c, 1);
}

/* Enter state: what it means for the events and the run queue. */
static void
conn_enter(struct conn *c, enum conn_state state)
{
	struct conn_set	*set = c->set;
	struct timeval	 now = { 0, 0 };

	if (c->queued && state != CONN_BUSY) {
		TAILQ_REMOVE(&set->runq, c, run);
		c->queued = 0;
	}
	if (state == CONN_IDLE && c->state != CONN_IDLE)
		c->m.quiet = deadline_now();
	c->state = state;
	switch (state) {
	case CONN_HANDSHAKE:
		conn_reading(c, c->tls_want == EV_READ);
		conn_writing(c, c->tls_want == EV_WRITE);
		break;
	case CONN_PROXY:
	case CONN_IDLE:
		conn_reading(c, 1);
		break;
	case CONN_BUSY:
		conn_reading(c, 0);
		if (!c->queued) {
			TAILQ_INSERT_TAIL(&set->runq, c, run);
			c->queued = 1;
		}
		if (!evtimer_pending(set->run_ev, NULL))
			evtimer_add(set->run_ev, &now);
		break;
	case CONN_BLOCKED:
		conn_reading(c, 0);
		break;
	case CONN_CLOSING:
		conn_reading(c, 0);
		if (evbuffer_get_length(c->out) == 0)
			conn_linger(c);
		else
			conn_writing(c, 1);	/* (a refusal after a handshake) */
		break;
	case CONN_LINGER:
		conn_linger(c);
		break;
	}
	conn_watch_state(c);
	conn_timer(c);
	/* Bytes TLS decrypted already are read without the socket's word. */
	if (c->ssl != NULL && c->reading && state != CONN_HANDSHAKE &&
	    tls_pending(c->ssl) > 0)
		event_active(c->rev, EV_READ, 1);
}

/*
 * After anything happened to c: the state the facts call for.  Every
 * callback that keeps c ends here: its input leaves the scratch block.
 */
static void
conn_settle(struct conn *c)
{
	const struct config	*cf = conn_cf(c);
	size_t			 out = evbuffer_get_length(c->out);
	int			 work;

	frame_keep(&c->fr);
	if (c->state == CONN_LINGER)
		return;
	work = c->job != NULL || conn_frame(c);
	if (conn_half(c, work) == -1) {
		conn_free(c);
		return;
	}
	if (c->state == CONN_PROXY || c->state == CONN_HANDSHAKE)
		conn_enter(c, c->state);
	else if (c->quit)
		conn_enter(c, CONN_CLOSING);
	else if (out > cf->output_high ||
	    (c->state == CONN_BLOCKED && out > cf->output_low))
		conn_enter(c, CONN_BLOCKED);
	else if (work)
		conn_enter(c, CONN_BUSY);
	else if (c->eof || c->stop)
		conn_enter(c, CONN_CLOSING);
	else
		conn_enter(c, CONN_IDLE);
}

static void
conn_readcb(evutil_socket_t fd, short events, void *arg)
{
	struct conn	*c = arg;
	int		 n, i;

	(void)fd;
	(void)events;
	if (c->state == CONN_LINGER) {
		/* Drop what comes; a bounded amount per turn. */
		for (i = 0; i < 4 && (n = conn_read(c)) > 0; i++)
			;
		if (n == 0 || n == -2)
			conn_free(c);
		return;
	}
	n = c->state == CONN_HANDSHAKE ? -1 : conn_read(c);
	if (n != -2 && n != -1 && c->state == CONN_PROXY)
		conn_proxy(c);
	if (c->state == CONN_HANDSHAKE) {
		if ((n = conn_handshake(c)) == 1)
			n = conn_read(c);
		else if (n == 0)
			n = -1;		/* waiting */
		else
			n = -2;
	}
	if (n == -2 ||
	    (n != -1 && c->state == CONN_IDLE && conn_serve(c) == -1)) {
		conn_free(c);
		return;
	}
	conn_settle(c);
}

static void
conn_writecb(evutil_socket_t fd, short events, void *arg)
{
	struct conn	*c = arg;

	(void)fd;
	(void)events;
	if (c->state == CONN_HANDSHAKE) {
		conn_readcb(fd, EV_WRITE, c);	/* the step it waited for */
		return;
	}
	if (conn_flush(c) == -1) {
		conn_free(c);
		return;
	}
	conn_settle(c);
}

/* The timer fired: a deadline passed (close), or it is armed again. */
static void
conn_timercb(evutil_socket_t fd, short events, void *arg)
{
	struct conn	*c = arg;

	(void)fd;
	(void)events;
	if (conn_timer_due(c))
		conn_free(c);
}

void
conn_new(struct conn_set *set, int fd, int how,
    const struct remote_addr *who)
{
	int	proxy = (how & CONN_SET_PROXY) != 0;

	struct conn	*c;

	c = xcalloc(1, sizeof *c);
	c->set = set;
	c->fd = fd;
	c->rev = event_new(set->base, fd, EV_READ | EV_PERSIST, conn_readcb,
	    c);
	c->wev = event_new(set->base, fd, EV_WRITE | EV_PERSIST,
	    conn_writecb, c);
	c->tev = evtimer_new(set->base, conn_timercb, c);
	c->out = evbuffer_new();
	frame_init(&c->fr, set->rbuf, sizeof set->rbuf);
	if (c->rev == NULL || c->wev == NULL || c->tev == NULL ||
	    c->out == NULL)
		fatalx("%s: out of memory", __func__);
	TAILQ_INSERT_TAIL(&set->conns, c, entry);
	conn_event_open(c);
	c->peer = remote_describe(fd, 0);
	conn_watch_open(c, how, who);
	if (!proxy)
		c->counted = *who;
	c->tls = (how & CONN_SET_TLS) != 0;
	if (how & CONN_SET_HTTP)	/* no first look: its bytes are HTTP's */
		c->http = conn_http_new();
	c->started = c->http != NULL && !proxy && !c->tls;
	c->state = proxy ? CONN_PROXY : CONN_IDLE;
	c->m.quiet = deadline_now();
	if (c->tls && !proxy) {
		if (conn_tls_start(c) != 0) {
			conn_free(c);
			return;
		}
		c->state = CONN_HANDSHAKE;
	}
	log_debug("fd %d%s: connection accepted", c->fd, CONN_PEER(c));
	/*
	 * Read at once: under a flood of connections that close as soon
	 * as they open, the end is there already and the slot is free
	 * again before the next one is accepted.
	 */
	conn_readcb(fd, EV_READ, c);
}

void
conn_run(struct conn *c)
{
	TAILQ_REMOVE(&c->set->runq, c, run);
	c->queued = 0;
	if (conn_gone(c) || conn_serve(c) == -1)
		conn_free(c);
	else
		conn_settle(c);
}

void
conn_stop(struct conn *c)
{
	int	i, n = 1;

	c->stop = 1;
	if (c->state == CONN_CLOSING || c->state == CONN_LINGER)
		return;
	for (i = 0; i < CONN_LAST_READS && n > 0 && !c->quit; i++)
		n = conn_read(c);
	if (n == -2 || (c->state == CONN_IDLE && conn_serve(c) == -1)) {
		conn_free(c);
		return;
	}
	conn_settle(c);
}
