/* SPDX-License-Identifier: ISC */
/*
 * peer_tls.h -- TLS on one of sudokuc's connections to a TCP server:
 * the context of the TLS servers, the handshake without blocking, reads
 * and writes as read(2) and send(2) do, and what a failure was in words.
 */
#ifndef PEER_TLS_H
#define PEER_TLS_H

#include <sys/types.h>

#include "peer.h"

struct ssl_ctx_st;

/*
 * The context of the TLS servers: TLS 1.2 at least, the server's chain
 * verified against the CAs of ca (the system's store if NULL), and the
 * client certificate cert with its key (both or neither); NULL with
 * *cause ("--ca FILE: reason").  ca is kept: it must outlive the context.
 */
struct ssl_ctx_st *peer_tls_context(const char *ca, const char *cert,
		    const char *key, char **cause);
/* One more reference to it (each endpoint holds one), or one less. */
void		 peer_tls_hold(struct ssl_ctx_st *);
void		 peer_tls_release(struct ssl_ctx_st *);

/*
 * The TCP connection of w is up: start the handshake, with the server's
 * name checked (its address, for an IP literal) and sent (SNI).  As
 * peer_tls_handshake().
 */
int		 peer_tls_start(struct peer *, char **cause);
/*
 * A step of the handshake: 0 done, 1 in progress (poll for w->tlswant),
 * -1 failed (*cause: why, to try again later), -2 refused for good
 * (*cause: "NAME: TLS: why", the server to set aside).
 */
int		 peer_tls_handshake(struct peer *, char **cause);
/*
 * As read(2) and send(2); -1 with errno EAGAIN to wait, or EPROTO for
 * a TLS error (then w->refusal says it, "NAME: TLS: why").
 */
ssize_t		 peer_tls_read(struct peer *, void *, size_t);
ssize_t		 peer_tls_write(struct peer *, const void *, size_t);
/* Bytes decrypted and not read yet: no poll(2) will say so. */
int		 peer_tls_pending(const struct peer *);
/* Says goodbye (once, without waiting) and frees w's TLS. */
void		 peer_tls_close(struct peer *);

#endif /* PEER_TLS_H */
