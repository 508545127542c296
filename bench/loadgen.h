/* SPDX-License-Identifier: ISC */
/*
 * loadgen.h -- shared between the parts of bench/loadgen.
 */
#ifndef LOADGEN_H
#define LOADGEN_H

#include <stddef.h>
#include <stdint.h>

/*
 * Latency histogram in nanoseconds, log-linear: values below 128 have a
 * bucket each, above that every power of two is split into 64 buckets,
 * so a reported value is within 1/128 (0.8%) of the truth.  2^42 ns
 * (73 minutes) is the largest value kept apart.
 */
#define LG_HIST_SUB	64
#define LG_HIST_BUCKETS	(LG_HIST_SUB * 37)

struct lg_hist {
	uint64_t	n[LG_HIST_BUCKETS];
	uint64_t	count;
	uint64_t	max;
	uint64_t	sum;
};

/* How replies are checked. */
enum lg_kind {
	LG_KIND_PING = 0,	/* PONG */
	LG_KIND_EXACT,		/* exactly the -e text */
	LG_KIND_OTHER,		/* any line not starting with ERR */
	LG_KIND_SOLVE		/* a solution of the puzzle sent */
};

/* What to send: nreq requests, request i is reqs[off[i]..off[i+1]). */
struct lg_work {
	enum lg_kind	  kind;
	char		 *reqs;
	size_t		 *off;
	size_t		  nreq;
	size_t		  reqmax;	/* longest request, bytes */
	uint8_t		(*givens)[81];	/* SOLVE: the puzzle of request i */
	const char	 *expect;	/* EXACT */
	size_t		  expectlen;
};

struct lg_opts {
	const char	*unix_path;
	const char	*host;
	const char	*port;
	const char	*request;
	const char	*expect;
	const char	*file;
	int		 conns;
	int		 depth;
	int		 threads;
	uint64_t	 total;		/* -n; 0 when -t is used */
	double		 seconds;	/* -t; 0 when -n is used */
	double		 warmup;
	double		 gap;		/* -g: pause after each reply */
	double		 stall;		/* fail after this long with no reply */
	double		 hold;		/* -I: seconds to hold the connections */
	unsigned	 sample;	/* fully check every sample-th SOLVE */
	int		 oneline;	/* -j */
	int		 spin;		/* -P: epoll_wait never sleeps */
	int		 idle;		/* -I */
	int		 quiet;
};

struct lg_result {
	uint64_t	replies;	/* all replies */
	uint64_t	measured;	/* replies sent after warm-up */
	uint64_t	window;		/* replies received in the window */
	uint64_t	errors;
	uint64_t	checked;	/* fully checked SOLVE replies */
	uint64_t	t_measure;	/* end of warm-up */
	uint64_t	t_stop;		/* end of the -t window */
	uint64_t	t_last;		/* last reply */
	struct lg_hist	hist;
};

uint64_t lg_now(void);
int	 lg_check_solution(const uint8_t *givens, const char *s, size_t len);
void	 lg_hist_add(struct lg_hist *h, uint64_t v);
uint64_t lg_hist_quantile(const struct lg_hist *h, double q);
void	 lg_result_merge(struct lg_result *into, const struct lg_result *r);
int	 lg_run(const struct lg_opts *o, const struct lg_work *w, int *fds,
	    struct lg_result *res);

#endif /* LOADGEN_H */
