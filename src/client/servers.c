/* SPDX-License-Identifier: ISC */
/*
 * servers.c -- the servers a sudokuc batch talks to: from -s, -H and -p,
 * or $SUDOKUD_SERVERS, or $SUDOKUD_SOCKET, or the installed socket; over
 * TLS (TCP only), with a secret (AUTH) or not.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/defaults.h"
#include "common/echo.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "batch.h"
#include "options.h"
#include "peer_tls.h"
#include "servers.h"

/* A secret of --auth-file: printable ASCII without blanks, at most this. */
#define SERVERS_SECRET_MAX	256

void
servers_unix(struct endpoint *s, const char *path)
{
	memset(s, 0, sizeof *s);
	s->path = xstrdup(path);
	xasprintf(&s->name, "unix:%s", path);
}

void
servers_tcp(struct endpoint *s, char *host, char *port)
{
	memset(s, 0, sizeof *s);
	s->host = host;
	s->port = port;
	xasprintf(&s->name, strchr(host, ':') != NULL ? "tcp:[%s]:%s" :
	    "tcp:%s:%s", host, port);
}

void
servers_free(struct endpoint *s)
{
	if (s->ai != NULL)
		freeaddrinfo(s->ai);
	free(s->name);
	free(s->path);
	free(s->host);
	free(s->port);
	free(s->why);
	free(s->refusal);
	if (s->secret != NULL)
		explicit_bzero(s->secret, strlen(s->secret));
	free(s->secret);
	if (s->tls != NULL)
		peer_tls_release(s->tls);
	memset(s, 0, sizeof *s);
}

int
servers_port_ok(const char *s)
{
	size_t	len = strlen(s);

	return (len > 0 && len <= 5 && strspn(s, "0123456789") == len &&
	    atoi(s) >= 1 && atoi(s) <= 65535);
}

int
servers_hostport(const char *arg, const char *what, char **host, char **port,
    char **cause)
{
	struct in6_addr	 a6;
	const char	*end, *colon;

	*port = NULL;
	if (*arg == '[') {
		if ((end = strchr(arg, ']')) == NULL ||
		    (end[1] != '\0' && end[1] != ':')) {
			xasprintf(cause, "%s '%s' is not [ADDRESS]:PORT", what,
			    arg);
			return (-1);
		}
		*host = xstrndup(arg + 1, end - arg - 1);
		colon = end[1] == ':' ? end + 1 : NULL;
	} else if ((colon = strchr(arg, ':')) != NULL &&
	    strchr(colon + 1, ':') == NULL)
		*host = xstrndup(arg, colon - arg);
	else {
		/* Two colons or more: a bare IPv6 address, or a mistake. */
		if (colon != NULL && inet_pton(AF_INET6, arg, &a6) != 1) {
			xasprintf(cause, "%s '%s' is not HOST[:PORT] (an IPv6 "
			    "address goes in brackets: [::1]:%s)", what, arg,
			    SUDOKUD_PORT_DEFAULT);
			return (-1);
		}
		*host = xstrdup(arg);
		colon = NULL;
	}
	if (**host == '\0') {
		xasprintf(cause, "%s '%s' names no host", what, arg);
		free(*host);
		return (-1);
	}
	if (colon != NULL)
		*port = xstrdup(colon + 1);
	return (0);
}

/* A server of -s or -H, in the order given. */
static struct spec *
servers_spec_add(struct options *o)
{
	if (o->nspecs == BATCH_CONN_MAX)
		fatalx("at most %d servers", BATCH_CONN_MAX);
	o->specs = xreallocarray(o->specs, o->nspecs + 1, sizeof *o->specs);
	memset(&o->specs[o->nspecs], 0, sizeof *o->specs);
	return (&o->specs[o->nspecs++]);
}

/* A port of -p or -H, as options.c words a number out of range. */
static void
servers_port_check(const char *port)
{
	if (!servers_port_ok(port))
		fatalx("the port must be a number from 1 to 65535: '%s'", port);
}

static void
servers_host_option(struct options *o, const char *arg)
{
	struct spec	*sp = servers_spec_add(o);
	char		*cause;

	if (strncmp(arg, "tls://", 6) == 0) {
		sp->tls = 1;
		arg += 6;
	}
	if (servers_hostport(arg, "-H", &sp->host, &sp->port, &cause) == -1)
		fatalx("%s", cause);
	if (sp->port == NULL)
		return;
	if (o->port != NULL)
		fatalx("-H %s and -p both give a port", arg);
	o->hostport = 1;
	servers_port_check(sp->port);
}

