/*
 * batch.h -- sudokuc's batch over connections to sudokud.
 */
#ifndef BATCH_H
#define BATCH_H

#include "input.h"
#include "output.h"
#include "peer.h"

/* Connections a batch may be spread over (-C). */
#define BATCH_CONN_DEFAULT	2
#define BATCH_CONN_MAX		64

/*
 * Send every item of in over the nfd connected descriptors, at most
 * window requests in flight in all, and hand the replies to out in
 * input order.  Puzzles go to the connections in turn; ping, stats and
 * version go to the first.  peer names the server in messages.  Returns
 * 0, or -1 when the run had to stop (connection lost, protocol error; a
 * message has been printed).  Closes the descriptors.
 */
int	batch_run(const int *fds, size_t nfd, const char *peer,
	    struct input *in, const struct query *q, struct output *out,
	    size_t window);

#endif /* BATCH_H */
