/* SPDX-License-Identifier: ISC */
/*
 * www.h -- the page's files ([http] page, page_dir): read into memory
 * with the configuration, so that serving one never touches the file
 * system and nothing outside the directory can be named (doc/http.md,
 * "The page").
 */
#ifndef WWW_H
#define WWW_H

#include <stddef.h>

struct config;
struct www;

/* Most files, and the largest one, read: a page is a few small files. */
#define WWW_FILES	256
#define WWW_FILE_MAX	(1024 * 1024)

struct www_file {
	char		*name;		/* "index.html", "img/logo.svg" */
	const char	*type;		/* its Content-Type */
	char		*data;
	size_t		 len;
};

/*
 * The files of cf->http_page_dir into cf->www, if an HTTP listener
 * serves the page (http_page and one of http, https, ...); 0, or -1
 * with an allocated "page_dir: reason" in *cause.
 */
int		 www_load(struct config *cf, char **cause);
void		 www_free(struct www *);

/*
 * The file a request path names ("/" is index.html), or NULL: its len
 * bytes, without query, as the request line has them.
 */
const struct www_file *www_find(const struct www *, const char *path,
		    size_t len);

#endif /* WWW_H */
