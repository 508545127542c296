/* SPDX-License-Identifier: ISC */
/*
 * cfref.h -- a configuration shared by the threads that serve with it.
 *
 * It is made with one reference, the accepting thread's; every worker
 * takes one of its own (cfref_hold()) and drops it when it switches to a
 * newer configuration.  The last one frees it, unless it is the caller's
 * of server_run() (owned 0).  A configuration is never changed once
 * shared, so the threads read it without a lock.
 */
#ifndef CFREF_H
#define CFREF_H

struct config;
struct cfref;

/* cf with one reference; owned: config_free() it with the last one. */
struct cfref	*cfref_new(struct config *cf, int owned);
struct cfref	*cfref_hold(struct cfref *);
void		 cfref_release(struct cfref *);
struct config	*cfref_config(const struct cfref *);

#endif /* CFREF_H */
