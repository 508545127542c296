#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
logic.py -- RATE, HINT and GENERATE over real sockets, checked with the
daemon's other answers and with the reference solver, never with the
logical solver's own output: generated puzzles are unique (COUNT), minimal
(removing any given makes COUNT say 2), of the level asked (RATE), and the
same for the same seed; hints walked to the end on 729-character pencil
marks only ever place the solution's digit and eliminate other digits.
"""

import os
import re
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402

T = h.Tap({"workers": 2})
LEVELS = ("easy", "medium", "hard", "expert", "extreme")
with open(os.path.join(h.TOP_SRCDIR, "tests", "unit", "samples",
                       "boj2580.in")) as _f:
    BOJ2580 = "".join(_f.read().split())        # its 9 spaced lines
STEP = re.compile(r"^([a-z_]+) ((?:r[1-9]c[1-9][=-][1-9],?)+) (.+)$")


def solution(k, puzzle):
    sol = k.req("SOLVE " + puzzle)
    h.check_solution(puzzle, sol)
    return sol


@T.case("GENERATE: unique, minimal, of the level asked, the same for the "
        "same seed", timeout=90)
def _(c):
    k = c.connect(timeout=30)
    for level in LEVELS:
        for seed in (1, 2):
            p = k.req("GENERATE %s %d" % (level, seed), 30)
            check(re.fullmatch(r"[1-9.]{81}", p), "GENERATE %s %d: %r"
                  % (level, seed, p))
            eq(k.req("GENERATE %s %d" % (level, seed), 30), p,
               "the same seed again")
            eq(k.req("COUNT %s 2" % p), "1", "COUNT of %s" % p)
            for i, ch in enumerate(p):
                if ch != ".":
                    q = p[:i] + "." + p[i + 1:]
                    eq(k.req("COUNT %s 2" % q), "2",
                       "without the given at %d" % i)
            eq(k.req("RATE " + p).split()[0], level, "RATE of " + p)
    eq(k.req("GENERATE 42"), k.req("GENERATE medium 42"),
       "medium by default")
    check(k.req("GENERATE extreme 1") != k.req("GENERATE extreme 2"),
          "two seeds, one puzzle")


def no_solution(k):
    """CLASSIC with a blank given a digit its peers allow but the one
    solution does not: consistent givens, no solution."""
    sol = solution(k, h.CLASSIC)
    for cell, ch in enumerate(h.CLASSIC):
        if ch != ".":
            continue
        peers = [i for i in range(81) if i // 9 == cell // 9 or
                 i % 9 == cell % 9 or (i // 27 == cell // 27 and
                                       i % 9 // 3 == cell % 9 // 3)]
        for d in "123456789":
            if d != sol[cell] and all(h.CLASSIC[i] != d for i in peers):
                return h.CLASSIC[:cell] + d + h.CLASSIC[cell + 1:]
    raise h.Fail("no such digit")


@T.case("GENERATE, RATE and HINT errors")
def _(c):
    k = c.connect()
    for req, code in (("GENERATE bogus", "syntax"),
                      ("GENERATE easy x", "syntax"),
                      ("GENERATE 18446744073709551616", "syntax"),
                      ("GENERATE easy 1 2", "syntax"),
                      ("RATE " + h.EMPTY, "multiple"),
                      ("HINT " + h.EMPTY, "multiple"),
                      ("RATE " + "12" + "." * 79, "multiple"),
                      ("RATE 1", "length"),
                      ("HINT %s %s" % (h.CLASSIC, "1" * 80), "length"),
                      ("HINT %s %s" % (h.CLASSIC, "x" * 729), "char")):
        eq(k.req(req).split()[:2], ["ERR", code], req[:40])
    nosol = no_solution(k)
    eq(k.req("COUNT " + nosol), "0", "COUNT of the no-solution puzzle")
    eq(k.req("RATE " + nosol).split()[:2], ["ERR", "nosolution"], "RATE")
    eq(k.req("HINT " + nosol).split()[:2], ["ERR", "nosolution"], "HINT")


@T.case("RATE: the BOJ 2580 sample is easy, the forum's hardest are "
        "expert or extreme, scores in their level's band")
def _(c):
    k = c.connect()
    r = k.req("RATE " + BOJ2580).split()
    eq(r[0], "easy", "BOJ 2580")
    for p in h.load_puzzles("puzzles6_forum_hardest_1106", 40):
        lv, score, tech = k.req("RATE " + p).split()
        check(lv in ("expert", "extreme"), "%s rated %s" % (p, lv))
        check(int(float(score)) == LEVELS.index(lv) + 1,
              "%s: score %s outside %s's band" % (p, score, lv))
        check(re.fullmatch(r"[a-z_]+", tech), "technique %r" % tech)


PEERS = [{j for j in range(81) if j != i and (
    j // 9 == i // 9 or j % 9 == i % 9 or
    (j // 27 == i // 27 and j % 9 // 3 == i % 9 // 3))} for i in range(81)]


def apply(marks, sol, step, what, clear=False):
    """Apply a HINT step to the 729 marks; every action checked.  clear:
    a placed digit also leaves its peers' marks."""
    m = STEP.match(step)
    check(m is not None, "%s: not a step: %r" % (what, step))
    for act in m.group(2).split(","):
        r, col, op, d = int(act[1]) - 1, int(act[3]) - 1, act[4], act[5]
        cell = r * 9 + col
        if op == "=":
            eq(d, sol[cell], "%s: %s places the solution's digit"
               % (what, act))
            marks[cell] = "".join(x if x == d else "." for x in "123456789")
            for j in (PEERS[cell] if clear else ()):
                marks[j] = marks[j].replace(d, ".")
        else:
            check(d != sol[cell], "%s: %s eliminates the solution's digit"
                  % (what, act))
            check(marks[cell][int(d) - 1] == d, "%s: %s eliminates a mark "
                  "already gone" % (what, act))
            s = list(marks[cell])
            s[int(d) - 1] = "."
            marks[cell] = "".join(s)
    return m.group(1)


