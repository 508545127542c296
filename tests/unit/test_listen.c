/* SPDX-License-Identifier: ISC */
/*
 * test_listen.c -- activation.c and listen.c: the sockets systemd
 * passes, and how they combine with the configured ones.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/activation.h"
#include "daemon/config.h"
#include "daemon/listen.h"
#include "test_ops.h"

#define NSAVED	3
static int	saved_fds[NSAVED];	/* what was at fds 3.. before a test */

int
act_setup(void **state)
{
	int	i;

	(void)state;
	for (i = 0; i < NSAVED; i++) {
		saved_fds[i] = fcntl(ACTIVATION_FD_START + i, F_DUPFD_CLOEXEC,
		    20);
		close(ACTIVATION_FD_START + i);
	}
	return (0);
}

int
act_teardown(void **state)
{
	int	i;

	(void)state;
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	for (i = 0; i < NSAVED; i++) {
		close(ACTIVATION_FD_START + i);
		if (saved_fds[i] != -1) {
			dup2(saved_fds[i], ACTIVATION_FD_START + i);
			close(saved_fds[i]);
		}
	}
	return (0);
}

/* Put fd at slot (3 + i), blocking and inheritable as systemd may. */
static void
act_place(int fd, int i)
{
	int	target = ACTIVATION_FD_START + i;

	assert_true(fd >= 0);
	if (fd != target) {
		assert_int_equal(dup2(fd, target), target);
		close(fd);
	}
	assert_int_equal(fcntl(target, F_SETFL, 0), 0);
	assert_int_equal(fcntl(target, F_SETFD, 0), 0);
}

static void
act_env(const char *pid, const char *fds, const char *names)
{
	char	buf[32];

	if (pid == NULL) {
		snprintf(buf, sizeof buf, "%ld", (long)getpid());
		pid = buf;
	}
	setenv("LISTEN_PID", pid, 1);
	setenv("LISTEN_FDS", fds, 1);
	if (names != NULL)
		setenv("LISTEN_FDNAMES", names, 1);
}

static void
act_env_gone(void)
{
	assert_null(getenv("LISTEN_PID"));
	assert_null(getenv("LISTEN_FDS"));
	assert_null(getenv("LISTEN_FDNAMES"));
}

int
unix_listener(const char *path, int abstract)
{
	struct sockaddr_un	sun;
	socklen_t		len = sizeof sun;
	int			fd;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (abstract) {
		memcpy(sun.sun_path + 1, path, strlen(path));
		len = offsetof(struct sockaddr_un, sun_path) + 1 + strlen(path);
	} else {
		strcpy(sun.sun_path, path);
		unlink(path);
	}
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sun, len), 0);
	assert_int_equal(listen(fd, 5), 0);
	return (fd);
}

/* A TCP listener on 127.0.0.1 and an ephemeral port, returned in *port. */
int
tcp_listener(unsigned *port)
{
	struct sockaddr_in	sin;
	socklen_t		len = sizeof sin;
	int			fd;

	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof sin), 0);
	assert_int_equal(listen(fd, 5), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	*port = ntohs(sin.sin_port);
	return (fd);
}

/* Take what systemd passed, as a fresh array. */
static int
act_take(struct listener **ls, size_t *n, char **cause)
{
	*ls = NULL;
	*n = 0;
	return (activation_take(ls, n, cause));
}

void
t_act_none(void **state)
{
	struct listener	*ls;
	size_t		 n;
	char		*cause;

	(void)state;
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	assert_int_equal(act_take(&ls, &n, &cause), 0);
	assert_null(ls);
	assert_int_equal(n, 0);
	assert_null(cause);
}

/* Variables meant for another process (our parent) are not ours. */
void
t_act_other_pid(void **state)
{
	struct listener	*ls;
	size_t		 n;
	char		 pid[32], *cause;

	(void)state;
	act_place(tcp_listener(&(unsigned){ 0 }), 0);
	snprintf(pid, sizeof pid, "%ld", (long)getppid());
	act_env(pid, "1", "x");
	assert_int_equal(act_take(&ls, &n, &cause), 0);
	assert_int_equal(n, 0);
	act_env_gone();
	/* The fd is not touched. */
	assert_int_equal(fcntl(ACTIVATION_FD_START, F_GETFL) & O_NONBLOCK, 0);
}

static void
act_check_fd(int fd)
{
	assert_true(fcntl(fd, F_GETFL) & O_NONBLOCK);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
}

/* listen_match() on a spec of type with path, or host and port. */
static int
act_match(const struct listener *ls, size_t n, enum listen_type type,
    const char *path, const char *host, unsigned port)
{
	struct listen_spec	spec;
	char			portstr[16];

	memset(&spec, 0, sizeof spec);
	spec.type = type;
	spec.path = (char *)path;
	spec.host = (char *)host;
	snprintf(portstr, sizeof portstr, "%u", port);
	spec.port = portstr;
	return (listen_match(ls, n, &spec));
}

