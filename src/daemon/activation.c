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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "activation.h"
#include "config.h"

/*
 * More inherited sockets than this is a broken environment, not a
 * configuration: every listener costs a libevent listener per worker.
 */
#define ACTIVATION_MAX_FDS	1024

static void	activation_cause(char **, const char *, ...)
		    __attribute__((__format__(__printf__, 2, 3)));

static void
activation_cause(char **cause, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	if (vasprintf(cause, fmt, ap) == -1)
		*cause = NULL;
	va_end(ap);
}

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
		activation_cause(cause, "LISTEN_FDS=%s: not a number from 0 "
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
		return (strdup(""));	/* unnamed */
	plen = len - off;
	if (plen > sizeof sun->sun_path)
		plen = sizeof sun->sun_path;
	if ((path = malloc(plen + 1)) == NULL)
		return (NULL);
	memcpy(path, sun->sun_path, plen);
	path[plen] = '\0';
	if (plen > 0 && sun->sun_path[0] == '\0')
		path[0] = '@';
	else
		path[strnlen(path, plen)] = '\0';
	return (path);
}

/* Check one inherited fd and describe it in a. */
static int
activation_take(struct activated *a, int fd, char **cause)
{
	struct stat	sb;
	int		v;
	socklen_t	len;

	a->fd = fd;
	if (fstat(fd, &sb) != 0 || !S_ISSOCK(sb.st_mode)) {
		activation_cause(cause, "inherited fd %d: not a socket", fd);
		return (-1);
	}
	len = sizeof v;
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &v, &len) != 0 ||
	    v != SOCK_STREAM) {
		activation_cause(cause, "inherited fd %d: not a stream socket "
		    "(use ListenStream=)", fd);
		return (-1);
	}
	len = sizeof v;
	if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &v, &len) != 0 ||
	    v == 0) {
		activation_cause(cause, "inherited fd %d: not listening "
		    "(Accept=yes is not supported)", fd);
		return (-1);
	}
	a->addrlen = sizeof a->addr;
	if (getsockname(fd, (struct sockaddr *)&a->addr, &a->addrlen) != 0) {
		activation_cause(cause, "inherited fd %d: getsockname: %s",
		    fd, strerror(errno));
		return (-1);
	}
	a->family = a->addr.ss_family;
	if (a->family != AF_UNIX && a->family != AF_INET &&
	    a->family != AF_INET6) {
		activation_cause(cause, "inherited fd %d: address family %d "
		    "not supported", fd, a->family);
		return (-1);
	}
	if (a->family == AF_UNIX && (a->path = activation_unix_path(
	    (struct sockaddr_un *)&a->addr, a->addrlen)) == NULL) {
		activation_cause(cause, "out of memory");
		return (-1);
	}
	if (activation_fdflags(fd) != 0) {
		activation_cause(cause, "inherited fd %d: fcntl: %s", fd,
		    strerror(errno));
		return (-1);
	}
	return (0);
}

/*
 * Attach LISTEN_FDNAMES to the entries.  The names are optional; when
 * their number does not match LISTEN_FDS they are ignored, as a broken
 * launcher's names are worth nothing for matching.
 */
static int
activation_names(struct activated *act, size_t n)
{
	const char	*names, *cp, *end;
	size_t		 i, count;

	if ((names = getenv("LISTEN_FDNAMES")) == NULL)
		return (0);
	count = 1;
	for (cp = names; *cp != '\0'; cp++)
		count += (*cp == ':');
	if (count != n)
		return (0);
	for (i = 0, cp = names; i < n; i++, cp = end + 1) {
		if ((end = strchr(cp, ':')) == NULL)
			end = cp + strlen(cp);
		if ((act[i].name = strndup(cp, end - cp)) == NULL)
			return (-1);
	}
	return (0);
}

static void
activation_unsetenv(void)
{
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
}

