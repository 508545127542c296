/* SPDX-License-Identifier: ISC */
/*
 * proxy.h -- the PROXY protocol header a load balancer sends first
 * (HAProxy's send-proxy and send-proxy-v2; "The PROXY protocol",
 * versions 1 and 2, haproxy.org), naming the client it connects for.
 *
 * Pure: it looks at bytes and says what they are; conn.c reads them
 * from the socket and decides what to do.
 */
#ifndef PROXY_H
#define PROXY_H

#include <sys/types.h>
#include <sys/socket.h>

#include <stddef.h>
#include <stdint.h>

/*
 * Longest header accepted: a version 1 line is at most 107 bytes; a
 * version 2 header is 16 bytes, the addresses (at most 216, for Unix
 * sockets) and TLVs, which a load balancer may add (a unique id, SSL
 * details): 1 KiB is more than HAProxy sends, and bounds what a client
 * can make the server hold before it has said anything valid.
 */
#define PROXY_MAX	1024

enum proxy_result {
	PROXY_OK = 0,		/* a whole, valid header: see struct proxy */
	PROXY_MORE,		/* valid so far: more bytes are needed */
	PROXY_BAD		/* not a valid header: *why says how */
};

struct proxy {
	size_t			 len;	/* bytes of the header */
	int			 local;	/* LOCAL (v2), UNKNOWN (v1), or
					   an unspecified family: the
					   connection is the balancer's own */
	struct sockaddr_storage	 src;	/* the client, unless local */
	socklen_t		 srclen;
};

/*
 * Look at the first len bytes a connection sent.  On PROXY_OK *hdr
 * tells the header's length and the client's address; on PROXY_BAD
 * *why (static text) says what is wrong.  A header longer than
 * PROXY_MAX is PROXY_BAD, however valid its start.
 */
enum proxy_result proxy_parse(const uint8_t *p, size_t len,
		    struct proxy *hdr, const char **why);

/* Do these first bytes start a PROXY header of either version? */
int		proxy_looks_like(const uint8_t *p, size_t len);

#endif /* PROXY_H */
