/* SPDX-License-Identifier: ISC */
/*
 * reload.h -- what a reload (SIGHUP) can and cannot change.
 */
#ifndef RELOAD_H
#define RELOAD_H

#include <stddef.h>

struct config;

/*
 * Compare the running configuration with a newly loaded one and log,
 * at warning level, every key that differs but takes effect only after
 * a restart (the keys without CONFIG_RELOAD in config_table[], and the
 * [listen] unix/tcp lists).  Returns how many there are.  Call in the
 * SIGHUP handler after config_load() succeeded, before switching over.
 */
int	reload_check(const struct config *old, const struct config *cf);

#endif /* RELOAD_H */
