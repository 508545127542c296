/*
 * server.h -- the accepting thread: listeners, signals, worker threads.
 */
#ifndef SERVER_H
#define SERVER_H

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
 * A config shared by every thread that uses it.  Each thread holds one
 * reference and drops it when it switches to a newer config; the last
 * one frees it (unless it is the caller's of server_run()).  A config is
 * never changed once shared.
 */
struct server_cf;

struct config	*server_cf_config(struct server_cf *);
void		 server_cf_release(struct server_cf *);

#endif /* SERVER_H */
