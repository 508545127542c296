/*
 * local.c -- sudokuc -L: answers from the solver core, in-process.
 */
#include <stdio.h>

#include "local.h"

static void
local_result(enum sudoku_result r, uint64_t budget, char *buf, size_t size)
{
	if (r == SUDOKU_NOSOLUTION)
		snprintf(buf, size, "ERR nosolution the puzzle has no solution");
	else if (r == SUDOKU_BUDGET)
		snprintf(buf, size, "ERR budget search budget of %llu guesses "
		    "exceeded", (unsigned long long)budget);
	else
		snprintf(buf, size, "ERR conflict the givens break a rule");
}

void
local_reply(const struct item *it, const struct query *q, char *buf,
    size_t size)
{
	struct sudoku_grid	sol;
	enum sudoku_result	r;
	unsigned long		n;

	if (it->kind == ITEM_META) {
		if (it->meta == META_PING)
			snprintf(buf, size, "PONG");
		else
			snprintf(buf, size, "VERSION %s", SUDOKUC_VERSION);
		return;
	}
	if (q->mode == MODE_COUNT) {
		r = sudoku_count(&it->grid, q->limit, q->budget, &n, NULL,
		    NULL);
		if (r == SUDOKU_SOLVED || r == SUDOKU_NOSOLUTION)
			snprintf(buf, size, "%lu", n);
		else
			local_result(r, q->budget, buf, size);
		return;
	}
	r = sudoku_solve(&it->grid, q->mode == MODE_LEXMIN ? SUDOKU_LEXMIN :
	    SUDOKU_ANY, q->budget, &sol, NULL);
	if (r != SUDOKU_SOLVED || size <= SUDOKU_CELLS) {
		local_result(r, q->budget, buf, size);
		return;
	}
	sudoku_format(&sol, buf);
	buf[SUDOKU_CELLS] = '\0';
}

int
local_run(struct input *in, const struct query *q, struct output *out)
{
	struct item	it;
	char		reply[128];
	int		r, answer;

	while ((r = input_next(in, &it)) != -1) {
		if (r == 0) {
			fflush(stdout);		/* the reader may block */
			input_read(in);
			continue;
		}
		answer = it.kind == ITEM_PUZZLE || it.kind == ITEM_META;
		if (answer)
			local_reply(&it, q, reply, sizeof reply);
		if (output_item(out, &it, answer ? reply : NULL) == -1)
			return (-1);
		output_tick(out);
	}
	return (0);
}
