/* SPDX-License-Identifier: ISC */
/*
 * sudoku.c -- the solver core API: parsing, error text, solving and
 * counting.  The search itself is in solver.c.
 */
#include <stdio.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "sudoku.h"
#include "solver.h"

static const char *const sudoku_units[] = { "row", "column", "box" };

/*
 * First earlier given in a unit of cell that holds digit, or -1.  Units
 * are tried in the order row, column, box.
 */
static int
sudoku_clash(const struct sudoku_grid *g, int cell, enum sudoku_unit *unit,
    int *index)
{
	int	 r = cell / 9, c = cell % 9, br = r / 3 * 3, bc = c / 3 * 3;
	int	 v = g->cell[cell], k, other;

	for (k = 0; k < c; k++) {
		if (g->cell[r * 9 + k] == v) {
			*unit = SUDOKU_UNIT_ROW;
			*index = r;
			return (r * 9 + k);
		}
	}
	for (k = 0; k < r; k++) {
		if (g->cell[k * 9 + c] == v) {
			*unit = SUDOKU_UNIT_COL;
			*index = c;
			return (k * 9 + c);
		}
	}
	for (k = 0; k < 9; k++) {
		other = (br + k / 3) * 9 + bc + k % 3;
		if (other >= cell)
			break;
		if (g->cell[other] == v) {
			*unit = SUDOKU_UNIT_BOX;
			*index = br + c / 3;
			return (other);
		}
	}
	return (-1);
}

/* The first conflict, in row-major order of the later cell; 0 if none. */
static int
sudoku_conflicts(const struct sudoku_grid *g, struct sudoku_perror *err)
{
	enum sudoku_unit	 unit;
	int			 cell, other, index;

	for (cell = 0; cell < SUDOKU_CELLS; cell++) {
		if (g->cell[cell] == 0)
			continue;
		other = sudoku_clash(g, cell, &unit, &index);
		if (other < 0)
			continue;
		err->kind = SUDOKU_PERR_CONFLICT;
		err->cell1 = other;
		err->cell2 = cell;
		err->digit = g->cell[cell];
		err->unit = unit;
		err->unit_index = index;
		return (-1);
	}
	return (0);
}

/*
 * Stores the cells of s[0..15] ('.' as 0) at cell; returns the first
 * byte that is neither a digit nor '.', or -1.
 */
#ifdef __SSE2__
static inline int
sudoku_fill16(const char *s, uint8_t *cell)
{
	__m128i		 x, v, dot;
	unsigned int	 ok;

	x = _mm_loadu_si128((const __m128i *)(const void *)s);
	v = _mm_sub_epi8(x, _mm_set1_epi8('0'));
	dot = _mm_cmpeq_epi8(x, _mm_set1_epi8('.'));
	ok = (unsigned int)_mm_movemask_epi8(_mm_or_si128(dot,
	    _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(9)), v)));
	_mm_storeu_si128((__m128i *)(void *)cell, _mm_andnot_si128(dot, v));
	return (ok == 0xffff ? -1 : __builtin_ctz(~ok));
}
#else
static inline int
sudoku_fill16(const char *s, uint8_t *cell)
{
	unsigned int	 v;
	int		 i;

	for (i = 0; i < 16; i++) {
		v = (unsigned char)s[i] - (unsigned)'0';
		if (v > 9 && s[i] != '.')
			return (i);
		cell[i] = v > 9 ? 0 : v;
	}
	return (-1);
}
#endif

/*
 * Fills g from 81 bytes; returns -1 with e set on a bad byte.  This is
 * on the path of every request: 16 bytes at a time (the last block
 * overlaps the one before it, so that no byte past the 81 is read), and
 * the givens are checked afterwards, by the engine.
 */
static int
sudoku_fill(const char *s, struct sudoku_grid *g, struct sudoku_perror *e)
{
	static const int	 at[] = { 0, 16, 32, 48, 64, 65 };
	size_t			 i;
	int			 bad;

	for (i = 0; i < sizeof at / sizeof at[0]; i++) {
		if ((bad = sudoku_fill16(s + at[i], g->cell + at[i])) >= 0) {
			e->kind = SUDOKU_PERR_CHAR;
			e->pos = (size_t)(at[i] + bad);
			e->byte = (unsigned char)s[at[i] + bad];
			return (-1);
		}
	}
	return (0);
}

int
sudoku_parse_cells(const char *s, size_t len, struct sudoku_grid *g,
    struct sudoku_perror *err)
{
	struct sudoku_perror	 e;
	struct sudoku_grid	 tmp;

