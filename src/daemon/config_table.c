/* SPDX-License-Identifier: ISC */
/*
 * config_table.c -- sudokud.conf keys: the table and the value parsers.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <ctype.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>

#include "common/defaults.h"
#include "allow.h"
#include "trust.h"
#include "config.h"
#include "config_table.h"
#include "common/xmalloc.h"

#define OFF(f)	offsetof(struct config, f)

static const struct config_name config_levels[] = {
	{ "error", LOG_ERR }, { "warning", LOG_WARNING },
	{ "info", LOG_INFO }, { "debug", LOG_DEBUG }, { NULL, 0 }
};

static const struct config_name config_facilities[] = {
	{ "daemon", LOG_DAEMON }, { "user", LOG_USER },
	{ "local0", LOG_LOCAL0 }, { "local1", LOG_LOCAL1 },
	{ "local2", LOG_LOCAL2 }, { "local3", LOG_LOCAL3 },
	{ "local4", LOG_LOCAL4 }, { "local5", LOG_LOCAL5 },
	{ "local6", LOG_LOCAL6 }, { "local7", LOG_LOCAL7 }, { NULL, 0 }
};

static const struct config_name config_verify[] = {
	{ "none", CONFIG_VERIFY_NONE }, { "optional", CONFIG_VERIFY_OPTIONAL },
	{ "require", CONFIG_VERIFY_REQUIRE }, { NULL, 0 }
};

/* TLS 1.0 and 1.1 are not offered: RFC 8996 deprecates them. */
static const struct config_name config_tls_versions[] = {
	{ "TLSv1.2", CONFIG_TLS_1_2 }, { "TLSv1.3", CONFIG_TLS_1_3 },
	{ NULL, 0 }
};

/*
 * Keep in step with etc/sudokud.conf and sudokud.conf(5).  Defaults are
 * text, read by the same parsers as the file.
 */
