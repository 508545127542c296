/* SPDX-License-Identifier: ISC */
/*
 * batch.h -- sudokuc's batch over connections to sudokud servers.
 */
#ifndef BATCH_H
#define BATCH_H

#include "input.h"
#include "output.h"
#include "servers.h"

/* Connections a batch may be spread over (-C). */
#define BATCH_CONN_DEFAULT	2
#define BATCH_CONN_MAX		64

/*
 * The reply and connect timeout (-t), in seconds: far above the longest
 * request the default budget allows (tens of milliseconds), and long
 * enough for a daemon to be restarted.
 */
#define BATCH_TIMEOUT_DEFAULT	30
#define BATCH_TIMEOUT_MAX	86400

struct batch_opts {
	size_t	window;		/* requests in flight, in all (-w) */
	double	timeout;	/* -t */
	int	verbose;	/* report losses, resends, reconnects */
};

/*
 * Send every item of in over nconn connections to the nserver servers
 * (nserver <= nconn; connection i to server i % nserver), at most
 * window requests in flight in all, and hand the replies to out in
 * input order.  Puzzles go to the connections up in turn; ping, stats
 * and version to the first one up.  The requests of a lost connection
 * are sent again on the others (sudokuc(1), "Several servers").
 * Returns 0, or -1 when the run had to stop (no server reachable at
 * the start or for the timeout, a protocol error; a message has been
 * printed).
 */
int	batch_run(struct endpoint *servers, size_t nserver, size_t nconn,
	    struct input *in, const struct query *q, struct output *out,
	    const struct batch_opts *bo);

#endif /* BATCH_H */
