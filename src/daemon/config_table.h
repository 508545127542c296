/* SPDX-License-Identifier: ISC */
/*
 * config_table.h -- the table of sudokud.conf keys.
 *
 * One entry per key: where it lives, how it is read, its range and
 * default as written in the file.  config.c looks keys up here; the
 * table is also the checklist for sudokud.conf(5) and etc/sudokud.conf.
 */
#ifndef CONFIG_TABLE_H
#define CONFIG_TABLE_H

#include <stddef.h>

struct config;

enum config_type {
	CONFIG_INT,		/* int, decimal */
	CONFIG_SIZE,		/* size_t, bytes, optional k or m suffix */
	CONFIG_U64,		/* uint64_t, decimal */
	CONFIG_ULONG,		/* unsigned long, decimal */
	CONFIG_MODE,		/* mode_t, octal */
	CONFIG_NAME,		/* char *, a user or group name; "" unsets */
	CONFIG_UNIX,		/* adds a Unix socket to listen[] */
	CONFIG_TCP,		/* adds a TCP address to listen[] */
	CONFIG_TCP_PROXY,	/* the same, behind a load balancer */
	CONFIG_METRICS,		/* a TCP address for Prometheus */
	CONFIG_TLS,		/* a TCP address for clients over TLS */
	CONFIG_TLS_PROXY,	/* the same, after a PROXY header */
	CONFIG_HTTP,		/* HTTP/JSON: a TCP address or a Unix path */
	CONFIG_HTTP_PROXY,	/* the same, behind a load balancer */
	CONFIG_HTTPS,		/* HTTP/JSON over TLS, a TCP address */
	CONFIG_HTTPS_PROXY,	/* the same, after a PROXY header */
	CONFIG_NETS,		/* struct trust_list of addresses, networks */
	CONFIG_TEXT,		/* char *, a file or a list; "" unsets */
	CONFIG_USERS,		/* struct allow_list of user names */
	CONFIG_GROUPS,		/* struct allow_list of group names */
	CONFIG_CHOICE		/* int, the value of a name of .names */
};

/* A name a CONFIG_CHOICE key takes, and its value. */
struct config_name {
	const char	*name;
	int		 value;
};

#define CONFIG_RELOAD	0x1	/* a reload (SIGHUP) applies a new value */
#define CONFIG_REPEAT	0x2	/* may be given more than once */
#define CONFIG_HELLO	0x4	/* a limit clients see in HELLO */
#define CONFIG_NEGOFF	0x8	/* CONFIG_INT: any negative value is -1, off */

struct config_key {
	const char		*section;
	const char		*name;
	enum config_type	 type;
	unsigned long long	 min;	/* numeric types and CONFIG_MODE */
	unsigned long long	 max;
	const char		*def;	/* as in the file; NULL: unset */
	const struct config_name *names; /* CONFIG_CHOICE; NULL ends it */
	int			 flags;
	size_t			 off;	/* offsetof(struct config, ...) */
	const char		*doc;
};

extern const struct config_key	config_table[];
extern const size_t		config_table_size;

const struct config_key	*config_table_find(const char *section,
			    const char *name);

/*
 * Parse value for key k into cf.  Returns 0, or -1 with an allocated
 * reason (without the key name) in *reason.
 */
int	config_table_set(struct config *cf, const struct config_key *k,
	    const char *value, char **reason);

/*
 * config_listen.c: a listener of type and kind at the address v (a path,
 * or HOST:PORT) added to cf; 0, or -1 with an allocated reason.
 */
int	config_listen_add(struct config *cf, enum listen_type,
	    enum listen_kind, const char *v, char **reason);

/* The value of a non-repeatable key as it would be written in the file. */
void	config_table_format(const struct config *cf,
	    const struct config_key *k, char *buf, size_t len);

#endif /* CONFIG_TABLE_H */
