/* SPDX-License-Identifier: ISC */
/*
 * loadgen.c -- closed-loop load generator for sudokud.
 *
 * Opens -c connections to a Unix or TCP socket, keeps -d requests in
 * flight on each (pipelining), checks every reply, and reports the rate
 * and the latency of single requests (send -> reply).  With -f it sends
 * "SOLVE <puzzle>" cycling through a puzzle file and checks each
 * solution.  With -I it opens the connections, makes one request on
 * each and then holds them idle, for memory measurements.  With -P its
 * threads poll without sleeping, so that the server's writes never have
 * to wake them: what the server costs when waking a client is cheap.
 * With -g a connection waits that long after each reply before it sends
 * the next request, so a server sees requests one at a time with idle
 * time between them (bench/pool-ab.sh).
 *
 * Exit status: 0 when every reply was right, 1 on any wrong or missing
 * reply, 2 on bad usage or setup failure.
 */
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "loadgen.h"

#define LG_CONNECT_TIMEOUT	10	/* seconds for one connect() */

static void __attribute__((noreturn))
lg_usage(void)
{
	fprintf(stderr,
	    "usage: loadgen [-IjPq] [-U path | [-H host] -p port] [-c conns] "
	    "[-d depth]\n"
	    "               [-T threads] [-n total | -t seconds] "
	    "[-w warmup] [-g gap]\n"
	    "               [-x stall] [-r request | -f file "
	    "[-r SOLVE|LEXMIN]]\n"
	    "               [-e expect] [-S sample]\n");
	exit(2);
}

static void __attribute__((noreturn))
lg_die(const char *what)
{
	fprintf(stderr, "loadgen: %s\n", what);
	exit(2);
}

static long long
lg_num(const char *s, long long min, long long max, const char *name)
{
	char		*end;
	long long	 v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < min || v > max) {
		fprintf(stderr, "loadgen: %s must be %lld..%lld: %s\n", name,
		    min, max, s);
		exit(2);
	}
	return (v);
}

static double
lg_secs(const char *s, const char *name)
{
	char	*end;
	double	 v;

	v = strtod(s, &end);
	if (end == s || *end != '\0' || !(v >= 0 && v <= 86400)) {
		fprintf(stderr, "loadgen: %s must be 0..86400 seconds: %s\n",
		    name, s);
		exit(2);
	}
	return (v);
}

static void
lg_opts_check(struct lg_opts *o)
{
	if ((o->unix_path == NULL) == (o->port == NULL))
		lg_die("give either -U path or -p port");
	if (o->total > 0 && o->seconds > 0)
		lg_die("-n and -t exclude each other");
	if (o->gap > 0 && o->gap >= o->stall)
		lg_die("-g must be shorter than -x");
	if (o->idle) {
		o->hold = o->seconds > 0 ? o->seconds : 60;
		o->seconds = 0;
		o->request = "PING";
		o->file = NULL;
		o->expect = NULL;
		o->total = (uint64_t)o->conns;
		o->depth = 1;
		o->threads = 1;
		o->warmup = 0;
		return;
	}
	if (o->total == 0 && o->seconds == 0)
		o->total = 100000;
	if (o->threads > o->conns)
		o->threads = o->conns;
	if (o->file == NULL && o->request == NULL)
		o->request = "PING";
}

