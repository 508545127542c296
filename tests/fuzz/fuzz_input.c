/* SPDX-License-Identifier: ISC */
/*
 * fuzz_input.c -- libFuzzer target for sudokuc's puzzle reader: the bytes
 * of a file cut into items by input.c and parse.c (81-cell lines, 9-line
 * grids, spaced grids, pretty grids, comments, CRLF).
 *
 * The bytes go through a pipe twice: whole, and in pieces whose sizes
 * the input itself chooses, so that a grid is cut anywhere between two
 * reads; both runs must give the same items.  Each item is checked
 * against what sudokuc(1) says of the input, not against the reader's
 * own output: a puzzle is 81 cells of '0'-'9' or '.', accepted by
 * sudoku_parse() with the same grid, and they are the cells written on
 * its lines, from the line it names on (its row lines, comments and the
 * rules of a pretty grid left out, the blanks and bars between cells
 * removed); a bad item has a known code, a one-line printable text and
 * a line inside the input; the reader ends; nothing leaks.
 */
#include <sys/types.h>

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/input.h"
#include "core/sudoku.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* The most bytes written to the pipe at once: below its 64 KiB. */
#define FUZZ_PIPE_MAX	32768

struct fuzz_items {
	struct item	*v;
	size_t		 n;
};

/* The bytes of one write: all that is left, or a piece the input picks. */
static size_t
fuzz_piece(const uint8_t *data, size_t size, size_t off, size_t k,
    int pieces)
{
	size_t	len = size - off;

	if (pieces && len > (size_t)data[(k * 7) % size] % 97 + 1)
		len = data[(k * 7) % size] % 97 + 1;
	return (len > FUZZ_PIPE_MAX ? FUZZ_PIPE_MAX : len);
}

/* Reads data through a pipe into items, as sudokuc reads a file. */
static void
fuzz_read(const uint8_t *data, size_t size, int pieces,
    struct fuzz_items *out)
{
	struct input	*in;
	struct item	 it;
	size_t		 off = 0, k = 0, len;
	int		 fds[2], r;

	if (pipe2(fds, O_CLOEXEC) == -1)
		abort();
	in = input_new();
	input_add_fd(in, fds[0], "fuzz");
	memset(&it, 0, sizeof it);
	while ((r = input_next(in, &it)) != -1) {
		if (r == 1) {
			out->v = realloc(out->v, (out->n + 1) * sizeof *out->v);
			if (out->v == NULL)
				abort();
			out->v[out->n++] = it;
			continue;
		}
		/* Something to read next, so input_read() never blocks. */
		if (off < size) {
			len = fuzz_piece(data, size, off, k++, pieces);
			if (write(fds[1], data + off, len) != (ssize_t)len)
				abort();
			off += len;
		} else if (fds[1] != -1) {
			close(fds[1]);
			fds[1] = -1;
		}
		input_read(in);
	}
	if (fds[1] != -1)
		close(fds[1]);
	input_free(in);
}

/* Line n (from 1) of data, without its LF, and trimmed as sudokuc does. */
static const uint8_t *
fuzz_line(const uint8_t *data, size_t size, unsigned long n, size_t *len)
{
	const uint8_t	*p = data, *end = data + size, *nl;

	while (--n > 0) {
		if ((nl = memchr(p, '\n', end - p)) == NULL)
			abort();	/* no such line */
		p = nl + 1;
	}
	if (p >= end)
		abort();
	if ((nl = memchr(p, '\n', end - p)) == NULL)
		nl = end;
	while (p < nl && (*p == ' ' || *p == '\t'))
		p++;
	while (nl > p && (nl[-1] == '\r' || nl[-1] == ' ' || nl[-1] == '\t'))
		nl--;
	*len = nl - p;
	return (p);
}

/* Is a trimmed line a rule of a pretty grid ("+---+...")? */
static int
fuzz_rule(const uint8_t *s, size_t len)
{
	size_t	i;

	for (i = 0; i < len && (s[i] == '+' || s[i] == '-'); i++)
		;
	return (len > 0 && s[0] == '+' && i == len);
}

