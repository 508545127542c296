/* SPDX-License-Identifier: ISC */
/*
 * cands.c -- candidate grids (pencil marks): building them from a grid,
 * the 729-byte text layout, the wrong-cell check, applying a step, and
 * the view of a grid the technique finders work on (logic_prepare).
 */
#include <string.h>

#include "sudoku.h"
#include "logic.h"

/* The units of each cell, as a table: they are looked up on every step. */
#define GEO(c)	{ (c) / 9, 9 + (c) % 9, 18 + (c) / 27 * 3 + (c) % 9 / 3, \
		    (c) / 9 % 3 * 3 + (c) % 3 }
#define GEO9(r)	GEO(9 * (r)), GEO(9 * (r) + 1), GEO(9 * (r) + 2),	\
		GEO(9 * (r) + 3), GEO(9 * (r) + 4), GEO(9 * (r) + 5),	\
		GEO(9 * (r) + 6), GEO(9 * (r) + 7), GEO(9 * (r) + 8)
const struct logic_geo logic_geo[SUDOKU_CELLS] = {
	GEO9(0), GEO9(1), GEO9(2), GEO9(3), GEO9(4), GEO9(5), GEO9(6),
	GEO9(7), GEO9(8)
};

/* The cells of each unit: rows, columns, boxes. */
#define ROW(r)	{ 9 * (r), 9 * (r) + 1, 9 * (r) + 2, 9 * (r) + 3,	\
		    9 * (r) + 4, 9 * (r) + 5, 9 * (r) + 6, 9 * (r) + 7,	\
		    9 * (r) + 8 }
#define COL(c)	{ (c), (c) + 9, (c) + 18, (c) + 27, (c) + 36, (c) + 45,	\
		    (c) + 54, (c) + 63, (c) + 72 }
#define BOX(b)	{ (b) / 3 * 27 + (b) % 3 * 3, (b) / 3 * 27 + (b) % 3 * 3 + 1, \
		    (b) / 3 * 27 + (b) % 3 * 3 + 2,			\
		    (b) / 3 * 27 + (b) % 3 * 3 + 9,			\
		    (b) / 3 * 27 + (b) % 3 * 3 + 10,			\
		    (b) / 3 * 27 + (b) % 3 * 3 + 11,			\
		    (b) / 3 * 27 + (b) % 3 * 3 + 18,			\
		    (b) / 3 * 27 + (b) % 3 * 3 + 19,			\
		    (b) / 3 * 27 + (b) % 3 * 3 + 20 }
const uint8_t logic_units_cells[LOGIC_UNITS][9] = {
	ROW(0), ROW(1), ROW(2), ROW(3), ROW(4), ROW(5), ROW(6), ROW(7),
	ROW(8), COL(0), COL(1), COL(2), COL(3), COL(4), COL(5), COL(6),
	COL(7), COL(8), BOX(0), BOX(1), BOX(2), BOX(3), BOX(4), BOX(5),
	BOX(6), BOX(7), BOX(8)
};

void
sudoku_cands_init(struct sudoku_cands *c, const struct sudoku_grid *g)
{
	int	 cell, v;

	for (cell = 0; cell < SUDOKU_CELLS; cell++) {
		v = g->cell[cell];
		c->mask[cell] = v >= 1 && v <= 9 ? logic_bit(v) : LOGIC_ALL;
	}
}

