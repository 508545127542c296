/* SPDX-License-Identifier: ISC */
/*
 * test_ops.c -- unit tests for the operations modules: main and the
 * privilege and reload cases here, sd_notify in test_notify.c, the
 * listening sockets in test_listen.c (see test_ops.h).
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/config.h"
#include "daemon/priv.h"
#include "daemon/reload.h"
#include "test_ops.h"

char	tmpdir[64];

/* ---- reload: restart-only changes are counted --------------------- */

static struct config *
load_text(const char *name, const char *text)
{
	struct config	*cf;
	char		 path[128], *cause;
	FILE		*f;

	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	cf = config_load(path, &cause);
	if (cf == NULL)
		fail_msg("%s", cause);
	unlink(path);
	return (cf);
}

static void
t_reload_check(void **state)
{
	struct config	*a, *b, *c, *d;

	(void)state;
	a = load_text("a.conf", "[server]\nworkers = 2\nidle_timeout = 10\n"
	    "[listen]\nunix = /tmp/x.sock\ntcp = 7999\n");
	/* Only keys a reload applies: nothing to report. */
	b = load_text("b.conf", "[server]\nworkers = 2\nidle_timeout = 20\n"
	    "max_line = 4k\n[solver]\nbudget = 7\n[log]\nlevel = debug\n"
	    "[listen]\ntcp = 127.0.0.1:7999\nunix = /tmp/x.sock\n");
	/* workers, user, unix (one more), facility: four. */
	c = load_text("c.conf", "[server]\nworkers = 3\nuser = nobody\n"
	    "[log]\nfacility = local3\n[listen]\nunix = /tmp/x.sock\n"
	    "unix = /tmp/y.sock\ntcp = 7999\n");
	/* The built-in defaults: workers, unix (default path), tcp (gone). */
	d = config_load(NULL, &(char *){ NULL });
	assert_non_null(d);

	assert_int_equal(reload_check(a, a), 0);
	assert_int_equal(reload_check(a, b), 0);
	assert_int_equal(reload_check(b, a), 0);
	assert_int_equal(reload_check(a, c), 4);
	assert_int_equal(reload_check(c, a), 4);
	assert_int_equal(reload_check(a, d), 3);
	config_free(a);
	config_free(b);
	config_free(c);
	config_free(d);
}

/* ---- priv ------------------------------------------------------------ */

static void
t_priv_none(void **state)
{
	char	*cause;

	(void)state;
	assert_int_equal(priv_drop(NULL, NULL, &cause), 0);
	assert_int_equal(priv_drop("", NULL, &cause), 0);
	assert_int_equal(priv_drop(NULL, "nogroup", &cause), -1);
	assert_non_null(cause);
	free(cause);
	assert_int_equal(priv_drop("sudokud-no-such-user", NULL, &cause), -1);
	assert_non_null(strstr(cause, "sudokud-no-such-user"));
	free(cause);
	assert_int_equal(priv_drop("root", NULL, &cause), -1);
	free(cause);
}

/* In a child: drop to user/group and check with the kernel's answers. */
static int
priv_child(const char *user, const char *group)
{
	struct passwd	*pw;
	struct group	*gr;
	uid_t		 uid, r, e, s;
	gid_t		 gid, gr_r, gr_e, gr_s, groups[4];
	char		*cause;

	if ((pw = getpwnam(user)) == NULL)
		return (10);
	uid = pw->pw_uid;
	gid = pw->pw_gid;
	if (group != NULL) {
		if ((gr = getgrnam(group)) == NULL)
			return (11);
		gid = gr->gr_gid;
	}
	if (priv_drop(user, group, &cause) != 0) {
		fprintf(stderr, "# priv_drop: %s\n", cause);
		return (12);
	}
	if (getresuid(&r, &e, &s) != 0 || r != uid || e != uid || s != uid)
		return (13);
	if (getresgid(&gr_r, &gr_e, &gr_s) != 0 || gr_r != gid ||
	    gr_e != gid || gr_s != gid)
		return (14);
	if (getgroups(4, groups) != 1 || groups[0] != gid)
		return (15);
	if (setuid(0) != -1 || seteuid(0) != -1)
		return (16);
	/* Now unprivileged: the same user is fine, another is refused. */
	if (priv_drop(user, group, &cause) != 0)
		return (17);
	if (priv_drop("daemon", NULL, &cause) != -1)
		return (18);
	free(cause);
	return (0);
}

