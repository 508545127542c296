/* SPDX-License-Identifier: ISC */
/*
 * test_techniques.c -- one hand-made grid per technique, where that
 * technique and no easier one makes progress, with the exact step.
 *
 * Most grids are pencil marks with every candidate everywhere except in
 * a few cells: with at least five open cells holding every digit in
 * each unit, no single, locked candidate or subset exists outside the
 * pattern, and a fish, wing or chain needs narrowed cells too.  Each
 * comment says why the easier techniques find nothing in the pattern.
 * The expected actions were worked out by hand from those comments.
 */
#include <string.h>

#include "test_logic.h"

/* The first hint of pencil marks t must be want, word for word. */
static void
expect_step(const char *t, const char *want)
{
	struct sudoku_cands	 c;
	struct sudoku_step	 st;
	char			 got[1024];

	assert_int_equal(sudoku_cands_parse(t, strlen(t), NULL, &c, NULL), 0);
	assert_int_equal(sudoku_hint(&c, &st), SUDOKU_HINT_STEP);
	sudoku_step_text(&st, got, sizeof got);
	if (strcmp(got, want) != 0)
		test_fail("got  \"%s\"\n# want \"%s\"", got, want);
}

/*
 * BOJ 2580's first blank, r1c1: its row holds 2-9, so 1 is the only
 * candidate left.  (Naked singles come first, in row-major order.)
 */
void
test_tech_naked_single(void **state)
{
	struct sudoku_grid	 g;
	struct sudoku_cands	 c;
	char			 t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	test_puzzle(test_boj2580, &g);
	memset(&c, 0, sizeof c);
	sudoku_cands_init(&c, &g);
	sudoku_cands_format(&c, t);
	t[SUDOKU_CANDS_LEN] = '\0';
	expect_step(t, "naked_single r1c1=1 1 is the only candidate left in "
	    "r1c1");
	/* Stale marks: r1c1 keeps all nine, its filled row still wins. */
	marks_full(t);
	marks_set(t, 1, 2, "2");
	marks_set(t, 1, 3, "3");
	marks_set(t, 1, 4, "4");
	marks_set(t, 1, 5, "5");
	marks_set(t, 1, 6, "6");
	marks_set(t, 1, 7, "7");
	marks_set(t, 1, 8, "8");
	marks_set(t, 1, 9, "9");
	expect_step(t, "naked_single r1c1=1 1 is the only candidate left in "
	    "r1c1");
}

/*
 * The example.  Filled 7s at r1c1, r2c7 (rows 1 and 2), r4c4
 * and r7c6 (columns 4 and 6) leave r3c5 as box 2's only place for 7.
 * No naked single: no open cell sees more than two filled cells.  Box 1
 * comes first but holds a filled 7, and its other digits go anywhere.
 */
void
test_tech_hidden_single(void **state)
{
	char	 t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	marks_full(t);
	marks_set(t, 1, 1, "7");
	marks_set(t, 2, 7, "7");
	marks_set(t, 4, 4, "7");
	marks_set(t, 7, 6, "7");
	expect_step(t, "hidden_single r3c5=7 7 can only go in r3c5 within "
	    "box 2");
}

/*
 * Box 1 keeps 4 in r1c1 and r1c2 only, both in row 1: the rest of row 1
 * loses 4.  Not a single: two places in box 1, six or more elsewhere.
 * Boxes are scanned first, digits 1-3 of box 1 go anywhere.
 */
void
test_tech_pointing(void **state)
{
	char	 t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	marks_full(t);
	marks_del(t, 1, 3, "4");
	marks_del_row(t, 2, "123", "4");
	marks_del_row(t, 3, "123", "4");
	expect_step(t, "pointing r1c4-4,r1c5-4,r1c6-4,r1c7-4,r1c8-4,r1c9-4 "
	    "within box 1, 4 can only go in r1c1,r1c2, all in row 1, so no "
	    "other cell of row 1 can be 4");
}

/*
 * Row 1 keeps 4 in r1c1 and r1c2 only, both in box 1: the rest of box 1
 * loses 4.  No pointing: box 1 has 4 in rows 1-3, boxes 2 and 3 in
 * rows 2 and 3 and three columns each.
 */
void
test_tech_claiming(void **state)
{
	char	 t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	marks_full(t);
	marks_del_row(t, 1, "3456789", "4");
	expect_step(t, "claiming r2c1-4,r2c2-4,r2c3-4,r3c1-4,r3c2-4,r3c3-4 "
	    "within row 1, 4 can only go in r1c1,r1c2, all in box 1, so no "
	    "other cell of box 1 can be 4");
}

/*
 * r1c1 and r1c2 hold {1,2}: row 1 loses 1 and 2 elsewhere.  No single
 * or locked candidate: 1 and 2 still go in every cell of rows 2-9 and
 * in every other cell of row 1.  Row 1 comes before box 1.
 */
