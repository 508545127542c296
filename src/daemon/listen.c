/* SPDX-License-Identifier: ISC */
/*
 * listen.c -- the listening sockets: inherited from systemd, or opened
 * from the configuration (see listen.h for how the two combine).
 *
 * Runs in main before any thread exists: the umask(2) around bind(2)
 * is process-wide.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <netinet/in.h>

#include <errno.h>
#include <grp.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "activation.h"
#include "config.h"
#include "listen.h"

/*
 * listen(2) backlog, as nginx and redis use; Linux caps it at
 * net.core.somaxconn (4096 since 5.4).
 */
#define LISTEN_BACKLOG	511


/* What the log says of a listener of each kind, after its address. */
static const char *const listen_kinds[] = {
	[LISTEN_CLIENTS] = "", [LISTEN_PROXIED] = " (PROXY protocol)",
	[LISTEN_METRICS] = " (metrics)", [LISTEN_TLS] = " (TLS)",
	[LISTEN_TLS_PROXIED] = " (PROXY protocol, then TLS)",
	[LISTEN_HTTP] = " (HTTP)",
	[LISTEN_HTTP_PROXIED] = " (PROXY protocol, then HTTP)",
	[LISTEN_HTTPS] = " (HTTPS)",
	[LISTEN_HTTPS_PROXIED] = " (PROXY protocol, then HTTPS)"
};

static int	listen_unix_addr(const char *, struct sockaddr_un *,
		    char **);
static int	listen_unix_probe(const char *, char **);
static int	listen_unix(const struct config *, const char *,
		    struct listener *, char **);
static int	listen_tcp_one(const struct addrinfo *, struct listener *,
		    char **);
static int	listen_tcp(const struct listen_spec *, struct listener **,
		    size_t *, char **);

static int
listen_unix_addr(const char *path, struct sockaddr_un *sun, char **cause)
{
	memset(sun, 0, sizeof *sun);
	sun->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun->sun_path) {
		xasprintf(cause, "%s: path too long", path);
		return (-1);
	}
	memcpy(sun->sun_path, path, strlen(path) + 1);
	return (0);
}

/*
 * Is something at path?  A socket that accepts a connection belongs to
 * a live daemon: refuse, and leave it alone.  One that refuses is stale
 * (its daemon died): remove it.  Anything else is not ours to touch.
 */
static int
listen_unix_probe(const char *path, char **cause)
{
	struct sockaddr_un	sun;
	struct stat		sb;
	int			fd, r, saved_errno;

	if (lstat(path, &sb) == -1) {
		if (errno == ENOENT)
			return (0);
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return (-1);
	}
	if (!S_ISSOCK(sb.st_mode)) {
		xasprintf(cause, "%s: exists and is not a socket", path);
		return (-1);
	}
	if (listen_unix_addr(path, &sun, cause) != 0)
		return (-1);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0)) == -1) {
		xasprintf(cause, "socket: %s", strerror(errno));
		return (-1);
	}
	r = connect(fd, (struct sockaddr *)&sun, sizeof sun);
	saved_errno = errno;
	close(fd);
	/* EAGAIN: alive, its backlog is full. */
	if (r == 0 || saved_errno == EAGAIN || saved_errno == EINPROGRESS) {
		xasprintf(cause, "%s: a process is already listening there",
		    path);
		return (-1);
	}
	if (saved_errno == ENOENT)
		return (0);
	if (saved_errno != ECONNREFUSED) {
		xasprintf(cause, "%s: connect: %s", path,
		    strerror(saved_errno));
		return (-1);
	}
	if (unlink(path) == -1 && errno != ENOENT) {
		xasprintf(cause, "%s: removing stale socket: %s", path,
		    strerror(errno));
		return (-1);
	}
	log_info("%s: removed stale socket", path);
	return (0);
}

static int
listen_unix(const struct config *cf, const char *path,
    struct listener *l, char **cause)
{
	struct sockaddr_un	 sun;
	struct stat		 sb;
	struct group		*gr = NULL;
	mode_t			 old;
	int			 r;

	if (cf->unix_group != NULL && (gr = getgrnam(cf->unix_group)) == NULL) {
		xasprintf(cause, "%s: unix_group: no such group '%s'", path,
		    cf->unix_group);
		return (-1);
	}
	if (listen_unix_addr(path, &sun, cause) != 0 ||
	    listen_unix_probe(path, cause) != 0)
		return (-1);
	if ((l->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK |
	    SOCK_CLOEXEC, 0)) == -1) {
		xasprintf(cause, "%s: socket: %s", path, strerror(errno));
		return (-1);
	}
	/* Nobody else may connect before the mode and group are right. */
	old = umask(0177);
	r = bind(l->fd, (struct sockaddr *)&sun, sizeof sun);
	umask(old);
	if (r == -1) {
		xasprintf(cause, "%s: bind: %s", path, strerror(errno));
		return (-1);
	}
	l->owned = 1;
	if (lstat(path, &sb) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return (-1);
	}
	l->dev = sb.st_dev;
	l->ino = sb.st_ino;
	if (chmod(path, cf->unix_mode) == -1) {
		xasprintf(cause, "%s: chmod: %s", path, strerror(errno));
		return (-1);
	}
	if (gr != NULL && chown(path, (uid_t)-1, gr->gr_gid) == -1) {
		xasprintf(cause, "%s: chgrp %s: %s", path, cf->unix_group,
		    strerror(errno));
		return (-1);
	}
	if (listen(l->fd, LISTEN_BACKLOG) == -1) {
		xasprintf(cause, "%s: listen: %s", path, strerror(errno));
		return (-1);
	}
	return (0);
}

