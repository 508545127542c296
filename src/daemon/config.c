/* SPDX-License-Identifier: ISC */
/*
 * config.c -- read sudokud.conf(5) with inih.
 *
 * inih parses: sections, "name = value", comments, inline comments.  It
 * reads through config_reader(), which does only what inih r55 (Debian
 * 12, built without INI_HANDLER_LINENO) cannot: it counts lines, so
 * that config_handler() knows which line a key is on; it refuses lines
 * inih would silently split (over 199 bytes) or cut (a NUL byte) and
 * bytes that are not text (control characters); and
 * it removes leading blanks, which inih would take as a continuation of
 * the previous value.  A line inih cannot parse makes ini_parse_stream()
 * return its number.  Every error reads "file:line: reason".
 *
 * Nothing here reads without end: the file must be a regular file of at
 * most CONFIG_FILE_MAX bytes (a device, a FIFO or a directory is refused
 * before a byte is read, and opening does not wait for a FIFO's writer),
 * a line is refused at its first byte too many, and the reading stops at
 * CONFIG_FILE_MAX even if the file grows under it.  A path naming
 * /dev/zero, at start or at a reload, is an error, not a hang.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ini.h>

#include "config.h"
#include "auth.h"
#include "config_table.h"
#include "tls.h"
#include "www.h"
#include "common/log.h"
#include "common/xmalloc.h"

/*
 * Longest line accepted, without its LF or CRLF: inih r55 reads into a
 * 200-byte buffer that also holds the terminating NUL.
 */
#define CONFIG_LINE_MAX	199

/*
 * Largest file read: the shipped file is 9 KiB, and even a file of a
 * thousand listeners is under 200 KiB.
 */
#define CONFIG_FILE_MAX	(1024 * 1024)

static const char *const config_sections[] = {
	"server", "solver", "listen", "tls", "http", "log"
};

/* One parse of one file. */
struct config_parse {
	struct config	*cf;
	const char	*file;
	FILE		*f;
	size_t		 bytes;		/* read so far */
	int		 lineno;
	int		*seen;		/* line of first use, 0: none */
	char		*cause;		/* first error */
	int		 errline;	/* its line */
};

static void	config_defaults(struct config *);
static int	config_error(struct config_parse *, const char *, ...)
		    __attribute__((__format__(__printf__, 2, 3)));
static FILE	*config_open(const char *, char **);
static int	config_getline(struct config_parse *, char *, size_t,
		    size_t *);
static char	*config_reader(char *, int, void *);
static int	config_handler(void *, const char *, const char *,
		    const char *);
static int	config_check(struct config_parse *);
static void	config_add_default_listen(struct config *);

static void
config_defaults(struct config *cf)
{
	const struct config_key	*k;
	char			*reason;
	size_t			 i;

	for (i = 0; i < config_table_size; i++) {
		k = &config_table[i];
		if (k->def == NULL || (k->flags & CONFIG_REPEAT))
			continue;
		if (config_table_set(cf, k, k->def, &reason) != 0)
			fatalx("built-in default %s = %s: %s", k->name, k->def,
			    reason);
	}
}

/*
 * No listener for requests (unix, tcp, tcp_proxy): the default Unix
 * socket.  A metrics listener alone does not count, so that adding one
 * to a file that relied on the default keeps it.
 */
static void
config_add_default_listen(struct config *cf)
{
	char	*reason;
	size_t	 i;

	for (i = 0; i < cf->nlisten; i++)
		if (cf->listen[i].kind != LISTEN_METRICS)
			return;
	if (config_table_set(cf, config_table_find("listen", "unix"),
	    SUDOKUD_SOCKET_PATH, &reason) != 0)
		fatalx("built-in socket %s: %s", SUDOKUD_SOCKET_PATH, reason);
}

