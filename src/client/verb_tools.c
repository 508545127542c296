/* SPDX-License-Identifier: ISC */
/*
 * verb_tools.c -- the toolbox's verbs: GENERATE (sudokuc generate, with
 * its shape), CANON, SHUFFLE, MINIMIZE and CONSTRAIN, each a row of the
 * verb table (verb.h) with its reply checked and, for -L, made as the
 * daemon makes it (proto_logic.c, proto_tools.c).
 *
 * Each answer is held to what defines it rather than asked for again:
 * a shuffle is an equivalent puzzle (the same canonical form), a
 * minimized puzzle a subset of the givens from which none can go, a
 * constrained one a superset with one solution, a generated puzzle
 * unique, of the shape asked and minimal as far as that shape lets it.
 * Only CANON's answer is compared with the core's: nothing else says a
 * form is the least.  As in check.c, an answer is called wrong only
 * when a search here could tell.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "reply.h"
#include "verb_int.h"

/* The transformations that keep the rules; automorphisms divide it. */
#define TOOLS_TRANSFORMS	3359232UL

static int
tools_givens(const struct sudoku_grid *g)
{
	int	i, n = 0;

	for (i = 0; i < SUDOKU_CELLS; i++)
		n += g->cell[i] != 0;
	return (n);
}

