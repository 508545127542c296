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

/* The signals the server handles: main blocks them until it can. */
void		 server_sigset(sigset_t *);

#endif /* SERVER_H */