void
t_act_two(void **state)
{
	struct listener	*ls;
	size_t		 n;
	unsigned	 port;
	char		 path[128], name[160], *cause;

	(void)state;
	snprintf(path, sizeof path, "%s/act.sock", tmpdir);
	act_place(unix_listener(path, 0), 0);
	act_place(tcp_listener(&port), 1);
	act_env(NULL, "2", "local:net");
	assert_int_equal(act_take(&ls, &n, &cause), 2);
	assert_int_equal(n, 2);
	act_env_gone();

	assert_int_equal(ls[0].fd, 3);
	assert_int_equal(ls[0].type, LISTEN_UNIX);
	assert_true(ls[0].inherited && !ls[0].owned);
	assert_string_equal(ls[0].path, path);
	assert_string_equal(ls[0].fdname, "local");
	act_check_fd(3);
	assert_int_equal(ls[1].fd, 4);
	assert_int_equal(ls[1].type, LISTEN_TCP);
	assert_null(ls[1].path);
	assert_string_equal(ls[1].fdname, "net");
	act_check_fd(4);

	assert_int_equal(act_match(ls, n, LISTEN_UNIX, path, NULL, 0), 0);
	assert_int_equal(act_match(ls, n, LISTEN_UNIX,
	    "/nonexistent/other.sock", NULL, 0), -1);
	assert_int_equal(act_match(ls, n, LISTEN_TCP, NULL, "127.0.0.1",
	    port), 1);
	assert_int_equal(act_match(ls, n, LISTEN_TCP, NULL, "127.0.0.2",
	    port), -1);
	assert_int_equal(act_match(ls, n, LISTEN_TCP, NULL, "127.0.0.1",
	    port == 65535 ? 1 : port + 1), -1);

	snprintf(name, sizeof name, "tcp:127.0.0.1:%u", port);
	assert_string_equal(ls[1].name, name);
	snprintf(name, sizeof name, "unix:%s", path);
	assert_string_equal(ls[0].name, name);
	listen_close(ls, n);
	/* Inherited: closed, never unlinked. */
	assert_int_equal(fcntl(3, F_GETFD), -1);
	assert_int_equal(access(path, F_OK), 0);
	unlink(path);
}

/* Abstract names read back as "@name"; odd LISTEN_FDNAMES are ignored. */
void
t_act_abstract(void **state)
{
	struct listener	*ls;
	size_t		 n;
	char		 name[64], at[80], *cause;

	(void)state;
	snprintf(name, sizeof name, "sudokud-test-act-%ld", (long)getpid());
	snprintf(at, sizeof at, "@%s", name);
	act_place(unix_listener(name, 1), 0);
	act_env(NULL, "1", "a:b");
	assert_int_equal(act_take(&ls, &n, &cause), 1);
	assert_string_equal(ls[0].path, at);
	assert_null(ls[0].fdname);
	assert_int_equal(act_match(ls, n, LISTEN_UNIX, at, NULL, 0), 0);
	listen_close(ls, n);
}

static void
act_expect_error(const char *fds, const char *what)
{
	struct listener	*ls;
	size_t		 n;
	char		*cause;

	act_env(NULL, fds, NULL);
	assert_int_equal(act_take(&ls, &n, &cause), -1);
	assert_non_null(cause);
	if (strstr(cause, what) == NULL)
		fail_msg("cause '%s' lacks '%s'", cause, what);
	free(cause);
	act_env_gone();
	listen_close(ls, n);
}

void
t_act_errors(void **state)
{
	int	sv[2];

	(void)state;
	act_expect_error("two", "LISTEN_FDS");
	act_expect_error("-1", "LISTEN_FDS");
	/* Nothing open at fd 3. */
	act_expect_error("1", "not a socket");
	/* A connected stream socket (Accept=yes) is not a listener. */
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	act_place(sv[0], 0);
	act_expect_error("1", "not listening");
	close(sv[1]);
	/* A datagram socket (ListenDatagram=). */
	act_place(socket(AF_INET, SOCK_DGRAM, 0), 0);
	act_expect_error("1", "not a stream socket");
	/* The second of two is bad. */
	act_place(tcp_listener(&(unsigned){ 0 }), 0);
	act_place(open("/dev/null", O_RDONLY), 1);
	act_expect_error("2", "fd 4");
}

/* ---- listen: inherited and configured together -------------------- */

static const struct listener *
find_listener(const struct listener *ls, size_t n, const char *path)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (ls[i].path != NULL && strcmp(ls[i].path, path) == 0)
			return (&ls[i]);
	}
	return (NULL);
}

