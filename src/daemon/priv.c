/* SPDX-License-Identifier: ISC */
/*
 * priv.c -- giving up root, and checking that it is gone.
 *
 * The checks after the drop are not paranoia: set*id calls have failed
 * silently before (RLIMIT_NPROC on old Linux, seccomp filters returning
 * success, setuid() keeping a saved uid of 0 in some modes), and a
 * daemon that believes it dropped root but did not is the worst case.
 */
#include <sys/types.h>

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "priv.h"

/*
 * Why getpwnam/getgrnam found no name (what: "user" or "group"): they
 * set errno only on a real error, not when the name does not exist.
 */
static void
priv_notfound(const char *what, const char *name, char **cause)
{
	if (errno == 0 || errno == ENOENT || errno == ESRCH ||
	    errno == EBADF || errno == EPERM)
		xasprintf(cause, "no such %s '%s'", what, name);
	else
		xasprintf(cause, "%s %s: %s", what, name, strerror(errno));
}

static int
priv_lookup(const char *user, const char *group, uid_t *uid, gid_t *gid,
    char **cause)
{
	struct passwd	*pw;
	struct group	*gr;

	*cause = NULL;
	errno = 0;
	if ((pw = getpwnam(user)) == NULL) {
		priv_notfound("user", user, cause);
		return (-1);
	}
	*uid = pw->pw_uid;
	*gid = pw->pw_gid;
	if (group == NULL || *group == '\0')
		return (0);
	errno = 0;
	if ((gr = getgrnam(group)) == NULL) {
		priv_notfound("group", group, cause);
		return (-1);
	}
	*gid = gr->gr_gid;
	return (0);
}

/* Are we now exactly uid/gid, with no way back to root? */
static int
priv_verify(uid_t uid, gid_t gid, char **cause)
{
	uid_t	ruid, euid, suid;
	gid_t	rgid, egid, sgid, groups[2];
	int	ngroups;

	if (getresuid(&ruid, &euid, &suid) != 0 ||
	    ruid != uid || euid != uid || suid != uid) {
		xasprintf(cause, "uid not changed to %lu", (unsigned long)uid);
		return (-1);
	}
	if (getresgid(&rgid, &egid, &sgid) != 0 ||
	    rgid != gid || egid != gid || sgid != gid) {
		xasprintf(cause, "gid not changed to %lu", (unsigned long)gid);
		return (-1);
	}
	ngroups = getgroups(2, groups);
	if (ngroups > 1 || (ngroups == 1 && groups[0] != gid)) {
		xasprintf(cause, "supplementary groups not dropped");
		return (-1);
	}
	if (setuid(0) != -1 || seteuid(0) != -1) {
		xasprintf(cause, "could become root again after the drop");
		return (-1);
	}
	if (gid != 0 && (setgid(0) != -1 || setegid(0) != -1)) {
		xasprintf(cause, "could regain group 0 after the drop");
		return (-1);
	}
	return (0);
}

/* Not root: only "already that user" is acceptable. */
static int
priv_check_unprivileged(const char *user, const char *group, uid_t uid,
    gid_t gid, char **cause)
{
	if (getuid() != uid || geteuid() != uid) {
		xasprintf(cause, "cannot switch to user %s: not running as "
		    "root", user);
		return (-1);
	}
	if (group != NULL && *group != '\0' &&
	    (getgid() != gid || getegid() != gid)) {
		xasprintf(cause, "cannot switch to group %s: not running as "
		    "root", group);
		return (-1);
	}
	return (0);
}

/*
 * What priv_drop() would switch to: 1 with *uid and *gid, 0 if there is
 * nothing to drop, -1 with a reason.
 */
static int
priv_resolve(const char *user, const char *group, uid_t *uid, gid_t *gid,
    char **cause)
{
	*cause = NULL;
	if (user == NULL || *user == '\0') {
		if (group != NULL && *group != '\0') {
			xasprintf(cause, "group %s set without user", group);
			return (-1);
		}
		return (0);
	}
	if (priv_lookup(user, group, uid, gid, cause) != 0)
		return (-1);
	if (*uid == 0) {
		xasprintf(cause, "user %s has uid 0: that drops nothing "
		    "(leave user unset to stay root)", user);
		return (-1);
	}
	return (1);
}

int
priv_check(const char *user, const char *group, char **cause)
{
	uid_t	uid;
	gid_t	gid;

	return (priv_resolve(user, group, &uid, &gid, cause) == -1 ? -1 : 0);
}

int
priv_drop(const char *user, const char *group, char **cause)
{
	uid_t	uid;
	gid_t	gid;
	int	r;

	if ((r = priv_resolve(user, group, &uid, &gid, cause)) <= 0)
		return (r);
	if (geteuid() != 0)
		return (priv_check_unprivileged(user, group, uid, gid, cause));

	/* Groups first: once the uid is gone they can no longer change. */
	if (setgroups(1, &gid) != 0) {
		xasprintf(cause, "setgroups: %s", strerror(errno));
		return (-1);
	}
	if (setresgid(gid, gid, gid) != 0) {
		xasprintf(cause, "setresgid %lu: %s", (unsigned long)gid,
		    strerror(errno));
		return (-1);
	}
	if (setresuid(uid, uid, uid) != 0) {
		xasprintf(cause, "setresuid %lu: %s", (unsigned long)uid,
		    strerror(errno));
		return (-1);
	}
	return (priv_verify(uid, gid, cause));
}
