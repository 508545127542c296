/* SPDX-License-Identifier: ISC */
/*
 * fuzz_auth.c -- libFuzzer target for auth_parse(), the first line of
 * an auth_file: whatever the bytes, a secret taken is 1 to 256 bytes of
 * printable ASCII without blanks, the line's whole first part, and the
 * same with anything after its end of line; a refusal says why.
 */
#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/auth.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char	*s = (const char *)data, *why, *again;
	char		*more;
	size_t		 n = 0, m = 0, i;

	if ((why = auth_parse(s, size, &n)) != NULL) {
		if (*why == '\0')
			abort();
		return (0);
	}
	if (n < 1 || n > AUTH_SECRET_MAX || n > size)
		abort();
	for (i = 0; i < n; i++)
		if (data[i] <= ' ' || data[i] >= 0x7f)
			abort();
	/* It ended the line (or the input): nothing printable follows. */
	if (n < size && data[n] != '\n' && data[n] != '\r')
		abort();
	/* The same secret with more lines after it. */
	if ((more = malloc(n + 8)) == NULL)
		abort();
	memcpy(more, s, n);
	memcpy(more + n, "\nxy z\t\n", 7);
	again = auth_parse(more, n + 7, &m);
	if (again != NULL || m != n)
		abort();
	free(more);
	return (0);
}
