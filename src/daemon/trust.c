/* SPDX-License-Identifier: ISC */
/*
 * trust.c -- trusted proxies and X-Forwarded-For (see trust.h).
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "remote.h"
#include "trust.h"

/* The longest address text read: an IPv6 one in brackets. */
#define TRUST_ADDR_MAX	(INET6_ADDRSTRLEN + 2)

/* s, an IPv4 or IPv6 address (IPv6 maybe in brackets), into n. */
static int
trust_addr(const char *s, size_t len, struct trust_net *n)
{
	char	buf[TRUST_ADDR_MAX + 1];

	if (len >= 2 && s[0] == '[' && s[len - 1] == ']') {
		s++;
		len -= 2;
	}
	if (len == 0 || len > TRUST_ADDR_MAX)
		return (-1);
	memcpy(buf, s, len);
	buf[len] = '\0';
	memset(n, 0, sizeof *n);
	if (inet_pton(AF_INET, buf, n->addr) == 1) {
		n->family = AF_INET;
		n->bits = 32;
		return (0);
	}
	if (inet_pton(AF_INET6, buf, n->addr) == 1) {
		n->family = AF_INET6;
		n->bits = 128;
		return (0);
	}
	return (-1);
}

/* "ADDR" or "ADDR/BITS" into n; the host bits must be zero. */
static int
trust_net(const char *s, struct trust_net *n)
{
	const char	*slash = strchr(s, '/');
	unsigned long	 bits;
	char		*end;
	int		 i;

	if (trust_addr(s, slash != NULL ? (size_t)(slash - s) : strlen(s),
	    n) != 0)
		return (-1);
	if (slash == NULL)
		return (0);
	if (slash[1] < '0' || slash[1] > '9')
		return (-1);
	bits = strtoul(slash + 1, &end, 10);
	if (*end != '\0' || bits > n->bits)
		return (-1);
	n->bits = (uint8_t)bits;
	for (i = (int)bits; i < (n->family == AF_INET ? 32 : 128); i++)
		if (n->addr[i / 8] & (0x80 >> (i % 8)))
			return (-1);
	return (0);
}

int
trust_parse(struct trust_list *l, const char *v, char **reason)
{
	struct trust_list	 new = { NULL, NULL, 0 };
	char			*copy = xstrdup(v), *s, *p = copy;

	while ((s = strsep(&p, ", \t")) != NULL) {
		if (*s == '\0')
			continue;
		new.nets = xreallocarray(new.nets, new.n + 1,
		    sizeof *new.nets);
		if (trust_net(s, &new.nets[new.n]) != 0) {
			xasprintf(reason, "'%s' is not an address or a "
			    "network (192.0.2.7, 10.0.0.0/8, 2001:db8::/32)", s);
			free(new.nets);
			free(copy);
			return (-1);
		}
		new.n++;
	}
	free(copy);
	trust_clear(l);
	if (new.n > 0) {
		new.text = xstrdup(v);
		*l = new;
	}
	return (0);
}

void
trust_clear(struct trust_list *l)
{
	free(l->text);
	free(l->nets);
	memset(l, 0, sizeof *l);
}

/* family and its address bytes into n, an IPv4-mapped IPv6 one as IPv4. */
static void
trust_norm(uint8_t family, const uint8_t *addr, struct trust_net *n)
{
	static const uint8_t	mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
				    0xff, 0xff };
	uint8_t			a[16];

	memcpy(a, addr, family == AF_INET ? 4 : 16);	/* addr may be n's */
	memset(n, 0, sizeof *n);
	n->family = family;
	if (family == AF_INET6 && memcmp(a, mapped, 12) == 0) {
		n->family = AF_INET;
		memcpy(n->addr, a + 12, 4);
	} else
		memcpy(n->addr, a, family == AF_INET ? 4 : 16);
}

static int
trust_match(const struct trust_list *l, const struct trust_net *a)
{
	const struct trust_net	*n;
	size_t			 i;
	int			 full, rest;

	for (i = 0; i < l->n; i++) {
		n = &l->nets[i];
		if (n->family != a->family)
			continue;
		full = n->bits / 8;
		rest = n->bits % 8;
		if (memcmp(n->addr, a->addr, (size_t)full) != 0)
			continue;
		if (rest == 0 || ((n->addr[full] ^ a->addr[full]) &
		    (0xff << (8 - rest)) & 0xff) == 0)
			return (1);
	}
	return (0);
}

int
trust_has(const struct trust_list *l, const struct remote_addr *a)
{
	struct trust_net	n;

	if (a->family != AF_INET && a->family != AF_INET6)
		return (0);
	trust_norm(a->family, a->addr, &n);
	return (trust_match(l, &n));
}

/* The address that ends at v + end (blanks trimmed): 0, -1 if none. */
static int
trust_item(const char *v, size_t start, size_t end, struct trust_net *n)
{
	while (start < end && (v[start] == ' ' || v[start] == '\t'))
		start++;
	while (end > start && (v[end - 1] == ' ' || v[end - 1] == '\t'))
		end--;
	if (trust_addr(v + start, end - start, n) != 0)
		return (-1);
	trust_norm(n->family, n->addr, n);
	return (0);
}

int
trust_xff(const struct trust_list *l, const char *v, size_t n,
    struct remote_addr *client)
{
	struct trust_net	 a, last;
	size_t			 end = n, start;
	int			 found = 0, all = 0;

	while (end > 0) {
		start = end;
		while (start > 0 && v[start - 1] != ',')
			start--;
		if (trust_item(v, start, end, &a) != 0)
			break;
		last = a;
		found = 1;
		if (!trust_match(l, &a))
			break;
		if (start == 0) {
			all = 1;
			break;
		}
		end = start - 1;
	}
	if (!found)
		return (-1);
	memset(client, 0, sizeof *client);
	client->family = last.family;
	memcpy(client->addr, last.addr, sizeof client->addr);
	return (all);
}