/*
 * Configured: A and B (Unix).  Inherited: A and a TCP socket.  Expect A
 * from fd 3 (not owned, never unlinked), B opened here (owned,
 * unlinked at close) and the TCP one served too.
 */
void
t_listen_merge(void **state)
{
	struct listen_spec	 spec[2];
	struct config		 cf;
	struct listener		*ls;
	const struct listener	*l;
	struct stat		 sb;
	size_t			 n, i;
	unsigned		 port;
	char			 a[128], b[128], *cause;
	int			 tcp = 0;

	(void)state;
	snprintf(a, sizeof a, "%s/a.sock", tmpdir);
	snprintf(b, sizeof b, "%s/b.sock", tmpdir);
	act_place(unix_listener(a, 0), 0);
	act_place(tcp_listener(&port), 1);
	act_env(NULL, "2", NULL);
	memset(&cf, 0, sizeof cf);
	memset(spec, 0, sizeof spec);
	spec[0].type = spec[1].type = LISTEN_UNIX;
	spec[0].path = a;
	spec[1].path = b;
	cf.listen = spec;
	cf.nlisten = 2;
	cf.unix_mode = 0600;

	assert_int_equal(listen_open(&cf, &ls, &n, &cause), 0);
	assert_int_equal(n, 3);
	act_env_gone();
	assert_non_null(l = find_listener(ls, n, a));
	assert_int_equal(l->fd, 3);
	assert_false(l->owned);
	assert_non_null(l = find_listener(ls, n, b));
	assert_true(l->owned);
	assert_true(l->fd > 4);
	for (i = 0; i < n; i++)
		tcp += ls[i].type == LISTEN_TCP && ls[i].fd == 4;
	assert_int_equal(tcp, 1);
	listen_close(ls, n);
	/* Closed (fds 3 and 4 are free again), A kept, B removed. */
	assert_int_equal(fcntl(3, F_GETFD), -1);
	assert_int_equal(fcntl(4, F_GETFD), -1);
	assert_int_equal(lstat(a, &sb), 0);
	assert_int_equal(lstat(b, &sb), -1);
	unlink(a);
}

/* Without activation only the configured; errors close fd 3 too. */
void
t_listen_plain(void **state)
{
	struct listen_spec	 spec;
	struct config		 cf;
	struct listener		*ls;
	size_t			 n;
	char			 a[128], *cause;

	(void)state;
	snprintf(a, sizeof a, "%s/a.sock", tmpdir);
	memset(&cf, 0, sizeof cf);
	memset(&spec, 0, sizeof spec);
	spec.type = LISTEN_UNIX;
	spec.path = a;
	cf.listen = &spec;
	cf.nlisten = 1;
	cf.unix_mode = 0600;
	assert_int_equal(listen_open(&cf, &ls, &n, &cause), 0);
	assert_int_equal(n, 1);
	assert_true(ls[0].owned && !ls[0].inherited);
	listen_close(ls, n);

	/* The configured path cannot be created: the inherited fd goes. */
	spec.path = "/nonexistent-dir/x.sock";
	act_place(tcp_listener(&(unsigned){ 0 }), 0);
	act_env(NULL, "1", NULL);
	assert_int_equal(listen_open(&cf, &ls, &n, &cause), -1);
	assert_non_null(cause);
	free(cause);
	assert_int_equal(n, 0);
	assert_int_equal(fcntl(3, F_GETFD), -1);
}

/* -n's checks: what binding would find, short of binding. */
void
t_listen_check(void **state)
{
	struct listen_spec	 spec;
	struct config		 cf;
	char			 a[128], *cause;

	(void)state;
	snprintf(a, sizeof a, "%s/a.sock", tmpdir);
	memset(&cf, 0, sizeof cf);
	memset(&spec, 0, sizeof spec);
	cf.listen = &spec;
	cf.nlisten = 1;
	spec.type = LISTEN_UNIX;
	spec.path = a;
	assert_int_equal(listen_check(&cf, &cause), 0);
	spec.path = "/nonexistent-dir/x.sock";
	assert_int_equal(listen_check(&cf, &cause), -1);
	assert_non_null(strstr(cause, "/nonexistent-dir"));
	free(cause);
	spec.type = LISTEN_TCP;
	spec.host = "127.0.0.1";
	spec.port = "7999";
	assert_int_equal(listen_check(&cf, &cause), 0);
	spec.host = "no-such-host.invalid";
	assert_int_equal(listen_check(&cf, &cause), -1);
	assert_non_null(strstr(cause, "no-such-host.invalid"));
	free(cause);
	spec.host = "127.0.0.1";
	cf.unix_group = "sudokud-no-such-group";
	assert_int_equal(listen_check(&cf, &cause), -1);
	assert_non_null(strstr(cause, "sudokud-no-such-group"));
	free(cause);
}