static void
lg_opts_parse(struct lg_opts *o, int argc, char **argv)
{
	int	ch;

	memset(o, 0, sizeof *o);
	o->host = "127.0.0.1";
	o->conns = o->depth = o->threads = 1;
	o->stall = 10;
	o->sample = 1;
	while ((ch = getopt(argc, argv, "c:d:e:f:g:H:Ijn:p:Pqr:S:t:T:U:w:x:")) !=
	    -1) {
		switch (ch) {
		case 'c': o->conns = (int)lg_num(optarg, 1, 1000000, "-c"); break;
		case 'd': o->depth = (int)lg_num(optarg, 1, 65536, "-d"); break;
		case 'e': o->expect = optarg; break;
		case 'f': o->file = optarg; break;
		case 'g': o->gap = lg_secs(optarg, "-g"); break;
		case 'H': o->host = optarg; break;
		case 'I': o->idle = 1; break;
		case 'j': o->oneline = 1; break;
		case 'n': o->total = (uint64_t)lg_num(optarg, 1, 1LL << 50,
		    "-n"); break;
		case 'p': o->port = optarg; break;
		case 'P': o->spin = 1; break;
		case 'q': o->quiet = 1; break;
		case 'r': o->request = optarg; break;
		case 'S': o->sample = (unsigned)lg_num(optarg, 1, 1000000,
		    "-S"); break;
		case 't': o->seconds = lg_secs(optarg, "-t"); break;
		case 'T': o->threads = (int)lg_num(optarg, 1, 256, "-T"); break;
		case 'U': o->unix_path = optarg; break;
		case 'w': o->warmup = lg_secs(optarg, "-w"); break;
		case 'x': o->stall = lg_secs(optarg, "-x"); break;
		default: lg_usage();
		}
	}
	if (optind != argc)
		lg_usage();
	lg_opts_check(o);
}

/* Appends one request line to w. */
static void
lg_work_add(struct lg_work *w, size_t *cap, const char *verb,
    const char *arg, size_t arglen)
{
	size_t	vlen = strlen(verb), len, at;

	len = vlen + (arg != NULL ? 1 + arglen : 0) + 1;
	if (w->nreq + 2 > *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		w->off = realloc(w->off, *cap * sizeof *w->off);
		w->givens = realloc(w->givens, *cap * sizeof *w->givens);
		if (w->off == NULL || w->givens == NULL)
			lg_die("out of memory");
		w->off[0] = 0;
	}
	at = w->off[w->nreq];
	if ((w->reqs = realloc(w->reqs, at + len)) == NULL)
		lg_die("out of memory");
	memcpy(w->reqs + at, verb, vlen);
	if (arg != NULL) {
		w->reqs[at + vlen] = ' ';
		memcpy(w->reqs + at + vlen + 1, arg, arglen);
	}
	w->reqs[at + len - 1] = '\n';
	w->off[++w->nreq] = at + len;
	if (len > w->reqmax)
		w->reqmax = len;
}

/* A puzzle line: 81 cells 1-9, 0 or '.'.  Fills givens; 0 or -1. */
static int
lg_puzzle(const char *s, size_t len, uint8_t *givens)
{
	size_t	i;

	if (len != 81)
		return (-1);
	for (i = 0; i < 81; i++) {
		if (s[i] >= '1' && s[i] <= '9')
			givens[i] = (uint8_t)(s[i] - '0');
		else if (s[i] == '0' || s[i] == '.')
			givens[i] = 0;
		else
			return (-1);
	}
	return (0);
}

static void
lg_work_file(const struct lg_opts *o, struct lg_work *w)
{
	FILE		*f;
	char		*line = NULL;
	size_t		 linesize = 0, cap = 0, len, lineno = 0;
	const char	*verb = o->request != NULL ? o->request : "SOLVE";

	if (strcasecmp(verb, "SOLVE") != 0 && strcasecmp(verb, "LEXMIN") != 0)
		lg_die("with -f, -r must be SOLVE or LEXMIN");
	if ((f = fopen(o->file, "r")) == NULL) {
		perror(o->file);
		exit(2);
	}
	while (getline(&line, &linesize, f) != -1) {
		lineno++;
		len = strlen(line);
		while (len > 0 && strchr("\r\n \t", line[len - 1]) != NULL)
			len--;
		if (len == 0 || line[0] == '#')
			continue;
		lg_work_add(w, &cap, verb, line, len);
		if (lg_puzzle(line, len, w->givens[w->nreq - 1]) != 0) {
			fprintf(stderr, "loadgen: %s:%zu: not a puzzle\n",
			    o->file, lineno);
			exit(2);
		}
	}
	free(line);
	fclose(f);
	if (w->nreq == 0)
		lg_die("no puzzles in the file");
	w->kind = LG_KIND_SOLVE;
}

