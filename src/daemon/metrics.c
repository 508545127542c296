/* SPDX-License-Identifier: ISC */
/*
 * metrics.c -- the metrics listener's HTTP connections (see metrics.h).
 *
 * A small HTTP/1.1 server of its own (http.c parses), not libevent's:
 * that one has no bound on its connections, times out only silence (a
 * client sending a header byte every few seconds kept a connection
 * forever), sends a body to HEAD, and cannot be told apart from its
 * listener.  Here each connection serves one request at a time, in
 * order (pipelining works, answers never overlap), and has one timer:
 * a request must be complete within metrics_timeout of the connection's
 * start or of the previous response, and a response must make progress
 * within it.  At most metrics_max_connections are open, so a flood of
 * scrapers holds no more descriptors than that, and the client
 * listeners stay usable.  At the limit, a new connection takes the slot
 * of the one quiet longest (idle between requests, waiting for its first
 * one, or lingering), which is closed, so that idle keep-alive clients
 * cannot starve a load balancer's health check; only if every one is
 * sending a response (which metrics_timeout bounds) is it answered 503.
 * A new connection's request is read at once if it has come, so that a
 * burst of connections after it cannot push it out unanswered.  The
 * connections are kept in the order of their last progress (accepted,
 * bytes read, bytes written): the quietest is the first not writing.
 */
#include <sys/types.h>
#include <sys/queue.h>
#include <sys/socket.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "autoconf.h"	/* PACKAGE_VERSION, from configure */

#include "common/log.h"
#include "common/xmalloc.h"
#include "config.h"
#include "config_table.h"
#include "http.h"
#include "metrics.h"
#include "proto.h"
#include "stats.h"
#include "walltime.h"

/* Seconds a closing connection reads what the client still sends. */
#define METRICS_LINGER_SECS	2

#define METRICS_TEXT		"text/plain; charset=utf-8"
#define METRICS_PROMETHEUS	"text/plain; version=0.0.4; charset=utf-8"

struct metrics_conn;
TAILQ_HEAD(metrics_conns, metrics_conn);

struct metrics {
	struct event_base	*base;
	struct stats_server	*ss;
	const struct config	*cf;		/* the server's current one */
	struct metrics_conns	 conns;
	unsigned int		 nconns;
	int64_t			 full_warned;
	int			 draining;	/* SIGTERM: /healthz says so */
	struct stats		*st;		/* this thread's counters */
};

enum metrics_state {
	METRICS_READING,	/* a request is coming, or the next one */
	METRICS_WRITING,	/* a response is going out */
	METRICS_LINGER		/* done, sending side shut: await the end */
};

struct metrics_conn {
	struct metrics		*m;
	int			 fd;
	enum metrics_state	 state;
	int			 closing;	/* no request after this one */
	struct event		*rev;
	struct event		*wev;
	struct event		*tev;
	struct evbuffer		*out;
	size_t			 len;		/* bytes in in[] */
	char			 in[HTTP_MAX_HEAD];
	TAILQ_ENTRY(metrics_conn) entry;
};

static void
metrics_conn_free(struct metrics_conn *c)
{
	struct metrics	*m = c->m;

	TAILQ_REMOVE(&m->conns, c, entry);
	m->nconns--;
	event_free(c->rev);
	event_free(c->wev);
	event_free(c->tev);
	evbuffer_free(c->out);
	close(c->fd);
	free(c);
}

/* c made progress: it goes last in the order of quiet. */
static void
metrics_touch(struct metrics_conn *c)
{
	struct metrics	*m = c->m;

	TAILQ_REMOVE(&m->conns, c, entry);
	TAILQ_INSERT_TAIL(&m->conns, c, entry);
}

/* (Re)start the connection's one timeout: seconds from now. */
static void
metrics_arm(struct metrics_conn *c, int secs)
{
	struct timeval	tv = { secs, 0 };

	evtimer_add(c->tev, &tv);
}

/*
 * The limits a client must respect, as HELLO names them (CONFIG_HELLO),
 * as gauges: sudokud_open_connections / sudokud_config_max_connections
 * is an alert.
 */
