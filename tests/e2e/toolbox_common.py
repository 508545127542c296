# SPDX-License-Identifier: ISC
"""
toolbox_common.py -- what the tests of the puzzle toolbox share
(toolbox.py, over the wire; client_toolbox.py, through sudokuc; not a
test program): the symmetries of the square as maps of cells, their
orbits, rule-keeping transformations made here, uniqueness by the
reference solver, HINT's actions applied to pencil marks, pencil marks
struck at random; and sudokuc run with a daemon and with -L, or against
a fake server (client_toolbox.py, client_solutions.py).  Nothing here
asks the daemon or src/core.
"""

import os
import re

import harness as h
from fake_server import FakeServer
from harness import check, eq
from reference import ref_search

LEVELS = ("easy", "medium", "hard", "expert", "extreme")

# The symmetries of the square as generators, (r, c) -> (r, c), 0-based.
ROT90 = lambda r, c: (c, 8 - r)                         # noqa: E731
MIRROR = lambda r, c: (r, 8 - c)                        # noqa: E731
SYMMETRIES = {
    "none": [],
    "rot180": [lambda r, c: (8 - r, 8 - c)],
    "rot90": [ROT90],
    "mirror": [MIRROR],
    "flip": [lambda r, c: (8 - r, c)],
    "diagonal": [lambda r, c: (c, r)],
    "antidiagonal": [lambda r, c: (8 - c, 8 - r)],
    "dihedral": [ROT90, MIRROR],
}


def count(p, limit=2):
    n, _, done = ref_search(p, limit=limit, lexmin=False)
    if not done:
        raise h.Fail("the reference solver gave up on %s" % p)
    return n


def solution_of(p):
    n, sol, done = ref_search(p, limit=1, lexmin=False)
    if not done or n != 1:
        raise h.Fail("no solution for %s" % p)
    return sol


def givens(p):
    return {i for i, ch in enumerate(p) if ch not in ".0"}


def orbits(sym):
    """The cells the symmetry maps onto each other, as sets."""
    gens, seen, out = SYMMETRIES[sym], set(), []
    for start in range(81):
        if start in seen:
            continue
        orbit, todo = {start}, [start]
        while todo:
            r, c = divmod(todo.pop(), 9)
            for g in gens:
                i = 9 * g(r, c)[0] + g(r, c)[1]
                if i not in orbit:
                    orbit.add(i)
                    todo.append(i)
        seen |= orbit
        out.append(orbit)
    return out


def invariant(p, sym):
    g = givens(p)
    return all(o <= g or not (o & g) for o in orbits(sym))


def without(p, cells):
    return "".join("." if i in cells else ch for i, ch in enumerate(p))


def transform(p, rng):
    """A random rule-keeping transformation of p, made here."""
    def perm3x3():
        outer = rng.sample(range(3), 3)
        return [3 * b + i for b in outer for i in rng.sample(range(3), 3)]
    rows, cols = perm3x3(), perm3x3()
    digits = dict(zip("123456789", rng.sample("123456789", 9)))
    digits["."] = digits["0"] = "."
    grid = [p[9 * r:9 * r + 9] for r in range(9)]
    if rng.random() < 0.5:
        grid = ["".join(grid[r][c] for r in range(9)) for c in range(9)]
    return "".join(digits[grid[rows[r]][cols[c]]] for r in range(9)
                   for c in range(9))


