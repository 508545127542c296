/* SPDX-License-Identifier: ISC */
/*
 * slowlog.c -- the slow log, a ring of fixed-size entries (see
 * slowlog.h).
 */
#include <sys/types.h>

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/buffer.h>

#include "common/xmalloc.h"
#include "remote.h"
#include "slowlog.h"
#include "walltime.h"

struct slowlog_entry {
	uint64_t	id;
	int64_t		time;		/* Unix time */
	uint64_t	us;
	uint64_t	guesses;
	char		client[REMOTE_TEXT];
	char		request[SLOWLOG_REQUEST + 4];	/* "...", NUL */
};

struct slowlog {
	pthread_mutex_t		 lock;
	struct slowlog_entry	*ring;		/* cap entries */
	size_t			 cap;
	size_t			 len;		/* the newest at head - 1 */
	size_t			 head;		/* where the next one goes */
	uint64_t		 next;		/* the next entry's id */
};

struct slowlog *
slowlog_new(void)
{
	struct slowlog	*sl;

	sl = xcalloc(1, sizeof *sl);
	pthread_mutex_init(&sl->lock, NULL);
	return (sl);
}

void
slowlog_free(struct slowlog *sl)
{
	if (sl == NULL)
		return;
	pthread_mutex_destroy(&sl->lock);
	free(sl->ring);
	free(sl);
}

/* The i-th newest entry (0: the newest); i < len. */
static struct slowlog_entry *
slowlog_at(struct slowlog *sl, size_t i)
{
	return (&sl->ring[(sl->head + sl->cap - 1 - i) % sl->cap]);
}

/* Room for max entries, keeping the newest; with the lock held. */
static void
slowlog_resize(struct slowlog *sl, size_t max)
{
	struct slowlog_entry	*ring;
	size_t			 i, n = sl->len < max ? sl->len : max;

	ring = xcalloc(max, sizeof *ring);
	for (i = 0; i < n; i++)
		ring[n - 1 - i] = *slowlog_at(sl, i);
	free(sl->ring);
	sl->ring = ring;
	sl->cap = max;
	sl->len = n;
	sl->head = n % max;
}

/* The request as text: printable ASCII kept, other bytes as '?'. */
static void
slowlog_copy(char *dst, const char *line, size_t len)
{
	size_t	i, n = len < SLOWLOG_REQUEST ? len : SLOWLOG_REQUEST;

	for (i = 0; i < n; i++)
		dst[i] = line[i] >= 0x20 && line[i] < 0x7f ? line[i] : '?';
	if (len > n)
		memcpy(dst + n, "...", 3), n += 3;
	dst[n] = '\0';
}

void
slowlog_add(struct slowlog *sl, size_t max, const char *line, size_t len,
    uint64_t us, uint64_t guesses, const char *client)
{
	struct slowlog_entry	*e;

	if (max == 0)
		return;
	pthread_mutex_lock(&sl->lock);
	if (sl->cap != max)
		slowlog_resize(sl, max);
	e = &sl->ring[sl->head];
	e->id = sl->next++;
	e->time = wall_seconds();
	e->us = us;
	e->guesses = guesses;
	snprintf(e->client, sizeof e->client, "%s", client);
	slowlog_copy(e->request, line, len);
	sl->head = (sl->head + 1) % sl->cap;
	if (sl->len < sl->cap)
		sl->len++;
	pthread_mutex_unlock(&sl->lock);
}

int
slowlog_get(struct slowlog *sl, size_t max, uint64_t *at, uint64_t *left,
    struct evbuffer *out, size_t bytes)
{
	const struct slowlog_entry	*e;
	size_t				 i, start = evbuffer_get_length(out);
	int				 done;

	pthread_mutex_lock(&sl->lock);
	if (sl->cap != max && max > 0)
		slowlog_resize(sl, max);
	/* The i-th newest has id next - 1 - i: ids go without a gap. */
	i = *at >= sl->next ? 0 : (size_t)(sl->next - *at);
	for (; *left > 0 && i < sl->len &&
	    evbuffer_get_length(out) - start < bytes; i++, (*left)--) {
		e = slowlog_at(sl, i);
		evbuffer_add_printf(out, "id=%" PRIu64 " time=%" PRId64
		    " us=%" PRIu64 " guesses=%" PRIu64 " client=%s "
		    "request=%s\n", e->id, e->time, e->us, e->guesses,
		    e->client, e->request);
		*at = e->id;
	}
	done = *left == 0 || i >= sl->len;
	pthread_mutex_unlock(&sl->lock);
	if (done)
		evbuffer_add(out, "END\n", 4);
	return (done);
}

size_t
slowlog_len(struct slowlog *sl, size_t max)
{
	size_t	n;

	pthread_mutex_lock(&sl->lock);
	if (sl->cap != max && max > 0)
		slowlog_resize(sl, max);
	n = sl->len;
	pthread_mutex_unlock(&sl->lock);
	return (n);
}

void
slowlog_reset(struct slowlog *sl)
{
	pthread_mutex_lock(&sl->lock);
	sl->len = 0;
	sl->head = 0;
	pthread_mutex_unlock(&sl->lock);
}
