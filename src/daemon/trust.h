/* SPDX-License-Identifier: ISC */
/*
 * trust.h -- the proxies whose X-Forwarded-For header is believed
 * ([http] trusted_proxies), and the client such a header names.
 *
 * Pure but for the parse's allocation: a list of addresses and
 * networks, each address looked up in it by its leading bits.
 */
#ifndef TRUST_H
#define TRUST_H

#include <stddef.h>
#include <stdint.h>

struct remote_addr;

/* One network: family AF_INET or AF_INET6, its first bits bits. */
struct trust_net {
	uint8_t		 family;
	uint8_t		 bits;
	uint8_t		 addr[16];
};

/* A list as the file gives it, and the networks it names. */
struct trust_list {
	char		*text;		/* NULL: no list */
	struct trust_net *nets;
	size_t		 n;
};

/*
 * Parse v, addresses (192.0.2.7, 2001:db8::1) and networks (10.0.0.0/8,
 * 2001:db8::/32) separated by commas or blanks, into l; 0, or -1 with an
 * allocated reason.  "" empties the list.
 */
int	trust_parse(struct trust_list *l, const char *v, char **reason);
void	trust_clear(struct trust_list *);

/* Is the address of a (TCP; an IPv4-mapped IPv6 one as IPv4) in l? */
int	trust_has(const struct trust_list *l, const struct remote_addr *a);

/*
 * The client an X-Forwarded-For value (the n bytes at v) names, as a
 * proxy in l sees it: its addresses from the right, each trusted one
 * skipped, the first that is not, into *client (port 0); where the walk
 * meets a word that is not an address, the last address it passed: 0.
 * 1 if it met the left end with every address trusted (*client the
 * leftmost): the walk goes on into the field line before, if there is
 * one.  -1 if the rightmost item is no address.
 */
int	trust_xff(const struct trust_list *l, const char *v, size_t n,
	    struct remote_addr *client);

#endif /* TRUST_H */