const struct config_key config_table[] = {
	{ .section = "server", .name = "workers", .type = CONFIG_INT,
	  .min = 0, .max = 256, .def = "0", .off = OFF(workers),
	  .doc = "worker threads; 0: one per online CPU" },
	{ .section = "server", .name = "max_connections", .type = CONFIG_INT,
	  .min = 1, .max = 1000000, .def = "1024", .flags = CONFIG_RELOAD | CONFIG_HELLO,
	  .off = OFF(max_connections),
	  .doc = "open client connections; more get ERR busy" },
	{ .section = "server", .name = "max_connections_per_peer",
	  .type = CONFIG_INT, .min = 0, .max = 1000000, .def = "256",
	  .flags = CONFIG_RELOAD, .off = OFF(max_connections_per_peer),
	  .doc = "open connections of one client address or user; 0: any" },
	{ .section = "server", .name = "max_half_closed", .type = CONFIG_INT,
	  .min = 0, .max = 1000000, .def = "64", .flags = CONFIG_RELOAD,
	  .off = OFF(max_half_closed),
	  .doc = "TCP connections ended by their client with work left; 0: any" },
	{ .section = "server", .name = "auth_file", .type = CONFIG_TEXT,
	  .flags = CONFIG_RELOAD, .off = OFF(auth_file),
	  .doc = "file whose first line is the secret AUTH must send" },
	{ .section = "server", .name = "idle_timeout", .type = CONFIG_INT,
	  .min = 0, .max = 86400, .def = "300", .flags = CONFIG_RELOAD | CONFIG_HELLO,
	  .off = OFF(idle_timeout),
	  .doc = "seconds a quiet connection is kept; 0: forever" },
	{ .section = "server", .name = "write_timeout", .type = CONFIG_INT,
	  .min = 0, .max = 86400, .def = "30", .flags = CONFIG_RELOAD | CONFIG_HELLO,
	  .off = OFF(write_timeout),
	  .doc = "seconds a client may leave replies unread; 0: forever" },
	{ .section = "server", .name = "shutdown_timeout", .type = CONFIG_INT,
	  .min = 1, .max = 3600, .def = "10", .flags = CONFIG_RELOAD,
	  .off = OFF(shutdown_timeout),
	  .doc = "seconds to finish replies after SIGTERM" },
	{ .section = "server", .name = "max_line", .type = CONFIG_SIZE,
	  .min = 128, .max = 1048576, .def = "1024", .flags = CONFIG_RELOAD | CONFIG_HELLO,
	  .off = OFF(max_line),
	  .doc = "longest request line, without LF or CRLF" },
	{ .section = "server", .name = "output_high", .type = CONFIG_SIZE,
	  .min = 4096, .max = 67108864, .def = "262144",
	  .flags = CONFIG_RELOAD | CONFIG_HELLO, .off = OFF(output_high),
	  .doc = "stop reading a client with more replies than this unsent" },
	{ .section = "server", .name = "output_low", .type = CONFIG_SIZE,
	  .min = 0, .max = 67108864, .def = "65536", .flags = CONFIG_RELOAD,
	  .off = OFF(output_low),
	  .doc = "resume reading below this; < output_high" },
	{ .section = "server", .name = "slice_us", .type = CONFIG_INT,
	  .min = 50, .max = 1000000, .def = "1000", .flags = CONFIG_RELOAD,
	  .off = OFF(slice_us),
	  .doc = "solver time a connection gets a turn, in microseconds" },
	{ .section = "server", .name = "latency_histograms",
	  .type = CONFIG_INT, .min = 0, .max = 1, .def = "1",
	  .flags = CONFIG_RELOAD, .off = OFF(latency_histograms),
	  .doc = "1: keep the latency histograms of STATS and /metrics" },
	{ .section = "server", .name = "slowlog_slower_than",
	  .type = CONFIG_INT, .min = 0, .max = 600000000, .def = "-1",
	  .flags = CONFIG_RELOAD | CONFIG_NEGOFF,
	  .off = OFF(slowlog_slower_than),
	  .doc = "microseconds that make a request slow; -1: no slow log" },
	{ .section = "server", .name = "slowlog_max_len", .type = CONFIG_INT,
	  .min = 1, .max = 100000, .def = "128", .flags = CONFIG_RELOAD,
	  .off = OFF(slowlog_max_len),
	  .doc = "slow requests kept, the newest" },
	{ .section = "server", .name = "user", .type = CONFIG_NAME,
	  .off = OFF(user),
	  .doc = "user to run as after opening the sockets" },
	{ .section = "server", .name = "group", .type = CONFIG_NAME,
	  .off = OFF(group),
	  .doc = "group to run as; default: the user's group" },

	{ .section = "solver", .name = "budget", .type = CONFIG_U64,
	  .min = 1, .max = SUDOKU_BUDGET_SERVICE_MAX,
	  .def = DEFAULTS_STRING(SUDOKU_BUDGET_SERVICE), .flags = CONFIG_RELOAD | CONFIG_HELLO,
	  .off = OFF(budget),
	  .doc = "guesses one request may make" },
	{ .section = "solver", .name = "count_max", .type = CONFIG_ULONG,
	  .min = 1, .max = 1000000, .def = "1000", .flags = CONFIG_RELOAD | CONFIG_HELLO,
	  .off = OFF(count_max),
	  .doc = "largest COUNT limit" },
	{ .section = "solver", .name = "generate_pool", .type = CONFIG_INT,
	  .min = 0, .max = 1000, .def = "4", .flags = CONFIG_RELOAD,
	  .off = OFF(generate_pool),
	  .doc = "puzzles each worker makes ahead per level, for GENERATE "
	  "without a seed; 0: none" },

	{ .section = "listen", .name = "unix", .type = CONFIG_UNIX,
	  .def = SUDOKUD_SOCKET_PATH, .flags = CONFIG_REPEAT,
	  .off = OFF(listen),
	  .doc = "Unix socket path; the default if no unix or tcp is given" },
	{ .section = "listen", .name = "unix_mode", .type = CONFIG_MODE,
	  .min = 0, .max = 0777, .def = "0660", .off = OFF(unix_mode),
	  .doc = "permissions of the Unix sockets, octal" },
	{ .section = "listen", .name = "unix_group", .type = CONFIG_NAME,
	  .off = OFF(unix_group),
	  .doc = "group of the Unix sockets" },
	{ .section = "listen", .name = "allow_users", .type = CONFIG_USERS,
	  .flags = CONFIG_RELOAD, .off = OFF(allow_users),
	  .doc = "users who may connect to the Unix sockets; unset: any" },
	{ .section = "listen", .name = "allow_groups", .type = CONFIG_GROUPS,
	  .flags = CONFIG_RELOAD, .off = OFF(allow_groups),
	  .doc = "groups whose members may connect to the Unix sockets" },
	{ .section = "listen", .name = "tcp", .type = CONFIG_TCP,
	  .min = 1, .max = 65535, .flags = CONFIG_REPEAT, .off = OFF(listen),
	  .doc = "HOST:PORT, [IPv6]:PORT or PORT (127.0.0.1)" },
	{ .section = "listen", .name = "tcp_proxy", .type = CONFIG_TCP_PROXY,
	  .min = 1, .max = 65535, .flags = CONFIG_REPEAT, .off = OFF(listen),
	  .doc = "as tcp, behind a load balancer sending a PROXY header" },
	{ .section = "listen", .name = "metrics", .type = CONFIG_METRICS,
	  .min = 1, .max = 65535, .flags = CONFIG_REPEAT, .off = OFF(listen),
	  .doc = "HOST:PORT serving GET /metrics to Prometheus, over HTTP" },
	{ .section = "listen", .name = "metrics_max_connections",
	  .type = CONFIG_INT, .min = 1, .max = 1024, .def = "16",
	  .flags = CONFIG_RELOAD, .off = OFF(metrics_max_connections),
	  .doc = "open metrics connections; more get 503" },
	{ .section = "listen", .name = "metrics_timeout", .type = CONFIG_INT,
	  .min = 1, .max = 3600, .def = "10", .flags = CONFIG_RELOAD,
	  .off = OFF(metrics_timeout),
	  .doc = "seconds for a metrics request to arrive whole" },

	{ .section = "listen", .name = "tls", .type = CONFIG_TLS,
	  .min = 1, .max = 65535, .flags = CONFIG_REPEAT, .off = OFF(listen),
	  .doc = "as tcp, over TLS ([tls])" },
	{ .section = "listen", .name = "tls_proxy", .type = CONFIG_TLS_PROXY,
	  .min = 1, .max = 65535, .flags = CONFIG_REPEAT, .off = OFF(listen),
	  .doc = "as tls, after a PROXY header in the clear" },

	{ .section = "listen", .name = "http", .type = CONFIG_HTTP,
	  .min = 1, .max = 65535, .flags = CONFIG_REPEAT, .off = OFF(listen),
	  .doc = "HTTP/JSON (doc/http.md): HOST:PORT, or a Unix socket path" },
	{ .section = "listen", .name = "http_proxy", .type = CONFIG_HTTP_PROXY,
	  .min = 1, .max = 65535, .flags = CONFIG_REPEAT, .off = OFF(listen),
	  .doc = "as http, behind a load balancer sending a PROXY header" },
	{ .section = "listen", .name = "https", .type = CONFIG_HTTPS,
	  .min = 1, .max = 65535, .flags = CONFIG_REPEAT, .off = OFF(listen),
	  .doc = "as http, over TLS ([tls]): HOST:PORT" },
	{ .section = "listen", .name = "https_proxy", .type = CONFIG_HTTPS_PROXY,
	  .min = 1, .max = 65535, .flags = CONFIG_REPEAT, .off = OFF(listen),
	  .doc = "as https, after a PROXY header in the clear" },

	{ .section = "tls", .name = "cert", .type = CONFIG_TEXT,
	  .flags = CONFIG_RELOAD, .off = OFF(tls_cert),
	  .doc = "PEM file: the certificate, then its chain" },
	{ .section = "tls", .name = "key", .type = CONFIG_TEXT,
	  .flags = CONFIG_RELOAD, .off = OFF(tls_key),
	  .doc = "PEM file: the certificate's private key" },
	{ .section = "tls", .name = "ca", .type = CONFIG_TEXT,
	  .flags = CONFIG_RELOAD, .off = OFF(tls_ca),
	  .doc = "PEM file: the CAs client certificates are checked against" },
	{ .section = "tls", .name = "allow_names", .type = CONFIG_TEXT,
	  .flags = CONFIG_RELOAD, .off = OFF(tls_allow),
	  .doc = "client certificate names (CN, DNS or email SAN) let in" },
	{ .section = "tls", .name = "verify_client", .type = CONFIG_CHOICE,
	  .names = config_verify, .def = "none", .flags = CONFIG_RELOAD,
	  .off = OFF(tls_verify),
	  .doc = "client certificates: none, optional or require" },
	{ .section = "tls", .name = "min_protocol", .type = CONFIG_CHOICE,
	  .names = config_tls_versions, .def = "TLSv1.2",
	  .flags = CONFIG_RELOAD, .off = OFF(tls_min),
	  .doc = "the oldest protocol accepted: TLSv1.2 or TLSv1.3" },
	{ .section = "tls", .name = "ciphers", .type = CONFIG_TEXT,
	  .def = "ECDHE+AESGCM:ECDHE+CHACHA20", .flags = CONFIG_RELOAD,
	  .off = OFF(tls_ciphers),
	  .doc = "OpenSSL cipher list for TLS 1.2 (1.3 has its own, all AEAD)" },
	{ .section = "tls", .name = "handshake_timeout", .type = CONFIG_INT,
	  .min = 1, .max = 600, .def = "10", .flags = CONFIG_RELOAD,
	  .off = OFF(tls_handshake_timeout),
	  .doc = "seconds for a TLS handshake to finish, whatever idle_timeout" },

	{ .section = "http", .name = "page", .type = CONFIG_INT,
	  .min = 0, .max = 1, .def = "1", .flags = CONFIG_RELOAD,
	  .off = OFF(http_page),
	  .doc = "1: GET / on the http listeners serves the page" },
	{ .section = "http", .name = "page_dir", .type = CONFIG_TEXT,
	  .def = SUDOKUD_WWW_DIR, .flags = CONFIG_RELOAD,
	  .off = OFF(http_page_dir),
	  .doc = "the page's files, read at start and at each reload" },
	{ .section = "http", .name = "max_body", .type = CONFIG_SIZE,
	  .min = 1024, .max = 67108864, .def = "256k", .flags = CONFIG_RELOAD,
	  .off = OFF(http_max_body),
	  .doc = "the largest request body; larger gets 413" },
	{ .section = "http", .name = "request_timeout", .type = CONFIG_INT,
	  .min = 1, .max = 3600, .def = "30", .flags = CONFIG_RELOAD,
	  .off = OFF(http_request_timeout),
	  .doc = "seconds for a request's head and body to arrive whole" },
	{ .section = "http", .name = "trusted_proxies", .type = CONFIG_NETS,
	  .flags = CONFIG_RELOAD, .off = OFF(http_trusted),
	  .doc = "addresses and networks whose X-Forwarded-For is believed" },

	{ .section = "log", .name = "level", .type = CONFIG_CHOICE,
	  .names = config_levels, .def = "info", .flags = CONFIG_RELOAD,
	  .off = OFF(log_level),
	  .doc = "error, warning, info or debug" },
	{ .section = "log", .name = "facility", .type = CONFIG_CHOICE,
	  .names = config_facilities, .def = "daemon", .off = OFF(log_facility),
	  .doc = "syslog facility: daemon, user, local0..local7" },
};
const size_t config_table_size = sizeof config_table / sizeof config_table[0];

