/* SPDX-License-Identifier: ISC */
/*
 * reload.c -- tell the administrator which changes a reload ignored.
 *
 * A reload switches to the new configuration whole, but the keys
 * config_table[] does not mark CONFIG_RELOAD (workers, listeners, user,
 * group, log facility) were used once at start and stay as they were.
 * Saying so in the log is the difference between "my change did
 * nothing" and "my change needs a restart".
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "config_table.h"
#include "common/log.h"
#include "reload.h"

/* A value as a log line shows it: quoted, or "unset". */
static void
reload_show(const struct config *cf, const struct config_key *k, char *buf,
    size_t len)
{
	char	value[256];

	config_table_format(cf, k, value, sizeof value);
	if (*value == '\0')
		snprintf(buf, len, "unset");
	else
		snprintf(buf, len, "'%s'", value);
}

static int
reload_same_spec(const struct listen_spec *a, const struct listen_spec *b)
{
	if (a->type != b->type || a->kind != b->kind)
		return (0);
	if (a->type == LISTEN_UNIX)
		return (strcmp(a->path, b->path) == 0);
	return (strcmp(a->host, b->host) == 0 && strcmp(a->port, b->port) == 0);
}

/* Is every listener of the key's kind in a also in b? */
static int
reload_listen_subset(const struct config *a, const struct config *b,
    const struct config_key *k)
{
	size_t	i, j;

	for (i = 0; i < a->nlisten; i++) {
		if (config_spec_key(&a->listen[i]) != (int)k->type)
			continue;
		for (j = 0; j < b->nlisten; j++) {
			if (reload_same_spec(&a->listen[i], &b->listen[j]))
				break;
		}
		if (j == b->nlisten)
			return (0);
	}
	return (1);
}

static int
reload_listen_changed(const struct config *old, const struct config *cf,
    const struct config_key *k)
{
	return (!reload_listen_subset(old, cf, k) ||
	    !reload_listen_subset(cf, old, k));
}

int
reload_check(const struct config *old, const struct config *cf)
{
	const struct config_key	*k;
	char			 was[260], now[260];
	size_t			 i;
	int			 n = 0;

	for (i = 0; i < config_table_size; i++) {
		k = &config_table[i];
		if (k->flags & CONFIG_RELOAD)
			continue;
		if (k->flags & CONFIG_REPEAT) {
			if (!reload_listen_changed(old, cf, k))
				continue;
			log_warnx("[%s] %s changed: restart needed, still "
			    "listening as before", k->section, k->name);
			n++;
			continue;
		}
		reload_show(old, k, was, sizeof was);
		reload_show(cf, k, now, sizeof now);
		if (strcmp(was, now) == 0)
			continue;
		log_warnx("[%s] %s changed from %s to %s: restart needed, "
		    "still using %s", k->section, k->name, was, now, was);
		n++;
	}
	return (n);
}
