/* SPDX-License-Identifier: ISC */
/*
 * test_notify.c -- notify.c against a socket standing in for systemd.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


#include "daemon/notify.h"
#include "test_ops.h"

/* A datagram socket bound to addr, standing in for systemd. */
static int
receiver_open(const char *name, int abstract)
{
	struct sockaddr_un	sun;
	socklen_t		len;
	int			fd;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	assert_true(strlen(name) + 1 < sizeof sun.sun_path);
	if (abstract) {
		memcpy(sun.sun_path + 1, name, strlen(name));
		len = offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name);
	} else {
		strcpy(sun.sun_path, name);
		len = sizeof sun;
	}
	fd = socket(AF_UNIX, SOCK_DGRAM|SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sun, len), 0);
	return (fd);
}

/* Receive one datagram within a second, NUL-terminated. */
static void
receiver_get(int fd, char *buf, size_t size)
{
	struct pollfd	pfd = { .fd = fd, .events = POLLIN };
	ssize_t		n;

	assert_int_equal(poll(&pfd, 1, 1000), 1);
	n = recv(fd, buf, size - 1, MSG_DONTWAIT);
	assert_true(n >= 0);
	buf[n] = '\0';
}

static void
receiver_none(int fd)
{
	struct pollfd	pfd = { .fd = fd, .events = POLLIN };

	assert_int_equal(poll(&pfd, 1, 0), 0);
}

static unsigned long long
monotonic_usec(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((unsigned long long)ts.tv_sec * 1000000ULL +
	    (unsigned long long)ts.tv_nsec / 1000ULL);
}

/* The daemon's life as systemd sees it: the messages, in order. */
static void
notify_sequence(int fd)
{
	char			 buf[8192], *end;
	unsigned long long	 before, after, usec;
	const char		*key = "RELOADING=1\nMONOTONIC_USEC=";

	assert_int_equal(notify_ready("serving 1 socket"), 0);
	before = monotonic_usec();
	assert_int_equal(notify_reloading(), 0);
	after = monotonic_usec();
	assert_int_equal(notify_ready(NULL), 0);
	/* 3605 s: more than 32 bits of microseconds. */
	assert_int_equal(notify_stopping(3605000000ULL), 0);

	receiver_get(fd, buf, sizeof buf);
	assert_string_equal(buf, "READY=1\nSTATUS=serving 1 socket");
	receiver_get(fd, buf, sizeof buf);
	assert_int_equal(strncmp(buf, key, strlen(key)), 0);
	errno = 0;
	usec = strtoull(buf + strlen(key), &end, 10);
	assert_int_equal(errno, 0);
	assert_true(end != buf + strlen(key) && *end == '\0');
	assert_true(usec >= before && usec <= after);
	receiver_get(fd, buf, sizeof buf);
	assert_string_equal(buf, "READY=1");
	receiver_get(fd, buf, sizeof buf);
	assert_string_equal(buf, "STOPPING=1\nEXTEND_TIMEOUT_USEC=3605000000");
	receiver_none(fd);
}

void
t_notify_unset(void **state)
{
	char	*cause;

	(void)state;
	unsetenv("NOTIFY_SOCKET");
	assert_int_equal(notify_init(&cause), 0);
	assert_null(cause);
	assert_int_equal(notify_ready("x"), 0);
	assert_int_equal(notify_reloading(), 0);
	assert_int_equal(notify_stopping(15000000), 0);
	notify_close();
}

void
t_notify_bad(void **state)
{
	char	*cause;

	(void)state;
	setenv("NOTIFY_SOCKET", "run/notify", 1);
	assert_int_equal(notify_init(&cause), -1);
	assert_non_null(cause);
	free(cause);
	setenv("NOTIFY_SOCKET", "@", 1);
	assert_int_equal(notify_init(&cause), -1);
	free(cause);
	unsetenv("NOTIFY_SOCKET");
}

void
t_notify_path(void **state)
{
	char	 path[128], *cause;
	int	 fd;

	(void)state;
	snprintf(path, sizeof path, "%s/notify", tmpdir);
	fd = receiver_open(path, 0);
	setenv("NOTIFY_SOCKET", path, 1);
	assert_int_equal(notify_init(&cause), 0);
	/* Left for children, as documented. */
	assert_string_equal(getenv("NOTIFY_SOCKET"), path);
	notify_sequence(fd);
	notify_close();
	assert_int_equal(notify_ready(NULL), 0);	/* no-op now */
	receiver_none(fd);
	close(fd);
	unlink(path);
	unsetenv("NOTIFY_SOCKET");
}

void
t_notify_abstract(void **state)
{
	char	 name[64], env[80], *cause;
	int	 fd;

	(void)state;
	snprintf(name, sizeof name, "sudokud-test-ops-%ld", (long)getpid());
	snprintf(env, sizeof env, "@%s", name);
	fd = receiver_open(name, 1);
	setenv("NOTIFY_SOCKET", env, 1);
	assert_int_equal(notify_init(&cause), 0);
	notify_sequence(fd);
	notify_close();
	close(fd);
	unsetenv("NOTIFY_SOCKET");
}

/* Too long is refused whole; a vanished manager is an error, not a crash. */
void
t_notify_errors(void **state)
{
	char	 path[128], *big, *cause;
	int	 fd;

	(void)state;
	snprintf(path, sizeof path, "%s/notify2", tmpdir);
	fd = receiver_open(path, 0);
	setenv("NOTIFY_SOCKET", path, 1);
	assert_int_equal(notify_init(&cause), 0);
	big = malloc(5000);
	assert_non_null(big);
	memset(big, 'x', 4999);
	big[4999] = '\0';
	errno = 0;
	assert_int_equal(notify_send("X=%s", big), -1);
	assert_int_equal(errno, EMSGSIZE);
	receiver_none(fd);
	free(big);
	close(fd);
	unlink(path);
	assert_int_equal(notify_stopping(15000000), -1);
	notify_close();
	unsetenv("NOTIFY_SOCKET");
}

