/* SPDX-License-Identifier: ISC */
/*
 * cells.c -- cells in rRcC notation (ERR wrong, doc/protocol.md).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cells.h"

void
cells_text(const uint8_t *cells, int n, char *buf, size_t size)
{
	size_t	len = 0;
	int	i;

	buf[0] = '\0';
	/* ",r9c9" is 5 bytes: 6 is room for it and the NUL. */
	for (i = 0; i < n && len + 6 <= size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%sr%dc%d",
		    i == 0 ? "" : ",", cells[i] / 9 + 1, cells[i] % 9 + 1);
}
