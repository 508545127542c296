/* SPDX-License-Identifier: ISC */
/*
 * verb_logic.c -- the verbs of the human techniques: RATE (sudokuc
 * rate), HINT (sudokuc hint) and ANALYZE (sudokuc analyze), each a row
 * of the verb table (verb.h) with its reply checked and, for -L, made
 * as the daemon makes it (proto_logic.c).
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "reply.h"
#include "verb_int.h"

/* ANALYZE's status, for 0, 1 and 2 (two or more) solutions. */
static const char *const logic_status[] = { "nosolution", "unique",
    "multiple" };

/* The keys of ANALYZE's reply, in their order; the last four if unique. */
static const char *const logic_keys[] = {
	"status=", "clues=", "guesses=", "solution=", "level=", "score=",
	"hardest="
};
#define LOGIC_NKEYS	(sizeof logic_keys / sizeof logic_keys[0])

static int
rate_check(const struct query *q, const struct item *it,
    const char *reply, char *why, size_t size)
{
	(void)q;
	(void)it;
	return (check_rate(reply, why, size));
}

static void
rate_reply(const struct item *it, const struct query *q,
    struct reply_buf *b)
{
	struct sudoku_grid	sol;
	struct sudoku_rating	r;

	if (reply_unique(it, q, &sol, b->p, b->size) == -1)
		return;
	if (sudoku_rate(&it->grid, q->budget, &r) != SUDOKU_SOLVED)
		snprintf(b->p, b->size, "ERR budget the rating ran out of "
		    "budget");
	else
		sudoku_rating_text(&r, b->p, b->size);
}

/* The state a hint was asked for: the player's grid, or the puzzle. */
static void
hint_state(const struct query *q, const struct item *it,
    struct sudoku_cands *c)
{
	if (q->grid == NULL || sudoku_cands_parse(q->grid, q->gridlen,
	    &it->grid, c, NULL) != 0)
		sudoku_cands_init(c, &it->grid);
}

/* Is every cell of c down to one candidate? */
static int
hint_filled(const struct sudoku_cands *c)
{
	int	i;

	for (i = 0; i < SUDOKU_CELLS; i++)
		if (c->mask[i] == 0 || (c->mask[i] & (c->mask[i] - 1)) != 0)
			return (0);
	return (1);
}

/* "<technique> <actions> <text>", sound; or "solved" when it is. */
static int
hint_check(const struct query *q, const struct item *it, const char *reply,
    char *why, size_t size)
{
	struct sudoku_cands	 c;
	struct sudoku_grid	 sol;
	unsigned long		 n = 0;
	const char		*p;
	size_t			 len = strcspn(reply, " ");

	hint_state(q, it, &c);
	if (strcmp(reply, "solved") == 0)
		return (hint_filled(&c) ? 0 : check_fail(why, size,
		    "\"solved\", but cells are still open"));
	if (check_technique(reply, len) == SUDOKU_TECH_COUNT ||
	    reply[len] != ' ')
		return (check_fail(why, size, "not a hint: no technique"));
	/* The solution, if this side can be sure of it. */
	if (sudoku_count(&it->grid, 2, CHECK_BUDGET, &n, &sol, NULL) !=
	    SUDOKU_SOLVED || n != 1)
		n = 0;
	p = reply + len + 1;
	for (;;) {
		if (check_action(&p, n == 1 ? &sol : NULL, why, size) != 0)
			return (-1);
		if (*p != ',')
			break;
		p++;
	}
	if (*p != ' ')
		return (check_fail(why, size, "not a hint: no explanation"));
	return (0);
}

/* The next step from the player's grid, or from the puzzle's cells. */
static void
hint_reply(const struct item *it, const struct query *q,
    struct reply_buf *b)
{
	struct sudoku_grid	 sol;
	struct sudoku_cands	 c;
	struct sudoku_step	 step;
	char			 text[REPLY_MAX];
	int			 n;

