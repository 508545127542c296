/*
 * activation.h -- listening sockets inherited from systemd.
 *
 * With socket activation systemd opens the sockets of sudokud.socket,
 * starts the daemon, and passes them as fds 3, 4, ... described by
 * LISTEN_PID, LISTEN_FDS and LISTEN_FDNAMES (sd_listen_fds(3)).
 *
 * How they combine with the configured listeners ([listen] unix/tcp,
 * or the default Unix socket when none is configured):
 *
 *  - An inherited socket whose address equals a configured listener's
 *    (same Unix path; same TCP family, address and port) takes its
 *    place: the configured one is not opened.  activation_match()
 *    finds it.
 *  - A configured listener with no inherited match is opened as usual.
 *  - An inherited socket that matches nothing is used anyway (and the
 *    daemon should log it at info level): the socket unit is the
 *    administrator's configuration too, and closing it would leave
 *    systemd holding a socket nobody accepts on, with clients queueing
 *    on it forever.
 *
 * Inherited sockets belong to systemd: sudokud never unlinks, chmods or
 * chowns their paths, at exit or ever (SocketMode=, SocketUser= and
 * SocketGroup= in the unit set them), and keeps them across SIGHUP like
 * every listener.
 */
#ifndef ACTIVATION_H
#define ACTIVATION_H

#include <sys/types.h>
#include <sys/socket.h>

#include <stddef.h>

struct listen_spec;

/* First inherited fd (SD_LISTEN_FDS_START). */
#define ACTIVATION_FD_START	3

struct activated {
	int			 fd;
	int			 family;	/* AF_UNIX, AF_INET, AF_INET6 */
	char			*name;		/* LISTEN_FDNAMES entry or NULL */
	char			*path;		/* AF_UNIX: path, "@name" if
						   abstract; else NULL */
	struct sockaddr_storage	 addr;		/* from getsockname() */
	socklen_t		 addrlen;
	int			 used;		/* for the caller's matching */
};

/*
 * Take the sockets systemd passed.  Each one must be a listening stream
 * socket; it is made non-blocking and close-on-exec.  Sets *out to an
 * allocated array of *n entries (NULL and 0 when there is nothing for
 * this process) and returns *n, or returns -1 with an allocated reason
 * in *cause (the daemon should exit: a broken socket unit is a
 * configuration error).  LISTEN_PID, LISTEN_FDS and LISTEN_FDNAMES are
 * removed from the environment in every case.  Call once, early in
 * main, before anything else opens a file.
 */
int	activation_listen_fds(struct activated **out, size_t *n,
	    char **cause);

/* Free the array and its strings; the fds stay open (the caller's). */
void	activation_free(struct activated *act, size_t n);

/*
 * Index of the first inherited socket (used or not) with the address
 * of ls, or -1.  Unix paths are compared as strings; a TCP spec is
 * resolved numerically-or-by-name (getaddrinfo, passive) and matches
 * any of its addresses.  Marks nothing: set act[i].used yourself.
 */
int	activation_match(const struct activated *act, size_t n,
	    const struct listen_spec *ls);

/* "unix:/run/sudokud.sock" or "tcp:127.0.0.1:7999" into buf, for logs. */
const char	*activation_describe(const struct activated *a, char *buf,
		    size_t len);

#endif /* ACTIVATION_H */