int
activation_listen_fds(struct activated **out, size_t *n, char **cause)
{
	struct activated	*act;
	int			 count, i;

	*out = NULL;
	*n = 0;
	*cause = NULL;
	if ((count = activation_count(cause)) <= 0) {
		activation_unsetenv();
		return (count);
	}
	if ((act = calloc(count, sizeof *act)) == NULL) {
		activation_cause(cause, "out of memory");
		goto fail;
	}
	for (i = 0; i < count; i++) {
		if (activation_take(&act[i], ACTIVATION_FD_START + i,
		    cause) != 0)
			goto fail;
	}
	if (activation_names(act, count) != 0) {
		activation_cause(cause, "out of memory");
		goto fail;
	}
	activation_unsetenv();
	*out = act;
	*n = count;
	return (count);

fail:
	activation_unsetenv();
	activation_free(act, act == NULL ? 0 : (size_t)count);
	return (-1);
}

void
activation_free(struct activated *act, size_t n)
{
	size_t	i;

	if (act == NULL)
		return;
	for (i = 0; i < n; i++) {
		free(act[i].name);
		free(act[i].path);
	}
	free(act);
}

/* Same family, address and port? */
static int
activation_same_inet(const struct sockaddr *a, const struct sockaddr *b)
{
	const struct sockaddr_in	*a4, *b4;
	const struct sockaddr_in6	*a6, *b6;

	if (a->sa_family != b->sa_family)
		return (0);
	if (a->sa_family == AF_INET) {
		a4 = (const struct sockaddr_in *)a;
		b4 = (const struct sockaddr_in *)b;
		return (a4->sin_port == b4->sin_port &&
		    a4->sin_addr.s_addr == b4->sin_addr.s_addr);
	}
	if (a->sa_family == AF_INET6) {
		a6 = (const struct sockaddr_in6 *)a;
		b6 = (const struct sockaddr_in6 *)b;
		return (a6->sin6_port == b6->sin6_port &&
		    memcmp(&a6->sin6_addr, &b6->sin6_addr,
		    sizeof a6->sin6_addr) == 0);
	}
	return (0);
}

static int
activation_match_tcp(const struct activated *act, size_t n,
    const struct listen_spec *ls)
{
	struct addrinfo	 hints, *res, *ai;
	size_t		 i;
	int		 found = -1;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	if (getaddrinfo(ls->host, ls->port, &hints, &res) != 0)
		return (-1);
	for (i = 0; i < n && found == -1; i++) {
		if (act[i].family != AF_INET && act[i].family != AF_INET6)
			continue;
		for (ai = res; ai != NULL; ai = ai->ai_next) {
			if (activation_same_inet(ai->ai_addr,
			    (const struct sockaddr *)&act[i].addr)) {
				found = (int)i;
				break;
			}
		}
	}
	freeaddrinfo(res);
	return (found);
}

int
activation_match(const struct activated *act, size_t n,
    const struct listen_spec *ls)
{
	size_t	i;

	if (ls->type == LISTEN_TCP)
		return (activation_match_tcp(act, n, ls));
	if (ls->path == NULL)
		return (-1);
	for (i = 0; i < n; i++) {
		if (act[i].family == AF_UNIX && act[i].path != NULL &&
		    strcmp(act[i].path, ls->path) == 0)
			return ((int)i);
	}
	return (-1);
}

const char *
activation_describe(const struct activated *a, char *buf, size_t len)
{
	const struct sockaddr_in	*sin;
	const struct sockaddr_in6	*sin6;
	char				 host[INET6_ADDRSTRLEN];

	switch (a->family) {
	case AF_UNIX:
		snprintf(buf, len, "unix:%s", a->path);
		break;
	case AF_INET:
		sin = (const struct sockaddr_in *)&a->addr;
		inet_ntop(AF_INET, &sin->sin_addr, host, sizeof host);
		snprintf(buf, len, "tcp:%s:%u", host, ntohs(sin->sin_port));
		break;
	case AF_INET6:
		sin6 = (const struct sockaddr_in6 *)&a->addr;
		inet_ntop(AF_INET6, &sin6->sin6_addr, host, sizeof host);
		snprintf(buf, len, "tcp:[%s]:%u", host,
		    ntohs(sin6->sin6_port));
		break;
	default:
		snprintf(buf, len, "fd %d", a->fd);
		break;
	}
	return (buf);
}