static int
listen_tcp_one(const struct addrinfo *ai, struct listener *l,
    char **cause)
{
	struct sockaddr_storage	ss;
	socklen_t		sslen = sizeof ss;
	char			host[NI_MAXHOST], serv[NI_MAXSERV];
	int			one = 1;

	if (getnameinfo(ai->ai_addr, ai->ai_addrlen, host, sizeof host, serv,
	    sizeof serv, NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
		strcpy(host, "?");
		strcpy(serv, "?");
	}
	if ((l->fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK |
	    SOCK_CLOEXEC, ai->ai_protocol)) == -1) {
		xasprintf(cause, "%s port %s: socket: %s", host, serv,
		    strerror(errno));
		return (-1);
	}
	if (setsockopt(l->fd, SOL_SOCKET, SO_REUSEADDR, &one,
	    sizeof one) == -1 || (ai->ai_family == AF_INET6 &&
	    setsockopt(l->fd, IPPROTO_IPV6, IPV6_V6ONLY, &one,
	    sizeof one) == -1)) {
		xasprintf(cause, "%s port %s: setsockopt: %s", host, serv,
		    strerror(errno));
		return (-1);
	}
	if (bind(l->fd, ai->ai_addr, ai->ai_addrlen) == -1) {
		xasprintf(cause, "%s port %s: bind: %s", host, serv,
		    strerror(errno));
		return (-1);
	}
	if (listen(l->fd, LISTEN_BACKLOG) == -1) {
		xasprintf(cause, "%s port %s: listen: %s", host, serv,
		    strerror(errno));
		return (-1);
	}
	/* The port actually bound, for the log. */
	if (getsockname(l->fd, (struct sockaddr *)&ss, &sslen) == 0)
		(void)getnameinfo((struct sockaddr *)&ss, sslen, host,
		    sizeof host, serv, sizeof serv,
		    NI_NUMERICHOST | NI_NUMERICSERV);
	xasprintf(&l->name, ai->ai_family == AF_INET6 ? "tcp:[%s]:%s%s" :
	    "tcp:%s:%s%s", host, serv, listen_kinds[l->kind]);
	return (0);
}

/* A host name may resolve to several addresses: one listener each. */
static int
listen_tcp(const struct listen_spec *spec, struct listener **ls,
    size_t *n, char **cause)
{
	struct addrinfo	 hints, *res, *ai, *prev;
	struct listener	*l;
	int		 error;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	if ((error = getaddrinfo(spec->host, spec->port, &hints, &res)) != 0) {
		xasprintf(cause, "%s port %s: %s", spec->host, spec->port,
		    gai_strerror(error));
		return (-1);
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		for (prev = res; prev != ai; prev = prev->ai_next) {
			if (prev->ai_addrlen == ai->ai_addrlen &&
			    memcmp(prev->ai_addr, ai->ai_addr,
			    ai->ai_addrlen) == 0)
				break;
		}
		if (prev != ai)
			continue;	/* the same address twice */
		*ls = xreallocarray(*ls, *n + 1, sizeof **ls);
		l = &(*ls)[(*n)++];
		memset(l, 0, sizeof *l);
		l->fd = -1;
		l->type = LISTEN_TCP;
		l->kind = spec->kind;
		if (listen_tcp_one(ai, l, cause) != 0) {
			freeaddrinfo(res);
			return (-1);
		}
	}
	freeaddrinfo(res);
	return (0);
}

/* Same family, address and port? */
static int
listen_same_inet(const struct sockaddr *a, const struct sockaddr *b)
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

/* A TCP spec matches an inherited socket on any address it resolves to. */
static int
listen_match_tcp(const struct listener *ls, size_t n,
    const struct listen_spec *spec)
{
	struct addrinfo	 hints, *res, *ai;
	size_t		 i;
	int		 found = -1;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	if (getaddrinfo(spec->host, spec->port, &hints, &res) != 0)
		return (-1);
	for (i = 0; i < n && found == -1; i++) {
		if (!ls[i].inherited || ls[i].type != LISTEN_TCP)
			continue;
		for (ai = res; ai != NULL; ai = ai->ai_next) {
			if (listen_same_inet(ai->ai_addr,
			    (const struct sockaddr *)&ls[i].addr)) {
				found = (int)i;
				break;
			}
		}
	}
	freeaddrinfo(res);
	return (found);
}

