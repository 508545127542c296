/* SPDX-License-Identifier: ISC */
/*
 * evbase.c -- one thread's event base (see evbase.h).
 */
#include <event2/event.h>

#include "common/log.h"
#include "evbase.h"

struct event_base *
evbase_new(void)
{
	struct event_config	*ecf;
	struct event_base	*base;

	if ((ecf = event_config_new()) == NULL)
		fatalx("%s: event_config_new failed", __func__);
	event_config_set_flag(ecf, EVENT_BASE_FLAG_NOLOCK);
	base = event_base_new_with_config(ecf);
	event_config_free(ecf);
	if (base == NULL)
		fatalx("%s: event_base_new failed", __func__);
	return (base);
}