static void
lg_work_load(const struct lg_opts *o, struct lg_work *w)
{
	size_t		 cap = 0;
	const char	*multi[] = { "STATS", "HELP", "QUIT" };
	size_t		 i, vlen;

	memset(w, 0, sizeof *w);
	if (o->file != NULL) {
		lg_work_file(o, w);
		return;
	}
	if (strpbrk(o->request, "\r\n") != NULL)
		lg_die("-r: one line only");
	vlen = strcspn(o->request, " \t");
	for (i = 0; i < sizeof multi / sizeof multi[0]; i++) {
		if (vlen == strlen(multi[i]) &&
		    strncasecmp(o->request, multi[i], vlen) == 0)
			lg_die("-r: STATS, HELP and QUIT cannot be measured");
	}
	lg_work_add(w, &cap, o->request, NULL, 0);
	if (o->expect != NULL) {
		w->kind = LG_KIND_EXACT;
		w->expect = o->expect;
		w->expectlen = strlen(o->expect);
	} else if (strcasecmp(o->request, "PING") == 0)
		w->kind = LG_KIND_PING;
	else
		w->kind = LG_KIND_OTHER;
}

static void
lg_raise_nofile(int conns)
{
	struct rlimit	rl;
	rlim_t		need = (rlim_t)conns + 64;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1 || rl.rlim_cur >= need)
		return;
	rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need ?
	    need : rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
}

static int
lg_connect_one(const struct lg_opts *o, const struct addrinfo *ai)
{
	struct sockaddr_un	sun;
	struct timeval		tv = { LG_CONNECT_TIMEOUT, 0 };
	int			fd, one = 1;

	fd = socket(ai != NULL ? ai->ai_family : AF_UNIX,
	    SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd == -1)
		return (-1);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	if (ai != NULL) {
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == -1)
			goto fail;
	} else {
		memset(&sun, 0, sizeof sun);
		sun.sun_family = AF_UNIX;
		if (strlen(o->unix_path) >= sizeof sun.sun_path) {
			errno = ENAMETOOLONG;
			goto fail;
		}
		strcpy(sun.sun_path, o->unix_path);
		if (connect(fd, (struct sockaddr *)&sun, sizeof sun) == -1)
			goto fail;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == -1)
		goto fail;
	return (fd);
fail:
	close(fd);
	return (-1);
}

static int *
lg_connect_all(const struct lg_opts *o)
{
	struct addrinfo	 hints, *ai = NULL;
	int		*fds, i, e;

	if (o->unix_path == NULL) {
		memset(&hints, 0, sizeof hints);
		hints.ai_socktype = SOCK_STREAM;
		if ((e = getaddrinfo(o->host, o->port, &hints, &ai)) != 0) {
			fprintf(stderr, "loadgen: %s:%s: %s\n", o->host,
			    o->port, gai_strerror(e));
			exit(2);
		}
	}
	lg_raise_nofile(o->conns);
	if ((fds = calloc((size_t)o->conns, sizeof *fds)) == NULL)
		lg_die("out of memory");
	for (i = 0; i < o->conns; i++) {
		if ((fds[i] = lg_connect_one(o, ai)) == -1) {
			fprintf(stderr, "loadgen: connection %d of %d to %s: "
			    "%s\n", i + 1, o->conns, o->unix_path != NULL ?
			    o->unix_path : o->port, strerror(errno));
			exit(2);
		}
	}
	if (ai != NULL)
		freeaddrinfo(ai);
	return (fds);
}

