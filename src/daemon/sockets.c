/*
 * sockets.c -- combine inherited and configured listening sockets.
 *
 * Kept apart from activation.c (which only reads what systemd passed)
 * and listener.c (which only opens what the configuration asks for), so
 * each can be tested alone; this is the policy between them.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "activation.h"
#include "config.h"
#include "listener.h"
#include "common/log.h"
#include "sockets.h"
#include "common/xmalloc.h"

/*
 * A shallow copy of cf listing only the listeners no inherited socket
 * provides; marks the inherited ones that match as used.
 */
static void
sockets_unmatched(const struct config *cf, struct activated *act,
    size_t nact, struct config *out)
{
	char	desc[256];
	size_t	i;
	int	m;

	*out = *cf;
	out->listen = xcalloc(cf->nlisten + 1, sizeof *out->listen);
	out->nlisten = 0;
	for (i = 0; i < cf->nlisten; i++) {
		m = activation_match(act, nact, &cf->listen[i]);
		if (m == -1) {
			out->listen[out->nlisten++] = cf->listen[i];
			continue;
		}
		act[m].used = 1;
		log_info("%s: inherited from the service manager",
		    activation_describe(&act[m], desc, sizeof desc));
	}
}

/* Append the inherited sockets to ls as listeners we do not own. */
static void
sockets_adopt(struct activated *act, size_t nact, struct listener **ls,
    size_t *nls)
{
	struct listener	*l;
	char		 desc[256];
	size_t		 i;

	for (i = 0; i < nact; i++) {
		activation_describe(&act[i], desc, sizeof desc);
		if (!act[i].used)
			log_info("%s: inherited from the service manager, not "
			    "in the configuration: serving it too", desc);
		*ls = xreallocarray(*ls, *nls + 1, sizeof **ls);
		l = &(*ls)[(*nls)++];
		memset(l, 0, sizeof *l);
		l->fd = act[i].fd;
		l->owned = 0;
		l->name = xstrdup(desc);
		if (act[i].family == AF_UNIX) {
			l->type = LISTEN_UNIX;
			l->path = xstrdup(act[i].path);
		} else
			l->type = LISTEN_TCP;
		act[i].fd = -1;
		log_info("listening on %s", l->name);
	}
}

int
sockets_open(const struct config *cf, struct listener **ls, size_t *nls,
    char **cause)
{
	struct activated	*act;
	struct config		 rest;
	size_t			 nact, i;

	*ls = NULL;
	*nls = 0;
	if (activation_listen_fds(&act, &nact, cause) == -1)
		return (-1);
	if (nact == 0)
		return (listener_open_all(cf, ls, nls, cause));

	sockets_unmatched(cf, act, nact, &rest);
	if (rest.nlisten > 0 &&
	    listener_open_all(&rest, ls, nls, cause) != 0) {
		for (i = 0; i < nact; i++)
			close(act[i].fd);
		free(rest.listen);
		activation_free(act, nact);
		return (-1);
	}
	free(rest.listen);
	sockets_adopt(act, nact, ls, nls);
	activation_free(act, nact);
	return (0);
}
