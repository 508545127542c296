#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
client_analyze.py -- sudokuc analyze and the request options sudokuc
sends (issue 20), against a private sudokud and with -L.

analyze prints the daemon's ANALYZE line for each puzzle, the same bytes
with -L; each line is checked here against COUNT, the reference solver
and RATE.  -b with a daemon sends budget= (the daemon's budget is the
most); -D sends deadline=, whose ERR deadline sudokuc takes as an
answer.
"""

import os
import subprocess
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
from fake_server import puzzle_of                       # noqa: E402
from toolbox_common import liar_caught                  # noqa: E402

T = h.Tap({"workers": 2, "budget": 5000, "count_max": 1000000})
SUDOKUC = h.SUDOKUC
EMPTY = "0" * 81


def run(*args, stdin="", timeout=120):
    e = dict(os.environ)
    e.pop("SUDOKUD_SOCKET", None)
    e.pop("SUDOKUD_SERVERS", None)
    p = subprocess.run([SUDOKUC] + [str(a) for a in args], input=stdin,
                       env=e, capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


@T.case("analyze: the daemon and -L print the same line per puzzle, each "
        "agreeing with COUNT, the reference solver and RATE",
        transports=(None,))
def _(c):
    puzzles = (h.load_puzzles("puzzles2_17_clue", 100) +
               h.load_puzzles("puzzles3_magictour_top1465", 50) +
               h.load_puzzles("puzzles7_many_solutions", 50) +
               [EMPTY, "12345678." + "........9" + "." * 63])
    text = "".join(p + "\n" for p in puzzles)
    d = run("-s", c.d.path, "analyze", stdin=text)
    loc = run("-L", "-b", "5000", "analyze", stdin=text)
    eq(d, loc, "-L and the daemon")
    rc, out, err = d
    eq((rc, err), (0, ""), "exit status and messages")
    lines = out.split("\n")[:-1]
    eq(len(lines), len(puzzles), "a line a puzzle")
    k = c.connect()
    for p, line in zip(puzzles, lines):
        kv = dict(t.split("=", 1) for t in line.split())
        n = int(k.req("COUNT %s 2" % p))
        eq(kv["status"], ("nosolution", "unique", "multiple")[n],
           "status of %s" % p)
        eq(int(kv["clues"]), sum(ch not in ".0" for ch in p), "clues")
        if n == 1:
            eq(h.solution_problem(p, kv["solution"]), None, "solution")
            eq("%(level)s %(score)s %(hardest)s" % kv, k.req("RATE " + p),
               "rating")


@T.case("-b with a daemon sends budget=, capped by the daemon's; -D sends "
        "deadline=, and ERR deadline is an answer", transports=(None,))
def _(c):
    rc, out, _ = run("-s", c.d.path, "-b", "10", "-c", "1000", EMPTY)
    eq((rc, out), (1, "ERR budget search budget of 10 guesses exceeded\n"),
       "-b 10")
    rc, out, _ = run("-s", c.d.path, "-b", "99999999", "-c", "100000", EMPTY)
    eq((rc, out), (1, "ERR budget search budget of 5000 guesses "
                      "exceeded\n"), "-b above the daemon's 5000")
    rc, out, _ = run("-s", c.d.path, "-D", "60000", h.CLASSIC)
    eq((rc, out), (0, h.CLASSIC_SOLUTION + "\n"), "-D far away")
    # A count that cannot end within a millisecond on any machine: a
    # deadline of 1 ms against 1,000,000 solutions and a budget of 5000.
    rc, out, err = run("-s", c.d.path, "-D", "1", "-c", "1000000", EMPTY)
    check(rc == 1 and out in ("ERR deadline deadline of 1 ms passed before "
                              "an answer\n", "ERR budget search budget of "
                              "5000 guesses exceeded\n"),
          "-D 1: %r %r" % (out, err))
    rc, _, err = run("-L", "-D", "5", h.CLASSIC)
    check(rc == 2 and "-D is for a daemon" in err, "-L -D: %r" % err)
    rc, _, err = run("-s", c.d.path, "-D", "0", h.CLASSIC)
    check(rc == 2 and "the deadline must be a number from 1" in err,
          "-D 0: %r" % err)


@T.case("a server whose ANALYZE status lies (nosolution for a puzzle "
        "with many, multiple for a unique one): alone, nothing printed, "
        "exit 2; beside a daemon, set aside", transports=(None,),
        timeout=120)
def _(c):
    sparse = h.CLASSIC[:62] + "." * 19
    clues = {p: sum(ch not in ".0" for ch in p) for p in (sparse, h.CLASSIC)}
    lie = {sparse: "nosolution", h.CLASSIC: "multiple"}

    def answer(line):
        p = puzzle_of(line)
        return "status=%s clues=%d guesses=0" % (lie[p], clues[p])
    d = h.Daemon(workers=1).start()
    try:
        for p in (sparse, h.CLASSIC):
            liar_caught("status=" + lie[p], answer, ["analyze"], p + "\n",
                        r"status %s, but the puzzle has " % lie[p], d)
    finally:
        d.cleanup()


if __name__ == "__main__":
    sys.exit(T.run())
