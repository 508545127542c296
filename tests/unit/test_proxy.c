/* SPDX-License-Identifier: ISC */
/*
 * test_proxy.c -- proxy_parse(), the PROXY protocol header, against the
 * protocol's own description (haproxy.org, "The PROXY protocol",
 * versions 1 and 2): every well-formed kind, and every malformed,
 * truncated and oversized form.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "daemon/proxy.h"

static const uint8_t sig[12] = {
	0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a
};

static enum proxy_result
parse(const void *p, size_t len, struct proxy *hdr)
{
	const char	*why;
	enum proxy_result r = proxy_parse(p, len, hdr, &why);

	if (r == PROXY_BAD)
		assert_non_null(why);
	return (r);
}

/* The client of a header, as "ADDR:PORT". */
static void
client(const struct proxy *hdr, char *buf, size_t size)
{
	const struct sockaddr_in	*sin = (const void *)&hdr->src;
	const struct sockaddr_in6	*sin6 = (const void *)&hdr->src;
	char				 a[64];

	if (hdr->src.ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &sin6->sin6_addr, a, sizeof a);
		snprintf(buf, size, "[%s]:%u", a, ntohs(sin6->sin6_port));
	} else {
		inet_ntop(AF_INET, &sin->sin_addr, a, sizeof a);
		snprintf(buf, size, "%s:%u", a, ntohs(sin->sin_port));
	}
}

static void
v1_ok(const char *line, const char *want)
{
	struct proxy	hdr;
	char		buf[128];
	size_t		n = strlen(line), i;

	/* Every proper prefix needs more; the whole is one header. */
	for (i = 0; i < n; i++)
		assert_int_equal(parse(line, i, &hdr), PROXY_MORE);
	assert_int_equal(parse(line, n, &hdr), PROXY_OK);
	assert_int_equal(hdr.len, n);
	if (want == NULL) {
		assert_true(hdr.local);
		return;
	}
	assert_false(hdr.local);
	client(&hdr, buf, sizeof buf);
	assert_string_equal(buf, want);
	/* Bytes after it are the client's first request, not the header's. */
	snprintf(buf, sizeof buf, "%sPING\n", line);
	assert_int_equal(parse(buf, strlen(buf), &hdr), PROXY_OK);
	assert_int_equal(hdr.len, n);
}

static void
t_v1_good(void **state)
{
	(void)state;
	v1_ok("PROXY TCP4 203.0.113.7 192.0.2.1 51000 7999\r\n",
	    "203.0.113.7:51000");
	v1_ok("PROXY TCP6 2001:db8::7 2001:db8::1 65535 7999\r\n",
	    "[2001:db8::7]:65535");
	v1_ok("PROXY TCP4 10.0.0.1 10.0.0.2 0 1\r\n", "10.0.0.1:0");
	v1_ok("PROXY UNKNOWN\r\n", NULL);
	v1_ok("PROXY UNKNOWN ffff::1 ffff::2 1 2\r\n", NULL);
}

static void
v1_bad(const char *line)
{
	struct proxy	hdr;

	if (parse(line, strlen(line), &hdr) != PROXY_BAD)
		fail_msg("accepted: %s", line);
}

/* A malformed line of len bytes, which may hold a NUL. */
static void
v1_badn(const char *line, size_t len)
{
	struct proxy	hdr;
	const char	*why;

	if (proxy_parse((const uint8_t *)line, len, &hdr, &why) != PROXY_BAD)
		fail_msg("accepted: %.*s", (int)len, line);
	assert_string_equal(why, "malformed PROXY v1 header");
}
#define V1_BADN(s)	v1_badn(s, sizeof s - 1)

/*
 * The line is US-ASCII text (the specification's word), its fields
 * single-space separated: a NUL, another control byte or a byte past
 * 0x7e anywhere, or a space after the last port, is malformed; so is a
 * NUL after UNKNOWN, whose other bytes are ignored.
 */
static void
t_v1_bytes(void **state)
{
	(void)state;
	V1_BADN("PROXY TCP4 1.2.3.4\0 5.6.7.8 1 2\r\n");
	V1_BADN("PROXY TCP4 1.2.3.4 5.6.7.8\0 1 2\r\n");
	V1_BADN("PROXY TCP4\0 1.2.3.4 5.6.7.8 1 2\r\n");
	V1_BADN("PROXY TCP6 ::1\0 ::2 1 2\r\n");
	V1_BADN("PROXY UNKNOWN\0\r\n");
	V1_BADN("PROXY UNKNOWN ffff::1\x01 ffff::2 1 2\r\n");
	V1_BADN("PROXY UNKNOWN caf\xc3\xa9\r\n");
	V1_BADN("PROXY TCP4 1.2.3.4 5.6.7.8 1 2 \r\n");
	V1_BADN("PROXY TCP4 1.2.3.4\t5.6.7.8 1 2\r\n");
	V1_BADN("PROXY TCP4 1.2.3.4 5.6.7.8 1 2\x7f\r\n");
	/* Spaces after UNKNOWN are still bytes to ignore. */
	v1_ok("PROXY UNKNOWN \r\n", NULL);
}

