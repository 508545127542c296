/* SPDX-License-Identifier: ISC */
/*
 * tls.h -- TLS for the tls and tls_proxy listeners, with OpenSSL 3.
 *
 * The context (certificate chain, key, CAs, protocols, ciphers) is made
 * from [tls] when a configuration is loaded, at start, with -n and on
 * SIGHUP, and belongs to that configuration: connections accepted under
 * it keep it (OpenSSL counts its references), new ones take the new one,
 * and a file that does not load fails the load as any bad configuration
 * does, so that a reload keeps what runs.
 *
 * The I/O calls never block and say what they wait for: a connection
 * reads and writes through them as it does through read(2) and
 * evbuffer_write(), into the same buffers (frame.c reads in place).
 */
#ifndef TLS_H
#define TLS_H

#include <sys/types.h>

#include <stddef.h>

struct config;
struct evbuffer;
struct ssl_st;
struct tls_ctx;

/*
 * cf's context, if it has a TLS listener: 0, or -1 with an allocated
 * "file: reason" (or "[tls]: reason") in *cause.
 */
int		 tls_load(struct config *cf, char **cause);
void		 tls_free(struct tls_ctx *);

/* A server side session for the accepted socket fd; NULL if no memory. */
struct ssl_st	*tls_session(const struct tls_ctx *, int fd);
void		 tls_session_free(struct ssl_st *);

/* What a call that could not finish waits for. */
#define TLS_WANT_READ	(-1)
#define TLS_WANT_WRITE	(-3)
#define TLS_FAILED	(-2)

/*
 * The handshake: 1 once done, TLS_WANT_READ or TLS_WANT_WRITE, or
 * TLS_FAILED with why it failed in why (a plaintext client is named).
 */
int		 tls_handshake(struct ssl_st *, char *why, size_t size);

/* Up to len bytes: how many, 0 at the client's close_notify or EOF,
 * TLS_WANT_READ, TLS_WANT_WRITE or TLS_FAILED. */
ssize_t		 tls_read(struct ssl_st *, char *buf, size_t len);

/*
 * Bytes a read will take at once, with no word from the socket: decrypted
 * and not read yet, or read from the socket and not decrypted yet (the
 * buffer a tls_proxy connection reads through, which holds what came
 * past the PROXY header and more).
 */
int		 tls_pending(const struct ssl_st *);

/*
 * As much of out as the socket takes, drained from it: the bytes sent
 * (>= 0), or TLS_WANT_WRITE / TLS_WANT_READ with none sent, or
 * TLS_FAILED.
 */
ssize_t		 tls_write(struct ssl_st *, struct evbuffer *out);

/* The end of the sending side: close_notify, sent if it can be. */
void		 tls_shutdown(struct ssl_st *);

/*
 * Has the client a (verified) certificate with one of names (separated
 * by commas or blanks) as its CN, a DNS name or an email address?
 */
int		 tls_allowed(const struct ssl_st *, const char *names);

/* The client certificate's subject, "" if none, into buf. */
void		 tls_subject(const struct ssl_st *, char *buf, size_t size);

#endif /* TLS_H */
