/*
 * defaults.h -- what sudokud and sudokuc must agree on.
 *
 * A value both programs use is defined once, here, so that a client run
 * with its defaults behaves like the daemon run with its own.
 */
#ifndef DEFAULTS_H
#define DEFAULTS_H

/* The group of the socket that the installed service creates. */
#define SUDOKUD_GROUP_DEFAULT		"sudokud"

#endif /* DEFAULTS_H */