static void
t_v1_bad(void **state)
{
	char	longline[200];

	(void)state;
	v1_bad("PROXY TCP5 1.2.3.4 5.6.7.8 1 2\r\n");
	v1_bad("PROXY TCP4 1.2.3.4 5.6.7.8 1\r\n");
	v1_bad("PROXY TCP4 1.2.3.4 5.6.7.8 1 2 3\r\n");
	v1_bad("PROXY TCP4 1.2.3 5.6.7.8 1 2\r\n");
	v1_bad("PROXY TCP4 ::1 5.6.7.8 1 2\r\n");
	v1_bad("PROXY TCP6 1.2.3.4 ::1 1 2\r\n");
	v1_bad("PROXY TCP4 1.2.3.4 5.6.7.8 65536 2\r\n");
	v1_bad("PROXY TCP4 1.2.3.4 5.6.7.8 01 2\r\n");
	v1_bad("PROXY TCP4 1.2.3.4 5.6.7.8 1a 2\r\n");
	v1_bad("PROXY TCP4  1.2.3.4 5.6.7.8 1 2\r\n");
	v1_bad("PROXY TCP4 1.2.3.4 5.6.7.8 1 2\n");
	v1_bad("PROXY TCP4 1.2.3.4 5.6.7.8 1 2\rX");
	v1_bad("PROXY \n Q\f\n\r");		/* an LF before the CR */
	v1_bad("PROXY \r\n");
	v1_bad("PROXY\r\n");
	v1_bad("PING\n");
	v1_bad("proxy TCP4 1.2.3.4 5.6.7.8 1 2\r\n");
	/* No CRLF within 107 bytes. */
	memset(longline, 'x', sizeof longline);
	memcpy(longline, "PROXY UNKNOWN ", 14);
	longline[sizeof longline - 1] = '\0';
	v1_bad(longline);
	longline[107] = '\0';
	v1_bad(longline);
}

/* The longest v1 line is 107 bytes, CRLF included; 108 is too long. */
static void
t_v1_max(void **state)
{
	struct proxy	hdr;
	char		line[128];
	size_t		n;

	(void)state;
	for (n = 106; n <= 109; n++) {
		memset(line, 'x', sizeof line);
		memcpy(line, "PROXY UNKNOWN ", 14);
		memcpy(line + n - 2, "\r\n", 2);
		if (n <= 107) {
			assert_int_equal(parse(line, n, &hdr), PROXY_OK);
			assert_int_equal(hdr.len, n);
		} else
			assert_int_equal(parse(line, n, &hdr), PROXY_BAD);
	}
	/* 106 bytes and no CR yet: the CRLF can no longer fit. */
	memset(line, 'x', sizeof line);
	memcpy(line, "PROXY UNKNOWN ", 14);
	assert_int_equal(parse(line, 105, &hdr), PROXY_MORE);
	assert_int_equal(parse(line, 106, &hdr), PROXY_BAD);
}

/* A v2 header: cmd (0 LOCAL, 1 PROXY), fam byte, body of len bytes. */
static size_t
v2(uint8_t *buf, int cmd, int fam, const uint8_t *body, size_t len)
{
	memcpy(buf, sig, sizeof sig);
	buf[12] = (uint8_t)(0x20 | cmd);
	buf[13] = (uint8_t)fam;
	buf[14] = (uint8_t)(len >> 8);
	buf[15] = (uint8_t)len;
	if (len > 0)
		memcpy(buf + 16, body, len);
	return (16 + len);
}

