#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
toolbox_seeds.py -- the toolbox's seeded requests over many seeds
(issue 32.3), checked from outside as toolbox.py checks one: SHUFFLE
moves the givens of one box to every box, their row to every row and,
transposed, to every column, a digit to every digit; MINIMIZE's answers
are subsets with one solution and no given that can go, CONSTRAIN's
supersets with one solution that solves the input and a given added
that was needed, by the reference solver; and the seeds give different
answers.  tests/unit/test_toolbox has the first near the code.
"""

import os
import random
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
from toolbox_common import (count, givens, solution_of,  # noqa: E402
                            without)

T = h.Tap()
ONE = (None,)


@T.case("SHUFFLE moves givens across bands and stacks and transposes: "
        "four givens of box 1, over 100 seeds, stay in one box and land in "
        "every box, their row of three in every row and, transposed, as a "
        "column in every column, the lone one as every digit",
        transports=ONE)
def _(c):
    k = c.connect(timeout=30)
    p = "123......" + "4........" + "." * 63
    seeds = range(1, 101)
    k.send("".join("SHUFFLE %s %d\n" % (p, s) for s in seeds))
    boxes, rows, cols, digits = set(), set(), set(), set()
    for seed, got in zip(seeds, k.lines(len(seeds), 30)):
        cells = sorted(givens(got))
        eq(len(cells), 4, "SHUFFLE seed %d: %s" % (seed, got))
        box = {r // 3 * 3 + c // 3 for r, c in map(lambda i: divmod(i, 9),
                                                   cells)}
        eq(len(box), 1, "SHUFFLE seed %d: one box: %s" % (seed, got))
        boxes |= box
        in_row = [sum(1 for i in cells if i // 9 == r) for r in range(9)]
        in_col = [sum(1 for i in cells if i % 9 == c) for c in range(9)]
        rows |= {r for r in range(9) if in_row[r] == 3}
        cols |= {c for c in range(9) if in_col[c] == 3}
        # The lone given is alone in its row (column) and beside one of
        # the three in its column (row).
        digits |= {got[i] for i in cells if in_row[i // 9] + in_col[i % 9]
                   == 3}
    eq((sorted(boxes), sorted(rows), sorted(cols), "".join(sorted(digits))),
       (list(range(9)),) * 3 + ("123456789",),
       "boxes, rows of three, columns of three, digits of the lone given")

def minimal_problem(p, m):
    """What is wrong with m as MINIMIZE's answer of p (None: nothing),
    by the reference solver."""
    if not (givens(m) <= givens(p) and all(m[i] == p[i] for i in givens(m))):
        return "not a subset of the givens"
    if count(m) != 1:
        return "not one solution"
    for i in sorted(givens(m)):
        if count(without(m, {i})) == 1:
            return "r%dc%d can still go" % (i // 9 + 1, i % 9 + 1)
    return None


@T.case("MINIMIZE over 16 seeds: each answer a subset of the givens, one "
        "solution, no given removable; the seeds' orders give different "
        "answers", transports=ONE, timeout=120)
def _(c):
    k = c.connect(timeout=60)
    # CLASSIC with a third of its blanks filled: 45 givens or so, and
    # one solution, CLASSIC's.
    rng = random.Random(11)
    p = "".join(g if g != "." or rng.random() > 0.33 else s
                for g, s in zip(h.CLASSIC, h.CLASSIC_SOLUTION))
    seeds = range(1, 17)
    k.send("".join("MINIMIZE %s %d\n" % (p, s) for s in seeds))
    answers = k.lines(len(seeds), 60)
    for seed, m in zip(seeds, answers):
        why = minimal_problem(p, m)
        check(why is None, "MINIMIZE %s %d: %s: %s" % (p, seed, why, m))
    check(len(set(answers)) >= 8, "16 seeds, %d answers" % len(set(answers)))


@T.case("CONSTRAIN over 16 seeds: each a superset of the givens, one "
        "solution, which solves the input, the last given added needed; "
        "the seeds draw different solutions", transports=ONE, timeout=120)
def _(c):
    k = c.connect(timeout=60)
    p = h.load_puzzles("puzzles2_17_clue", 3)[2][:45] + "." * 36
    for inp in (h.EMPTY, p):
        seeds = range(1, 17)
        k.send("".join("CONSTRAIN %s %d\n" % (inp, s) for s in seeds))
        sols = set()
        for seed, got in zip(seeds, k.lines(len(seeds), 60)):
            what = "CONSTRAIN %s %d: %s" % (inp, seed, got)
            check(givens(inp) <= givens(got) and all(
                got[i] == inp[i] for i in givens(inp)), what + ": a superset")
            eq(count(got), 1, what + ": solutions")
            sol = solution_of(got)
            check(h.solution_problem(inp.replace("0", "."), sol) is None,
                  what + ": its solution solves the input")
            # Givens are added until one solution is left: without the
            # last one added there were two, whichever it was.
            check(any(count(without(got, {i})) == 2
                      for i in givens(got) - givens(inp)),
                  what + ": no given added was needed")
            sols.add(sol)
        check(len(sols) >= 8, "CONSTRAIN %s: 16 seeds, %d solutions"
              % (inp, len(sols)))


if __name__ == "__main__":
    sys.exit(T.run())
