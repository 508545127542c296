/* SPDX-License-Identifier: ISC */
/*
 * test_techniques.c -- one hand-made grid per technique, where that
 * technique and no easier one makes progress, with the exact step: a
 * table, tech_cases[], with the two cases that are not pencil marks
 * (a puzzle's first hint, a walk to the dead end) as functions.
 *
 * Most grids are pencil marks with every candidate everywhere except in
 * a few cells: with at least five open cells holding every digit in
 * each unit, no single, locked candidate or subset exists outside the
 * pattern, and a fish, wing or chain needs narrowed cells too.  Each
 * comment says why the easier techniques find nothing in the pattern.
 * The expected actions were worked out by hand from those comments.
 */
#include <stdio.h>
#include <string.h>

#include "test_logic.h"

/*
 * The cases: each one's marks are every candidate everywhere, then its
 * edits in order, in the protocol's cell notation widened to several
 * rows and columns: "rRcC=DIGITS" leaves those digits only in each cell
 * named, "rRcC-DIGITS" removes them ("r2c123-4": 4 leaves r2c1, r2c2,
 * r2c3).  The comment says why no easier technique makes progress.
 */
static const struct tech_case {
	const char	*name;
	const char	*marks;
	const char	*want;
} tech_cases[] = {
	/* Stale marks: r1c1 keeps all nine, its filled row still wins. */
	{ "naked_single (stale marks)",
	  "r1c2=2 r1c3=3 r1c4=4 r1c5=5 r1c6=6 r1c7=7 r1c8=8 r1c9=9",
	  "naked_single r1c1=1 1 is the only candidate left in r1c1" },
	/*
	 * The example.  Filled 7s at r1c1, r2c7 (rows 1 and 2), r4c4
	 * and r7c6 (columns 4 and 6) leave r3c5 as box 2's only place for 7. No
	 * naked single: no open cell sees more than two filled cells.  Box 1
	 * comes first but holds a filled 7, and its other digits go anywhere.
	 */
	{ "hidden_single",
	  "r1c1=7 r2c7=7 r4c4=7 r7c6=7",
	  "hidden_single r3c5=7 7 can only go in r3c5 within "
	  "box 2" },
	/*
	 * Box 1 keeps 4 in r1c1 and r1c2 only, both in row 1: the rest of row 1
	 * loses 4.  Not a single: two places in box 1, six or more elsewhere.
	 * Boxes are scanned first, digits 1-3 of box 1 go anywhere.
	 */
	{ "pointing",
	  "r1c3-4 r2c123-4 r3c123-4",
	  "pointing r1c4-4,r1c5-4,r1c6-4,r1c7-4,r1c8-4,r1c9-4 "
	  "within box 1, 4 can only go in r1c1,r1c2, all in row 1, so no "
	  "other cell of row 1 can be 4" },
	/*
	 * Row 1 keeps 4 in r1c1 and r1c2 only, both in box 1: the rest of box 1
	 * loses 4.  No pointing: box 1 has 4 in rows 1-3, boxes 2 and 3 in rows
	 * 2 and 3 and three columns each.
	 */
	{ "claiming",
	  "r1c3456789-4",
	  "claiming r2c1-4,r2c2-4,r2c3-4,r3c1-4,r3c2-4,r3c3-4 "
	  "within row 1, 4 can only go in r1c1,r1c2, all in box 1, so no "
	  "other cell of box 1 can be 4" },
	/*
	 * r1c1 and r1c2 hold {1,2}: row 1 loses 1 and 2 elsewhere.  No single
	 * or locked candidate: 1 and 2 still go in every cell of rows 2-9 and
	 * in every other cell of row 1.  Row 1 comes before box 1.
	 */
	{ "naked_pair",
	  "r1c1=12 r1c2=12",
	  "naked_pair r1c3-1,r1c3-2,r1c4-1,r1c4-2,r1c5-1,r1c5-2,"
	  "r1c6-1,r1c6-2,r1c7-1,r1c7-2,r1c8-1,r1c8-2,r1c9-1,r1c9-2 in row 1, "
	  "the 2 cells r1c1,r1c2 hold only the digits 1,2, so no other cell "
	  "of row 1 can hold them" },
	/*
	 * In row 1, 1 and 2 go only in r1c1 and r1c5 (different boxes, so no
	 * claiming): those cells lose 3-9.  No naked pair: every cell has at
	 * least seven candidates.
	 */
	{ "hidden_pair",
	  "r1c2346789-12",
	  "hidden_pair r1c1-3,r1c1-4,r1c1-5,r1c1-6,r1c1-7,"
	  "r1c1-8,r1c1-9,r1c5-3,r1c5-4,r1c5-5,r1c5-6,r1c5-7,r1c5-8,r1c5-9 in "
	  "row 1, the digits 1,2 can only go in the 2 cells r1c1,r1c5, so "
	  "those cells hold nothing else" },
	/*
	 * Rows 2 and 7 keep 5 in columns 3 and 8 only: columns 3 and 8 lose 5
	 * elsewhere.  No locked candidate: each of those rows has 5 in two
	 * boxes, each box has 5 in at least two rows and two columns.
	 */
	{ "x_wing",
	  "r2c1245679-5 r7c1245679-5",
	  "x_wing r1c3-5,r1c8-5,r3c3-5,r3c8-5,r4c3-5,r4c8-5,"
	  "r5c3-5,r5c8-5,r6c3-5,r6c8-5,r8c3-5,r8c8-5,r9c3-5,r9c8-5 the 5s of "
	  "rows 2,7 all lie in columns 3,8, so no other cell of those "
	  "columns can be 5" },
	/*
	 * r1c1 {1,2}, r1c2 {2,3}, r1c5 {1,3}: three cells, three digits, and no
	 * two of them a pair.  Row 1 loses 1-3 in its other six cells.  An
	 * X-wing (tried before) needs two lines with two places: none.
	 */
	{ "naked_triple",
	  "r1c1=12 r1c2=23 r1c5=13",
	  "naked_triple r1c3-1,r1c3-2,r1c3-3,r1c4-1,r1c4-2,"
	  "r1c4-3,r1c6-1,r1c6-2,r1c6-3,r1c7-1,r1c7-2,r1c7-3,r1c8-1,r1c8-2,"
	  "r1c8-3,r1c9-1,r1c9-2,r1c9-3 in row 1, the 3 cells r1c1,r1c2,r1c5 "
	  "hold only the digits 1,2,3, so no other cell of row 1 can hold "
	  "them" },
	/*
	 * 5 in row 1 at c1,c5; row 5 at c5,c9; row 9 at c1,c9: three rows,
	 * three columns, and no two rows on two columns (no X-wing).  Every row
	 * has 5 in two boxes; boxes 1, 2, 5 keep 5 in rows 2-3 or 4/6 too.
	 */
	{ "swordfish",
	  "r1c2346789-5 r5c1234678-5 r9c2345678-5",
	  "swordfish r2c1-5,r2c5-5,r2c9-5,r3c1-5,r3c5-5,r3c9-5,"
	  "r4c1-5,r4c5-5,r4c9-5,r6c1-5,r6c5-5,r6c9-5,r7c1-5,r7c5-5,r7c9-5,"
	  "r8c1-5,r8c5-5,r8c9-5 the 5s of rows 1,5,9 all lie in columns "
	  "1,5,9, so no other cell of those columns can be 5" },
	/*
	 * In row 1, 1-3 go only in r1c1, r1c5, r1c9 (one per box: no claiming,
	 * no pair, each digit has three places).  The other cells keep six
	 * candidates: no naked subset up to three.
	 */
	{ "hidden_triple",
	  "r1c234678-123",
	  "hidden_triple r1c1-4,r1c1-5,r1c1-6,r1c1-7,r1c1-8,"
	  "r1c1-9,r1c5-4,r1c5-5,r1c5-6,r1c5-7,r1c5-8,r1c5-9,r1c9-4,r1c9-5,"
	  "r1c9-6,r1c9-7,r1c9-8,r1c9-9 in row 1, the digits 1,2,3 can only "
	  "go in the 3 cells r1c1,r1c5,r1c9, so those cells hold nothing "
	  "else" },
	/*
	 * Pivot r1c1 {1,2} sees r1c5 {1,3} (row 1) and r5c1 {2,3} (column 1):
	 * one of those is 3, and r5c5 sees both.  Three bivalue cells with
	 * different pairs: no subset; every other cell is full.
	 */
	{ "xy_wing",
	  "r1c1=12 r1c5=13 r5c1=23",
	  "xy_wing r5c5-3 pivot r1c1 (1/2) sees r1c5 (1/3) and "
	  "r5c1 (2/3): whatever the pivot is, one of those two is 3, so a "
	  "cell seeing both cannot be 3" },
	/*
	 * Pivot r1c1 {1,2,3} sees r1c7 {2,3} (row 1) and r2c2 {1,3} (box 1):
	 * one of the three is 3, and r1c2, r1c3 see all of them.  No triple:
	 * the three cells share no unit.  No XY-wing: its pivot must be
	 * bivalue, and r1c7 and r2c2 do not see each other.
	 */
	{ "xyz_wing",
	  "r1c1=123 r1c7=23 r2c2=13",
	  "xyz_wing r1c2-3,r1c3-3 pivot r1c1 (1/2/3) sees r1c7 "
	  "(2/3) and r2c2 (1/3): one of the three is 3, so a cell seeing "
	  "all three cannot be 3" },
	/*
	 * r1c1 {1,2}, r1c2 {2,3}, r1c4 {3,4}, r1c5 {1,4}: a ring of four cells
	 * with four digits, in which any two or three cells hold more digits
	 * than cells.  Row 1 loses 1-4 in its other five cells.
	 */
	{ "naked_quad",
	  "r1c1=12 r1c2=23 r1c4=34 r1c5=14",
	  "naked_quad r1c3-1,r1c3-2,r1c3-3,r1c3-4,r1c6-1,r1c6-2,"
	  "r1c6-3,r1c6-4,r1c7-1,r1c7-2,r1c7-3,r1c7-4,r1c8-1,r1c8-2,r1c8-3,"
	  "r1c8-4,r1c9-1,r1c9-2,r1c9-3,r1c9-4 in row 1, the 4 cells r1c1,"
	  "r1c2,r1c4,r1c5 hold only the digits 1,2,3,4, so no other cell of "
	  "row 1 can hold them" },
	/*
	 * In row 1, 1-4 go only in r1c1, r1c3, r1c5, r1c7 (three boxes: no
	 * claiming; four places each: no smaller hidden subset).  The other
	 * five cells keep 5-9: a naked quintuple, beyond quads.
	 */
	{ "hidden_quad",
	  "r1c24689-1234",
	  "hidden_quad r1c1-5,r1c1-6,r1c1-7,r1c1-8,r1c1-9,r1c3-5,"
	  "r1c3-6,r1c3-7,r1c3-8,r1c3-9,r1c5-5,r1c5-6,r1c5-7,r1c5-8,r1c5-9,"
	  "r1c7-5,r1c7-6,r1c7-7,r1c7-8,r1c7-9 in row 1, the digits 1,2,3,4 "
	  "can only go in the 4 cells r1c1,r1c3,r1c5,r1c7, so those cells "
	  "hold nothing else" },
	/*
	 * 5 in row 1 at c2,c4; row 4 at c1,c7; row 7 at c1,c4; row 8 at c2,c7:
	 * a ring over columns 1, 2, 4, 7 in which any two rows cover three
	 * columns and any three cover four, so no X-wing or swordfish.  Each
	 * row's two places are in different boxes, and rows 7 and 8 together
	 * reach all three boxes of their band, so every box keeps 5 in two rows
	 * and two columns: no locked candidate.
	 */
	{ "jellyfish",
	  "r1c1356789-5 r4c2345689-5 r7c2356789-5 r8c1345689-5",
	  "jellyfish r2c1-5,r2c2-5,r2c4-5,r2c7-5,r3c1-5,r3c2-5,"
	  "r3c4-5,r3c7-5,r5c1-5,r5c2-5,r5c4-5,r5c7-5,r6c1-5,r6c2-5,r6c4-5,"
	  "r6c7-5,r9c1-5,r9c2-5,r9c4-5,r9c7-5 the 5s of rows 1,4,7,8 all lie "
	  "in columns 1,2,4,7, so no other cell of those columns can be 5" },
	/*
	 * Conjugate pairs of 4: row 1 (r1c1, r1c5), column 5 (r1c5, r5c5), row
	 * 5 (r5c5, r5c2).  Colours: r1c1, r5c5 against r1c5, r5c2.  r2c2, r3c2
	 * (box 1 and column 2) and r4c1, r6c1 (column 1 and box 4) see both
	 * colours.  No fish: only two rows and one column have two places; no
	 * locked candidate: every box keeps 4 in two rows and two columns.
	 */
	{ "colouring_trap",
	  "r1c2346789-4 r5c1346789-4 r2346789c5-4",
	  "simple_colouring r2c2-4,r3c2-4,r4c1-4,r6c1-4 the "
	  "conjugate pairs of 4 colour r1c1,r5c5 one way and r1c5,r5c2 the "
	  "other; one colour is 4, so a cell seeing both colours cannot be "
	  "4" },
	/*
	 * As above, plus column 2's pair (r5c2, r2c2): r2c2 gets r1c1's colour
	 * and shares box 1 with it, so that colour (r1c1, r2c2, r5c5) is not 4.
	 * Still no fish: rows 1, 5 and columns 2, 5 each cover three lines.
	 */
	{ "colouring_wrap",
	  "r1c2346789-4 r5c1346789-4 r2346789c5-4 r1346789c2-4",
	  "simple_colouring r1c1-4,r2c2-4,r5c5-4 the conjugate "
	  "pairs of 4 colour r1c1,r2c2,r5c5 one way and r5c2,r1c5 the other; "
	  "r1c1 and r2c2 share a unit, so the first colour is not 4" },
	/*
	 * A skyscraper: rows 1 (r1c1, r1c5) and 5 (r5c5, r5c3) are conjugate
	 * pairs of 4 joined by column 5, which has more places, so the link is
	 * weak and colouring sees two clusters of two.  r1c1=r1c5-r5c5=r5c3:
	 * one of r1c1, r5c3 is 4; r2c3, r3c3 (box 1 and column 3) and r4c1,
	 * r6c1 (column 1 and box 4) see both.
	 */
	{ "x_chain",
	  "r1c2346789-4 r5c1246789-4",
	  "x_chain r2c3-4,r3c3-4,r4c1-4,r6c1-4 chain of 4s "
	  "r1c1=r1c5-r5c5=r5c3: if r1c1 is not 4 then r5c3 is, so a cell "
	  "seeing both cannot be 4" },
	/*
	 * r1c1 {1,2} - r1c5 {2,3} - r5c5 {3,4} - r5c2 {4,1}: if r1c1 is not 1
	 * it is 2, r1c5 is 3, r5c5 is 4 and r5c2 is 1.  Six cells see r1c1 and
	 * r5c2.  No XY-wing: no cell sees two others whose pairs close the
	 * ring; no conjugate pair, so no colouring or X-chain.
	 */
	{ "xy_chain",
	  "r1c1=12 r1c5=23 r5c5=34 r5c2=14",
	  "xy_chain r1c2-1,r2c2-1,r3c2-1,r4c1-1,r5c1-1,r6c1-1 "
	  "chain r1c1(1=2)-r1c5(2=3)-r5c5(3=4)-r5c2(4=1): if r1c1 is not 1 "
	  "then r5c2 is, so a cell seeing both cannot be 1" },
};

