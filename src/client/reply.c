/* SPDX-License-Identifier: ISC */
/*
 * reply.c -- the replies of sudokud, made in-process for sudokuc -L:
 * PING's and VERSION's here, every other by the reply of its verb's row
 * (verb_solve.c, verb_logic.c, verb_path.c, verb_tools.c), and the
 * pieces they share.
 *
 * Each reply follows the daemon's code path for its request
 * (src/daemon/proto_work.c, proto_solve.c, proto_logic.c and
 * proto_tools.c) with the same core calls in the same order, so that
 * the same request gets the same bytes either way: the tests compare the
 * two outputs.  A search, a generation or a reduction the daemon runs in
 * slices gives the same answer in one call (sudoku.h, sudoku_tools.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cells.h"
#include "common/xmalloc.h"
#include "reply.h"
#include "verb.h"

void
reply_puzzle(const struct sudoku_grid *g, char *buf)
{
	int	i;

	sudoku_format(g, buf);
	for (i = 0; i < SUDOKU_CELLS; i++)
		if (buf[i] == '0')
			buf[i] = '.';
}

void
reply_result(enum sudoku_result r, uint64_t budget, char *buf, size_t size)
{
	if (r == SUDOKU_NOSOLUTION)
		snprintf(buf, size, "ERR nosolution the puzzle has no solution");
	else if (r == SUDOKU_BUDGET)
		snprintf(buf, size, "ERR budget search budget of %llu guesses "
		    "exceeded", (unsigned long long)budget);
	else
		snprintf(buf, size, "ERR conflict the givens break a rule");
}

int
reply_unique(const struct item *it, const struct query *q,
    struct sudoku_grid *sol, char *buf, size_t size)
{
	enum sudoku_result	r;
	unsigned long		n = 0;

	r = sudoku_count(&it->grid, 2, q->budget, &n, sol, NULL);
	if (r == SUDOKU_BUDGET || n == 0)
		reply_result(r == SUDOKU_BUDGET ? r : SUDOKU_NOSOLUTION,
		    q->budget, buf, size);
	else if (n > 1)
		snprintf(buf, size, "ERR multiple the puzzle has more than "
		    "one solution");
	return (r == SUDOKU_BUDGET || n != 1 ? -1 : 0);
}

int
reply_state(const struct item *it, const struct query *q,
    const struct sudoku_cands *c, struct sudoku_grid *sol,
    struct reply_buf *b)
{
	uint8_t	cells[SUDOKU_CELLS];
	char	text[REPLY_MAX];
	int	n;

	if (reply_unique(it, q, sol, b->p, b->size) == -1)
		return (-1);
	if ((n = sudoku_cands_wrong(c, sol, cells)) == 0)
		return (0);
	cells_text(cells, n, text, sizeof text);
	snprintf(b->p, b->size, "ERR wrong %s", text);
	return (-1);
}

/* Room for len more bytes after the first at of b. */
static void
reply_room(struct reply_buf *b, size_t at, size_t len)
{
	if (at + len <= b->size)
		return;
	b->size = b->size == 0 ? REPLY_MAX : b->size;
	while (at + len > b->size)
		b->size *= 2;
	b->p = xreallocarray(b->p, b->size, 1);
}

void
reply_line(struct reply_buf *b, size_t *len, const char *line)
{
	size_t	n = strlen(line);

	reply_room(b, *len, n + 2);
	if (*len > 0)
		b->p[(*len)++] = '\n';
	memcpy(b->p + *len, line, n + 1);
	*len += n;
}

void
reply_make(const struct item *it, const struct query *q,
    struct reply_buf *b)
{
	reply_room(b, 0, REPLY_MAX);
	if (it->kind != ITEM_META)
		q->verb->reply(it, q, b);
	else if (it->meta == META_PING)
		snprintf(b->p, b->size, "PONG");
	else
		snprintf(b->p, b->size, "VERSION %s", SUDOKUC_VERSION);
}

void
reply_buf_free(struct reply_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->size = 0;
}

void
reply_buf_trim(struct reply_buf *b)
{
	if (b->size > REPLY_KEEP)
		reply_buf_free(b);
}

size_t
reply_size(const struct query *q)
{
	const struct verb	*v = q->verb;

	if (!(v->flags & VERB_BLOCK) || v->lines != 0)
		return (REPLY_MAX);
	/* A line a solution, then the longest ERR or END. */
	return ((size_t)q->limit * (SUDOKU_CELLS + 1) + 128);
}