/* The cells written on the lines of a puzzle item, into cells. */
static void
fuzz_cells(const uint8_t *data, size_t size, const struct item *it,
    char *cells)
{
	const uint8_t	*s;
	unsigned long	 line = it->line;
	size_t		 len, i, n = 0, rows = 0;

	if (it->shape == SHAPE_LINE) {
		s = fuzz_line(data, size, line, &len);
		if (len != SUDOKU_CELLS)
			abort();
		memcpy(cells, s, SUDOKU_CELLS);
		return;
	}
	for (; rows < 9; line++) {
		s = fuzz_line(data, size, line, &len);
		if ((len > 0 && s[0] == '#') || (it->shape == SHAPE_PRETTY &&
		    fuzz_rule(s, len)))
			continue;
		for (i = 0; i < len; i++) {
			if (s[i] == ' ' || s[i] == '\t' ||
			    (it->shape == SHAPE_PRETTY && s[i] == '|'))
				continue;
			if (n == SUDOKU_CELLS)
				abort();
			cells[n++] = s[i];
		}
		rows++;
	}
	if (n != SUDOKU_CELLS)
		abort();
}

static void
fuzz_puzzle(const uint8_t *data, size_t size, const struct item *it)
{
	struct sudoku_grid	g;
	char			cells[SUDOKU_CELLS];
	int			i;

	if (it->shape > SHAPE_PRETTY)
		abort();
	for (i = 0; i < SUDOKU_CELLS; i++)
		if ((it->cells[i] < '0' || it->cells[i] > '9') &&
		    it->cells[i] != '.')
			abort();
	if (sudoku_parse(it->cells, SUDOKU_CELLS, &g, NULL) != 0 ||
	    memcmp(&g, &it->grid, sizeof g) != 0)
		abort();
	fuzz_cells(data, size, it, cells);
	if (memcmp(cells, it->cells, SUDOKU_CELLS) != 0)
		abort();
}

static void
fuzz_bad(const struct item *it)
{
	static const char	*codes[] = { "length", "char", "conflict",
				    "toolong" };
	size_t			 i;

	for (i = 0; i < sizeof codes / sizeof codes[0]; i++)
		if (it->code != NULL && strcmp(it->code, codes[i]) == 0)
			break;
	if (i == sizeof codes / sizeof codes[0] || it->msg[0] == '\0')
		abort();
	for (i = 0; it->msg[i] != '\0'; i++)
		if (it->msg[i] < 0x20 || it->msg[i] > 0x7e)
			abort();
}

/* Do two items say the same?  (A puzzle's msg is not its business.) */
static int
fuzz_same(const struct item *a, const struct item *b)
{
	if (a->kind != b->kind || a->shape != b->shape || a->line != b->line)
		return (0);
	if (a->kind == ITEM_BAD)
		return (strcmp(a->code, b->code) == 0 &&
		    strcmp(a->msg, b->msg) == 0);
	return (memcmp(a->cells, b->cells, SUDOKU_CELLS) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_items	whole = { NULL, 0 }, cut = { NULL, 0 };
	unsigned long		lines;
	size_t			i;

	lines = size == 0 ? 0 : data[size - 1] != '\n';
	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	fuzz_read(data, size, 0, &whole);
	fuzz_read(data, size, 1, &cut);
	if (whole.n != cut.n || whole.n > lines)
		abort();
	for (i = 0; i < whole.n; i++) {
		if (!fuzz_same(&whole.v[i], &cut.v[i]))
			abort();
		if (whole.v[i].line < 1 || whole.v[i].line > lines)
			abort();
		if (whole.v[i].kind == ITEM_PUZZLE)
			fuzz_puzzle(data, size, &whole.v[i]);
		else if (whole.v[i].kind == ITEM_BAD)
			fuzz_bad(&whole.v[i]);
		else
			abort();	/* a pipe neither fails nor asks meta */
	}
	free(whole.v);
	free(cut.v);
	return (0);
}
