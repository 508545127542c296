/* SPDX-License-Identifier: ISC */
/*
 * activation.c -- systemd socket activation (sd_listen_fds(3)), written
 * out for the same reason as notify.c: the protocol is three documented
 * environment variables and a range of fds, stable since systemd 209.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "activation.h"
#include "config.h"
#include "listen.h"

/*
 * More inherited sockets than this is a broken environment, not a
 * configuration: every listener costs a libevent listener.
 */
#define ACTIVATION_MAX_FDS	1024

/* Parse a whole decimal number in [min, max]; -1 if it is not one. */
static long long
activation_number(const char *s, long long min, long long max)
{
	char		*end;
	long long	 v;

	if (s == NULL || *s < '0' || *s > '9')
		return (-1);
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return (-1);
	return (v);
}

/*
 * How many fds are ours: 0 if LISTEN_PID or LISTEN_FDS is missing or
 * LISTEN_PID names another process (the variables leaked from a parent).
 */
static int
activation_count(char **cause)
{
	const char	*pid, *fds;
	long long	 v;

	pid = getenv("LISTEN_PID");
	fds = getenv("LISTEN_FDS");
	if (pid == NULL || fds == NULL)
		return (0);
	if (activation_number(pid, 1, LLONG_MAX) != (long long)getpid())
		return (0);
	v = activation_number(fds, 0, ACTIVATION_MAX_FDS);
	if (v == -1) {
		xasprintf(cause, "LISTEN_FDS=%s: not a number from 0 "
		    "to %d", fds, ACTIVATION_MAX_FDS);
		return (-1);
	}
	return ((int)v);
}

/* Non-blocking and close-on-exec: systemd may hand over either mode. */
static int
activation_fdflags(int fd)
{
	int	flags;

	if ((flags = fcntl(fd, F_GETFL)) == -1)
		return (-1);
	if ((flags & O_NONBLOCK) == 0 &&
	    fcntl(fd, F_SETFL, flags|O_NONBLOCK) == -1)
		return (-1);
	if ((flags = fcntl(fd, F_GETFD)) == -1)
		return (-1);
	if ((flags & FD_CLOEXEC) == 0 &&
	    fcntl(fd, F_SETFD, flags|FD_CLOEXEC) == -1)
		return (-1);
	return (0);
}

/* Unix socket path from a getsockname() result; "@name" if abstract. */
static char *
activation_unix_path(const struct sockaddr_un *sun, socklen_t len)
{
	size_t	 off = offsetof(struct sockaddr_un, sun_path);
	size_t	 plen;
	char	*path;

	if (len <= off)
		return (xstrdup(""));	/* unnamed */
	plen = len - off;
	if (plen > sizeof sun->sun_path)
		plen = sizeof sun->sun_path;
	path = xmalloc(plen + 1);
	memcpy(path, sun->sun_path, plen);
	path[plen] = '\0';
	if (plen > 0 && sun->sun_path[0] == '\0')
		path[0] = '@';
	else
		path[strnlen(path, plen)] = '\0';
	return (path);
}

/* "unix:/run/sudokud.sock" or "tcp:127.0.0.1:7999", for logs. */
static char *
activation_describe(const struct listener *l)
{
	const struct sockaddr_in	*sin;
	const struct sockaddr_in6	*sin6;
	char				 host[INET6_ADDRSTRLEN], *s;

	switch (l->addr.ss_family) {
	case AF_UNIX:
		xasprintf(&s, "unix:%s", l->path);
		break;
	case AF_INET:
		sin = (const struct sockaddr_in *)&l->addr;
		inet_ntop(AF_INET, &sin->sin_addr, host, sizeof host);
		xasprintf(&s, "tcp:%s:%u", host, ntohs(sin->sin_port));
		break;
	default:
		sin6 = (const struct sockaddr_in6 *)&l->addr;
		inet_ntop(AF_INET6, &sin6->sin6_addr, host, sizeof host);
		xasprintf(&s, "tcp:[%s]:%u", host, ntohs(sin6->sin6_port));
		break;
	}
	return (s);
}

/* Check one inherited fd and describe it in l. */
static int
activation_one(struct listener *l, int fd, char **cause)
{
	struct stat	sb;
	int		v;
	socklen_t	len;

	l->fd = fd;
	l->inherited = 1;
	if (fstat(fd, &sb) != 0 || !S_ISSOCK(sb.st_mode)) {
		xasprintf(cause, "inherited fd %d: not a socket", fd);
		return (-1);
	}
	len = sizeof v;
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &v, &len) != 0 ||
	    v != SOCK_STREAM) {
		xasprintf(cause, "inherited fd %d: not a stream socket "
		    "(use ListenStream=)", fd);
		return (-1);
	}
	len = sizeof v;
	if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &v, &len) != 0 ||
	    v == 0) {
		xasprintf(cause, "inherited fd %d: not listening "
		    "(Accept=yes is not supported)", fd);
		return (-1);
	}
	l->addrlen = sizeof l->addr;
	if (getsockname(fd, (struct sockaddr *)&l->addr, &l->addrlen) != 0) {
		xasprintf(cause, "inherited fd %d: getsockname: %s", fd,
		    strerror(errno));
		return (-1);
	}
	switch (l->addr.ss_family) {
	case AF_UNIX:
		l->type = LISTEN_UNIX;
		l->path = activation_unix_path(
		    (struct sockaddr_un *)&l->addr, l->addrlen);
		break;
	case AF_INET:
	case AF_INET6:
		l->type = LISTEN_TCP;
		break;
	default:
		xasprintf(cause, "inherited fd %d: address family %d "
		    "not supported", fd, l->addr.ss_family);
		return (-1);
	}
	if (activation_fdflags(fd) != 0) {
		xasprintf(cause, "inherited fd %d: fcntl: %s", fd,
		    strerror(errno));
		return (-1);
	}
	l->name = activation_describe(l);
	return (0);
}

/*
 * Attach LISTEN_FDNAMES to the n listeners at ls.  The names are
 * optional; when their number does not match LISTEN_FDS they are
 * ignored, as a broken launcher's names are worth nothing.
 */
static void
activation_names(struct listener *ls, size_t n)
{
	const char	*names, *cp, *end;
	size_t		 i, count;

	if ((names = getenv("LISTEN_FDNAMES")) == NULL)
		return;
	count = 1;
	for (cp = names; *cp != '\0'; cp++)
		count += (*cp == ':');
	if (count != n)
		return;
	for (i = 0, cp = names; i < n; i++, cp = end + 1) {
		if ((end = strchr(cp, ':')) == NULL)
			end = cp + strlen(cp);
		ls[i].fdname = xstrndup(cp, (size_t)(end - cp));
	}
}

static void
activation_unsetenv(void)
{
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
}

int
activation_take(struct listener **ls, size_t *n, char **cause)
{
	struct listener	*l;
	size_t		 first = *n;
	int		 count, i;

	*cause = NULL;
	if ((count = activation_count(cause)) <= 0) {
		activation_unsetenv();
		return (count);
	}
	for (i = 0; i < count; i++) {
		*ls = xreallocarray(*ls, *n + 1, sizeof **ls);
		l = &(*ls)[(*n)++];
		memset(l, 0, sizeof *l);
		if (activation_one(l, ACTIVATION_FD_START + i, cause) != 0) {
			activation_unsetenv();
			return (-1);
		}
	}
	activation_names(*ls + first, (size_t)count);
	activation_unsetenv();
	return (count);
}
