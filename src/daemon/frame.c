/* SPDX-License-Identifier: ISC */
/*
 * frame.c -- a connection's input, and cutting it into request lines.
 */
#include <sys/types.h>

#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "frame.h"

/*
 * The frame's own block, when what is held is too much for the scratch
 * block (a long partial line; max_line is up to 1 MiB), starts at this
 * and doubles, so a long line costs copies of about its length in all.
 */
#define FRAME_GROW	16384

void
frame_init(struct frame *fr, char *scratch, size_t size)
{
	memset(fr, 0, sizeof *fr);
	fr->scratch = scratch;
	fr->scratchsize = scratch != NULL ? size : 0;
}

/* The bytes held move to the front of to; they fit. */
static void
frame_move(struct frame *fr, char *to)
{
	if (fr->len > 0)
		memmove(to, fr->base + fr->off, fr->len);
	fr->base = to;
	fr->off = 0;
}

/* A new own block of size bytes, with the bytes held at its front. */
static void
frame_own(struct frame *fr, size_t size)
{
	char	*b = xmalloc(size);

	frame_move(fr, b);
	free(fr->own);
	fr->base = fr->own = b;
	fr->ownsize = size;
}

char *
frame_space(struct frame *fr, size_t *avail)
{
	char	*b;
	size_t	 size;

	if (fr->len + FRAME_ROOM <= fr->scratchsize) {
		b = fr->scratch;
		size = fr->scratchsize;
	} else {
		if (fr->base != fr->own ||
		    fr->len + FRAME_ROOM > fr->ownsize) {
			size = fr->ownsize > FRAME_GROW ? fr->ownsize :
			    FRAME_GROW;
			while (size < fr->len + FRAME_ROOM)
				size *= 2;
			frame_own(fr, size);
		}
		b = fr->own;
		size = fr->ownsize;
	}
	if (fr->base != b || fr->off + fr->len + FRAME_ROOM > size)
		frame_move(fr, b);
	*avail = size - fr->off - fr->len;
	return (fr->base + fr->off + fr->len);
}

void
frame_fill(struct frame *fr, size_t n)
{
	fr->len += n;
}

const char *
frame_data(const struct frame *fr, size_t *len)
{
	*len = fr->len;
	return (fr->len > 0 ? fr->base + fr->off : "");
}

void
frame_drop(struct frame *fr, size_t n)
{
	fr->off += n;
	fr->len -= n;
	fr->scanned = 0;
	fr->has_line = 0;
}

int
frame_ready(struct frame *fr, size_t max, int eof)
{
	const char	*lf;

	if (fr->has_line)
		return (1);
	if (fr->len > fr->scanned && (lf = memchr(fr->base + fr->off +
	    fr->scanned, '\n', fr->len - fr->scanned)) != NULL) {
		fr->eol = (size_t)(lf - (fr->base + fr->off));
		return (fr->has_line = 1);
	}
	/* max + 1: the line may still end in CRLF. */
	if (fr->discard_max != 0 || fr->len > max + 1) {
		if (fr->discard_max == 0)
			fr->discard_max = max;
		fr->off = fr->len = 0;
		frame_keep(fr);		/* no block for nothing */
	}
	fr->scanned = fr->len;
	if (eof && (fr->len > 0 || fr->discard_max != 0)) {
		fr->eol = fr->len;
		return (fr->has_line = 1);
	}
	return (0);
}

size_t
frame_partial(const struct frame *fr)
{
	if (fr->discard_max != 0)
		return (1);
	return (fr->has_line ? 0 : fr->len);
}

ssize_t
frame_take(struct frame *fr, size_t max, const char **line, size_t *limit)
{
	size_t		 len = fr->eol;
	size_t		 lf = len < fr->len;	/* 0 at EOF */
	const char	*p;
	size_t		 held;

	p = frame_data(fr, &held);
	fr->has_line = 0;
	fr->scanned = 0;
	fr->off += len + lf;
	fr->len -= len + lf;
	if (fr->discard_max != 0 || len > max + 1) {
		/* A reload may have changed max since the line began. */
		*limit = fr->discard_max != 0 ? fr->discard_max : max;
		fr->discard_max = 0;
		return (-1);
	}
	if (len > 0 && p[len - 1] == '\r')
		len--;
	if (len > max) {
		*limit = max;
		return (-1);
	}
	*line = p;
	return ((ssize_t)len);
}

/*
 * A mostly empty own block (a long line was served, a little is left)
 * shrinks too.  One that is filling with a long line stays: frame_space()
 * grows it to less than twice what it holds plus FRAME_ROOM, so held
 * bytes over a quarter of it mean it has not been served, and shrinking
 * it would cost each read two copies of the line so far.
 */
void
frame_keep(struct frame *fr)
{
	if (fr->len == 0) {
		free(fr->own);
		fr->own = fr->base = NULL;
		fr->ownsize = fr->off = 0;
	} else if (fr->base != fr->own ||
	    fr->ownsize > 4 * fr->len + FRAME_ROOM)
		frame_own(fr, fr->len);
}

void
frame_clear(struct frame *fr)
{
	fr->len = fr->scanned = fr->discard_max = 0;
	fr->has_line = 0;
	frame_keep(fr);
}
