/* SPDX-License-Identifier: ISC */
/*
 * log.c -- logging to stderr, the systemd journal or syslog.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>

#include <errno.h>
#include <paths.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "log.h"

/*
 * Longest message emitted, including the "<N>" prefix and the newline;
 * longer ones are cut.  Journal and syslog lines are short anyway.
 */
#define LOG_LINE_MAX	2048

static int		log_stderr = 1;	/* 0: syslog */
static int		log_prefix;	/* "<N>" prefixes for the journal */
static int		log_debugging;	/* -d: time stamps too */
static int		log_fallback;	/* stderr for want of syslog */
static int		log_verbose;	/* -v count */
static atomic_int	log_level = LOG_INFO;
static const char	*log_progname;	/* "name: " before each stderr line */
static int		log_fatal_status = 1;

static int	log_journal(void);
static int	log_effective(int);
static void	log_write(const char *, size_t);
static void	log_str(int, const char *, ...) LOG_PRINTF(2, 3);

/* Is stderr connected to the journal?  (systemd.exec(5), JOURNAL_STREAM) */
static int
log_journal(void)
{
	const char		*env;
	struct stat		 sb;
	unsigned long long	 dev, ino;
	char			 end;

	if ((env = getenv("JOURNAL_STREAM")) == NULL)
		return (0);
	if (sscanf(env, "%llu:%llu%c", &dev, &ino, &end) != 2)
		return (0);
	if (fstat(STDERR_FILENO, &sb) == -1)
		return (0);
	return ((unsigned long long)sb.st_dev == dev &&
	    (unsigned long long)sb.st_ino == ino);
}

/*
 * Each -v is one step of the levels sudokud.conf(5) names (error,
 * warning, info, debug), not one syslog priority: from warning, one -v
 * must show info, not just LOG_NOTICE, which nothing logs.
 */
static int
log_effective(int level)
{
	int	n;

	if (level < LOG_EMERG)
		level = LOG_EMERG;
	for (n = log_verbose; n > 0 && level < LOG_DEBUG; n--) {
		if (level < LOG_ERR)
			level = LOG_ERR;
		else if (level < LOG_WARNING)
			level = LOG_WARNING;
		else if (level < LOG_INFO)
			level = LOG_INFO;
		else
			level = LOG_DEBUG;
	}
	if (level > LOG_DEBUG)
		level = LOG_DEBUG;
	return (level);
}

/*
 * Can syslog(3) deliver?  It drops messages silently when nothing
 * listens at /dev/log (a container, a minimal system): then a daemon
 * started by hand in the foreground would say nothing at all.
 */
static int
log_syslog_reachable(void)
{
	struct sockaddr_un	sun;
	int			fd, r;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	strncpy(sun.sun_path, _PATH_LOG, sizeof sun.sun_path - 1);
	if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1)
		return (0);
	r = connect(fd, (struct sockaddr *)&sun, sizeof sun);
	close(fd);
	return (r == 0);
}

void
log_init(int debug, int level, int facility)
{
	static int	 opened;
	int		 journal, was = log_fallback;

	journal = log_journal();
	log_debugging = debug;
	log_stderr = debug || journal;
	log_prefix = journal;
	log_fallback = !log_stderr && !log_syslog_reachable();
	log_stderr |= log_fallback;
	atomic_store(&log_level, log_effective(level));

	if (opened)
		closelog();
	opened = 0;
	if (!log_stderr) {
		openlog("sudokud", LOG_PID | LOG_NDELAY, facility);
		opened = 1;
	}
	tzset();	/* syslog(3) may need it after a chroot */
	if (log_fallback && !was)
		log_str(LOG_WARNING, "syslog does not answer at %s: logging "
		    "to standard error", _PATH_LOG);
}

int
log_enabled(int pri)
{
	return (pri <= atomic_load(&log_level));
}

void
log_init_program(const char *name, int status)
{
	log_progname = name;
	log_fatal_status = status;
	log_stderr = 1;
	log_prefix = 0;
}

void
log_setverbose(int n)
{
	log_verbose = n < 0 ? 0 : n;
}

void
log_setlevel(int level)
{
	atomic_store(&log_level, log_effective(level));
}

/* One write(2) per line, so lines from several threads never mix. */
static void
log_write(const char *buf, size_t len)
{
	ssize_t	n;
	int	tries;

	for (tries = 0; len > 0 && tries < 8; tries++) {
		n = write(STDERR_FILENO, buf, len);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			return;
		}
		buf += n;
		len -= (size_t)n;
	}
}

