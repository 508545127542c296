/* SPDX-License-Identifier: ISC */
/*
 * notify.c -- the sd_notify(3) datagram protocol, written out.
 *
 * We do not link libsystemd for this: the protocol is one AF_UNIX
 * datagram of newline-separated "KEY=value" assignments sent to the
 * address in $NOTIFY_SOCKET, and systemd documents it as a stable
 * interface meant to be reimplemented (sd_notify(3), "Interface
 * portability and stability" on systemd.io).  Fifty lines here save a
 * library dependency that would pull in more than we use and would be
 * missing on systems without systemd, where this is all a no-op.
 *
 * Not supported: "vsock:" addresses (systemd 254+, for VMs) and passing
 * file descriptors to the store (FDSTORE=1).
 */
#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "notify.h"

/*
 * systemd reads at most NOTIFY_BUFFER_MAX (PIPE_BUF, 4096) bytes of a
 * notification and drops the rest, so a longer message is refused here
 * rather than silently cut.
 */
#define NOTIFY_MAX	4096

static int			notify_fd = -1;
static struct sockaddr_un	notify_sun;
static socklen_t		notify_sunlen;

static int	notify_vsend(const char *, va_list)
		    __attribute__((__format__(__printf__, 1, 0)));

/* Fill notify_sun from the value of NOTIFY_SOCKET. */
static int
notify_address(const char *value, char **cause)
{
	size_t	len = strlen(value);

	memset(&notify_sun, 0, sizeof notify_sun);
	notify_sun.sun_family = AF_UNIX;
	if (value[0] != '/' && value[0] != '@') {
		xasprintf(cause, "NOTIFY_SOCKET=%s: not an absolute path "
		    "or @abstract name", value);
		return (-1);
	}
	if (len < 2 || len > sizeof notify_sun.sun_path) {
		xasprintf(cause, "NOTIFY_SOCKET: bad length %zu", len);
		return (-1);
	}
	memcpy(notify_sun.sun_path, value, len);
	/* An abstract name starts with a NUL byte and is not terminated. */
	notify_sunlen = offsetof(struct sockaddr_un, sun_path) + len;
	if (value[0] == '@')
		notify_sun.sun_path[0] = '\0';
	else
		notify_sunlen++;
	if (notify_sunlen > sizeof notify_sun)
		notify_sunlen = sizeof notify_sun;
	return (0);
}

int
notify_init(char **cause)
{
	const char	*value;

	*cause = NULL;
	notify_close();
	value = getenv("NOTIFY_SOCKET");
	if (value == NULL || *value == '\0')
		return (0);
	if (notify_address(value, cause) != 0)
		return (-1);
	notify_fd = socket(AF_UNIX, SOCK_DGRAM|SOCK_CLOEXEC, 0);
	if (notify_fd == -1) {
		xasprintf(cause, "NOTIFY_SOCKET: socket: %s",
		    strerror(errno));
		return (-1);
	}
	return (0);
}

void
notify_close(void)
{
	if (notify_fd != -1)
		close(notify_fd);
	notify_fd = -1;
}

static int
notify_vsend(const char *fmt, va_list ap)
{
	char	buf[NOTIFY_MAX];
	int	len;
	ssize_t	n;

	if (notify_fd == -1)
		return (0);
	len = vsnprintf(buf, sizeof buf, fmt, ap);
	if (len < 0)
		return (-1);
	if ((size_t)len >= sizeof buf) {
		errno = EMSGSIZE;
		return (-1);
	}
	do {
		n = sendto(notify_fd, buf, len, MSG_NOSIGNAL,
		    (struct sockaddr *)&notify_sun, notify_sunlen);
	} while (n == -1 && errno == EINTR);
	if (n == -1)
		return (-1);
	return (0);
}

int
notify_send(const char *fmt, ...)
{
	va_list	ap;
	int	rv;

	va_start(ap, fmt);
	rv = notify_vsend(fmt, ap);
	va_end(ap);
	return (rv);
}

int
notify_ready(const char *status)
{
	if (status == NULL)
		return (notify_send("READY=1"));
	return (notify_send("READY=1\nSTATUS=%s", status));
}

/*
 * systemd 253+ matches MONOTONIC_USEC against the time it sent SIGHUP,
 * which is why both must be in the same datagram; 252 ignores it.
 */
int
notify_reloading(void)
{
	struct timespec		ts;
	unsigned long long	usec;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return (-1);
	usec = (unsigned long long)ts.tv_sec * 1000000ULL +
	    (unsigned long long)ts.tv_nsec / 1000ULL;
	return (notify_send("RELOADING=1\nMONOTONIC_USEC=%llu", usec));
}

int
notify_stopping(unsigned long long usec)
{
	return (notify_send("STOPPING=1\nEXTEND_TIMEOUT_USEC=%llu", usec));
}
