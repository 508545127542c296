/* SPDX-License-Identifier: ISC */
/*
 * notify.h -- tell the service manager about our state (sd_notify).
 *
 * Every function is a no-op returning 0 when NOTIFY_SOCKET was not set
 * when notify_init() ran, so callers need no "under systemd?" checks.
 * Call from the main thread only: the state is one file-local fd and
 * address, with no locking.
 */
#ifndef NOTIFY_H
#define NOTIFY_H

/*
 * Read NOTIFY_SOCKET (an absolute path or "@abstract") and open the
 * socket messages go to.  Returns 0 (also when the variable is unset)
 * or -1 with an allocated reason in *cause.  The variable is left in
 * the environment: sudokud starts no children that could misuse it.
 */
int	notify_init(char **cause);

/* Close the socket; later calls are no-ops until notify_init(). */
void	notify_close(void);

/*
 * Send one datagram of "KEY=value" lines.  Returns 0, or -1 with errno
 * set (EMSGSIZE if the text did not fit).  Failures are worth a log
 * line but never fatal: the service manager may have gone away.
 */
int	notify_send(const char *fmt, ...)
	    __attribute__((__format__(__printf__, 1, 2)));

/* "READY=1", with "STATUS=status" in the same message if not NULL. */
int	notify_ready(const char *status);

/* "RELOADING=1" and "MONOTONIC_USEC=now" in one message. */
int	notify_reloading(void);

/*
 * "STOPPING=1" and "EXTEND_TIMEOUT_USEC=usec" in one message: the stop
 * may take that long from now, beyond TimeoutStopSec= if it is longer
 * (systemd 236 and later; older ones ignore the line).
 */
int	notify_stopping(unsigned long long usec);

#endif /* NOTIFY_H */
