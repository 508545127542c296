/* SPDX-License-Identifier: ISC */
/*
 * tls.c -- TLS with OpenSSL 3 (see tls.h).
 */
#include <sys/types.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "config.h"
#include "tls.h"

/* Most bytes given to one SSL_write(): one record. */
#define TLS_RECORD	16384

struct tls_ctx {
	SSL_CTX	*ctx;
};

/* "file: reason" of OpenSSL's first error, which is cleared. */
static int
tls_error(char **cause, const char *file, const char *what)
{
	unsigned long	 e = ERR_peek_error();
	const char	*r = ERR_reason_error_string(e);

	xasprintf(cause, "%s: %s", file, r != NULL ? r : what);
	ERR_clear_error();
	return (-1);
}

/* Does cf serve TLS anywhere? */
static int
tls_wanted(const struct config *cf)
{
	size_t	i;

	for (i = 0; i < cf->nlisten; i++)
		if (cf->listen[i].kind == LISTEN_TLS ||
		    cf->listen[i].kind == LISTEN_TLS_PROXIED ||
		    cf->listen[i].kind == LISTEN_HTTPS ||
		    cf->listen[i].kind == LISTEN_HTTPS_PROXIED)
			return (1);
	return (0);
}

/* Can path be read?  0, or -1 with "path: strerror" in *cause. */
static int
tls_readable(const char *path, char **cause)
{
	FILE	*f;

	if ((f = fopen(path, "r")) == NULL) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return (-1);
	}
	fclose(f);
	return (0);
}

/* Certificate, key and CAs into ctx; 0 or -1 with *cause. */
static int
tls_files(SSL_CTX *ctx, const struct config *cf, char **cause)
{
	STACK_OF(X509_NAME)	*names;

	if (tls_readable(cf->tls_cert, cause) != 0 ||
	    tls_readable(cf->tls_key, cause) != 0 ||
	    (cf->tls_ca != NULL && tls_readable(cf->tls_ca, cause) != 0))
		return (-1);
	if (SSL_CTX_use_certificate_chain_file(ctx, cf->tls_cert) != 1)
		return (tls_error(cause, cf->tls_cert, "not a certificate"));
	if (SSL_CTX_use_PrivateKey_file(ctx, cf->tls_key,
	    SSL_FILETYPE_PEM) != 1 &&
	    ERR_GET_REASON(ERR_peek_error()) != X509_R_KEY_VALUES_MISMATCH)
		return (tls_error(cause, cf->tls_key, "not a private key"));
	if (SSL_CTX_check_private_key(ctx) != 1) {
		ERR_clear_error();
		xasprintf(cause, "%s: not the key of %s", cf->tls_key,
		    cf->tls_cert);
		return (-1);
	}
	if (cf->tls_ca == NULL)
		return (0);
	if (SSL_CTX_load_verify_locations(ctx, cf->tls_ca, NULL) != 1 ||
	    (names = SSL_load_client_CA_file(cf->tls_ca)) == NULL)
		return (tls_error(cause, cf->tls_ca, "no CA certificate"));
	SSL_CTX_set_client_CA_list(ctx, names);
	return (0);
}

/* The protocols, ciphers and modes of cf; 0 or -1 with *cause. */
static int
tls_settings(SSL_CTX *ctx, const struct config *cf, char **cause)
{
	int	verify = SSL_VERIFY_NONE;

	if (SSL_CTX_set_min_proto_version(ctx, cf->tls_min) != 1 ||
	    SSL_CTX_set_cipher_list(ctx, cf->tls_ciphers) != 1) {
		ERR_clear_error();
		xasprintf(cause, "[tls] ciphers: no cipher of '%s' can be used",
		    cf->tls_ciphers);
		return (-1);
	}
	/*
	 * No renegotiation (a client's way to make the server work), no
	 * compression; the server's cipher order; a client that closes
	 * without close_notify is at its end, as a plain one (every reply
	 * is a whole line, so nothing is cut unseen).
	 */
	SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION |
	    SSL_OP_NO_COMPRESSION | SSL_OP_CIPHER_SERVER_PREFERENCE |
	    SSL_OP_IGNORE_UNEXPECTED_EOF);
	/* An idle connection keeps no 34 KiB of record buffers. */
	SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS |
	    SSL_MODE_ENABLE_PARTIAL_WRITE |
	    SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	if (cf->tls_verify != CONFIG_VERIFY_NONE)
		verify = SSL_VERIFY_PEER;
	if (cf->tls_verify == CONFIG_VERIFY_REQUIRE)
		verify |= SSL_VERIFY_FAIL_IF_NO_PEER_CERT;
	SSL_CTX_set_verify(ctx, verify, NULL);
	SSL_CTX_set_session_id_context(ctx, (const unsigned char *)"sudokud",
	    7);
	return (0);
}

int
tls_load(struct config *cf, char **cause)
{
	struct tls_ctx	*t;

	*cause = NULL;
	if (!tls_wanted(cf))
		return (0);
	if (cf->tls_cert == NULL || cf->tls_key == NULL) {
		xasprintf(cause, "a tls listener needs [tls] cert and key");
		return (-1);
	}
	if (cf->tls_allow != NULL && cf->tls_verify == CONFIG_VERIFY_NONE) {
		xasprintf(cause, "[tls] allow_names needs verify_client "
		    "optional or require");
		return (-1);
	}
	if (cf->tls_verify != CONFIG_VERIFY_NONE && cf->tls_ca == NULL) {
		xasprintf(cause, "[tls] verify_client %s needs ca",
		    cf->tls_verify == CONFIG_VERIFY_REQUIRE ? "require" :
		    "optional");
		return (-1);
	}
	t = xcalloc(1, sizeof *t);
	if ((t->ctx = SSL_CTX_new(TLS_server_method())) == NULL)
		fatalx("%s: SSL_CTX_new failed", __func__);
	if (tls_settings(t->ctx, cf, cause) != 0 ||
	    tls_files(t->ctx, cf, cause) != 0) {
		tls_free(t);
		return (-1);
	}
	cf->tls = t;
	return (0);
}

