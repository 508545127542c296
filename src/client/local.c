/* SPDX-License-Identifier: ISC */
/*
 * local.c -- sudokuc -L: answers from the solver core, in-process.
 *
 * What each request gets is reply.c's business; here the work is spread
 * over threads and the answers are kept in input order.
 *
 * The caller's thread reads the input into chunks of items, kept in a
 * ring in input order, and prints the chunk at the head of the ring once
 * it is solved.  The threads of -j solve the chunks in between; so does
 * the caller's thread whenever it has nothing else to do, so that -j N
 * keeps N threads busy and -j 1 starts no thread at all.  Before the
 * input would block (a pipe, a terminal), everything read so far is
 * solved and printed, so answers keep flowing with a slow writer.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "local.h"
#include "reply.h"

/*
 * Items per chunk: a few hundred microseconds of solving, so that the
 * lock is taken rarely, yet small enough to spread over the threads.
 */
#define LOCAL_CHUNK	128
/* Chunks in the ring per thread: work queued while the head is solved. */
#define LOCAL_RING	4
/*
 * Reply bytes a chunk may hold: fewer items a chunk when each reply is
 * large (solutions -n 10000, about 800 KB), so that the ring's replies,
 * all held until printed, stay some tens of megabytes: at -j 4, 16
 * chunks of 2 MiB at most.  (4 MiB let a ring whose head was late hold
 * 16 chunks of five such replies, 64 MiB, as a loaded machine showed.)
 */
#define LOCAL_CHUNK_BYTES	(2 * 1024 * 1024)

enum chunk_state {
	CHUNK_FREE = 0,
	CHUNK_TODO,		/* read, waiting for a thread */
	CHUNK_BUSY,		/* being solved */
	CHUNK_DONE		/* solved, waiting for its turn to print */
};

struct chunk {
	struct item		 items[LOCAL_CHUNK];
	struct reply_buf	 reply[LOCAL_CHUNK];
	size_t			 n;
	enum chunk_state	 state;
};

struct local {
	struct input		*in;
	const struct query	*query;
	struct output		*out;

	struct chunk		*ring;
	size_t			 nring;
	size_t			 chunk;		/* items per chunk */
	size_t			 head;		/* the oldest chunk in use */
	size_t			 count;		/* chunks in use */

	pthread_mutex_t		 lock;		/* states, and stop */
	pthread_cond_t		 work;		/* a chunk to solve, or stop */
	pthread_cond_t		 done;		/* a chunk was solved */
	pthread_t		*threads;
	size_t			 nthread;	/* started, besides the caller */
	int			 stop;
};

/* Solves the items of ch that need it. */
static void
local_solve(const struct local *l, struct chunk *ch)
{
	struct item	*it;
	size_t		 i;

	for (i = 0; i < ch->n; i++) {
		it = &ch->items[i];
		if (it->kind == ITEM_PUZZLE || it->kind == ITEM_META)
			reply_make(it, l->query, &ch->reply[i]);
	}
}

/* The oldest chunk waiting for a thread, marked busy; NULL if none. */
static struct chunk *
local_claim(struct local *l)
{
	struct chunk	*ch;
	size_t		 i;

	for (i = 0; i < l->count; i++) {
		ch = &l->ring[(l->head + i) % l->nring];
		if (ch->state == CHUNK_TODO) {
			ch->state = CHUNK_BUSY;
			return (ch);
		}
	}
	return (NULL);
}

/* Solves a claimed chunk without the lock; called and returns locked. */
static void
local_work(struct local *l, struct chunk *ch)
{
	pthread_mutex_unlock(&l->lock);
	local_solve(l, ch);
	pthread_mutex_lock(&l->lock);
	ch->state = CHUNK_DONE;
}

static void *
local_thread(void *arg)
{
	struct local	*l = arg;
	struct chunk	*ch;

	pthread_mutex_lock(&l->lock);
	while (!l->stop) {
		if ((ch = local_claim(l)) == NULL) {
			pthread_cond_wait(&l->work, &l->lock);
			continue;
		}
		local_work(l, ch);
		pthread_cond_signal(&l->done);
	}
	pthread_mutex_unlock(&l->lock);
	return (NULL);
}

/* The caller's thread: solve a chunk, or wait until one is solved. */
static void
local_help(struct local *l)
{
	struct chunk	*ch;

	pthread_mutex_lock(&l->lock);
	if ((ch = local_claim(l)) != NULL)
		local_work(l, ch);
	else if (l->ring[l->head].state != CHUNK_DONE)
		pthread_cond_wait(&l->done, &l->lock);
	pthread_mutex_unlock(&l->lock);
}

