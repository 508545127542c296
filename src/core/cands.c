/*
 * cands.c -- candidate grids (pencil marks): building them from a grid,
 * the 729-byte text layout, the wrong-cell check, applying a step, and
 * the view of a grid the technique finders work on (logic_prepare).
 */
#include <string.h>

#include "sudoku.h"
#include "logic.h"

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

/* Fills c from s (len 81 or 729); the offset of a bad byte, or -1. */
static long
cands_fill(const char *s, size_t len, struct sudoku_cands *c)
{
	unsigned int	 m;
	int		 cell, k, v;

	if (len == SUDOKU_CELLS) {
		for (cell = 0; cell < SUDOKU_CELLS; cell++) {
			if ((v = cands_cell((unsigned char)s[cell])) < 0)
				return (cell);
			c->mask[cell] = (uint16_t)v;
		}
		return (-1);
	}
	for (cell = 0; cell < SUDOKU_CELLS; cell++, s += 9) {
		for (k = 0, m = 0; k < 9; k++) {
			if (s[k] == '1' + k)
				m |= 1u << k;
			else if (s[k] != '.')
				return (cell * 9 + k);
		}
		c->mask[cell] = (uint16_t)m;
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
	int	 r = cell / 9, c = cell % 9, d;
	int	 b = logic_box(cell), pos = r % 3 * 3 + c % 3;

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
	int	 r = cell / 9, c = cell % 9, d;
	int	 b = logic_box(cell), pos = r % 3 * 3 + c % 3;

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
 * The rest of the view, for the techniques after naked singles: where
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