static int	config_table_nan(const struct config_key *, const char *,
		    char **);
static int	config_table_number(const struct config_key *, const char *,
		    unsigned long long *, char **);
static int	config_table_mode(const struct config_key *, const char *,
		    unsigned long long *, char **);
static int	config_table_byname(const struct config_name *, const char *,
		    int *, char **);
static const char *config_table_name(const struct config_name *, int);
static int	config_table_username(const char *, char **);
static void	config_table_store(const struct config_key *, void *,
		    unsigned long long, int);

const struct config_key *
config_table_find(const char *section, const char *name)
{
	size_t	i;

	for (i = 0; i < config_table_size; i++) {
		if (strcmp(config_table[i].section, section) == 0 &&
		    strcmp(config_table[i].name, name) == 0)
			return (&config_table[i]);
	}
	return (NULL);
}

/* Why v is not a number (or a size) at all. */
static int
config_table_nan(const struct config_key *k, const char *v, char **reason)
{
	if (*v == '\0')
		xasprintf(reason, "missing value");
	else if (k->type == CONFIG_SIZE)
		xasprintf(reason, "'%s' is not a size (bytes, or a number with "
		    "a k or m suffix)", v);
	else
		xasprintf(reason, "'%s' is not a number", v);
	return (-1);
}

/*
 * One rule for every number: an optional '-', then decimal digits (so
 * -0 is 0 and 010 is 10), for a size an optional k (KiB) or m (MiB);
 * no '+', no blank.  A negative number is out of range, except for a key
 * that may be off, where each one is -1, off.
 */
