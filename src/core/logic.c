/* SPDX-License-Identifier: ISC */
/*
 * logic.c -- the technique table, sudoku_hint(), and the techniques of
 * the easy and medium levels with the other subsets: singles, locked
 * candidates, naked and hidden pairs, triples and quads.
 *
 * Every finder scans in a fixed order (units rows, columns, boxes,
 * digits ascending, cells row-major) and stops at the first pattern
 * that removes something, so a hint depends on the grid only.
 */
#include <string.h>

#include "sudoku.h"
#include "logic.h"

#define TECH_ROW(id, name, level, weight)				\
	[SUDOKU_TECH_##id] = { #name, SUDOKU_LEVEL_##level, weight },

/* Names, levels and weights: the one table, from SUDOKU_TECHNIQUES. */
static const struct {
	const char		*name;
	enum sudoku_level	 level;
	unsigned int		 weight;
} logic_techs[SUDOKU_TECH_COUNT] = {
	SUDOKU_TECHNIQUES(TECH_ROW)
};

static const char *const logic_levels[SUDOKU_LEVEL_COUNT] = {
	"easy", "medium", "hard", "expert", "extreme"
};

static logic_finder logic_naked_single, logic_hidden_single;
static logic_finder logic_pointing, logic_claiming;
static logic_finder logic_naked, logic_hidden;

/* Who finds each technique, and the size it is called with. */
static const struct {
	logic_finder	*find;
	int		 arg;
} logic_finders[SUDOKU_TECH_COUNT] = {
	[SUDOKU_TECH_NAKED_SINGLE] = { logic_naked_single, 1 },
	[SUDOKU_TECH_HIDDEN_SINGLE] = { logic_hidden_single, 1 },
	[SUDOKU_TECH_POINTING] = { logic_pointing, 0 },
	[SUDOKU_TECH_CLAIMING] = { logic_claiming, 0 },
	[SUDOKU_TECH_NAKED_PAIR] = { logic_naked, 2 },
	[SUDOKU_TECH_HIDDEN_PAIR] = { logic_hidden, 2 },
	[SUDOKU_TECH_X_WING] = { fish_find, 2 },
	[SUDOKU_TECH_NAKED_TRIPLE] = { logic_naked, 3 },
	[SUDOKU_TECH_SWORDFISH] = { fish_find, 3 },
	[SUDOKU_TECH_HIDDEN_TRIPLE] = { logic_hidden, 3 },
	[SUDOKU_TECH_XY_WING] = { wing_xy, 0 },
	[SUDOKU_TECH_XYZ_WING] = { wing_xyz, 0 },
	[SUDOKU_TECH_NAKED_QUAD] = { logic_naked, 4 },
	[SUDOKU_TECH_HIDDEN_QUAD] = { logic_hidden, 4 },
	[SUDOKU_TECH_JELLYFISH] = { fish_find, 4 },
	[SUDOKU_TECH_SIMPLE_COLOURING] = { chain_colouring, 0 },
	[SUDOKU_TECH_X_CHAIN] = { chain_x, SUDOKU_CHAIN_MAX },
	[SUDOKU_TECH_XY_CHAIN] = { chain_xy, SUDOKU_CHAIN_MAX },
	[SUDOKU_TECH_TRIAL] = { NULL, 0 }
};

const char *
sudoku_technique_name(enum sudoku_technique t)
{
	if ((unsigned)t >= SUDOKU_TECH_COUNT)
		return ("unknown");
	return (logic_techs[t].name);
}

enum sudoku_level
sudoku_technique_level(enum sudoku_technique t)
{
	if ((unsigned)t >= SUDOKU_TECH_COUNT)
		return (SUDOKU_LEVEL_EXTREME);
	return (logic_techs[t].level);
}

unsigned int
sudoku_technique_weight(enum sudoku_technique t)
{
	if ((unsigned)t >= SUDOKU_TECH_COUNT)
		return (0);
	return (logic_techs[t].weight);
}

const char *
sudoku_level_name(enum sudoku_level l)
{
	if ((unsigned)l >= SUDOKU_LEVEL_COUNT)
		return ("unknown");
	return (logic_levels[l]);
}

/*
 * Case-insensitive in ASCII only: strncasecmp() follows the locale, in
 * which "MEDIUM" need not match (Turkish has a dotless lowercase I).
 */
int
sudoku_level_parse(const char *s, size_t len, enum sudoku_level *l)
{
	const char	*name;
	size_t		 k;
	int		 i;

	for (i = 0; i < SUDOKU_LEVEL_COUNT; i++) {
		name = logic_levels[i];
		for (k = 0; k < len && name[k] != '\0'; k++)
			if ((s[k] | 0x20) != name[k])
				break;
		if (k == len && name[k] == '\0') {
			*l = (enum sudoku_level)i;
			return (0);
		}
	}
	return (-1);
}

void
logic_begin(struct sudoku_step *st, enum sudoku_technique t)
{
	st->tech = t;
	st->digits = 0;
	st->nunits = st->ncells = st->nsplit = st->wrap = 0;
	st->nactions = 0;
}

void
logic_elim(struct sudoku_step *st, int cell, int digit)
{
	struct sudoku_action	*a;

	if (st->nactions >= SUDOKU_STEP_ACTIONS)
		return;
	a = &st->action[st->nactions++];
	a->cell = (uint8_t)cell;
	a->digit = (uint8_t)digit;
	a->place = 0;
}

static void
logic_place(struct sudoku_step *st, int cell, int digit)
{
	logic_elim(st, cell, digit);
	st->action[st->nactions - 1].place = 1;
}

void
logic_add_cell(struct sudoku_step *st, const struct logic *L, int cell)
{
	if (st->ncells >= SUDOKU_STEP_CELLS)
		return;
	st->cands[st->ncells] = L->m[cell];
	st->cell[st->ncells++] = (uint8_t)cell;
}

void
logic_add_unit(struct sudoku_step *st, int u)
{
	if (st->nunits < sizeof st->unit)
		st->unit[st->nunits++] = (uint8_t)u;
}

/*
 * Eliminates digit from every open cell that has it and sees all n
 * cells (not one of them); returns how many.
 */
int
logic_elim_seeing(const struct logic *L, struct sudoku_step *st, int digit,
    const uint8_t *cells, int n)
{
	struct logic_set	 set = L->has[digit - 1], peers;
	int			 i, found = 0;

	for (i = 0; i < n && !logic_set_empty(&set); i++) {
		logic_peerset(cells[i], &peers);
		set.w[0] &= peers.w[0];
		set.w[1] &= peers.w[1];
	}
	for (; !logic_set_empty(&set); found++)
		logic_elim(st, logic_set_pop(&set), digit);
	return (found);
}

int
logic_subsets(struct logic_sub *S, int depth, int from, unsigned int uni)
{
	unsigned int	 u;
	int		 i, c;

	for (i = from; i <= S->n - (S->k - depth); i++) {
		u = uni | S->m[i];
		if ((c = logic_count(u)) > S->k)
			continue;
		S->idx[depth] = i;
		if (depth + 1 < S->k) {
			if (logic_subsets(S, depth + 1, i + 1, u))
				return (1);
		} else if (c == S->k && S->found(S, u))
			return (1);
	}
	return (0);
}

/* Actions in row-major order of cell, then digit (insertion sort). */
static void
logic_sort(struct sudoku_step *st)
{
	struct sudoku_action	 a;
	int			 i, j;

	for (i = 1; i < st->nactions; i++) {
		a = st->action[i];
		for (j = i; j > 0 && (st->action[j - 1].cell > a.cell ||
		    (st->action[j - 1].cell == a.cell &&
		    st->action[j - 1].digit > a.digit)); j--)
			st->action[j] = st->action[j - 1];
		st->action[j] = a;
	}
}

/* The first technique below limit that makes progress on L. */
enum sudoku_hint_result
logic_find(struct logic *L, int limit, struct sudoku_step *st)
{
	int	 t;

	if (L->nfilled == SUDOKU_CELLS)
		return (SUDOKU_HINT_DONE);
	for (t = 0; t < limit && t < SUDOKU_TECH_COUNT; t++) {
		if (logic_finders[t].find == NULL)
			continue;
		if ((t == SUDOKU_TECH_HIDDEN_SINGLE && logic_lone(L) != 0) ||
		    (t > SUDOKU_TECH_HIDDEN_SINGLE && !L->units &&
		    logic_units(L) != 0)) {
			logic_begin(st, SUDOKU_TECH_TRIAL);
			return (SUDOKU_HINT_BROKEN);
		}
		logic_begin(st, (enum sudoku_technique)t);
		if (logic_finders[t].find(L, logic_finders[t].arg, st)) {
			logic_sort(st);
			return (SUDOKU_HINT_STEP);
		}
	}
	logic_begin(st, SUDOKU_TECH_TRIAL);
	return (SUDOKU_HINT_NOSTEP);
}

enum sudoku_hint_result
sudoku_hint(const struct sudoku_cands *c, struct sudoku_step *st)
{
	struct logic	 L;

	if (logic_prepare(c, &L) != 0) {
		logic_begin(st, SUDOKU_TECH_TRIAL);
		return (SUDOKU_HINT_BROKEN);
	}
	return (logic_find(&L, SUDOKU_TECH_TRIAL, st));
}

/* An open cell whose other candidates its filled peers have taken. */
static int
logic_naked_single(const struct logic *L, int arg, struct sudoku_step *st)
{
	int	 cell;

	(void)arg;
	for (cell = 0; cell < SUDOKU_CELLS; cell++) {
		if (logic_open(L, cell) && logic_single(L->m[cell])) {
			logic_add_cell(st, L, cell);
			st->digits = L->m[cell];
			logic_place(st, cell, logic_digit(L->m[cell]));
			return (1);
		}
	}
	return (0);
}

/* A digit with one place left in a unit; boxes first, then lines. */
static int
logic_hidden_single(const struct logic *L, int arg, struct sudoku_step *st)
{
	uint16_t	 bit;
	int		 i, u, k, cell;

	(void)arg;
	for (i = 0; i < LOGIC_UNITS; i++) {
		u = (i + 18) % LOGIC_UNITS;
		if (L->lone[u] == 0)
			continue;
		bit = L->lone[u] & -L->lone[u];
		for (k = 0; !(L->m[cell = logic_cell(u, k)] & bit); k++)
			;
		logic_add_unit(st, u);
		logic_add_cell(st, L, cell);
		st->digits = bit;
		logic_place(st, cell, logic_digit(bit));
		return (1);
	}
	return (0);
}

/*
 * Digit d of unit from lies only in unit to as well: no other cell of
 * to can hold it.
 */
static int
logic_locked(const struct logic *L, struct sudoku_step *st, int from, int to,
    int d)
{
	uint16_t	 bit = logic_bit(d);
	int		 k, cell;

	logic_begin(st, st->tech);
	logic_add_unit(st, from);
	logic_add_unit(st, to);
	st->digits = bit;
	for (k = 0; k < 9; k++) {
		cell = logic_cell(from, k);
		if (L->m[cell] & bit)
			logic_add_cell(st, L, cell);
		cell = logic_cell(to, k);
		if (!logic_in(from, cell) && (L->m[cell] & bit))
			logic_elim(st, cell, d);
	}
	return (st->nactions > 0);
}

/* In a box, a digit's places all in one row or column. */
static int
logic_pointing(const struct logic *L, int arg, struct sudoku_step *st)
{
	unsigned int	 w, line;
	int		 b, d, j;

	(void)arg;
	for (b = 0; b < 9; b++) {
		for (d = 0; d < 9; d++) {
			w = L->where[18 + b][d];
			if ((L->placed[18 + b] >> d & 1) || logic_count(w) < 2)
				continue;
			for (j = 0; j < 3; j++) {
				line = b / 3 * 3 + j;
				if ((w & ~(7u << 3 * j)) == 0 &&
				    logic_locked(L, st, 18 + b, line, d + 1))
					return (1);
				line = 9 + b % 3 * 3 + j;
				if ((w & ~(0x49u << j)) == 0 &&
				    logic_locked(L, st, 18 + b, line, d + 1))
					return (1);
			}
		}
	}
	return (0);
}

/* In a row or column, a digit's places all in one box. */
static int
logic_claiming(const struct logic *L, int arg, struct sudoku_step *st)
{
	unsigned int	 w;
	int		 u, d, j, box;

	(void)arg;
	for (u = 0; u < 18; u++) {
		for (d = 0; d < 9; d++) {
			w = L->where[u][d];
			if ((L->placed[u] >> d & 1) || logic_count(w) < 2)
				continue;
			for (j = 0; j < 3; j++) {
				if ((w & ~(7u << 3 * j)) != 0)
					continue;
				box = u < 9 ? 18 + u / 3 * 3 + j :
				    18 + j * 3 + (u - 9) / 3;
				if (logic_locked(L, st, u, box, d + 1))
					return (1);
			}
		}
	}
	return (0);
}

/* The at[] of the chosen masks, as a bit mask. */
unsigned int
logic_sub_at(const struct logic_sub *S)
{
	unsigned int	 sel = 0;
	int		 i;

	for (i = 0; i < S->k; i++)
		sel |= 1u << S->at[S->idx[i]];
	return (sel);
}

/*
 * The cells at positions pos of unit u hold only digits between them
 * (as many as cells): the other cells of u lose those digits.
 */
static int
logic_naked_found(struct logic_sub *S, unsigned int digits)
{
	const struct logic	*L = S->L;
	struct sudoku_step	*st = S->st;
	unsigned int		 pos = logic_sub_at(S), hit;
	int			 k, cell;

	logic_begin(st, st->tech);
	logic_add_unit(st, S->arg);
	st->digits = (uint16_t)digits;
	for (k = 0; k < 9; k++) {
		cell = logic_cell(S->arg, k);
		if (pos >> k & 1) {
			logic_add_cell(st, L, cell);
			continue;
		}
		if (!logic_open(L, cell))
			continue;
		for (hit = L->m[cell] & digits; hit != 0; hit &= hit - 1)
			logic_elim(st, cell, logic_digit(hit));
	}
	return (st->nactions > 0);
}

/* Naked subsets of size k: k cells of a unit with k candidates in all. */
static int
logic_naked(const struct logic *L, int k, struct sudoku_step *st)
{
	struct logic_sub	 S;
	int			 u, i, c, cell;

	S.k = k;
	S.found = logic_naked_found;
	S.L = L;
	S.st = st;
	for (u = 0; u < LOGIC_UNITS; u++) {
		for (i = S.n = 0; i < 9; i++) {
			cell = logic_cell(u, i);
			c = logic_count(L->m[cell]);
			if (logic_open(L, cell) && c >= 2 && c <= k) {
				S.m[S.n] = L->m[cell];
				S.at[S.n++] = (uint8_t)i;
			}
		}
		S.arg = u;
		if (S.n >= k && logic_subsets(&S, 0, 0, 0))
			return (1);
	}
	return (0);
}

/*
 * The digits of unit arg go only in the cells at positions pos, as
 * many as digits: those cells lose every other digit.
 */
static int
logic_hidden_found(struct logic_sub *S, unsigned int pos)
{
	const struct logic	*L = S->L;
	struct sudoku_step	*st = S->st;
	unsigned int		 digits = logic_sub_at(S), hit;
	int			 k, cell;

	logic_begin(st, st->tech);
	logic_add_unit(st, S->arg);
	st->digits = (uint16_t)digits;
	for (k = 0; k < 9; k++) {
		if (!(pos >> k & 1))
			continue;
		cell = logic_cell(S->arg, k);
		logic_add_cell(st, L, cell);
		for (hit = L->m[cell] & ~digits; hit != 0; hit &= hit - 1)
			logic_elim(st, cell, logic_digit(hit));
	}
	return (st->nactions > 0);
}

/* Hidden subsets of size k: k digits of a unit with k places in all. */
static int
logic_hidden(const struct logic *L, int k, struct sudoku_step *st)
{
	struct logic_sub	 S;
	int			 u, d, c;

	S.k = k;
	S.found = logic_hidden_found;
	S.L = L;
	S.st = st;
	for (u = 0; u < LOGIC_UNITS; u++) {
		for (d = S.n = 0; d < 9; d++) {
			c = logic_count(L->where[u][d]);
			if (!(L->placed[u] >> d & 1) && c >= 2 && c <= k) {
				S.m[S.n] = L->where[u][d];
				S.at[S.n++] = (uint8_t)d;
			}
		}
		S.arg = u;
		if (S.n >= k && logic_subsets(&S, 0, 0, 0))
			return (1);
	}
	return (0);
}
