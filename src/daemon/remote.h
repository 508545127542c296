/*
 * remote.h -- who is at the other end of a connection, for the log.
 */
#ifndef REMOTE_H
#define REMOTE_H

#include <sys/types.h>
#include <sys/socket.h>

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

#endif /* REMOTE_H */
