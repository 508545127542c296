/* SPDX-License-Identifier: ISC */
/*
 * loadgen-run.c -- the event loops of the load generator.
 *
 * Each of -T threads runs one epoll loop over its share of the open
 * connections and keeps -d requests in flight on each.  The send time
 * of every in-flight request sits in a per-connection ring of -d slots;
 * replies come back in order, so the oldest slot belongs to the next
 * reply.  One clock read per read() stamps the replies it brought and
 * the requests sent in answer.  With -g a connection that got a reply
 * sends nothing until gap has passed (resume_ns); the loop's timeout
 * wakes it then.
 *
 * SOLVE replies are checked with a checker of its own (digits, givens
 * kept, 27 units), independent of the solver under test.
 */
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "loadgen.h"

#define LG_RBUF		65536	/* bytes read at once per thread */
#define LG_LINE_MAX	512	/* longest reply line kept across reads */
#define LG_EVENTS	256
#define LG_SHOW_ERRORS	5	/* wrong replies printed in full */

struct lg_conn {
	int		 fd;
	uint32_t	 head;		/* requests sent */
	uint32_t	 tail;		/* replies received */
	uint64_t	*sent_ns;	/* ring of depth send times */
	uint32_t	*sent_req;	/* ring of depth request indexes */
	char		*out;		/* requests not yet written */
	size_t		 outlen;
	size_t		 outoff;
	int		 want_out;	/* EPOLLOUT registered */
	uint64_t	 resume_ns;	/* -g: send again from then (0: now) */
	size_t		 carrylen;
	char		 carry[LG_LINE_MAX];
};

struct lg_thread {
	pthread_t		 tid;
	const struct lg_opts	*o;
	const struct lg_work	*w;
	struct lg_conn		*conns;
	int			 nconns;
	int			 ep;
	char			*rbuf;
	uint64_t		 quota;		/* requests left to send */
	uint64_t		 next_req;	/* cycles through w->nreq */
	uint64_t		 inflight;	/* sent, not answered */
	uint64_t		 t_measure;	/* end of warm-up */
	uint64_t		 t_stop;	/* stop sending (UINT64_MAX: -n) */
	int			 stopping;
	int			 failed;
	struct lg_result	 r;
};

uint64_t
lg_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec);
}

static unsigned
lg_hist_index(uint64_t v)
{
	unsigned	shift;

	if (v < 2 * LG_HIST_SUB)
		return ((unsigned)v);
	if (v >= (1ULL << 42))
		v = (1ULL << 42) - 1;
	shift = (unsigned)(63 - __builtin_clzll(v)) - 6;
	return (shift * LG_HIST_SUB + (unsigned)(v >> shift));
}

/* The middle of bucket i. */
static uint64_t
lg_hist_value(unsigned i)
{
	unsigned	shift;

	if (i < 2 * LG_HIST_SUB)
		return (i);
	shift = i / LG_HIST_SUB - 1;
	return (((uint64_t)(LG_HIST_SUB + i % LG_HIST_SUB) << shift) +
	    ((1ULL << shift) >> 1));
}

void
lg_hist_add(struct lg_hist *h, uint64_t v)
{
	h->n[lg_hist_index(v)]++;
	h->count++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
}

/* The smallest value with at least q of all values at or below it. */
uint64_t
lg_hist_quantile(const struct lg_hist *h, double q)
{
	uint64_t	want, seen = 0, v;
	unsigned	i;

	if (h->count == 0)
		return (0);
	want = (uint64_t)(q * (double)h->count + 0.999999);
	if (want == 0)
		want = 1;
	for (i = 0; i < LG_HIST_BUCKETS; i++) {
		seen += h->n[i];
		if (seen >= want) {
			v = lg_hist_value(i);
			return (v > h->max ? h->max : v);
		}
	}
	return (h->max);
}

void
lg_result_merge(struct lg_result *into, const struct lg_result *r)
{
	unsigned	i;

	into->replies += r->replies;
	into->measured += r->measured;
	into->window += r->window;
	into->errors += r->errors;
	into->checked += r->checked;
	into->t_measure = r->t_measure;
	into->t_stop = r->t_stop;
	if (r->t_last > into->t_last)
		into->t_last = r->t_last;
	for (i = 0; i < LG_HIST_BUCKETS; i++)
		into->hist.n[i] += r->hist.n[i];
	into->hist.count += r->hist.count;
	into->hist.sum += r->hist.sum;
	if (r->hist.max > into->hist.max)
		into->hist.max = r->hist.max;
}

