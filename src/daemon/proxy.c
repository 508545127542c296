/* SPDX-License-Identifier: ISC */
/*
 * proxy.c -- parse the PROXY protocol header, versions 1 and 2.
 *
 * Version 1 is one line: "PROXY TCP4 1.2.3.4 5.6.7.8 111 222\r\n", TCP6
 * with IPv6 addresses, or "PROXY UNKNOWN ...\r\n"; at most 107 bytes.
 * Version 2 is binary: a 12-byte signature, a version and command byte
 * (0x20 LOCAL, 0x21 PROXY), a family and transport byte, the length of
 * what follows (16 bits, big-endian), the addresses and ports in network
 * order, then optional TLVs, which are skipped.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <stdint.h>
#include <string.h>

#include "proxy.h"

#define PROXY_V1_MAX	107
#define PROXY_V2_HEAD	16

static const uint8_t proxy_v2_sig[12] = {
	0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a
};

int
proxy_looks_like(const uint8_t *p, size_t len)
{
	size_t	n;

	n = len < sizeof proxy_v2_sig ? len : sizeof proxy_v2_sig;
	if (n > 0 && memcmp(p, proxy_v2_sig, n) == 0)
		return (1);
	n = len < 6 ? len : 6;
	return (n > 0 && memcmp(p, "PROXY ", n) == 0);
}

/* A port: 1 to 5 digits, no leading zero, at most 65535. */
static int
proxy_port(const char *s, size_t len, uint16_t *port)
{
	unsigned long	v = 0;
	size_t		i;

	if (len == 0 || len > 5 || (len > 1 && s[0] == '0'))
		return (-1);
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return (-1);
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (v > 65535)
		return (-1);
	*port = (uint16_t)v;
	return (0);
}

/* The next space-separated field of a v1 line, into buf (NUL-ended). */
static const char *
proxy_field(const char *s, const char *end, char *buf, size_t size,
    size_t *len)
{
	const char	*sp = memchr(s, ' ', (size_t)(end - s));

	*len = (size_t)((sp != NULL ? sp : end) - s);
	if (*len >= size)
		return (NULL);
	memcpy(buf, s, *len);
	buf[*len] = '\0';
	return (sp != NULL ? sp + 1 : end);
}

/* "TCP4 src dst sport dport" (the text between "PROXY " and CRLF). */
static enum proxy_result
proxy_v1_addrs(const char *s, const char *end, struct proxy *hdr,
    const char **why)
{
	char		 fam[8], src[64], dst[64], sport[8], dport[8];
	size_t		 n;
	uint16_t	 port, dummy;
	int		 v6;
	struct sockaddr_in	*sin = (struct sockaddr_in *)&hdr->src;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)&hdr->src;
	struct in6_addr		 a6;

	if ((s = proxy_field(s, end, fam, sizeof fam, &n)) == NULL)
		goto bad;
	if (strcmp(fam, "UNKNOWN") == 0) {
		hdr->local = 1;
		return (PROXY_OK);
	}
	if (strcmp(fam, "TCP4") != 0 && strcmp(fam, "TCP6") != 0)
		goto bad;
	v6 = fam[3] == '6';
	if ((s = proxy_field(s, end, src, sizeof src, &n)) == NULL ||
	    (s = proxy_field(s, end, dst, sizeof dst, &n)) == NULL ||
	    (s = proxy_field(s, end, sport, sizeof sport, &n)) == NULL ||
	    proxy_port(sport, n, &port) != 0 ||
	    (s = proxy_field(s, end, dport, sizeof dport, &n)) == NULL ||
	    proxy_port(dport, n, &dummy) != 0 || s != end || end[-1] == ' ')
		goto bad;	/* end[-1] == ' ': a space after the last port */
	memset(&hdr->src, 0, sizeof hdr->src);
	if (v6) {
		if (inet_pton(AF_INET6, src, &sin6->sin6_addr) != 1 ||
		    inet_pton(AF_INET6, dst, &a6) != 1)
			goto bad;
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		hdr->srclen = sizeof *sin6;
	} else {
		if (inet_pton(AF_INET, src, &sin->sin_addr) != 1 ||
		    inet_pton(AF_INET, dst, &a6) != 1)
			goto bad;
		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		hdr->srclen = sizeof *sin;
	}
	return (PROXY_OK);
bad:
	*why = "malformed PROXY v1 header";
	return (PROXY_BAD);
}

