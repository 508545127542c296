/* SPDX-License-Identifier: ISC */
/*
 * echo.c -- bytes shown in 7-bit text, as the protocol shows them (see
 * echo.h).
 */
#include <stdio.h>
#include <string.h>

#include "echo.h"
#include "xmalloc.h"

void
echo_bytes(const char *s, size_t len, size_t max, char *buf, size_t size)
{
	size_t		 i, n = 0;
	unsigned char	 ch;
	int		 quoted = 0;

	/* 12: a byte's " 0xNN" or " 'c", the closing quote, "..." and NUL. */
	for (i = 0; i < len && i < max && n + 12 < size; i++) {
		ch = (unsigned char)s[i];
		if (ch >= 0x20 && ch < 0x7f) {
			if (!quoted)
				buf[n++] = i == 0 ? '\'' : ' ';
			if (!quoted && i != 0)
				buf[n++] = '\'';
			quoted = 1;
			buf[n++] = (char)ch;
			continue;
		}
		if (quoted)
			buf[n++] = '\'';
		n += (size_t)snprintf(buf + n, size - n, "%s0x%02x",
		    i == 0 ? "" : " ", ch);
		quoted = 0;
	}
	if (quoted)
		buf[n++] = '\'';
	if (i < len)
		n += (size_t)snprintf(buf + n, size - n, "...");
	buf[n] = '\0';
}

int
echo_printable(const char *s, size_t len)
{
	size_t	i;

	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			return (0);
	return (1);
}

const char *
echo_show(const char *s, size_t len, char *buf, size_t size)
{
	if (!echo_printable(s, len)) {
		echo_bytes(s, len, len, buf, size);
		return (buf);
	}
	if (len >= size)
		len = size - 1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return (buf);
}

char *
echo_text(const char *s, size_t len)
{
	char	*buf = xmalloc(ECHO_SIZE(len));

	echo_show(s, len, buf, ECHO_SIZE(len));
	return (buf);
}