void
servers_option(struct options *o, int ch, const char *arg)
{
	if (ch == 's')
		servers_spec_add(o)->path = xstrdup(arg);
	else if (ch == 'H')
		servers_host_option(o, arg);
	else {
		if (o->hostport)
			fatalx("-p and -H HOST:PORT both give a port");
		servers_port_check(arg);
		free(o->port);
		o->port = xstrdup(arg);
	}
}

/* One entry of SUDOKUD_SERVERS; 0, or -1 with *cause. */
static int
servers_spec(struct endpoint *s, const char *spec, const char *var,
    char **cause)
{
	char	*host, *port, *what;
	int	 r, tls = 0;

	if (strncmp(spec, "unix:", 5) == 0 && spec[5] != '\0') {
		servers_unix(s, spec + 5);
		return (0);
	}
	if (strncmp(spec, "tcp:", 4) == 0)
		spec += 4;
	else if (strncmp(spec, "tls://", 6) == 0) {
		spec += 6;
		tls = 1;
	} else if (strchr(spec, '/') != NULL) {
		servers_unix(s, spec);
		return (0);
	}
	xasprintf(&what, "%s:", var);
	r = servers_hostport(spec, what, &host, &port, cause);
	free(what);
	if (r == -1)
		return (-1);
	if (port != NULL && !servers_port_ok(port)) {
		xasprintf(cause, "%s: the port must be a number from 1 to "
		    "65535: '%s'", var, port);
		free(host);
		free(port);
		return (-1);
	}
	servers_tcp(s, host, port != NULL ? port : xstrdup(SUDOKUD_PORT_DEFAULT));
	s->tlsasked = tls;
	return (0);
}

int
servers_list(const char *list, const char *var, int unixonly,
    struct endpoint **v, size_t *n, char **cause)
{
	char	*copy, *p, *entry;
	size_t	 len;
	int	 r = 0;

	copy = p = xstrdup(list);
	while (r == 0 && (entry = strsep(&p, ",")) != NULL) {
		entry += strspn(entry, " \t");
		len = strlen(entry);
		while (len > 0 && (entry[len - 1] == ' ' ||
		    entry[len - 1] == '\t'))
			entry[--len] = '\0';
		if (len == 0)
			continue;
		*v = xreallocarray(*v, *n + 1, sizeof **v);
		if (unixonly)
			servers_unix(&(*v)[*n], entry);
		else if ((r = servers_spec(&(*v)[*n], entry, var, cause)) == -1)
			break;
		(*n)++;
	}
	free(copy);
	return (r);
}

int
servers_resolve(struct endpoint *s, char **cause)
{
	struct addrinfo	hints;
	int		error;

	if (s->path != NULL || s->ai != NULL)
		return (0);
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	if ((error = getaddrinfo(s->host, s->port, &hints, &s->ai)) != 0) {
		s->ai = NULL;
		xasprintf(cause, "%s", gai_strerror(error));
		return (-1);
	}
	return (0);
}

void
servers_failed(struct endpoint *s, double now, char *why, int owed)
{
	if (s->why == NULL || (owed && !s->whyowed)) {
		free(s->why);
		s->why = why;
		s->whyowed = owed;
	} else
		free(why);
	/*
	 * Its other connections failing at the same moment, or while it
	 * is waiting already, are not one more step.
	 */
	if (s->retry_at > now || s->failed == now)
		return;
	s->failed = now;
	s->retry_at = now + s->delay;
	if (s->delay == 0)
		s->delay = SERVERS_BACKOFF_FIRST;
	else if ((s->delay *= 2) > SERVERS_BACKOFF_MAX)
		s->delay = SERVERS_BACKOFF_MAX;
}

void
servers_answered(struct endpoint *s)
{
	s->delay = 0;
	free(s->why);
	s->why = NULL;
	s->whyowed = 0;
	s->unreached = 0;
}

/* One -s or -H, as a server. */
static void
servers_from_spec(const struct options *o, const struct spec *sp,
    struct endpoint *s)
{
	const char	*port = sp->port != NULL ? sp->port : o->port;

	if (sp->path != NULL)
		servers_unix(s, sp->path);
	else
		servers_tcp(s, xstrdup(sp->host), xstrdup(port != NULL ? port :
		    SUDOKUD_PORT_DEFAULT));
	s->tlsasked = sp->tls;
}

int
servers_long(struct options *o, const char *name, const char *arg)
{
	char	**p;

	if (strcmp(name, "tls") == 0) {
		o->tls = 1;
		return (0);
	}
	if (strcmp(name, "ca") == 0)
		p = &o->ca;
	else if (strcmp(name, "cert") == 0)
		p = &o->cert;
	else if (strcmp(name, "key") == 0)
		p = &o->key;
	else if (strcmp(name, "auth-file") == 0)
		p = &o->authfile;
	else
		return (-1);
	free(*p);
	*p = xstrdup(arg);
	return (0);
}

