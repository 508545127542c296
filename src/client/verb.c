/* SPDX-License-Identifier: ISC */
/*
 * verb.c -- sudokuc's verb table: the rows, in the order usage() and
 * --help list the commands, and the look-ups (see verb.h).
 */
#include <string.h>

#include "verb_int.h"

static const struct verb *const verbs[] = {
	&verb_solve, &verb_lexmin, &verb_count,
	&verb_analyze, &verb_rate, &verb_hint, &verb_canon, &verb_path,
	&verb_solutions, &verb_shuffle, &verb_minimize, &verb_constrain,
	&verb_generate
};
#define NVERBS	(sizeof verbs / sizeof verbs[0])

const struct verb *
verb_at(size_t i)
{
	return (i < NVERBS ? verbs[i] : NULL);
}

const struct verb *
verb_word(const char *word)
{
	size_t	i;

	for (i = 0; i < NVERBS; i++)
		if (verbs[i]->word != NULL && strcmp(verbs[i]->word, word) == 0)
			return (verbs[i]);
	return (NULL);
}

const struct verb *
verb_wire(const char *wire)
{
	size_t	i;

	for (i = 0; i < NVERBS; i++)
		if (strcmp(verbs[i]->wire, wire) == 0)
			return (verbs[i]);
	return (NULL);
}

const char *
verb_name(const struct verb *v)
{
	return (v->word != NULL ? v->word : "solve");
}
