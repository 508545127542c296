/*
 * remote.h -- who is at the other end of a connection, for the log.
 */
#ifndef REMOTE_H
#define REMOTE_H

/*
 * ", tcp 127.0.0.1:40000" or ", unix pid 1234 uid 1000", to append to a
 * connection's log lines; NULL unless the log is at debug level (it
 * costs two system calls a connection) or if the kernel cannot say.
 */
char	*remote_describe(int fd);

#endif /* REMOTE_H */
