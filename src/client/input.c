/* SPDX-License-Identifier: ISC */
/*
 * input.c -- the sudokuc puzzle reader.
 *
 * Each source is read into one buffer; items are cut from it without
 * consuming anything until a whole puzzle is there, so a grid split
 * across two reads is simply parsed again after the next read.  What
 * the lines mean is parse.c's business.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "input.h"
#include "parse.h"

#define INPUT_READSIZE	65536
/*
 * The most bytes one puzzle may span.  A grid of nine rows, even with
 * generous blanks, is a few hundred bytes; anything that does not fit is
 * reported and skipped, so memory stays bounded whatever the input is.
 */
#define INPUT_BUFMAX	(1024 * 1024)

enum source_type {
	SOURCE_FILE,
	SOURCE_FD,
	SOURCE_TEXT,
	SOURCE_META,
	SOURCE_SEEDS
};

struct source {
	enum source_type	 type;
	char			*name;
	const char		*text;
	enum meta		 meta;
	int			 fd;		/* SOURCE_FD, until opened */
	uint64_t		 seed;		/* SOURCE_SEEDS: the next one */
	unsigned long		 left;		/* SOURCE_SEEDS */
};

/* Where parsing is in the buffer; committed only when an item is whole. */
struct cursor {
	size_t		off;
	unsigned long	line;
};

struct input {
	struct source	*src;
	size_t		 nsrc;
	size_t		 cur;
	int		 open;
	int		 fd;
	int		 eof;
	int		 oneline;	/* an argument without newlines */
	int		 readerr;	/* errno of a failed read, or 0 */
	int		 overlong;	/* the buffer is full of one item */
	int		 skipping;	/* discarding the rest of a long line */
	char		*buf;
	size_t		 off;
	size_t		 len;
	size_t		 size;
	unsigned long	 line;		/* lines consumed so far */
	int		 marks;	/* input_marks(): 729 characters are marks */
	int		 seeding;	/* input_seed(): numbering puzzles */
	uint64_t	 seed;		/* the next puzzle's */
};

struct input *
input_new(void)
{
	struct input	*in;

	in = xcalloc(1, sizeof *in);
	in->fd = -1;
	return (in);
}

static struct source *
input_add(struct input *in, enum source_type type, const char *name)
{
	struct source	*s;

	in->src = xreallocarray(in->src, in->nsrc + 1, sizeof *in->src);
	s = &in->src[in->nsrc++];
	memset(s, 0, sizeof *s);
	s->type = type;
	if (name != NULL)
		s->name = xstrdup(name);
	return (s);
}

void
input_add_file(struct input *in, const char *path)
{
	input_add(in, SOURCE_FILE, path);
}

void
input_add_text(struct input *in, const char *text, const char *name)
{
	input_add(in, SOURCE_TEXT, name)->text = text;
}

void
input_add_fd(struct input *in, int fd, const char *name)
{
	input_add(in, SOURCE_FD, name)->fd = fd;
}

void
input_add_meta(struct input *in, enum meta meta, const char *name)
{
	input_add(in, SOURCE_META, name)->meta = meta;
}

void
input_add_seeds(struct input *in, uint64_t seed, unsigned long count)
{
	struct source	*s = input_add(in, SOURCE_SEEDS, "generate");

	s->seed = seed;
	s->left = count;
}

void
input_seed(struct input *in, uint64_t seed)
{
	in->seeding = 1;
	in->seed = seed;
}

void
input_marks(struct input *in)
{
	in->marks = 1;
}

void
input_free(struct input *in)
{
	size_t	i;

	if (in == NULL)
		return;
	if (in->fd > STDIN_FILENO)
		close(in->fd);
	for (i = 0; i < in->nsrc; i++) {
		if (in->src[i].type == SOURCE_FD && in->src[i].fd != -1)
			close(in->src[i].fd);
		free(in->src[i].name);
	}
	free(in->src);
	free(in->buf);
	free(in);
}

int
input_fd(const struct input *in)
{
	if (!in->open || in->eof)
		return (-1);
	return (in->fd);
}

