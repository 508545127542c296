/* SPDX-License-Identifier: ISC */
/*
 * listen.h -- the daemon's listening sockets, inherited or bound.
 *
 * One module owns them.  With socket activation systemd opens the
 * sockets of sudokud.socket and passes them (activation.c reads them
 * into listeners); how they combine with the configured ones ([listen]
 * unix and tcp, or the default Unix socket when none is configured):
 *
 *  - an inherited socket whose address equals a configured listener's
 *    (same Unix path; same TCP family, address and port) takes its
 *    place: the configured one is not opened;
 *  - a configured listener with no inherited match is opened here;
 *  - an inherited socket that matches nothing is served anyway, and
 *    logged: the socket unit is the administrator's configuration too,
 *    and closing it would leave systemd holding a socket nobody accepts
 *    on, with clients queueing on it forever.
 *
 * Inherited sockets belong to systemd: sudokud never unlinks, chmods or
 * chowns their paths (SocketMode=, SocketUser= and SocketGroup= in the
 * unit set them), and keeps them across SIGHUP like every listener.
 */
#ifndef LISTEN_H
#define LISTEN_H

#include <sys/types.h>
#include <sys/socket.h>

#include <stddef.h>

#include "config.h"

struct listener {
	int			 fd;	/* listening, non-blocking, CLOEXEC */
	enum listen_type	 type;
	char			*path;	/* LISTEN_UNIX; "@name": abstract */
	char			*name;	/* "unix:PATH", "tcp:ADDR:PORT" */
	char			*fdname; /* inherited: LISTEN_FDNAMES entry */
	int			 inherited; /* from the service manager */
	enum listen_kind	 kind;	/* who connects: clients, ... */
	int			 owned;	/* path created here: unlink at exit */
	dev_t			 dev;	/* of path when owned, to recognise */
	ino_t			 ino;	/* it at exit */
	struct sockaddr_storage	 addr;	/* inherited: its address */
	socklen_t		 addrlen;
};

/*
 * Every listening socket: the inherited ones, then the configured ones
 * no inherited socket provides, in order (a TCP host name may give
 * several).  A Unix socket path that a live process listens on is an
 * error; a stale socket left by a dead one is replaced.  Returns 0 with
 * an allocated array in *ls and its length in *nls, or -1 with an
 * allocated reason in *cause, having closed (and removed) whatever it
 * opened and every inherited fd.  Call once, in main, before threads.
 */
int	listen_open(const struct config *cf, struct listener **ls,
	    size_t *nls, char **cause);

/*
 * What listen_open() checks short of binding: each TCP host resolves,
 * unix_group exists, each Unix socket's directory exists.  For -n.
 */
int	listen_check(const struct config *cf, char **cause);

/*
 * Close them all and free the array; unlink the Unix sockets this
 * process created, if their path still names the same socket.
 */
void	listen_close(struct listener *ls, size_t nls);

/* Index of the inherited listener with the address of spec, or -1. */
int	listen_match(const struct listener *ls, size_t nls,
	    const struct listen_spec *spec);

#endif /* LISTEN_H */
