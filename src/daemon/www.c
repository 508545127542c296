/* SPDX-License-Identifier: ISC */
/*
 * www.c -- the page's files, in memory (see www.h).
 *
 * A name is letters, digits, '-', '_' and '.', not starting with '.'
 * (so no "..", no hidden file), and a file is one of page_dir or of a
 * directory directly in it, opened with O_NOFOLLOW under the directory's
 * descriptor: a symbolic link is not followed, whatever it names.  A
 * file of an extension outside www_types[] is not served (a README, a
 * backup~), nor looked at.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "config.h"
#include "www.h"

struct www {
	struct www_file	 files[WWW_FILES];
	size_t		 n;
};

static const struct {
	const char	*ext;
	const char	*type;
} www_types[] = {
	{ ".html", "text/html; charset=utf-8" },
	{ ".css", "text/css; charset=utf-8" },
	{ ".js", "text/javascript; charset=utf-8" },
	{ ".json", "application/json" },
	{ ".svg", "image/svg+xml" },
	{ ".png", "image/png" },
	{ ".ico", "image/x-icon" },
	{ ".txt", "text/plain; charset=utf-8" },
	{ ".webmanifest", "application/manifest+json" },
};

/* A name of the directory that may be served; its type, or NULL. */
static const char *
www_type(const char *name, size_t len)
{
	const char	*dot = NULL;
	size_t		 i;

	if (len == 0 || name[0] == '.')
		return (NULL);
	for (i = 0; i < len; i++) {
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		    (name[i] >= 'A' && name[i] <= 'Z') ||
		    (name[i] >= '0' && name[i] <= '9') || name[i] == '-' ||
		    name[i] == '_' || name[i] == '.'))
			return (NULL);
		if (name[i] == '.')
			dot = name + i;
	}
	if (dot == NULL)
		return ("");	/* a directory, maybe */
	for (i = 0; i < sizeof www_types / sizeof www_types[0]; i++)
		if (strlen(www_types[i].ext) == (size_t)(name + len - dot) &&
		    memcmp(www_types[i].ext, dot, (size_t)(name + len - dot))
		    == 0)
			return (www_types[i].type);
	return (NULL);
}

/* Why a name could not be opened: a symbolic link is said as such. */
static const char *
www_why(int error)
{
	return (error == ELOOP ? "a symbolic link (not followed)" :
	    strerror(error));
}

/* The regular file name under dirfd into f; -1 with *cause. */
static int
www_read(int dirfd, const char *name, const char *shown, struct www_file *f,
    char **cause)
{
	struct stat	 sb;
	ssize_t		 n = 0;
	size_t		 got = 0;
	int		 fd;

	if ((fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
	    O_NONBLOCK)) == -1 || fstat(fd, &sb) == -1) {
		xasprintf(cause, "%s: %s", shown, www_why(errno));
		goto fail;
	}
	if (!S_ISREG(sb.st_mode) || sb.st_size > WWW_FILE_MAX) {
		xasprintf(cause, "%s: %s", shown, !S_ISREG(sb.st_mode) ?
		    "not a regular file" : "larger than 1 MiB");
		goto fail;
	}
	f->data = xmalloc((size_t)sb.st_size + 1);
	while (got < (size_t)sb.st_size && (n = read(fd, f->data + got,
	    (size_t)sb.st_size - got)) > 0)
		got += (size_t)n;
	if (n == -1) {		/* not a file cut short and served so */
		xasprintf(cause, "%s: %s", shown, strerror(errno));
		free(f->data);
		f->data = NULL;
		goto fail;
	}
	f->len = got;
	close(fd);
	return (0);
fail:
	if (fd != -1)
		close(fd);
	return (-1);
}

/* The files of the directory dirfd (prefix: its name and '/', or ""). */
static int
www_dir(struct www *w, int dirfd, const char *prefix, int depth,
    char **cause)
{
	struct dirent	*de;
	struct stat	 sb;
	DIR		*d;
	const char	*type;
	char		*name;
	int		 sub, r = 0;

	if ((d = fdopendir(dirfd)) == NULL) {
		xasprintf(cause, "%s: %s", prefix, strerror(errno));
		close(dirfd);
		return (-1);
	}
	while (r == 0 && (de = readdir(d)) != NULL) {
		if ((type = www_type(de->d_name, strlen(de->d_name))) == NULL)
			continue;
		xasprintf(&name, "%s%s", prefix, de->d_name);
		if (*type == '\0') {
			/* A directory, or a file not served (README). */
			if (depth == 0 && (sub = openat(dirfd, de->d_name,
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			    O_CLOEXEC)) != -1) {
				free(name);
				xasprintf(&name, "%s%s/", prefix, de->d_name);
				r = www_dir(w, sub, name, 1, cause);
			} else if (depth == 0 && fstatat(dirfd, de->d_name, &sb,
			    AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(sb.st_mode)) {
				xasprintf(cause, "%s: %s", name, www_why(ELOOP));
				r = -1;
			}
			free(name);
			continue;
		}
		if (w->n == WWW_FILES) {
			xasprintf(cause, "more than %d files", WWW_FILES);
			r = -1;
		} else if ((r = www_read(dirfd, de->d_name, name,
		    &w->files[w->n], cause)) == 0) {
			w->files[w->n].name = name;
			w->files[w->n++].type = type;
			continue;
		}
		free(name);
	}
	closedir(d);
	return (r);
}

/* Does cf serve the page? */
static int
www_wanted(const struct config *cf)
{
	size_t	i;

	if (!cf->http_page)
		return (0);
	for (i = 0; i < cf->nlisten; i++)
		if (config_spec_http(&cf->listen[i]))
			return (1);
	return (0);
}

int
www_load(struct config *cf, char **cause)
{
	struct www	*w;
	char		*why = NULL;
	int		 fd;

	if (!www_wanted(cf))
		return (0);
	w = xcalloc(1, sizeof *w);
	if ((fd = open(cf->http_page_dir, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) == -1)
		xasprintf(&why, "%s", strerror(errno));
	else if (www_dir(w, fd, "", 0, &why) == 0 &&
	    www_find(w, "/", 1) == NULL)
		xasprintf(&why, "no index.html");
	if (why != NULL) {
		xasprintf(cause, "[http] page_dir %s: %s (page = 0 serves no "
		    "page)", cf->http_page_dir, why);
		free(why);
		www_free(w);
		return (-1);
	}
	cf->www = w;
	return (0);
}

void
www_free(struct www *w)
{
	size_t	i;

	if (w == NULL)
		return;
	for (i = 0; i < w->n; i++) {
		free(w->files[i].name);
		free(w->files[i].data);
	}
	free(w);
}

const struct www_file *
www_find(const struct www *w, const char *path, size_t len)
{
	size_t	i;

	if (w == NULL || len == 0 || path[0] != '/')
		return (NULL);
	if (len == 1) {
		path = "/index.html";
		len = 11;
	}
	for (i = 0; i < w->n; i++)
		if (strlen(w->files[i].name) == len - 1 &&
		    memcmp(w->files[i].name, path + 1, len - 1) == 0)
			return (&w->files[i]);
	return (NULL);
}
