/* SPDX-License-Identifier: ISC */
/*
 * servers.h -- the servers a sudokuc batch talks to: where they are
 * (an endpoint each), which ones the command line and the environment
 * name, and when to try connecting to one again.
 *
 * A server is a Unix socket or a TCP host and port, named in messages
 * "unix:PATH" or "tcp:HOST:PORT" ("tcp:[ADDRESS]:PORT" for IPv6), or
 * "tls://HOST:PORT" over TLS.  They come from -s and -H, or from
 * SUDOKUD_SERVERS or SUDOKUD_SOCKET, as comma-separated lists
 * (sudokuc(1)); --tls, --ca, --cert, --key and --auth-file say how to
 * talk to them.
 */
#ifndef SERVERS_H
#define SERVERS_H

#include <stddef.h>

struct addrinfo;
struct ssl_ctx_st;

/*
 * Reconnecting to a server that refuses: at once after a connection that
 * had answered is lost, then after 50 ms, doubling up to 2 s, until one
 * of its connections answers again.  2 s keeps a restarted daemon's
 * wait short, and a refused connect costs next to nothing.
 */
#define SERVERS_BACKOFF_FIRST	0.05
#define SERVERS_BACKOFF_MAX	2.0

struct endpoint {
	char		*name;		/* "unix:PATH", "tcp:HOST:PORT" */
	char		*path;		/* a Unix socket; NULL for TCP */
	char		*host;		/* TCP */
	char		*port;
	struct addrinfo	*ai;		/* TCP: its addresses, once resolved */
	int		 tlsasked;	/* tls:// or --tls */
	struct ssl_ctx_st *tls;		/* TLS: the context held; or NULL */
	char		*secret;	/* --auth-file: AUTH first */

	double		 retry_at;	/* no connecting before this moment */
	double		 delay;		/* the next wait after a failure */
	double		 failed;	/* the last failure that backed off */
	char		*why;		/* what failed since it answered */
	int		 whyowed;	/* why left requests unanswered */
	int		 setaside;	/* answered wrong: never used again */
	int		 unreached;	/* nothing listening: hint where */
	int		 spoke;		/* a byte came from it once */
	char		*refusal;	/* refused for good: to set aside */
	int		 refused;	/* set aside for that */

	unsigned long	 answers;	/* for -v */
	unsigned long	 losses;	/* connections lost */
	unsigned long	 reconnects;
};

struct options;

/*
 * The servers of a run: those of -s, -H and -p, or else of
 * SUDOKUD_SERVERS, or else of SUDOKUD_SOCKET, or else the default
 * socket; *n gets how many.  A bad list is a usage error (exits).
 */
struct endpoint	*servers_choose(const struct options *, size_t *n);

/*
 * The option ch ('s', 'H' or 'p') of the command line with its argument,
 * into o's servers; a bad one is a usage error (exits).
 */
void	servers_option(struct options *o, int ch, const char *arg);
/* --tls, --ca, --cert, --key, --auth-file; -1 if name is none of them. */
int	servers_long(struct options *o, const char *name, const char *arg);

/* A Unix socket server. */
void	servers_unix(struct endpoint *, const char *path);
/* A TCP server; takes over host and port (both allocated). */
void	servers_tcp(struct endpoint *, char *host, char *port);
void	servers_free(struct endpoint *);

/* Is s a port number from 1 to 65535? */
int	servers_port_ok(const char *s);

/*
 * HOST, HOST:PORT, [ADDRESS] or [ADDRESS]:PORT (an IPv6 address without
 * brackets has no port) into host and port (NULL if none); 0, or -1
 * with *cause, which starts with what (e.g. "-H").
 */
int	servers_hostport(const char *arg, const char *what, char **host,
	    char **port, char **cause);

/*
 * A comma-separated list from the environment variable var, appended
 * to *v (*n of them): with unixonly, every entry is a Unix socket path
 * (SUDOKUD_SOCKET); else each is unix:PATH, tcp:HOST[:PORT], a path
 * with a '/', or HOST[:PORT] as for -H (SUDOKUD_SERVERS).  Empty
 * entries are skipped.  0, or -1 with *cause.
 */
int	servers_list(const char *list, const char *var, int unixonly,
	    struct endpoint **v, size_t *n, char **cause);

/* TCP: resolve host and port once; 0, or -1 with *cause. */
int	servers_resolve(struct endpoint *, char **cause);

/*
 * Connecting to it failed or a connection was lost (owed: with requests
 * unanswered): back off.  why, an allocated message, is kept if it is
 * the first failure since the server answered, or the first that left
 * requests unanswered.
 */
void	servers_failed(struct endpoint *, double now, char *why, int owed);
/* One of its connections answered: it is fine again. */
void	servers_answered(struct endpoint *);

#endif /* SERVERS_H */