/* Run priv_child in a child process: the test itself stays root. */
static void
priv_fork(const char *user, const char *group)
{
	pid_t	pid;
	int	status;

	fflush(NULL);
	pid = fork();
	assert_true(pid != -1);
	if (pid == 0)
		_exit(priv_child(user, group));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void
t_priv_drop_user(void **state)
{
	(void)state;
	priv_fork("nobody", NULL);
}

/* An explicit group, named by looking up nobody's primary group. */
static void
t_priv_drop_group(void **state)
{
	struct passwd	*pw;
	struct group	*gr;
	char		*group;

	(void)state;
	assert_non_null(pw = getpwnam("nobody"));
	assert_non_null(gr = getgrgid(pw->pw_gid));
	assert_non_null(group = strdup(gr->gr_name));
	priv_fork("nobody", group);
	free(group);
}

/* -n's check: what the drop would refuse, without dropping. */
static void
t_priv_check(void **state)
{
	char	*cause;

	(void)state;
	assert_int_equal(priv_check(NULL, NULL, &cause), 0);
	assert_int_equal(priv_check("nobody", NULL, &cause), 0);
	assert_int_equal(priv_check("sudokud-no-such-user", NULL, &cause), -1);
	assert_non_null(strstr(cause, "sudokud-no-such-user"));
	free(cause);
	assert_int_equal(priv_check("nobody", "sudokud-no-such-group",
	    &cause), -1);
	assert_non_null(strstr(cause, "sudokud-no-such-group"));
	free(cause);
	assert_int_equal(priv_check(NULL, "nogroup", &cause), -1);
	free(cause);
	assert_int_equal(priv_check("root", NULL, &cause), -1);
	free(cause);
	/* Nothing changed: still the same process. */
	assert_int_equal(priv_check("nobody", NULL, &cause), 0);
}

/* Not root (run in place of the three above): only "stay as you are". */
static void
t_priv_unprivileged(void **state)
{
	struct passwd	*pw;
	char		*me, *cause;
	const char	*other;

	(void)state;
	assert_non_null(pw = getpwuid(getuid()));
	assert_non_null(me = strdup(pw->pw_name));
	assert_int_equal(priv_drop(me, NULL, &cause), 0);
	other = strcmp(me, "nobody") == 0 ? "daemon" : "nobody";
	assert_int_equal(priv_drop(other, NULL, &cause), -1);
	assert_non_null(strstr(cause, "not running as root"));
	free(cause);
	free(me);
}

/* ---- main ------------------------------------------------------------ */

static int
group_setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/test_ops.XXXXXX");
	return (mkdtemp(tmpdir) == NULL ? -1 : 0);
}

static int
group_teardown(void **state)
{
	const char	*files[] = { "notify", "notify2", "act.sock",
			    "a.sock", "b.sock" };
	char		 path[128];
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", tmpdir, files[i]);
		unlink(path);
	}
	return (rmdir(tmpdir));
}

int
main(void)
{
	const struct CMUnitTest common[] = {
		cmocka_unit_test(t_notify_unset),
		cmocka_unit_test(t_notify_bad),
		cmocka_unit_test(t_notify_path),
		cmocka_unit_test(t_notify_abstract),
		cmocka_unit_test(t_notify_errors),
		cmocka_unit_test_setup_teardown(t_act_none, act_setup,
		    act_teardown),
		cmocka_unit_test_setup_teardown(t_act_other_pid, act_setup,
		    act_teardown),
		cmocka_unit_test_setup_teardown(t_act_two, act_setup,
		    act_teardown),
		cmocka_unit_test_setup_teardown(t_act_abstract, act_setup,
		    act_teardown),
		cmocka_unit_test_setup_teardown(t_act_errors, act_setup,
		    act_teardown),
		cmocka_unit_test_setup_teardown(t_listen_merge, act_setup,
		    act_teardown),
		cmocka_unit_test_setup_teardown(t_listen_plain, act_setup,
		    act_teardown),
		cmocka_unit_test(t_listen_check),
		cmocka_unit_test(t_reload_check),
		cmocka_unit_test(t_priv_none),
		cmocka_unit_test(t_priv_check),
	};
	const struct CMUnitTest as_root[] = {
		cmocka_unit_test(t_priv_drop_user),
		cmocka_unit_test(t_priv_drop_group),
	};
	const struct CMUnitTest as_user[] = {
		cmocka_unit_test(t_priv_unprivileged),
	};
	struct CMUnitTest	tests[32];
	size_t			ncommon = sizeof common / sizeof common[0];
	size_t			n;

	/*
	 * Not cmocka's skip(): 1.1.5 (Debian 12) prints it as "not ok N #
	 * SKIP", which automake's TAP driver counts as a failure.  Without
	 * root the drop tests are replaced by the unprivileged one.
	 */
	_Static_assert(sizeof common + sizeof as_root <= sizeof tests,
	    "tests[] too small");
	memcpy(tests, common, sizeof common);
	if (geteuid() == 0) {
		memcpy(tests + ncommon, as_root, sizeof as_root);
		n = ncommon + sizeof as_root / sizeof as_root[0];
	} else {
		printf("# not root: root-dropping tests replaced by "
		    "t_priv_unprivileged\n");
		memcpy(tests + ncommon, as_user, sizeof as_user);
		n = ncommon + sizeof as_user / sizeof as_user[0];
	}
	signal(SIGPIPE, SIG_IGN);
	return (_cmocka_run_group_tests("ops", tests, n, group_setup,
	    group_teardown));
}