int
input_ready(const struct input *in)
{
	struct pollfd	pfd;

	if ((pfd.fd = input_fd(in)) == -1)
		return (1);
	pfd.events = POLLIN;
	return (poll(&pfd, 1, 0) != 0);
}

/* Makes room for at least INPUT_READSIZE more bytes, if allowed. */
static size_t
input_room(struct input *in)
{
	size_t	 nsize;

	if (in->off > 0) {
		memmove(in->buf, in->buf + in->off, in->len - in->off);
		in->len -= in->off;
		in->off = 0;
	}
	if (in->size - in->len >= INPUT_READSIZE || in->size >= INPUT_BUFMAX)
		return (in->size - in->len);
	nsize = in->size == 0 ? 2 * INPUT_READSIZE : in->size * 2;
	if (nsize > INPUT_BUFMAX)
		nsize = INPUT_BUFMAX;
	in->buf = xreallocarray(in->buf, nsize, 1);
	in->size = nsize;
	return (in->size - in->len);
}

/* While skipping an overlong line: drop bytes up to its newline. */
static void
input_skip(struct input *in)
{
	char	*nl;

	nl = memchr(in->buf + in->off, '\n', in->len - in->off);
	if (nl == NULL) {
		in->off = in->len;
		return;
	}
	in->off = nl + 1 - in->buf;
	in->line++;
	in->skipping = 0;
}

void
input_read(struct input *in)
{
	size_t	room;
	ssize_t	n;

	if (!in->open || in->eof || in->fd == -1)
		return;
	if ((room = input_room(in)) == 0) {
		in->overlong = 1;
		return;
	}
	n = read(in->fd, in->buf + in->len, room);
	if (n == -1) {
		if (errno == EINTR || errno == EAGAIN)
			return;
		in->readerr = errno;
		in->eof = 1;
	} else if (n == 0)
		in->eof = 1;
	else
		in->len += n;
	if (in->skipping)
		input_skip(in);
}

static void
input_close(struct input *in)
{
	if (in->fd > STDIN_FILENO)
		close(in->fd);
	in->fd = -1;
	in->open = in->eof = in->oneline = 0;
	in->readerr = in->overlong = in->skipping = 0;
	in->off = in->len = 0;
	in->line = 0;
	in->cur++;
}

static void
input_fail(struct item *it, const struct source *s, const char *why)
{
	memset(it, 0, sizeof *it);
	it->kind = ITEM_FAIL;
	it->src = s->name;
	snprintf(it->msg, sizeof it->msg, "%s", why);
}

/* The item of a meta request or the next seed: 1, or 0 if none is left. */
static int
input_synth(struct input *in, struct item *it)
{
	struct source	*s = &in->src[in->cur];

	if (s->type == SOURCE_META) {
		memset(it, 0, sizeof *it);
		it->kind = ITEM_META;
		it->meta = s->meta;
		it->src = s->name;
		in->cur++;
		return (1);
	}
	if (s->type == SOURCE_SEEDS) {
		if (s->left == 0) {
			in->cur++;
			return (0);
		}
		memset(it, 0, sizeof *it);
		it->kind = ITEM_PUZZLE;
		it->src = s->name;
		it->seed = s->seed++;	/* wraps around after 2^64 - 1 */
		if (--s->left == 0)
			in->cur++;
		return (1);
	}
	return (0);
}

/* Opens the current source; 1 if that already gave an item. */
static int
input_open(struct input *in, struct item *it)
{
	struct source	*s = &in->src[in->cur];
	size_t		 n;

	if (s->type == SOURCE_META || s->type == SOURCE_SEEDS)
		return (input_synth(in, it));
	in->open = 1;
	if (s->type == SOURCE_TEXT) {
		n = strlen(s->text);
		if (n + 1 > in->size) {
			in->buf = xreallocarray(in->buf, n + 1, 1);
			in->size = n + 1;
		}
		memcpy(in->buf, s->text, n);
		in->len = n;
		in->eof = 1;
		in->oneline = memchr(s->text, '\n', n) == NULL;
		return (0);
	}
	if (s->type == SOURCE_FD) {
		in->fd = s->fd;
		s->fd = -1;
	} else if (strcmp(s->name, "-") == 0)
		in->fd = STDIN_FILENO;
	else if ((in->fd = open(s->name, O_RDONLY | O_CLOEXEC)) == -1) {
		input_fail(it, s, strerror(errno));
		input_close(in);
		return (1);
	}
	return (0);
}