/* Record the first error as "file:line: reason"; returns 0 for inih. */
static int
config_error(struct config_parse *p, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	if (p->cause != NULL)
		return (0);
	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	xasprintf(&p->cause, "%s:%d: %s", p->file, p->lineno, msg);
	p->errline = p->lineno;
	free(msg);
	return (0);
}

/*
 * Read one line into buf, without its LF or CRLF; *len is its length.
 * Reading stops at the first byte that does not fit (*len is then
 * size - 1 and the line has no end here): a line without end is
 * refused as soon as it is too long.  Returns 1, 0 at end of file, -1
 * on a read error, -2 past CONFIG_FILE_MAX bytes.
 */
static int
config_getline(struct config_parse *p, char *buf, size_t size, size_t *len)
{
	int	ch = EOF;
	size_t	n = 0;

	while (n < size - 1 && (ch = getc(p->f)) != EOF && ch != '\n')
		buf[n++] = (char)ch;
	if (ferror(p->f))
		return (-1);
	p->bytes += n + (ch == '\n');
	if (p->bytes > CONFIG_FILE_MAX)
		return (-2);
	if (ch == EOF && n == 0)
		return (0);
	if (n < size - 1 && n > 0 && buf[n - 1] == '\r')
		n--;
	buf[n] = '\0';
	*len = n;
	return (1);
}

/* inih's fgets(3): one whole, checked line at a time; NULL stops it. */
static char *
config_reader(char *str, int num, void *arg)
{
	struct config_parse	*p = arg;
	char			 buf[CONFIG_LINE_MAX + 3], *s;	/* and CR, NUL */
	size_t			 len, i;
	int			 r;

	if (p->cause != NULL || num < 2)
		return (NULL);
	if ((r = config_getline(p, buf, sizeof buf, &len)) == 0)
		return (NULL);
	p->lineno++;
	if (r == -1) {
		xasprintf(&p->cause, "%s: %s", p->file, strerror(errno));
		return (NULL);
	}
	if (r == -2) {
		xasprintf(&p->cause, "%s: file too large (more than %d bytes)",
		    p->file, CONFIG_FILE_MAX);
		return (NULL);
	}
	if (len > CONFIG_LINE_MAX || len >= (size_t)num) {
		config_error(p, "line too long (more than %d bytes)",
		    CONFIG_LINE_MAX < num - 1 ? CONFIG_LINE_MAX : num - 1);
		return (NULL);
	}
	/* Bytes inih would pass on into names and values, or cut at. */
	for (i = 0; i < len; i++) {
		if (buf[i] == '\0') {
			config_error(p, "NUL byte in line");
			return (NULL);
		}
		if (iscntrl((unsigned char)buf[i]) && buf[i] != '\t') {
			config_error(p, "control character 0x%02x",
			    (unsigned char)buf[i]);
			return (NULL);
		}
	}
	/* No leading blanks: inih would take the line as a continuation. */
	for (s = buf; *s == ' ' || *s == '\t'; s++)
		;
	memcpy(str, s, strlen(s) + 1);
	return (str);
}

static int
config_handler(void *arg, const char *section, const char *name,
    const char *value)
{
	struct config_parse	*p = arg;
	const struct config_key	*k;
	char			*reason;
	size_t			 i;

	if (*name == '\0')
		return (config_error(p, "syntax error: no name before '='"));
	if (*section == '\0')
		return (config_error(p, "'%s' outside of any section", name));
	for (i = 0; i < sizeof config_sections / sizeof config_sections[0];
	    i++) {
		if (strcmp(section, config_sections[i]) == 0)
			break;
	}
	if (i == sizeof config_sections / sizeof config_sections[0])
		return (config_error(p, "unknown section [%s]", section));
	if ((k = config_table_find(section, name)) == NULL)
		return (config_error(p, "unknown key '%s' in [%s]", name,
		    section));
	i = (size_t)(k - config_table);
	if (p->seen[i] != 0 && !(k->flags & CONFIG_REPEAT))
		return (config_error(p, "duplicate key '%s' (first at line %d)",
		    name, p->seen[i]));
	if (p->seen[i] == 0)
		p->seen[i] = p->lineno;
	/*
	 * inih takes ';' after a blank for a comment, but not right after
	 * '=': "key =;x" would be read as ";x", and config_print()'s
	 * "key = ;x" back as nothing (fuzz_config found it).
	 */
	if (*value == ';')
		return (config_error(p, "%s: a value may not begin with ';' "
		    "(it would read as a comment)", name));
	if (config_table_set(p->cf, k, value, &reason) != 0) {
		config_error(p, "%s: %s", name, reason);
		free(reason);
		return (0);
	}
	return (1);
}

