/* SPDX-License-Identifier: ISC */
/*
 * admit.h -- admission: how many client connections are open, and the
 * gate of max_connections.
 *
 * Every worker opens and closes connections, so the count is one atomic
 * shared by all; a worker admits a connection only if fewer than the
 * limit are open (one more gets ERR busy).  STATS and the metrics read
 * the count from here.
 */
#ifndef ADMIT_H
#define ADMIT_H

#include <stdint.h>

struct admit;

struct admit	*admit_new(void);
void		 admit_free(struct admit *);

/* Count one more connection unless max are open already; 0 or -1. */
int		 admit_open(struct admit *, unsigned int max);
/* One admitted connection closed. */
void		 admit_close(struct admit *);
/* Connections open now. */
uint64_t	 admit_current(const struct admit *);

#endif /* ADMIT_H */