static int
config_table_number(const struct config_key *k, const char *v,
    unsigned long long *out, char **reason)
{
	unsigned long long	 n = 0, mult = 1;
	const char		*digits = v + (*v == '-'), *s = digits;
	unsigned int		 d;
	int			 big = 0, neg;

	for (; isdigit((unsigned char)*s); s++) {
		d = (unsigned int)(*s - '0');
		if (n > (ULLONG_MAX - d) / 10)
			big = 1;
		else
			n = n * 10 + d;
	}
	if (k->type == CONFIG_SIZE && s != digits && *s != '\0' &&
	    s[1] == '\0') {
		if (*s == 'k' || *s == 'K')
			mult = 1024, s++;
		else if (*s == 'm' || *s == 'M')
			mult = 1024 * 1024, s++;
	}
	if (s == digits || *s != '\0')
		return (config_table_nan(k, v, reason));
	neg = digits != v && (n != 0 || big);
	if (neg && (k->flags & CONFIG_NEGOFF)) {
		*out = (unsigned long long)-1;
		return (0);
	}
	if (neg || big || n > ULLONG_MAX / mult)
		goto range;
	n *= mult;
	if (n < k->min || n > k->max)
		goto range;
	*out = n;
	return (0);
range:
	xasprintf(reason, "%s is out of range (%llu..%llu)", v, k->min,
	    k->max);
	return (-1);
}

