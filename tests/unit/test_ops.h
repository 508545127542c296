/* SPDX-License-Identifier: ISC */
/*
 * test_ops.h -- the cases of tests/unit/test_ops, one cmocka group over
 * several files: test_ops.c (main, privileges, reload reports),
 * test_notify.c (sd_notify), test_listen.c (inherited and configured
 * listening sockets).
 *
 * The expectations come from the protocols' documentation (sd_notify(3),
 * sd_listen_fds(3)) and from the kernel's own answers (getsockname,
 * getresuid), not from the modules under test.
 */
#ifndef TEST_OPS_H
#define TEST_OPS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

extern char	tmpdir[64];		/* made by the group setup */

/* A listening Unix socket at path (or abstract name). */
int	unix_listener(const char *path, int abstract);
/* A TCP listener on 127.0.0.1 and an ephemeral port, returned in *port. */
int	tcp_listener(unsigned *port);

/* test_notify.c */
void	t_notify_unset(void **);
void	t_notify_bad(void **);
void	t_notify_path(void **);
void	t_notify_abstract(void **);
void	t_notify_errors(void **);

/* test_listen.c */
int	act_setup(void **);
int	act_teardown(void **);
void	t_act_none(void **);
void	t_act_other_pid(void **);
void	t_act_two(void **);
void	t_act_abstract(void **);
void	t_act_errors(void **);
void	t_listen_merge(void **);
void	t_listen_plain(void **);
void	t_listen_check(void **);

#endif /* TEST_OPS_H */