/* Checks across keys, reported at the later of the lines involved. */
static int
config_check(struct config_parse *p)
{
	const struct config_key	*lo, *hi;
	int			 l, h;

	lo = config_table_find("server", "output_low");
	hi = config_table_find("server", "output_high");
	if (p->cf->output_low >= p->cf->output_high) {
		l = p->seen[lo - config_table];
		h = p->seen[hi - config_table];
		p->lineno = l > h ? l : h;
		return (config_error(p, "output_low (%zu) must be less than "
		    "output_high (%zu)", p->cf->output_low,
		    p->cf->output_high));
	}
	return (1);
}

/*
 * The file, if it is one that can be read to its end: a regular file of
 * at most CONFIG_FILE_MAX bytes; NULL with *cause "file: reason".
 */
static FILE *
config_open(const char *path, char **cause)
{
	struct stat	 sb;
	FILE		*f;
	int		 fd, flags;

	/* O_NONBLOCK: a FIFO is refused below, not waited for here. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return (NULL);
	}
	if (fstat(fd, &sb) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		close(fd);
		return (NULL);
	}
	if (!S_ISREG(sb.st_mode) || sb.st_size > CONFIG_FILE_MAX) {
		if (!S_ISREG(sb.st_mode))
			xasprintf(cause, "%s: not a regular file", path);
		else
			xasprintf(cause, "%s: file too large (%lld bytes, at "
			    "most %d)", path, (long long)sb.st_size,
			    CONFIG_FILE_MAX);
		close(fd);
		return (NULL);
	}
	if ((flags = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == -1 ||
	    (f = fdopen(fd, "r")) == NULL) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		close(fd);
		return (NULL);
	}
	return (f);
}

struct config *
config_load(const char *path, char **cause)
{
	struct config		*cf;
	struct config_parse	 p;
	int			 r;

	*cause = NULL;
	cf = xcalloc(1, sizeof *cf);
	config_defaults(cf);
	if (path == NULL) {
		config_add_default_listen(cf);
		return (cf);
	}
	cf->file = xstrdup(path);

	memset(&p, 0, sizeof p);
	p.cf = cf;
	p.file = path;
	if ((p.f = config_open(path, cause)) == NULL) {
		config_free(cf);
		return (NULL);
	}
	p.seen = xcalloc(config_table_size, sizeof *p.seen);
	r = ini_parse_stream(config_reader, &p, config_handler, &p);
	fclose(p.f);
	if (r == -2)
		fatalx("%s: inih is out of memory", path);
	/* inih's own error, on an earlier line than the handler's? */
	if (r > 0 && (p.cause == NULL || r < p.errline)) {
		free(p.cause);
		p.cause = NULL;
		p.lineno = r;
		config_error(&p, "syntax error: not '[section]', "
		    "'name = value' or a comment");
	}
	if (p.cause == NULL)
		config_check(&p);
	free(p.seen);
	if (p.cause != NULL) {
		*cause = p.cause;
		config_free(cf);
		return (NULL);
	}
	config_add_default_listen(cf);
	return (cf);
}

