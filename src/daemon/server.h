/* SPDX-License-Identifier: ISC */
/*
 * server.h -- the accepting thread: listeners, signals, worker threads.
 */
#ifndef SERVER_H
#define SERVER_H

#include <signal.h>
#include <stddef.h>

struct config;
struct listener;

/*
 * Serve on the listening sockets ls until SIGTERM or SIGINT, then stop
 * gracefully; returns the exit status.  cf stays the caller's (it is
 * never freed here, a config loaded on reload is).  The listening
 * sockets are closed on the way out and their fd set to -1.
 */
int		 server_run(struct config *cf, struct listener *ls, size_t nls);

/*
 * A config shared by every thread that uses it.  It is made with one
 * reference, the accepting thread's; every worker takes one of its own
 * (server_cf_hold()) and drops it when it switches to a newer config.
 * The last one frees it (unless it is the caller's of server_run()).  A
 * config is never changed once shared.
 */
struct event_base;
struct server_cf;

struct config	*server_cf_config(struct server_cf *);
struct server_cf *server_cf_hold(struct server_cf *);
void		 server_cf_release(struct server_cf *);

/* An event base for one thread, without locks: the server's, a worker's. */
struct event_base *server_base_new(void);

/* The signals the server handles: main blocks them until it can. */
void		 server_sigset(sigset_t *);

#endif /* SERVER_H */