static int
config_table_mode(const struct config_key *k, const char *v,
    unsigned long long *out, char **reason)
{
	unsigned long long	 n = 0;
	const char		*s;

	for (s = v; *s >= '0' && *s <= '7' && n <= k->max; s++)
		n = n * 8 + (unsigned long long)(*s - '0');
	if (s == v || (*s != '\0' && n <= k->max)) {
		if (*v == '\0')
			xasprintf(reason, "missing value");
		else
			xasprintf(reason,
			    "'%s' is not an octal mode (0..%04llo)", v, k->max);
		return (-1);
	}
	if (n > k->max) {
		xasprintf(reason, "%s is out of range (0..%04llo)", v, k->max);
		return (-1);
	}
	*out = n;
	return (0);
}

static int
config_table_byname(const struct config_name *names, const char *v,
    int *out, char **reason)
{
	const struct config_name	*n;
	char				*list = NULL, *tmp;

	for (n = names; n->name != NULL; n++) {
		if (strcasecmp(n->name, v) == 0) {
			*out = n->value;
			return (0);
		}
	}
	for (n = names; n->name != NULL; n++) {
		xasprintf(&tmp, "%s%s%s", list == NULL ? "" : list,
		    list == NULL ? "" : ", ", n->name);
		free(list);
		list = tmp;
	}
	if (*v == '\0')
		xasprintf(reason, "missing value (one of %s)", list);
	else
		xasprintf(reason, "'%s' is not one of %s", v, list);
	free(list);
	return (-1);
}

static const char *
config_table_name(const struct config_name *names, int value)
{
	for (; names->name != NULL; names++) {
		if (names->value == value)
			return (names->name);
	}
	return ("?");
}

/* A user or group name: looked up when used, only its form is checked. */
static int
config_table_username(const char *v, char **reason)
{
	const char	*s;

	if (strlen(v) > 64) {
		xasprintf(reason, "name too long (at most 64 bytes)");
		return (-1);
	}
	for (s = v; *s != '\0'; s++) {
		if (isspace((unsigned char)*s) || *s == ':' || *s == '/' ||
		    (*s == '-' && s == v)) {
			xasprintf(reason, "'%s' is not a user or group name",
			    v);
			return (-1);
		}
	}
	return (0);
}

/* Store a parsed number (n) or name (i) in the field f of key k. */
static void
config_table_store(const struct config_key *k, void *f,
    unsigned long long n, int i)
{
	switch (k->type) {
	case CONFIG_INT:
		*(int *)f = n == (unsigned long long)-1 ? -1 : (int)n;
		break;
	case CONFIG_SIZE:
		*(size_t *)f = (size_t)n;
		break;
	case CONFIG_U64:
		*(uint64_t *)f = n;
		break;
	case CONFIG_ULONG:
		*(unsigned long *)f = (unsigned long)n;
		break;
	case CONFIG_MODE:
		*(mode_t *)f = (mode_t)n;
		break;
	default:	/* CONFIG_CHOICE */
		*(int *)f = i;
		break;
	}
}

