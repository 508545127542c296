/* SPDX-License-Identifier: ISC */
/*
 * clients.c -- the registry of open connections and CLIENT LIST (see
 * clients.h).
 */
#include <sys/types.h>
#include <sys/queue.h>

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <event2/buffer.h>

#include "clients.h"
#include "common/xmalloc.h"
#include "deadline.h"

TAILQ_HEAD(clients_list, clients_card);

struct clients {
	pthread_mutex_t		 lock;		/* guards list and next */
	struct clients_list	 list;
	uint64_t		 next;		/* the next card's id */
};

static const char *const clients_states[] = {
	[CLIENTS_PROXY] = "proxy", [CLIENTS_IDLE] = "idle",
	[CLIENTS_BUSY] = "busy", [CLIENTS_BLOCKED] = "blocked",
	[CLIENTS_CLOSING] = "closing", [CLIENTS_HANDSHAKE] = "handshake"
};

static const char *const clients_auths[] = {
	[CLIENTS_AUTH_NONE] = "none", [CLIENTS_AUTH_NO] = "no",
	[CLIENTS_AUTH_YES] = "yes"
};

struct clients *
clients_new(void)
{
	struct clients	*cl;

	cl = xcalloc(1, sizeof *cl);
	pthread_mutex_init(&cl->lock, NULL);
	TAILQ_INIT(&cl->list);
	cl->next = 1;
	return (cl);
}

void
clients_free(struct clients *cl)
{
	if (cl == NULL)
		return;
	pthread_mutex_destroy(&cl->lock);
	free(cl);
}

void
clients_add(struct clients *cl, struct clients_card *card)
{
	pthread_mutex_lock(&cl->lock);
	card->id = cl->next++;
	TAILQ_INSERT_TAIL(&cl->list, card, entry);
	pthread_mutex_unlock(&cl->lock);
}

void
clients_client(struct clients *cl, struct clients_card *card,
    const struct remote_addr *client)
{
	pthread_mutex_lock(&cl->lock);
	card->client = *client;
	pthread_mutex_unlock(&cl->lock);
}

void
clients_cert(struct clients *cl, struct clients_card *card,
    const char *subject)
{
	char	*s = xstrdup(subject);

	pthread_mutex_lock(&cl->lock);
	free(card->cert);
	card->cert = s;
	pthread_mutex_unlock(&cl->lock);
}

void
clients_remove(struct clients *cl, struct clients_card *card)
{
	pthread_mutex_lock(&cl->lock);
	TAILQ_REMOVE(&cl->list, card, entry);
	pthread_mutex_unlock(&cl->lock);
	free(card->cert);
	card->cert = NULL;
}

/* One line: id, transport, address (and via), times, counts, state. */
static void
clients_line(struct evbuffer *out, const struct clients_card *k,
    uint64_t now)
{
	char		peer[REMOTE_TEXT], client[REMOTE_TEXT];
	uint64_t	active, age;
	int		st;

	remote_text(&k->peer, peer, sizeof peer);
	active = atomic_load_explicit(&k->active, memory_order_relaxed);
	st = atomic_load_explicit(&k->state, memory_order_relaxed);
	age = now > k->born ? now - k->born : 0;
	if (k->client.family != 0) {
		remote_text(&k->client, client, sizeof client);
		evbuffer_add_printf(out, "id=%" PRIu64 " transport=%s addr=%s "
		    "via=%s", k->id, k->transport, client, peer);
	} else
		evbuffer_add_printf(out, "id=%" PRIu64 " transport=%s addr=%s",
		    k->id, k->transport, peer);
	evbuffer_add_printf(out, " age=%" PRIu64 " idle=%" PRIu64
	    " requests=%" PRIu64 " pending=%" PRIu64 " state=%s auth=%s",
	    age / 1000, (now > active ? now - active : 0) / 1000,
	    atomic_load_explicit(&k->requests, memory_order_relaxed),
	    atomic_load_explicit(&k->pending, memory_order_relaxed),
	    st >= 0 && st <= CLIENTS_HANDSHAKE ? clients_states[st] : "?",
	    clients_auths[atomic_load_explicit(&k->auth,
	    memory_order_relaxed) % 3]);
	if (k->cert != NULL)
		evbuffer_add_printf(out, " cert=%s", k->cert);
	evbuffer_add(out, "\n", 1);
}

int
clients_list(struct clients *cl, uint64_t *at, struct evbuffer *out,
    size_t bytes)
{
	const struct clients_card	*k;
	uint64_t			 now = deadline_now();
	size_t				 start = evbuffer_get_length(out);

	pthread_mutex_lock(&cl->lock);
	/* Cards join at the tail with the next id: the list is in id order. */
	TAILQ_FOREACH(k, &cl->list, entry) {
		if (k->id < *at)
			continue;
		if (evbuffer_get_length(out) - start >= bytes)
			break;
		clients_line(out, k, now);
		*at = k->id + 1;
	}
	pthread_mutex_unlock(&cl->lock);
	if (k != NULL)
		return (0);
	evbuffer_add(out, "END\n", 4);
	return (1);
}
