/* SPDX-License-Identifier: ISC */
/*
 * server.c -- the accepting thread: listeners, signals, worker threads.
 *
 * The main thread runs one event_base with an evconnlistener per
 * listening socket and the signal events (only one base may own
 * signals).  Each accepted socket goes to the least loaded worker
 * (worker.c), which serves it on its own event_base until it closes.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/listener.h>

#include "admit.h"
#include "auth.h"
#include "cfref.h"
#include "clients.h"
#include "config.h"
#include "conn_set.h"
#include "evbase.h"
#include "listen.h"
#include "metrics.h"
#include "common/log.h"
#include "notify.h"
#include "reload.h"
#include "proto.h"
#include "server.h"
#include "slowlog.h"
#include "stats.h"
#include "tls.h"
#include "walltime.h"
#include "worker.h"
#include "www.h"
#include "common/xmalloc.h"

/* Most worker threads; more than cores only adds switching. */
#define SERVER_MAX_WORKERS	256

/* How long accepting pauses when out of file descriptors, in ms. */
#define SERVER_ACCEPT_PAUSE	100

/* The signals the server handles: stop (gracefully), and reload. */
static const int server_signals[] = { SIGTERM, SIGINT, SIGHUP };
#define SERVER_NSIGNALS	(sizeof server_signals / sizeof server_signals[0])

/* One listening socket as the accepting thread watches it. */
struct server_listener {
	struct server		*sv;
	const struct listener	*l;
	struct evconnlistener	*evl;
};

struct server {
	struct event_base	*base;
	struct cfref	*scf;		/* this thread's reference */
	const struct config	*start_cf;	/* what it started with */
	struct stats_server	*ss;
	struct admit		*admit;		/* open connections */
	struct clients		*clients;	/* their cards */
	struct slowlog		*slow;
	struct stats		*st;		/* this thread's counters */

	struct listener		*ls;
	size_t			 nls;
	struct server_listener	*sl;		/* NULL once stopped */
	struct metrics		*metrics;	/* GET /metrics, if asked */
	struct event		*resume_ev;	/* after EMFILE */
	int64_t			 accept_warned;

	struct worker		**workers;
	unsigned int		 nworkers;
	unsigned int		 next;		/* round-robin start */
	int			 done[2];	/* pipe: from the workers */
	struct event		*done_ev;
	unsigned int		 ndone;		/* workers stopped */
	unsigned long		 switches;	/* new configs sent to workers */
	unsigned long		 switched;	/* ... and taken */

	struct event		*sig_ev[SERVER_NSIGNALS];
	struct event		*deadline_ev;
	int			 stopping;
};

/*
 * Switch every thread to cf, which becomes the server's.  Each worker
 * changes over when it reads the message; the old config is freed when
 * the last thread has let go of it.
 */
static void
server_reload(struct server *sv, struct config *cf)
{
	struct cfref	*scf, *old = sv->scf;
	unsigned int		 i;

	scf = cfref_new(cf, 1);
	for (i = 0; i < sv->nworkers; i++) {
		worker_reload(sv->workers[i], cfref_hold(scf));
		sv->switches++;
	}
	sv->scf = scf;
	if (sv->metrics != NULL)
		metrics_config(sv->metrics, cf);
	cfref_release(old);
	log_setlevel(cf->log_level);
}

/* How a connection from a listener of kind starts (conn_set.h). */
static int
server_how(enum listen_kind kind)
{
	switch (kind) {
	case LISTEN_PROXIED:
		return (CONN_SET_PROXY);
	case LISTEN_TLS:
		return (CONN_SET_TLS);
	case LISTEN_TLS_PROXIED:
		return (CONN_SET_PROXY | CONN_SET_TLS);
	case LISTEN_HTTP:
		return (CONN_SET_HTTP);
	case LISTEN_HTTP_PROXIED:
		return (CONN_SET_HTTP | CONN_SET_PROXY);
	case LISTEN_HTTPS:
		return (CONN_SET_HTTP | CONN_SET_TLS);
	case LISTEN_HTTPS_PROXIED:
		return (CONN_SET_HTTP | CONN_SET_PROXY | CONN_SET_TLS);
	default:
		return (0);
	}
}

/*
 * SIGHUP: read the file again and switch to it if it is good.  Limits,
 * timeouts and solver settings apply to open connections too (a timeout
 * counts the time already spent); listeners, workers, user and group
 * stay as they were started, and the log says which changes wait for a
 * restart, against what runs.
 */