def apply(marks, step):
    """HINT's actions on 729 marks, a placed digit leaving its peers."""
    for act in step.split()[1].split(","):
        cell, d = (int(act[1]) - 1) * 9 + int(act[3]) - 1, act[5]
        if act[4] == "=":
            marks[cell] = "".join(x if x == d else "." for x in "123456789")
            r, col = divmod(cell, 9)
            for j in range(81):
                jr, jc = divmod(j, 9)
                if j != cell and (jr == r or jc == col or (
                        jr // 3 == r // 3 and jc // 3 == col // 3)):
                    marks[j] = marks[j].replace(d, ".")
        else:
            marks[cell] = marks[cell].replace(d, ".")


def start_marks(p):
    """The 729 marks a path starts from: a given its digit, a blank all
    nine."""
    return [("123456789" if ch in ".0" else
             "".join(x if x == ch else "." for x in "123456789"))
            for ch in p]


def marks_of(puzzle):
    """The 729-character pencil marks of a puzzle: all nine in a blank."""
    return "".join(start_marks(puzzle))


def strike(marks, rng, n, keep):
    """marks (as 81 cells) with up to n candidates struck at random, never
    a digit of the solution keep: it stays a solution."""
    cells = [marks[9 * i:9 * i + 9] for i in range(81)]
    for _ in range(n):
        i, d = rng.randrange(81), rng.randrange(9)
        if str(d + 1) != keep[i]:
            cells[i] = cells[i][:d] + "." + cells[i][d + 1:]
    return cells


def run(*args, stdin="", raw=False):
    """sudokuc with args, none of the environment's servers: (status,
    out, err); out and err as bytes if raw."""
    env = dict(os.environ)
    for k in ("SUDOKUD_SOCKET", "SUDOKUD_SERVERS"):
        env.pop(k, None)
    p = h.run_child([h.SUDOKUC] + [str(a) for a in args],
                    input=stdin.encode() if raw else stdin, env=env,
                    text=not raw, timeout=120)
    return p.returncode, p.stdout, p.stderr


def both(c, *args, stdin=""):
    """sudokuc with the case's daemon (on its transport) and with -L: the
    same status, output and messages; returns them."""
    server = (["-H", "127.0.0.1:%d" % c.d.port] if c.transport == "tcp"
              else ["-s", c.d.path])
    d = run(*server, *args, stdin=stdin)
    loc = run("-L", *args, stdin=stdin)
    eq(d, loc, "sudokuc %s: -L and the daemon" % " ".join(map(str, args[:4])))
    return d


def lines_of(puzzles):
    return "".join(p + "\n" for p in puzzles)


def lying(answer, *args, stdin="", daemon=None, raw=False):
    """sudokuc against a fake server answering answer(line), alone or
    with a daemon beside it: (status, out, err, server name, asked)."""
    rc, out, err, s = liar(answer, *args, stdin=stdin, daemon=daemon,
                           raw=raw)
    return rc, out, err, s.name, s.requests


def liar(answer, *args, stdin="", daemon=None, raw=False, pong=True,
         tcp=False):
    """As lying(), but the fake server itself last (its requests, late);
    tcp: the daemon over TCP too, both connected in the same turn."""
    s = FakeServer(answer, pong=pong)
    try:
        beside = ([] if daemon is None else ["-s", daemon.path] if not tcp
                  else ["-H", "127.0.0.1:%d" % daemon.port])
        rc, out, err = run("-t", "5", "-H", "127.0.0.1:%d" % s.port,
                           *beside, *args, stdin=stdin, raw=raw)
    finally:
        s.close()
    return rc, out, err, s


def liar_caught(what, answer, args, stdin, why, daemon, alone="",
                pong=True, tcp=False):
    """A server answering answer(line) to sudokuc args: alone, nothing
    printed (or alone), exit 2, the server and why (a regular expression;
    after "!", of a wrong reply, not of a wrong answer to a request)
    named, once; beside daemon, set aside, the output -L's, exit 3, and
    never connected to again."""
    rc, out, err, s = liar(answer, *args, stdin=stdin, pong=pong)
    check(rc == 2 and out == alone, "%s alone: %r %r %r" % (what, rc, out,
                                                          err))
    where = ("" if why.startswith("!") else
             r"wrong answer to (-:\d+|seed \d+): ")
    check(re.search(r"^sudokuc: %s: %s(%s).*; setting this server aside"
                    % (re.escape(s.name), where, why.lstrip("!")), err, re.M),
          "%s: no /%s/ in %r" % (what, why, err))
    eq(err.count("setting this server aside"), 1, "%s: set aside once" % what)
    rc, out, err, s = liar(answer, "-C", "2", *args, stdin=stdin,
                           daemon=daemon, pong=pong, tcp=tcp)
    want = run("-L", *args, stdin=stdin)[1]
    check(rc == 3 and out == want and s.requests >= 1,
          "%s beside a daemon: %r %r, asked %d" % (what, rc, err,
                                                  s.requests))
    check(err.count("setting this server aside") == 1 and s.late == 0,
          "%s: connected to again after it was set aside (%d times): %r"
          % (what, s.late, err))


def exactly(why):
    """A regular expression for liar_caught(): the message why and no
    other ("!" first kept), ended where the quoted reply or the rest of
    the warning begins."""
    return why[:why.startswith("!")] + re.escape(why.lstrip("!")) + \
        r"(?=: |; )"


def every_row(rows, one):
    """one(row) for each row, every one run even after a failure: the
    rows that failed named together, each with why."""
    failed = []
    for row in rows:
        try:
            one(row)
        except h.Fail as e:
            failed.append("%s: %s" % (row[0], e))
    check(not failed, "%d rows failed:\n%s" % (len(failed),
                                               "\n".join(failed)))