/* Prints the solved chunks at the head of the ring; -1 to stop. */
static int
local_print(struct local *l)
{
	struct chunk	*ch;
	size_t		 i;
	int		 done;

	while (l->count > 0) {
		ch = &l->ring[l->head];
		pthread_mutex_lock(&l->lock);
		done = ch->state == CHUNK_DONE;
		pthread_mutex_unlock(&l->lock);
		if (!done)
			break;
		for (i = 0; i < ch->n; i++) {
			if (output_item(l->out, &ch->items[i],
			    ch->reply[i].p) == -1)
				return (-1);
			reply_buf_trim(&ch->reply[i]);
		}
		output_tick(l->out);
		pthread_mutex_lock(&l->lock);
		ch->state = CHUNK_FREE;
		l->head = (l->head + 1) % l->nring;
		l->count--;
		pthread_mutex_unlock(&l->lock);
	}
	return (0);
}

/*
 * Reads items into the next free chunk and queues it: 1 if it is full,
 * 0 if the input would block first, -1 at the end of the input.
 */
static int
local_fill(struct local *l)
{
	struct chunk	*ch = &l->ring[(l->head + l->count) % l->nring];
	int		 r = 1;

	ch->n = 0;
	while (ch->n < l->chunk) {
		if ((r = input_next(l->in, &ch->items[ch->n])) == 1) {
			ch->n++;
			continue;
		}
		if (r == -1 || !input_ready(l->in))
			break;
		input_read(l->in);
		r = 1;
	}
	if (ch->n == 0)
		return (r);
	pthread_mutex_lock(&l->lock);
	ch->state = CHUNK_TODO;
	l->count++;
	pthread_cond_signal(&l->work);
	pthread_mutex_unlock(&l->lock);
	return (r);
}

static int
local_loop(struct local *l)
{
	int	r = 1;

	for (;;) {
		if (local_print(l) == -1)
			return (-1);
		if (r == -1 && l->count == 0)
			return (0);
		if (r == 0 && l->count == 0) {
			fflush(stdout);		/* then wait for the writer */
			input_read(l->in);
			r = 1;
		}
		if (r != -1 && l->count < l->nring && (r == 1 ||
		    input_ready(l->in)))
			r = local_fill(l);
		else
			local_help(l);
	}
}

/* Starts nthreads - 1 threads; -1 with *cause if one cannot be. */
static int
local_start(struct local *l, unsigned int nthreads, char **cause)
{
	int	error;

	l->threads = xcalloc(nthreads, sizeof *l->threads);
	while (l->nthread + 1 < nthreads) {
		error = pthread_create(&l->threads[l->nthread], NULL,
		    local_thread, l);
		if (error != 0) {
			xasprintf(cause, "cannot start %u threads: %s",
			    nthreads, strerror(error));
			return (-1);
		}
		l->nthread++;
	}
	return (0);
}

static void
local_stop(struct local *l)
{
	size_t	i;

	pthread_mutex_lock(&l->lock);
	l->stop = 1;
	pthread_cond_broadcast(&l->work);
	pthread_mutex_unlock(&l->lock);
	for (i = 0; i < l->nthread; i++)
		pthread_join(l->threads[i], NULL);
	free(l->threads);
}

int
local_run(struct input *in, const struct query *q, struct output *out,
    unsigned int nthreads, char **cause)
{
	struct local	l;
	size_t		i, j;
	int		r;

	memset(&l, 0, sizeof l);
	l.in = in;
	l.query = q;
	l.out = out;
	l.nring = nthreads == 1 ? 1 : (size_t)nthreads * LOCAL_RING;
	l.chunk = LOCAL_CHUNK_BYTES / reply_size(q);
	l.chunk = l.chunk < 1 ? 1 : l.chunk > LOCAL_CHUNK ? LOCAL_CHUNK :
	    l.chunk;
	l.ring = xcalloc(l.nring, sizeof *l.ring);
	pthread_mutex_init(&l.lock, NULL);
	pthread_cond_init(&l.work, NULL);
	pthread_cond_init(&l.done, NULL);
	if ((r = local_start(&l, nthreads, cause)) == 0)
		r = local_loop(&l);
	local_stop(&l);
	pthread_cond_destroy(&l.done);
	pthread_cond_destroy(&l.work);
	pthread_mutex_destroy(&l.lock);
	for (i = 0; i < l.nring; i++)
		for (j = 0; j < LOCAL_CHUNK; j++)
			reply_buf_free(&l.ring[i].reply[j]);
	free(l.ring);
	return (r);
}