int
listen_match(const struct listener *ls, size_t n,
    const struct listen_spec *spec)
{
	size_t	i;

	if (spec->type == LISTEN_TCP)
		return (listen_match_tcp(ls, n, spec));
	for (i = 0; i < n; i++) {
		if (ls[i].inherited && ls[i].type == LISTEN_UNIX &&
		    ls[i].path != NULL && strcmp(ls[i].path, spec->path) == 0)
			return ((int)i);
	}
	return (-1);
}

/* Open one configured listener (a TCP name may give several). */
static int
listen_spec(const struct config *cf, const struct listen_spec *spec,
    struct listener **ls, size_t *n, char **cause)
{
	struct listener	*l;

	if (spec->type == LISTEN_TCP)
		return (listen_tcp(spec, ls, n, cause));
	*ls = xreallocarray(*ls, *n + 1, sizeof **ls);
	l = &(*ls)[(*n)++];
	memset(l, 0, sizeof *l);
	l->fd = -1;
	l->type = LISTEN_UNIX;
	l->kind = spec->kind;
	l->path = xstrdup(spec->path);
	xasprintf(&l->name, "unix:%s%s", spec->path, listen_kinds[l->kind]);
	return (listen_unix(cf, spec->path, l, cause));
}

int
listen_open(const struct config *cf, struct listener **out, size_t *nout,
    char **cause)
{
	struct listener	*ls = NULL;
	size_t		 n = 0, i, ninh;
	int		 m, *matched = NULL;

	*cause = NULL;
	if (activation_take(&ls, &n, cause) == -1)
		goto fail;
	ninh = n;
	matched = xcalloc(ninh + 1, sizeof *matched);
	for (i = 0; i < cf->nlisten; i++) {
		if ((m = listen_match(ls, ninh, &cf->listen[i])) != -1) {
			matched[m] = 1;
			ls[m].kind = cf->listen[i].kind;
			log_info("%s: inherited from the service manager",
			    ls[m].name);
		} else if (listen_spec(cf, &cf->listen[i], &ls, &n, cause) != 0)
			goto fail;
	}
	for (i = 0; i < n; i++) {
		if (i < ninh && !matched[i])
			log_info("%s: inherited from the service manager, not "
			    "in the configuration: serving it too", ls[i].name);
		log_info("listening on %s", ls[i].name);
	}
	free(matched);
	*out = ls;
	*nout = n;
	return (0);
fail:
	free(matched);
	listen_close(ls, n);
	*out = NULL;
	*nout = 0;
	return (-1);
}

int
listen_check(const struct config *cf, char **cause)
{
	const struct listen_spec	*spec;
	struct addrinfo			 hints, *res;
	struct stat			 sb;
	char				*dir, *slash;
	size_t				 i;
	int				 error;

	*cause = NULL;
	if (cf->unix_group != NULL && getgrnam(cf->unix_group) == NULL) {
		xasprintf(cause, "unix_group: no such group '%s'", cf->unix_group);
		return (-1);
	}
	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	for (i = 0; i < cf->nlisten; i++) {
		spec = &cf->listen[i];
		if (spec->type == LISTEN_TCP) {
			if ((error = getaddrinfo(spec->host, spec->port,
			    &hints, &res)) != 0) {
				xasprintf(cause, "%s port %s: %s", spec->host,
				    spec->port, gai_strerror(error));
				return (-1);
			}
			freeaddrinfo(res);
			continue;
		}
		dir = xstrdup(spec->path);
		if ((slash = strrchr(dir, '/')) != NULL)
			*(slash == dir ? slash + 1 : slash) = '\0';
		error = stat(slash != NULL ? dir : ".", &sb) == -1 ? errno :
		    !S_ISDIR(sb.st_mode) ? ENOTDIR : 0;
		if (error != 0)
			xasprintf(cause, "%s: directory %s: %s", spec->path,
			    slash != NULL ? dir : ".", strerror(error));
		free(dir);
		if (error != 0)
			return (-1);
	}
	return (0);
}

void
listen_close(struct listener *ls, size_t n)
{
	struct listener	*l;
	struct stat	 sb;
	size_t		 i;

	for (i = 0; i < n; i++) {
		l = &ls[i];
		if (l->fd >= 0)
			close(l->fd);
		/* Unlink only our socket: not a successor's at that path. */
		if (l->owned && l->path != NULL && lstat(l->path, &sb) == 0 &&
		    sb.st_dev == l->dev && sb.st_ino == l->ino &&
		    unlink(l->path) == -1)
			log_warn("%s: unlink", l->path);
		free(l->path);
		free(l->name);
		free(l->fdname);
	}
	free(ls);
}