/* "2026-11-30T23:59:59.123+01:00 ": ISO 8601, local time, in ms. */
static size_t
log_stamp(char *buf, size_t size)
{
	struct timespec	ts;
	struct tm	tm;
	char		zone[8];
	size_t		n;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (localtime_r(&ts.tv_sec, &tm) == NULL)
		return (0);
	n = strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm);
	if (strftime(zone, sizeof zone, "%z", &tm) != 5)
		snprintf(zone, sizeof zone, "+0000");
	n += (size_t)snprintf(buf + n, size - n, ".%03ld%.3s:%s ",
	    ts.tv_nsec / 1000000, zone, zone + 3);
	return (n < size ? n : 0);
}

void
log_vlog(int pri, const char *fmt, va_list ap)
{
	char	buf[LOG_LINE_MAX], *msg;
	size_t	off = 0, len, i;
	int	saved_errno = errno, n;

	if (pri > atomic_load(&log_level))
		return;

	if (log_stderr && log_prefix)
		off = (size_t)snprintf(buf, sizeof buf, "<%d>", pri & 7);
	else if (log_stderr && log_debugging)
		off = log_stamp(buf, sizeof buf);
	else if (log_stderr && (log_progname != NULL || log_fallback))
		off = (size_t)snprintf(buf, sizeof buf, "%.64s: ",
		    log_progname != NULL ? log_progname : "sudokud");
	msg = buf + off;
	n = vsnprintf(msg, sizeof buf - off - 1, fmt, ap);
	if (n < 0)
		n = 0;
	len = (size_t)n;
	if (len > sizeof buf - off - 2)
		len = sizeof buf - off - 2;
	/* One message, one line: no control characters inside. */
	for (i = 0; i < len; i++) {
		if ((unsigned char)msg[i] < 0x20 || msg[i] == 0x7f)
			msg[i] = ' ';
	}

	if (log_stderr) {
		msg[len++] = '\n';
		log_write(buf, off + len);
	} else {
		msg[len] = '\0';
		syslog(pri, "%s", msg);
	}
	errno = saved_errno;
}

static void
log_str(int pri, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vlog(pri, fmt, ap);
	va_end(ap);
}

static void	log_errno(char *, size_t, const char *, va_list)
		    __attribute__((__format__(__printf__, 3, 0)));

/* fmt, then ": " and the text of errno, into buf. */
static void
log_errno(char *buf, size_t size, const char *fmt, va_list ap)
{
	int	 saved_errno = errno;
	int	 n;

	n = vsnprintf(buf, size, fmt, ap);
	if (n >= 0 && (size_t)n < size)
		(void)snprintf(buf + n, size - (size_t)n, ": %s",
		    strerror(saved_errno));
	errno = saved_errno;
}

void
log_warn(const char *fmt, ...)
{
	char	 buf[LOG_LINE_MAX];
	va_list	 ap;

	va_start(ap, fmt);
	log_errno(buf, sizeof buf, fmt, ap);
	va_end(ap);
	log_warnx("%s", buf);
}

void
log_warnx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vlog(LOG_WARNING, fmt, ap);
	va_end(ap);
}

void
log_info(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vlog(LOG_INFO, fmt, ap);
	va_end(ap);
}

void
log_debug(const char *fmt, ...)
{
	va_list	ap;

	if (atomic_load(&log_level) < LOG_DEBUG)
		return;
	va_start(ap, fmt);
	log_vlog(LOG_DEBUG, fmt, ap);
	va_end(ap);
}

void
fatal(const char *fmt, ...)
{
	char	 buf[LOG_LINE_MAX];
	va_list	 ap;

	va_start(ap, fmt);
	log_errno(buf, sizeof buf, fmt, ap);
	va_end(ap);
	fatalx("%s", buf);
}

/*
 * In syslog mode a fatal error is also written to stderr: sudokud never
 * forks, so whoever started it may be watching.
 */
void
fatalx(const char *fmt, ...)
{
	char	 buf[LOG_LINE_MAX], out[LOG_LINE_MAX + 16];
	va_list	 ap;
	int	 n;

	va_start(ap, fmt);
	(void)vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	/* A fatal error is shown whatever the level. */
	if (atomic_load(&log_level) < LOG_CRIT)
		atomic_store(&log_level, LOG_CRIT);
	log_str(LOG_CRIT, "%s", buf);
	if (!log_stderr) {
		n = snprintf(out, sizeof out, "sudokud: %s\n", buf);
		if (n > 0)
			log_write(out, (size_t)n < sizeof out ? (size_t)n :
			    sizeof out - 1);
	}
	exit(log_fatal_status);
}