def walk(k, puzzle, sol, limit=400, clear=False, steps=None):
    """Ask for hints on pencil marks until solved or stuck: the steps'
    techniques, the last reply and the marks it answered; steps, a list,
    gets every reply."""
    marks = [("123456789" if ch in ".0" else
              "".join(x if x == ch else "." for x in "123456789"))
             for ch in puzzle]
    techs = []
    for n in range(limit):
        reply = k.req("HINT %s %s" % (puzzle, "".join(marks)))
        if reply == "solved" or reply.startswith("ERR nostep"):
            return techs, reply, "".join(marks)
        if steps is not None:
            steps.append(reply)
        techs.append(apply(marks, sol, reply, "%s step %d" % (puzzle, n),
                           clear))
    raise h.Fail("%s: no end after %d hints" % (puzzle, limit))


@T.case("HINT walked to the end on pencil marks: only the solution's "
        "digits placed, never the solution's eliminated", timeout=90)
def _(c):
    k = c.connect(timeout=30)
    puzzles = (h.load_puzzles("puzzles3_magictour_top1465", 12) +
               h.load_puzzles("puzzles2_17_clue", 12) + [h.CLASSIC])
    ends = {}
    for p in puzzles:
        sol = solution(k, p)
        techs, end, _ = walk(k, p, sol)
        ends[end.split()[0]] = ends.get(end.split()[0], 0) + 1
        if end == "solved":
            # Below extreme: the walk needs no guess and its hardest
            # technique is RATE's.
            lv, _, tech = k.req("RATE " + p).split()
            check(lv != "extreme", "%s rated extreme, solved by hints" % p)
            order = [t for t in techs]
            eq(max(order, key=STEP_ORDER.index), tech, "hardest of " + p)
    c.note("walks: %r" % ends)
    check(ends.get("solved", 0) > 0, "no walk ended solved")


@T.case("HINT with placed digits cleared from the peers' marks, or not "
        "(doc/rating.md): both walks sound and solved, but not the same "
        "steps", timeout=90)
def _(c):
    k = c.connect(timeout=30)
    p = k.req("GENERATE easy 1", 30)
    sol = solution(k, p)
    kept, cleared = [], []
    for clear, steps in ((False, kept), (True, cleared)):
        _, end, marks = walk(k, p, sol, clear=clear, steps=steps)
        eq(end, "solved", "the walk %s clearing" % ("with" if clear else
                                                    "without"))
    differ = next((i for i, (a, b) in enumerate(zip(kept, cleared))
                   if a != b), None)
    check(differ is not None, "the same %d hints both ways" % len(kept))
    c.note("GENERATE easy 1: the hints differ from hint %d on (%d hints "
           "kept, %d cleared)" % (differ + 1, len(kept), len(cleared)))


