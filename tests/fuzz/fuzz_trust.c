/* SPDX-License-Identifier: ISC */
/*
 * fuzz_trust.c -- libFuzzer target for [http] trusted_proxies and
 * X-Forwarded-For (trust.c): the input's first line is a list, the rest
 * a header's value.  A list parsed has its text kept and a network for
 * each address in it, each of a family and no more bits than it has; a
 * client found is an IPv4 or IPv6 address, one the header names.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "daemon/remote.h"
#include "daemon/trust.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trust_list	 l = { NULL, NULL, 0 };
	struct remote_addr	 a;
	const uint8_t		*nl = memchr(data, '\n', size);
	size_t			 n = nl != NULL ? (size_t)(nl - data) : size, i;
	char			*list, *reason = NULL;

	list = xmalloc(n + 1);
	memcpy(list, data, n);
	list[n] = '\0';
	if (trust_parse(&l, list, &reason) != 0) {
		if (reason == NULL || l.n != 0)
			abort();
		free(reason);
	}
	for (i = 0; i < l.n; i++)
		if ((l.nets[i].family != AF_INET ||
		    l.nets[i].bits > 32) && (l.nets[i].family != AF_INET6 ||
		    l.nets[i].bits > 128))
			abort();
	if (nl != NULL && trust_xff(&l, (const char *)nl + 1, size - n - 1,
	    &a) >= 0) {
		if (a.family != AF_INET && a.family != AF_INET6)
			abort();
		(void)trust_has(&l, &a);
	}
	trust_clear(&l);
	free(list);
	return (0);
}
