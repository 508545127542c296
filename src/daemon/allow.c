/* SPDX-License-Identifier: ISC */
/*
 * allow.c -- the allow lists of a Unix socket's users and groups (see
 * allow.h).
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <ctype.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allow.h"
#include "common/xmalloc.h"

/* Most supplementary groups of a peer looked at. */
#define ALLOW_GROUPS	256

/* The id of the user or group name (or number) s; -1 if none. */
static int
allow_id(const char *s, int groups, uint32_t *id)
{
	struct passwd	*pw;
	struct group	*gr;
	char		*end;
	unsigned long	 n;

	if (isdigit((unsigned char)*s)) {
		n = strtoul(s, &end, 10);
		if (*end != '\0' || n > UINT32_MAX)
			return (-1);
		*id = (uint32_t)n;
		return (0);
	}
	if (groups) {
		if ((gr = getgrnam(s)) == NULL)
			return (-1);
		*id = (uint32_t)gr->gr_gid;
	} else {
		if ((pw = getpwnam(s)) == NULL)
			return (-1);
		*id = (uint32_t)pw->pw_uid;
	}
	return (0);
}

int
allow_parse(struct allow_list *l, const char *v, int groups, char **reason)
{
	struct allow_list	 new = { NULL, NULL, 0 };
	char			*copy = xstrdup(v), *s, *p = copy;

	while ((s = strsep(&p, ", \t")) != NULL) {
		if (*s == '\0')
			continue;
		new.ids = xreallocarray(new.ids, new.n + 1, sizeof *new.ids);
		if (allow_id(s, groups, &new.ids[new.n]) != 0) {
			xasprintf(reason, "no such %s '%s'", groups ? "group" :
			    "user", s);
			free(copy);
			allow_clear(&new);
			return (-1);
		}
		new.n++;
	}
	free(copy);
	allow_clear(l);
	if (new.n > 0)
		new.text = xstrdup(v);
	*l = new;
	return (0);
}

void
allow_clear(struct allow_list *l)
{
	free(l->text);
	free(l->ids);
	l->text = NULL;
	l->ids = NULL;
	l->n = 0;
}

static int
allow_has(const struct allow_list *l, uint32_t id)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		if (l->ids[i] == id)
			return (1);
	return (0);
}

int
allow_peer(const struct allow_list *users, const struct allow_list *groups,
    int fd, uint32_t *uid)
{
	struct ucred	 cred;
	gid_t		 gids[ALLOW_GROUPS];
	socklen_t	 len = sizeof cred;
	size_t		 i;

	if (users->n == 0 && groups->n == 0)
		return (1);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == -1)
		return (0);
	*uid = (uint32_t)cred.uid;
	if (cred.uid == 0 || allow_has(users, (uint32_t)cred.uid) ||
	    allow_has(groups, (uint32_t)cred.gid))
		return (1);
	/* The groups the peer had when it connected (Linux 4.13). */
	len = sizeof gids;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, gids, &len) == -1)
		return (0);
	for (i = 0; i < len / sizeof gids[0]; i++)
		if (allow_has(groups, (uint32_t)gids[i]))
			return (1);
	return (0);
}