static void
metrics_limits(const struct config *cf, struct evbuffer *body)
{
	const struct config_key	*k;
	char			 v[64];
	size_t			 i;

	for (i = 0; i < config_table_size; i++) {
		k = &config_table[i];
		if (!(k->flags & CONFIG_HELLO))
			continue;
		config_table_format(cf, k, v, sizeof v);
		evbuffer_add_printf(body, "# HELP sudokud_config_%s %s "
		    "(sudokud.conf, [%s] %s).\n# TYPE sudokud_config_%s "
		    "gauge\nsudokud_config_%s %s\n", k->name, k->doc,
		    k->section, k->name, k->name, k->name, v);
	}
}

/* The body of GET /metrics. */
static int
metrics_scrape(struct metrics *m, struct evbuffer *body, const char **type)
{
	const char *const	*verbs;
	size_t			 n;

	verbs = proto_verbs(&n);
	stats_prometheus(m->ss, body, PACKAGE_VERSION, verbs, n);
	metrics_limits(m->cf, body);
	evbuffer_add_printf(body, "# HELP sudokud_draining 1 from SIGTERM "
	    "until the exit: no new clients, /healthz 503.\n"
	    "# TYPE sudokud_draining gauge\nsudokud_draining %d\n",
	    m->draining);
	*type = METRICS_PROMETHEUS;
	return (200);
}

/*
 * GET /healthz, for load balancers and readiness probes: 200 while the
 * server takes new clients, 503 once it drains after SIGTERM, so that
 * it is taken out of rotation before it goes.
 */
static int
metrics_healthz(struct metrics *m, struct evbuffer *body, const char **type)
{
	*type = METRICS_TEXT;
	evbuffer_add_printf(body, "%s\n", m->draining ? "draining" : "ok");
	return (m->draining ? 503 : 200);
}

/* GET /livez, for liveness probes: 200 as long as the process serves. */
static int
metrics_livez(struct metrics *m, struct evbuffer *body, const char **type)
{
	(void)m;
	*type = METRICS_TEXT;
	evbuffer_add(body, "ok\n", 3);
	return (200);
}

/* What is served: path, handler (status, body and its type). */
static const struct metrics_route {
	const char	*path;
	int		(*serve)(struct metrics *, struct evbuffer *,
			    const char **);
} metrics_routes[] = {
	{ "/metrics", metrics_scrape },
	{ "/healthz", metrics_healthz },
	{ "/livez", metrics_livez },
};
#define METRICS_NROUTES	(sizeof metrics_routes / sizeof metrics_routes[0])

/* A response: head, and the body unless the request was HEAD. */
static void
metrics_respond(struct metrics_conn *c, int status, const char *type,
    struct evbuffer *body, int head, const char *extra)
{
	http_head(c->out, status, type, evbuffer_get_length(body),
	    !c->closing, extra);
	if (!head)
		evbuffer_add_buffer(c->out, body);
}

/* A plain-text answer of one line: an error, or a refusal. */
static void
metrics_text(struct metrics_conn *c, int status, const char *text, int head,
    const char *extra)
{
	struct evbuffer	*body;

	if ((body = evbuffer_new()) == NULL)
		fatalx("%s: out of memory", __func__);
	evbuffer_add_printf(body, "%d %s: %s\n", status, http_reason(status),
	    text);
	metrics_respond(c, status, METRICS_TEXT, body, head, extra);
	evbuffer_free(body);
}