void
test_tech_naked_pair(void **state)
{
	char	 t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	marks_full(t);
	marks_set(t, 1, 1, "12");
	marks_set(t, 1, 2, "12");
	expect_step(t, "naked_pair r1c3-1,r1c3-2,r1c4-1,r1c4-2,r1c5-1,r1c5-2,"
	    "r1c6-1,r1c6-2,r1c7-1,r1c7-2,r1c8-1,r1c8-2,r1c9-1,r1c9-2 in row 1, "
	    "the 2 cells r1c1,r1c2 hold only the digits 1,2, so no other cell "
	    "of row 1 can hold them");
}

/*
 * In row 1, 1 and 2 go only in r1c1 and r1c5 (different boxes, so no
 * claiming): those cells lose 3-9.  No naked pair: every cell has at
 * least seven candidates.
 */
void
test_tech_hidden_pair(void **state)
{
	char	 t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	marks_full(t);
	marks_del_row(t, 1, "2346789", "12");
	expect_step(t, "hidden_pair r1c1-3,r1c1-4,r1c1-5,r1c1-6,r1c1-7,"
	    "r1c1-8,r1c1-9,r1c5-3,r1c5-4,r1c5-5,r1c5-6,r1c5-7,r1c5-8,r1c5-9 in "
	    "row 1, the digits 1,2 can only go in the 2 cells r1c1,r1c5, so "
	    "those cells hold nothing else");
}

/*
 * Rows 2 and 7 keep 5 in columns 3 and 8 only: columns 3 and 8 lose 5
 * elsewhere.  No locked candidate: each of those rows has 5 in two
 * boxes, each box has 5 in at least two rows and two columns.
 */
void
test_tech_x_wing(void **state)
{
	char	 t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	marks_full(t);
	marks_del_row(t, 2, "1245679", "5");
	marks_del_row(t, 7, "1245679", "5");
	expect_step(t, "x_wing r1c3-5,r1c8-5,r3c3-5,r3c8-5,r4c3-5,r4c8-5,"
	    "r5c3-5,r5c8-5,r6c3-5,r6c8-5,r8c3-5,r8c8-5,r9c3-5,r9c8-5 the 5s of "
	    "rows 2,7 all lie in columns 3,8, so no other cell of those "
	    "columns can be 5");
}

/*
 * r1c1 {1,2}, r1c2 {2,3}, r1c5 {1,3}: three cells, three digits, and no
 * two of them a pair.  Row 1 loses 1-3 in its other six cells.  An
 * X-wing (tried before) needs two lines with two places: none.
 */
void
test_tech_naked_triple(void **state)
{
	char	 t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	marks_full(t);
	marks_set(t, 1, 1, "12");
	marks_set(t, 1, 2, "23");
	marks_set(t, 1, 5, "13");
	expect_step(t, "naked_triple r1c3-1,r1c3-2,r1c3-3,r1c4-1,r1c4-2,"
	    "r1c4-3,r1c6-1,r1c6-2,r1c6-3,r1c7-1,r1c7-2,r1c7-3,r1c8-1,r1c8-2,"
	    "r1c8-3,r1c9-1,r1c9-2,r1c9-3 in row 1, the 3 cells r1c1,r1c2,r1c5 "
	    "hold only the digits 1,2,3, so no other cell of row 1 can hold "
	    "them");
}

/*
 * 5 in row 1 at c1,c5; row 5 at c5,c9; row 9 at c1,c9: three rows, three
 * columns, and no two rows on two columns (no X-wing).  Every row has 5
 * in two boxes; boxes 1, 2, 5 keep 5 in rows 2-3 or 4/6 too.
 */
void
test_tech_swordfish(void **state)
{
	char	 t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	marks_full(t);
	marks_del_row(t, 1, "2346789", "5");
	marks_del_row(t, 5, "1234678", "5");
	marks_del_row(t, 9, "2345678", "5");
	expect_step(t, "swordfish r2c1-5,r2c5-5,r2c9-5,r3c1-5,r3c5-5,r3c9-5,"
	    "r4c1-5,r4c5-5,r4c9-5,r6c1-5,r6c5-5,r6c9-5,r7c1-5,r7c5-5,r7c9-5,"
	    "r8c1-5,r8c5-5,r8c9-5 the 5s of rows 1,5,9 all lie in columns "
	    "1,5,9, so no other cell of those columns can be 5");
}

/*
 * In row 1, 1-3 go only in r1c1, r1c5, r1c9 (one per box: no claiming,
 * no pair, each digit has three places).  The other cells keep six
 * candidates: no naked subset up to three.
 */