/*
 * The next line at c, without its LF and the blanks at both ends: 1, 0
 * if it is not complete yet, -1 at the end of the source.
 */
static int
input_getline(const struct input *in, struct cursor *c, const char **s,
    size_t *len)
{
	const char	*p, *nl;
	size_t		 left = in->len - c->off;

	if (left == 0)
		return (in->eof ? -1 : 0);
	p = in->buf + c->off;
	if ((nl = memchr(p, '\n', left)) == NULL) {
		if (!in->eof)
			return (0);
		nl = p + left;		/* a last line without LF */
		c->off += left;
	} else
		c->off += nl - p + 1;
	c->line++;
	while (p < nl && (*p == ' ' || *p == '\t'))
		p++;
	while (nl > p && (nl[-1] == '\r' || nl[-1] == ' ' || nl[-1] == '\t'))
		nl--;
	*s = p;
	*len = nl - p;
	return (1);
}

/* A new puzzle item of the current source, starting at line. */
static void
input_item(const struct input *in, struct item *it, enum shape shape,
    unsigned long line)
{
	it->kind = ITEM_PUZZLE;
	it->shape = shape;
	it->src = in->src[in->cur].name;
	it->line = in->oneline ? 0 : line;
	it->code = NULL;
	it->marked = 0;
}

/*
 * The rows of a grid of shape after its first line: 1 when whole, 0 if
 * more input is needed.  A pretty grid's rule lines are skipped, and so
 * is the one that closes it.
 */
static int
input_rows(const struct input *in, struct cursor *c, struct row *rows,
    size_t *nrows, enum shape shape)
{
	struct cursor	 save;
	const char	*s;
	size_t		 len;
	enum lclass	 lc;
	int		 r;

	while (*nrows < 9 || shape == SHAPE_PRETTY) {
		save = *c;
		if ((r = input_getline(in, c, &s, &len)) != 1)
			return (r == 0 ? 0 : 1);
		lc = parse_classify(s, len);
		if (*nrows == 9) {
			if (lc != LC_RULE)
				*c = save;
			return (1);
		}
		if (lc == LC_COMMENT || (lc == LC_RULE &&
		    shape == SHAPE_PRETTY))
			continue;
		if (!parse_continues(shape, lc, len)) {
			*c = save;
			return (1);
		}
		rows[*nrows].s = s;
		rows[*nrows].len = len;
		rows[(*nrows)++].line = c->line;
	}
	return (1);
}

/* Cuts the next item from the buffer: 1, 0 if more is needed, -1 at end. */
static int
input_parse(struct input *in, struct item *it)
{
	struct cursor	 c = { in->off, in->line };
	struct row	 rows[9];
	const char	*s;
	size_t		 len, nrows = 0;
	enum lclass	 lc;
	int		 r;

	for (;;) {
		if ((r = input_getline(in, &c, &s, &len)) != 1)
			return (r);
		lc = parse_classify(s, len);
		if (lc != LC_BLANK && lc != LC_COMMENT)
			break;
		in->off = c.off;
		in->line = c.line;
	}
	if (lc == LC_LONG) {
		input_item(in, it, SHAPE_LINE, c.line);
		if (in->marks && len == SUDOKU_CANDS_LEN)
			parse_marks(it, s, len);
		else
			parse_line(it, s, len);
	} else {
		input_item(in, it, parse_shape(lc), c.line);
		if (lc != LC_RULE) {
			rows[0].s = s;
			rows[0].len = len;
			rows[nrows++].line = c.line;
		}
		if (input_rows(in, &c, rows, &nrows, it->shape) == 0)
			return (0);
		parse_grid(it, rows, nrows);
	}
	in->off = c.off;
	in->line = c.line;
	if (in->seeding)
		it->seed = in->seed++;	/* wraps around after 2^64 - 1 */
	return (1);
}

