/* SPDX-License-Identifier: ISC */
/*
 * frame.c -- cutting a connection's input into request lines.
 */
#include <sys/types.h>

#include <event2/buffer.h>

#include "frame.h"

int
frame_ready(struct frame *fr, size_t max, int eof)
{
	struct evbuffer_ptr	 p;
	size_t			 len = evbuffer_get_length(fr->in);

	if (fr->has_line)
		return (1);
	if (evbuffer_ptr_set(fr->in, &p, fr->scanned, EVBUFFER_PTR_SET) == 0 &&
	    (p = evbuffer_search(fr->in, "\n", 1, &p)).pos != -1) {
		fr->eol = (size_t)p.pos;
		return (fr->has_line = 1);
	}
	/* max + 1: the line may still end in CRLF. */
	if (fr->discard_max != 0 || len > max + 1) {
		if (fr->discard_max == 0)
			fr->discard_max = max;
		evbuffer_drain(fr->in, len);
		len = 0;
	}
	fr->scanned = len;
	if (eof && (len > 0 || fr->discard_max != 0)) {
		fr->eol = len;
		return (fr->has_line = 1);
	}
	return (0);
}

size_t
frame_partial(const struct frame *fr)
{
	if (fr->discard_max != 0)
		return (1);
	return (fr->has_line ? 0 : evbuffer_get_length(fr->in));
}

ssize_t
frame_take(struct frame *fr, size_t max, char *buf, size_t *limit)
{
	size_t	len = fr->eol;
	size_t	lf = len < evbuffer_get_length(fr->in);	/* 0 at EOF */

	fr->has_line = 0;
	fr->scanned = 0;
	if (fr->discard_max != 0 || len > max + 1) {
		evbuffer_drain(fr->in, len + lf);
		/* A reload may have changed max since the line began. */
		*limit = fr->discard_max != 0 ? fr->discard_max : max;
		fr->discard_max = 0;
		return (-1);
	}
	evbuffer_remove(fr->in, buf, len);
	evbuffer_drain(fr->in, lf);
	if (len > 0 && buf[len - 1] == '\r')
		len--;
	if (len > max) {
		*limit = max;
		return (-1);
	}
	return ((ssize_t)len);
}
