/* SPDX-License-Identifier: ISC */
/*
 * test_fail.h -- test_fail(): fail the running cmocka test with a
 * message, for every unit test program.
 *
 * cmocka 1.1.5's fail_msg() writes to stderr, which lands away from the
 * TAP lines in the log; a TAP comment on stdout stays next to the
 * "not ok" line.  Include after <cmocka.h>.
 */
#ifndef TEST_FAIL_H
#define TEST_FAIL_H

#define test_fail(...) do {						\
	print_message("# ");						\
	print_message(__VA_ARGS__);					\
	print_message("\n");						\
	fail();								\
} while (0)

#endif /* TEST_FAIL_H */
