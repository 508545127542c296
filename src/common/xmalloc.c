/* SPDX-License-Identifier: ISC */
/*
 * xmalloc.c -- allocation wrappers that die cleanly via fatal().
 *
 * A zero size is a caller's bug, not a reason to return NULL.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "xmalloc.h"

void *
xmalloc(size_t size)
{
	void	*p;

	if (size == 0)
		fatalx("xmalloc: zero size");
	if ((p = malloc(size)) == NULL)
		fatal("xmalloc: allocating %zu bytes", size);
	return (p);
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void	*p;

	if (nmemb == 0 || size == 0)
		fatalx("xcalloc: zero size");
	if ((p = calloc(nmemb, size)) == NULL)
		fatal("xcalloc: allocating %zu * %zu bytes", nmemb, size);
	return (p);
}

void *
xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	void	*p;

	if (nmemb == 0 || size == 0)
		fatalx("xreallocarray: zero size");
	if (nmemb > SIZE_MAX / size) {
		errno = ENOMEM;
		fatal("xreallocarray: %zu * %zu bytes", nmemb, size);
	}
	if ((p = realloc(ptr, nmemb * size)) == NULL)
		fatal("xreallocarray: allocating %zu * %zu bytes", nmemb, size);
	return (p);
}

char *
xstrdup(const char *s)
{
	char	*p;

	if ((p = strdup(s)) == NULL)
		fatal("xstrdup");
	return (p);
}

char *
xstrndup(const char *s, size_t maxlen)
{
	char	*p;

	if ((p = strndup(s, maxlen)) == NULL)
		fatal("xstrndup");
	return (p);
}

int
xvasprintf(char **ret, const char *fmt, va_list ap)
{
	int	i;

	i = vasprintf(ret, fmt, ap);
	if (i == -1)
		fatal("xasprintf");
	return (i);
}

int
xasprintf(char **ret, const char *fmt, ...)
{
	va_list	ap;
	int	i;

	va_start(ap, fmt);
	i = xvasprintf(ret, fmt, ap);
	va_end(ap);
	return (i);
}