void
test_tech_hidden_triple(void **state)
{
	char	 t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	marks_full(t);
	marks_del_row(t, 1, "234678", "123");
	expect_step(t, "hidden_triple r1c1-4,r1c1-5,r1c1-6,r1c1-7,r1c1-8,"
	    "r1c1-9,r1c5-4,r1c5-5,r1c5-6,r1c5-7,r1c5-8,r1c5-9,r1c9-4,r1c9-5,"
	    "r1c9-6,r1c9-7,r1c9-8,r1c9-9 in row 1, the digits 1,2,3 can only "
	    "go in the 3 cells r1c1,r1c5,r1c9, so those cells hold nothing "
	    "else");
}

/*
 * Pivot r1c1 {1,2} sees r1c5 {1,3} (row 1) and r5c1 {2,3} (column 1):
 * one of those is 3, and r5c5 sees both.  Three bivalue cells with
 * different pairs: no subset; every other cell is full.
 */
void
test_tech_xy_wing(void **state)
{
	char	 t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	marks_full(t);
	marks_set(t, 1, 1, "12");
	marks_set(t, 1, 5, "13");
	marks_set(t, 5, 1, "23");
	expect_step(t, "xy_wing r5c5-3 pivot r1c1 (1/2) sees r1c5 (1/3) and "
	    "r5c1 (2/3): whatever the pivot is, one of those two is 3, so a "
	    "cell seeing both cannot be 3");
}

/*
 * Pivot r1c1 {1,2,3} sees r1c7 {2,3} (row 1) and r2c2 {1,3} (box 1):
 * one of the three is 3, and r1c2, r1c3 see all of them.  No triple:
 * the three cells share no unit.  No XY-wing: its pivot must be
 * bivalue, and r1c7 and r2c2 do not see each other.
 */
void
test_tech_xyz_wing(void **state)
{
	char	 t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	marks_full(t);
	marks_set(t, 1, 1, "123");
	marks_set(t, 1, 7, "23");
	marks_set(t, 2, 2, "13");
	expect_step(t, "xyz_wing r1c2-3,r1c3-3 pivot r1c1 (1/2/3) sees r1c7 "
	    "(2/3) and r2c2 (1/3): one of the three is 3, so a cell seeing "
	    "all three cannot be 3");
}

/*
 * r1c1 {1,2}, r1c2 {2,3}, r1c4 {3,4}, r1c5 {1,4}: a ring of four cells
 * with four digits, in which any two or three cells hold more digits
 * than cells.  Row 1 loses 1-4 in its other five cells.
 */
void
test_tech_naked_quad(void **state)
{
	char	 t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	marks_full(t);
	marks_set(t, 1, 1, "12");
	marks_set(t, 1, 2, "23");
	marks_set(t, 1, 4, "34");
	marks_set(t, 1, 5, "14");
	expect_step(t, "naked_quad r1c3-1,r1c3-2,r1c3-3,r1c3-4,r1c6-1,r1c6-2,"
	    "r1c6-3,r1c6-4,r1c7-1,r1c7-2,r1c7-3,r1c7-4,r1c8-1,r1c8-2,r1c8-3,"
	    "r1c8-4,r1c9-1,r1c9-2,r1c9-3,r1c9-4 in row 1, the 4 cells r1c1,"
	    "r1c2,r1c4,r1c5 hold only the digits 1,2,3,4, so no other cell of "
	    "row 1 can hold them");
}

/*
 * In row 1, 1-4 go only in r1c1, r1c3, r1c5, r1c7 (three boxes: no
 * claiming; four places each: no smaller hidden subset).  The other
 * five cells keep 5-9: a naked quintuple, beyond quads.
 */
void
test_tech_hidden_quad(void **state)
{
	char	 t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	marks_full(t);
	marks_del_row(t, 1, "24689", "1234");
	expect_step(t, "hidden_quad r1c1-5,r1c1-6,r1c1-7,r1c1-8,r1c1-9,r1c3-5,"
	    "r1c3-6,r1c3-7,r1c3-8,r1c3-9,r1c5-5,r1c5-6,r1c5-7,r1c5-8,r1c5-9,"
	    "r1c7-5,r1c7-6,r1c7-7,r1c7-8,r1c7-9 in row 1, the digits 1,2,3,4 "
	    "can only go in the 4 cells r1c1,r1c3,r1c5,r1c7, so those cells "
	    "hold nothing else");
}

/*
 * 5 in row 1 at c2,c4; row 4 at c1,c7; row 7 at c1,c4; row 8 at c2,c7:
 * a ring over columns 1, 2, 4, 7 in which any two rows cover three
 * columns and any three cover four, so no X-wing or swordfish.  Each
 * row's two places are in different boxes, and rows 7 and 8 together
 * reach all three boxes of their band, so every box keeps 5 in two
 * rows and two columns: no locked candidate.
 */
