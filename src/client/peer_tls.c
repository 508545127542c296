/* SPDX-License-Identifier: ISC */
/*
 * peer_tls.c -- TLS on one of sudokuc's connections to a TCP server.
 *
 * OpenSSL on the connection's non-blocking socket: the handshake goes a
 * step each time poll(2) says the socket is ready for what it waits for,
 * under the connect timeout; then reads and writes take the place of
 * read(2) and send(2), so that the framing, the queues and the resends of
 * peer.c and batch.c are the same over TLS.  The write buffer may move
 * and grow between a write that has to wait and its retry
 * (SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER); a server's end of stream
 * without close_notify is an end of stream, as over TCP.
 *
 * A failure the server will repeat on every connection (its certificate
 * not verified, a client certificate refused, no TLS at all) is told in
 * words, naming the server, for the batch to set it aside.
 */
#include <arpa/inet.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "common/xmalloc.h"
#include "peer_tls.h"

/*
 * What the verification of the server's certificate found, in words: a
 * name, then what it means (followed by the CAs' file, or the server's
 * name).
 */
static const struct {
	long		 code;
	const char	*what;
	const char	*detail;
} peer_tls_verify[] = {
	{ X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, "unknown CA",
	  "the server's certificate is signed by no CA of " },
	{ X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, "unknown CA",
	  "the server's certificate is signed by no CA of " },
	{ X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, "unknown CA",
	  "the server's certificate is signed by no CA of " },
	{ X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, "unknown CA",
	  "the server's certificate is self-signed, not by a CA of " },
	{ X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN, "unknown CA",
	  "the server's chain ends at a CA not of " },
	{ X509_V_ERR_HOSTNAME_MISMATCH, "name mismatch",
	  "the server's certificate is not for " },
	{ X509_V_ERR_IP_ADDRESS_MISMATCH, "name mismatch",
	  "the server's certificate is not for " },
	{ X509_V_ERR_CERT_HAS_EXPIRED, "expired",
	  "the server's certificate has expired" },
	{ X509_V_ERR_CERT_NOT_YET_VALID, "not yet valid",
	  "the server's certificate is not valid yet" }
};

/* The errors of a handshake that are not the server's certificate. */
static const struct {
	int		 reason;
	const char	*what;
} peer_tls_reasons[] = {
	{ SSL_R_WRONG_VERSION_NUMBER, "the server does not speak TLS (is it "
	    "a plain port? try without --tls or tls://)" },
	{ SSL_R_PACKET_LENGTH_TOO_LONG, "the server does not speak TLS (is "
	    "it a plain port? try without --tls or tls://)" },
	{ SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED, "refused by the server: "
	    "it requires a client certificate (--cert FILE --key FILE)" },
	{ SSL_R_SSLV3_ALERT_HANDSHAKE_FAILURE, "refused by the server: "
	    "handshake failure (does it require a client certificate? "
	    "--cert FILE --key FILE)" },
	{ SSL_R_TLSV1_ALERT_UNKNOWN_CA, "refused by the server: it does not "
	    "know the CA of the client certificate" },
	{ SSL_R_SSLV3_ALERT_BAD_CERTIFICATE, "refused by the server: it does "
	    "not accept the client certificate" },
	{ SSL_R_TLSV1_ALERT_PROTOCOL_VERSION, "refused by the server: no "
	    "TLS version in common (sudokuc speaks TLS 1.2 and 1.3)" }
};

/* "what FILE: reason" of OpenSSL's first error, which is cleared. */
static void *
peer_tls_error(char **cause, const char *what, const char *file,
    const char *why)
{
	const char	*r = ERR_reason_error_string(ERR_peek_error());

	xasprintf(cause, "%s %s: %s", what, file, r != NULL ? r : why);
	ERR_clear_error();
	return (NULL);
}

/* Can path be read?  0, or -1 with "what path: strerror" in *cause. */
static int
peer_tls_readable(const char *what, const char *path, char **cause)
{
	FILE	*f;

	if ((f = fopen(path, "r")) == NULL) {
		xasprintf(cause, "%s %s: %s", what, path, strerror(errno));
		return (-1);
	}
	fclose(f);
	return (0);
}

