#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
client_solutions.py -- sudokuc solutions (SOLUTIONS) and puzzles as
pencil marks (729 characters) for solving, -l, -c, analyze and
solutions, against a private sudokud over Unix and TCP and with -L.

Each run prints the same bytes with -L as with the daemon, and each list
is held to the reference enumerator (reference.py's ref_solutions), not
to captured output: the first n solutions in increasing order, a blank
line between two puzzles' lists, fewer for a puzzle that has fewer, ERR
nosolution for none, the budget's ERR after the solutions it let out.
A server that lies about SOLUTIONS (fake_server.py) is named and set
aside, and the batch ends on the daemon beside it as -L prints it.
"""

import os
import random
import re
import subprocess
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
from fake_server import FakeServer, Slow                 # noqa: E402
from toolbox_common import (both, liar_caught,  # noqa: E402
                            lines_of, marks_of, run, strike)

T = h.Tap({"workers": 2})
ONE = (None,)
NOSOL = "12345678." + "........9" + "." * 63
NOSOL_ERR = "ERR nosolution the puzzle has no solution"
SPARSE = h.CLASSIC[:62] + "." * 19          # some dozens of solutions


def ref(p, n, marks=None):
    """The reference's first n solutions of p, which it must finish."""
    want, done = h.ref_solutions(p, n, marks=marks)
    check(done, "the reference finished on %s" % p[:30])
    return want


@T.case("solutions -n N: -L and the daemon alike; each list the "
        "reference's first N, smallest first, a blank line between two; "
        "cut at N, one for a unique puzzle, ERR nosolution in place, exit 1")
def _(c):
    cases = [(h.EMPTY, 7), (SPARSE, 7), (h.CLASSIC, 7), (NOSOL, 7)]
    rc, out, err = both(c, "-q", "solutions", "-n", 7,
                        stdin=lines_of(p for p, _ in cases))
    eq(rc, 1, "exit status: the puzzle with none (%s)" % err)
    blocks = out.rstrip("\n").split("\n\n")
    eq(len(blocks), len(cases), "a block a puzzle")
    for (p, n), b in zip(cases, blocks):
        want = ref(p, n)
        eq(b.split("\n"), want or [NOSOL_ERR], "the list of %s" % p[:30])
    eq(len(blocks[0].split("\n")), 7, "the empty grid cut at 7")
    eq(len(blocks[2].split("\n")), 1, "a unique puzzle: one")
    rc, out, err = both(c, "solutions", SPARSE)
    eq((rc, err), (0, ""), "the default: exit status and messages")
    eq(out.split("\n")[:-1], ref(SPARSE, 10), "the default n, 10")
    want = ref(SPARSE, 1000)
    check(10 < len(want) < 1000, "%d solutions of the sparse puzzle"
          % len(want))
    eq(both(c, "solutions", "-n", 1000, SPARSE)[1],
       lines_of(want), "all of them, fewer than n")


def grid_rows(sol):
    """A solution as -f grid prints it: nine rows."""
    return "".join(sol[i:i + 9] + "\n" for i in range(0, 81, 9))


@T.case("solutions -f grid: each solution a grid, a blank line between "
        "two (issue 34); -b cuts a list, the ERR after the solutions let "
        "out, exit 1", transports=ONE)
def _(c):
    rc, out, err = both(c, "-f", "grid", "solutions", "-n", 2, SPARSE)
    eq((rc, err), (0, ""), "two solutions: exit status and messages")
    eq(out, "\n".join(grid_rows(s) for s in ref(SPARSE, 2)),
       "two grids of nine rows, a blank line between them")
    rc, out, err = both(c, "-f", "grid", "solutions", "-n", 3, h.CLASSIC,
                        h.EMPTY)
    eq((rc, err), (0, ""), "exit status and messages")
    want = ref(h.CLASSIC, 3) + ref(h.EMPTY, 3)
    eq(out, "\n".join(grid_rows(s) for s in want), "the grids")
    rc, out, err = both(c, "-q", "-f", "spaced", "-b", 200, "solutions",
                        "-n", 1000, h.EMPTY)
    blocks = out.rstrip("\n").split("\n\n")
    check(rc == 1 and blocks[-1] == "ERR budget search budget of 200 "
          "guesses exceeded" and 1 < len(blocks) < 1000, "spaced grids cut "
          "by -b: the ERR after a blank line: %r %r ... %r"
          % (rc, blocks[:1], blocks[-1:]))
    eq([b.replace(" ", "").replace("\n", "") for b in blocks[:-1]],
       ref(h.EMPTY, len(blocks) - 1), "the spaced grids before it")
    rc, out, err = both(c, "-b", 200, "solutions", "-n", 1000, h.EMPTY)
    got = out.split("\n")[:-1]
    check(rc == 1 and got[-1] == "ERR budget search budget of 200 guesses "
          "exceeded" and 0 < len(got) - 1 < 1000, "cut by -b: %r %r ... %r"
          % (rc, got[:1], got[-1:]))
    eq(got[:-1], ref(h.EMPTY, len(got) - 1), "the solutions before it")
    check(re.fullmatch(r"sudokuc: argument 1: search budget of 200 guesses "
                       r"exceeded\n", err), "its note: %r" % err)
    for bad, why in ((["-n", 0], "must be a number from 1 to 10000"),
                     (["-n", 10001], "must be a number from 1 to 10000")):
        rc, out, err = run("-L", "solutions", *bad, h.CLASSIC)
        check(rc == 2 and out == "" and why in err, "%r: %r" % (bad, err))


@T.case("pencil marks (729 characters): solve, -l, -c, analyze and "
        "solutions answer within the marks, -L and the daemon alike, as the "
        "reference does; their errors in the daemon's words; rate refuses "
        "them as the daemon does")
def _(c):
    rng = random.Random(20)
    base = "".join("." if i % 3 else ch
                   for i, ch in enumerate(h.CLASSIC_SOLUTION))
    sets, counts = [], []
    for _ in range(6):
        cells = strike(marks_of(base), rng, 300, h.CLASSIC_SOLUTION)
        sets.append(("".join(cells), ref("." * 81, 50, marks=cells)))
    text = lines_of(m for m, _ in sets)
    rc, out, err = both(c, "solutions", "-n", 50, stdin=text)
    eq((rc, err), (0, ""), "solutions: exit status and messages")
    eq(out.rstrip("\n").split("\n\n"), ["\n".join(w) for _, w in sets],
       "the lists of the marks")
    for (_, want), line in zip(sets, both(c, "-c", 50, stdin=text)[1]
                               .split("\n")):
        eq(line, str(len(want)), "the count of marks")
        counts.append(len(want))
    eq(both(c, "-l", stdin=text)[1], lines_of(w[0] for _, w in sets),
       "-l: the first of each list")
    for (_, want), line in zip(sets, both(c, stdin=text)[1].split("\n")):
        check(line in want, "a solution of the marks: %r" % line)
    k = c.connect(timeout=60)
    eq(both(c, "analyze", stdin=text)[1],
       lines_of(k.req("ANALYZE " + m) for m, _ in sets), "analyze")
    c.note("solutions of the mark sets: %r" % counts)
    bad = marks_of(h.CLASSIC)
    for m, cell in ((bad[:27] + "." * 9 + bad[36:], ""),
                    (bad[:728] + "x", " (r9c9)"),
                    ("....5...." * 2 + "123456789" * 79, "")):
        rc, out, err = both(c, "-q", "solutions", stdin=m + "\n")
        eq((rc, out), (1, k.req("SOLUTIONS %s 10" % m) + cell + "\n"),
           "the error of %s, as the daemon's" % m[-20:])
    rc, out, err = both(c, "-q", "rate", stdin=bad + "\n")
    eq(out, "ERR length expected 81 cells, found 729\n", "rate: not marks")


def listed(line):
    """The reference's answer to a SOLUTIONS line: its lines and END."""
    words = line.split()
    return ref(words[1], int(words[2])) + ["END"]


def beyond(line):
    """The reference's first n + 1 solutions of a SOLUTIONS line."""
    words = line.split()
    return ref(words[1], int(words[2]) + 1)


BUDGET_ERR = "ERR budget search budget of 100000 guesses exceeded"


@T.case("a server lying about SOLUTIONS: alone, nothing printed, exit 2; "
        "beside a daemon, set aside, every answer the daemon's (as -L "
        "prints it), exit 3", transports=ONE, timeout=300)
def _(c):
    puzzles = [SPARSE, h.EMPTY]
    lies = [
        ("two solutions swapped",
         lambda ln: [listed(ln)[1], listed(ln)[0]] + listed(ln)[2:],
         r"line 2: not larger than the solution before"),
        ("a given changed",
         lambda ln: ["9" + s[1:] for s in listed(ln)[:-1]] + ["END"],
         r"line 1: changes the given 5 at r1c1|line 1: not a solution"),
        ("one more than asked",
         lambda ln: listed(ln)[:-1] + [listed(ln)[-2]] + ["END"],
         r"line \d+: not larger|more than the \d+ solutions asked|"
         r"a reply of more than \d+ lines"),
        ("the least one left out", lambda ln: listed(ln)[1:],
         r"the first solution is not the least"),
        ("the last one left out, END before n",
         lambda ln: listed(ln)[:-2] + ["END"],
         r"\d+ solutions?, then END, but the puzzle has more"),
        ("ERR nosolution", lambda ln: listed(ln)[:2] + [NOSOL_ERR],
         r"ERR nosolution after solutions: only budget or deadline "
         r"cuts a list short"),
        ("a line of no solution", lambda ln: listed(ln)[:1] + ["OK"] +
         listed(ln)[1:], r"line 2: not 81 digits 1-9|"
         r"a reply of more than 5 lines"),
        ("a middle solution skipped, n lines all the same",
         lambda ln: beyond(ln)[:1] + beyond(ln)[2:] + ["END"],
         r"line 2: a solution left out before it"),
        ("a middle solution skipped, then ERR budget",
         lambda ln: beyond(ln)[:1] + beyond(ln)[4:5] + [BUDGET_ERR],
         r"line 2: a solution left out before it"),
        ("ERR syntax after solutions",
         lambda ln: listed(ln)[:2] + ["ERR syntax SOLUTIONS <puzzle> <n>"],
         r"ERR syntax after solutions: only budget or deadline cuts "
         r"a list short"),
        ("ERR deadline after solutions, none asked",
         lambda ln: listed(ln)[:2] + ["ERR deadline deadline of 5 ms "
                                      "passed before an answer"],
         r"ERR deadline after solutions: only budget or deadline cuts "
         r"a list short"),
    ]
    args = ["solutions", "-n", 5]
    d = h.Daemon(workers=1).start()
    try:
        for what, answer, why in lies:
            liar_caught(what, answer, args, lines_of(puzzles * 3), why, d)
    finally:
        d.cleanup()


@T.case("a SOLUTIONS reply of the daemon checked by sudokuc: none of its "
        "checks refuses 300 lists (some cut by the budget)", transports=ONE,
        timeout=300)
def _(c):
    many = h.load_puzzles("puzzles3_magictour_top1465", 100)
    text = lines_of(p[:40] + "." * 41 for p in many) + lines_of(many)
    text += lines_of(SPARSE for _ in range(100))
    rc, out, err = both(c, "-q", "-b", 2000, "solutions", "-n", 50,
                        stdin=text)
    check(rc in (0, 1) and "wrong answer" not in err, "%r %r" % (rc, err))
    eq(len(out.rstrip("\n").split("\n\n")), 300, "300 lists")


@T.case("a SOLUTIONS reply streaming for longer than -t, each line well "
        "within it, is waited for and printed whole, not taken for a server "
        "gone quiet", transports=ONE)
def _(c):
    want = ref(SPARSE, 15)
    # 15 lines 0.2 s apart: 3 s in all against -t 2, 10 times a gap.
    s = FakeServer(lambda line: Slow(want + ["END"], 0.2))
    try:
        rc, out, err = run("-t", "2", "-H", "127.0.0.1:%d" % s.port,
                           "solutions", "-n", 15, SPARSE)
    finally:
        s.close()
    eq((rc, err), (0, ""), "exit status and messages")
    eq(out, lines_of(want), "the 15 solutions")
    eq(s.requests, 1, "asked once: never resent")


@T.case("a server trickling more SOLUTIONS lines than asked, each within "
        "-t, is set aside at the first line too many, not waited for",
        transports=ONE)
def _(c):
    more = ref(SPARSE, 30)
    # Without END, 0.1 s apart: a wait of 3 s and more, were it waited.
    s = FakeServer(lambda line: Slow(more, 0.1))
    try:
        rc, out, err = run("-t", "2", "-H", "127.0.0.1:%d" % s.port,
                           "solutions", "-n", 15, SPARSE)
    finally:
        s.close()
    eq((rc, out), (2, ""), "exit status and output (%s)" % err)
    check(re.search(r"^sudokuc: %s: wrong answer to argument 1: a reply of "
                    r"more than 15 lines" % re.escape(s.name), err, re.M),
          "the server and why not named: %r" % err)


def peak_kib(*args, stdin):
    """sudokuc -q args on the file stdin, output thrown away: (status,
    its peak resident set in KiB)."""
    with open(stdin) as f:
        p = subprocess.Popen([h.SUDOKUC, "-q"] + [str(a) for a in args],
                             stdin=f, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        _, status, use = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, use.ru_maxrss


@T.case("-L -j 4 solutions -n 10000, 400 near-empty grids (about 800 KB "
        "a reply): the peak resident set stays under 64 MiB, the replies "
        "printed let go, not one buffer kept a puzzle", transports=ONE,
        timeout=120)
def _(c):
    path = os.path.join(c.d.tmp, "near-empty")
    with open(path, "w") as f:
        f.write(lines_of("." * (i % 81) + str(i % 9 + 1) + "." * (80 - i % 81)
                         for i in range(400)))
    rc, kib = peak_kib("-L", "-j", 4, "solutions", "-n", 10000,
                       stdin=path)
    c.note("peak resident set: %d KiB" % kib)
    eq(rc, 0, "exit status")
    check(h.SANITIZED or kib < 64 * 1024, "peak of %d KiB" % kib)


if __name__ == "__main__":
    sys.exit(T.run())