# Techniques in the order the solver tries them (doc/protocol.md).
STEP_ORDER = ["naked_single", "hidden_single", "pointing", "claiming",
              "naked_pair", "hidden_pair", "x_wing", "naked_triple",
              "swordfish", "hidden_triple", "xy_wing", "xyz_wing",
              "naked_quad", "hidden_quad", "jellyfish", "simple_colouring",
              "x_chain", "xy_chain", "trial_and_error"]


@T.case("HINT on an 81-cell grid: wrong cells reported, all of them; a "
        "complete right grid is solved")
def _(c):
    k = c.connect()
    sol = solution(k, h.CLASSIC)
    grid = list(h.CLASSIC.replace(".", "0"))
    # Fill two blanks wrongly: r1c3 and r9c1.
    for cell in (2, 72):
        grid[cell] = "1" if sol[cell] != "1" else "2"
    eq(k.req("HINT %s %s" % (h.CLASSIC, "".join(grid))), "ERR wrong r1c3,r9c1",
       "wrong cells")
    eq(k.req("HINT %s %s" % (h.CLASSIC, sol)), "solved", "complete grid")
    first = k.req("HINT " + h.CLASSIC)
    check(STEP.match(first), "first hint %r" % first)


@T.case("HINT and PATH with every cell of the grid wrong: ERR wrong names "
        "all 81, r9c9 the last")
