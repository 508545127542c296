/* SPDX-License-Identifier: ISC */
/*
 * remote.c -- who is at the other end of a connection, for the log: the
 * socket's peer, or the client a load balancer's PROXY header names.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <netdb.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <syslog.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "frame.h"
#include "proxy.h"
#include "remote.h"
#include "stats.h"

char *
remote_describe(int fd, int always)
{
	struct sockaddr_storage	 ss;
	struct ucred		 cred;
	socklen_t		 len = sizeof ss;
	char			 host[NI_MAXHOST], serv[NI_MAXSERV], *peer;

	if ((!always && !log_enabled(LOG_DEBUG)) ||
	    getpeername(fd, (struct sockaddr *)&ss, &len) == -1)
		return (NULL);
	if (ss.ss_family == AF_UNIX) {
		len = sizeof cred;
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0)
			return (NULL);
		xasprintf(&peer, ", unix pid %ld uid %lu", (long)cred.pid,
		    (unsigned long)cred.uid);
	} else if (getnameinfo((struct sockaddr *)&ss, len, host,
	    sizeof host, serv, sizeof serv, NI_NUMERICHOST |
	    NI_NUMERICSERV) == 0)
		xasprintf(&peer, ss.ss_family == AF_INET6 ? ", tcp [%s]:%s" :
		    ", tcp %s:%s", host, serv);
	else
		return (NULL);
	return (peer);
}

/* A TCP address into r. */
static void
remote_from(struct remote_addr *r, const struct sockaddr *sa)
{
	const struct sockaddr_in	*sin = (const void *)sa;
	const struct sockaddr_in6	*sin6 = (const void *)sa;

	memset(r, 0, sizeof *r);
	if (sa->sa_family == AF_INET) {
		r->family = AF_INET;
		r->port = ntohs(sin->sin_port);
		memcpy(r->addr, &sin->sin_addr, 4);
	} else if (sa->sa_family == AF_INET6) {
		r->family = AF_INET6;
		r->port = ntohs(sin6->sin6_port);
		memcpy(r->addr, &sin6->sin6_addr, 16);
	}
}

void
remote_get(int fd, struct remote_addr *r)
{
	struct sockaddr_storage	 ss;
	struct ucred		 cred;
	socklen_t		 len = sizeof ss;

	memset(r, 0, sizeof *r);
	if (getpeername(fd, (struct sockaddr *)&ss, &len) == -1)
		return;
	if (ss.ss_family != AF_UNIX) {
		remote_from(r, (struct sockaddr *)&ss);
		return;
	}
	len = sizeof cred;
	r->family = AF_UNIX;
	r->pid = -1;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0) {
		r->pid = (int32_t)cred.pid;
		r->uid = (uint32_t)cred.uid;
	}
}

void
remote_text(const struct remote_addr *r, char *buf, size_t size)
{
	char	a[INET6_ADDRSTRLEN];

	switch (r->family) {
	case AF_INET:
		inet_ntop(AF_INET, r->addr, a, sizeof a);
		snprintf(buf, size, "tcp:%s:%u", a, r->port);
		break;
	case AF_INET6:
		inet_ntop(AF_INET6, r->addr, a, sizeof a);
		snprintf(buf, size, "tcp:[%s]:%u", a, r->port);
		break;
	case AF_UNIX:
		snprintf(buf, size, "unix:pid=%ld:uid=%lu", (long)r->pid,
		    (unsigned long)r->uid);
		break;
	default:
		snprintf(buf, size, "unknown");
		break;
	}
}

char *
remote_format(const struct sockaddr *sa, socklen_t len, const char *via)
{
	char	host[NI_MAXHOST], serv[NI_MAXSERV], *peer;

	if (!log_enabled(LOG_DEBUG) || getnameinfo(sa, len, host, sizeof host,
	    serv, sizeof serv, NI_NUMERICHOST | NI_NUMERICSERV) != 0)
		return (NULL);
	/* via is ", tcp ADDR": say "via ADDR". */
	xasprintf(&peer, sa->sa_family == AF_INET6 ? ", tcp [%s]:%s%s%s" :
	    ", tcp %s:%s%s%s", host, serv, via != NULL ? " via " : "",
	    via != NULL && strncmp(via, ", tcp ", 6) == 0 ? via + 6 :
	    via != NULL ? via : "");
	return (peer);
}

int
remote_proxy(struct frame *in, int eof, int fd, char **peer,
    struct remote_addr *client, struct stats *st, const char **why)
{
	struct proxy	 hdr;
	const char	*data;
	char		*p;
	size_t		 len;

	data = frame_data(in, &len);
	if (len > PROXY_MAX)
		len = PROXY_MAX;
	switch (proxy_parse((const uint8_t *)data, len, &hdr, why)) {
	case PROXY_MORE:
		if (!eof)
			return (0);
		*why = "the connection ended within the PROXY header";
		/* FALLTHROUGH */
	case PROXY_BAD:
		p = remote_describe(fd, 1);
		log_info("fd %d%s: closing: %s", fd, p != NULL ? p : "", *why);
		free(p);
		stats_add(st, STAT_PROXY_ERRORS, 1);
		return (-1);
	case PROXY_OK:
		break;
	}
	frame_drop(in, hdr.len);
	stats_add(st, STAT_PROXY_HEADERS, 1);
	if (!hdr.local)
		remote_from(client, (struct sockaddr *)&hdr.src);
	if (!hdr.local && (p = remote_format((struct sockaddr *)&hdr.src,
	    hdr.srclen, *peer)) != NULL) {
		free(*peer);
		*peer = p;
	}
	log_debug("fd %d%s: PROXY header%s", fd, *peer != NULL ? *peer : "",
	    hdr.local ? ": the balancer's own connection" : "");
	return (1);
}
