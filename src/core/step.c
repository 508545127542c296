/* SPDX-License-Identifier: ISC */
/*
 * step.c -- the wire text of a step: "<technique> <actions>
 * <explanation>", one line of 7-bit ASCII.  Cells are rRcC, units
 * "row 3", "column 5", "box 2", all 1-based; lists are comma-separated
 * without blanks so that a list reads as one word.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sudoku.h"
#include "logic.h"

/* An output buffer that counts what would have been written. */
struct step_out {
	char	*buf;
	size_t	 size;
	size_t	 len;
};

static void __attribute__((format(printf, 2, 3)))
step_put(struct step_out *o, const char *fmt, ...)
{
	va_list	 ap;
	size_t	 room = o->len < o->size ? o->size - o->len : 0;
	int	 n;

	va_start(ap, fmt);
	n = vsnprintf(room > 0 ? o->buf + o->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

static void
step_cellname(struct step_out *o, int cell)
{
	step_put(o, "r%dc%d", cell / 9 + 1, cell % 9 + 1);
}

/* "row 3", "column 5" or "box 2". */
static void
step_unit(struct step_out *o, int u)
{
	step_put(o, "%s %d", sudoku_unit_name((enum sudoku_unit)(u / 9)),
	    u % 9 + 1);
}

/* Cells from..to-1 of the step, comma-separated. */
static void
step_cells(struct step_out *o, const struct sudoku_step *st, int from,
    int to)
{
	int	 i;

	for (i = from; i < to; i++) {
		if (i > from)
			step_put(o, ",");
		step_cellname(o, st->cell[i]);
	}
}

/* Digits of a mask joined by sep: "1,2", "4/7". */
static void
step_digits(struct step_out *o, unsigned int m, const char *sep)
{
	int	 first = 1;

	for (; m != 0; m &= m - 1, first = 0)
		step_put(o, "%s%d", first ? "" : sep, logic_digit(m));
}

/* Units from..to-1 of one kind: "rows 2,7", "columns 3,8". */
static void
step_lines(struct step_out *o, const struct sudoku_step *st, int from,
    int to)
{
	int	 i;

	step_put(o, "%ss ", sudoku_unit_name(
	    (enum sudoku_unit)(st->unit[from] / 9)));
	for (i = from; i < to; i++)
		step_put(o, "%s%d", i > from ? "," : "", st->unit[i] % 9 + 1);
}

static void
step_actions(struct step_out *o, const struct sudoku_step *st)
{
	const struct sudoku_action	*a;
	int				 i;

	for (i = 0; i < st->nactions; i++) {
		a = &st->action[i];
		if (i > 0)
			step_put(o, ",");
		step_cellname(o, a->cell);
		step_put(o, "%c%d", a->place ? '=' : '-', a->digit);
	}
}

static void
step_singles(struct step_out *o, const struct sudoku_step *st)
{
	int	 d = logic_digit(st->digits);

	if (st->tech == SUDOKU_TECH_NAKED_SINGLE) {
		step_put(o, "%d is the only candidate left in ", d);
		step_cellname(o, st->cell[0]);
		return;
	}
	step_put(o, "%d can only go in ", d);
	step_cellname(o, st->cell[0]);
	step_put(o, " within ");
	step_unit(o, st->unit[0]);
}

/* Pointing and claiming: within from, d only in cells, all in to. */
static void
step_locked(struct step_out *o, const struct sudoku_step *st)
{
	int	 d = logic_digit(st->digits);

	step_put(o, "within ");
	step_unit(o, st->unit[0]);
	step_put(o, ", %d can only go in ", d);
	step_cells(o, st, 0, st->ncells);
	step_put(o, ", all in ");
	step_unit(o, st->unit[1]);
	step_put(o, ", so no other cell of ");
	step_unit(o, st->unit[1]);
	step_put(o, " can be %d", d);
}

static void
step_subset(struct step_out *o, const struct sudoku_step *st, int hidden)
{
	step_put(o, "in ");
	step_unit(o, st->unit[0]);
	if (hidden) {
		step_put(o, ", the digits ");
		step_digits(o, st->digits, ",");
		step_put(o, " can only go in the %d cells ", st->ncells);
		step_cells(o, st, 0, st->ncells);
		step_put(o, ", so those cells hold nothing else");
		return;
	}
	step_put(o, ", the %d cells ", st->ncells);
	step_cells(o, st, 0, st->ncells);
	step_put(o, " hold only the digits ");
	step_digits(o, st->digits, ",");
	step_put(o, ", so no other cell of ");
	step_unit(o, st->unit[0]);
	step_put(o, " can hold them");
}

static void
step_fish(struct step_out *o, const struct sudoku_step *st)
{
	int	 k = st->nunits / 2, d = logic_digit(st->digits);

	step_put(o, "the %ds of ", d);
	step_lines(o, st, 0, k);
	step_put(o, " all lie in ");
	step_lines(o, st, k, 2 * k);
	step_put(o, ", so no other cell of those %ss can be %d",
	    sudoku_unit_name((enum sudoku_unit)(st->unit[k] / 9)), d);
}

/* "r1c5 (1/3)" */
static void
step_bival(struct step_out *o, const struct sudoku_step *st, int i)
{
	step_cellname(o, st->cell[i]);
	step_put(o, " (");
	step_digits(o, st->cands[i], "/");
	step_put(o, ")");
}

static void
step_wing(struct step_out *o, const struct sudoku_step *st)
{
	int	 z = logic_digit(st->digits);

	step_put(o, "pivot ");
	step_bival(o, st, 0);
	step_put(o, " sees ");
	step_bival(o, st, 1);
	step_put(o, " and ");
	step_bival(o, st, 2);
	if (st->tech == SUDOKU_TECH_XY_WING)
		step_put(o, ": whatever the pivot is, one of those two is %d, "
		    "so a cell seeing both cannot be %d", z, z);
	else
		step_put(o, ": one of the three is %d, so a cell seeing all "
		    "three cannot be %d", z, z);
}

static void
step_colouring(struct step_out *o, const struct sudoku_step *st)
{
	int	 d = logic_digit(st->digits);

	step_put(o, "the conjugate pairs of %d colour ", d);
	step_cells(o, st, 0, st->nsplit);
	step_put(o, " one way and ");
	step_cells(o, st, st->nsplit, st->ncells);
	step_put(o, " the other");
	if (st->wrap) {
		step_put(o, "; ");
		step_cellname(o, st->cell[0]);
		step_put(o, " and ");
		step_cellname(o, st->cell[1]);
		step_put(o, " share a unit, so the first colour is not %d", d);
	} else
		step_put(o, "; one colour is %d, so a cell seeing both colours "
		    "cannot be %d", d, d);
}

/* X-chain "4 r1c1=r1c5-r5c5=r5c3"; XY-chain "r1c1(1=2)-r1c5(2=3)". */
static void
step_chain(struct step_out *o, const struct sudoku_step *st)
{
	int	 i, n = st->ncells, d = logic_digit(st->digits), in = d, out;

	if (st->tech == SUDOKU_TECH_X_CHAIN) {
		step_put(o, "chain of %ds ", d);
		for (i = 0; i < n; i++) {
			if (i > 0)
				step_put(o, "%c", i % 2 ? '=' : '-');
			step_cellname(o, st->cell[i]);
		}
	} else {
		step_put(o, "chain ");
		for (i = 0; i < n; i++, in = out) {
			out = logic_digit(st->cands[i] & ~logic_bit(in));
			if (i > 0)
				step_put(o, "-");
			step_cellname(o, st->cell[i]);
			step_put(o, "(%d=%d)", in, out);
		}
	}
	step_put(o, ": if ");
	step_cellname(o, st->cell[0]);
	step_put(o, " is not %d then ", d);
	step_cellname(o, st->cell[n - 1]);
	step_put(o, " is, so a cell seeing both cannot be %d", d);
}

/*
 * Does st name what its explanation needs?  A step from sudoku_hint()
 * always does; this keeps a hand-made one from reading past its lists.
 */
static int
step_complete(const struct sudoku_step *st)
{
	switch (st->tech) {
	case SUDOKU_TECH_X_WING:
	case SUDOKU_TECH_SWORDFISH:
	case SUDOKU_TECH_JELLYFISH:
		return (st->nunits >= 4 && st->nunits % 2 == 0);
	case SUDOKU_TECH_NAKED_SINGLE:
		return (st->ncells >= 1);
	case SUDOKU_TECH_HIDDEN_SINGLE:
		return (st->ncells >= 1 && st->nunits >= 1);
	case SUDOKU_TECH_POINTING:
	case SUDOKU_TECH_CLAIMING:
		return (st->ncells >= 1 && st->nunits >= 2);
	case SUDOKU_TECH_XY_WING:
	case SUDOKU_TECH_XYZ_WING:
		return (st->ncells >= 3);
	case SUDOKU_TECH_SIMPLE_COLOURING:
	case SUDOKU_TECH_X_CHAIN:
	case SUDOKU_TECH_XY_CHAIN:
		return (st->ncells >= 2);
	case SUDOKU_TECH_TRIAL:
	case SUDOKU_TECH_COUNT:
		return (1);
	default:	/* the subsets */
		return (st->ncells >= 2 && st->nunits >= 1);
	}
}

static void
step_explain(struct step_out *o, const struct sudoku_step *st)
{
	if (!step_complete(st)) {
		step_put(o, "no explanation");
		return;
	}
	switch (st->tech) {
	case SUDOKU_TECH_NAKED_SINGLE:
	case SUDOKU_TECH_HIDDEN_SINGLE:
		step_singles(o, st);
		break;
	case SUDOKU_TECH_POINTING:
	case SUDOKU_TECH_CLAIMING:
		step_locked(o, st);
		break;
	case SUDOKU_TECH_NAKED_PAIR:
	case SUDOKU_TECH_NAKED_TRIPLE:
	case SUDOKU_TECH_NAKED_QUAD:
		step_subset(o, st, 0);
		break;
	case SUDOKU_TECH_HIDDEN_PAIR:
	case SUDOKU_TECH_HIDDEN_TRIPLE:
	case SUDOKU_TECH_HIDDEN_QUAD:
		step_subset(o, st, 1);
		break;
	case SUDOKU_TECH_X_WING:
	case SUDOKU_TECH_SWORDFISH:
	case SUDOKU_TECH_JELLYFISH:
		step_fish(o, st);
		break;
	case SUDOKU_TECH_XY_WING:
	case SUDOKU_TECH_XYZ_WING:
		step_wing(o, st);
		break;
	case SUDOKU_TECH_SIMPLE_COLOURING:
		step_colouring(o, st);
		break;
	case SUDOKU_TECH_X_CHAIN:
	case SUDOKU_TECH_XY_CHAIN:
		step_chain(o, st);
		break;
	case SUDOKU_TECH_TRIAL:
	case SUDOKU_TECH_COUNT:
		step_put(o, "no logical step");
		break;
	}
}

int
sudoku_step_text(const struct sudoku_step *st, char *buf, size_t size)
{
	struct step_out	 o;

	o.buf = buf;
	o.size = size;
	o.len = 0;
	if (size > 0)
		buf[0] = '\0';
	step_put(&o, "%s ", sudoku_technique_name(st->tech));
	step_actions(&o, st);
	step_put(&o, " ");
	step_explain(&o, st);
	return ((int)o.len);
}
