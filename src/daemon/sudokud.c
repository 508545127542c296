/*
 * sudokud.c -- the Sudoku-solving daemon: options, configuration,
 * sockets, then server_run().
 *
 * sudokud never forks: it stays in the foreground for systemd (or any
 * supervisor) to run.  Without -f it uses the built-in defaults, so what
 * it does never depends on a file nobody asked for.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <syslog.h>
#include <unistd.h>

#include "autoconf.h"	/* PACKAGE_VERSION, from configure */

#include "config.h"
#include "listener.h"
#include "common/log.h"
#include "notify.h"
#include "priv.h"
#include "server.h"
#include "sockets.h"

static void	usage(void) __attribute__((__noreturn__));
static void	startup_fail(struct config *, char *)
		    __attribute__((__noreturn__));

static void
usage(void)
{
	fprintf(stderr, "usage: sudokud [-dnVv] [-f file]\n");
	exit(1);
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

/* -n: check the file, say so, exit; -v also prints the result. */
static int
check_config(const char *file, int verbose)
{
	struct config	*cf;
	char		*cause;

	if ((cf = config_load(file, &cause)) == NULL) {
		fprintf(stderr, "%s\n", cause);
		free(cause);
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
	int		 status;

	sigset_t	 sigs;

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
	if ((cf = config_load(file, &cause)) == NULL)
		startup_fail(NULL, cause);
	log_init(debug, cf->log_level, cf->log_facility);
	if (notify_init(&cause) != 0) {
		log_warnx("%s", cause);
		free(cause);
	}

	/* Configured sockets, or the ones systemd passed (activation.h). */
	if (sockets_open(cf, &ls, &nls, &cause) != 0)
		startup_fail(cf, cause);
	/* Root, if we had it, was only for the sockets. */
	if (priv_drop(cf->user, cf->group, &cause) != 0) {
		listener_close_all(ls, nls);
		startup_fail(cf, cause);
	}
	log_info("sudokud %s starting, %s", PACKAGE_VERSION,
	    cf->file != NULL ? cf->file : "built-in configuration");

	/* server_run() does not free cf: a reloaded config is its own. */
	status = server_run(cf, ls, nls);

	listener_close_all(ls, nls);
	notify_close();
	config_free(cf);
	return (status);
}

int
main(int argc, char *argv[])
{
	const char	*file = NULL;
	int		 ch, debug = 0, noaction = 0, version = 0, verbose = 0;

	while ((ch = getopt(argc, argv, "df:nVv")) != -1) {
		switch (ch) {
		case 'd':
			debug = 1;
			break;
		case 'f':
			file = optarg;
			break;
		case 'n':
			noaction = 1;
			break;
		case 'V':
			version = 1;
			break;
		case 'v':
			if (verbose < LOG_DEBUG)
				verbose++;
			break;
		default:
			usage();
		}
	}
	if (argc != optind)
		usage();
	if (version) {
		printf("sudokud %s\n", PACKAGE_VERSION);
		return (fflush(stdout) == EOF ? 1 : 0);
	}
	if (noaction)
		return (check_config(file, verbose));
	return (run(file, debug, verbose));
}
