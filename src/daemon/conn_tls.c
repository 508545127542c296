/* SPDX-License-Identifier: ISC */
/*
 * conn_tls.c -- a connection's bytes, in the clear or over TLS: the
 * reads and writes conn.c makes, and the handshake of a tls or
 * tls_proxy connection (tls.c holds OpenSSL).
 *
 * The handshake has a deadline of its own, handshake_timeout from its
 * start whatever idle_timeout says (conn_timer.c), so that a client
 * sending its hello a byte a second holds a slot no longer.  A failed
 * one is closed without a word (there is no TLS to say it in) and logged
 * at most once a minute per worker, counted in tls_handshake_errors.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <openssl/bio.h>
#include <openssl/ssl.h>

#include "common/log.h"
#include "config.h"
#include "conn_int.h"
#include "stats.h"
#include "tls.h"
#include "walltime.h"

ssize_t
conn_recv(struct conn *c, char *p, size_t avail)
{
	ssize_t	n;

	if (c->ssl != NULL) {
		if ((n = tls_read(c->ssl, p, avail)) >= 0)
			return (n);
		if (n != TLS_FAILED)
			return (-1);
		log_debug("fd %d%s: TLS read failed", c->fd, CONN_PEER(c));
		return (-2);
	}
	if ((n = read(c->fd, p, avail)) >= 0)
		return (n);
	if (errno == EAGAIN || errno == EINTR)
		return (-1);
	log_debug("fd %d%s: read: %s", c->fd, CONN_PEER(c), strerror(errno));
	return (-2);
}

ssize_t
conn_send(struct conn *c)
{
	ssize_t	n;

	if (c->ssl != NULL) {
		if ((n = tls_write(c->ssl, c->out)) >= 0)
			return (n);
		if (n != TLS_FAILED)
			return (-1);
		log_debug("fd %d%s: TLS write failed", c->fd, CONN_PEER(c));
		return (-2);
	}
	if ((n = evbuffer_write(c->out, c->fd)) >= 0)
		return (n);
	if (errno == EAGAIN || errno == EINTR)
		return (-1);
	log_debug("fd %d%s: write: %s", c->fd, CONN_PEER(c), strerror(errno));
	return (-2);
}

/*
 * The session of c, over its socket; behind a PROXY header, the bytes
 * read past the header (the start of the client's hello, sent in the
 * same packet) come first.
 */
static int
conn_tls_session(struct conn *c)
{
	const struct config	*cf = conn_cf(c);
	const char		*rest;
	size_t			 len;
	BIO			*rb, *sock;

	if ((c->ssl = tls_session(cf->tls, c->fd)) == NULL)
		return (-1);
	rest = frame_data(&c->fr, &len);
	if (len == 0)
		return (0);
	if ((rb = BIO_new(BIO_f_buffer())) == NULL ||
	    (sock = BIO_new_socket(c->fd, BIO_NOCLOSE)) == NULL) {
		BIO_free(rb);
		return (-1);
	}
	BIO_push(rb, sock);
	if (BIO_set_buffer_read_data(rb, (void *)(uintptr_t)rest,
	    (long)len) != 1) {
		BIO_free_all(rb);
		return (-1);
	}
	frame_drop(&c->fr, len);
	SSL_set0_rbio(c->ssl, rb);
	return (0);
}

/* A failed handshake: logged once a minute at most, counted. */
static void
conn_tls_failed(struct conn *c, const char *why)
{
	stats_add(c->set->env->st, STAT_TLS_HANDSHAKE_ERRORS, 1);
	if (wall_due(&c->set->tls_warned, 60))
		log_info("fd %d%s: TLS handshake failed, closing: %s (such "
		    "failures are logged once a minute; see STATS "
		    "tls_handshake_errors)", c->fd, CONN_PEER(c), why);
	else
		log_debug("fd %d%s: TLS handshake failed, closing: %s",
		    c->fd, CONN_PEER(c), why);
}

int
conn_tls_start(struct conn *c)
{
	if (conn_tls_session(c) != 0) {
		log_warnx("fd %d%s: no memory for a TLS session", c->fd,
		    CONN_PEER(c));
		return (-1);
	}
	c->m.quiet = deadline_now();	/* the handshake's time starts */
	c->tls_want = EV_READ;
	return (0);
}

int
conn_tls_step(struct conn *c)
{
	char	why[256];
	int	r;

	if ((r = tls_handshake(c->ssl, why, sizeof why)) == 1) {
		log_debug("fd %d%s: TLS handshake done (%s)", c->fd,
		    CONN_PEER(c), SSL_get_version(c->ssl));
		c->tls_want = 0;
		return (1);
	}
	if (r == TLS_FAILED) {
		conn_tls_failed(c, why);
		return (-1);
	}
	c->tls_want = r == TLS_WANT_WRITE ? EV_WRITE : EV_READ;
	return (0);
}

void
conn_tls_end(struct conn *c)
{
	if (c->ssl != NULL && SSL_is_init_finished(c->ssl))
		tls_shutdown(c->ssl);
}
