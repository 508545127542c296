/* SPDX-License-Identifier: ISC */
/*
 * proto.h -- the requests of doc/protocol.md: one line in, its reply out.
 *
 * proto knows nothing of sockets: it reads one request line and appends
 * the reply to an evbuffer.  Framing (LF, line cap, EOF) and scheduling
 * are conn.c's.  A request that needs a long search does not finish in
 * one call: it comes back as a job (PROTO_MORE), which the connection
 * resumes with proto_resume() on later turns, so that one worker serves
 * other connections in between.  All time limits here are solver time in
 * nanoseconds, measured once around the solver and handed back to the
 * caller for its scheduling.
 */
#ifndef PROTO_H
#define PROTO_H

#include <stddef.h>
#include <stdint.h>

struct config;
struct evbuffer;
struct stats;
struct admit;
struct clients;
struct slowlog;
struct genpool;
struct stats_server;
struct proto_job;

/* What a request is served with; owned by the worker thread. */
struct proto_env {
	const struct config	*cf;	/* current config, immutable */
	struct stats		*st;	/* this thread's counters */
	struct stats_server	*ss;	/* every thread's, for STATS */
	struct admit		*admit;	/* the open connections */
	struct clients		*clients; /* their cards: CLIENT LIST */
	struct slowlog		*slow;	/* the slow log: SLOWLOG */
	struct genpool		*pool;	/* puzzles made ahead, or NULL */
	struct proto_job	*scratch; /* a request's first slice */
};

enum proto_status {
	PROTO_OK = 0,		/* the reply is in out */
	PROTO_MORE,		/* not done: proto_resume(*job) later */
	PROTO_CLOSE		/* the reply is in out; no more requests */
};

/*
 * A request whose work is under way: its state, about 16 KiB.  The
 * worker keeps one, proto_scratch_new(), for first slices (free() it).
 */
struct proto_job *proto_scratch_new(void);

/*
 * The verbs in lower case, "solve" ..., indexed as proto_line() numbers
 * them (their order in HELP); *n gets how many.  The latency histograms
 * of STATS and /metrics are named so.
 */
#define PROTO_NOVERB	(-1)	/* not a request of the table */
const char *const *proto_verbs(size_t *n);

/*
 * What the caller learns of a request served, for the latency
 * histograms and the slow log: its verb (an index of proto_verbs(), or
 * PROTO_NOVERB), and once it is answered the guesses it made and
 * whether it was instant: a short line that did nothing worth a clock
 * read of its own (an instant verb of the table, or refused before any
 * work; conn_watch.c times it by the reading before it).
 */
struct proto_info {
	int		verb;
	uint64_t	guesses;
	int		instant;
	int		authed;		/* in and out: AUTH has succeeded */
	int		auth_failed;	/* out: an AUTH with a wrong secret */
	int		secret;		/* out: the line holds a secret */
	/*
	 * A reading of CLOCK_MONOTONIC (ns), or 0.  In: one that ended the
	 * request before with nothing since, which starts this one's work
	 * instead of a reading of its own (a reading is 25-50 ns on a KVM
	 * guest, 1-2 % of a SOLVE).  Out: one as its work ended.
	 */
	uint64_t	clock;
};

/*
 * Serve one request line (without its LF or CRLF), spending at most
 * about max_ns of solver time; *ns gets the solver time spent, *info
 * (unless NULL) what it was.  On PROTO_MORE *job is a new job the
 * caller owns.
 */
enum proto_status proto_line(const struct proto_env *, struct evbuffer *out,
		    const char *line, size_t len, uint64_t max_ns,
		    uint64_t *ns, struct proto_job **job,
		    struct proto_info *info);

/*
 * Go on with job for at most about max_ns of solver time.  Unless this
 * returns PROTO_MORE, the reply is in out, *info (unless NULL) says
 * what the request was, and job has been freed.
 */
enum proto_status proto_resume(const struct proto_env *, struct evbuffer *out,
		    struct proto_job *job, uint64_t max_ns, uint64_t *ns,
		    struct proto_info *info);

/* Drop an unfinished job (its connection closed). */
void		 proto_job_free(const struct proto_env *, struct proto_job *);

/* Reply to a line longer than max (the max_line it broke). */
void		 proto_toolong(const struct proto_env *, struct evbuffer *out,
		    size_t max);

/*
 * Look at the first bytes of a connection (all of them so far), before
 * any line is served: a protocol that never sends a newline first (a
 * TLS handshake) or a PROXY header sent where none is expected gets its
 * one reply here and PROTO_CLOSE; bytes that may still begin a PROXY
 * header are PROTO_MORE (look again with more, or at eof); anything
 * else is PROTO_OK, nothing appended.
 */
enum proto_status proto_first(const struct proto_env *, struct evbuffer *out,
		    const char *p, size_t len, int eof);

/*
 * doc/http.md: a request of the HTTP listener (proto_http.c) made into
 * request lines, each served by proto_line() as any line is, and their
 * replies made into JSON (proto_json.c).  The HTTP itself (heads,
 * bodies, chunks) is conn_http.c's.
 */
struct proto_http;

/* What the HTTP layer found of a request for /v2/<verb>. */
struct proto_http_in {
	int		 post;		/* POST: body; else GET or HEAD: query */
	const char	*verb;		/* the path after "/v2/" */
	size_t		 verblen;
	const char	*query;		/* GET: after '?', or NULL */
	size_t		 querylen;
	const char	*body;		/* POST: the body, maybe empty */
	size_t		 bodylen;
	int		 authed;	/* a bearer token with the secret */
	int		 lines;		/* a batch is wanted as JSON Lines */
};

/* A request refused: its status, error code and message, a header. */
struct proto_http_err {
	int		 status;
	const char	*code;
	char		 text[320];
	const char	*header;	/* "Name: value\r\n", or NULL */
};

/*
 * The request in made ready: 0 with *h (proto_http_free() it), or -1
 * with *err filled in.
 */
int		 proto_http_new(const struct proto_env *,
		    const struct proto_http_in *in, struct proto_http **h,
		    struct proto_http_err *err);
void		 proto_http_free(struct proto_http *);

/* One request, or a batch as one JSON object, or as JSON Lines. */
#define PROTO_HTTP_ONE		0
#define PROTO_HTTP_ARRAY	1
#define PROTO_HTTP_LINES	2
int		 proto_http_batch(const struct proto_http *);

/*
 * The next request line to serve (valid until the next call), or NULL
 * when every one has been; whether none has been served yet.
 */
const char	*proto_http_next(struct proto_http *, size_t *len);
int		 proto_http_first(const struct proto_http *);
/* Are lines left to serve? */
int		 proto_http_more(const struct proto_http *);

/*
 * The reply lines of the line last served, in lines (drained), as the
 * JSON object doc/http.md says, appended to body; returns its HTTP
 * status.
 */
int		 proto_http_reply(const struct proto_http *,
		    struct evbuffer *lines, struct evbuffer *body);

/* {"error": ...} of code and text, appended to body. */
void		 proto_http_error(struct evbuffer *body, const char *code,
		    const char *text);

/* The HTTP status of an error code (its len bytes at code); 500 if none. */
int		 proto_http_status(const char *code, size_t len);

#endif /* PROTO_H */
