/* SPDX-License-Identifier: ISC */
/*
 * metrics_text.c -- the shortest exact text of a double (see
 * metrics_text.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "metrics_text.h"

void
metrics_number(char *buf, size_t size, double v)
{
	int	prec;

	/* A count is an integer: 1000, not 1e+03 (exact below 2^53). */
	if (v == (double)(long long)v && v < 9007199254740992.0 &&
	    v > -9007199254740992.0) {
		snprintf(buf, size, "%lld", (long long)v);
		return;
	}
	/* 17 significant digits always read back exactly (IEEE 754). */
	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
	snprintf(buf, size, "%.17g", v);
}