	/* The player's grid, or the puzzle's cells, as the daemon does. */
	if (q->grid != NULL)
		n = sudoku_cands_parse(q->grid, q->gridlen, &it->grid, &c, NULL);
	else
		n = sudoku_cands_parse(it->cells, SUDOKU_CELLS, &it->grid, &c,
		    NULL);
	if (n != 0)	/* cannot be: sudokuc checked both */
		sudoku_cands_init(&c, &it->grid);
	if (reply_state(it, q, &c, &sol, b) == -1)
		return;
	switch (sudoku_hint(&c, &step)) {
	case SUDOKU_HINT_STEP:
		sudoku_step_text(&step, text, sizeof text);
		snprintf(b->p, b->size, "%s", text);
		break;
	case SUDOKU_HINT_DONE:
		snprintf(b->p, b->size, "solved");
		break;
	case SUDOKU_HINT_NOSTEP:
		snprintf(b->p, b->size, "ERR nostep no logical step applies; "
		    "this needs trial and error");
		break;
	default:
		snprintf(b->p, b->size, "ERR wrong the grid contradicts "
		    "itself");
		break;
	}
}

/*
 * ANALYZE's status against a count to 2 here: each valid line of a
 * lying status would pass otherwise.  Unless the count runs out.
 */
static int
analyze_status(const struct item *it, const char *status, char *why,
    size_t size)
{
	int	n;

	if ((n = check_many(it)) == -1 ||
	    strcmp(status, logic_status[n]) == 0)
		return (0);
	return (check_fail(why, size, "status %s, but the puzzle has %s",
	    status, check_has(n)));
}

/*
 * "status=S clues=N guesses=N", and for a unique puzzle " solution=
 * level= score= hardest=": the clues the puzzle's, the solution valid,
 * the rating as RATE's would be.
 */
static int
analyze_check(const struct query *q, const struct item *it,
    const char *reply, char *why, size_t size)
{
	const char	*p = reply, *val[LOGIC_NKEYS];
	size_t		 len[LOGIC_NKEYS], n = 0, k;
	char		 text[128], sol[SUDOKU_CELLS + 1];
	int		 i, want = 0;

	(void)q;
	for (; n < LOGIC_NKEYS && *p != '\0'; n++) {
		k = strlen(logic_keys[n]);
		if (strncmp(p, logic_keys[n], k) != 0)
			return (check_fail(why, size, "not an analysis"));
		val[n] = p + k;
		len[n] = strcspn(val[n], " ");
		p = val[n] + len[n] + (val[n][len[n]] == ' ');
	}
	for (i = 0; i < SUDOKU_CELLS; i++)
		want += it->grid.cell[i] != 0;
	snprintf(text, sizeof text, "%d", want);
	if (*p != '\0' || (n != 3 && n != LOGIC_NKEYS) ||
	    len[1] != strlen(text) || strncmp(val[1], text, len[1]) != 0 ||
	    len[2] == 0 || strspn(val[2], "0123456789") != len[2])
		return (check_fail(why, size, "not an analysis of this "
		    "puzzle"));
	snprintf(text, sizeof text, "%.*s", (int)len[0], val[0]);
	if (analyze_status(it, text, why, size) != 0)
		return (-1);
	if (n == 3)
		return (strcmp(text, "multiple") == 0 ||
		    strcmp(text, "nosolution") == 0 ? 0 : check_fail(why, size,
		    "not an analysis: status %s", text));
	if (strcmp(text, "unique") != 0 || len[3] != SUDOKU_CELLS)
		return (check_fail(why, size, "not an analysis: status %s",
		    text));
	memcpy(sol, val[3], SUDOKU_CELLS);
	sol[SUDOKU_CELLS] = '\0';
	if (check_solution(it, sol, why, size) != 0)
		return (-1);
	snprintf(text, sizeof text, "%.*s %.*s %.*s", (int)len[4], val[4],
	    (int)len[5], val[5], (int)len[6], val[6]);
	return (check_rate(text, why, size));
}

