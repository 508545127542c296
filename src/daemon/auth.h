/* SPDX-License-Identifier: ISC */
/*
 * auth.h -- the shared secret of auth_file, for AUTH.
 *
 * The secret is read with the configuration (at start, before root is
 * dropped; with -n; on SIGHUP) and kept only as its SHA-256 digest: AUTH
 * compares the digest of what it is sent with CRYPTO_memcmp(), so that
 * neither the bytes nor the length of the secret show in its time.
 */
#ifndef AUTH_H
#define AUTH_H

#include <stddef.h>

struct config;
struct auth_secret;

/* The longest secret: a line of printable ASCII without blanks. */
#define AUTH_SECRET_MAX	256

/*
 * cf's secret if it names an auth_file: 0, or -1 with an allocated
 * "file: reason" in *cause.
 */
int	auth_load(struct config *cf, char **cause);
void	auth_free(struct auth_secret *);

/* Is s (len bytes) the secret? */
int	auth_check(const struct auth_secret *, const char *s, size_t len);

/*
 * Is the first line of the len bytes at s a secret a file may hold?
 * NULL, or why not.  (Fuzzed: tests/fuzz/fuzz_auth.c.)
 */
const char *auth_parse(const char *s, size_t len, size_t *n);

#endif /* AUTH_H */