static void
server_hup(struct server *sv)
{
	struct config	*cf;
	char		*cause;

	notify_reloading();
	/* The old config may be freed by a worker once we switch: copy. */
	if ((cf = config_load(cfref_config(sv->scf)->file, &cause)) == NULL ||
	    tls_load(cf, &cause) != 0 || auth_load(cf, &cause) != 0 ||
	    www_load(cf, &cause) != 0) {
		config_free(cf);
		log_warnx("reload failed, configuration kept: %s", cause);
		free(cause);
		notify_ready("reload failed, previous configuration kept");
		return;
	}
	reload_check(sv->start_cf, cf);
	/* server_worker_done() says it is done once every worker is. */
	server_reload(sv, cf);
}

static struct worker *
server_pick(struct server *sv)
{
	struct worker	*best = NULL, *w;
	unsigned int	 i, load, min = 0;

	for (i = 0; i < sv->nworkers; i++) {
		w = sv->workers[(sv->next + i) % sv->nworkers];
		load = worker_load(w);
		if (best == NULL || load < min) {
			best = w;
			min = load;
		}
	}
	sv->next = (sv->next + 1) % sv->nworkers;
	return (best);
}

static void
server_accept(struct evconnlistener *evl, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg)
{
	struct server_listener	*sl = arg;
	struct server		*sv = sl->sv;
	int			 on = 1;
	char			 peek;

	(void)evl;
	(void)salen;
	stats_add(sv->st, STAT_TOTAL_CONNECTIONS, 1);
	/*
	 * Gone already (a connect-and-close flood): close it here, at the
	 * cost of three system calls.  The worker looks again, and counts
	 * it against max_connections only if it is still there.
	 */
	if (recv(fd, &peek, 1, MSG_PEEK | MSG_DONTWAIT) == 0) {
		close(fd);
		return;
	}
	if ((sa->sa_family == AF_INET || sa->sa_family == AF_INET6) &&
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on) == -1)
		log_debug("TCP_NODELAY: %s", strerror(errno));
	worker_add(server_pick(sv), fd, server_how(sl->l->kind));
}

/* A metrics listener's connection: served on this thread (metrics.c). */
static void
server_accept_metrics(struct evconnlistener *evl, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg)
{
	struct server_listener	*sl = arg;
	int			 on = 1;

	(void)evl;
	(void)salen;
	if ((sa->sa_family == AF_INET || sa->sa_family == AF_INET6) &&
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on) == -1)
		log_debug("TCP_NODELAY: %s", strerror(errno));
	metrics_accept(sl->sv->metrics, fd);
}

static void
server_listeners_enable(struct server *sv, int on)
{
	size_t	i;

	for (i = 0; sv->sl != NULL && i < sv->nls; i++) {
		if (sv->sl[i].evl == NULL)
			continue;	/* closed: the server stops */
		if (on)
			evconnlistener_enable(sv->sl[i].evl);
		else
			evconnlistener_disable(sv->sl[i].evl);
	}
}

static void
server_resume(evutil_socket_t fd, short events, void *arg)
{
	(void)fd;
	(void)events;
	server_listeners_enable(arg, 1);
}

/* Out of descriptors: stop accepting for a while instead of spinning. */
static void
server_accept_error(struct evconnlistener *evl, void *arg)
{
	struct server	*sv = ((struct server_listener *)arg)->sv;
	struct timeval	 tv = { 0, SERVER_ACCEPT_PAUSE * 1000 };
	int		 error = EVUTIL_SOCKET_ERROR();

	(void)evl;
	switch (error) {
	case EMFILE:
	case ENFILE:
	case ENOBUFS:
	case ENOMEM:
		break;
	case EPROTO:
	case ENETDOWN:
	case ENOPROTOOPT:
	case EHOSTDOWN:
	case EHOSTUNREACH:
	case ENETUNREACH:
	case EOPNOTSUPP:
	case EPERM:
		/* accept(2): network errors of that one connection; retry. */
		log_debug("accept: %s", strerror(error));
		return;
	default:
		log_warnx("accept: %s", strerror(error));
		return;
	}
	/* Once a minute at most: this can last. */
	if (wall_due(&sv->accept_warned, 60))
		log_warnx("accept: %s; pausing for %d ms at a time",
		    strerror(error), SERVER_ACCEPT_PAUSE);
	server_listeners_enable(sv, 0);
	evtimer_add(sv->resume_ev, &tv);
}

/*
 * Watch every listener, the metrics ones too: each pauses when out of
 * descriptors (server_accept_error()).
 */
