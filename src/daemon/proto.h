/*
 * proto.h -- the request parser and verb table of doc/protocol.md.
 *
 * proto knows nothing of sockets: it reads one request line and appends
 * the reply to an evbuffer.  Framing (LF, line cap, EOF) is conn.c's.
 */
#ifndef PROTO_H
#define PROTO_H

#include <stddef.h>

struct config;
struct evbuffer;
struct stats;
struct stats_server;

/* What a request is served with; owned by the worker thread. */
struct proto_env {
	const struct config	*cf;	/* current config, immutable */
	struct stats		*st;	/* this thread's counters */
	struct stats_server	*ss;	/* every thread's, for STATS */
};

enum proto_status {
	PROTO_OK = 0,
	PROTO_CLOSE		/* reply sent; close after flushing it */
};

/* Serve one request line, without its LF or CRLF. */
enum proto_status proto_line(const struct proto_env *, struct evbuffer *,
		    const char *, size_t);

/* Reply to a line longer than max_line. */
void		 proto_toolong(const struct proto_env *, struct evbuffer *,
		    size_t);

#endif /* PROTO_H */
