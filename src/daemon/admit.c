/* SPDX-License-Identifier: ISC */
/*
 * admit.c -- the open connections, counted against max_connections (see
 * admit.h).
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "admit.h"
#include "common/xmalloc.h"

/* Buckets of the peer table: chains stay short for thousands of peers. */
#define ADMIT_BUCKETS	1024

/* A peer with connections open: what identifies it, and how many. */
struct admit_peer {
	uint8_t			 family;
	uint8_t			 addr[16];	/* TCP */
	uint32_t		 uid;		/* Unix */
	unsigned int		 n;
	struct admit_peer	*next;
};

struct admit {
	_Atomic uint64_t	 open;
	_Atomic uint64_t	 half;		/* admit_half()'s */
	pthread_mutex_t		 lock;		/* guards peers */
	struct admit_peer	*peers[ADMIT_BUCKETS];
};

struct admit *
admit_new(void)
{
	struct admit	*a;

	a = xcalloc(1, sizeof *a);
	atomic_init(&a->open, 0);
	atomic_init(&a->half, 0);
	pthread_mutex_init(&a->lock, NULL);
	return (a);
}

void
admit_free(struct admit *a)
{
	struct admit_peer	*p;
	size_t			 i;

	if (a == NULL)
		return;
	for (i = 0; i < ADMIT_BUCKETS; i++)
		while ((p = a->peers[i]) != NULL) {
			a->peers[i] = p->next;
			free(p);
		}
	pthread_mutex_destroy(&a->lock);
	free(a);
}

/* who's peer as the table keys it: the address, or the uid. */
static void
admit_key(const struct remote_addr *who, struct admit_peer *k)
{
	memset(k, 0, sizeof *k);
	k->family = who->family;
	if (who->family == AF_UNIX)
		k->uid = who->uid;
	else
		memcpy(k->addr, who->addr, sizeof k->addr);
}

/* Its bucket (FNV-1a over the key), and its entry there or NULL. */
static struct admit_peer **
admit_find(struct admit *a, const struct admit_peer *k)
{
	struct admit_peer	**pp;
	uint32_t		  h = 2166136261u;
	size_t			  i;

	h = (h ^ k->family) * 16777619u;
	for (i = 0; i < sizeof k->addr; i++)
		h = (h ^ k->addr[i]) * 16777619u;
	h = (h ^ k->uid) * 16777619u;
	for (pp = &a->peers[h % ADMIT_BUCKETS]; *pp != NULL;
	    pp = &(*pp)->next)
		if ((*pp)->family == k->family && (*pp)->uid == k->uid &&
		    memcmp((*pp)->addr, k->addr, sizeof k->addr) == 0)
			break;
	return (pp);
}

int
admit_peer(struct admit *a, const struct remote_addr *who, unsigned int max)
{
	struct admit_peer	 k, **pp;
	int			 r = 0;

	admit_key(who, &k);
	pthread_mutex_lock(&a->lock);
	pp = admit_find(a, &k);
	if (*pp == NULL) {
		*pp = xmalloc(sizeof **pp);
		**pp = k;
	}
	/* (Refused, it has max >= 1 open: the entry stays in use.) */
	if (max != 0 && (*pp)->n >= max)
		r = -1;
	else
		(*pp)->n++;
	pthread_mutex_unlock(&a->lock);
	return (r);
}

void
admit_unpeer(struct admit *a, const struct remote_addr *who)
{
	struct admit_peer	 k, **pp, *p;

	admit_key(who, &k);
	pthread_mutex_lock(&a->lock);
	if ((p = *(pp = admit_find(a, &k))) != NULL && --p->n == 0) {
		*pp = p->next;
		free(p);
	}
	pthread_mutex_unlock(&a->lock);
}

/* Taken, then given back if that went over: never more than max. */
static int
admit_take(_Atomic uint64_t *count, unsigned int max)
{
	uint64_t	n;

	n = atomic_fetch_add_explicit(count, 1, memory_order_relaxed);
	if (max != 0 && n >= max) {
		atomic_fetch_sub_explicit(count, 1, memory_order_relaxed);
		return (-1);
	}
	return (0);
}

int
admit_open(struct admit *a, unsigned int max)
{
	return (admit_take(&a->open, max));
}

int
admit_half(struct admit *a, unsigned int max)
{
	return (admit_take(&a->half, max));
}

void
admit_half_close(struct admit *a)
{
	atomic_fetch_sub_explicit(&a->half, 1, memory_order_relaxed);
}

void
admit_close(struct admit *a)
{
	atomic_fetch_sub_explicit(&a->open, 1, memory_order_relaxed);
}

uint64_t
admit_current(const struct admit *a)
{
	return (atomic_load_explicit(&a->open, memory_order_relaxed));
}