/*
 * The first hint of pencil marks t, if it is not want word for word: a
 * message saying so (in buf); NULL if it is.
 */
static const char *
expect_step(const char *t, const char *want, char *buf, size_t size)
{
	struct sudoku_cands	 c;
	struct sudoku_step	 st;
	char			 got[1024];

	if (sudoku_cands_parse(t, strlen(t), NULL, &c, NULL) != 0)
		return ("the marks do not parse");
	if (sudoku_hint(&c, &st) != SUDOKU_HINT_STEP)
		return ("no step");
	sudoku_step_text(&st, got, sizeof got);
	if (strcmp(got, want) == 0)
		return (NULL);
	snprintf(buf, size, "got  \"%s\"\n# want \"%s\"", got, want);
	return (buf);
}

/* Applies one edit of a case ("r1c23=45", "r2c123-4"); -1 if malformed. */
static int
tech_edit(char *t, const char *op, size_t len)
{
	const char	*rows = op + 1, *cols, *digits, *r, *c;
	char		 d[10];
	size_t		 nr, nc, nd;

	if (len < 5 || op[0] != 'r' || (nr = strspn(rows, "123456789")) == 0 ||
	    rows[nr] != 'c')
		return (-1);
	cols = rows + nr + 1;
	if ((nc = strspn(cols, "123456789")) == 0 ||
	    (cols[nc] != '=' && cols[nc] != '-'))
		return (-1);
	digits = cols + nc + 1;
	nd = len - (size_t)(digits - op);
	if (nd == 0 || nd > 9 || strspn(digits, "123456789") < nd)
		return (-1);
	memcpy(d, digits, nd);
	d[nd] = '\0';
	for (r = rows; r < rows + nr; r++)
		for (c = cols; c < cols + nc; c++) {
			if (cols[nc] == '=')
				marks_set(t, *r - '0', *c - '0', d);
			else
				marks_del(t, *r - '0', *c - '0', d);
		}
	return (0);
}