/* The client certificate and its key into ctx; 0, or -1 with *cause. */
static int
peer_tls_identity(SSL_CTX *ctx, const char *cert, const char *key,
    char **cause)
{
	if (peer_tls_readable("--cert", cert, cause) == -1 ||
	    peer_tls_readable("--key", key, cause) == -1)
		return (-1);
	if (SSL_CTX_use_certificate_chain_file(ctx, cert) != 1) {
		peer_tls_error(cause, "--cert", cert, "not a certificate");
		return (-1);
	}
	if (SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1 &&
	    ERR_GET_REASON(ERR_peek_error()) != X509_R_KEY_VALUES_MISMATCH) {
		peer_tls_error(cause, "--key", key, "not a private key");
		return (-1);
	}
	if (SSL_CTX_check_private_key(ctx) != 1) {
		ERR_clear_error();
		xasprintf(cause, "--key %s: not the key of %s", key, cert);
		return (-1);
	}
	return (0);
}

SSL_CTX *
peer_tls_context(const char *ca, const char *cert, const char *key,
    char **cause)
{
	SSL_CTX	*ctx;

	/*
	 * OpenSSL writes to the socket with write(2), not send(2) with
	 * MSG_NOSIGNAL: a server gone is EPIPE, not the end of sudokuc.
	 */
	signal(SIGPIPE, SIG_IGN);
	if ((ctx = SSL_CTX_new(TLS_client_method())) == NULL)
		return (peer_tls_error(cause, "TLS", "context", "no memory"));
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
	SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE |
	    SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
	SSL_CTX_set_app_data(ctx, (void *)ca);	/* for the words */
	if (ca != NULL && (peer_tls_readable("--ca", ca, cause) == -1 ||
	    SSL_CTX_load_verify_locations(ctx, ca, NULL) != 1)) {
		if (*cause == NULL)
			peer_tls_error(cause, "--ca", ca, "no CA certificate");
		SSL_CTX_free(ctx);
		return (NULL);
	}
	if ((ca == NULL && SSL_CTX_set_default_verify_paths(ctx) != 1) ||
	    (cert != NULL && peer_tls_identity(ctx, cert, key, cause) == -1)) {
		if (*cause == NULL)
			peer_tls_error(cause, "TLS", "CA store", "not loaded");
		SSL_CTX_free(ctx);
		return (NULL);
	}
	return (ctx);
}

void
peer_tls_hold(SSL_CTX *ctx)
{
	SSL_CTX_up_ref(ctx);
}

void
peer_tls_release(SSL_CTX *ctx)
{
	SSL_CTX_free(ctx);
}

/* The verification's failure v in words: "what: detail". */
static char *
peer_tls_unverified(const struct peer *w, long v)
{
	const struct endpoint	*s = w->server;
	const char		*ca = SSL_CTX_get_app_data(s->tls), *arg;
	char			*why;
	size_t			 i;

	for (i = 0; i < sizeof peer_tls_verify / sizeof peer_tls_verify[0];
	    i++)
		if (peer_tls_verify[i].code == v)
			break;
	if (i == sizeof peer_tls_verify / sizeof peer_tls_verify[0])
		return (xstrdup(X509_verify_cert_error_string(v)));
	if (strcmp(peer_tls_verify[i].what, "unknown CA") == 0)
		arg = ca != NULL ? ca : "the system's store (--ca FILE names "
		    "the CA)";
	else if (strcmp(peer_tls_verify[i].what, "name mismatch") == 0)
		arg = s->host;
	else
		arg = "";
	xasprintf(&why, "%s: %s%s", peer_tls_verify[i].what,
	    peer_tls_verify[i].detail, arg);
	return (why);
}