	memset(&e, 0, sizeof e);
	if (len != SUDOKU_CELLS) {
		e.kind = SUDOKU_PERR_LENGTH;
		e.length = len;
	} else
		(void)sudoku_fill(s, g != NULL ? g : &tmp, &e);
	if (err != NULL)
		*err = e;
	return (e.kind == SUDOKU_PERR_NONE ? 0 : -1);
}

int
sudoku_conflict(const struct sudoku_grid *g, struct sudoku_perror *err)
{
	struct sudoku_perror	 e;

	/* The engine's check is fast; the first clash is found the slow way. */
	memset(&e, 0, sizeof e);
	if (solver_valid(g) == 0 || sudoku_conflicts(g, &e) == 0)
		return (0);
	if (err != NULL)
		*err = e;
	return (-1);
}

int
sudoku_parse(const char *s, size_t len, struct sudoku_grid *g,
    struct sudoku_perror *err)
{
	struct sudoku_grid	 tmp;

	if (sudoku_parse_cells(s, len, &tmp, err) != 0 ||
	    sudoku_conflict(&tmp, err) != 0)
		return (-1);
	if (g != NULL)
		*g = tmp;
	return (0);
}

int
sudoku_perror_text(const struct sudoku_perror *err, char *buf, size_t size)
{
	int	 c1 = err->cell1, c2 = err->cell2;

	switch (err->kind) {
	case SUDOKU_PERR_NONE:
		return (snprintf(buf, size, "no error"));
	case SUDOKU_PERR_LENGTH:
		return (snprintf(buf, size, "expected %d cells, found %zu",
		    SUDOKU_CELLS, err->length));
	case SUDOKU_PERR_CANDLEN:
		return (snprintf(buf, size, "expected %d cells or %d "
		    "candidates, found %zu", SUDOKU_CELLS, SUDOKU_CANDS_LEN,
		    err->length));
	case SUDOKU_PERR_CHAR:
		if (err->byte >= 0x20 && err->byte < 0x7f)
			return (snprintf(buf, size,
			    "bad character '%c' (0x%02x) at position %zu",
			    err->byte, err->byte, err->pos + 1));
		return (snprintf(buf, size, "bad byte 0x%02x at position %zu",
		    err->byte, err->pos + 1));
	case SUDOKU_PERR_CONFLICT:
		return (snprintf(buf, size,
		    "digit %d twice in %s %d: r%dc%d and r%dc%d", err->digit,
		    sudoku_unit_name(err->unit), err->unit_index + 1,
		    c1 / 9 + 1, c1 % 9 + 1, c2 / 9 + 1, c2 % 9 + 1));
	}
	return (snprintf(buf, size, "unknown error"));
}

#ifdef __SSE2__
/* Cells 0..9 of cell[0..15] as '0'..'9', any other value as '?'. */
static inline void
sudoku_format16(const uint8_t *cell, char *out)
{
	__m128i		 x, ok, d;

	x = _mm_loadu_si128((const __m128i *)(const void *)cell);
	ok = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(9)), x);
	d = _mm_add_epi8(x, _mm_set1_epi8('0'));
	d = _mm_or_si128(_mm_and_si128(ok, d),
	    _mm_andnot_si128(ok, _mm_set1_epi8('?')));
	_mm_storeu_si128((__m128i *)(void *)out, d);
}

/*
 * This runs once per reply in the daemon: 16 cells at a time, the last
 * block overlapping the one before it as sudoku_fill()'s does.
 */
void
sudoku_format(const struct sudoku_grid *g, char out[SUDOKU_CELLS])
{
	static const int	 at[] = { 0, 16, 32, 48, 64, 65 };
	size_t			 i;

	for (i = 0; i < sizeof at / sizeof at[0]; i++)
		sudoku_format16(g->cell + at[i], out + at[i]);
}
#else
void
sudoku_format(const struct sudoku_grid *g, char out[SUDOKU_CELLS])
{
	uint64_t	 w;
	int		 i = 0;

	/*
	 * Eight cells at a time while all of them are 0..9 (no carry can
	 * cross a byte then): this runs once per reply in the daemon.
	 */
	for (; i + 8 <= SUDOKU_CELLS; i += 8) {
		memcpy(&w, g->cell + i, sizeof w);
		if ((w | (w + 0x7676767676767676ULL)) & 0x8080808080808080ULL)
			break;
		w += 0x3030303030303030ULL;
		memcpy(out + i, &w, sizeof w);
	}
	for (; i < SUDOKU_CELLS; i++)
		out[i] = g->cell[i] <= 9 ? '0' + g->cell[i] : '?';
}
#endif