/* Answer the request req: by the route of its path, 404 or 405. */
static void
metrics_route(struct metrics_conn *c, const struct http_req *req)
{
	const struct metrics_route	*r = NULL;
	struct evbuffer			*body;
	const char			*type;
	size_t				 i;
	int				 status, head = req->method == HTTP_HEAD;

	for (i = 0; i < METRICS_NROUTES && r == NULL; i++)
		if (strlen(metrics_routes[i].path) == req->pathlen &&
		    memcmp(metrics_routes[i].path, req->path,
		    req->pathlen) == 0)
			r = &metrics_routes[i];
	if (req->method != HTTP_GET && req->method != HTTP_HEAD) {
		metrics_text(c, 405, "only GET and HEAD are served", head,
		    "Allow: GET, HEAD\r\n");
		return;
	}
	if (r == NULL) {
		metrics_text(c, 404, "this is sudokud; it serves /metrics, "
		    "/healthz and /livez", head, NULL);
		return;
	}
	if ((body = evbuffer_new()) == NULL)
		fatalx("%s: out of memory", __func__);
	status = r->serve(c->m, body, &type);
	metrics_respond(c, status, type, body, head, NULL);
	evbuffer_free(body);
}

/*
 * Done: shut the sending side and read until the client closes, so that
 * what it sent unread (a refused head) cannot reset the response away.
 */
static int
metrics_linger(struct metrics_conn *c)
{
	c->state = METRICS_LINGER;
	c->len = 0;
	if (shutdown(c->fd, SHUT_WR) == -1) {
		metrics_conn_free(c);
		return (-1);
	}
	event_add(c->rev, NULL);
	metrics_arm(c, METRICS_LINGER_SECS);
	return (0);
}

/*
 * Send what the socket takes; then read on, or wait to write more.  -1
 * if the connection is gone.
 */
static int
metrics_flush(struct metrics_conn *c)
{
	int	n;

	if ((n = evbuffer_write(c->out, c->fd)) == -1 && errno != EAGAIN &&
	    errno != EINTR) {
		metrics_conn_free(c);
		return (-1);
	}
	if (n > 0) {
		metrics_arm(c, c->m->cf->metrics_timeout);
		metrics_touch(c);
	}
	if (evbuffer_get_length(c->out) != 0) {
		c->state = METRICS_WRITING;
		event_del(c->rev);
		event_add(c->wev, NULL);
		return (0);
	}
	event_del(c->wev);
	if (c->closing)
		return (metrics_linger(c));
	c->state = METRICS_READING;
	event_add(c->rev, NULL);
	return (0);
}

/*
 * The requests read so far, each answered in turn: the next is looked at
 * once the response before it has gone.
 */
static void
metrics_serve(struct metrics_conn *c)
{
	struct http_req	req;

	for (;;) {
		switch (http_parse(c->in, c->len, &req)) {
		case HTTP_MORE:
			return;
		case HTTP_BAD:
			c->closing = 1;
			metrics_text(c, req.status, req.why, 0, NULL);
			break;
		case HTTP_OK:
			c->closing = !req.keepalive;
			metrics_route(c, &req);
			c->len -= req.len;
			memmove(c->in, c->in + req.len, c->len);
			break;
		}
		/* The next request has its own time, from this response on. */
		metrics_arm(c, c->m->cf->metrics_timeout);
		if (metrics_flush(c) == -1 || c->state != METRICS_READING ||
		    c->len == 0)
			return;
	}
}

static void
metrics_readcb(evutil_socket_t fd, short events, void *arg)
{
	struct metrics_conn	*c = arg;
	char			 drop[512];
	ssize_t			 n;

	(void)events;
	if (c->state == METRICS_LINGER) {
		if ((n = read(fd, drop, sizeof drop)) == 0 ||
		    (n == -1 && errno != EAGAIN && errno != EINTR))
			metrics_conn_free(c);
		return;
	}
	n = read(fd, c->in + c->len, sizeof c->in - c->len);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		metrics_conn_free(c);	/* the client is done, or gone */
		return;
	}
	c->len += (size_t)n;
	metrics_touch(c);
	metrics_serve(c);
}

static void
metrics_writecb(evutil_socket_t fd, short events, void *arg)
{
	struct metrics_conn	*c = arg;

	(void)fd;
	(void)events;
	/* Written out: answer what was pipelined behind it. */
	if (metrics_flush(c) == 0 && c->state == METRICS_READING &&
	    c->len > 0)
		metrics_serve(c);
}

/*
 * metrics_timeout passed: a request still incomplete gets 408, an idle
 * connection is closed, and so is one whose client does not read.
 */
