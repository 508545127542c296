/* SPDX-License-Identifier: ISC */
/*
 * fuzz_proxy.c -- libFuzzer target for proxy_parse(), the PROXY
 * protocol header: whatever the bytes, a result consistent with itself.
 * A header that is whole is whole in any longer input too, and as long;
 * one that needs more bytes is a prefix of something valid (so shorter
 * than the limit); a bad one stays bad with more bytes after it.  And
 * the same at every split: each prefix of the input, as a connection
 * that has sent only that much, gets an answer the whole agrees with.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/*
 * Every prefix of data, as the bytes a header split across reads has
 * delivered so far: a whole header (r OK, hdr) needs more before its
 * end and is itself at every length from its end on; a bad one was
 * valid-so-far or bad before, never a whole header.
 */
static void
splits(const uint8_t *data, size_t size, enum proxy_result r,
    const struct proxy *hdr)
{
	struct proxy		 part;
	enum proxy_result	 p;
	const char		*why;
	size_t			 k;

	for (k = 0; k < size; k++) {
		p = proxy_parse(data, k, &part, &why);
		if (r == PROXY_OK && k < hdr->len && p != PROXY_MORE)
			abort();
		if (r == PROXY_OK && k >= hdr->len && (p != PROXY_OK ||
		    part.len != hdr->len))
			abort();
		if (r == PROXY_BAD && p == PROXY_OK)
			abort();
		if (r == PROXY_MORE && p != PROXY_MORE)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proxy		 hdr, again;
	enum proxy_result	 r;
	const char		*why;
	uint8_t			*more;

	r = proxy_parse(data, size, &hdr, &why);
	if ((r == PROXY_BAD) != (why != NULL))
		abort();
	if (r == PROXY_OK && (hdr.len == 0 || hdr.len > size ||
	    hdr.len > PROXY_MAX || (!hdr.local && hdr.srclen == 0)))
		abort();
	if (r == PROXY_MORE && size >= PROXY_MAX)
		abort();
	/* Bounded: a header is at most PROXY_MAX bytes, the rest is data. */
	splits(data, size < PROXY_MAX + 8 ? size : PROXY_MAX + 8, r, &hdr);
	/* The same bytes with a request after them. */
	if ((more = malloc(size + 5)) == NULL)
		abort();
	memcpy(more, data, size);
	memcpy(more + size, "PING\n", 5);
	switch (r) {
	case PROXY_OK:
		if (proxy_parse(more, size + 5, &again, &why) != PROXY_OK ||
		    again.len != hdr.len)
			abort();
		break;
	case PROXY_BAD:
		if (proxy_parse(more, size + 5, &again, &why) != PROXY_BAD)
			abort();
		break;
	default:
		break;
	}
	free(more);
	return (0);
}
