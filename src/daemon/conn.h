/*
 * conn.h -- one client connection: framing, backpressure, timeouts.
 *
 * Every function here runs on the worker thread that owns the
 * connection; nothing of a connection is touched by another thread.
 */
#ifndef CONN_H
#define CONN_H

#include <sys/queue.h>

struct conn;
struct worker;

TAILQ_HEAD(conn_list, conn);

/* Take over fd, an accepted non-blocking socket; 0 or -1 (fd closed). */
int	conn_accept(struct worker *, int);

/*
 * Graceful stop: answer every complete request already received (after
 * one last non-blocking read), flush, close.
 */
void	conn_drain_all(struct conn_list *);

/* After a reload: apply the new timeouts and output_low. */
void	conn_reconfigure_all(struct conn_list *);

/* Close every connection at once; returns how many there were. */
unsigned int conn_close_all(struct conn_list *);

#endif /* CONN_H */