/* The 81 cells at reply, 1-9 and '.', into *g: givens in no conflict. */
static int
tools_cells(const char *reply, struct sudoku_grid *g, char *why,
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
tools_puzzle(const char *reply, struct sudoku_grid *g, char *why,
    size_t size)
{
	if (strlen(reply) != SUDOKU_CELLS)
		return (check_fail(why, size, "not a puzzle of 81 cells"));
	return (tools_cells(reply, g, why, size));
}

/* Exactly one solution, unless a search here cannot tell. */
static int
tools_unique(const struct sudoku_grid *g, char *why, size_t size)
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
generate_shape(const struct query *q, const struct sudoku_grid *g, char *why,
    size_t size)
{
	char		cell[16];
	unsigned int	n = (unsigned int)tools_givens(g);
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
generate_map(int m, int cell)
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

/* The maps of each symmetry, as bits of generate_map()'s m. */
static const uint8_t generate_maps[SUDOKU_SYM_COUNT] = {
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
generate_thin(const struct query *q, const struct sudoku_grid *g, char *why,
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
	maps = generate_maps[(q->shaped & GEN_SYMMETRY) ? q->gen.symmetry :
	    SUDOKU_SYM_NONE];
	floor = (q->shaped & GEN_CLUES) ? (int)q->gen.clues_min : 0;
	givens = tools_givens(g);
	for (i = 0; i < SUDOKU_CELLS; i++) {
		if (g->cell[i] == 0 || seen[i])
			continue;
		for (m = len = 0; m < 8; m++)
			if ((maps & 1u << m) && !seen[k = generate_map(m, i)]) {
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
 * far as the shape lets it (generate_thin()); with a deadline, maybe
 * " level=L" after it (the nearest level made by then).
 */
static int
generate_check(const struct query *q, const struct item *it,
    const char *reply, char *why, size_t size)
{
	struct sudoku_grid	g;
	enum sudoku_level	l;
	const char		*tail = reply + strnlen(reply, SUDOKU_CELLS);

	(void)it;
	if (*tail != '\0' && (q->deadline == 0 ||
	    strncmp(tail, " level=", 7) != 0 ||
	    sudoku_level_parse(tail + 7, strlen(tail + 7), &l) != 0))
		return (check_fail(why, size, "not a puzzle of 81 cells"));
	if (tail != reply + SUDOKU_CELLS)
		return (check_fail(why, size, "not a puzzle of 81 cells"));
	if (tools_cells(reply, &g, why, size) != 0 ||
	    tools_unique(&g, why, size) != 0)
		return (-1);
	if (generate_shape(q, &g, why, size) != 0)
		return (-1);
	return (generate_thin(q, &g, why, size));
}

/* A number of automorphisms: decimal, dividing TOOLS_TRANSFORMS. */
static int
canon_autos(const char *s, unsigned long *autos, char *why, size_t size)
{
	char	*end;

	if (*s < '1' || *s > '9' || strlen(s) > 7)
		return (check_fail(why, size, "no number of automorphisms"));
	*autos = strtoul(s, &end, 10);
	if (*end != '\0' || *autos > TOOLS_TRANSFORMS ||
	    TOOLS_TRANSFORMS % *autos != 0)
		return (check_fail(why, size, "%s automorphisms, which do "
		    "not divide %lu", s, TOOLS_TRANSFORMS));
	return (0);
}

/*
 * CANON: "<form> <automorphisms>": a form with the puzzle's number of
 * givens, digits first met in the order 1, 2, 3, ..., automorphisms a
 * divisor of the transformations; then the core's form and count.
 */
static int
canon_check(const struct query *q, const struct item *it,
    const char *reply, char *why, size_t size)
{
	struct sudoku_grid	form, want;
	unsigned long		autos = 0, n;
	int			i, next = 1;

	(void)q;
	if (strnlen(reply, SUDOKU_CELLS + 1) != SUDOKU_CELLS + 1 ||
	    reply[SUDOKU_CELLS] != ' ')
		return (check_fail(why, size, "not a form and its "
		    "automorphisms"));
	if (tools_cells(reply, &form, why, size) != 0 ||
	    canon_autos(reply + SUDOKU_CELLS + 1, &autos, why, size) != 0)
		return (-1);
	if (tools_givens(&form) != tools_givens(&it->grid))
		return (check_fail(why, size, "a form of %d givens for a "
		    "puzzle of %d", tools_givens(&form),
		    tools_givens(&it->grid)));
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
static int
shuffle_check(const struct query *q, const struct item *it,
    const char *reply, char *why, size_t size)
{
	struct sudoku_grid	g, a, b;

	(void)q;
	if (tools_puzzle(reply, &g, why, size) != 0)
		return (-1);
	if (tools_givens(&g) != tools_givens(&it->grid))
		return (check_fail(why, size, "%d givens for a puzzle of %d",
		    tools_givens(&g), tools_givens(&it->grid)));
	if (sudoku_canon(&g, &a, NULL, NULL) != 0 ||
	    sudoku_canon(&it->grid, &b, NULL, NULL) != 0 ||
	    memcmp(&a, &b, sizeof a) != 0)
		return (check_fail(why, size, "not an equivalent puzzle: "
		    "another canonical form"));
	return (0);
}

/* Can no given of g go without a second solution coming in? */
static int
reduce_minimal(const struct sudoku_grid *g, char *why, size_t size)
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
 * MINIMIZE (minimize): a subset of the givens, one solution, none
 * removable; CONSTRAIN: a superset (every given kept), one solution,
 * which then solves the puzzle too.
 */
static int
reduce_check(const struct query *q, const struct item *it,
    const char *reply, char *why, size_t size)
{
	const struct sudoku_grid	*sub, *super;
	struct sudoku_grid		 g;
	char				 cell[16];
	int				 i;
	int				 minimize = q->verb == &verb_minimize;

	if (tools_puzzle(reply, &g, why, size) != 0)
		return (-1);
	sub = minimize ? &g : &it->grid;
	super = minimize ? &it->grid : &g;
	for (i = 0; i < SUDOKU_CELLS; i++)
		if (sub->cell[i] != 0 && sub->cell[i] != super->cell[i])
			return (check_fail(why, size, "%s the given %d at %s",
			    minimize ? "adds" : "drops",
			    sub->cell[i], check_cell(i, cell)));
	if (tools_unique(&g, why, size) != 0)
		return (-1);
	return (minimize ? reduce_minimal(&g, why, size) : 0);
}

/* GENERATE, with its shape if one was asked (sudoku_genx's puzzles). */
static void
generate_reply(const struct item *it, const struct query *q,
    struct reply_buf *b)
{
	struct sudoku_genx	x;
	struct sudoku_grid	g;
	enum sudoku_gen_result	r;

	/* options_check() made sure the shape can be met. */
	(void)sudoku_genx_init(&x, it->seed, q->level, q->budget,
	    q->shaped ? &q->gen : NULL);
	while ((r = sudoku_genx_run(&x, 16, &g, NULL)) == SUDOKU_GEN_MORE)
		;
	if (r != SUDOKU_GEN_FOUND || b->size <= SUDOKU_CELLS) {
		reply_result(SUDOKU_BUDGET, q->budget, b->p, b->size);
		return;
	}
	reply_puzzle(&x.gen.puzzle, b->p);
	b->p[SUDOKU_CELLS] = '\0';
}

/* CANON: the form, then its automorphisms. */
static void
canon_reply(const struct item *it, const struct query *q,
    struct reply_buf *b)
{
	struct sudoku_grid	form;
	unsigned long		autos;
	char			line[SUDOKU_CELLS];

	(void)q;
	/* Parsed givens are a valid grid: the form always exists. */
	(void)sudoku_canon(&it->grid, &form, &autos, NULL);
	reply_puzzle(&form, line);
	snprintf(b->p, b->size, "%.81s %lu", line, autos);
}

static void
shuffle_reply(const struct item *it, const struct query *q,
    struct reply_buf *b)
{
	struct sudoku_grid	out;

	(void)q;
	sudoku_shuffle(&it->grid, it->seed, &out, NULL);
	if (b->size <= SUDOKU_CELLS)
		return;
	reply_puzzle(&out, b->p);
	b->p[SUDOKU_CELLS] = '\0';
}

/* MINIMIZE, CONSTRAIN: the answer, or why there is none. */
static void
reduce_reply(const struct item *it, const struct query *q,
    struct reply_buf *b)
{
	struct sudoku_reduce	r;
	struct sudoku_grid	g;
	enum sudoku_result	res;

	/* Parsed givens: never SUDOKU_INVALID. */
	if (q->verb == &verb_minimize)
		(void)sudoku_minimize_init(&r, &it->grid, it->seed, q->budget);
	else
		(void)sudoku_constrain_init(&r, &it->grid, it->seed, q->budget);
	res = sudoku_reduce_run(&r, 0);
	if (res == SUDOKU_MULTIPLE)
		snprintf(b->p, b->size, "ERR multiple the puzzle has more than "
		    "one solution");
	else if (res != SUDOKU_SOLVED || b->size <= SUDOKU_CELLS)
		reply_result(res, q->budget, b->p, b->size);
	else {
		sudoku_reduce_result(&r, &g, NULL);
		reply_puzzle(&g, b->p);
		b->p[SUDOKU_CELLS] = '\0';
	}
}

/*
 * GENERATE makes a puzzle for a seed, of the level asked (-l), the
 * first puzzle numbered with --seed's seed, -n of them; CANON and
 * SHUFFLE make no search, so neither budget= nor deadline=, nor ERR
 * budget; SHUFFLE, MINIMIZE and CONSTRAIN are seeded as GENERATE is.
 * MINIMIZE needs a puzzle of one solution, CONSTRAIN one of some.
 */
const struct verb verb_generate = {
	.word = "generate", .wire = "GENERATE", .done = "generated",
	.errors = " ", .flags = VERB_GRID | VERB_SEEDED | VERB_SEARCH |
	VERB_SEEDS, .opts = VERB_OPT_NUMBER | VERB_OPT_LEVEL | VERB_OPT_SEED |
	VERB_OPT_SHAPE, .print = VERB_PRINT_GRID,
	.usage = "[-n number] [-l level] [--seed seed]\n"
	"                [--symmetry symmetry] [--clues lo-hi] "
	"[--pattern pattern]",
	.about = "new puzzles of a level, and a shape",
	.check = generate_check, .reply = generate_reply
};

const struct verb verb_canon = {
	.word = "canon", .wire = "CANON", .done = "canonicalized",
	.errors = " ", .print = VERB_PRINT_LINE,
	.usage = "[puzzle | file | -] ...",
	.about = "the canonical form, and its automorphisms",
	.check = canon_check, .reply = canon_reply
};

const struct verb verb_shuffle = {
	.word = "shuffle", .wire = "SHUFFLE", .done = "shuffled",
	.errors = " ", .flags = VERB_GRID | VERB_SEEDED, .opts = VERB_OPT_SEED,
	.arg = VERB_ARG_SEED, .print = VERB_PRINT_GRID,
	.usage = "[--seed seed] [puzzle | file | -] ...",
	.about = "an equivalent puzzle",
	.check = shuffle_check, .reply = shuffle_reply
};

const struct verb verb_minimize = {
	.word = "minimize", .wire = "MINIMIZE", .done = "minimized",
	.errors = " nosolution multiple ",
	.flags = VERB_GRID | VERB_SEEDED | VERB_SEARCH, .opts = VERB_OPT_SEED,
	.arg = VERB_ARG_SEED, .print = VERB_PRINT_GRID,
	.usage = "[--seed seed] [puzzle | file | -] ...",
	.about = "givens taken away while one solution stays",
	.check = reduce_check, .reply = reduce_reply
};

const struct verb verb_constrain = {
	.word = "constrain", .wire = "CONSTRAIN", .done = "constrained",
	.errors = " nosolution ",
	.flags = VERB_GRID | VERB_SEEDED | VERB_SEARCH, .opts = VERB_OPT_SEED,
	.arg = VERB_ARG_SEED, .print = VERB_PRINT_GRID,
	.usage = "[--seed seed] [puzzle | file | -] ...",
	.about = "givens added until one solution is left",
	.check = reduce_check, .reply = reduce_reply
};
