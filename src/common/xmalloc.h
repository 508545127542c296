/* SPDX-License-Identifier: ISC */
/*
 * xmalloc.h -- allocation that never fails: on error it logs and exits.
 */
#ifndef XMALLOC_H
#define XMALLOC_H

#include <stdarg.h>
#include <stddef.h>

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
int	 xasprintf(char **, const char *, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
int	 xvasprintf(char **, const char *, va_list)
	    __attribute__((__format__(__printf__, 2, 0)));

#endif /* XMALLOC_H */