/* Every case of tech_cases[]: each failure named, then one fail(). */
void
test_tech_cases(void **state)
{
	const struct tech_case	*tc;
	const char		*p, *why;
	char			 t[SUDOKU_CANDS_LEN + 1], buf[2200];
	size_t			 i, len;
	int			 bad = 0;

	(void)state;
	for (i = 0; i < sizeof tech_cases / sizeof tech_cases[0]; i++) {
		tc = &tech_cases[i];
		marks_full(t);
		for (p = tc->marks; *p != '\0'; p += len + (p[len] == ' ')) {
			len = strcspn(p, " ");
			assert_int_equal(tech_edit(t, p, len), 0);
		}
		if ((why = expect_step(t, tc->want, buf, sizeof buf)) !=
		    NULL) {
			print_message("# %s: %s\n", tc->name, why);
			bad++;
		}
	}
	if (bad > 0)
		test_fail("%d of %zu techniques' cases failed", bad,
		    sizeof tech_cases / sizeof tech_cases[0]);
}

/*
 * BOJ 2580's first blank, r1c1: its row holds 2-9, so 1 is the only
 * candidate left.  (Naked singles come first, in row-major order.)  The
 * same on stale marks is a row of tech_cases[].
 */
void
test_tech_naked_single(void **state)
{
	struct sudoku_grid	 g;
	struct sudoku_cands	 c;
	const char		*why;
	char			 t[SUDOKU_CANDS_LEN + 1], buf[2200];

	(void)state;
	test_puzzle(test_boj2580, &g);
	memset(&c, 0, sizeof c);
	sudoku_cands_init(&c, &g);
	sudoku_cands_format(&c, t);
	t[SUDOKU_CANDS_LEN] = '\0';
	if ((why = expect_step(t, "naked_single r1c1=1 1 is the only "
	    "candidate left in r1c1", buf, sizeof buf)) != NULL)
		test_fail("%s", why);
}

