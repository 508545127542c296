/* SPDX-License-Identifier: ISC */
/*
 * check_tools.c -- the toolbox's answers checked (see check.h): CANON,
 * SHUFFLE, MINIMIZE, CONSTRAIN, PATH, and GENERATE's with its shape.
 *
 * Each answer is held to what defines it rather than asked for again:
 * a shuffle is an equivalent puzzle (the same canonical form), a
 * minimized puzzle a subset of the givens from which none can go, a
 * constrained one a superset with one solution, a path a walk whose
 * steps this side applies and finds sound, a generated puzzle unique,
 * of the shape asked and minimal as far as that shape lets it.  Only CANON's answer is compared with the
 * core's: nothing else says a form is the least.  As in check.c, an
 * answer is called wrong only when a search here could tell.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "check_int.h"

/* The transformations that keep the rules; automorphisms divide it. */
#define CHECK_TRANSFORMS	3359232UL

/* sudokud makes each line of a path in 1024 bytes (proto_tools.c). */
#define CHECK_STEPLEN		1024

/* A digit's bit in struct sudoku_cands: 1 << 0 for 1, ... */
#define CHECK_BIT(d)		((uint16_t)(1u << ((d) - 1)))

/* The 20 peers of each cell, made once by check_peers(). */
struct check_peers {
	uint8_t		peer[SUDOKU_CELLS][20];
};

static int
check_givens(const struct sudoku_grid *g)
{
	int	i, n = 0;

	for (i = 0; i < SUDOKU_CELLS; i++)
		n += g->cell[i] != 0;
	return (n);
}

/* The 81 cells at reply, 1-9 and '.', into *g: givens in no conflict. */
static int
check_cells(const char *reply, struct sudoku_grid *g, char *why,
    size_t size)
{
	if (strspn(reply, "123456789.") != SUDOKU_CELLS)
		return (check_fail(why, size, "not a puzzle of 81 cells"));
	if (sudoku_parse(reply, SUDOKU_CELLS, g, NULL) != 0)
		return (check_fail(why, size, "a puzzle whose givens "
		    "conflict"));
	return (0);
}

/* A puzzle line alone: 81 cells and nothing after them. */
static int
check_puzzle(const char *reply, struct sudoku_grid *g, char *why,
    size_t size)
{
	if (strlen(reply) != SUDOKU_CELLS)
		return (check_fail(why, size, "not a puzzle of 81 cells"));
	return (check_cells(reply, g, why, size));
}

/* Exactly one solution, unless a search here cannot tell. */
static int
check_unique(const struct sudoku_grid *g, char *why, size_t size)
{
	unsigned long	n;

	switch (sudoku_count(g, 2, CHECK_BUDGET, &n, NULL, NULL)) {
	case SUDOKU_NOSOLUTION:
		return (check_fail(why, size, "a puzzle with no solution"));
	case SUDOKU_SOLVED:
		if (n != 1)
			return (check_fail(why, size, "a puzzle with more "
			    "than one solution"));
		return (0);
	default:
		return (0);	/* cannot tell: not called wrong */
	}
}

/* The shape GENERATE was asked for: symmetry=, clues=, pattern=. */
static int
check_shape(const struct query *q, const struct sudoku_grid *g, char *why,
    size_t size)
{
	char		cell[16];
	unsigned int	n = (unsigned int)check_givens(g);
	int		i;

	if ((q->shaped & GEN_SYMMETRY) &&
	    !sudoku_symmetry_holds(q->gen.symmetry, g->cell))
		return (check_fail(why, size, "givens not invariant under %s",
		    sudoku_symmetry_name(q->gen.symmetry)));
	if ((q->shaped & GEN_CLUES) &&
	    (n < q->gen.clues_min || n > q->gen.clues_max))
		return (check_fail(why, size, "%u givens, not %u to %u", n,
		    q->gen.clues_min, q->gen.clues_max));
	if (!(q->shaped & GEN_PATTERN))
		return (0);
	for (i = 0; i < SUDOKU_CELLS; i++)
		if ((g->cell[i] != 0) != (q->gen.pattern[i] != 0))
			return (check_fail(why, size, "not the pattern asked "
			    "at %s", check_cell(i, cell)));
	return (0);
}

/*
 * The cell under the m-th map of the square: 0 the identity, then a
 * quarter turn, a half turn, three quarters, mirror, flip, the two
 * diagonals.
 */