static enum proxy_result
proxy_v1(const uint8_t *p, size_t len, struct proxy *hdr, const char **why)
{
	const uint8_t	*cr, *q;
	size_t		 n;

	/* The CR may be at most the 106th byte: its LF is the 107th. */
	n = len < PROXY_V1_MAX - 1 ? len : PROXY_V1_MAX - 1;
	if ((cr = memchr(p, '\r', n)) == NULL) {
		if (len >= PROXY_V1_MAX - 1 || memchr(p, '\n', n) != NULL) {
			*why = "PROXY v1 header without CRLF within 107 bytes";
			return (PROXY_BAD);
		}
		return (PROXY_MORE);
	}
	if (memchr(p, '\n', (size_t)(cr - p)) != NULL) {
		*why = "PROXY v1 header without CRLF within 107 bytes";
		return (PROXY_BAD);
	}
	if ((size_t)(cr - p) + 1 == len)
		return (PROXY_MORE);
	if (cr[1] != '\n') {
		*why = "PROXY v1 header without CRLF within 107 bytes";
		return (PROXY_BAD);
	}
	/*
	 * The line is US-ASCII text: a NUL or a control byte would end or
	 * split a field copied into a C string ("1.2.3.4\0" read as
	 * 1.2.3.4), so one anywhere makes the header malformed.
	 */
	for (q = p; q < cr; q++)
		if (*q < 0x20 || *q > 0x7e) {
			*why = "malformed PROXY v1 header";
			return (PROXY_BAD);
		}
	hdr->len = (size_t)(cr - p) + 2;
	return (proxy_v1_addrs((const char *)p + 6, (const char *)cr, hdr,
	    why));
}

/* The v2 address block for fam (the high nibble of byte 13). */
static enum proxy_result
proxy_v2_addrs(int fam, const uint8_t *a, size_t alen, struct proxy *hdr,
    const char **why)
{
	struct sockaddr_in	*sin = (struct sockaddr_in *)&hdr->src;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)&hdr->src;

	memset(&hdr->src, 0, sizeof hdr->src);
	if (fam == 0x1 && alen >= 12) {
		sin->sin_family = AF_INET;
		memcpy(&sin->sin_addr, a, 4);
		memcpy(&sin->sin_port, a + 8, 2);
		hdr->srclen = sizeof *sin;
	} else if (fam == 0x2 && alen >= 36) {
		sin6->sin6_family = AF_INET6;
		memcpy(&sin6->sin6_addr, a, 16);
		memcpy(&sin6->sin6_port, a + 32, 2);
		hdr->srclen = sizeof *sin6;
	} else if (fam == 0x3 && alen >= 216) {
		hdr->local = 1;		/* a Unix client: nothing to name */
	} else if (fam == 0x0) {
		hdr->local = 1;
	} else {
		*why = "PROXY v2 addresses too short or of no known family";
		return (PROXY_BAD);
	}
	return (PROXY_OK);
}

static enum proxy_result
proxy_v2(const uint8_t *p, size_t len, struct proxy *hdr, const char **why)
{
	size_t	body;

	if (len < PROXY_V2_HEAD)
		return (PROXY_MORE);
	if ((p[12] & 0xf0) != 0x20 || (p[12] & 0x0f) > 0x1) {
		*why = "PROXY v2 header of an unknown version or command";
		return (PROXY_BAD);
	}
	body = (size_t)p[14] << 8 | p[15];
	if (PROXY_V2_HEAD + body > PROXY_MAX) {
		*why = "PROXY v2 header longer than 1 KiB";
		return (PROXY_BAD);
	}
	if (len < PROXY_V2_HEAD + body)
		return (PROXY_MORE);
	hdr->len = PROXY_V2_HEAD + body;
	if ((p[12] & 0x0f) == 0x0) {	/* LOCAL: a health check */
		hdr->local = 1;
		return (PROXY_OK);
	}
	/*
	 * This is a stream listener: the client's connection was a stream
	 * (0x1), or of an unspecified protocol (0x0, addresses ignored as
	 * the specification says); a datagram (0x2) cannot have come here.
	 */
	switch (p[13] & 0x0f) {
	case 0x0:
		hdr->local = 1;
		return (PROXY_OK);
	case 0x1:
		return (proxy_v2_addrs(p[13] >> 4, p + PROXY_V2_HEAD, body,
		    hdr, why));
	case 0x2:
		*why = "PROXY v2 header of a datagram (UDP) connection on a "
		    "stream listener";
		return (PROXY_BAD);
	default:
		*why = "PROXY v2 header of an unknown transport";
		return (PROXY_BAD);
	}
}

enum proxy_result
proxy_parse(const uint8_t *p, size_t len, struct proxy *hdr,
    const char **why)
{
	memset(hdr, 0, sizeof *hdr);
	*why = NULL;
	if (len == 0)
		return (PROXY_MORE);
	if (!proxy_looks_like(p, len)) {
		*why = "this listener expects a PROXY protocol header (from a "
		    "load balancer); use a tcp listener for direct clients";
		return (PROXY_BAD);
	}
	if (len < 6 || (len < sizeof proxy_v2_sig && p[0] == 0x0d))
		return (PROXY_MORE);
	if (p[0] == 'P')
		return (proxy_v1(p, len, hdr, why));
	return (proxy_v2(p, len, hdr, why));
}
