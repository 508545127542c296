/* SPDX-License-Identifier: ISC */
/*
 * clients.h -- every open client connection, for CLIENT LIST.
 *
 * A connection belongs to its worker thread, and CLIENT LIST may come on
 * any worker: so each connection has a card, which the registry links
 * under one mutex when the connection opens and unlinks when it closes
 * (never on a request's path).  What changes while it lives, the owner
 * writes with relaxed atomic stores and a lister reads without the
 * owner's help, as the statistics are (stats.h): a line may be a few
 * requests stale, never torn.
 */
#ifndef CLIENTS_H
#define CLIENTS_H

#include <sys/queue.h>

#include <stdatomic.h>
#include <stdint.h>

#include "remote.h"

struct evbuffer;
struct clients;

/* What a connection is doing, as CLIENT LIST says it. */
enum clients_state {
	CLIENTS_PROXY = 0,	/* waiting for its PROXY header */
	CLIENTS_IDLE,		/* waiting for requests */
	CLIENTS_BUSY,		/* requests to serve */
	CLIENTS_BLOCKED,	/* replies unread: not reading */
	CLIENTS_CLOSING,	/* no more requests */
	CLIENTS_HANDSHAKE	/* its TLS handshake is under way */
};

/* Whether a connection has sent the secret (AUTH), as CLIENT LIST says. */
enum clients_auth {
	CLIENTS_AUTH_NONE = 0,	/* the server has none (auth_file) */
	CLIENTS_AUTH_NO,	/* not yet */
	CLIENTS_AUTH_YES
};

/* A connection's card, in the connection; the owner fills it. */
struct clients_card {
	uint64_t		 id;		/* set by clients_add() */
	const char		*transport;	/* "unix", "tcp", "tcp_proxy" */
	struct remote_addr	 peer;		/* the socket's */
	struct remote_addr	 client;	/* the PROXY header's, or 0 */
	uint64_t		 born;		/* ms, deadline_now() */
	_Atomic uint64_t	 active;	/* ms: the last request served */
	_Atomic uint64_t	 requests;	/* served */
	_Atomic uint64_t	 pending;	/* reply bytes unsent */
	_Atomic int		 state;		/* enum clients_state */
	_Atomic int		 auth;		/* enum clients_auth */
	char			*cert;		/* its TLS certificate's subject */
	TAILQ_ENTRY(clients_card) entry;
};

struct clients	*clients_new(void);
void		 clients_free(struct clients *);

/* card joins the list (its id is set); its other fields are filled. */
void		 clients_add(struct clients *, struct clients_card *);
/* The client a PROXY header named, set under the lock (read whole). */
void		 clients_client(struct clients *, struct clients_card *,
		    const struct remote_addr *);
/* card leaves it: after this, no lister reads it. */
void		 clients_remove(struct clients *, struct clients_card *);

/* The owner's updates. */
static inline void
clients_set(_Atomic uint64_t *field, uint64_t v)
{
	atomic_store_explicit(field, v, memory_order_relaxed);
}

static inline void
clients_state(struct clients_card *card, enum clients_state st)
{
	atomic_store_explicit(&card->state, (int)st, memory_order_relaxed);
}

static inline void
clients_auth(struct clients_card *card, enum clients_auth a)
{
	atomic_store_explicit(&card->auth, (int)a, memory_order_relaxed);
}

/* The subject of the client's certificate, set under the lock (once). */
void		 clients_cert(struct clients *, struct clients_card *,
		    const char *subject);

/*
 * CLIENT LIST's lines, one a connection, oldest first, then END, a piece
 * at a time: the connections from id *at on, until about bytes are
 * added to out; *at moves on.  Returns 1 once END is added, else 0.  A
 * connection that closes or opens in between is not listed, or listed
 * at its place.
 */
int		 clients_list(struct clients *, uint64_t *at, struct evbuffer *,
		    size_t bytes);

#endif /* CLIENTS_H */
