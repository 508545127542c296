/* SPDX-License-Identifier: ISC */
/*
 * test_frame.c -- a connection's input (frame.c) against frame.h and
 * doc/protocol.md: lines end at LF with an optional CR before it, a line
 * over max_line is answered once and its bytes never kept, a last line
 * without LF counts at the end of input; bytes read in pieces, lines
 * served in place, and what is left kept safe when the worker's scratch
 * block goes to another connection.
 */
#include <sys/types.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "daemon/frame.h"

#define SCRATCH		8192

/* A frame with its scratch block, as a worker lends it. */
struct fixture {
	char		scratch[SCRATCH];
	struct frame	fr;
};

static int
fx_setup(void **state)
{
	struct fixture	*f;

	if ((f = calloc(1, sizeof *f)) == NULL)
		return (-1);
	frame_init(&f->fr, f->scratch, sizeof f->scratch);
	*state = f;
	return (0);
}

static int
fx_teardown(void **state)
{
	struct fixture	*f = *state;

	frame_clear(&f->fr);
	free(f);
	return (0);
}

/* Bytes into the frame as reads would put them, in pieces if need be. */
static void
feed(struct frame *fr, const char *s, size_t n)
{
	size_t	avail, k;
	char	*p;

	while (n > 0) {
		p = frame_space(fr, &avail);
		assert_true(avail >= FRAME_ROOM);
		k = n < avail ? n : avail;
		memcpy(p, s, k);
		frame_fill(fr, k);
		s += k;
		n -= k;
	}
}

/* The next line must be want (NULL: over max, with limit). */
static void
expect_line(struct frame *fr, size_t max, int eof, const char *want,
    size_t limit)
{
	const char	*line = NULL;
	size_t		 got = 0;
	ssize_t		 len;

	assert_true(frame_ready(fr, max, eof));
	len = frame_take(fr, max, &line, &got);
	if (want == NULL) {
		assert_int_equal(len, -1);
		assert_int_equal(got, limit);
		return;
	}
	assert_int_equal(len, strlen(want));
	assert_memory_equal(line, want, strlen(want));
}

static void
test_lines(void **state)
{
	struct fixture	*f = *state;
	struct frame	*fr = &f->fr;

	feed(fr, "PING\r\nVERSION\n\nSOL", 18);
	expect_line(fr, 1024, 0, "PING", 0);
	expect_line(fr, 1024, 0, "VERSION", 0);
	expect_line(fr, 1024, 0, "", 0);	/* blank: proto says nothing */
	assert_false(frame_ready(fr, 1024, 0));
	assert_int_equal(frame_partial(fr), 3);
	feed(fr, "VE 1\n", 5);
	expect_line(fr, 1024, 0, "SOLVE 1", 0);
	assert_false(frame_ready(fr, 1024, 0));
	assert_int_equal(frame_partial(fr), 0);
	frame_clear(fr);
}

/* Served in place: the line is in the block read into, not a copy. */
static void
test_in_place(void **state)
{
	struct fixture	*f = *state;
	struct frame	*fr = &f->fr;
	char		*scratch = f->scratch;
	const char	*line;
	size_t		 limit;

	feed(fr, "PING\nPONG\n", 10);
	assert_true(frame_ready(fr, 1024, 0));
	assert_int_equal(frame_take(fr, 1024, &line, &limit), 4);
	assert_ptr_equal(line, scratch);
	assert_true(frame_ready(fr, 1024, 0));
	assert_int_equal(frame_take(fr, 1024, &line, &limit), 4);
	assert_ptr_equal(line, scratch + 5);
	frame_keep(fr);
	assert_null(fr->own);		/* nothing held, no block */
}

/* What is left survives the scratch block being lent to another. */
static void
test_keep(void **state)
{
	struct fixture	*f = *state;
	struct frame	*fr = &f->fr;
	char		*scratch = f->scratch;

	feed(fr, "PING\nSOLVE 12", 13);
	expect_line(fr, 1024, 0, "PING", 0);
	frame_keep(fr);
	assert_non_null(fr->own);
	assert_int_equal(fr->ownsize, 8);	/* just what is held */
	memset(scratch, 'X', SCRATCH);	/* another connection */
	feed(fr, "3\nQUIT\n", 7);
	expect_line(fr, 1024, 0, "SOLVE 123", 0);
	expect_line(fr, 1024, 0, "QUIT", 0);
	frame_keep(fr);
	assert_null(fr->own);
	/* Whole lines left unserved (a slice ended) are kept too. */
	feed(fr, "A\nB\nC\n", 6);
	expect_line(fr, 1024, 0, "A", 0);
	frame_keep(fr);
	memset(scratch, 'Y', SCRATCH);
	expect_line(fr, 1024, 0, "B", 0);
	expect_line(fr, 1024, 0, "C", 0);
	frame_clear(fr);
}