/*
 * The forum's first hardest puzzle: the hints go on until no technique
 * applies, never past that, and the state then is not solved.
 */
void
test_tech_nostep(void **state)
{
	struct sudoku_grid	 g, sol;
	struct sudoku_cands	 c;
	struct sudoku_step	 st;
	enum sudoku_hint_result	 res;
	int			 i, n;

	(void)state;
	test_puzzle(test_hard1, &g);
	assert_int_equal(sudoku_solve(&g, SUDOKU_ANY, 0, &sol, NULL),
	    SUDOKU_SOLVED);
	sudoku_cands_init(&c, &g);
	for (n = 0; (res = sudoku_hint(&c, &st)) == SUDOKU_HINT_STEP; n++) {
		for (i = 0; i < st.nactions; i++)
			assert_true(st.action[i].place ==
			    (sol.cell[st.action[i].cell] ==
			    st.action[i].digit));
		sudoku_step_apply(&c, &st);
		assert_true(n < 729);
	}
	assert_int_equal(res, SUDOKU_HINT_NOSTEP);
	assert_int_equal(sudoku_cands_wrong(&c, &sol, NULL), 0);
	for (i = n = 0; i < SUDOKU_CELLS; i++)
		n += (c.mask[i] & (c.mask[i] - 1)) != 0;
	assert_true(n > 0);
	assert_int_equal(st.tech, SUDOKU_TECH_TRIAL);
}
