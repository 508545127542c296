/* SPDX-License-Identifier: ISC */
/*
 * proto_words.c -- the words of a reply line as JSON values, for
 * proto_json.c: numbers, lists, key=value tokens, and a logical step
 * (HINT's, PATH's) with the cells and units its explanation names.
 */
#include <sys/types.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "proto.h"
#include "proto_int.h"

json_t *
proto_words_str(const char *s, size_t len)
{
	return (json_stringn_nocheck(s, len));
}

/*
 * A value of key=value: an integer if it is digits that fit, a number
 * if it is digits with one '.', else a string.
 */
json_t *
proto_words_scalar(const char *s, size_t len)
{
	const char	*dot = memchr(s, '.', len);
	char		 buf[32], *end;
	unsigned long long n;
	size_t		 i;

	for (i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s + i == dot && i > 0 &&
		    i + 1 < len)))
			return (proto_words_str(s, len));
	if (len == 0 || len >= sizeof buf)
		return (proto_words_str(s, len));
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (dot != NULL)
		return (json_real(strtod(buf, NULL)));
	errno = 0;
	n = strtoull(buf, &end, 10);
	if (errno != 0 || n > INT64_MAX)
		return (proto_words_str(s, len));
	return (json_integer((json_int_t)n));
}

/* Keys whose values are comma-separated lists (HELLO's). */
static int
json_listkey(const char *k, size_t len)
{
	static const char *const keys[] = {
		"verbs", "options", "levels", "symmetries", "http"
	};
	size_t	i;

	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strlen(keys[i]) == len && memcmp(keys[i], k, len) == 0)
			return (1);
	return (0);
}

static json_t *
json_list(const char *s, size_t len)
{
	json_t		*a = json_array();
	const char	*comma;
	size_t		 n;

	while (len > 0) {
		comma = memchr(s, ',', len);
		n = comma != NULL ? (size_t)(comma - s) : len;
		json_array_append_new(a, proto_words_str(s, n));
		if (comma == NULL)
			break;
		s += n + 1;
		len -= n + 1;
	}
	return (a);
}

/* Is the len bytes at k one of the blank-separated words of list? */
static int
json_in(const char *list, const char *k, size_t len)
{
	const char	*w = list;

	if (len == 0)
		return (0);
	while ((w = strstr(w, k)) != NULL) {
		if ((w == list || w[-1] == ' ') && (w[len] == ' ' ||
		    w[len] == '\0'))
			return (1);
		w += len;
	}
	return (0);
}

/*
 * key=value tokens into o: lists where json_listkey() says, request=
 * (the slow log's) to the end of the line, strings where the key is in
 * strs (blank-separated), scalars otherwise.
 */
void
proto_words_kv(json_t *o, const char *s, size_t len, const char *strs)
{
	const char	*sp, *eq;
	size_t		 n, klen;
	char		 key[40];

	while (len > 0) {
		if (len > 8 && memcmp(s, "request=", 8) == 0)
			n = len;
		else {
			sp = memchr(s, ' ', len);
			n = sp != NULL ? (size_t)(sp - s) : len;
		}
		if ((eq = memchr(s, '=', n)) != NULL &&
		    (klen = (size_t)(eq - s)) < sizeof key) {
			memcpy(key, s, klen);
			key[klen] = '\0';
			if (json_listkey(key, klen))
				json_object_set_new(o, key, n - klen - 1 == 4 &&
				    memcmp(eq + 1, "none", 4) == 0 ?
				    json_array() : json_list(eq + 1,
				    n - klen - 1));
			else if (json_in(strs, key, klen))
				json_object_set_new(o, key, proto_words_str(eq + 1,
				    n - klen - 1));
			else
				json_object_set_new(o, key, proto_words_scalar(eq + 1,
				    n - klen - 1));
		}
		s += n;
		len -= n;
		while (len > 0 && *s == ' ')
			s++, len--;
	}
}