static int
check_map(int m, int cell)
{
	static const int	turn[8][4] = {	/* r' = a r + b c + 8 [a+b<0] */
		{ 1, 0, 0, 1 }, { 0, 1, -1, 0 }, { -1, 0, 0, -1 },
		{ 0, -1, 1, 0 }, { 1, 0, 0, -1 }, { -1, 0, 0, 1 },
		{ 0, 1, 1, 0 }, { 0, -1, -1, 0 }
	};
	const int		*a = turn[m];
	int			 r = cell / 9, c = cell % 9;

	return ((a[0] * r + a[1] * c + (a[0] + a[1] < 0 ? 8 : 0)) * 9 +
	    a[2] * r + a[3] * c + (a[2] + a[3] < 0 ? 8 : 0));
}

/* The maps of each symmetry, as bits of check_map()'s m. */
static const uint8_t check_maps[SUDOKU_SYM_COUNT] = {
	[SUDOKU_SYM_NONE] = 0x01, [SUDOKU_SYM_ROT180] = 0x05,
	[SUDOKU_SYM_ROT90] = 0x0f, [SUDOKU_SYM_MIRROR] = 0x11,
	[SUDOKU_SYM_FLIP] = 0x21, [SUDOKU_SYM_DIAGONAL] = 0x41,
	[SUDOKU_SYM_ANTIDIAGONAL] = 0x81, [SUDOKU_SYM_DIHEDRAL] = 0xff
};

/*
 * GENERATE's puzzle is minimal under its symmetry as far as its shape
 * lets it (doc/protocol.md): no orbit of givens can go with the solution
 * staying unique, unless that would leave fewer givens than clues=
 * asks; with pattern=, minimality does not apply.  g is symmetric.
 */
static int
check_thin(const struct query *q, const struct sudoku_grid *g, char *why,
    size_t size)
{
	struct sudoku_grid	t = *g;
	unsigned long		n;
	unsigned int		maps;
	uint8_t			seen[SUDOKU_CELLS] = { 0 };
	char			cell[16];
	int			i, k, m, orbit[8], len, floor, givens;

	if (q->shaped & GEN_PATTERN)
		return (0);
	maps = check_maps[(q->shaped & GEN_SYMMETRY) ? q->gen.symmetry :
	    SUDOKU_SYM_NONE];
	floor = (q->shaped & GEN_CLUES) ? (int)q->gen.clues_min : 0;
	givens = check_givens(g);
	for (i = 0; i < SUDOKU_CELLS; i++) {
		if (g->cell[i] == 0 || seen[i])
			continue;
		for (m = len = 0; m < 8; m++)
			if ((maps & 1u << m) && !seen[k = check_map(m, i)]) {
				seen[k] = 1;
				orbit[len++] = k;
				t.cell[k] = 0;
			}
		if (givens - len >= floor && sudoku_count(&t, 2, CHECK_BUDGET,
		    &n, NULL, NULL) == SUDOKU_SOLVED && n == 1)
			return (len == 1 ? check_fail(why, size, "not minimal: "
			    "the given at %s can go", check_cell(i, cell)) :
			    check_fail(why, size, "not minimal under %s: the %d "
			    "givens of the orbit of %s can go",
			    sudoku_symmetry_name(q->gen.symmetry), len,
			    check_cell(i, cell)));
		for (k = 0; k < len; k++)
			t.cell[orbit[k]] = g->cell[orbit[k]];
	}
	return (0);
}

/*
 * GENERATE: a puzzle with one solution, of the shape asked, minimal as
 * far as the shape lets it (check_thin()); with a deadline, maybe
 * " level=L" after it (the nearest level made by then).
 */
int
check_generate(const struct query *q, const char *reply, char *why,
    size_t size)
{
	struct sudoku_grid	g;
	enum sudoku_level	l;
	const char		*tail = reply + strnlen(reply, SUDOKU_CELLS);

	if (*tail != '\0' && (q->deadline == 0 ||
	    strncmp(tail, " level=", 7) != 0 ||
	    sudoku_level_parse(tail + 7, strlen(tail + 7), &l) != 0))
		return (check_fail(why, size, "not a puzzle of 81 cells"));
	if (tail != reply + SUDOKU_CELLS)
		return (check_fail(why, size, "not a puzzle of 81 cells"));
	if (check_cells(reply, &g, why, size) != 0 ||
	    check_unique(&g, why, size) != 0)
		return (-1);
	if (check_shape(q, &g, why, size) != 0)
		return (-1);
	return (check_thin(q, &g, why, size));
}