/* Over max: answered once, when its LF comes; its bytes never kept. */
static void
test_too_long(void **state)
{
	struct fixture	*f = *state;
	struct frame	*fr = &f->fr;

	feed(fr, "0123456789abc", 13);		/* max 8, no LF yet */
	assert_false(frame_ready(fr, 8, 0));
	assert_int_equal(fr->len, 0);		/* dropped as it came */
	assert_int_equal(frame_partial(fr), 1);
	feed(fr, "def", 3);
	assert_false(frame_ready(fr, 8, 0));
	assert_int_equal(fr->len, 0);
	feed(fr, "gh\nPING\n", 8);
	expect_line(fr, 8, 0, NULL, 8);
	expect_line(fr, 8, 0, "PING", 0);
	/* Whole in one read; CRLF is not part of the length. */
	feed(fr, "0123456789\n01234567\r\n012345678\r\n", 32);
	expect_line(fr, 8, 0, NULL, 8);
	expect_line(fr, 8, 0, "01234567", 0);
	expect_line(fr, 8, 0, NULL, 8);
	/* A reload raised max mid-line: the limit it broke is reported. */
	feed(fr, "0123456789", 10);
	assert_false(frame_ready(fr, 8, 0));
	feed(fr, "\n", 1);
	expect_line(fr, 32, 0, NULL, 8);
	frame_clear(fr);
}

static void
test_eof(void **state)
{
	struct fixture	*f = *state;
	struct frame	*fr = &f->fr;

	assert_false(frame_ready(fr, 1024, 1));	/* nothing at all */
	feed(fr, "PING\nQUIT", 9);
	expect_line(fr, 1024, 1, "PING", 0);
	expect_line(fr, 1024, 1, "QUIT", 0);		/* no LF */
	assert_false(frame_ready(fr, 1024, 1));
	/* The end within a line over max: answered as over max. */
	feed(fr, "0123456789", 10);
	expect_line(fr, 8, 1, NULL, 8);
	assert_false(frame_ready(fr, 8, 1));
	frame_clear(fr);
}

/* A line longer than the scratch block (max_line is up to 1 MiB). */
static void
test_long_line(void **state)
{
	static char	 big[3 * SCRATCH + 1];
	struct fixture	*f = *state;
	struct frame	*fr = &f->fr;
	char		*scratch = f->scratch;
	size_t		 i;

	for (i = 0; i < sizeof big - 1; i++)
		big[i] = (char)('a' + i % 26);
	big[sizeof big - 1] = '\n';
	for (i = 0; i < sizeof big; i += 1000) {
		feed(fr, big + i, sizeof big - i < 1000 ? sizeof big - i :
		    1000);
		frame_keep(fr);
		memset(scratch, 'X', SCRATCH);
	}
	big[sizeof big - 1] = '\0';
	expect_line(fr, 1048576, 0, big, 0);
	frame_clear(fr);
	assert_null(fr->own);
}

/* A reload lowered max while a line was held: dropped, then answered. */
static void
test_reload_lower(void **state)
{
	struct fixture	*f = *state;
	struct frame	*fr = &f->fr;

	feed(fr, "PING\n0123456789", 15);
	expect_line(fr, 32, 0, "PING", 0);
	assert_false(frame_ready(fr, 32, 0));	/* 10 bytes: fine at 32 */
	frame_keep(fr);
	assert_non_null(fr->own);
	assert_false(frame_ready(fr, 8, 0));	/* over 8 now: dropped */
	assert_int_equal(fr->len, 0);
	assert_null(fr->own);			/* and its block freed */
	feed(fr, "abc\nPING\n", 9);
	expect_line(fr, 8, 0, NULL, 8);
	expect_line(fr, 8, 0, "PING", 0);
	frame_clear(fr);
}

/*
 * A line of 1 MiB in reads of 1000 bytes: the frame's own block grows
 * by doubling (under twice what it holds, plus a read's room) and is
 * not shrunk while it fills; once the line is served, what is left
 * moves to a block of just its size.
 */
static void
test_long_growth(void **state)
{
	static char	 piece[1000];
	struct fixture	*f = *state;
	struct frame	*fr = &f->fr;
	const char	*line;
	size_t		 i, limit, blocks = 0, last = 0;

	memset(piece, 'x', sizeof piece);
	for (i = 0; i < 1024; i++) {
		feed(fr, piece, sizeof piece);
		frame_keep(fr);
		assert_false(frame_ready(fr, 1048576, 0));
		if (fr->own != NULL && fr->ownsize != last) {
			blocks++;
			last = fr->ownsize;
		}
		assert_true(fr->own == NULL ||
		    fr->ownsize < 2 * (fr->len + FRAME_ROOM));
	}
	assert_true(blocks <= 12);	/* 16 KiB to 2 MiB, doubling */
	feed(fr, "\nPI", 3);
	assert_true(frame_ready(fr, 1048576, 0));
	assert_int_equal(frame_take(fr, 1048576, &line, &limit), 1024000);
	frame_keep(fr);
	assert_int_equal(fr->ownsize, 2);	/* "PI" */
	frame_clear(fr);
}

