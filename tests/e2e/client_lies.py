#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
client_lies.py -- a lie for every check sudokuc makes of an answer
(issue 32.1): the rules of a solution (digits, rows, columns, boxes,
givens, candidates), a count, a rating, a hint's technique, actions and
explanation, the error codes a request can get, ANALYZE's fields, the
lines a reply may have, PING, VERSION and STATS.  Each row of LIES is a
fake server's answer (fake_server.py) that breaks one rule and passes
every check before it, so that the check is the only one that can
refuse it, and the message sudokuc must give for it, written out here.
Each: alone, nothing printed, exit 2, the server named with that
message, once; beside a daemon, the liar set aside, the output -L's,
exit 3, and the liar never connected to again (toolbox_common.py's
liar_caught()).  client_lies_tools.py has the toolbox's and GENERATE's.
"""

import os
import re
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
from fake_server import ones, swapped                   # noqa: E402
from toolbox_common import (both, every_row, exactly, liar,  # noqa: E402
                            liar_caught, lines_of, run)

T = h.Tap({"workers": 2})
ONE = (None,)
CLASSIC, SOL = h.CLASSIC, h.CLASSIC_SOLUTION
UNITS = ([("row", r + 1, [r * 9 + c for c in range(9)]) for r in range(9)] +
         [("column", c + 1, [r * 9 + c for r in range(9)])
          for c in range(9)] +
         [("box", b + 1, [(b // 3 * 3 + k // 3) * 9 + b % 3 * 3 + k % 3
                          for k in range(9)]) for b in range(9)])
# Rows and columns each 1-9 (row r is 1-9 turned by r), no box: the
# givens of ROW1 kept.
LATIN = "".join(str((r + c) % 9 + 1) for r in range(9) for c in range(9))
ROW1 = "123456789" + "." * 72


def cell(i):
    return "r%dc%d" % (i // 9 + 1, i % 9 + 1)


def broken(grid):
    """The first unit, rows then columns then boxes, with a digit twice:
    the message naming it and the digit seen again first."""
    for unit, k, cells in UNITS:
        seen = set()
        for i in cells:
            if grid[i] in seen:
                return "not a solution: %s %d has two %ss" % (unit, k,
                                                             grid[i])
            seen.add(grid[i])
    raise h.Fail("no unit broken in " + grid)


def relabel(text, a, b):
    """text with the digits a and b swapped: a valid grid stays one."""
    return text.translate(str.maketrans(a + b, b + a))


def changed(puzzle, grid):
    i = next(i for i, ch in enumerate(puzzle) if ch not in ".0" and
             ch != grid[i])
    return "changes the given %s at %s" % (puzzle[i], cell(i))


def marks(puzzle, keep, strike=None):
    """729 marks: a given its digit, a blank all nine but strike[i]
    (digits), never keep[i]."""
    out = []
    for i, ch in enumerate(puzzle):
        if ch not in ".0":
            out.append("".join(d if d == ch else "." for d in "123456789"))
        else:
            gone = set((strike or {}).get(i, "")) - {keep[i]}
            out.append("".join("." if d in gone else d
                               for d in "123456789"))
    return "".join(out)


# A unique solution of pencil marks whose givens alone have more: SPARSE
# (CLASSIC without its last 19 givens), every other solution struck at a
# cell where it differs; OTHER, one of those, keeps the givens.
SPARSE = CLASSIC[:62] + "." * 19


def unique_marks():
    sols, done = h.ref_solutions(SPARSE, 1000)
    check(done and SOL in sols and len(sols) > 1, "solutions of SPARSE")
    strike = {}
    for s in sols:
        if s != SOL:
            i = next(i for i in range(81) if s[i] != SOL[i])
            strike[i] = strike.get(i, "") + s[i]
    other = next(s for s in sols if s != SOL)
    m = marks(SPARSE, SOL, strike)
    bad = next(i for i in range(81) if other[i] not in m[9 * i:9 * i + 9])
    return m, other, "puts %s at %s, not one of its candidates" % (
        other[bad], cell(bad))


def analysis(status, clues, sol=SOL, rating="level=easy score=1.0 "
             "hardest=naked_single"):
    return "status=%s clues=%d guesses=0%s" % (
        status, clues, "" if sol is None else " solution=%s %s" % (sol,
                                                                   rating))


def lies():
    """(what, sudokuc's arguments, input, the answer, the message)."""
    c = CLASSIC + "\n"
    ana = analysis("unique", 30)
    um, other, um_why = unique_marks()
    um_clues = sum(um[9 * i:9 * i + 9].count(".") == 8 for i in range(81))
    m1 = marks("." * 81, "." * 81, {0: "3456789"})      # r1c1: 1 or 2
    swap = swapped(CLASSIC)
    k = lambda text: lambda ln: text                    # noqa: E731
    return [
        # A solution: 81 digits 1-9, the givens, each unit 1-9.
        ("80 digits", [], c, k(SOL[:80]), "not 81 digits 1-9"),
        ("a 0 for a digit", [], c, k(SOL[:80] + "0"), "not 81 digits 1-9"),
        ("rows broken", [], c, k(ones(CLASSIC)), broken(ones(CLASSIC))),
        ("rows kept, columns broken", [], c, k(swap), broken(swap)),
        ("rows and columns kept, a box broken", [], ROW1 + "\n", k(LATIN),
         broken(LATIN)),
        ("a valid grid, a given changed", [], c, k(relabel(SOL, "1", "2")),
         changed(CLASSIC, relabel(SOL, "1", "2"))),
        ("marks: a valid grid, a digit not a candidate", [], m1 + "\n",
         k(relabel(h.EMPTY_LEXMIN, "1", "3")),
         "puts 3 at r1c1, not one of its candidates"),
        ("-l: a given changed", ["-l"], c, k(relabel(SOL, "5", "6")),
         changed(CLASSIC, relabel(SOL, "5", "6"))),
        # A count.
        ("COUNT: a leading zero", ["-c", 3], c, k("01"), "not a count"),
        ("COUNT: a sign", ["-c", 3], c, k("+1"), "not a count"),
        ("COUNT: text after it", ["-c", 3], c, k("1x"), "not a count"),
        ("COUNT: over the limit", ["-c", 3], c, k("4"),
         "a count of 4, over the limit 3 asked"),
        ("COUNT: not the puzzle's", ["-c", 3], c, k("2"),
         "a count of 2, but the puzzle has 1 solution"),
        # A rating.
        ("RATE: no level", ["rate"], c, k("simple 1.0 naked_single"),
         "not a rating: no level"),
        ("RATE: a level alone", ["rate"], c, k("easy"),
         "not a rating: no level"),
        ("RATE: no score", ["rate"], c, k("easy 1 naked_single"),
         "not a rating: no score"),
        ("RATE: no technique", ["rate"], c, k("easy 1.0 naked"),
         "not a rating: no technique"),
        ("RATE: a technique of another level", ["rate"], c,
         k("easy 3.0 x_wing"), "x_wing is not a technique of level easy"),
        ("RATE: a score under the technique's", ["rate"], c,
         k("easy 1.1 hidden_single"),
         "score 1.1 out of the range of hidden_single"),
        ("RATE: a score of another level", ["rate"], c,
         k("easy 2.0 naked_single"),
         "score 2.0 out of the range of naked_single"),
        # A hint.
        ("HINT: solved, cells open", ["hint"], c, k("solved"),
         '"solved", but cells are still open'),
        ("HINT: no technique", ["hint"], c, k("magic r5c5=5 x"),
         "not a hint: no technique"),
        ("HINT: a technique alone", ["hint"], c, k("naked_single"),
         "not a hint: no technique"),
        ("HINT: a bad action", ["hint"], c, k("naked_single r5c0=5 x"),
         "not a hint: bad action"),
        ("HINT: a wrong placement", ["hint"], c, k("naked_single r5c5=4 x"),
         "unsound hint: r5c5=4, but the solution has 5 there"),
        ("HINT: the solution's digit eliminated", ["hint"], c,
         k("naked_single r5c5-5 x"),
         "unsound hint: r5c5-5, but the solution has 5 there"),
        ("HINT: a sound second action, a wrong third", ["hint"], c,
         k("naked_single r5c5=5,r1c3-5,r1c3-4 x"),
         "unsound hint: r1c3-4, but the solution has 4 there"),
        ("HINT: no explanation", ["hint"], c, k("naked_single r5c5=5"),
         "not a hint: no explanation"),
        # The error codes a request can get.
        ("ERR and no code", [], c, k("ERR 5 x"), "a malformed ERR line"),
        ("ERR and a code too long", [], c, k("ERR " + "x" * 21),
         "a malformed ERR line"),
        ("ERR deadline, none asked", [], c,
         k("ERR deadline deadline of 5 ms passed before an answer"),
         "ERR deadline, which this request cannot get"),
        ("ERR length for a checked puzzle", [], c,
         k("ERR length expected 81 cells, found 80"),
         "ERR length, which this request cannot get"),
        ("SOLVE: ERR nostep", [], c, k("ERR nostep x"),
         "ERR nostep, which this request cannot get"),
        ("COUNT: ERR nosolution", ["-c", 3], c, k("ERR nosolution x"),
         "ERR nosolution, which this request cannot get"),
        ("ANALYZE: ERR multiple", ["analyze"], c, k("ERR multiple x"),
         "ERR multiple, which this request cannot get"),
        ("HINT: ERR wrong, no grid sent", ["hint"], c, k("ERR wrong r1c3"),
         "ERR wrong, but no grid was sent"),
        ("SOLVE: ERR nosolution for a unique puzzle", [], c,
         k("ERR nosolution x"),
         "ERR nosolution, but the puzzle has one solution"),
        # ANALYZE's fields.
        ("ANALYZE: another key", ["analyze"], c, k("state" + ana[6:]),
         "not an analysis"),
        ("ANALYZE: not the puzzle's clues", ["analyze"], c,
         k(analysis("unique", 31)), "not an analysis of this puzzle"),
        ("ANALYZE: guesses no number", ["analyze"], c,
         k(ana.replace("guesses=0", "guesses=x")),
         "not an analysis of this puzzle"),
        ("ANALYZE: four fields", ["analyze"], c, k(ana.split(" level")[0]),
         "not an analysis of this puzzle"),
        ("ANALYZE: a field after them", ["analyze"], c, k(ana + " x=1"),
         "not an analysis of this puzzle"),
        ("ANALYZE: a false status", ["analyze"], c,
         k(analysis("multiple", 30, None)),
         "status multiple, but the puzzle has one solution"),
        ("ANALYZE: unique, no solution given", ["analyze"], c,
         k(analysis("unique", 30, None)), "not an analysis: status unique"),
        ("ANALYZE: multiple, with a solution", ["analyze"], h.EMPTY + "\n",
         k(analysis("multiple", 0, h.EMPTY_LEXMIN)),
         "not an analysis: status multiple"),
        ("ANALYZE: a solution of 80 digits", ["analyze"], c,
         k(ana.replace(SOL, SOL[:80])), "not an analysis: status unique"),
        ("ANALYZE: a solution that breaks a row", ["analyze"], c,
         k(analysis("unique", 30, ones(CLASSIC))), broken(ones(CLASSIC))),
        ("ANALYZE: a solution that changes a given", ["analyze"], c,
         k(analysis("unique", 30, relabel(SOL, "1", "2"))),
         changed(CLASSIC, relabel(SOL, "1", "2"))),
        ("ANALYZE: a rating out of range", ["analyze"], c,
         k(ana.replace("score=1.0", "score=2.0")),
         "score 2.0 out of the range of naked_single"),
        ("ANALYZE of marks: the givens' solution, not the marks'",
         ["analyze"], um + "\n", k(analysis("unique", um_clues, other)),
         um_why),
        # The lines a reply may have.
        ("a reply to nothing asked", [], c, lambda ln: [SOL, "OK"],
         "!a reply to nothing asked: OK"),
        ("a reply line of 10 KiB", [], c, k("9" * 10240),
         "!a reply line longer than 8192 bytes"),
        ("SOLUTIONS: a line more than asked", ["solutions", "-n", 1],
         h.EMPTY + "\n", lambda ln: [h.EMPTY_LEXMIN, h.EMPTY_LEXMIN, "END"],
         "a reply of more than 1 lines"),
        ("PATH: a reply over 1 MiB", ["path"], c,
         lambda ln: ["naked_single r5c5=5 " + "x" * 8000] * 200 + ["END"],
         "!a reply longer than 1048576 bytes"),
    ]


@T.case("a lie for every check of a solution, a count, a rating, a hint, "
        "an error, an analysis and a reply's lines: alone, nothing printed, "
        "exit 2, its own message; beside a daemon, set aside for good, "
        "-L's output, exit 3", transports=ONE, timeout=600)
def _(c):
    def one(row):
        what, args, stdin, answer, why = row
        liar_caught(what, answer, args, stdin, exactly(why), c.d,
                    alone=SOL + "\n" if "nothing asked" in what else "")
    every_row(lies(), one)


@T.case("PING, VERSION and STATS answered wrong: alone, exit 2, "
        "\"not a reply to it\"", transports=ONE, daemonless=True)
def _(c):
    for what, args, answer in (
            ("PING", ["ping"], lambda ln: "PANG"),
            ("VERSION", ["version"], lambda ln: "VERSIONS 1"),
            ("STATS", ["stats"], lambda ln: ["STAT pid 7", "OOPS", "END"])):
        rc, out, err, s = liar(answer, *args, pong=False)
        check(rc == 2 and out == "" and re.search(
            r"^sudokuc: %s: wrong answer to [^:]+: not a reply to it: "
            % re.escape(s.name), err, re.M), "%s: %r %r %r" % (what, rc, out,
                                                              err))


@T.case("-L analyze of pencil marks struck beyond the givens: the "
        "daemon's line, the marks' one solution, the clues their cells of "
        "one candidate", transports=ONE)
def _(c):
    um, _, _ = unique_marks()
    k = c.connect(timeout=60)
    rc, out, err = both(c, "analyze", stdin=lines_of([um]))
    eq((rc, err), (0, ""), "exit status and messages")
    eq(out, k.req("ANALYZE " + um) + "\n", "the daemon's line")
    kv = dict(t.split("=", 1) for t in out.split())
    eq((kv["status"], kv["solution"]), ("unique", SOL), "the solution")
    eq(int(kv["clues"]), sum(um[9 * i:9 * i + 9].count(".") == 8
                             for i in range(81)), "clues: one candidate")
    eq(both(c, "analyze", stdin=lines_of([SPARSE]))[1].split()[0],
       "status=multiple", "the givens alone have more")


if __name__ == "__main__":
    sys.exit(T.run())