/* A number of automorphisms: decimal, dividing CHECK_TRANSFORMS. */
static int
check_autos(const char *s, unsigned long *autos, char *why, size_t size)
{
	char	*end;

	if (*s < '1' || *s > '9' || strlen(s) > 7)
		return (check_fail(why, size, "no number of automorphisms"));
	*autos = strtoul(s, &end, 10);
	if (*end != '\0' || *autos > CHECK_TRANSFORMS ||
	    CHECK_TRANSFORMS % *autos != 0)
		return (check_fail(why, size, "%s automorphisms, which do "
		    "not divide %lu", s, CHECK_TRANSFORMS));
	return (0);
}

/*
 * CANON: "<form> <automorphisms>": a form with the puzzle's number of
 * givens, digits first met in the order 1, 2, 3, ..., automorphisms a
 * divisor of the transformations; then the core's form and count.
 */
int
check_canon(const struct item *it, const char *reply, char *why,
    size_t size)
{
	struct sudoku_grid	form, want;
	unsigned long		autos = 0, n;
	int			i, next = 1;

	if (strnlen(reply, SUDOKU_CELLS + 1) != SUDOKU_CELLS + 1 ||
	    reply[SUDOKU_CELLS] != ' ')
		return (check_fail(why, size, "not a form and its "
		    "automorphisms"));
	if (check_cells(reply, &form, why, size) != 0 ||
	    check_autos(reply + SUDOKU_CELLS + 1, &autos, why, size) != 0)
		return (-1);
	if (check_givens(&form) != check_givens(&it->grid))
		return (check_fail(why, size, "a form of %d givens for a "
		    "puzzle of %d", check_givens(&form),
		    check_givens(&it->grid)));
	for (i = 0; i < SUDOKU_CELLS; i++) {
		if (form.cell[i] > next)
			return (check_fail(why, size, "no minlex form: %d "
			    "comes before %d", form.cell[i], next));
		if (form.cell[i] == next)
			next++;
	}
	if (sudoku_canon(&it->grid, &want, &n, NULL) != 0)
		return (0);	/* cannot be: sudokuc parsed the puzzle */
	if (memcmp(&want, &form, sizeof want) != 0)
		return (check_fail(why, size, "not the least equivalent "
		    "puzzle"));
	if (n != autos)
		return (check_fail(why, size, "%lu automorphisms, not %lu",
		    autos, n));
	return (0);
}

/* SHUFFLE: the same number of givens, the same canonical form. */
int
check_shuffle(const struct item *it, const char *reply, char *why,
    size_t size)
{
	struct sudoku_grid	g, a, b;

	if (check_puzzle(reply, &g, why, size) != 0)
		return (-1);
	if (check_givens(&g) != check_givens(&it->grid))
		return (check_fail(why, size, "%d givens for a puzzle of %d",
		    check_givens(&g), check_givens(&it->grid)));
	if (sudoku_canon(&g, &a, NULL, NULL) != 0 ||
	    sudoku_canon(&it->grid, &b, NULL, NULL) != 0 ||
	    memcmp(&a, &b, sizeof a) != 0)
		return (check_fail(why, size, "not an equivalent puzzle: "
		    "another canonical form"));
	return (0);
}

/* Can no given of g go without a second solution coming in? */
static int
check_minimal(const struct sudoku_grid *g, char *why, size_t size)
{
	struct sudoku_grid	t = *g;
	unsigned long		n;
	char			cell[16];
	int			i;

	for (i = 0; i < SUDOKU_CELLS; i++) {
		if (g->cell[i] == 0)
			continue;
		t.cell[i] = 0;
		if (sudoku_count(&t, 2, CHECK_BUDGET, &n, NULL, NULL) ==
		    SUDOKU_SOLVED && n == 1)
			return (check_fail(why, size, "not minimal: the given "
			    "at %s can go", check_cell(i, cell)));
		t.cell[i] = g->cell[i];
	}
	return (0);
}

/*
 * MINIMIZE: a subset of the givens, one solution, none removable;
 * CONSTRAIN: a superset (every given kept), one solution, which then
 * solves the puzzle too.
 */