/* The rating of a unique puzzle (sol its solution): 0, or -1 if none. */
static int
analyze_rating(const struct item *it, const struct query *q,
    const struct sudoku_grid *sol, struct sudoku_rating *r)
{
	if (it->marked)		/* as proto_logic_analyzed() */
		return (sudoku_rate_cands(&it->marks, sol, r, NULL) ==
		    SUDOKU_HINT_DONE ? 0 : -1);
	return (sudoku_rate(&it->grid, q->budget, r) == SUDOKU_SOLVED ? 0 :
	    -1);
}

/* ANALYZE: status, clues, guesses; solution and rating if unique. */
static void
analyze_reply(const struct item *it, const struct query *q,
    struct reply_buf *b)
{
	struct sudoku_search	 s;
	struct sudoku_grid	 sol;
	struct sudoku_rating	 r;
	struct sudoku_stats	 st;
	unsigned long		 n = 0;
	char			 text[SUDOKU_CELLS + 1];
	int			 i, clues = 0, len;

	for (i = 0; i < SUDOKU_CELLS; i++)
		clues += it->grid.cell[i] != 0;
	item_search(it, &s, SUDOKU_ANY, 2, q->budget);
	if (sudoku_search_run(&s, 0) == SUDOKU_BUDGET) {
		reply_result(SUDOKU_BUDGET, q->budget, b->p, b->size);
		return;
	}
	sudoku_search_result(&s, &n, &sol, &st);
	if (n == 1 && analyze_rating(it, q, &sol, &r) != 0) {
		snprintf(b->p, b->size, "ERR budget the rating ran out of "
		    "budget");
		return;
	}
	len = snprintf(b->p, b->size, "status=%s clues=%d guesses=%llu",
	    logic_status[n < 2 ? n : 2], clues,
	    (unsigned long long)st.guesses);
	if (n != 1 || len < 0 || (size_t)len >= b->size)
		return;
	sudoku_format(&sol, text);
	text[SUDOKU_CELLS] = '\0';
	snprintf(b->p + len, b->size - (size_t)len, " solution=%s level=%s "
	    "score=%u.%u hardest=%s", text, sudoku_level_name(r.level),
	    r.score / 10, r.score % 10, sudoku_technique_name(r.hardest));
}

/*
 * RATE and HINT rate or step only a puzzle of one solution: nosolution
 * and multiple are theirs; HINT's wrong is a player's grid at odds with
 * the solution, nostep a grid logic cannot move on.  ANALYZE says how
 * many solutions in its status, and takes pencil marks, as the other
 * verbs of a search do.
 */
const struct verb verb_rate = {
	.word = "rate", .wire = "RATE", .done = "rated",
	.errors = " nosolution multiple ", .flags = VERB_SEARCH,
	.print = VERB_PRINT_LINE, .usage = "[puzzle | file | -] ...",
	.about = "the difficulty (level, score, hardest technique)",
	.check = rate_check, .reply = rate_reply
};

const struct verb verb_hint = {
	.word = "hint", .wire = "HINT", .done = "hinted",
	.errors = " nosolution multiple wrong nostep ",
	.flags = VERB_SEARCH | VERB_DRAWN, .arg = VERB_ARG_GRID,
	.print = VERB_PRINT_LINE, .usage = "[puzzle | file | -] [grid]",
	.about = "the next logical step, from the puzzle or a grid",
	.check = hint_check, .reply = hint_reply
};

const struct verb verb_analyze = {
	.word = "analyze", .wire = "ANALYZE", .done = "analyzed",
	.errors = " ", .flags = VERB_SEARCH | VERB_MARKS,
	.print = VERB_PRINT_LINE, .usage = "[puzzle | file | -] ...",
	.about = "solutions, clues, effort and rating",
	.check = analyze_check, .reply = analyze_reply
};
