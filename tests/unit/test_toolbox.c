/* SPDX-License-Identifier: ISC */
/*
 * test_toolbox.c -- what tests/unit/test_toolbox's files share (sets,
 * text, the count of solutions), and main(), which runs the group (see
 * test_toolbox.h).
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_toolbox.h"

#if defined(__SANITIZE_ADDRESS__)
#define TB_SLOW	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TB_SLOW	1
#endif
#endif
#ifndef TB_SLOW
#define TB_SLOW	0
#endif

int
tb_slow(void)
{
	return (TB_SLOW);
}

void
tb_load(const char *name, struct tb_set *set)
{
	const char	*dir = getenv("PUZZLE_DIR");
	char		 path[4096], line[256];
	struct stat	 sb;
	size_t		 cap = 0, len;
	FILE		*f;

	if (dir == NULL || *dir == '\0')
		test_fail("PUZZLE_DIR is not set: the data-set tests need the "
		    "puzzle sets (make check sets it)");
	if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
		test_fail("PUZZLE_DIR %s is not a directory", dir);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((f = fopen(path, "r")) == NULL)
		test_fail("%s: %s", path, strerror(errno));
	set->g = NULL;
	set->n = 0;
	while (fgets(line, sizeof line, f) != NULL) {
		len = strcspn(line, "\r\n \t");
		if (len == 0 || line[0] == '#')
			continue;
		if (set->n == cap) {
			cap = cap ? cap * 2 : 1024;
			set->g = realloc(set->g, cap * sizeof *set->g);
			assert_non_null(set->g);
		}
		assert_int_equal(sudoku_parse(line, len, &set->g[set->n++],
		    NULL), 0);
	}
	fclose(f);
	assert_true(set->n > 0);
}

void
tb_free(struct tb_set *set)
{
	free(set->g);
	set->g = NULL;
	set->n = 0;
}

void
tb_text(const struct sudoku_grid *g, char *s)
{
	int	 i;

	for (i = 0; i < SUDOKU_CELLS; i++)
		s[i] = g->cell[i] ? (char)('0' + g->cell[i]) : '.';
	s[SUDOKU_CELLS] = '\0';
}

void
tb_puzzle(const char *s, struct sudoku_grid *g)
{
	assert_int_equal(strlen(s), SUDOKU_CELLS);
	assert_int_equal(sudoku_parse(s, SUDOKU_CELLS, g, NULL), 0);
}

int
tb_givens(const struct sudoku_grid *g)
{
	int	 i, n = 0;

	for (i = 0; i < SUDOKU_CELLS; i++)
		n += g->cell[i] != 0;
	return (n);
}

int
tb_solutions(const struct sudoku_grid *p, struct sudoku_grid *sol)
{
	struct sudoku_grid	 first;
	unsigned long		 n;
	char			 why[128];

	if (sudoku_count(p, 2, 0, &n, &first, NULL) == SUDOKU_NOSOLUTION)
		return (0);
	assert_true(n >= 1);
	if (!checker_solution(p->cell, first.cell, why, sizeof why))
		test_fail("the solver's solution is wrong: %s", why);
	if (sol != NULL)
		*sol = first;
	return ((int)n);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_canon_brute),
		cmocka_unit_test(test_canon_known),
		cmocka_unit_test(test_canon_shuffled),
		cmocka_unit_test(test_canon_distinct),
		cmocka_unit_test(test_canon_invalid),
		cmocka_unit_test(test_transform_apply),
		cmocka_unit_test(test_shuffle),
		cmocka_unit_test(test_shuffle_moves),
		cmocka_unit_test(test_sym_names),
		cmocka_unit_test(test_sym_holds),
		cmocka_unit_test(test_pattern_parse),
		cmocka_unit_test(test_genx_plain),
		cmocka_unit_test(test_genx_symmetric),
		cmocka_unit_test(test_genx_clues),
		cmocka_unit_test(test_genx_pattern),
		cmocka_unit_test(test_genx_refused),
		cmocka_unit_test(test_genx_best),
		cmocka_unit_test(test_genx_slices),
		cmocka_unit_test(test_genx_check),
		cmocka_unit_test(test_genx_twins),
		cmocka_unit_test(test_genx_singles),
		cmocka_unit_test(test_genx_charges),
		cmocka_unit_test(test_minimize),
		cmocka_unit_test(test_minimize_results),
		cmocka_unit_test(test_constrain),
		cmocka_unit_test(test_constrain_results),
		cmocka_unit_test(test_reduce_slices),
		cmocka_unit_test(test_path_sets),
		cmocka_unit_test(test_path_state),
		cmocka_unit_test(test_path_text),
	};

	/* Keep TAP lines and failure text (stderr) in order in the log. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	return cmocka_run_group_tests_name("toolbox", tests, NULL, NULL);
}
