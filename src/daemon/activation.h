/* SPDX-License-Identifier: ISC */
/*
 * activation.h -- listening sockets inherited from systemd.
 *
 * With socket activation systemd opens the sockets of sudokud.socket,
 * starts the daemon, and passes them as fds 3, 4, ... described by
 * LISTEN_PID, LISTEN_FDS and LISTEN_FDNAMES (sd_listen_fds(3)).  How
 * they combine with the configured listeners is listen.h's business.
 */
#ifndef ACTIVATION_H
#define ACTIVATION_H

#include <stddef.h>

struct listener;

/* First inherited fd (SD_LISTEN_FDS_START). */
#define ACTIVATION_FD_START	3

/*
 * Take the sockets systemd passed, appended to *ls (*n entries) as
 * inherited listeners.  Each one must be a listening stream socket; it
 * is made non-blocking and close-on-exec.  Returns how many (0 when
 * there is nothing for this process), or -1 with an allocated reason in
 * *cause (a broken socket unit is a configuration error; the entries
 * taken so far stay in *ls for the caller to close).  LISTEN_PID,
 * LISTEN_FDS and LISTEN_FDNAMES are removed from the environment in
 * every case.  Call once, early in main, before anything else opens a
 * file.
 */
int	activation_take(struct listener **ls, size_t *n, char **cause);

#endif /* ACTIVATION_H */