static void
server_listen(struct server *sv)
{
	evconnlistener_cb	 cb;
	size_t			 i;
	int			 flags;

	flags = LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE |
	    LEV_OPT_CLOSE_ON_EXEC;
	sv->sl = xcalloc(sv->nls, sizeof *sv->sl);
	for (i = 0; i < sv->nls; i++) {
		sv->sl[i].sv = sv;
		sv->sl[i].l = &sv->ls[i];
		cb = server_accept;
		if (sv->ls[i].kind == LISTEN_METRICS) {
			if (sv->metrics == NULL)
				sv->metrics = metrics_new(sv->base, sv->ss,
				    cfref_config(sv->scf));
			cb = server_accept_metrics;
		}
		/* Backlog 0: the socket is listening already. */
		sv->sl[i].evl = evconnlistener_new(sv->base, cb,
		    &sv->sl[i], flags, 0, sv->ls[i].fd);
		if (sv->sl[i].evl == NULL)
			fatalx("%s: cannot watch the socket", sv->ls[i].name);
		evconnlistener_set_error_cb(sv->sl[i].evl,
		    server_accept_error);
	}
}

/*
 * Close the listening sockets of the metrics (metrics 1) or of the
 * clients (0): new connections to them are refused from now on.
 */
static void
server_unlisten(struct server *sv, int metrics)
{
	size_t	i;

	for (i = 0; sv->sl != NULL && i < sv->nls; i++) {
		if (sv->sl[i].evl == NULL ||
		    (sv->ls[i].kind == LISTEN_METRICS) != metrics)
			continue;
		evconnlistener_free(sv->sl[i].evl);
		sv->sl[i].evl = NULL;
		sv->ls[i].fd = -1;
	}
	evtimer_del(sv->resume_ev);
}

static void
server_deadline(evutil_socket_t fd, short events, void *arg)
{
	struct server	*sv = arg;
	unsigned int	 i;

	(void)fd;
	(void)events;
	log_warnx("shutdown timeout: closing the remaining connections");
	for (i = 0; i < sv->nworkers; i++)
		worker_close(sv->workers[i]);
}

/*
 * What the stop may take after shutdown_timeout: the workers close what
 * is left and are joined, well under a second even on a loaded machine.
 * The service manager is told shutdown_timeout plus this, so that it
 * never kills a drain the configuration allows; the shipped units'
 * TimeoutStopSec= covers the default with it (tests/lint/systemd.sh).
 */
#define SERVER_STOP_MARGIN	5	/* seconds */

/*
 * The connections the workers have, served or still in a worker's queue:
 * accepted and handed over, not closed (admit_current() counts only the
 * ones a worker has taken in; a burst of connections waits in the queues
 * for the next turn of their worker's loop, and the drain serves them).
 */
static unsigned long long
server_open(struct server *sv)
{
	unsigned long long	n = 0;
	unsigned int		i;

	for (i = 0; i < sv->nworkers; i++)
		n += worker_load(sv->workers[i]);
	return (n);
}

/* SIGTERM, SIGINT: stop accepting, let every worker finish its clients. */
static void
server_stop(struct server *sv, int sig)
{
	struct timeval	tv = { cfref_config(sv->scf)->shutdown_timeout, 0 };
	unsigned int	i;

	if (sv->stopping) {
		log_info("signal %d again: closing connections now", sig);
		server_deadline(-1, 0, sv);
		return;
	}
	sv->stopping = 1;
	notify_stopping(((unsigned long long)tv.tv_sec + SERVER_STOP_MARGIN) *
	    1000000);
	log_info("signal %d: shutting down, %llu connections open", sig,
	    server_open(sv));
	/* The metrics stay, saying "draining", until the last client goes. */
	server_unlisten(sv, 0);
	if (sv->metrics != NULL)
		metrics_drain(sv->metrics);
	for (i = 0; i < sv->nworkers; i++)
		worker_drain(sv->workers[i]);
	evtimer_add(sv->deadline_ev, &tv);
}

static void
server_signal(evutil_socket_t sig, short events, void *arg)
{
	(void)events;
	if (sig == SIGHUP)
		server_hup(arg);
	else
		server_stop(arg, sig);
}

/*
 * News from the workers.  A reload is done, logged and reported to
 * systemd, when every worker serves with the new config: a client that
 * connects after "systemctl reload" returns gets the new limits.  When
 * every worker has stopped, leave the loop.
 */
static void
server_worker_done(evutil_socket_t fd, short events, void *arg)
{
	struct server		*sv = arg;
	const struct config	*cf = cfref_config(sv->scf);
	char			 buf[64];
	unsigned long		 was = sv->switched;
	ssize_t			 n, i;

	(void)events;
	while ((n = read(fd, buf, sizeof buf)) > 0) {
		for (i = 0; i < n; i++) {
			if (buf[i] == WORKER_SWITCHED)
				sv->switched++;
			else
				sv->ndone++;
		}
	}
	if (sv->switched != was && sv->switched == sv->switches) {
		log_info("configuration reloaded from %s",
		    cf->file != NULL ? cf->file : "built-in defaults");
		notify_ready("serving, configuration reloaded");
	}
	if (sv->ndone >= sv->nworkers)
		event_base_loopbreak(sv->base);
}