/* The buffer is full and holds no whole item: report it and skip it. */
static void
input_overlong(struct input *in, struct item *it)
{
	input_item(in, it, SHAPE_LINE, in->line + 1);
	parse_bad(it, in->line + 1, "toolong", "no puzzle in the next %d "
	    "bytes", INPUT_BUFMAX);
	in->overlong = 0;
	in->skipping = 1;
	in->off = in->len;
	if (in->seeding)
		in->seed++;	/* a malformed puzzle takes its seed */
}

int
input_next(struct input *in, struct item *it)
{
	int	r;

	while (in->cur < in->nsrc) {
		if (!in->open) {
			if (input_open(in, it))
				return (1);
			continue;
		}
		if (in->readerr != 0) {
			input_fail(it, &in->src[in->cur],
			    strerror(in->readerr));
			input_close(in);
			return (1);
		}
		if (in->overlong) {
			input_overlong(in, it);
			return (1);
		}
		if (in->skipping)
			r = in->eof ? -1 : 0;
		else if ((r = input_parse(in, it)) == 1)
			return (1);
		if (r == 0)
			return (0);
		input_close(in);
	}
	return (-1);
}

/* Ninths of a puzzle in one file (a grid row is one ninth); -1 if unknown. */
static long long
input_count(int fd)
{
	FILE		*f;
	char		*line = NULL;
	size_t		 size = 0, len;
	ssize_t		 n;
	long long	 ninths = 0;
	const char	*s;
	struct cursor	 c;
	struct input	 one;

	if ((f = fdopen(fd, "r")) == NULL) {
		close(fd);
		return (-1);
	}
	memset(&one, 0, sizeof one);
	one.eof = 1;
	while ((n = getline(&line, &size, f)) != -1) {
		one.buf = line;
		one.len = n;
		c.off = 0;
		c.line = 0;
		input_getline(&one, &c, &s, &len);
		switch (parse_classify(s, len)) {
		case LC_BLANK:
		case LC_COMMENT:
		case LC_RULE:
			break;
		case LC_LONG:
			ninths += 9;
			break;
		default:
			ninths++;
		}
	}
	free(line);
	fclose(f);
	return (ninths);
}

/*
 * Opens a file source for counting: a descriptor, -1 if it cannot be
 * opened, or -2 if it is not a regular file (a pipe, a terminal).
 */
static int
input_count_open(const struct source *s)
{
	struct stat	 st;

	/* Look before opening: opening a FIFO could block. */
	if (strcmp(s->name, "-") == 0) {
		if (fstat(STDIN_FILENO, &st) == -1 || !S_ISREG(st.st_mode))
			return (-2);
		return (open("/dev/stdin", O_RDONLY | O_CLOEXEC));
	}
	if (stat(s->name, &st) == -1)
		return (-1);
	if (!S_ISREG(st.st_mode))
		return (-2);
	return (open(s->name, O_RDONLY | O_CLOEXEC));
}

unsigned long
input_estimate(const struct input *in)
{
	long long	 ninths = 0, n;
	size_t		 i;
	int		 fd;

	for (i = 0; i < in->nsrc; i++) {
		if (in->src[i].type == SOURCE_TEXT)
			ninths += 9;
		if (in->src[i].type == SOURCE_SEEDS)
			ninths += 9LL * in->src[i].left;
		if (in->src[i].type == SOURCE_FD)
			return (0);
		if (in->src[i].type != SOURCE_FILE)
			continue;
		if ((fd = input_count_open(&in->src[i])) == -2)
			return (0);
		if (fd == -1)
			continue;
		if ((n = input_count(fd)) == -1)
			return (0);
		ninths += n;
	}
	return ((ninths + 8) / 9);
}
