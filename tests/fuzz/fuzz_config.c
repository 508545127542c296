/* SPDX-License-Identifier: ISC */
/*
 * fuzz_config.c -- libFuzzer target for the configuration loader.
 *
 * Any file is either accepted (and then printed back and read again to
 * the same settings) or refused with one "FILE:LINE: reason" or
 * "FILE: reason" line naming a line the file has.
 */
#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/config.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static char	fuzz_path[64];

static void
fuzz_write(const char *path, const uint8_t *data, size_t size)
{
	FILE	*f;

	if ((f = fopen(path, "w")) == NULL ||
	    fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
}

/* The refusal names this file and, if any, a line it has. */
static void
fuzz_refused(const char *cause, const uint8_t *data, size_t size)
{
	size_t	n = strlen(fuzz_path), i, lines = 1;
	long	line;
	char	*end;

	if (strncmp(cause, fuzz_path, n) != 0 || cause[n] != ':' ||
	    strchr(cause, '\n') != NULL)
		abort();
	if (cause[n + 1] == ' ')
		return;
	line = strtol(cause + n + 1, &end, 10);
	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	if (end == cause + n + 1 || *end != ':' || line < 1 ||
	    (size_t)line > lines)
		abort();
}

/* Accepted: what config_print() writes reads back the same. */
static void
fuzz_accepted(const struct config *cf)
{
	struct config	*again;
	char		*text = NULL, *text2 = NULL, *cause;
	size_t		 len = 0, len2 = 0;
	FILE		*f;

	if ((f = open_memstream(&text, &len)) == NULL)
		abort();
	config_print(f, cf);
	fclose(f);
	fuzz_write(fuzz_path, (const uint8_t *)text, len);
	if ((again = config_load(fuzz_path, &cause)) == NULL)
		abort();
	if ((f = open_memstream(&text2, &len2)) == NULL)
		abort();
	config_print(f, again);
	fclose(f);
	if (len != len2 || memcmp(text, text2, len) != 0)
		abort();
	config_free(again);
	free(text);
	free(text2);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config	*cf;
	char		*cause;

	if (*fuzz_path == '\0')
		snprintf(fuzz_path, sizeof fuzz_path,
		    "/tmp/sudokud-fuzz-config.%ld", (long)getpid());
	fuzz_write(fuzz_path, data, size);
	if ((cf = config_load(fuzz_path, &cause)) == NULL) {
		fuzz_refused(cause, data, size);
		free(cause);
		return (0);
	}
	fuzz_accepted(cf);
	config_free(cf);
	return (0);
}
