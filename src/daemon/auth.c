/* SPDX-License-Identifier: ISC */
/*
 * auth.c -- the shared secret of auth_file (see auth.h).
 */
#include <sys/types.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "auth.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "config.h"

struct auth_secret {
	unsigned char	digest[32];
};

/* SHA-256 of the len bytes at s into d. */
static void
auth_digest(const char *s, size_t len, unsigned char d[32])
{
	unsigned int	n = 32;

	if (EVP_Digest(s, len, d, &n, EVP_sha256(), NULL) != 1 || n != 32)
		fatalx("%s: SHA-256 failed", __func__);
}

const char *
auth_parse(const char *s, size_t len, size_t *n)
{
	size_t	i;

	for (i = 0; i < len && s[i] != '\n'; i++)
		if (s[i] == '\r' && (i + 1 == len || s[i + 1] == '\n'))
			break;
		else if (s[i] <= ' ' || s[i] >= 0x7f)
			return ("the secret may hold printable ASCII only, no "
			    "blanks");
	if (i == 0)
		return ("no secret on its first line");
	if (i > AUTH_SECRET_MAX)
		return ("the secret is longer than 256 bytes");
	*n = i;
	return (NULL);
}

int
auth_load(struct config *cf, char **cause)
{
	char		 buf[AUTH_SECRET_MAX + 3];
	const char	*why;
	size_t		 len, n = 0;
	FILE		*f;

	*cause = NULL;
	if (cf->auth_file == NULL)
		return (0);
	if ((f = fopen(cf->auth_file, "re")) == NULL) {
		xasprintf(cause, "%s: %s", cf->auth_file, strerror(errno));
		return (-1);
	}
	len = fread(buf, 1, sizeof buf, f);
	fclose(f);
	if ((why = auth_parse(buf, len, &n)) != NULL) {
		OPENSSL_cleanse(buf, sizeof buf);
		xasprintf(cause, "%s: %s", cf->auth_file, why);
		return (-1);
	}
	cf->auth = xcalloc(1, sizeof *cf->auth);
	auth_digest(buf, n, cf->auth->digest);
	OPENSSL_cleanse(buf, sizeof buf);
	return (0);
}

void
auth_free(struct auth_secret *a)
{
	if (a == NULL)
		return;
	OPENSSL_cleanse(a, sizeof *a);
	free(a);
}

int
auth_check(const struct auth_secret *a, const char *s, size_t len)
{
	unsigned char	d[32];

	auth_digest(s, len, d);
	return (CRYPTO_memcmp(d, a->digest, sizeof d) == 0);
}
