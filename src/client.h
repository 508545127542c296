/*
 * client.h -- sudokuc's connection to sudokud: connect, then pipeline.
 */
#ifndef CLIENT_H
#define CLIENT_H

#include "input.h"
#include "output.h"

/*
 * Connect to a Unix socket, or to host and port over TCP.  Return a
 * non-blocking descriptor, or -1 with the reason in cause.
 */
int	client_connect_unix(const char *path, char *cause, size_t size);
int	client_connect_tcp(const char *host, const char *port, char *cause,
	    size_t size);

/*
 * Send every item of in over fd, at most window requests in flight,
 * and hand the replies to out in input order.  peer names the server in
 * messages.  Returns 0, or -1 when the run had to stop (connection lost,
 * protocol error; a message has been printed).  Closes fd.
 */
int	client_run(int fd, const char *peer, struct input *in,
	    const struct query *q, struct output *out, size_t window);

#endif /* CLIENT_H */
