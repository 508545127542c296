/* SPDX-License-Identifier: ISC */
/*
 * metrics.c -- GET /metrics for Prometheus (see metrics.h).
 *
 * libevent's HTTP server does the HTTP: it parses requests, keeps
 * connections alive, times out idle ones and bounds header sizes; this
 * file only answers.  Anything but GET or HEAD of /metrics is refused
 * with the right status: 404 for another path, 405 for another method.
 */
#include <sys/types.h>

#include <stdlib.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <event2/listener.h>

#include "autoconf.h"	/* PACKAGE_VERSION, from configure */

#include "common/log.h"
#include "common/xmalloc.h"
#include "metrics.h"
#include "stats.h"

/* Seconds a scrape connection may stay idle; Prometheus reconnects. */
#define METRICS_TIMEOUT		30

/* Bytes of request headers and body accepted: a scrape sends little. */
#define METRICS_MAX_HEADERS	8192
#define METRICS_MAX_BODY	0

struct metrics {
	struct event_base	*base;
	struct evhttp		*http;
	struct stats_server	*ss;
};

/* GET or HEAD, else 405 and -1. */
static int
metrics_method(struct evhttp_request *req)
{
	enum evhttp_cmd_type	cmd = evhttp_request_get_command(req);

	if (cmd == EVHTTP_REQ_GET || cmd == EVHTTP_REQ_HEAD)
		return (0);
	/* evhttp_send_error() would drop the Allow header. */
	evhttp_add_header(evhttp_request_get_output_headers(req), "Allow",
	    "GET, HEAD");
	evhttp_send_reply(req, 405, "Method Not Allowed", NULL);
	return (-1);
}

static void
metrics_reply(struct evhttp_request *req, void *arg)
{
	struct metrics	*m = arg;
	struct evbuffer	*body;

	if (metrics_method(req) != 0)
		return;
	if ((body = evbuffer_new()) == NULL) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	stats_prometheus(m->ss, body, PACKAGE_VERSION);
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Content-Type", "text/plain; version=0.0.4; charset=utf-8");
	evhttp_send_reply(req, HTTP_OK, "OK", body);
	evbuffer_free(body);
}

/* Every other path. */
static void
metrics_other(struct evhttp_request *req, void *arg)
{
	(void)arg;
	if (metrics_method(req) == 0)
		evhttp_send_error(req, HTTP_NOTFOUND,
		    "only /metrics is served here");
}

struct metrics *
metrics_new(struct event_base *base, struct stats_server *ss)
{
	struct metrics	*m;

	m = xcalloc(1, sizeof *m);
	m->base = base;
	m->ss = ss;
	if ((m->http = evhttp_new(base)) == NULL)
		fatalx("%s: evhttp_new failed", __func__);
	/* Every method reaches the callbacks, which answer 405 but to two. */
	evhttp_set_allowed_methods(m->http, EVHTTP_REQ_GET | EVHTTP_REQ_HEAD |
	    EVHTTP_REQ_POST | EVHTTP_REQ_PUT | EVHTTP_REQ_DELETE |
	    EVHTTP_REQ_OPTIONS | EVHTTP_REQ_TRACE | EVHTTP_REQ_CONNECT |
	    EVHTTP_REQ_PATCH);
	evhttp_set_timeout(m->http, METRICS_TIMEOUT);
	evhttp_set_max_headers_size(m->http, METRICS_MAX_HEADERS);
	evhttp_set_max_body_size(m->http, METRICS_MAX_BODY);
	if (evhttp_set_cb(m->http, "/metrics", metrics_reply, m) != 0)
		fatalx("%s: evhttp_set_cb failed", __func__);
	evhttp_set_gencb(m->http, metrics_other, m);
	return (m);
}

int
metrics_listen(struct metrics *m, int fd, char **cause)
{
	struct evconnlistener	*evl;

	/* Closed with the HTTP server: evhttp_free() frees the listener. */
	evl = evconnlistener_new(m->base, NULL, NULL,
	    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, 0, fd);
	if (evl == NULL || evhttp_bind_listener(m->http, evl) == NULL) {
		if (evl != NULL)
			evconnlistener_free(evl);
		xasprintf(cause, "metrics: cannot serve on fd %d", fd);
		return (-1);
	}
	return (0);
}

void
metrics_free(struct metrics *m)
{
	if (m == NULL)
		return;
	evhttp_free(m->http);
	free(m);
}