void
test_tech_jellyfish(void **state)
{
	char	 t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	marks_full(t);
	marks_del_row(t, 1, "1356789", "5");
	marks_del_row(t, 4, "2345689", "5");
	marks_del_row(t, 7, "2356789", "5");
	marks_del_row(t, 8, "1345689", "5");
	expect_step(t, "jellyfish r2c1-5,r2c2-5,r2c4-5,r2c7-5,r3c1-5,r3c2-5,"
	    "r3c4-5,r3c7-5,r5c1-5,r5c2-5,r5c4-5,r5c7-5,r6c1-5,r6c2-5,r6c4-5,"
	    "r6c7-5,r9c1-5,r9c2-5,r9c4-5,r9c7-5 the 5s of rows 1,4,7,8 all lie "
	    "in columns 1,2,4,7, so no other cell of those columns can be 5");
}

/*
 * Conjugate pairs of 4: row 1 (r1c1, r1c5), column 5 (r1c5, r5c5), row
 * 5 (r5c5, r5c2).  Colours: r1c1, r5c5 against r1c5, r5c2.  r2c2, r3c2
 * (box 1 and column 2) and r4c1, r6c1 (column 1 and box 4) see both
 * colours.  No fish: only two rows and one column have two places; no
 * locked candidate: every box keeps 4 in two rows and two columns.
 */
void
test_tech_colouring_trap(void **state)
{
	char	 t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	marks_full(t);
	marks_del_row(t, 1, "2346789", "4");
	marks_del_row(t, 5, "1346789", "4");
	marks_del_col(t, 5, "2346789", "4");
	expect_step(t, "simple_colouring r2c2-4,r3c2-4,r4c1-4,r6c1-4 the "
	    "conjugate pairs of 4 colour r1c1,r5c5 one way and r1c5,r5c2 the "
	    "other; one colour is 4, so a cell seeing both colours cannot be "
	    "4");
}

/*
 * As above, plus column 2's pair (r5c2, r2c2): r2c2 gets r1c1's colour
 * and shares box 1 with it, so that colour (r1c1, r2c2, r5c5) is not 4.
 * Still no fish: rows 1, 5 and columns 2, 5 each cover three lines.
 */
void
test_tech_colouring_wrap(void **state)
{
	char	 t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	marks_full(t);
	marks_del_row(t, 1, "2346789", "4");
	marks_del_row(t, 5, "1346789", "4");
	marks_del_col(t, 5, "2346789", "4");
	marks_del_col(t, 2, "1346789", "4");
	expect_step(t, "simple_colouring r1c1-4,r2c2-4,r5c5-4 the conjugate "
	    "pairs of 4 colour r1c1,r2c2,r5c5 one way and r5c2,r1c5 the other; "
	    "r1c1 and r2c2 share a unit, so the first colour is not 4");
}

/*
 * A skyscraper: rows 1 (r1c1, r1c5) and 5 (r5c5, r5c3) are conjugate
 * pairs of 4 joined by column 5, which has more places, so the link is
 * weak and colouring sees two clusters of two.  r1c1=r1c5-r5c5=r5c3:
 * one of r1c1, r5c3 is 4; r2c3, r3c3 (box 1 and column 3) and r4c1,
 * r6c1 (column 1 and box 4) see both.
 */
void
test_tech_x_chain(void **state)
{
	char	 t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	marks_full(t);
	marks_del_row(t, 1, "2346789", "4");
	marks_del_row(t, 5, "1246789", "4");
	expect_step(t, "x_chain r2c3-4,r3c3-4,r4c1-4,r6c1-4 chain of 4s "
	    "r1c1=r1c5-r5c5=r5c3: if r1c1 is not 4 then r5c3 is, so a cell "
	    "seeing both cannot be 4");
}

/*
 * r1c1 {1,2} - r1c5 {2,3} - r5c5 {3,4} - r5c2 {4,1}: if r1c1 is not 1
 * it is 2, r1c5 is 3, r5c5 is 4 and r5c2 is 1.  Six cells see r1c1 and
 * r5c2.  No XY-wing: no cell sees two others whose pairs close the
 * ring; no conjugate pair, so no colouring or X-chain.
 */
void
test_tech_xy_chain(void **state)
{
	char	 t[SUDOKU_CANDS_LEN + 1];

	(void)state;
	marks_full(t);
	marks_set(t, 1, 1, "12");
	marks_set(t, 1, 5, "23");
	marks_set(t, 5, 5, "34");
	marks_set(t, 5, 2, "14");
	expect_step(t, "xy_chain r1c2-1,r2c2-1,r3c2-1,r4c1-1,r5c1-1,r6c1-1 "
	    "chain r1c1(1=2)-r1c5(2=3)-r5c5(3=4)-r5c2(4=1): if r1c1 is not 1 "
	    "then r5c2 is, so a cell seeing both cannot be 1");
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
