/* SPDX-License-Identifier: ISC */
/*
 * defaults.h -- what sudokud and sudokuc must agree on.
 *
 * A value both programs use is defined once, here, so that a client run
 * with its defaults behaves like the daemon run with its own.
 */
#ifndef DEFAULTS_H
#define DEFAULTS_H

/*
 * The search budget of one request, in guesses: the default of
 * [solver] budget in sudokud.conf(5) and of sudokuc -L.  The hardest
 * known puzzles need a few thousand guesses; 100000 bounds a request to
 * tens of milliseconds.  A plain integer, so that it can also be turned
 * into a string for the configuration table.
 */
#define SUDOKU_BUDGET_SERVICE		100000

/* The largest budget sudokud.conf(5) and sudokuc -b accept. */
#define SUDOKU_BUDGET_SERVICE_MAX	100000000

/* A number as a string literal: DEFAULTS_STRING(SUDOKU_BUDGET_SERVICE). */
#define DEFAULTS_STRING(x)	DEFAULTS_STRING1(x)
#define DEFAULTS_STRING1(x)	#x

/* The TCP port of the examples, and of sudokuc -H without a port. */
#define SUDOKUD_PORT_DEFAULT		"7999"

/*
 * The socket of the installed service; the build passes
 * $(runstatedir)/sudokud.sock, this is for a compiler run by hand.
 */
#ifndef SUDOKUD_SOCKET_PATH
#define SUDOKUD_SOCKET_PATH		"/run/sudokud.sock"
#endif

/* The group of the socket that the installed service creates. */
#define SUDOKUD_GROUP_DEFAULT		"sudokud"

#endif /* DEFAULTS_H */