int
check_reduce(const struct query *q, const struct item *it,
    const char *reply, char *why, size_t size)
{
	const struct sudoku_grid	*sub, *super;
	struct sudoku_grid		 g;
	char				 cell[16];
	int				 i;

	if (check_puzzle(reply, &g, why, size) != 0)
		return (-1);
	sub = q->mode == MODE_MINIMIZE ? &g : &it->grid;
	super = q->mode == MODE_MINIMIZE ? &it->grid : &g;
	for (i = 0; i < SUDOKU_CELLS; i++)
		if (sub->cell[i] != 0 && sub->cell[i] != super->cell[i])
			return (check_fail(why, size, "%s the given %d at %s",
			    q->mode == MODE_MINIMIZE ? "adds" : "drops",
			    sub->cell[i], check_cell(i, cell)));
	if (check_unique(&g, why, size) != 0)
		return (-1);
	return (q->mode == MODE_MINIMIZE ? check_minimal(&g, why, size) : 0);
}

static void
check_peers(struct check_peers *p)
{
	int	i, j, n;

	for (i = 0; i < SUDOKU_CELLS; i++)
		for (j = n = 0; j < SUDOKU_CELLS; j++)
			if (j != i && (j / 9 == i / 9 || j % 9 == i % 9 ||
			    (j / 27 == i / 27 && j % 9 / 3 == i % 9 / 3)))
				p->peer[i][n++] = (uint8_t)j;
}

/* A walk from the puzzle: its state, what is placed, the steps so far. */
struct check_walk {
	struct check_peers	 peers;
	struct sudoku_cands	 c;
	uint8_t			 placed[SUDOKU_CELLS];
	struct sudoku_grid	 sol;
	int			 sure;		/* sol is the one solution */
	unsigned int		 used[SUDOKU_TECH_COUNT];
	unsigned int		 steps;
};

/* Places d at cell: it only there, gone from the peers. */
static void
check_place(struct check_walk *w, int cell, int d)
{
	int	k;

	w->placed[cell] = 1;
	w->c.mask[cell] = CHECK_BIT(d);
	for (k = 0; k < 20; k++)
		w->c.mask[w->peers.peer[cell][k]] &= (uint16_t)~CHECK_BIT(d);
}

/*
 * The start: the puzzle's givens placed, so that a candidate is one
 * that no placed digit rules out; the solution, if a search tells.
 */
static void
check_start(struct check_walk *w, const struct item *it)
{
	unsigned long	n = 0;
	int		i;

	memset(w, 0, sizeof *w);
	check_peers(&w->peers);
	sudoku_cands_init(&w->c, &it->grid);
	for (i = 0; i < SUDOKU_CELLS; i++)
		if (it->grid.cell[i] != 0)
			check_place(w, i, it->grid.cell[i]);
	w->sure = sudoku_count(&it->grid, 2, CHECK_BUDGET, &n, &w->sol,
	    NULL) == SUDOKU_SOLVED && n == 1;
}

/* One action of a step, at *s: sound, and possible in the state. */
static int
check_act(struct check_walk *w, const char **s, char *why, size_t size)
{
	const char	*p = *s;
	char		 cell[16];
	int		 i, d;

	if (check_action(s, w->sure ? &w->sol : NULL, why, size) != 0)
		return (-1);
	i = (p[1] - '1') * 9 + (p[3] - '1');
	d = p[5] - '0';
	if (w->placed[i] || !(w->c.mask[i] & CHECK_BIT(d)))
		return (check_fail(why, size, "step %u: %.6s, but %s %s",
		    w->steps, p, check_cell(i, cell), w->placed[i] ?
		    "is placed already" : "has no such candidate left"));
	if (p[4] == '=')
		check_place(w, i, d);
	else
		w->c.mask[i] &= (uint16_t)~CHECK_BIT(d);
	return (0);
}

/* A step line "<technique> <actions> <text>", applied to the walk. */
static int
check_step(struct check_walk *w, const char *line, char *why, size_t size)
{
	enum sudoku_technique	 t;
	const char		*p;
	size_t			 len = strcspn(line, " ");

	w->steps++;
	if ((t = check_technique(line, len)) == SUDOKU_TECH_COUNT ||
	    line[len] != ' ')
		return (check_fail(why, size, "step %u: no technique",
		    w->steps));
	w->used[t]++;
	for (p = line + len + 1;; p++) {
		if (check_act(w, &p, why, size) != 0)
			return (-1);
		if (*p != ',')
			break;
	}
	if (*p != ' ')
		return (check_fail(why, size, "step %u: no explanation",
		    w->steps));
	return (0);
}

