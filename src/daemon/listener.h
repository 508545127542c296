/*
 * listener.h -- the daemon's listening sockets.
 */
#ifndef LISTENER_H
#define LISTENER_H

#include <sys/types.h>

#include <stddef.h>

#include "config.h"

struct listener {
	int			 fd;	/* listening, non-blocking, CLOEXEC */
	enum listen_type	 type;
	char			*path;	/* LISTEN_UNIX: socket path */
	int			 owned;	/* path created here: unlink at exit */
	char			*name;	/* "unix:PATH", "tcp:ADDR:PORT" */
	dev_t			 dev;	/* of path when owned, to recognise */
	ino_t			 ino;	/* it at exit */
};

/*
 * Open every socket cf->listen asks for, in order (a TCP host name may
 * give several).  A Unix socket path already in use by a live process
 * is an error ("PATH: another sudokud is already listening"); a stale
 * socket left by a dead one is replaced.  Returns 0 with an allocated
 * array in *ls and its length in *nls, or -1 with an allocated reason
 * in *cause, having closed (and removed) whatever it opened.
 */
int	listener_open_all(const struct config *cf, struct listener **ls,
	    size_t *nls, char **cause);

/*
 * Close them all and free the array; unlink the Unix sockets this
 * process created, if their path still names the same socket.
 */
void	listener_close_all(struct listener *ls, size_t nls);

#endif /* LISTENER_H */
