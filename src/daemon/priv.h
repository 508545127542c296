/* SPDX-License-Identifier: ISC */
/*
 * priv.h -- giving up root.
 *
 * sudokud needs root (if at all) only to bind its sockets and create
 * them in root-owned directories.  Once they are open it becomes the
 * configured user and can never become root again.
 */
#ifndef PRIV_H
#define PRIV_H

#include <sys/types.h>

/*
 * Become user (and group, default: the user's primary group).
 *
 *  - user NULL or empty: nothing to do, returns 0 (group must then be
 *    unset too: a group alone is refused, as it would keep uid 0).
 *  - running as root: sets the supplementary groups to just the group,
 *    then real, effective and saved gid, then uid, and verifies all of
 *    them, including that setuid(0) now fails.
 *  - not root: fine if already running as that user (and group), an
 *    error otherwise.
 *
 * Returns 0, or -1 with an allocated reason in *cause.  On -1 the
 * caller must exit: the process may be half-dropped, and must never go
 * on serving as root because a drop it was asked for failed.
 *
 * Call in main after every listener is open and before any thread is
 * started (glibc changes the ids of all threads, but the verification
 * only sees the calling one).
 */
int	priv_drop(const char *user, const char *group, char **cause);

/*
 * Check what priv_drop() would do, without doing it: the user and group
 * exist, a group comes with a user, the user is not root.  For -n.
 * Returns 0, or -1 with an allocated reason in *cause.
 */
int	priv_check(const char *user, const char *group, char **cause);

#endif /* PRIV_H */