/*
 * The secret of --auth-file path: its first line, without LF or CR LF;
 * anything but 1 to SERVERS_SECRET_MAX printable bytes without blanks
 * is a usage error.
 */
static char *
servers_secret(const char *path)
{
	FILE	*f;
	char	*line = NULL;
	size_t	 size = 0;
	ssize_t	 len;

	if ((f = fopen(path, "r")) == NULL)
		fatalx("--auth-file %s: %s", path, strerror(errno));
	len = getline(&line, &size, f);
	if (len == -1 && ferror(f))
		fatalx("--auth-file %s: %s", path, strerror(errno));
	fclose(f);
	if (len > 0 && line[len - 1] == '\n')
		line[--len] = '\0';
	if (len > 0 && line[len - 1] == '\r')
		line[--len] = '\0';
	if (len <= 0 || len > SERVERS_SECRET_MAX ||
	    !echo_printable(line, len) || strchr(line, ' ') != NULL)
		fatalx("--auth-file %s: the first line must be a secret of 1 "
		    "to %d printable ASCII bytes without blanks", path,
		    SERVERS_SECRET_MAX);
	return (line);
}

/* TLS to the servers of v that ask for it (all over TCP with --tls). */
static void
servers_tls(const struct options *o, struct endpoint *v, size_t n)
{
	struct ssl_ctx_st	*ctx;
	size_t			 i, tcp = 0, tls = 0;
	char			*cause = NULL;

	if ((o->cert == NULL) != (o->key == NULL))
		fatalx("--cert and --key go together: a client certificate "
		    "and its key");
	for (i = 0; i < n; i++) {
		tcp += v[i].path == NULL;
		v[i].tlsasked |= o->tls && v[i].path == NULL;
		tls += v[i].tlsasked;
	}
	if (o->tls && tcp == 0)
		fatalx("--tls is for servers over TCP (-H, -p): a Unix socket "
		    "is never TLS");
	if (tls == 0 && (o->ca != NULL || o->cert != NULL))
		fatalx("--ca, --cert and --key are for TLS servers (--tls, or "
		    "-H tls://HOST[:PORT])");
	if (tls == 0)
		return;
	if ((ctx = peer_tls_context(o->ca, o->cert, o->key, &cause)) == NULL)
		fatalx("%s", cause);
	for (i = 0; i < n; i++) {
		if (!v[i].tlsasked)
			continue;
		peer_tls_hold(ctx);
		v[i].tls = ctx;
		free(v[i].name);
		xasprintf(&v[i].name, strchr(v[i].host, ':') != NULL ?
		    "tls://[%s]:%s" : "tls://%s:%s", v[i].host, v[i].port);
	}
	peer_tls_release(ctx);
}

struct endpoint *
servers_choose(const struct options *o, size_t *n)
{
	struct endpoint	*v = NULL;
	const char	*env;
	char		*cause;
	size_t		 i;
	int		 hosts = 0;

	*n = 0;
	if (o->nspecs > 0 || o->port != NULL) {
		v = xcalloc(o->nspecs + 1, sizeof *v);
		for (i = 0; i < o->nspecs; i++) {
			servers_from_spec(o, &o->specs[i], &v[(*n)++]);
			hosts |= o->specs[i].host != NULL;
		}
		/* -p is the port of the -H without one, or of 127.0.0.1. */
		if (o->port != NULL && !hosts)
			servers_tcp(&v[(*n)++], xstrdup("127.0.0.1"),
			    xstrdup(o->port));
	} else if ((env = getenv("SUDOKUD_SERVERS")) != NULL && *env != '\0') {
		if (servers_list(env, "SUDOKUD_SERVERS", 0, &v, n,
		    &cause) == -1)
			fatalx("%s", cause);
	} else if ((env = getenv("SUDOKUD_SOCKET")) != NULL && *env != '\0')
		servers_list(env, "SUDOKUD_SOCKET", 1, &v, n, &cause);
	if (*n == 0) {
		v = xreallocarray(v, 1, sizeof *v);
		servers_unix(&v[(*n)++], SUDOKUD_SOCKET_PATH);
	}
	if (*n > BATCH_CONN_MAX)
		fatalx("at most %d servers", BATCH_CONN_MAX);
	servers_tls(o, v, *n);
	for (i = 0; o->authfile != NULL && i < *n; i++)
		v[i].secret = i == 0 ? servers_secret(o->authfile) :
		    xstrdup(v[0].secret);
	return (v);
}