static void
metrics_timercb(evutil_socket_t fd, short events, void *arg)
{
	struct metrics_conn	*c = arg;

	(void)fd;
	(void)events;
	if (c->state == METRICS_READING && c->len > 0) {
		c->closing = 1;
		metrics_text(c, 408, "the request did not come in time", 0,
		    NULL);
		(void)metrics_flush(c);
		return;
	}
	metrics_conn_free(c);
}

/*
 * At the limit: close the connection quiet longest that is not sending
 * a response, to make room; 0, or -1 if every one is.
 */
static int
metrics_evict(struct metrics *m)
{
	struct metrics_conn	*c;

	TAILQ_FOREACH(c, &m->conns, entry)
		if (c->state != METRICS_WRITING)
			break;
	if (c == NULL)
		return (-1);
	log_debug("metrics: fd %d closed to make room (metrics_max_"
	    "connections)", c->fd);
	metrics_conn_free(c);
	stats_add(m->st, STAT_METRICS_EVICTED, 1);
	return (0);
}

/* One connection too many: a 503 and the end, without a state. */
static void
metrics_refuse(struct metrics *m, int fd)
{
	struct evbuffer	*out;
	char		 body[128];
	int		 n;

	n = snprintf(body, sizeof body, "503 Service Unavailable: %u metrics "
	    "connections are open (metrics_max_connections)\n", m->nconns);
	if ((out = evbuffer_new()) == NULL)
		fatalx("%s: out of memory", __func__);
	http_head(out, 503, METRICS_TEXT, (size_t)n, 0, "Retry-After: 1\r\n");
	evbuffer_add(out, body, (size_t)n);
	/* A new socket's buffer takes it whole; if not, it is lost. */
	if (evbuffer_write(out, fd) == -1)
		log_debug("metrics: write: %s", strerror(errno));
	evbuffer_free(out);
	close(fd);
	stats_add(m->st, STAT_METRICS_REFUSED, 1);
	if (wall_due(&m->full_warned, 60))
		log_warnx("metrics: %u connections open, each sending a "
		    "response (metrics_max_connections): refusing more",
		    m->nconns);
}

struct metrics *
metrics_new(struct event_base *base, struct stats_server *ss,
    const struct config *cf)
{
	struct metrics	*m;

	m = xcalloc(1, sizeof *m);
	m->base = base;
	m->ss = ss;
	m->st = stats_acceptor(ss);
	m->cf = cf;
	TAILQ_INIT(&m->conns);
	return (m);
}

void
metrics_drain(struct metrics *m)
{
	m->draining = 1;
}

void
metrics_config(struct metrics *m, const struct config *cf)
{
	m->cf = cf;
}

void
metrics_accept(struct metrics *m, int fd)
{
	struct metrics_conn	*c;

	while (m->nconns >= (unsigned int)m->cf->metrics_max_connections)
		if (metrics_evict(m) == -1) {
			metrics_refuse(m, fd);
			return;
		}
	c = xcalloc(1, sizeof *c);
	c->m = m;
	c->fd = fd;
	c->rev = event_new(m->base, fd, EV_READ | EV_PERSIST, metrics_readcb,
	    c);
	c->wev = event_new(m->base, fd, EV_WRITE | EV_PERSIST,
	    metrics_writecb, c);
	c->tev = evtimer_new(m->base, metrics_timercb, c);
	c->out = evbuffer_new();
	if (c->rev == NULL || c->wev == NULL || c->tev == NULL ||
	    c->out == NULL)
		fatalx("%s: out of memory", __func__);
	TAILQ_INSERT_TAIL(&m->conns, c, entry);
	m->nconns++;
	event_add(c->rev, NULL);
	metrics_arm(c, m->cf->metrics_timeout);
	/* Its request may be here already: answered before the next accept. */
	metrics_readcb(fd, EV_READ, c);
}

void
metrics_free(struct metrics *m)
{
	if (m == NULL)
		return;
	while (!TAILQ_EMPTY(&m->conns))
		metrics_conn_free(TAILQ_FIRST(&m->conns));
	free(m);
}
