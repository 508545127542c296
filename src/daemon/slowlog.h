/* SPDX-License-Identifier: ISC */
/*
 * slowlog.h -- the slow log: the requests that took at least
 * slowlog_slower_than microseconds, from their last byte to their reply
 * queued, the newest slowlog_max_len of them (redis' SLOWLOG).
 *
 * One log for the server, under a mutex: a request is added only when it
 * was slow, so the lock is never on the path of the many fast ones.  Its
 * memory is bounded: each entry is of a fixed size (the request cut
 * short), and there are at most slowlog_max_len of them, the oldest
 * dropped first; a reload to a smaller length drops the oldest at once.
 */
#ifndef SLOWLOG_H
#define SLOWLOG_H

#include <stddef.h>
#include <stdint.h>

struct evbuffer;
struct slowlog;

/* Bytes of a request kept; longer ones end in "...". */
#define SLOWLOG_REQUEST	128

struct slowlog	*slowlog_new(void);
void		 slowlog_free(struct slowlog *);

/*
 * A slow request: the line (len bytes, not NUL-terminated), its time in
 * us, its guesses, the client (remote_text()).  max: slowlog_max_len in
 * force.
 */
void		 slowlog_add(struct slowlog *, size_t max, const char *line,
		    size_t len, uint64_t us, uint64_t guesses,
		    const char *client);

/*
 * SLOWLOG GET, a piece at a time: the entries older than the one whose
 * id is *at (UINT64_MAX: from the newest), newest first, *left of them
 * at most, until about bytes are added to out; *at and *left move on.
 * Returns 1 once the listing is over and its END added, else 0.  Entries
 * dropped in between (by newer ones, RESET or a shorter log) are not
 * listed; newer ones are not either.  max, as for slowlog_add().
 */
int		 slowlog_get(struct slowlog *, size_t max, uint64_t *at,
		    uint64_t *left, struct evbuffer *out, size_t bytes);
/* SLOWLOG LEN; max, as for slowlog_add(): a smaller one drops now. */
size_t		 slowlog_len(struct slowlog *, size_t max);
/* SLOWLOG RESET. */
void		 slowlog_reset(struct slowlog *);

#endif /* SLOWLOG_H */
