/*
 * remote.c -- who is at the other end of a connection, for the log.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <netdb.h>
#include <stddef.h>
#include <string.h>
#include <syslog.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "remote.h"

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
