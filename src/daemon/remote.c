/* SPDX-License-Identifier: ISC */
/*
 * remote.c -- who is at the other end of a connection, for the log: the
 * socket's peer, or the client a load balancer's PROXY header names.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <netdb.h>
#include <stddef.h>
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
    struct stats *st, const char **why)
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
	if (!hdr.local && (p = remote_format((struct sockaddr *)&hdr.src,
	    hdr.srclen, *peer)) != NULL) {
		free(*peer);
		*peer = p;
	}
	log_debug("fd %d%s: PROXY header%s", fd, *peer != NULL ? *peer : "",
	    hdr.local ? ": the balancer's own connection" : "");
	return (1);
}
