/*
 * sockets.h -- every listening socket of the daemon, inherited from
 * systemd (activation.c) or opened from the configuration (listener.c).
 */
#ifndef SOCKETS_H
#define SOCKETS_H

#include <stddef.h>

struct config;
struct listener;

/*
 * listener_open_all() with socket activation: a socket passed by
 * systemd replaces the configured listener with the same address, the
 * other configured ones are opened as usual, and inherited sockets
 * that match no configured one are served too (see activation.h for
 * why).  Inherited sockets come back with owned = 0, so
 * listener_close_all() closes them but never unlinks their paths.
 * Same contract as listener_open_all(); on error the inherited fds are
 * closed too.  Call once, in main, instead of listener_open_all().
 */
int	sockets_open(const struct config *cf, struct listener **ls,
	    size_t *nls, char **cause);

#endif /* SOCKETS_H */
