/* SPDX-License-Identifier: ISC */
/*
 * config.h -- sudokud configuration.
 *
 * A struct config is built whole from one file (or from the built-in
 * defaults) and never modified afterwards, so a reload can parse a fresh
 * one and swap it in only when the whole file is good.
 */
#ifndef CONFIG_H
#define CONFIG_H

#include <sys/types.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "allow.h"
#include "trust.h"

enum listen_type {
	LISTEN_UNIX = 0,
	LISTEN_TCP
};

/* Who connects to a listener, and what they speak. */
enum listen_kind {
	LISTEN_CLIENTS = 0,	/* the line protocol (unix, tcp) */
	LISTEN_PROXIED,		/* the same after a PROXY header (tcp_proxy) */
	LISTEN_METRICS,		/* HTTP GET /metrics for Prometheus */
	LISTEN_TLS,		/* the line protocol over TLS (tls) */
	LISTEN_TLS_PROXIED,	/* the same after a PROXY header (tls_proxy) */
	LISTEN_HTTP,		/* HTTP/JSON, doc/http.md (http) */
	LISTEN_HTTP_PROXIED,	/* the same after a PROXY header (http_proxy) */
	LISTEN_HTTPS,		/* HTTP/JSON over TLS (https) */
	LISTEN_HTTPS_PROXIED	/* the same after a PROXY header (https_proxy) */
};

struct listen_spec {
	enum listen_type	 type;
	enum listen_kind	 kind;
	char			*path;	/* UNIX: socket path */
	char			*host;	/* TCP: address, "127.0.0.1" if none */
	char			*port;	/* TCP: port number as text */
};

struct tls_ctx;
struct auth_secret;
struct www;

struct config {
	char			*file;	/* where it came from, or NULL */

	/* [server] */
	int			 workers;	/* 0: one per online CPU */
	int			 max_connections;
	int			 max_connections_per_peer;
	int			 max_half_closed;	/* TCP, with work */
	char			*auth_file;	/* AUTH's secret, or NULL */
	struct auth_secret	*auth;		/* read of it: auth_load() */
	int			 idle_timeout;	/* seconds, 0: never */
	int			 write_timeout;	/* seconds, 0: never */
	int			 shutdown_timeout; /* seconds */
	size_t			 max_line;	/* bytes, without LF/CRLF */
	size_t			 output_high;	/* stop reading above */
	size_t			 output_low;	/* resume reading below */
	int			 slice_us;	/* solver time a turn, us */
	int			 latency_histograms; /* 0 or 1 */
	int			 slowlog_slower_than; /* us; -1: off */
	int			 slowlog_max_len;
	char			*user;		/* drop to, or NULL */
	char			*group;		/* drop to, or NULL */

	/* [solver] */
	uint64_t		 budget;	/* guesses per request */
	unsigned long		 count_max;	/* largest COUNT limit */
	int			 generate_pool;	/* per level per worker */

	/* [listen] */
	struct listen_spec	*listen;
	size_t			 nlisten;
	mode_t			 unix_mode;
	char			*unix_group;	/* or NULL */
	struct allow_list	 allow_users;	/* Unix peers let in; none: any */
	struct allow_list	 allow_groups;
	int			 metrics_max_connections;
	int			 metrics_timeout;	/* seconds */

	/* [tls] */
	char			*tls_cert;	/* PEM files, or NULL */
	char			*tls_key;
	char			*tls_ca;
	char			*tls_allow;	/* names a client cert may have */
	int			 tls_verify;	/* CONFIG_VERIFY_* */
	int			 tls_min;	/* CONFIG_TLS_* */
	char			*tls_ciphers;	/* TLS 1.2's list */
	int			 tls_handshake_timeout;	/* seconds */
	struct tls_ctx		*tls;		/* made of them: tls_load() */

	/* [http] */
	int			 http_page;	/* 1: GET / serves the page */
	char			*http_page_dir;	/* its files */
	size_t			 http_max_body;	/* bytes */
	int			 http_request_timeout;	/* seconds */
	struct trust_list	 http_trusted;	/* trusted_proxies */
	struct www		*www;		/* the page's files: www_load() */

	/* [log] */
	int			 log_level;	/* LOG_ERR .. LOG_DEBUG */
	int			 log_facility;	/* LOG_DAEMON, ... */
};

/* verify_client: what a client's certificate must be. */
#define CONFIG_VERIFY_NONE	0	/* none asked for */
#define CONFIG_VERIFY_OPTIONAL	1	/* checked if sent */
#define CONFIG_VERIFY_REQUIRE	2	/* sent and checked */

/* min_protocol (OpenSSL's numbers: TLS1_2_VERSION, TLS1_3_VERSION). */
#define CONFIG_TLS_1_2		0x0303
#define CONFIG_TLS_1_3		0x0304


/*
 * Read path (NULL: built-in defaults).  On error returns NULL and sets
 * *cause to an allocated "file:line: reason" string.
 */
struct config	*config_load(const char *path, char **cause);
void		 config_free(struct config *cf);

/* The config_table type of the key that gives spec (CONFIG_UNIX, ...). */
int		 config_spec_key(const struct listen_spec *spec);

/* Does spec serve HTTP/JSON (http, http_proxy, https, https_proxy)? */
int		 config_spec_http(const struct listen_spec *spec);

/* Write every setting, as a configuration file would give it. */
void		 config_print(FILE *f, const struct config *cf);

#endif /* CONFIG_H */