/* Is every cell down to one candidate? */
static int
check_done(const struct check_walk *w)
{
	int	i;

	for (i = 0; i < SUDOKU_CELLS; i++)
		if (w->c.mask[i] == 0 || (w->c.mask[i] & (w->c.mask[i] - 1)))
			return (0);
	return (1);
}

/*
 * The summary: a rating (RATE's form; extreme exactly after a dead end)
 * whose hardest technique is at least as hard as every one the path
 * used, then " <technique>=<steps>" for each one used, in the table's
 * order, the counts the steps'.
 */
static int
check_summary(const struct check_walk *w, const char *line, int nostep,
    char *why, size_t size)
{
	enum sudoku_technique	 hard;
	char			 rate[64];
	const char		*p = line;
	size_t			 n;
	int			 k, t;

	for (k = 0; k < 3; k++)
		p += strcspn(p, " ") + (k < 2 && p[strcspn(p, " ")] == ' ');
	if ((size_t)(p - line) >= sizeof rate)
		return (check_fail(why, size, "not a rating: too long"));
	snprintf(rate, sizeof rate, "%.*s", (int)(p - line), line);
	if (check_rate(rate, why, size) != 0)
		return (-1);
	hard = check_technique(strrchr(rate, ' ') + 1,
	    strlen(strrchr(rate, ' ') + 1));
	if (nostep != (sudoku_technique_level(hard) == SUDOKU_LEVEL_EXTREME))
		return (check_fail(why, size, "a summary of %s %s a dead end",
		    rate, nostep ? "after" : "without"));
	for (t = 0; t < SUDOKU_TECH_COUNT; t++) {
		if (w->used[t] == 0)
			continue;
		n = strlen(sudoku_technique_name(t));
		if (p[0] != ' ' || strncmp(p + 1, sudoku_technique_name(t),
		    n) != 0 || p[n + 1] != '=' ||
		    strtoul(p + n + 2, NULL, 10) != w->used[t])
			return (check_fail(why, size, "a summary that does not "
			    "count %u %s", w->used[t], sudoku_technique_name(t)));
		if (sudoku_technique_weight(t) > sudoku_technique_weight(hard))
			return (check_fail(why, size, "a path using %s, harder "
			    "than its hardest, %s", sudoku_technique_name(t),
			    sudoku_technique_name(hard)));
		p += n + 2 + strspn(p + n + 2, "0123456789");
	}
	return (*p == '\0' ? 0 : check_fail(why, size, "a summary that "
	    "counts steps the path has not: %.40s", p));
}

/* The line at *p into buf, *p moved past it: 0, or -1 if too long. */
static int
check_line(const char **p, char buf[CHECK_STEPLEN])
{
	size_t	len = strcspn(*p, "\n");

	if (len >= CHECK_STEPLEN)
		return (-1);
	memcpy(buf, *p, len);
	buf[len] = '\0';
	*p += len + ((*p)[len] == '\n');
	return (0);
}

/*
 * PATH: step lines, each applied from the puzzle; "nostep ..." last if
 * logic ends before the grid is done, or else every cell down to one
 * candidate; the summary; END.
 */
int
check_path(const struct item *it, const char *reply, char *why,
    size_t size)
{
	struct check_walk	 w;
	char			 line[CHECK_STEPLEN];
	const char		*p = reply, *sum;
	size_t			 len = strlen(reply);
	int			 nostep = 0;

	if (len < 5 || strcmp(reply + len - 4, "\nEND") != 0)
		return (check_fail(why, size, "not a path: no summary, END"));
	for (sum = reply + len - 4; sum > reply && sum[-1] != '\n'; sum--)
		;
	check_start(&w, it);
	while (p < sum) {
		if (check_line(&p, line) != 0)
			return (check_fail(why, size, "a line over %d bytes",
			    CHECK_STEPLEN - 1));
		if (strncmp(line, "nostep ", 7) == 0 && p == sum)
			nostep = 1;
		else if (check_step(&w, line, why, size) != 0)
			return (-1);
	}
	if (check_line(&p, line) != 0)
		return (check_fail(why, size, "a summary over %d bytes",
		    CHECK_STEPLEN - 1));
	if (nostep == check_done(&w))
		return (check_fail(why, size, nostep ? "a dead end with every "
		    "cell done" : "a path that stops with cells open"));
	return (check_summary(&w, line, nostep, why, size));
}