/* What failed on w, in words: "NAME: TLS: why". */
static char *
peer_tls_why(const struct peer *w)
{
	unsigned long	 e = ERR_peek_error();
	long		 v = SSL_get_verify_result(w->ssl);
	const char	*r = ERR_reason_error_string(e);
	char		*why, *what = NULL;
	size_t		 i;

	if (v != X509_V_OK)
		what = peer_tls_unverified(w, v);
	for (i = 0; what == NULL && i < sizeof peer_tls_reasons /
	    sizeof peer_tls_reasons[0]; i++)
		if (ERR_GET_REASON(e) == peer_tls_reasons[i].reason)
			what = xstrdup(peer_tls_reasons[i].what);
	if (what == NULL)
		what = xstrdup(r != NULL ? r : "a TLS error");
	xasprintf(&why, "%s: TLS: %s", w->server->name, what);
	free(what);
	ERR_clear_error();
	return (why);
}

int
peer_tls_start(struct peer *w, char **cause)
{
	struct endpoint	*s = w->server;
	struct in6_addr	 a;
	int		 ip;

	ip = inet_pton(AF_INET, s->host, &a) == 1 ||
	    inet_pton(AF_INET6, s->host, &a) == 1;
	if ((w->ssl = SSL_new(s->tls)) == NULL ||
	    SSL_set_fd(w->ssl, w->fd) != 1 ||
	    (ip && X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(w->ssl),
	    s->host) != 1) || (!ip && (SSL_set_tlsext_host_name(w->ssl,
	    s->host) != 1 || SSL_set1_host(w->ssl, s->host) != 1))) {
		xasprintf(cause, "TLS: %s", ERR_reason_error_string(
		    ERR_peek_error()));
		ERR_clear_error();
		return (-1);
	}
	return (peer_tls_handshake(w, cause));
}

int
peer_tls_handshake(struct peer *w, char **cause)
{
	int	r;

	ERR_clear_error();
	errno = 0;
	if ((r = SSL_connect(w->ssl)) == 1) {
		w->tlswant = 0;
		return (0);
	}
	switch (SSL_get_error(w->ssl, r)) {
	case SSL_ERROR_WANT_READ:
		w->tlswant = POLLIN;
		return (1);
	case SSL_ERROR_WANT_WRITE:
		w->tlswant = POLLOUT;
		return (1);
	case SSL_ERROR_SSL:
		*cause = peer_tls_why(w);
		return (-2);
	default:
		ERR_clear_error();
		xasprintf(cause, "%s during the TLS handshake", errno != 0 ?
		    strerror(errno) : "the server closed the connection");
		return (-1);
	}
}

ssize_t
peer_tls_read(struct peer *w, void *buf, size_t len)
{
	int	n;

	ERR_clear_error();
	errno = 0;
	if ((n = SSL_read(w->ssl, buf, len)) > 0)
		return (n);
	switch (SSL_get_error(w->ssl, n)) {
	case SSL_ERROR_ZERO_RETURN:
		return (0);
	case SSL_ERROR_WANT_READ:
	case SSL_ERROR_WANT_WRITE:
		errno = EAGAIN;
		return (-1);
	case SSL_ERROR_SSL:
		free(w->refusal);
		w->refusal = peer_tls_why(w);
		errno = EPROTO;
		return (-1);
	default:
		ERR_clear_error();
		return (errno == 0 ? 0 : -1);
	}
}

ssize_t
peer_tls_write(struct peer *w, const void *buf, size_t len)
{
	int	n;

	ERR_clear_error();
	errno = 0;
	if ((n = SSL_write(w->ssl, buf, len)) > 0)
		return (n);
	switch (SSL_get_error(w->ssl, n)) {
	case SSL_ERROR_WANT_READ:
	case SSL_ERROR_WANT_WRITE:
		errno = EAGAIN;
		return (-1);
	default:
		ERR_clear_error();
		if (errno == 0)
			errno = EPIPE;
		return (-1);
	}
}

int
peer_tls_pending(const struct peer *w)
{
	return (w->ssl != NULL && SSL_pending(w->ssl) > 0);
}

void
peer_tls_close(struct peer *w)
{
	if (w->ssl == NULL)
		return;
	if (SSL_is_init_finished(w->ssl))
		SSL_shutdown(w->ssl);
	ERR_clear_error();
	SSL_free(w->ssl);
	w->ssl = NULL;
	w->tlswant = 0;
}