static void
t_v2_good(void **state)
{
	uint8_t		buf[2048], body[256];
	struct proxy	hdr;
	char		who[128];
	size_t		n, i;

	(void)state;
	/* IPv4 over TCP, with a TLV after the addresses. */
	memset(body, 0, sizeof body);
	inet_pton(AF_INET, "198.51.100.9", body);
	inet_pton(AF_INET, "192.0.2.1", body + 4);
	body[8] = 0xc3;	/* 50000 */
	body[9] = 0x50;
	body[10] = 0x1f;
	body[11] = 0x3f;
	memcpy(body + 12, "\x05\x00\x03xyz", 6);	/* PP2_TYPE_UNIQUE_ID */
	n = v2(buf, 1, 0x11, body, 18);
	for (i = 0; i < n; i++)
		assert_int_equal(parse(buf, i, &hdr), PROXY_MORE);
	assert_int_equal(parse(buf, n, &hdr), PROXY_OK);
	assert_int_equal(hdr.len, n);
	assert_false(hdr.local);
	client(&hdr, who, sizeof who);
	assert_string_equal(who, "198.51.100.9:50000");
	/* IPv6. */
	memset(body, 0, sizeof body);
	inet_pton(AF_INET6, "2001:db8::9", body);
	inet_pton(AF_INET6, "2001:db8::1", body + 16);
	body[32] = 0x00;
	body[33] = 0x50;
	n = v2(buf, 1, 0x21, body, 36);
	assert_int_equal(parse(buf, n, &hdr), PROXY_OK);
	client(&hdr, who, sizeof who);
	assert_string_equal(who, "[2001:db8::9]:80");
	/* LOCAL (a health check), UNSPEC and Unix: served as local. */
	n = v2(buf, 0, 0x00, NULL, 0);
	assert_int_equal(parse(buf, n, &hdr), PROXY_OK);
	assert_true(hdr.local);
	n = v2(buf, 0, 0x11, body, 12);		/* LOCAL with addresses */
	assert_int_equal(parse(buf, n, &hdr), PROXY_OK);
	assert_true(hdr.local && hdr.len == n);
	n = v2(buf, 1, 0x00, NULL, 0);
	assert_int_equal(parse(buf, n, &hdr), PROXY_OK);
	assert_true(hdr.local);
	n = v2(buf, 1, 0x10, body, 12);		/* IPv4, unspecified: ignored */
	assert_int_equal(parse(buf, n, &hdr), PROXY_OK);
	assert_true(hdr.local);
	memset(body, 'u', 216);
	n = v2(buf, 1, 0x31, body, 216);
	assert_int_equal(parse(buf, n, &hdr), PROXY_OK);
	assert_true(hdr.local);
}

static void
v2_bad(const uint8_t *buf, size_t n, const char *what)
{
	struct proxy	hdr;

	if (parse(buf, n, &hdr) != PROXY_BAD)
		fail_msg("accepted: %s", what);
}

static void
t_v2_bad(void **state)
{
	uint8_t		buf[2048], body[1100];
	size_t		n;

	(void)state;
	memset(body, 0, sizeof body);
	n = v2(buf, 1, 0x11, body, 12);
	buf[12] = 0x11;				/* version 1 nibble */
	v2_bad(buf, n, "version 1 in a v2 header");
	buf[12] = 0x22;				/* command 2 */
	v2_bad(buf, n, "unknown command");
	n = v2(buf, 1, 0x11, body, 11);		/* IPv4 needs 12 */
	v2_bad(buf, n, "short IPv4 addresses");
	n = v2(buf, 1, 0x21, body, 35);		/* IPv6 needs 36 */
	v2_bad(buf, n, "short IPv6 addresses");
	n = v2(buf, 1, 0x31, body, 215);	/* Unix needs 216 */
	v2_bad(buf, n, "short Unix addresses");
	n = v2(buf, 1, 0x41, body, 12);		/* family 4 */
	v2_bad(buf, n, "unknown family");
	n = v2(buf, 1, 0x13, body, 12);		/* transport 3 */
	v2_bad(buf, n, "unknown transport");
	n = v2(buf, 1, 0x12, body, 12);		/* IPv4 over UDP */
	v2_bad(buf, n, "a datagram on a stream listener");
	n = v2(buf, 1, 0x22, body, 36);		/* IPv6 over UDP */
	v2_bad(buf, n, "a datagram on a stream listener");
	n = v2(buf, 1, 0x11, body, 1024 - 16 + 1);
	v2_bad(buf, 16, "over 1 KiB, announced");
	v2_bad(buf, n, "over 1 KiB");
	n = v2(buf, 1, 0x11, body, 1024 - 16);	/* exactly 1 KiB: fine */
	{
		struct proxy	hdr;

		assert_int_equal(parse(buf, n, &hdr), PROXY_OK);
	}
	memcpy(buf, sig, 12);
	buf[3] = 0x0b;				/* a wrong signature byte */
	v2_bad(buf, 16, "bad signature");
}

static void
t_looks_like(void **state)
{
	struct proxy	hdr;

	(void)state;
	assert_true(proxy_looks_like((const uint8_t *)"P", 1));
	assert_true(proxy_looks_like((const uint8_t *)"PROXY TCP4", 10));
	assert_false(proxy_looks_like((const uint8_t *)"PING\n", 5));
	assert_true(proxy_looks_like(sig, 5));
	assert_false(proxy_looks_like((const uint8_t *)"\r\n\r\nX", 5));
	assert_int_equal(parse("", 0, &hdr), PROXY_MORE);
	assert_int_equal(parse("PROX", 4, &hdr), PROXY_MORE);
	assert_int_equal(parse(sig, 11, &hdr), PROXY_MORE);
	assert_int_equal(parse("GET / HTTP/1.1\r\n", 16, &hdr), PROXY_BAD);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_v1_good),
		cmocka_unit_test(t_v1_bad),
		cmocka_unit_test(t_v1_bytes),
		cmocka_unit_test(t_v1_max),
		cmocka_unit_test(t_v2_good),
		cmocka_unit_test(t_v2_bad),
		cmocka_unit_test(t_looks_like),
	};

	return (cmocka_run_group_tests_name("proxy", tests, NULL, NULL));
}
