/* SPDX-License-Identifier: ISC */
/*
 * proto_opts.c -- a request's options: name=value tokens after its
 * arguments, on the verbs that solve (doc/protocol.md, "Options"), and
 * GENERATE's shape (symmetry=, clues=, pattern=).
 *
 * One table: the parser looks names up in it, HELP and HELLO list it.
 * A token is an option if it holds '=', which no puzzle, grid, number
 * or level does; options are taken from the end of the line, and never
 * where a verb's required arguments are, so that a line version 1
 * answered with an error about its puzzle still gets that error.
 */
#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <event2/buffer.h>

#include "proto.h"
#include "proto_int.h"
#include "stats.h"

/* The longest deadline: a day, far beyond any budget's work. */
#define OPTS_DEADLINE_MAX	86400000

struct opts_def {
	const char	*name;
	unsigned int	 bit;		/* PROTO_OPT_* */
	const char	*value;		/* HELP: what follows the '=' */
	const char	*help;
	int		(*set)(const struct proto_token *, struct proto_req *,
			    size_t);
	size_t		 off;		/* the field of struct proto_opts */
	const char	*bad;		/* why a value is refused */
};

#define OPTS_OFF(f)	offsetof(struct proto_opts, f)

static int
opts_budget(const struct proto_token *v, struct proto_req *req, size_t off)
{
	(void)off;
	return (proto_number(v, 1, UINT64_MAX, &req->opts.budget));
}

static int
opts_deadline(const struct proto_token *v, struct proto_req *req,
    size_t off)
{
	(void)off;
	return (proto_number(v, 1, OPTS_DEADLINE_MAX, &req->opts.deadline));
}

/* 0 or 1, into the flag at off. */
static int
opts_flag(const struct proto_token *v, struct proto_req *req, size_t off)
{
	if (v->len != 1 || (v->p[0] != '0' && v->p[0] != '1'))
		return (-1);
	*((unsigned char *)&req->opts + off) = v->p[0] == '1';
	return (0);
}

/* symmetry=S: one of sudoku_symmetry_name()'s words. */
static int
opts_symmetry(const struct proto_token *v, struct proto_req *req,
    size_t off)
{
	(void)off;
	req->opts.shaped = 1;
	return (sudoku_symmetry_parse(v->p, v->len, &req->shape.symmetry));
}

/* clues=N or clues=LO-HI, 17 to 81: no proper puzzle has fewer. */
static int
opts_clues(const struct proto_token *v, struct proto_req *req, size_t off)
{
	const char		*dash = memchr(v->p, '-', v->len);
	struct proto_token	 lo = { v->p, dash ? (size_t)(dash - v->p) :
				    v->len };
	struct proto_token	 hi = { dash ? dash + 1 : v->p, dash ?
				    v->len - lo.len - 1 : v->len };
	uint64_t		 a, b;

	(void)off;
	if (proto_number(&lo, 17, SUDOKU_CELLS, &a) != 0 ||
	    proto_number(&hi, 17, SUDOKU_CELLS, &b) != 0 || a > b)
		return (-1);
	req->opts.shaped = 1;
	req->shape.clues_min = (unsigned int)a;
	req->shape.clues_max = (unsigned int)b;
	return (0);
}

/* pattern=<81 cells>: 'x' (or a digit) given, '.' (or '0') blank. */
static int
opts_pattern(const struct proto_token *v, struct proto_req *req,
    size_t off)
{
	(void)off;
	if (sudoku_pattern_parse(v->p, v->len, req->shape.pattern, NULL) != 0)
		return (-1);
	req->opts.shaped = 1;
	req->shape.use_pattern = 1;
	return (0);
}

