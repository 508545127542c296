/* SPDX-License-Identifier: ISC */
/*
 * remote.h -- who is at the other end of a connection, for the log: the
 * socket's peer, or the client a load balancer's PROXY header names.
 */
#ifndef REMOTE_H
#define REMOTE_H

#include <sys/types.h>
#include <sys/socket.h>

#include <stddef.h>
#include <stdint.h>

struct frame;
struct stats;

/*
 * Who a connection is with, kept whatever the log level, for CLIENT LIST
 * and the slow log: a TCP peer's address and port, or a Unix peer's
 * credentials; family 0 when the kernel could not say.
 */
struct remote_addr {
	uint8_t		 family;	/* AF_INET, AF_INET6, AF_UNIX, 0 */
	uint16_t	 port;		/* TCP, host order */
	uint8_t		 addr[16];	/* TCP */
	int32_t		 pid;		/* Unix */
	uint32_t	 uid;
};

/* The socket's peer (getpeername(2), SO_PEERCRED). */
void	remote_get(int fd, struct remote_addr *);

/* "tcp:203.0.113.7:51000", "tcp:[::1]:7999", "unix:pid=42:uid=1000". */
void	remote_text(const struct remote_addr *, char *buf, size_t size);
#define REMOTE_TEXT	80	/* room for the longest */

/*
 * ", tcp 127.0.0.1:40000" or ", unix pid 1234 uid 1000", to append to a
 * connection's log lines; NULL unless the log is at debug level or
 * always is set (it costs two system calls), or if the kernel cannot say.
 */
char	*remote_describe(int fd, int always);

/*
 * ", tcp 203.0.113.7:51000 via 127.0.0.1:40000": the client a PROXY
 * header named (sa), and what remote_describe() said of the balancer
 * (via, may be NULL); NULL unless the log is at debug level.
 */
char	*remote_format(const struct sockaddr *sa, socklen_t len,
	    const char *via);

/*
 * The PROXY header at the start of in (proxy.c), once it has all come;
 * eof: no more will.  1 if it was taken: dropped from in, counted, and
 * unless it is the balancer's own (LOCAL) connection, *peer (as from
 * remote_describe(), may be NULL) replaced by the client it names, and
 * *client set to it.  0
 * if more is needed; -1 if it is bad: logged with the balancer's
 * address and counted, *why (static text) says what is wrong, and the
 * connection must close.
 */
int	remote_proxy(struct frame *in, int eof, int fd, char **peer,
	    struct remote_addr *client, struct stats *st, const char **why);

#endif /* REMOTE_H */