int
config_spec_key(const struct listen_spec *spec)
{
	static const int keys[] = {
		[LISTEN_PROXIED] = CONFIG_TCP_PROXY,
		[LISTEN_METRICS] = CONFIG_METRICS, [LISTEN_TLS] = CONFIG_TLS,
		[LISTEN_TLS_PROXIED] = CONFIG_TLS_PROXY,
		[LISTEN_HTTP] = CONFIG_HTTP,
		[LISTEN_HTTP_PROXIED] = CONFIG_HTTP_PROXY,
		[LISTEN_HTTPS] = CONFIG_HTTPS,
		[LISTEN_HTTPS_PROXIED] = CONFIG_HTTPS_PROXY
	};

	if (spec->kind == LISTEN_CLIENTS)
		return (spec->type == LISTEN_UNIX ? CONFIG_UNIX : CONFIG_TCP);
	return (keys[spec->kind]);
}

int
config_spec_http(const struct listen_spec *spec)
{
	return (spec->kind >= LISTEN_HTTP);
}

/* Write cf as a configuration file would give it. */
/*
 * A value as a person would write it in the file: a size in k or m when
 * it is a whole number of them (HELLO and /metrics keep plain numbers,
 * config_table_format()).
 */
static void
config_print_value(const struct config *cf, const struct config_key *k,
    char *buf, size_t len)
{
	size_t	v;

	if (k->type != CONFIG_SIZE) {
		config_table_format(cf, k, buf, len);
		return;
	}
	v = *(const size_t *)(const void *)((const char *)cf + k->off);
	if (v != 0 && v % (1024 * 1024) == 0)
		snprintf(buf, len, "%zum", v / (1024 * 1024));
	else if (v != 0 && v % 1024 == 0)
		snprintf(buf, len, "%zuk", v / 1024);
	else
		snprintf(buf, len, "%zu", v);
}

void
config_print(FILE *f, const struct config *cf)
{
	const struct config_key		*k;
	const struct listen_spec	*ls;
	const char			*section = "";
	char				 buf[256];
	size_t				 i, j, n;

	for (i = 0; i < config_table_size; i++) {
		k = &config_table[i];
		if (strcmp(section, k->section) != 0) {
			fprintf(f, "%s[%s]\n", *section == '\0' ? "" : "\n",
			    k->section);
			section = k->section;
		}
		if (!(k->flags & CONFIG_REPEAT)) {
			config_print_value(cf, k, buf, sizeof buf);
			if (*buf != '\0')
				fprintf(f, "%s = %s\n", k->name, buf);
			else	/* every key is shown, unset ones commented */
				fprintf(f, "; %s is not set\n", k->name);
			continue;
		}
		for (j = n = 0; j < cf->nlisten; j++) {
			ls = &cf->listen[j];
			if (config_spec_key(ls) != (int)k->type)
				continue;
			n++;
			if (ls->type == LISTEN_UNIX) {
				fprintf(f, "%s = %s\n", k->name, ls->path);
				continue;
			}
			fprintf(f, strchr(ls->host, ':') != NULL ?
			    "%s = [%s]:%s\n" : "%s = %s:%s\n", k->name,
			    ls->host, ls->port);
		}
		if (n == 0)
			fprintf(f, "; %s is not set\n", k->name);
	}
}

void
config_free(struct config *cf)
{
	size_t	i;

	if (cf == NULL)
		return;
	for (i = 0; i < cf->nlisten; i++) {
		free(cf->listen[i].path);
		free(cf->listen[i].host);
		free(cf->listen[i].port);
	}
	free(cf->listen);
	free(cf->file);
	free(cf->user);
	free(cf->group);
	free(cf->unix_group);
	free(cf->tls_cert);
	free(cf->tls_key);
	free(cf->tls_ca);
	free(cf->tls_ciphers);
	free(cf->tls_allow);
	allow_clear(&cf->allow_users);
	allow_clear(&cf->allow_groups);
	free(cf->http_page_dir);
	trust_clear(&cf->http_trusted);
	www_free(cf->www);
	tls_free(cf->tls);
	free(cf->auth_file);
	auth_free(cf->auth);
	free(cf);
}