static const struct opts_def opts_table[] = {
	{ "budget", PROTO_OPT_BUDGET, "<guesses>", "at most that many "
	  "guesses (capped at budget)", opts_budget, 0,
	  "budget must be a number of guesses from 1 to "
	  "18446744073709551615" },
	{ "deadline", PROTO_OPT_DEADLINE, "<ms>", "ERR deadline if not done "
	  "by then (GENERATE: its best)", opts_deadline, 0,
	  "deadline must be a number of milliseconds from 1 to 86400000" },
	{ "effort", PROTO_OPT_EFFORT, "1", "the reply ends with guesses=<n> "
	  "us=<n>", opts_flag, OPTS_OFF(effort), "effort must be 0 or 1" },
	{ "info", PROTO_OPT_INFO, "1", "the reply ends with seed=<n> (and "
	  "GENERATE's level=)", opts_flag, OPTS_OFF(info),
	  "info must be 0 or 1" },
	{ "symmetry", PROTO_OPT_SYMMETRY, "<s>", "GENERATE: symmetric givens "
	  "(rot180, mirror, ...)", opts_symmetry, 0,
	  "symmetry must be none, rot180, rot90, mirror, flip, diagonal, "
	  "antidiagonal or dihedral" },
	{ "clues", PROTO_OPT_CLUES, "<lo>-<hi>", "GENERATE: that many givens "
	  "(or clues=<n>)", opts_clues, 0, "clues must be a number from 17 "
	  "to 81, or two of them as <lo>-<hi>" },
	{ "pattern", PROTO_OPT_PATTERN, "<81 cells>", "GENERATE: givens at "
	  "its 'x', blanks at its '.'", opts_pattern, 0,
	  "pattern must be 81 cells, 'x' for a given and '.' for a blank" },
};
#define OPTS_N	(sizeof opts_table / sizeof opts_table[0])

/* The option named by the len bytes at p, or NULL. */
static const struct opts_def *
opts_find(const char *p, size_t len)
{
	size_t	i;

	for (i = 0; i < OPTS_N; i++)
		if (strlen(opts_table[i].name) == len &&
		    strncmp(opts_table[i].name, p, len) == 0)
			return (&opts_table[i]);
	return (NULL);
}

static int
opts_refuse(struct proto_req *req, const char *text)
{
	proto_error(req->env, req->out, STAT_ERR_SYNTAX, "syntax", text);
	return (-1);
}

/* One name=value token into req->opts; *taken has the bits so far. */
static int
opts_one(struct proto_req *req, const struct proto_token *t,
    unsigned int *taken)
{
	const struct opts_def	*d;
	const char		*eq = memchr(t->p, '=', t->len);
	struct proto_token	 name = { t->p, (size_t)(eq - t->p) };
	struct proto_token	 value = { eq + 1, t->len - name.len - 1 };
	char			 echo[256], text[384];

	if (name.len == 0) {
		proto_echo(t, echo, sizeof echo);
		snprintf(text, sizeof text, "an option is name=value, not %s",
		    echo);
		return (opts_refuse(req, text));
	}
	if ((d = opts_find(name.p, name.len)) == NULL ||
	    !(req->cmd->opts & d->bit)) {
		proto_echo(&name, echo, sizeof echo);
		snprintf(text, sizeof text, "unknown option %s for %s, try "
		    "HELP", echo, req->cmd->name);
		return (opts_refuse(req, text));
	}
	if (*taken & d->bit) {
		snprintf(text, sizeof text, "option %s given twice", d->name);
		return (opts_refuse(req, text));
	}
	if (d->set(&value, req, d->off) != 0)
		return (opts_refuse(req, d->bad));
	*taken |= d->bit;
	return (0);
}

int
proto_opts_take(struct proto_req *req)
{
	const struct proto_token	*t;
	unsigned int			 taken = 0;
	int				 args = req->ntok - 1;

	memset(&req->opts, 0, sizeof req->opts);
	/* A shape is GENERATE's alone: no other verb pays for its zeros. */
	if (req->cmd->opts & PROTO_OPT_SHAPE)
		memset(&req->shape, 0, sizeof req->shape);
	if ((req->cmd->flags & PROTO_CMD_V1ARGS) ||
	    req->ntok > PROTO_MAXTOKENS)
		return (0);
	while (args > req->cmd->min_args) {
		t = &req->tok[args];
		if (memchr(t->p, '=', t->len) == NULL)
			break;
		if (opts_one(req, t, &taken) != 0)
			return (-1);
		args--;
	}
	req->ntok = args + 1;
	return (0);
}

void
proto_opts_names(unsigned int mask, char *buf, size_t size)
{
	size_t	i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < OPTS_N && n < size; i++)
		if (mask & opts_table[i].bit)
			n += (size_t)snprintf(buf + n, size - n, "%s%s",
			    n == 0 ? "" : ",", opts_table[i].name);
}

void
proto_opts_help(struct evbuffer *out)
{
	char	form[32];
	size_t	i;

	evbuffer_add_printf(out, "Options, after the arguments of a request "
	    "that solves:\n");
	for (i = 0; i < OPTS_N; i++) {
		snprintf(form, sizeof form, "%s=%s", opts_table[i].name,
		    opts_table[i].value);
		evbuffer_add_printf(out, "  %-27s %s\n", form,
		    opts_table[i].help);
	}
}