const char *
sudoku_isa(void)
{
	return (solver_isa());
}

const char *
sudoku_unit_name(enum sudoku_unit u)
{
	if ((unsigned)u < sizeof sudoku_units / sizeof sudoku_units[0])
		return (sudoku_units[u]);
	return ("unit");
}

/* The caller's search state, as the solver sees it. */
static struct solver *
sudoku_solver(struct sudoku_search *s)
{
	return ((struct solver *)(void *)s->opaque);
}

enum sudoku_result
sudoku_search_init(struct sudoku_search *s, const struct sudoku_grid *in,
    enum sudoku_policy policy, unsigned long limit, uint64_t budget)
{
	return (solver_start(sudoku_solver(s), in, policy, limit, budget));
}

enum sudoku_result
sudoku_search_run(struct sudoku_search *s, uint64_t slice)
{
	return (solver_step(sudoku_solver(s), slice));
}

enum sudoku_result
sudoku_search_next(struct sudoku_search *ss, uint64_t slice,
    struct sudoku_grid *sol)
{
	struct solver		*s = sudoku_solver(ss);
	enum sudoku_result	 res = s->res;

	s->each = 1;
	if (!s->fresh)
		res = solver_step(s, slice);
	if (s->fresh) {
		s->fresh = 0;
		*sol = s->first;
		return (SUDOKU_SOLVED);
	}
	/* Every solution was handed out: the search is over. */
	return (res == SUDOKU_SOLVED ? SUDOKU_NOSOLUTION : res);
}

/*
 * The candidates' own check, as sudoku_parse() checks givens: no cell
 * without a candidate (*empty gets the first such cell), and the cells
 * with one candidate consistent as givens would be.
 */
static int
sudoku_cands_check(const struct sudoku_cands *c, int *empty)
{
	struct sudoku_grid	g;
	uint16_t		m;
	int			i;

	*empty = -1;
	for (i = 0; i < SUDOKU_CELLS; i++) {
		m = c->mask[i] & 0x1ff;
		if (m == 0) {
			*empty = i;
			return (-1);
		}
		g.cell[i] = (m & (m - 1)) == 0 ?
		    (uint8_t)(__builtin_ctz(m) + 1) : 0;
	}
	return (solver_valid(&g) != 0 ? -1 : 0);
}

enum sudoku_result
sudoku_search_init_cands(struct sudoku_search *s,
    const struct sudoku_cands *c, enum sudoku_policy policy,
    unsigned long limit, uint64_t budget)
{
	int	empty;

	if (sudoku_cands_check(c, &empty) != 0) {
		/* A state that answers INVALID, as for broken givens. */
		memset(sudoku_solver(s), 0, sizeof (struct solver));
		sudoku_solver(s)->res = SUDOKU_INVALID;
		return (SUDOKU_INVALID);
	}
	return (solver_start_cands(sudoku_solver(s), c, policy, limit,
	    budget));
}

void
sudoku_search_result(const struct sudoku_search *s, unsigned long *count,
    struct sudoku_grid *first, struct sudoku_stats *st)
{
	solver_result((const struct solver *)(const void *)s->opaque, count,
	    first, st);
}

/* A whole search at once, in a state on the stack. */
static enum sudoku_result
sudoku_search_all(const struct sudoku_grid *in, enum sudoku_policy policy,
    unsigned long limit, uint64_t budget, unsigned long *count,
    struct sudoku_grid *first, struct sudoku_stats *st)
{
	struct sudoku_search	s;
	enum sudoku_result	res;

	if ((res = sudoku_search_init(&s, in, policy, limit, budget)) ==
	    SUDOKU_MORE) {
		/* No solution to write: none to extract (3 % of a count). */
		sudoku_solver(&s)->keep_first = first != NULL;
		res = sudoku_search_run(&s, 0);
	}
	sudoku_search_result(&s, count, first, st);
	return (res);
}

enum sudoku_result
sudoku_solve(const struct sudoku_grid *in, enum sudoku_policy policy,
    uint64_t budget, struct sudoku_grid *out, struct sudoku_stats *st)
{
	return (sudoku_search_all(in, policy, 1, budget, NULL, out, st));
}

enum sudoku_result
sudoku_count(const struct sudoku_grid *in, unsigned long limit,
    uint64_t budget, unsigned long *count, struct sudoku_grid *first,
    struct sudoku_stats *st)
{
	return (sudoku_search_all(in, SUDOKU_ANY, limit, budget, count, first,
	    st));
}