/* A listener's address: the kind its key says, a Unix path or TCP. */
static int
config_table_listen(struct config *cf, enum config_type type, const char *v,
    char **reason)
{
	static const enum listen_kind kinds[] = {
		[CONFIG_UNIX] = LISTEN_CLIENTS, [CONFIG_TCP] = LISTEN_CLIENTS,
		[CONFIG_TCP_PROXY] = LISTEN_PROXIED,
		[CONFIG_METRICS] = LISTEN_METRICS, [CONFIG_TLS] = LISTEN_TLS,
		[CONFIG_TLS_PROXY] = LISTEN_TLS_PROXIED,
		[CONFIG_HTTP] = LISTEN_HTTP,
		[CONFIG_HTTP_PROXY] = LISTEN_HTTP_PROXIED,
		[CONFIG_HTTPS] = LISTEN_HTTPS,
		[CONFIG_HTTPS_PROXY] = LISTEN_HTTPS_PROXIED
	};
	/* http and http_proxy take a Unix socket's path, as unix does. */
	int	unix_path = type == CONFIG_UNIX || ((type == CONFIG_HTTP ||
		    type == CONFIG_HTTP_PROXY) && *v == '/');

	return (config_listen_add(cf, unix_path ? LISTEN_UNIX : LISTEN_TCP,
	    kinds[type], v, reason));
}

int
config_table_set(struct config *cf, const struct config_key *k,
    const char *v, char **reason)
{
	void			*f = (char *)cf + k->off;
	unsigned long long	 n = 0;
	int			 i = 0;

	*reason = NULL;
	switch (k->type) {
	case CONFIG_INT:
	case CONFIG_SIZE:
	case CONFIG_U64:
	case CONFIG_ULONG:
		if (config_table_number(k, v, &n, reason) != 0)
			return (-1);
		break;
	case CONFIG_MODE:
		if (config_table_mode(k, v, &n, reason) != 0)
			return (-1);
		break;
	case CONFIG_CHOICE:
		if (config_table_byname(k->names, v, &i, reason) != 0)
			return (-1);
		break;
	case CONFIG_TEXT:
		free(*(char **)f);
		*(char **)f = *v == '\0' ? NULL : xstrdup(v);
		return (0);
	case CONFIG_USERS:
	case CONFIG_GROUPS:
		return (allow_parse(f, v, k->type == CONFIG_GROUPS, reason));
	case CONFIG_NAME:
		if (config_table_username(v, reason) != 0)
			return (-1);
		free(*(char **)f);
		*(char **)f = *v == '\0' ? NULL : xstrdup(v);
		return (0);
	case CONFIG_UNIX:
	case CONFIG_TCP:
	case CONFIG_TCP_PROXY:
	case CONFIG_METRICS:
	case CONFIG_TLS:
	case CONFIG_TLS_PROXY:
	case CONFIG_HTTP:
	case CONFIG_HTTP_PROXY:
	case CONFIG_HTTPS:
	case CONFIG_HTTPS_PROXY:
		return (config_table_listen(cf, k->type, v, reason));
	case CONFIG_NETS:
		return (trust_parse(f, v, reason));
	}

	config_table_store(k, f, n, i);
	return (0);
}

void
config_table_format(const struct config *cf, const struct config_key *k,
    char *buf, size_t len)
{
	const void	*f = (const char *)cf + k->off;
	const char	*s;

	switch (k->type) {
	case CONFIG_INT:
		snprintf(buf, len, "%d", *(const int *)f);
		break;
	case CONFIG_SIZE:
		snprintf(buf, len, "%zu", *(const size_t *)f);
		break;
	case CONFIG_U64:
		snprintf(buf, len, "%llu",
		    (unsigned long long)*(const uint64_t *)f);
		break;
	case CONFIG_ULONG:
		snprintf(buf, len, "%lu", *(const unsigned long *)f);
		break;
	case CONFIG_MODE:
		snprintf(buf, len, "%04o", (unsigned int)*(const mode_t *)f);
		break;
	case CONFIG_NETS:
		s = ((const struct trust_list *)f)->text;
		snprintf(buf, len, "%s", s == NULL ? "" : s);
		break;
	case CONFIG_USERS:
	case CONFIG_GROUPS:
		s = ((const struct allow_list *)f)->text;
		snprintf(buf, len, "%s", s == NULL ? "" : s);
		break;
	case CONFIG_NAME:
	case CONFIG_TEXT:
		s = *(char *const *)f;
		snprintf(buf, len, "%s", s == NULL ? "" : s);
		break;
	case CONFIG_CHOICE:
		snprintf(buf, len, "%s", config_table_name(k->names,
		    *(const int *)f));
		break;
	default:	/* repeatable: see config_print() */
		snprintf(buf, len, "%s", "");
		break;
	}
}
