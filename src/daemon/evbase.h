/* SPDX-License-Identifier: ISC */
/*
 * evbase.h -- the event base of one thread: the accepting thread's, or
 * a worker's.  Each is used by its thread alone, so it has no locks.
 */
#ifndef EVBASE_H
#define EVBASE_H

struct event_base;

/* A new base, without locking; exits if libevent cannot make one. */
struct event_base	*evbase_new(void);

#endif /* EVBASE_H */
