/* SPDX-License-Identifier: ISC */
/*
 * sudokud.c -- the Sudoku-solving daemon: options, configuration,
 * sockets, then server_run().
 *
 * sudokud never forks: it stays in the foreground for systemd (or any
 * supervisor) to run.  Without -f it uses the built-in defaults, so what
 * it does never depends on a file nobody asked for.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <syslog.h>
#include <unistd.h>

#include <event2/event.h>

#include "autoconf.h"	/* PACKAGE_VERSION, from configure */

#include "common/log.h"
#include "common/usage.h"
#include "config.h"
#include "listen.h"
#include "notify.h"
#include "priv.h"
#include "auth.h"
#include "server.h"
#include "tls.h"
#include "www.h"

/*
 * The options; usage is sudokud(8)'s SYNOPSIS (tests/e2e/config.py
 * checks), --help adds a line per option.
 */
static const struct option sudokud_longopts[] = {
	{ "debug",	no_argument,		NULL, 'D' },
	{ "foreground",	no_argument,		NULL, 'd' },
	{ "file",	required_argument,	NULL, 'f' },
	{ "help",	no_argument,		NULL, 'h' },
	{ "check",	no_argument,		NULL, 'n' },
	{ "version",	no_argument,		NULL, 'V' },
	{ "verbose",	no_argument,		NULL, 'v' },
	{ NULL,		0,			NULL, 0 }
};

static const char sudokud_usage[] = "usage: sudokud [-DdhnVv] [-f file]\n";

static const char sudokud_help[] =
    "  -D, --debug        -d, and log at the debug level\n"
    "  -d, --foreground   log to standard error, at the level configured\n"
    "  -f, --file=FILE    read the configuration from FILE (default: "
    "built-in)\n"
    "  -h, --help         print this help and exit\n"
    "  -n, --check        check the configuration (and, with -v, print "
    "it), exit\n"
    "  -V, --version      print the version and exit\n"
    "  -v, --verbose      raise the log level one step; may be repeated\n"
    "See sudokud(8) and sudokud.conf(5).\n";

static void	usage(void) __attribute__((__noreturn__));
static void	sudokud_event_fatal(int) __attribute__((__noreturn__));
static void	startup_fail(struct config *, char *)
		    __attribute__((__noreturn__));

static void
usage(void)
{
	usage_exit(sudokud_usage);
}

/* libevent's messages, in our log (event_set_log_callback()). */
static void
sudokud_event_log(int severity, const char *msg)
{
	switch (severity) {
	case EVENT_LOG_DEBUG:
		log_debug("libevent: %s", msg);
		break;
	case EVENT_LOG_MSG:
		log_info("libevent: %s", msg);
		break;
	default:
		log_warnx("libevent: %s", msg);
		break;
	}
}

/* libevent calls this on an internal error it cannot survive. */
static void
sudokud_event_fatal(int err)
{
	fatalx("libevent: fatal error %d", err);
}

/* Log why we cannot start and exit 1, freeing first (for ASan). */
static void
startup_fail(struct config *cf, char *cause)
{
	char	buf[1024];

	snprintf(buf, sizeof buf, "%s", cause);
	free(cause);
	config_free(cf);
	fatalx("%s", buf);
}

/*
 * -n: what starting would check, short of binding the sockets: the file,
 * the user and group to run as, the socket group, that TCP hosts
 * resolve and Unix socket directories exist.  -v prints the result.
 */
static int
check_config(const char *file, int verbose)
{
	struct config	*cf;
	char		*cause;

	if ((cf = config_load(file, &cause)) == NULL ||
	    tls_load(cf, &cause) != 0 || auth_load(cf, &cause) != 0 ||
	    www_load(cf, &cause) != 0 ||
	    priv_check(cf->user, cf->group, &cause) != 0 ||
	    listen_check(cf, &cause) != 0) {
		log_warnx("%s%s%s", cf != NULL && cf->file != NULL ?
		    cf->file : "", cf != NULL && cf->file != NULL ? ": " : "",
		    cause);
		free(cause);
		config_free(cf);
		return (1);
	}
	if (verbose)
		config_print(stdout, cf);
	config_free(cf);
	if (fflush(stdout) == EOF)
		return (1);
	fprintf(stderr, "configuration OK\n");
	return (0);
}

/* Load, open, serve, clean up; returns the exit status. */
static int
run(const char *file, int debug, int verbose)
{
	struct config	*cf;
	struct listener	*ls;
	size_t		 nls;
	char		*cause;
	sigset_t	 sigs;
	int		 status;

	/* A peer that goes away must not kill us: writes get EPIPE. */
	signal(SIGPIPE, SIG_IGN);
	/*
	 * Clients can connect as soon as the sockets exist, before the
	 * event loop catches signals: hold the server's signals until then
	 * (server_run() unblocks them) so an early SIGTERM is a clean stop.
	 */
	server_sigset(&sigs);
	sigprocmask(SIG_BLOCK, &sigs, NULL);

	log_setverbose(verbose);
	log_init(debug, LOG_INFO, LOG_DAEMON);
	event_set_log_callback(sudokud_event_log);
	event_set_fatal_callback(sudokud_event_fatal);
	if ((cf = config_load(file, &cause)) == NULL)
		startup_fail(NULL, cause);
	log_init(debug, cf->log_level, cf->log_facility);
	/* Before the drop: the key may be readable by root only. */
	if (tls_load(cf, &cause) != 0 || auth_load(cf, &cause) != 0 ||
	    www_load(cf, &cause) != 0)
		startup_fail(cf, cause);
	if (notify_init(&cause) != 0) {
		log_warnx("%s", cause);
		free(cause);
	}

	/* Configured sockets, and the ones systemd passed (listen.h). */
	if (listen_open(cf, &ls, &nls, &cause) != 0)
		startup_fail(cf, cause);
	/* Root, if we had it, was only for the sockets. */
	if (priv_drop(cf->user, cf->group, &cause) != 0) {
		listen_close(ls, nls);
		startup_fail(cf, cause);
	}
	log_info("sudokud %s starting, %s", PACKAGE_VERSION,
	    cf->file != NULL ? cf->file : "built-in configuration");

	/* server_run() does not free cf: a reloaded config is its own. */
	status = server_run(cf, ls, nls);

	listen_close(ls, nls);
	notify_close();
	config_free(cf);
	return (status);
}

int
main(int argc, char *argv[])
{
	const char	*file = NULL;
	int		 ch, debug = 0, noaction = 0, verbose = 0;

	/* Messages before the log is set up: "sudokud: ..." on stderr. */
	log_init_program("sudokud", 1);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":Ddf:hnVv", sudokud_longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'D':
			debug = 1;
			verbose = LOG_DEBUG;	/* every step: debug */
			break;
		case 'd':
			debug = 1;
			break;
		case 'f':
			file = optarg;
			break;
		case 'h':
			printf("%s%s", sudokud_usage, sudokud_help);
			return (fflush(stdout) == EOF ? 1 : 0);
		case 'n':
			noaction = 1;
			break;
		case 'V':
			printf("sudokud %s\n", PACKAGE_VERSION);
			return (fflush(stdout) == EOF ? 1 : 0);
		case 'v':
			if (verbose < LOG_DEBUG)
				verbose++;
			break;
		default:
			usage_option(ch, optopt, argv[optind - 1]);
			usage();
		}
	}
	if (argc != optind) {
		log_warnx("unexpected operand '%s' (the file is -f FILE)",
		    argv[optind]);
		usage();
	}
	if (noaction)
		return (check_config(file, verbose));
	return (run(file, debug, verbose));
}