/* The first word of s, its length; *rest gets what follows the blank. */
size_t
proto_words_word(const char *s, size_t len, const char **rest, size_t *restlen)
{
	const char	*sp = memchr(s, ' ', len);
	size_t		 n = sp != NULL ? (size_t)(sp - s) : len;

	*rest = s + n + (sp != NULL);
	*restlen = len - n - (sp != NULL);
	return (n);
}

int
proto_words_digit(int c)
{
	return (c >= '0' && c <= '9');
}

static int
json_isalnum(int c)
{
	return (proto_words_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'));
}

/* Append s (len bytes) to the array a unless it holds it already. */
static void
json_once(json_t *a, const char *s, size_t len)
{
	size_t	 i;
	json_t	*v;

	json_array_foreach(a, i, v)
		if (json_string_length(v) == len &&
		    memcmp(json_string_value(v), s, len) == 0)
			return;
	json_array_append_new(a, proto_words_str(s, len));
}

/* Every cell "rRcC" the text names, in its order, once each. */
json_t *
proto_words_cells(const char *s, size_t len)
{
	json_t	*a = json_array();
	size_t	 i;

	for (i = 0; i + 4 <= len; i++)
		if (s[i] == 'r' && proto_words_digit(s[i + 1]) && s[i + 1] != '0' &&
		    s[i + 2] == 'c' && proto_words_digit(s[i + 3]) &&
		    s[i + 3] != '0' && (i == 0 || !json_isalnum(s[i - 1])) &&
		    (i + 4 == len || !json_isalnum(s[i + 4])))
			json_once(a, s + i, 4);
	return (a);
}

/* Every unit the text names ("row 3", "columns 3,8"), as "column 3". */
static json_t *
json_units(const char *s, size_t len)
{
	static const char *const kinds[] = { "row", "column", "box" };
	json_t		*a = json_array();
	size_t		 i, k, n;
	char		 unit[16];

	for (i = 0; i < len; i++) {
		if (i > 0 && json_isalnum(s[i - 1]))
			continue;
		for (k = 0; k < 3; k++) {
			n = strlen(kinds[k]);
			if (len - i < n + 2 || memcmp(s + i, kinds[k], n) != 0)
				continue;
			if (s[i + n] == 'e' && s[i + n + 1] == 's')
				n += 2;		/* boxes */
			else if (s[i + n] == 's')
				n++;
			if (i + n + 1 >= len || s[i + n] != ' ')
				continue;
			for (n++; i + n < len && proto_words_digit(s[i + n]) &&
			    s[i + n] != '0'; n += 2) {
				snprintf(unit, sizeof unit, "%s %c", kinds[k],
				    s[i + n]);
				json_once(a, unit, strlen(unit));
				if (i + n + 1 >= len || s[i + n + 1] != ',')
					break;
			}
		}
	}
	return (a);
}

/* "r5c5=5,r1c2-3": placements and eliminations, {"cell", "digit"}. */
static void
json_actions(json_t *o, const char *s, size_t len)
{
	json_t	*place = json_array(), *elim = json_array(), *act;
	size_t	 i;

	for (i = 0; i + 6 <= len; i += 7) {
		act = json_object();
		json_object_set_new(act, "cell", proto_words_str(s + i, 4));
		json_object_set_new(act, "digit", json_integer(s[i + 5] - '0'));
		json_array_append_new(s[i + 4] == '=' ? place : elim, act);
	}
	json_object_set_new(o, "placements", place);
	json_object_set_new(o, "eliminations", elim);
}

/* A step of HINT or PATH: "technique actions explanation". */
json_t *
proto_words_step(const char *s, size_t len, int solved)
{
	json_t		*o = json_object();
	const char	*acts, *expl;
	size_t		 n, alen, elen;

	if (solved)
		json_object_set_new(o, "solved", json_false());
	n = proto_words_word(s, len, &acts, &alen);
	json_object_set_new(o, "technique", proto_words_str(s, n));
	alen = proto_words_word(acts, alen, &expl, &elen);
	json_actions(o, acts, alen);
	json_object_set_new(o, "explanation", proto_words_str(expl, elen));
	json_object_set_new(o, "cells", proto_words_cells(expl, elen));
	json_object_set_new(o, "units", json_units(expl, elen));
	return (o);
}