void
tls_free(struct tls_ctx *t)
{
	if (t == NULL)
		return;
	SSL_CTX_free(t->ctx);
	free(t);
}

SSL *
tls_session(const struct tls_ctx *t, int fd)
{
	SSL	*ssl;

	if ((ssl = SSL_new(t->ctx)) == NULL)
		return (NULL);
	if (SSL_set_fd(ssl, fd) != 1) {
		SSL_free(ssl);
		return (NULL);
	}
	return (ssl);
}

void
tls_session_free(SSL *ssl)
{
	SSL_free(ssl);
}

/* A call's result r as TLS_WANT_* or TLS_FAILED (the queue cleared). */
static int
tls_want(SSL *ssl, int r)
{
	switch (SSL_get_error(ssl, r)) {
	case SSL_ERROR_WANT_READ:
		return (TLS_WANT_READ);
	case SSL_ERROR_WANT_WRITE:
		return (TLS_WANT_WRITE);
	case SSL_ERROR_ZERO_RETURN:
		return (0);
	default:
		ERR_clear_error();
		return (TLS_FAILED);
	}
}

int
tls_handshake(SSL *ssl, char *why, size_t size)
{
	unsigned long	 e;
	const char	*r;
	int		 n, w;

	if ((n = SSL_accept(ssl)) == 1)
		return (1);
	w = SSL_get_error(ssl, n);
	if (w == SSL_ERROR_WANT_READ || w == SSL_ERROR_WANT_WRITE)
		return (w == SSL_ERROR_WANT_READ ? TLS_WANT_READ :
		    TLS_WANT_WRITE);
	e = ERR_peek_error();
	r = ERR_reason_error_string(e);
	if (ERR_GET_LIB(e) == ERR_LIB_SSL &&
	    (ERR_GET_REASON(e) == SSL_R_HTTP_REQUEST ||
	    ERR_GET_REASON(e) == SSL_R_WRONG_VERSION_NUMBER))
		snprintf(why, size, "not a TLS handshake (a client speaking "
		    "plaintext?): %s", r);
	else if (e == 0)
		snprintf(why, size, "the client closed during the handshake");
	else
		snprintf(why, size, "%s", r != NULL ? r : "failed");
	ERR_clear_error();
	return (TLS_FAILED);
}

ssize_t
tls_read(SSL *ssl, char *buf, size_t len)
{
	int	n;

	if (len > INT32_MAX)
		len = INT32_MAX;
	if ((n = SSL_read(ssl, buf, (int)len)) > 0)
		return (n);
	return (tls_want(ssl, n));
}

/*
 * Not SSL_has_pending(): it stays true while OpenSSL holds part of a
 * record, which no read can finish (the daemon would spin).  The buffer
 * under SSL gives a read all it has before it asks the socket, so what
 * it holds is always taken.
 */
int
tls_pending(const SSL *ssl)
{
	return (SSL_pending(ssl) > 0 || BIO_pending(SSL_get_rbio(ssl)) > 0);
}

ssize_t
tls_write(SSL *ssl, struct evbuffer *out)
{
	struct evbuffer_iovec	 v;
	ssize_t			 sent = 0;
	size_t			 len;
	int			 n;

	while (evbuffer_peek(out, -1, NULL, &v, 1) > 0 && v.iov_len > 0) {
		len = v.iov_len < TLS_RECORD ? v.iov_len : TLS_RECORD;
		if ((n = SSL_write(ssl, v.iov_base, (int)len)) <= 0) {
			if (sent > 0)
				break;
			n = tls_want(ssl, n);
			return (n == 0 ? TLS_FAILED : n);
		}
		evbuffer_drain(out, (size_t)n);
		sent += n;
	}
	return (sent);
}

void
tls_shutdown(SSL *ssl)
{
	if (SSL_shutdown(ssl) < 0)
		ERR_clear_error();
}

void
tls_subject(const SSL *ssl, char *buf, size_t size)
{
	X509	*x;
	BIO	*b;
	char	*p;
	long	 n;
	size_t	 i, j = 0;

	buf[0] = '\0';
	if ((x = SSL_get0_peer_certificate(ssl)) == NULL ||
	    (b = BIO_new(BIO_s_mem())) == NULL)
		return;
	/* RFC 2253, multi-byte characters escaped: 7-bit text. */
	X509_NAME_print_ex(b, X509_get_subject_name(x), 0, XN_FLAG_RFC2253);
	n = BIO_get_mem_data(b, &p);
	/* A blank would end CLIENT LIST's field: \20, as RFC 4514 has it. */
	for (i = 0; i < (size_t)n && j + 4 < size; i++) {
		if (p[i] == ' ') {
			memcpy(buf + j, "\\20", 3);
			j += 3;
		} else if (p[i] > ' ' && p[i] < 0x7f)
			buf[j++] = p[i];
	}
	buf[j] = '\0';
	BIO_free(b);
}

int
tls_allowed(const SSL *ssl, const char *names)
{
	X509	*x;
	char	*copy, *s, *p;
	int	 ok = 0;

	if ((x = SSL_get0_peer_certificate(ssl)) == NULL)
		return (0);
	p = copy = xstrdup(names);
	while (!ok && (s = strsep(&p, ", \t")) != NULL)
		ok = *s != '\0' && (X509_check_host(x, s, 0, 0, NULL) == 1 ||
		    X509_check_email(x, s, 0, 0) == 1);
	free(copy);
	return (ok);
}
