/* SPDX-License-Identifier: ISC */
/*
 * allow.h -- who may use a Unix socket beyond its file's mode: the
 * allow lists of users and groups ([listen] allow_users, allow_groups),
 * checked against the peer's credentials (SO_PEERCRED, SO_PEERGROUPS)
 * when a connection is admitted.
 */
#ifndef ALLOW_H
#define ALLOW_H

#include <stddef.h>
#include <stdint.h>

/* A list as the file gives it, and the ids its names resolved to. */
struct allow_list {
	char		*text;		/* NULL: no list */
	uint32_t	*ids;
	size_t		 n;
};

/*
 * Parse v, names or numeric ids separated by commas or blanks, of users
 * (groups: 0) or groups (1), into l; 0, or -1 with an allocated reason.
 */
int	allow_parse(struct allow_list *l, const char *v, int groups,
	    char **reason);
void	allow_clear(struct allow_list *);

/*
 * May the peer of the Unix socket fd connect?  1 if neither list is set,
 * if it is root, if its uid is in users or its group or one of its
 * supplementary groups is in groups; else 0, with its uid in *uid.
 */
int	allow_peer(const struct allow_list *users,
	    const struct allow_list *groups, int fd, uint32_t *uid);

#endif /* ALLOW_H */