static double
lg_cpu_seconds(void)
{
	struct rusage	ru;

	getrusage(RUSAGE_SELF, &ru);
	return ((double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	    (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
}

/* load is the generator's CPU time over its wall time. */
static void
lg_report(const struct lg_opts *o, const struct lg_result *r, double secs,
    double load)
{
	const struct lg_hist	*h = &r->hist;
	double			 rps = secs > 0 ? (double)r->window / secs : 0;
	double			 q[4];
	const char		*what = o->file != NULL ? o->file : o->request;

	q[0] = lg_hist_quantile(h, 0.50) / 1e3;
	q[1] = lg_hist_quantile(h, 0.99) / 1e3;
	q[2] = lg_hist_quantile(h, 0.999) / 1e3;
	q[3] = h->max / 1e3;
	if (o->oneline) {
		printf("transport=%s conns=%d depth=%d threads=%d "
		    "requests=%llu seconds=%.3f rps=%.0f p50_us=%.1f "
		    "p99_us=%.1f p999_us=%.1f max_us=%.1f mean_us=%.1f "
		    "errors=%llu checked=%llu replies=%llu cpu_pct=%.0f\n",
		    o->unix_path != NULL ? "unix" : "tcp", o->conns, o->depth,
		    o->threads, (unsigned long long)r->window, secs, rps,
		    q[0], q[1], q[2], q[3], h->count ?
		    (double)h->sum / (double)h->count / 1e3 : 0,
		    (unsigned long long)r->errors,
		    (unsigned long long)r->checked,
		    (unsigned long long)r->replies, 100 * load);
		return;
	}
	printf("target     %s %s, %d conns x depth %d, %d thread(s), %s\n",
	    o->unix_path != NULL ? "unix" : "tcp", o->unix_path != NULL ?
	    o->unix_path : o->port, o->conns, o->depth, o->threads, what);
	printf("requests   %llu in %.3f s (after %.1f s warm-up)\n",
	    (unsigned long long)r->window, secs, o->warmup);
	printf("rate       %.0f req/s\n", rps);
	printf("latency    p50 %.1f us, p99 %.1f us, p99.9 %.1f us, "
	    "max %.1f us\n", q[0], q[1], q[2], q[3]);
	printf("replies    %llu, %llu fully checked, %llu wrong\n",
	    (unsigned long long)r->replies, (unsigned long long)r->checked,
	    (unsigned long long)r->errors);
	printf("loadgen    %.0f%% of one core\n", 100 * load);
}

/* -I: every connection has answered once; hold them until -t or a signal. */
static void
lg_hold(const struct lg_opts *o)
{
	sigset_t	set;
	struct timespec	ts;

	ts.tv_sec = (time_t)o->hold;
	ts.tv_nsec = (long)((o->hold - (double)ts.tv_sec) * 1e9);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	printf("ready conns=%d\n", o->conns);
	fflush(stdout);
	while (sigtimedwait(&set, NULL, &ts) == -1 && errno == EINTR)
		;
}

int
main(int argc, char **argv)
{
	struct lg_opts		 o;
	struct lg_work		 w;
	struct lg_result	*r;
	int			*fds, i, rc;
	double			 cpu, secs, wall;
	uint64_t		 t0;

	lg_opts_parse(&o, argc, argv);
	signal(SIGPIPE, SIG_IGN);
	lg_work_load(&o, &w);
	fds = lg_connect_all(&o);
	if ((r = calloc(1, sizeof *r)) == NULL)
		lg_die("out of memory");
	cpu = lg_cpu_seconds();
	t0 = lg_now();
	rc = lg_run(&o, &w, fds, r);
	cpu = lg_cpu_seconds() - cpu;
	wall = (double)(lg_now() - t0) / 1e9;
	if (rc == 0 && o.idle)
		lg_hold(&o);
	else {
		secs = (double)((o.seconds > 0 ? r->t_stop : r->t_last) -
		    r->t_measure) / 1e9;
		if (o.seconds == 0 && r->t_last < r->t_measure)
			secs = 0;
		if (!o.quiet || rc != 0 || r->errors > 0)
			lg_report(&o, r, secs, wall > 0 ? cpu / wall : 0);
	}
	if (r->errors > 0)
		rc = -1;
	for (i = 0; i < o.conns; i++)
		close(fds[i]);
	free(fds);
	free(r);
	free(w.reqs);
	free(w.off);
	free(w.givens);
	return (rc != 0 ? 1 : 0);
}
