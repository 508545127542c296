/* SPDX-License-Identifier: ISC */
/*
 * log.h -- logging for sudokud (the OpenBSD set).
 *
 * Every message is formatted into a local buffer and emitted with one
 * write(2) or one syslog(3) call, so any thread may log at any time.
 * Lines carry no program name or time stamp (the journal or syslog adds
 * them), except in debug mode on stderr, where each line has its time,
 * and on stderr for want of syslog, where each starts "sudokud: ".
 * sudokuc uses the same functions through log_init_program().
 */
#ifndef LOG_H
#define LOG_H

#include <stdarg.h>

/*
 * Destinations, chosen by log_init():
 * - stderr when debug is set (-d), or when stderr is the systemd journal
 *   (JOURNAL_STREAM names stderr's device and inode); in the journal case
 *   each line starts with a "<N>" syslog priority, as sd-daemon(3) says;
 * - syslog(3) with the given facility otherwise.
 * level is the most verbose syslog priority shown (LOG_ERR .. LOG_DEBUG);
 * debug forces LOG_DEBUG and puts a time stamp on each line.  When
 * syslog does not answer at /dev/log, messages go to stderr instead (and
 * the first one says so).  It may be called again (before threads start)
 * to change destination or facility.
 */
void	log_init(int debug, int level, int facility);

/*
 * Instead of log_init(), for a command-line program such as sudokuc:
 * every line goes to stderr as "name: message", and fatal() and fatalx()
 * exit with status.  The daemon never calls it.
 */
void	log_init_program(const char *name, int status);

/*
 * Raise every level set later by n steps (-v given n times), up to
 * LOG_DEBUG.  Call before log_init().
 */
void	log_setverbose(int n);

/* Change the level (after a reload); -d and -v still apply.  Any thread. */
void	log_setlevel(int level);

/* Would a message at priority pri be logged?  (Before costly details.) */
int	log_enabled(int pri);

#define LOG_PRINTF(a, b) __attribute__((__format__(__printf__, a, b)))

void	log_warn(const char *, ...) LOG_PRINTF(1, 2);	/* adds strerror */
void	log_warnx(const char *, ...) LOG_PRINTF(1, 2);
void	log_info(const char *, ...) LOG_PRINTF(1, 2);
void	log_debug(const char *, ...) LOG_PRINTF(1, 2);
void	log_vlog(int pri, const char *, va_list) LOG_PRINTF(2, 0);

/* Log at LOG_CRIT and exit(1); fatal() adds strerror(errno). */
void	fatal(const char *, ...) LOG_PRINTF(1, 2)
	    __attribute__((__noreturn__));
void	fatalx(const char *, ...) LOG_PRINTF(1, 2)
	    __attribute__((__noreturn__));

#endif /* LOG_H */
