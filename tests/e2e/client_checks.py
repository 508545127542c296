#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
client_checks.py -- sudokuc checks every answer a server sends (issue
18): against servers that lie (fake_server.py: blanks filled with 1s, a
solution with two cells swapped, counts over the limit, generated
puzzles that are no puzzles, unsound hints, error codes a checked puzzle
cannot get, replies to nothing asked, endless lines), sudokuc prints no
wrong answer, names the server and why, and with another server beside
it sets the liar aside and finishes the batch there: every answer right
(checked here with the reference solver), exit status 3.
"""

import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
from fake_server import (FakeServer, ones, puzzle_of, solution,  # noqa
                         swapped)
from reference import right_answers                     # noqa: E402

T = h.Tap()
ONE = (None,)
SUDOKUC = h.SUDOKUC
TMP = tempfile.mkdtemp(prefix="e2e_checks.")
HARD = h.load_puzzles("puzzles3_magictour_top1465", 200)


def run(*args, stdin=""):
    env = dict(os.environ)
    for k in ("SUDOKUD_SOCKET", "SUDOKUD_SERVERS"):
        env.pop(k, None)
    p = subprocess.run([SUDOKUC] + [str(a) for a in args], input=stdin,
                       env=env, capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def puzzles_file(puzzles):
    f = os.path.join(TMP, "p%d.txt" % len(puzzles))
    with open(f, "w") as fh:
        fh.write("".join(p + "\n" for p in puzzles))
    return f


def hint_unsound(line):
    """A hint that places a wrong digit in the first blank."""
    p = puzzle_of(line)
    i = next(i for i, ch in enumerate(p) if ch in ".0")
    wrong = next(d for d in "123456789" if d != solution(p)[i])
    return "naked_single r%dc%d=%s %s is the only candidate left" % (
        i // 9 + 1, i % 9 + 1, wrong, wrong)


GEN = ["generate", "-l", "easy", "--seed", "1"]

# (what the server does, command and arguments, its answer, the reason
# sudokuc must give, a regular expression)
LIES = [
    ("blanks filled with 1", [], lambda ln: ones(puzzle_of(ln)),
     r"not a solution: row 1 has two 1s"),
    ("a solution with two cells swapped", [],
     lambda ln: swapped(puzzle_of(ln)), r"not a solution: column \d has "
     r"two \ds"),
    ("a given changed", [], lambda ln: "2" + solution(puzzle_of(ln))[1:],
     r"changes the given 5 at r1c1"),
    ("a count over the limit", ["-c", "3"], lambda ln: "7",
     r"a count of 7, over the limit 3 asked"),
    ("a count that is no number", ["-c", "3"], lambda ln: "two",
     r"not a count"),
    ("GENERATE answered with 81 1s", GEN,
     lambda ln: "1" * 81, r"a puzzle whose givens conflict"),
    ("GENERATE answered with an empty grid", GEN,
     lambda ln: "." * 81, r"a puzzle with more than one solution"),
    ("RATE with a level out of its range", ["rate"],
     lambda ln: "easy 2.4 naked_single", r"score 2.4 out of the range"),
    ("RATE naming a technique of another level", ["rate"],
     lambda ln: "easy 1.0 x_wing", r"x_wing is not a technique of level "
     r"easy"),
    ("an unsound HINT", ["hint"], hint_unsound,
     r"unsound hint: r1c3=\d, but the solution has \d there"),
    ("ERR wrong to a HINT sent no grid", ["hint"],
     lambda ln: "ERR wrong r1c3", r"ERR wrong, but no grid was sent"),
    ("ERR conflict for a puzzle with none", [],
     lambda ln: "ERR conflict r1c1 and r1c2 are both 5",
     r"ERR conflict, which this request cannot get"),
    ("PONG to a SOLVE", [], lambda ln: "PONG", r"not 81 digits"),
    ("an extra reply to nothing asked", [],
     lambda ln: [solution(puzzle_of(ln)), "OK"],
     r"a reply to nothing asked: OK"),
    ("a reply line of 10 KiB", [], lambda ln: "9" * 10240,
     r"a reply line longer than 8192 bytes"),
]


@T.case("a lying server alone: no wrong answer printed, the server and "
        "why named, exit 2", transports=ONE)
def _(c):
    for what, args, answer, why in LIES:
        s = FakeServer(answer)
        try:
            rc, out, err = run("-t", "5", "-H", "127.0.0.1:%d" % s.port,
                               *args, *([] if args == GEN else [h.CLASSIC]))
        finally:
            s.close()
        check(rc == 2, "%s: exit %d (stderr: %s)" % (what, rc, err))
        eq(out, "" if "extra reply" not in what else
           solution(h.CLASSIC) + "\n", "%s: standard output" % what)
        check(re.search(r"^sudokuc: %s: .*%s" % (re.escape(s.name), why),
                        err, re.M),
              "%s: no message naming %s and /%s/ in:\n%s" % (
                  what, s.name, why, err))
        check("setting this server aside; no other server is left" in err,
              "%s: %s" % (what, err))
        eq(len(err.strip().split("\n")), 1, "%s: one message" % what)


@T.case("-s good -H liar, 200 hard puzzles: the liar set aside, every "
        "answer right from the good one, exit 3 and a summary",
        transports=ONE, own=True)
def _(c):
    d = h.Daemon(workers=2).start()
    f = puzzles_file(HARD)
    try:
        for what, answer in (("ones", lambda ln: ones(puzzle_of(ln))),
                             ("garbage", lambda ln: "garbage")):
            s = FakeServer(answer)
            try:
                rc, out, err = run("-v", "-t", "5", "-s", d.path, "-H",
                                   "127.0.0.1:%d" % s.port, f)
            finally:
                s.close()
            eq(rc, 3, "%s: exit status (stderr: %s)" % (what, err))
            eq(right_answers(HARD, out), "", "%s: the answers" % what)
            check(s.requests >= 1, "%s: the liar was never asked" % what)
            check(re.search(r"^sudokuc: %s: wrong answer to %s:\d+: .*; "
                            r"setting this server aside, its requests? go"
                            % (re.escape(s.name), re.escape(f)), err,
                            re.M), "%s: the warning:\n%s" % (what, err))
            check(re.search(r"^sudokuc: %s: \d+ answers?, .*, set aside for "
                            r"a wrong answer$" % re.escape(s.name), err,
                            re.M), "%s: the -v summary:\n%s" % (what, err))
            check("1 server was set aside for wrong answers" in err,
                  "%s: the closing line:\n%s" % (what, err))
            c.note("%s: the liar got %d requests before it was set aside"
                   % (what, s.requests))
    finally:
        d.cleanup()


@T.case("generate beside a server answering 81 1s: puzzles from the good "
        "one, each with one solution", transports=ONE, own=True)
def _(c):
    d = h.Daemon(workers=1).start()
    s = FakeServer(lambda ln: "1" * 81)
    try:
        # Both over TCP: both connect in the same turn and share the work.
        rc, out, err = run("-t", "5", "-H", "127.0.0.1:%d" % s.port, "-H",
                           "127.0.0.1:%d" % d.port, "generate", "-l",
                           "easy", "-n", "20", "--seed", "1")
    finally:
        s.close()
        d.cleanup()
    eq(rc, 3, "exit status (stderr: %s)" % err)
    check(s.requests >= 1, "the liar was never asked")
    lines = out.split("\n")[:-1]
    eq(len(lines), 20, "twenty puzzles")
    for p in lines:
        eq(h.ref_search(p, limit=2)[0], 1, "solutions of %s" % p)


if __name__ == "__main__":
    sys.exit(T.run())
