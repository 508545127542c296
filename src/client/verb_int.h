/* SPDX-License-Identifier: ISC */
/*
 * verb_int.h -- the rows of sudokuc's verb table, each defined in the
 * file of its verbs' checks and replies, listed by verb.c.
 */
#ifndef VERB_INT_H
#define VERB_INT_H

#include "verb.h"

/* verb_solve.c: searches. */
extern const struct verb verb_solve, verb_lexmin, verb_count,
    verb_solutions;
/* verb_logic.c: the human techniques. */
extern const struct verb verb_rate, verb_hint, verb_analyze;
/* verb_path.c */
extern const struct verb verb_path;
/* verb_tools.c: the toolbox. */
extern const struct verb verb_generate, verb_canon, verb_shuffle,
    verb_minimize, verb_constrain;

#endif /* VERB_INT_H */
