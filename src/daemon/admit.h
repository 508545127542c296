/* SPDX-License-Identifier: ISC */
/*
 * admit.h -- admission: how many client connections are open, and the
 * gate of max_connections.
 *
 * Every worker opens and closes connections, so the count is one atomic
 * shared by all; a worker admits a connection only if fewer than the
 * limit are open (one more gets ERR busy).  STATS and the metrics read
 * the count from here.  The connections of each peer are counted too,
 * in a small table under a mutex, taken once when a connection opens and
 * once when it closes.
 */
#ifndef ADMIT_H
#define ADMIT_H

#include <stdint.h>

#include "remote.h"

struct admit;

struct admit	*admit_new(void);
void		 admit_free(struct admit *);

/* Count one more connection unless max are open already; 0 or -1. */
int		 admit_open(struct admit *, unsigned int max);
/* One admitted connection closed. */
void		 admit_close(struct admit *);

/*
 * Per peer (max_connections_per_peer): one more connection of the
 * client who (an address for TCP, whatever the port; a uid for a Unix
 * socket) unless max of its are open already (max 0: no limit); 0 or
 * -1.  Every connection admitted so is given back with admit_unpeer().
 */
int		 admit_peer(struct admit *, const struct remote_addr *who,
		    unsigned int max);
void		 admit_unpeer(struct admit *, const struct remote_addr *who);
/*
 * Half-closed with work (max_half_closed): one more TCP connection whose
 * client has ended its sending side while requests of its are still to
 * answer, unless max are so already (0: no limit); 0 or -1.  Given back
 * with admit_half_close().
 */
int		 admit_half(struct admit *, unsigned int max);
void		 admit_half_close(struct admit *);

/* Connections open now. */
uint64_t	 admit_current(const struct admit *);

#endif /* ADMIT_H */