/* One byte of the 81-cell form: a digit's bit, every digit, or -1. */
static int
cands_cell(unsigned char b)
{
	if (b >= '1' && b <= '9')
		return (logic_bit(b - '0'));
	if (b == '0' || b == '.')
		return (LOGIC_ALL);
	return (-1);
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CANDS_BYTES(x)	((x) * 0x0101010101010101ULL)

/* 0x80 in each byte of x that is zero, 0 in the others. */
static uint64_t
cands_zero(uint64_t x)
{
	const uint64_t	 lo7 = CANDS_BYTES(0x7fULL);

	return (~(((x & lo7) + lo7) | x | lo7));
}

/* Bit i set if byte i of z is 0x80 (z from cands_zero()). */
static unsigned int
cands_gather(uint64_t z)
{
	return ((unsigned int)(((z >> 7) * 0x0102040810204080ULL) >> 56));
}

/*
 * One cell's nine marks: the mask, or -1 if a byte is neither its
 * digit nor '.'.  Eight marks at a time: each mark's byte is compared
 * with "12345678" and with "........" in one 64-bit word (whether a
 * byte is a digit or '.' cannot be predicted, so a branch per byte
 * costs more than the work).
 */
static int
cands_marks(const char *s)
{
	static const char	 digits[8] = { '1', '2', '3', '4', '5', '6',
				    '7', '8' };
	uint64_t		 w, pat;
	unsigned int		 dig, dot;

	memcpy(&w, s, sizeof w);
	memcpy(&pat, digits, sizeof pat);
	dig = cands_gather(cands_zero(w ^ pat)) | (s[8] == '9') << 8;
	dot = cands_gather(cands_zero(w ^ CANDS_BYTES((uint64_t)'.'))) |
	    (s[8] == '.') << 8;
	return ((dig | dot) == LOGIC_ALL ? (int)dig : -1);
}
#else
static int
cands_marks(const char *s)
{
	unsigned int	 m = 0;
	int		 k;

	for (k = 0; k < 9; k++) {
		if (s[k] == '1' + k)
			m |= 1u << k;
		else if (s[k] != '.')
			return (-1);
	}
	return ((int)m);
}
#endif

/* Fills c from s (len 81 or 729); the offset of a bad byte, or -1. */
static long
cands_fill(const char *s, size_t len, struct sudoku_cands *c)
{
	int	 cell, k, v;

	if (len == SUDOKU_CELLS) {
		for (cell = 0; cell < SUDOKU_CELLS; cell++) {
			if ((v = cands_cell((unsigned char)s[cell])) < 0)
				return (cell);
			c->mask[cell] = (uint16_t)v;
		}
		return (-1);
	}
	for (cell = 0; cell < SUDOKU_CELLS; cell++, s += 9) {
		if ((v = cands_marks(s)) < 0) {
			for (k = 0; s[k] == '1' + k || s[k] == '.'; k++)
				;
			return (cell * 9 + k);
		}
		c->mask[cell] = (uint16_t)v;
	}
	return (-1);
}

int
sudoku_cands_parse(const char *s, size_t len,
    const struct sudoku_grid *puzzle, struct sudoku_cands *c,
    struct sudoku_perror *err)
{
	struct sudoku_perror	 e;
	struct sudoku_cands	 tmp;
	long			 bad;
	int			 cell, v;

	memset(&e, 0, sizeof e);
	if (len != SUDOKU_CELLS && len != SUDOKU_CANDS_LEN) {
		e.kind = SUDOKU_PERR_CANDLEN;
		e.length = len;
		goto fail;
	}
	if ((bad = cands_fill(s, len, &tmp)) >= 0) {
		e.kind = SUDOKU_PERR_CHAR;
		e.pos = (size_t)bad;
		e.byte = (unsigned char)s[bad];
		goto fail;
	}
	for (cell = 0; puzzle != NULL && cell < SUDOKU_CELLS; cell++)
		if ((v = puzzle->cell[cell]) >= 1 && v <= 9)
			tmp.mask[cell] &= logic_bit(v);
	*c = tmp;
	if (err != NULL)
		*err = e;
	return (0);
fail:
	if (err != NULL)
		*err = e;
	return (-1);
}

void
sudoku_cands_format(const struct sudoku_cands *c, char out[SUDOKU_CANDS_LEN])
{
	int	 cell, k;

	for (cell = 0; cell < SUDOKU_CELLS; cell++)
		for (k = 0; k < 9; k++)
			out[cell * 9 + k] = (c->mask[cell] >> k & 1) ?
			    (char)('1' + k) : '.';
}

int
sudoku_cands_wrong(const struct sudoku_cands *c,
    const struct sudoku_grid *solution, uint8_t cells[SUDOKU_CELLS])
{
	int	 cell, v, n = 0;

	for (cell = 0; cell < SUDOKU_CELLS; cell++) {
		v = solution->cell[cell];
		if (v >= 1 && v <= 9 && (c->mask[cell] & logic_bit(v)) != 0)
			continue;
		if (cells != NULL)
			cells[n] = (uint8_t)cell;
		n++;
	}
	return (n);
}

/* The 20 peers of cell: its row, its column, the rest of its box. */
int
logic_peers(int cell, uint8_t out[20])
{
	int	 r = cell / 9, c = cell % 9, k, other, n = 0;

	for (k = 0; k < 9; k++) {
		if (k != c)
			out[n++] = (uint8_t)(r * 9 + k);
		if (k != r)
			out[n++] = (uint8_t)(k * 9 + c);
	}
	for (k = 0; k < 9; k++) {
		other = logic_cell(logic_box(cell), k);
		if (other / 9 != r && other % 9 != c)
			out[n++] = (uint8_t)other;
	}
	return (n);
}

/* The peers of cell as a set. */
void
logic_peerset(int cell, struct logic_set *s)
{
	int	 r = cell / 9, c = cell % 9, b = logic_box(cell), k;

	s->w[0] = s->w[1] = 0;
	for (k = 0; k < 9; k++) {
		logic_set_add(s, r * 9 + k);
		logic_set_add(s, k * 9 + c);
		logic_set_add(s, logic_cell(b, k));
	}
	s->w[cell >> 6] &= ~(1ULL << (cell & 63));
}

void
sudoku_step_apply(struct sudoku_cands *c, const struct sudoku_step *step)
{
	const struct sudoku_action	*a;
	uint8_t				 peer[20];
	uint16_t			 bit;
	int				 i, k;

	for (i = 0; i < step->nactions; i++) {
		a = &step->action[i];
		if (a->cell >= SUDOKU_CELLS || a->digit < 1 || a->digit > 9)
			continue;
		bit = logic_bit(a->digit);
		if (!a->place) {
			c->mask[a->cell] &= (uint16_t)~bit;
			continue;
		}
		c->mask[a->cell] = bit;
		logic_peers(a->cell, peer);
		for (k = 0; k < 20; k++)
			c->mask[peer[k]] &= (uint16_t)~bit;
	}
}

/*
 * Incremental updates of a view, for the rating's run of steps: the
 * same view logic_prepare() and logic_units() would build from the
 * grid after sudoku_step_apply(), at a fraction of the cost.
 */

/* Removes bits from the effective candidates of cell. */
static void
apply_drop(struct logic *L, int cell, unsigned int bits)
{
	const struct logic_geo	*g = &logic_geo[cell];
	int			 r = g->row, c = g->col - 9, d;
	int			 b = g->box, pos = g->pos;

	bits &= L->m[cell];
	L->m[cell] &= (uint16_t)~bits;
	for (; bits != 0; bits &= bits - 1) {
		d = __builtin_ctz(bits);
		L->where[r][d] &= (uint16_t)~(1u << c);
		L->where[9 + c][d] &= (uint16_t)~(1u << r);
		L->where[b][d] &= (uint16_t)~(1u << pos);
		L->has[d].w[cell >> 6] &= ~(1ULL << (cell & 63));
	}
}

/* cell's marks are down to one digit: it is filled. */
static void
apply_fill(struct logic *L, int cell)
{
	uint16_t	 v = L->raw[cell];
	uint8_t		 peer[20];
	int		 k;

	apply_drop(L, cell, LOGIC_ALL & ~v);
	L->has[__builtin_ctz(v)].w[cell >> 6] &= ~(1ULL << (cell & 63));
	L->nfilled++;
	L->placed[logic_row(cell)] |= v;
	L->placed[logic_col(cell)] |= v;
	L->placed[logic_box(cell)] |= v;
	logic_peers(cell, peer);
	for (k = 0; k < 20; k++)
		if (logic_open(L, peer[k]))
			apply_drop(L, peer[k], v);
}

/* Sets raw[cell] to m; fills it if that leaves one of several marks. */
static void
apply_raw(struct logic *L, int cell, uint16_t m)
{
	int	 open = logic_open(L, cell);

	L->raw[cell] = m;
	apply_drop(L, cell, LOGIC_ALL & ~m);
	if (open && logic_single(m))
		apply_fill(L, cell);
}

/*
 * sudoku_step_apply() on a view with where[] and has[] built.  Only
 * for states with a solution (the rating's): contradictions are not
 * looked for.
 */
void
logic_apply(struct logic *L, const struct sudoku_step *st)
{
	const struct sudoku_action	*a;
	uint8_t				 peer[20];
	uint16_t			 bit;
	int				 i, k;

	for (i = 0; i < st->nactions; i++) {
		a = &st->action[i];
		bit = logic_bit(a->digit);
		if (!a->place) {
			apply_raw(L, a->cell, L->raw[a->cell] & ~bit);
			continue;
		}
		apply_raw(L, a->cell, bit);
		logic_peers(a->cell, peer);
		for (k = 0; k < 20; k++)
			if (L->raw[peer[k]] & bit)
				apply_raw(L, peer[k], L->raw[peer[k]] & ~bit);
	}
}

/* Marks digit bit v at cell in the position tables. */
static void
prepare_where(struct logic *L, int cell, uint16_t v)
{
	const struct logic_geo	*g = &logic_geo[cell];
	int			 r = g->row, c = g->col - 9, d;
	int			 b = g->box, pos = g->pos;

	for (; v != 0; v &= (uint16_t)(v - 1)) {
		d = __builtin_ctz(v);
		if (!logic_single(L->raw[cell]))
			logic_set_add(&L->has[d], cell);
		L->where[r][d] |= (uint16_t)(1u << c);
		L->where[9 + c][d] |= (uint16_t)(1u << r);
		L->where[b][d] |= (uint16_t)(1u << pos);
	}
}

/*
 * Builds the finders' view of c, first the candidates only (all the
 * naked singles need; most steps are those).  Returns -1 if c
 * contradicts itself: two filled cells with one digit in a unit, or a
 * cell left without a candidate.
 */
int
logic_prepare(const struct sudoku_cands *c, struct logic *L)
{
	uint16_t	 v, clash = 0;
	int		 cell;

	memset(L->placed, 0, sizeof L->placed);
	L->nfilled = 0;
	L->units = 0;
	for (cell = 0; cell < SUDOKU_CELLS; cell++) {
		v = L->raw[cell] = c->mask[cell] & LOGIC_ALL;
		if (!logic_single(v))
			continue;
		L->nfilled++;
		clash |= (L->placed[logic_row(cell)] |
		    L->placed[logic_col(cell)] |
		    L->placed[logic_box(cell)]) & v;
		L->placed[logic_row(cell)] |= v;
		L->placed[logic_col(cell)] |= v;
		L->placed[logic_box(cell)] |= v;
	}
	if (clash != 0)
		return (-1);
	for (cell = 0; cell < SUDOKU_CELLS; cell++) {
		v = L->raw[cell];
		if (!logic_single(v))
			v &= (uint16_t)~(L->placed[logic_row(cell)] |
			    L->placed[logic_col(cell)] |
			    L->placed[logic_box(cell)]);
		if ((L->m[cell] = v) == 0)
			return (-1);
	}
	return (0);
}

/*
 * For hidden singles: each unit's open digits with one place, counted
 * with two accumulators per unit rather than from where[] (which costs
 * more to build than all the singles together).  -1 if a digit has no
 * place in a unit.
 */
int
logic_lone(struct logic *L)
{
	unsigned int	 once, twice, m;
	int		 u, k;

	for (u = 0; u < LOGIC_UNITS; u++) {
		once = twice = 0;
		for (k = 0; k < 9; k++) {
			m = L->m[logic_units_cells[u][k]];
			twice |= once & m;
			once |= m;
		}
		if (once != LOGIC_ALL)
			return (-1);
		L->lone[u] = (uint16_t)(once & ~twice & ~L->placed[u]);
	}
	return (0);
}

/*
 * The rest of the view, for the techniques after hidden singles: where
 * each digit can go in each unit.  -1 if a digit has no place in a unit.
 */
int
logic_units(struct logic *L)
{
	int	 cell, u, d;

	memset(L->where, 0, sizeof L->where);
	memset(L->has, 0, sizeof L->has);
	for (cell = 0; cell < SUDOKU_CELLS; cell++)
		prepare_where(L, cell, L->m[cell]);
	L->units = 1;
	for (u = 0; u < LOGIC_UNITS; u++)
		for (d = 0; d < 9; d++)
			if (L->where[u][d] == 0)
				return (-1);
	return (0);
}