def _(c):
    k = c.connect()
    sol = solution(k, h.CLASSIC)
    shifted = "".join(str(int(d) % 9 + 1) for d in sol)
    every = ",".join("r%dc%d" % (i // 9 + 1, i % 9 + 1) for i in range(81))
    for verb in ("HINT", "PATH"):
        eq(k.req("%s %s %s" % (verb, h.CLASSIC, shifted)), "ERR wrong " +
           every, "%s with the solution's digits shifted" % verb)
        eq(k.req("%s %s %s" % (verb, h.CLASSIC, "." * 729)), "ERR wrong " +
           every, "%s with pencil marks of no candidate at all" % verb)


@T.case("HINT stops at an extreme puzzle's dead end with ERR nostep, "
        "never a guess", timeout=60)
def _(c):
    k = c.connect(timeout=30)
    for p in h.load_puzzles("puzzles6_forum_hardest_1106", 10):
        if k.req("RATE " + p).split()[0] != "extreme":
            continue
        techs, end, _ = walk(k, p, solution(k, p))
        eq(end, "ERR nostep no logical step applies; this needs trial and "
           "error", "end of the walk of " + p)
        return
    raise h.Fail("no extreme puzzle among the first ten of the hardest")


def dead_end(k):
    """An extreme puzzle and the pencil marks of its first dead end."""
    for p in h.load_puzzles("puzzles6_forum_hardest_1106", 10):
        if k.req("RATE " + p).split()[0] == "extreme":
            _, end, marks = walk(k, p, solution(k, p))
            check(end.startswith("ERR nostep"), "walk of %s ended %r"
                  % (p, end))
            return p, marks
    raise h.Fail("no extreme puzzle among the first ten of the hardest")


@T.case("STATS: cmd_rate, cmd_hint, cmd_generate, err_multiple, "
        "err_wrong, err_nostep rise by exactly the requests sent")
def _(c):
    k = c.connect(timeout=30)
    nostep, marks = dead_end(k)         # its requests come before s1
    wrong = list(h.CLASSIC_SOLUTION)
    wrong[0] = "1" if wrong[0] != "1" else "2"
    # What each reply must be, and the counters it moves (protocol.md:
    # a request counts under its verb, an error reply under its code).
    # "solved": every request whose search found a solution, RATE, HINT
    # and GENERATE included (they solve their puzzle too).
    sent = (("RATE " + h.CLASSIC, None, ("cmd_rate", "solved")),
            ("RATE " + h.EMPTY, "multiple",
             ("cmd_rate", "err_multiple", "solved")),
            ("RATE bogus", "length", ("cmd_rate", "err_length")),
            ("HINT " + h.CLASSIC, None, ("cmd_hint", "solved")),
            ("HINT " + h.EMPTY, "multiple",
             ("cmd_hint", "err_multiple", "solved")),
            ("HINT %s %s" % (h.CLASSIC, "".join(wrong)), "wrong",
             ("cmd_hint", "err_wrong", "solved")),
            ("HINT %s %s" % (nostep, marks), "nostep",
             ("cmd_hint", "err_nostep", "solved")),
            ("GENERATE easy 1", None, ("cmd_generate", "solved")),
            ("GENERATE bogus", "syntax", ("cmd_generate", "err_syntax")),
            ("generate 7", None, ("cmd_generate", "solved")))
    want = dict.fromkeys(("cmd_rate", "cmd_hint", "cmd_generate",
                          "err_multiple", "err_wrong", "err_nostep",
                          "err_syntax", "err_length", "cmd_solve",
                          "err_budget", "err_nosolution", "solved",
                          "unsolvable"), 0)
    s1 = h.stats_ints(k.stats())
    for req, code, moves in sent:
        got = k.req(req, 30)
        if code is None:
            check(not got.startswith("ERR"), "%s: %r" % (req[:40], got))
        else:
            eq(got.split()[:2], ["ERR", code], req[:40])
        for name in moves:
            want[name] += 1
    s2 = h.stats_ints(k.stats())
    bad = ["%s %+d (want %+d)" % (n, s2[n] - s1[n], w)
           for n, w in sorted(want.items()) if s2[n] - s1[n] != w]
    check(not bad, "STATS deltas wrong: " + ", ".join(bad))


def doc_error(code):
    """The example of an error code in doc/protocol.md's table."""
    path = os.path.join(h.TOP_SRCDIR, "doc", "protocol.md")
    with open(path) as f:
        for ln in f:
            cols = [x.strip() for x in ln.split("|")]
            if len(cols) == 5 and cols[1] == "`%s`" % code:
                return cols[3].strip("`")
    raise h.Fail("no `%s` row in the error table of %s" % (code, path))


@T.case("GENERATE with a budget of 50 guesses (an attempt needs about "
        "110) -> ERR budget as protocol.md shows it, every level",
        daemon={"workers": 2, "budget": 50})
def _(c):
    k = c.connect(timeout=30)
    example = doc_error("budget")
    check(" 100000 " in example, "budget example %r" % example)
    want = example.replace(" 100000 ", " 50 ")
    s1 = c.stats()
    for level in LEVELS:
        for seed in (1, 2, 3):
            eq(k.req("GENERATE %s %d" % (level, seed), 30), want,
               "GENERATE %s %d" % (level, seed))
    eq(k.req("GENERATE", 30), want, "GENERATE without a seed")
    s2 = c.stats()
    eq(s2["err_budget"] - s1["err_budget"], 3 * len(LEVELS) + 1,
       "err_budget delta")
    # The budget is per request: the next one starts afresh.
    eq(k.req("RATE " + h.CLASSIC).split()[0], "easy", "RATE after them")


EFFORT = re.compile(r"^(.*) guesses=(\d+) us=\d+$")


@T.case("GENERATE budget=N effort=1: guesses= at most N whatever the seed "
        "and shape; a puzzle made within N is the one made without it",
        timeout=90)
def _(c):
    k = c.connect(timeout=30)
    plain = {}
    for budget in (1, 2, 3, 5, 13, 100, 400, 1000, 3000):
        for seed in range(1, 13):
            for gen in ("easy %d" % seed, "hard %d" % seed,
                        "easy %d symmetry=rot180" % seed):
                line = "GENERATE %s budget=%d effort=1" % (gen, budget)
                m = EFFORT.match(k.req(line, 30))
                check(m, "%s: no guesses=" % line)
                check(int(m.group(2)) <= budget, "%s: guesses=%s" %
                      (line, m.group(2)))
                if m.group(1).startswith("ERR "):
                    eq(m.group(1), "ERR budget search budget of %d "
                       "guesses exceeded" % budget, line)
                    continue
                if gen not in plain:
                    plain[gen] = k.req("GENERATE " + gen, 30)
                eq(m.group(1), plain[gen], line)
    check(plain, "no puzzle within any of the budgets")


if __name__ == "__main__":
    sys.exit(T.run())
