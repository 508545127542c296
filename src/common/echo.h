/* SPDX-License-Identifier: ISC */
/*
 * echo.h -- bytes from the other side shown in 7-bit text, the way the
 * protocol shows them (doc/protocol.md): runs of printable ASCII in
 * quotes, every other byte as 0xNN, so 'FOO', 0x00 or 'GE' 0xc3 0xa9
 * 'T'.  sudokud echoes a request's bytes so in its error text; sudokuc
 * shows a server's bytes so when they are not all printable, so that no
 * escape sequence of a server reaches a terminal.
 */
#ifndef ECHO_H
#define ECHO_H

#include <stddef.h>

/*
 * Room enough for echo_bytes() to show max bytes whole: five a byte at
 * most (" 0x9b", or "'a' " over two), "..." and the NUL.
 */
#define ECHO_SIZE(max)	((max) * 5 + 16)

/*
 * The first max of the len bytes at s, shown, into buf of size bytes
 * (at least 16), always terminated; "..." after them if some are left
 * out, because of max or because buf is full.
 */
void	echo_bytes(const char *s, size_t len, size_t max, char *buf,
	    size_t size);

/* Is each of the len bytes at s printable ASCII (0x20 to 0x7e)? */
int	echo_printable(const char *s, size_t len);

/*
 * The len bytes at s as they may be printed, into buf of size bytes
 * (at least 16): the same bytes if all are printable ASCII, else
 * echo_bytes() of them; either cut short if buf is too small.  Returns
 * buf.
 */
const char *echo_show(const char *s, size_t len, char *buf, size_t size);

/* The same, allocated, and never cut short. */
char	*echo_text(const char *s, size_t len);

#endif /* ECHO_H */
