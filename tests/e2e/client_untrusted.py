#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
client_untrusted.py -- what sudokuc takes from a server, and what not
(issue 29.5), against fake servers (fake_server.py) and a daemon.

A server's bytes: an ERR text, a hint's explanation, STATS and VERSION
lines and a wrong answer quoted in a warning reach standard output and
standard error as 7-bit text, each byte outside printable ASCII (ESC,
BEL, DEL, C1 controls, UTF-8) shown as the protocol shows request bytes
in its error text ('x' 0x1b '[2J'), written out here by hand; a reply
that is printable ASCII is printed byte for byte as it came.

A server's claims: ERR nosolution for a solvable puzzle, ERR multiple
for a unique one and a count that is not the puzzle's are wrong answers,
found by a count in sudokuc: alone, nothing is printed and sudokuc
exits 2; beside a daemon, the liar is set aside and the output is -L's.
True claims (a puzzle with no solution that takes a search to see) are
printed as before.
"""

import os
import re
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
from fake_server import solution                        # noqa: E402
from reference import ref_search                        # noqa: E402
from toolbox_common import liar_caught, lying, run      # noqa: E402

T = h.Tap()
ONE = (None,)
CLASSIC = h.CLASSIC
EMPTY = "." * 81
ERR_NOSOL = "ERR nosolution the puzzle has no solution"
ERR_MULTI = "ERR multiple the puzzle has more than one solution"

# A server's text with a CSI (ESC [ and the C1 byte 0x9b), an OSC (0x9d)
# ended by BEL, DEL and an é in UTF-8; then as sudokuc must show it.
BAD = b"x\x1b[2J\x07y \x9b31m\x9d0;t\x07\x7f caf\xc3\xa9"
SHOWN = ("'x' 0x1b '[2J' 0x07 'y ' 0x9b '31m' 0x9d '0;t' 0x07 0x7f ' caf' "
         "0xc3 0xa9")


def seven_bit(what, data):
    """Nothing in data but printable ASCII and LF."""
    bad = sorted({b for b in data if not (0x20 <= b < 0x7f or b == 0x0a)})
    check(not bad, "%s: bytes %s in %r" % (what, bad, data))


def shown(what, *args, answer, stdin=CLASSIC + "\n"):
    """sudokuc args against a server answering answer(line): (status,
    out, err, server name) as text, once out and err are 7-bit."""
    rc, out, err, name, _ = lying(answer, *args, stdin=stdin, raw=True)
    seven_bit(what + ", standard output", out)
    seven_bit(what + ", standard error", err)
    return rc, out.decode(), err.decode(), name


def unsolvable():
    """CLASSIC with one given added that keeps the givens in no conflict
    but is not its solution's: no solution, as a search (not the givens)
    shows."""
    p = CLASSIC
    sol = solution(p)
    for i in (i for i, ch in enumerate(p) if ch in ".0"):
        r, c = divmod(i, 9)
        peers = {p[j] for j in range(81) if j // 9 == r or j % 9 == c or
                 (j // 27 == i // 27 and j % 9 // 3 == c // 3)}
        for d in "123456789":
            if d != sol[i] and d not in peers:
                q = p[:i] + d + p[i + 1:]
                n, _, done = ref_search(q, limit=1)
                if n == 0 and done:
                    return q
    raise h.Fail("no unsolvable variant of " + p)   # never: p is unique


@T.case("an ERR text with ESC, BEL, C1, DEL and UTF-8, or DEL alone: "
        "shown escaped as the protocol shows bytes, on stdout, in the "
        "note, with -e",
        transports=ONE, daemonless=True)
def _(c):
    rc, out, err, _ = shown("ERR", answer=lambda ln: b"ERR budget " + BAD)
    eq((rc, out, err), (1, "ERR budget %s\n" % SHOWN,
                        "sudokuc: -:1: %s\n" % SHOWN), "ERR budget")
    rc, out, err, _ = shown("-e", "-e", answer=lambda ln: b"ERR budget " +
                            BAD)
    eq((rc, out, err), (1, "", "sudokuc: -:1: ERR budget %s\n" % SHOWN),
       "ERR budget with -e")
    # DEL alone among printable bytes is no more printable.
    rc, out, err, _ = shown("DEL", answer=lambda ln: b"ERR budget x\x7fy")
    eq((rc, out), (1, "ERR budget 'x' 0x7f 'y'\n"), "ERR budget x DEL y")


@T.case("a hint, a path, STATS, VERSION, a wrong answer and ERR busy "
        "with such bytes: shown escaped", transports=ONE, daemonless=True)
def _(c):
    hint = run("-L", "hint", CLASSIC)[1].rstrip("\n")
    rc, out, _, _ = shown("hint", "hint",
                          answer=lambda ln: hint.encode() + b" " + BAD)
    eq((rc, out), (0, "'%s %s\n" % (hint, SHOWN[1:])), "the hint")
    rc, out, _, _ = shown("pretty hint", "-f", "pretty", "hint",
                          answer=lambda ln: hint.encode() + b" " + BAD)
    eq(out.split("\n")[0], "'%s %s" % (hint, SHOWN[1:]), "the hint drawn")
    path = run("-L", "path", CLASSIC)[1].split("\n")[:-1]
    rc, out, _, _ = shown("path", "path", answer=lambda ln: [
        path[0].encode() + b" " + BAD] + path[1:] + ["END"])
    eq((rc, out.split("\n")), (0, ["'%s %s" % (path[0], SHOWN[1:])] +
                               path[1:] + [""]), "a step of a path")
    stats = ["STAT pid 7", b"STAT version 0.2" + BAD, b"STAT \x9bx 3", "END"]
    rc, out, _, _ = shown("STATS", "stats", answer=lambda ln: stats,
                          stdin="")
    eq((rc, out), (0, "pid     7\nversion '0.2x' %s\n0x9b 'x' 3\n"
                   % SHOWN[4:]), "STATS")
    rc, out, _, name = shown("VERSION", "version", stdin="",
                             answer=lambda ln: b"VERSION 1.0" + BAD)
    eq(out, "sudokud '1.0x' %s at %s (sudokuc %s)\n" % (
        SHOWN[4:], name, run("-V")[1].split()[1]), "VERSION")
    rc, out, err, name = shown("a wrong answer", answer=lambda ln:
                            solution(CLASSIC).encode() + b"\x1b[2J\x9b")
    eq((rc, out), (2, ""), "a wrong answer: exit status and output")
    check(err.startswith("sudokuc: %s: wrong answer to -:1: not 81 digits "
                         "1-9: '%s' 0x1b '[2J' 0x9b; setting this server "
                         "aside" % (name, solution(CLASSIC))),
          "a wrong answer quoted: %r" % err)
    rc, out, err, name = shown("ERR busy", "-v", "-t", "1",
                               answer=lambda ln: b"ERR busy " + BAD)
    check(rc == 2 and "%s: server busy: %s" % (name, SHOWN) in err,
          "ERR busy: %r %r" % (rc, err))


@T.case("printable replies are printed byte for byte, quotes and 0x41 "
        "included", transports=ONE, daemonless=True)
def _(c):
    text = "it's 'x' 0x41 ~{}|\\ \"q\""
    rc, out, err, _ = shown("ERR", answer=lambda ln: "ERR budget " + text)
    eq((rc, out, err), (1, "ERR budget %s\n" % text,
                        "sudokuc: -:1: %s\n" % text), "a printable ERR")
    stats = ["STAT pid 7", "STAT version 0.2 'a' 0x1b", "END"]
    rc, out, _, _ = shown("STATS", "stats", answer=lambda ln: stats,
                          stdin="")
    eq(out, "pid     7\nversion 0.2 'a' 0x1b\n", "printable STATS")


def claims(unsol):
    """(what, sudokuc's arguments, puzzle, the lie, why) of servers
    whose ERR nosolution, ERR multiple or count is false."""
    nosol = lambda ln: ERR_NOSOL                        # noqa: E731
    multi = lambda ln: ERR_MULTI                        # noqa: E731
    one = r"ERR %s, but the puzzle has one solution"
    return [
        ("SOLVE: ERR nosolution", [], CLASSIC, nosol, one % "nosolution"),
        ("LEXMIN: ERR nosolution", ["-l"], EMPTY, nosol,
         r"ERR nosolution, but the puzzle has more than one solution"),
        ("RATE: ERR nosolution", ["rate"], CLASSIC, nosol,
         one % "nosolution"),
        ("RATE: ERR multiple", ["rate"], CLASSIC, multi, one % "multiple"),
        ("HINT: ERR multiple", ["hint"], CLASSIC, multi, one % "multiple"),
        ("PATH: ERR nosolution", ["path"], CLASSIC, nosol,
         one % "nosolution"),
        ("MINIMIZE: ERR multiple", ["minimize", "--seed", "1"], CLASSIC,
         multi, one % "multiple"),
        ("CONSTRAIN: ERR nosolution", ["constrain", "--seed", "1"],
         CLASSIC[:40] + "." * 41, nosol,
         r"ERR nosolution, but the puzzle has more than one solution"),
        ("RATE: ERR multiple for no solution", ["rate"], unsol, multi,
         r"ERR multiple, but the puzzle has no solution"),
        ("COUNT: 0", ["-c"], CLASSIC, lambda ln: "0",
         r"a count of 0, but the puzzle has at least 1 solution"),
        ("COUNT: 2 for one", ["-c"], CLASSIC, lambda ln: "2",
         r"a count of 2, but the puzzle has 1 solution:"),
        ("COUNT: 3 of 10 for many", ["-c", "10"], EMPTY, lambda ln: "3",
         r"a count of 3, but the puzzle has at least 4 solutions"),
    ]


@T.case("false ERR nosolution, ERR multiple and counts: alone, nothing "
        "printed, exit 2; beside a daemon, set aside, -L's output",
        transports=ONE, timeout=300)
def _(c):
    for what, args, p, answer, why in claims(unsolvable()):
        liar_caught(what, answer, args, p + "\n", why, c.d)


@T.case("true ERR nosolution, ERR multiple and count 0 from a server: "
        "printed as the daemon's and -L's", transports=ONE)
def _(c):
    unsol = unsolvable()
    for what, args, p, answer, want in (
            ("ERR nosolution", [], unsol, ERR_NOSOL, ERR_NOSOL),
            ("RATE: ERR nosolution", ["rate"], unsol, ERR_NOSOL, ERR_NOSOL),
            ("RATE: ERR multiple", ["rate"], EMPTY, ERR_MULTI, ERR_MULTI),
            ("MINIMIZE: ERR multiple", ["minimize", "--seed", "1"],
             CLASSIC[:40] + "." * 41, ERR_MULTI, ERR_MULTI),
            ("COUNT: 0", ["-c"], unsol, "0", "0")):
        rc, out, err, _, _ = lying(lambda ln: answer, *args, stdin=p + "\n")
        eq((rc, out), (0 if want == "0" else 1, want + "\n"),
           "%s from a fake server (%s)" % (what, err))
        check("set aside" not in err, "%s: %r" % (what, err))
        daemon = run("-s", c.d.path, *args, stdin=p + "\n")
        eq(daemon, (rc, out, err), "%s: the daemon's" % what)
        eq(run("-L", *args, stdin=p + "\n"), daemon, "%s: -L's" % what)


if __name__ == "__main__":
    sys.exit(T.run())