/* A complete grid that keeps the givens and breaks no rule: 0, else -1. */
int
lg_check_solution(const uint8_t *givens, const char *s, size_t len)
{
	uint16_t	row[9] = { 0 }, col[9] = { 0 }, box[9] = { 0 };
	uint16_t	bit;
	int		i, d, r, c, b;

	if (len != 81)
		return (-1);
	for (i = 0; i < 81; i++) {
		d = s[i] - '0';
		if (d < 1 || d > 9)
			return (-1);
		if (givens[i] != 0 && givens[i] != d)
			return (-1);
		r = i / 9;
		c = i % 9;
		b = (r / 3) * 3 + c / 3;
		bit = (uint16_t)(1U << d);
		if ((row[r] | col[c] | box[b]) & bit)
			return (-1);
		row[r] |= bit;
		col[c] |= bit;
		box[b] |= bit;
	}
	return (0);
}

/* Is line the right reply to request idx?  Sampled full SOLVE checks. */
static int
lg_verify(struct lg_thread *t, uint32_t idx, const char *line, size_t len)
{
	const struct lg_work	*w = t->w;
	uint64_t		 n;

	switch (w->kind) {
	case LG_KIND_PING:
		return (len == 4 && memcmp(line, "PONG", 4) == 0 ? 0 : -1);
	case LG_KIND_EXACT:
		return (len == w->expectlen &&
		    memcmp(line, w->expect, len) == 0 ? 0 : -1);
	case LG_KIND_OTHER:
		return (len >= 3 && memcmp(line, "ERR", 3) == 0 ? -1 : 0);
	case LG_KIND_SOLVE:
		n = t->r.replies;
		if (t->o->sample > 1 && n % t->o->sample != 0) {
			/* Unsampled: shape only. */
			return (len == 81 && line[0] >= '1' &&
			    line[0] <= '9' ? 0 : -1);
		}
		t->r.checked++;
		return (lg_check_solution(w->givens[idx], line, len));
	}
	return (-1);
}

static void
lg_bad_reply(struct lg_thread *t, uint32_t idx, const char *line, size_t len)
{
	t->r.errors++;
	if (t->r.errors > LG_SHOW_ERRORS)
		return;
	fprintf(stderr, "loadgen: wrong reply to request %u: \"%.*s\"\n",
	    (unsigned)idx, (int)(len > 200 ? 200 : len), line);
}

/* One reply line arrived at now. */
static int
lg_reply(struct lg_thread *t, struct lg_conn *c, const char *line,
    size_t len, uint64_t now)
{
	uint32_t	slot, idx;
	uint64_t	sent;

	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (c->head == c->tail) {
		fprintf(stderr, "loadgen: reply with no request: \"%.*s\"\n",
		    (int)(len > 200 ? 200 : len), line);
		t->r.errors++;
		return (-1);
	}
	slot = c->tail % (uint32_t)t->o->depth;
	sent = c->sent_ns[slot];
	idx = c->sent_req[slot];
	c->tail++;
	t->inflight--;
	if (lg_verify(t, idx, line, len) != 0)
		lg_bad_reply(t, idx, line, len);
	t->r.replies++;
	if (now > t->r.t_last)
		t->r.t_last = now;
	if (sent >= t->t_measure) {
		lg_hist_add(&t->r.hist, now - sent);
		t->r.measured++;
	}
	if (now >= t->t_measure && now <= t->t_stop)
		t->r.window++;
	return (0);
}

static int
lg_epoll_mod(struct lg_thread *t, struct lg_conn *c, int want_out)
{
	struct epoll_event ev;

	if (c->want_out == want_out)
		return (0);
	memset(&ev, 0, sizeof ev);
	ev.events = EPOLLIN | (want_out ? EPOLLOUT : 0);
	ev.data.ptr = c;
	if (epoll_ctl(t->ep, EPOLL_CTL_MOD, c->fd, &ev) == -1) {
		perror("loadgen: epoll_ctl");
		return (-1);
	}
	c->want_out = want_out;
	return (0);
}

/* Writes what is pending; registers for EPOLLOUT if not all went. */
static int
lg_flush(struct lg_thread *t, struct lg_conn *c)
{
	ssize_t	n;

	while (c->outoff < c->outlen) {
		n = write(c->fd, c->out + c->outoff, c->outlen - c->outoff);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			return (lg_epoll_mod(t, c, 1));
		if (n == -1) {
			perror("loadgen: write");
			return (-1);
		}
		c->outoff += (size_t)n;
	}
	c->outoff = c->outlen = 0;
	return (lg_epoll_mod(t, c, 0));
}