/*
 * A line of exactly max bytes, ended by LF or CRLF, and one a byte
 * longer: in two reads cut at every byte (between the CR and the LF too),
 * the frame kept and the scratch block lent away in between, and in
 * reads of one byte each.  The first is accepted whole every time (its
 * CR may wait for its LF: max + 1 bytes held, no more), the second is
 * over max every time; the next line is framed right after either.
 */
#define SPLIT_MAX	128

static void
split_one(struct fixture *f, const char *line, size_t len, size_t cut,
    const char *want)
{
	struct frame	*fr = &f->fr;
	size_t		 i;

	if (cut == 0) {			/* one byte per read */
		for (i = 0; i < len; i++) {
			feed(fr, line + i, 1);
			if (i + 1 < len)
				assert_false(frame_ready(fr, SPLIT_MAX, 0));
			frame_keep(fr);
			memset(f->scratch, 'X', SCRATCH);
		}
	} else {
		feed(fr, line, cut);
		if (cut < len)
			assert_false(frame_ready(fr, SPLIT_MAX, 0));
		frame_keep(fr);
		memset(f->scratch, 'X', SCRATCH);
		feed(fr, line + cut, len - cut);
	}
	expect_line(fr, SPLIT_MAX, 0, want, SPLIT_MAX);
	feed(fr, "PING\n", 5);
	expect_line(fr, SPLIT_MAX, 0, "PING", 0);
	assert_false(frame_ready(fr, SPLIT_MAX, 0));
	assert_int_equal(frame_partial(fr), 0);
}

static void
test_split_every_byte(void **state)
{
	static const char *const ends[] = { "\n", "\r\n" };
	struct fixture	*f = *state;
	char		 line[SPLIT_MAX + 4], want[SPLIT_MAX + 2];
	size_t		 n, e, len, cut;

	for (n = SPLIT_MAX; n <= SPLIT_MAX + 1; n++)
		for (e = 0; e < 2; e++) {
			for (len = 0; len < n; len++)
				line[len] = (char)('a' + len % 26);
			memcpy(want, line, n);
			want[n] = '\0';
			memcpy(line + n, ends[e], strlen(ends[e]));
			len = n + strlen(ends[e]);
			for (cut = 0; cut <= len; cut++)
				split_one(f, line, len, cut,
				    n == SPLIT_MAX ? want : NULL);
		}
	frame_clear(&f->fr);
}

/* No scratch block at all: the frame's own, from the first byte. */
static void
test_no_scratch(void **state)
{
	struct fixture	*f = *state;
	struct frame	*fr = &f->fr;

	frame_init(fr, NULL, 0);
	feed(fr, "PING\nPI", 7);
	assert_non_null(fr->own);
	expect_line(fr, 1024, 0, "PING", 0);
	feed(fr, "NG\n", 3);
	expect_line(fr, 1024, 0, "PING", 0);
	frame_clear(fr);
	assert_null(fr->own);
}

/* A PROXY header comes off the front before any line is cut. */
static void
test_drop(void **state)
{
	struct fixture	*f = *state;
	struct frame	*fr = &f->fr;
	const char	*p;
	size_t		 len;

	feed(fr, "PROXY x\r\nPING\n", 14);
	p = frame_data(fr, &len);
	assert_int_equal(len, 14);
	assert_memory_equal(p, "PROXY x\r\n", 9);
	frame_drop(fr, 9);
	expect_line(fr, 1024, 0, "PING", 0);
	p = frame_data(fr, &len);
	assert_int_equal(len, 0);
	frame_clear(fr);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test_setup_teardown(test_lines, fx_setup,
		    fx_teardown),
		cmocka_unit_test_setup_teardown(test_in_place, fx_setup,
		    fx_teardown),
		cmocka_unit_test_setup_teardown(test_keep, fx_setup,
		    fx_teardown),
		cmocka_unit_test_setup_teardown(test_too_long, fx_setup,
		    fx_teardown),
		cmocka_unit_test_setup_teardown(test_eof, fx_setup,
		    fx_teardown),
		cmocka_unit_test_setup_teardown(test_long_line, fx_setup,
		    fx_teardown),
		cmocka_unit_test_setup_teardown(test_reload_lower, fx_setup,
		    fx_teardown),
		cmocka_unit_test_setup_teardown(test_long_growth, fx_setup,
		    fx_teardown),
		cmocka_unit_test_setup_teardown(test_split_every_byte,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_no_scratch, fx_setup,
		    fx_teardown),
		cmocka_unit_test_setup_teardown(test_drop, fx_setup,
		    fx_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