static void
server_workers_start(struct server *sv)
{
	struct proto_env	shared;
	sigset_t		all, old;
	unsigned int		i;

	/* Signals are the main thread's: workers block them all. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	memset(&shared, 0, sizeof shared);
	shared.ss = sv->ss;
	shared.admit = sv->admit;
	shared.clients = sv->clients;
	shared.slow = sv->slow;
	for (i = 0; i < sv->nworkers; i++) {
		sv->workers[i] = worker_new(i, sv->scf, &shared, sv->done[1]);
		if (worker_start(sv->workers[i]) == -1)
			fatal("worker %u: pthread_create", i);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static unsigned int
server_nworkers(const struct config *cf)
{
	long	n = cf->workers;

	if (n <= 0 && (n = sysconf(_SC_NPROCESSORS_ONLN)) < 1)
		n = 1;
	if (n > SERVER_MAX_WORKERS)
		n = SERVER_MAX_WORKERS;
	return ((unsigned int)n);
}

void
server_sigset(sigset_t *set)
{
	size_t	i;

	sigemptyset(set);
	for (i = 0; i < SERVER_NSIGNALS; i++)
		sigaddset(set, server_signals[i]);
}

static void
server_events(struct server *sv)
{
	sigset_t	sigs;
	size_t		i;

	for (i = 0; i < SERVER_NSIGNALS; i++) {
		sv->sig_ev[i] = evsignal_new(sv->base, server_signals[i],
		    server_signal, sv);
		if (sv->sig_ev[i] == NULL || evsignal_add(sv->sig_ev[i],
		    NULL) == -1)
			fatalx("cannot catch signal %d", server_signals[i]);
	}
	/* main() held them until the event loop could catch them. */
	server_sigset(&sigs);
	pthread_sigmask(SIG_UNBLOCK, &sigs, NULL);
	sv->done_ev = event_new(sv->base, sv->done[0], EV_READ | EV_PERSIST,
	    server_worker_done, sv);
	if (sv->done_ev == NULL || event_add(sv->done_ev, NULL) == -1)
		fatalx("%s: cannot watch the done pipe", __func__);
	sv->resume_ev = evtimer_new(sv->base, server_resume, sv);
	sv->deadline_ev = evtimer_new(sv->base, server_deadline, sv);
	if (sv->resume_ev == NULL || sv->deadline_ev == NULL)
		fatalx("%s: evtimer_new failed", __func__);
}

static void
server_free(struct server *sv)
{
	unsigned int	i;

	for (i = 0; i < sv->nworkers; i++) {
		worker_join(sv->workers[i]);
		worker_free(sv->workers[i]);
	}
	free(sv->workers);
	server_unlisten(sv, 0);
	server_unlisten(sv, 1);
	metrics_free(sv->metrics);
	free(sv->sl);
	for (i = 0; i < sizeof sv->sig_ev / sizeof sv->sig_ev[0]; i++)
		event_free(sv->sig_ev[i]);
	event_free(sv->done_ev);
	event_free(sv->resume_ev);
	event_free(sv->deadline_ev);
	event_base_free(sv->base);
	close(sv->done[0]);
	close(sv->done[1]);
	cfref_release(sv->scf);
	stats_server_free(sv->ss);
	admit_free(sv->admit);
	clients_free(sv->clients);
	slowlog_free(sv->slow);
	free(sv);
}

int
server_run(struct config *cf, struct listener *ls, size_t nls)
{
	struct server	*sv;

	signal(SIGPIPE, SIG_IGN);
	sv = xcalloc(1, sizeof *sv);
	sv->ls = ls;
	sv->nls = nls;
	sv->nworkers = server_nworkers(cf);
	sv->start_cf = cf;
	sv->scf = cfref_new(cf, 0);
	sv->admit = admit_new();
	sv->clients = clients_new();
	sv->slow = slowlog_new();
	sv->ss = stats_server_new(sv->nworkers, sv->admit);
	sv->st = stats_acceptor(sv->ss);
	if (pipe2(sv->done, O_NONBLOCK | O_CLOEXEC) == -1)
		fatal("%s: pipe2", __func__);
	sv->base = evbase_new();
	sv->workers = xcalloc(sv->nworkers, sizeof *sv->workers);
	server_workers_start(sv);
	server_events(sv);
	server_listen(sv);
	log_info("serving with %u worker thread%s", sv->nworkers,
	    sv->nworkers == 1 ? "" : "s");
	notify_ready(NULL);

	if (event_base_dispatch(sv->base) == -1)
		fatalx("event loop failed");
	log_info("all connections closed, exiting");
	server_free(sv);
	return (0);
}
