/* SPDX-License-Identifier: ISC */
/*
 * config_listen.c -- the addresses of [listen]: Unix socket paths,
 * HOST:PORT, [IPv6]:PORT or PORT, each listed once.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/defaults.h"
#include "common/xmalloc.h"
#include "config.h"
#include "config_table.h"

/* An IPv4 address or a host name (an IPv6 address comes in brackets). */
static int
config_listen_host(const char *host, char **reason)
{
	struct in_addr	 a4;
	const char	*s, *label = host;
	int		 digits = 1;

	if (inet_pton(AF_INET, host, &a4) == 1)
		return (0);
	if (*host == '\0') {
		xasprintf(reason, "missing host before ':'");
		return (-1);
	}
	if (strlen(host) > 253)
		goto bad;
	for (s = host; ; s++) {
		if (*s == '.' || *s == '\0') {
			if (s == label || s - label > 63 || label[0] == '-' ||
			    s[-1] == '-')
				goto bad;
			if (*s == '\0')
				break;
			label = s + 1;
			digits = 1;
			continue;
		}
		if (!isalnum((unsigned char)*s) && *s != '-')
			goto bad;
		if (!isdigit((unsigned char)*s))
			digits = 0;
	}
	if (!digits)	/* a name's last label is not all digits */
		return (0);
bad:
	if (strchr(host, ':') != NULL)
		xasprintf(reason, "'%s': put an IPv6 address in brackets, "
		    "as in [::1]:7999", host);
	else
		xasprintf(reason, "'%s' is not an IPv4 address or a host name",
		    host);
	return (-1);
}

/* HOST:PORT, [IPv6]:PORT or PORT (then the host is 127.0.0.1). */
static int
config_listen_tcp(const char *v, char **host, char **port, char **reason)
{
	struct in6_addr	 a6;
	const char	*p, *end;
	char		*h = NULL;
	long		 n;

	if (*v == '[') {
		if ((end = strchr(v, ']')) == NULL || end[1] != ':') {
			xasprintf(reason, "'%s' is not [IPv6]:PORT", v);
			return (-1);
		}
		h = xstrndup(v + 1, (size_t)(end - v - 1));
		if (inet_pton(AF_INET6, h, &a6) != 1) {
			xasprintf(reason, "'%s' is not an IPv6 address", h);
			goto fail;
		}
		p = end + 2;
	} else if ((end = strrchr(v, ':')) != NULL) {
		h = xstrndup(v, (size_t)(end - v));
		if (strchr(h, ':') != NULL) {
			free(h);
			h = xstrdup(v);
		}
		if (config_listen_host(h, reason) != 0)
			goto fail;
		p = end + 1;
	} else {
		h = xstrdup("127.0.0.1");
		p = v;
	}
	for (n = 0, end = p; isdigit((unsigned char)*end) && n <= 65535; end++)
		n = n * 10 + (*end - '0');
	if (end == p || *end != '\0' || n < 1 || n > 65535) {
		if (*v == '\0')
			xasprintf(reason, "missing value");
		else if (p == v && strspn(v, "0123456789") != strlen(v))
			xasprintf(reason, "'%s' has no port: write HOST:PORT "
			    "(127.0.0.1:%s) or a port alone", v,
			    SUDOKUD_PORT_DEFAULT);
		else
			xasprintf(reason, "'%s' is not a port (1..65535)", p);
		goto fail;
	}
	*host = h;
	*port = xstrdup(p);
	return (0);
fail:
	free(h);
	return (-1);
}

int
config_listen_add(struct config *cf, enum listen_type type,
    enum listen_kind kind, const char *v, char **reason)
{
	struct sockaddr_un	 sun;
	struct listen_spec	 ls, *o;
	size_t			 i;

	memset(&ls, 0, sizeof ls);
	ls.type = type;
	ls.kind = kind;
	if (type == LISTEN_UNIX) {
		if (*v == '\0') {
			xasprintf(reason, "missing value");
			return (-1);
		}
		if (strlen(v) >= sizeof sun.sun_path) {
			xasprintf(reason, "path too long (at most %zu bytes)",
			    sizeof sun.sun_path - 1);
			return (-1);
		}
		ls.path = xstrdup(v);
	} else if (config_listen_tcp(v, &ls.host, &ls.port, reason) != 0)
		return (-1);

	for (i = 0; i < cf->nlisten; i++) {
		o = &cf->listen[i];
		if (o->type == type && (type == LISTEN_UNIX ?
		    strcmp(o->path, ls.path) == 0 :
		    strcmp(o->host, ls.host) == 0 &&
		    strcmp(o->port, ls.port) == 0)) {
			xasprintf(reason, "%s is already listed", v);
			free(ls.path);
			free(ls.host);
			free(ls.port);
			return (-1);
		}
	}
	cf->listen = xreallocarray(cf->listen, cf->nlisten + 1,
	    sizeof *cf->listen);
	cf->listen[cf->nlisten++] = ls;
	return (0);
}