/* Tops the connection up to depth requests in flight, stamped now. */
static int
lg_refill(struct lg_thread *t, struct lg_conn *c, uint64_t now)
{
	const struct lg_work	*w = t->w;
	uint32_t		 slot, idx;
	size_t			 len;

	if (t->o->seconds > 0 && now >= t->t_stop)
		t->stopping = 1;
	while (!t->stopping && t->quota > 0 &&
	    c->head - c->tail < (uint32_t)t->o->depth) {
		idx = (uint32_t)(t->next_req++ % w->nreq);
		len = w->off[idx + 1] - w->off[idx];
		memcpy(c->out + c->outlen, w->reqs + w->off[idx], len);
		c->outlen += len;
		slot = c->head % (uint32_t)t->o->depth;
		c->sent_ns[slot] = now;
		c->sent_req[slot] = idx;
		c->head++;
		t->inflight++;
		if (t->o->seconds == 0)
			t->quota--;
	}
	if (c->outlen == c->outoff)
		return (0);
	return (lg_flush(t, c));
}

/* Splits the read bytes into lines; keeps a partial last line. */
static int
lg_lines(struct lg_thread *t, struct lg_conn *c, size_t have, uint64_t now)
{
	char	*p = t->rbuf, *end = t->rbuf + have, *nl;

	while (p < end && (nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		if (lg_reply(t, c, p, (size_t)(nl - p), now) != 0)
			return (-1);
		p = nl + 1;
	}
	c->carrylen = (size_t)(end - p);
	if (c->carrylen > sizeof c->carry) {
		fprintf(stderr, "loadgen: reply line longer than %d bytes\n",
		    LG_LINE_MAX);
		t->r.errors++;
		return (-1);
	}
	memcpy(c->carry, p, c->carrylen);
	return (0);
}

static int
lg_read(struct lg_thread *t, struct lg_conn *c)
{
	ssize_t		n;
	uint64_t	now;

	memcpy(t->rbuf, c->carry, c->carrylen);
	do {
		n = read(c->fd, t->rbuf + c->carrylen, LG_RBUF);
	} while (n == -1 && errno == EINTR);
	if (n == -1 && errno == EAGAIN)
		return (0);
	if (n == -1) {
		perror("loadgen: read");
		return (-1);
	}
	if (n == 0) {
		fprintf(stderr, "loadgen: server closed a connection with %u "
		    "replies outstanding\n", (unsigned)(c->head - c->tail));
		t->r.errors++;
		return (-1);
	}
	now = lg_now();
	if (lg_lines(t, c, c->carrylen + (size_t)n, now) != 0)
		return (-1);
	if (t->o->gap > 0) {
		if (c->head - c->tail < (uint32_t)t->o->depth)
			c->resume_ns = now + (uint64_t)(t->o->gap * 1e9);
		return (0);
	}
	return (lg_refill(t, c, now));
}

/*
 * -g: sends on the connections whose pause is over, and sets *wait to
 * the milliseconds until the next pause ends (at most max).  0, or -1
 * if a write failed.
 */
static int
lg_resume(struct lg_thread *t, uint64_t now, int max, int *wait)
{
	struct lg_conn	*c;
	uint64_t	 ms;
	int		 i;

	*wait = max;
	for (i = 0; i < t->nconns; i++) {
		c = &t->conns[i];
		if (c->resume_ns == 0)
			continue;
		if (c->resume_ns <= now) {
			c->resume_ns = 0;
			if (lg_refill(t, c, now) != 0)
				return (-1);
			continue;
		}
		ms = (c->resume_ns - now + 999999) / 1000000;
		if (ms < (uint64_t)*wait)
			*wait = (int)ms;
	}
	return (0);
}

/* Runs until every request is answered; stall_ns with no reply fails. */
static int
lg_loop(struct lg_thread *t)
{
	struct epoll_event	 evs[LG_EVENTS];
	struct lg_conn		*c;
	uint64_t		 last = lg_now(), before, now;
	uint64_t		 stall = (uint64_t)(t->o->stall * 1e9);
	int			 n, i, wait = t->o->spin ? 0 : 100;

	for (;;) {
		before = t->r.replies;
		n = epoll_wait(t->ep, evs, LG_EVENTS, wait);
		if (n == -1 && errno != EINTR) {
			perror("loadgen: epoll_wait");
			return (-1);
		}
		for (i = 0; i < n; i++) {
			c = evs[i].data.ptr;
			if ((evs[i].events & EPOLLOUT) && lg_flush(t, c) != 0)
				return (-1);
			if ((evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) &&
			    lg_read(t, c) != 0)
				return (-1);
		}
		now = lg_now();
		if (t->o->gap > 0 && lg_resume(t, now, t->o->spin ? 0 : 100,
		    &wait) != 0)
			return (-1);
		if (t->r.replies != before)
			last = now;
		if (t->o->seconds > 0 && now >= t->t_stop)
			t->stopping = 1;
		if ((t->stopping || t->quota == 0) && t->inflight == 0)
			return (0);
		if (now - last > stall) {
			fprintf(stderr, "loadgen: no reply for %.1f s, %llu "
			    "requests outstanding\n", t->o->stall,
			    (unsigned long long)t->inflight);
			t->r.errors++;
			return (-1);
		}
	}
}

static int
lg_thread_setup(struct lg_thread *t)
{
	struct epoll_event	 ev;
	struct lg_conn		*c;
	size_t			 depth = (size_t)t->o->depth;
	int			 i;

	if ((t->ep = epoll_create1(EPOLL_CLOEXEC)) == -1) {
		perror("loadgen: epoll_create1");
		return (-1);
	}
	if ((t->rbuf = malloc(LG_RBUF + LG_LINE_MAX)) == NULL)
		return (-1);
	for (i = 0; i < t->nconns; i++) {
		c = &t->conns[i];
		c->sent_ns = calloc(depth, sizeof *c->sent_ns);
		c->sent_req = calloc(depth, sizeof *c->sent_req);
		c->out = malloc(depth * t->w->reqmax);
		if (c->sent_ns == NULL || c->sent_req == NULL || c->out == NULL)
			return (-1);
		memset(&ev, 0, sizeof ev);
		ev.events = EPOLLIN;
		ev.data.ptr = c;
		if (epoll_ctl(t->ep, EPOLL_CTL_ADD, c->fd, &ev) == -1) {
			perror("loadgen: epoll_ctl");
			return (-1);
		}
	}
	return (0);
}

static void *
lg_thread_main(void *arg)
{
	struct lg_thread	*t = arg;
	uint64_t		 now = lg_now();
	int			 i;

	for (i = 0; i < t->nconns && !t->failed; i++) {
		if (lg_refill(t, &t->conns[i], now) != 0)
			t->failed = 1;
	}
	if (!t->failed && lg_loop(t) != 0)
		t->failed = 1;
	return (NULL);
}

static void
lg_thread_free(struct lg_thread *t)
{
	int	i;

	for (i = 0; i < t->nconns; i++) {
		free(t->conns[i].sent_ns);
		free(t->conns[i].sent_req);
		free(t->conns[i].out);
	}
	free(t->rbuf);
	if (t->ep != -1)
		close(t->ep);
}

/* Splits conns over the threads and runs them; merges into *res. */
int
lg_run(const struct lg_opts *o, const struct lg_work *w, int *fds,
    struct lg_result *res)
{
	struct lg_thread	*th;
	struct lg_conn		*conns;
	uint64_t		 start = lg_now();
	int			 i, k, started = 0, failed = 0;

	th = calloc((size_t)o->threads, sizeof *th);
	conns = calloc((size_t)o->conns, sizeof *conns);
	if (th == NULL || conns == NULL)
		return (-1);
	for (i = 0, k = 0; i < o->threads; i++) {
		th[i].o = o;
		th[i].w = w;
		th[i].ep = -1;
		th[i].conns = conns + k;
		th[i].nconns = o->conns / o->threads +
		    (i < o->conns % o->threads);
		th[i].quota = o->seconds > 0 ? UINT64_MAX :
		    o->total / (uint64_t)o->threads +
		    ((uint64_t)i < o->total % (uint64_t)o->threads);
		th[i].next_req = (uint64_t)i * (w->nreq / (size_t)o->threads);
		th[i].t_measure = start + (uint64_t)(o->warmup * 1e9);
		th[i].t_stop = o->seconds > 0 ? th[i].t_measure +
		    (uint64_t)(o->seconds * 1e9) : UINT64_MAX;
		th[i].r.t_measure = th[i].t_measure;
		th[i].r.t_stop = th[i].t_stop;
		for (; k < (int)(th[i].conns - conns) + th[i].nconns; k++)
			conns[k].fd = fds[k];
		if (lg_thread_setup(&th[i]) != 0)
			failed = 1;
	}
	for (started = 0; started < o->threads && !failed; started++) {
		if (pthread_create(&th[started].tid, NULL, lg_thread_main,
		    &th[started]) != 0) {
			fprintf(stderr, "loadgen: pthread_create failed\n");
			failed = 1;
			break;
		}
	}
	for (i = 0; i < started; i++) {
		pthread_join(th[i].tid, NULL);
		failed |= th[i].failed;
		lg_result_merge(res, &th[i].r);
	}
	for (i = 0; i < o->threads; i++)
		lg_thread_free(&th[i]);
	free(conns);
	free(th);
	return (failed ? -1 : 0);
}
