#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
client_toolbox.py -- sudokuc canon, shuffle, minimize, constrain, path and
generate's shape (--symmetry, --clues, --pattern), against a private
sudokud and with -L.

Each command prints the same bytes with -L as with the daemon, and each
answer is checked here against what defines it (toolbox_common.py: the
reference solver, this side's symmetries, transformations and marks):
equivalents of a puzzle have its canonical form, a minimized puzzle is a
subset from which no given can go, a constrained one a unique superset,
a path's steps applied to pencil marks solve the puzzle and add up to
its summary.  --seed N numbers the puzzles N, N+1, ... as the protocol's
seeds.  sudokuc sets aside a server that lies about CANON, SHUFFLE or
PATH (fake_server.py), and a PATH reply cut by a lost connection is
asked again and printed once, in order.
"""

import os
import random
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
from fake_server import Cut, puzzle_of                  # noqa: E402
from toolbox_common import (LEVELS, apply, both, count,  # noqa: E402
                            givens, invariant, liar_caught, lines_of,
                            lying, orbits, run, solution_of, start_marks,
                            transform, without)

T = h.Tap({"workers": 2})
ONE = (None,)
TMP = tempfile.mkdtemp(prefix="e2e_toolbox.")
NOSOL = "12345678." + "........9" + "." * 63
MULTI_ERR = "ERR multiple the puzzle has more than one solution\n"


def fuller(sol, rng):
    """Half of a solution's cells, when that keeps one solution."""
    p = "".join(ch if rng.random() < 0.5 else "." for ch in sol)
    return p if count(p) == 1 else sol


@T.case("canon: -L and the daemon alike; equivalents made here share the "
        "form, the form its own form, givens kept, automorphisms dividing "
        "3359232", transports=ONE, timeout=300)
def _(c):
    rng = random.Random(11)
    base = (h.load_puzzles("puzzles2_17_clue", 20) +
            h.load_puzzles("puzzles6_forum_hardest_1106", 10) +
            [h.CLASSIC, h.CLASSIC_SOLUTION])
    rc, out, err = both(c, "canon", stdin=lines_of(base))
    eq((rc, err), (0, ""), "exit status and messages")
    forms = [ln.split() for ln in out.split("\n")[:-1]]
    eq(len(forms), len(base), "a line a puzzle")
    twins = [transform(p, rng) for p in base]
    _, out2, _ = run("-s", c.d.path, "canon", stdin=lines_of(twins))
    eq([ln.split() for ln in out2.split("\n")[:-1]], forms,
       "the forms of equivalents made here")
    _, out3, _ = run("-L", "canon", stdin=lines_of(f for f, _ in forms))
    eq([ln.split()[0] for ln in out3.split("\n")[:-1]],
       [f for f, _ in forms], "the form of a form")
    for p, (form, autos) in zip(base, forms):
        eq(len(givens(form)), len(givens(p)), "givens of the form of " + p)
        check(3359232 % int(autos) == 0, "%s automorphisms" % autos)
    eq(len({f for f, _ in forms}), len(base), "different puzzles, forms")
    eq(run("-L", "canon", h.EMPTY)[1], "." * 81 + " 3359232\n",
       "the empty grid")


@T.case("shuffle --seed N: -L and the daemon alike, the seeds N, N+1, ... "
        "of SHUFFLE, equivalent (CANON), one solution; random without "
        "--seed, -v names it", transports=ONE, timeout=300)
def _(c):
    base = h.load_puzzles("puzzles3_magictour_top1465", 12)
    rc, out, err = both(c, "shuffle", "--seed", 5, stdin=lines_of(base))
    eq((rc, err), (0, ""), "exit status and messages")
    got = out.split("\n")[:-1]
    k = c.connect(timeout=60)
    for i, (p, s) in enumerate(zip(base, got)):
        eq(s, k.req("SHUFFLE %s %d" % (p, 5 + i)), "seed %d" % (5 + i))
        eq(k.req("CANON " + s), k.req("CANON " + p), "equivalent: " + p)
        eq(count(s), 1, "one solution, as " + p)
    check(len(set(got)) == len(got), "different seeds, different puzzles")
    rc, out, err = run("-s", c.d.path, "-v", "shuffle", base[0], base[0])
    m = re.search(r"^sudokuc: shuffle: seeds (\d+), (\d+), \.\.\. for the "
                  r"puzzles in turn$", err, re.M)
    check(rc == 0 and m, "-v: %r" % err)
    eq(run("-L", "shuffle", "--seed", m.group(1), base[0], base[0])[1], out,
       "the seed -v named makes the same puzzles")
    rc, _, err = run("-s", c.d.path, "-b", 100, "shuffle", base[0])
    check(rc == 2 and "-b and -D are for requests that search, not for "
          "shuffle" in err, "-b with shuffle: %r" % err)
    rc, _, err = run("-s", c.d.path, "-D", 100, "canon", base[0])
    check(rc == 2 and "not for canon" in err, "-D with canon: %r" % err)


@T.case("minimize: -L and the daemon alike; a subset of the givens, one "
        "solution, no given removable (reference solver); ERR multiple and "
        "nosolution, exit 1", transports=ONE, timeout=300)
def _(c):
    rng = random.Random(3)
    base = [fuller(solution_of(p), rng) for p in
            h.load_puzzles("puzzles3_magictour_top1465", 3)]
    base.append(fuller(h.CLASSIC_SOLUTION, rng))
    rc, out, err = both(c, "-q", "minimize", "--seed", 9,
                        stdin=lines_of(base + [h.EMPTY, NOSOL]))
    eq(rc, 1, "exit status (%s)" % err)
    got = out.split("\n")[:-1]
    eq(got[len(base):], [MULTI_ERR.strip(), "ERR nosolution the puzzle has "
                         "no solution"], "the errors in place")
    for p, m in zip(base, got):
        check(givens(m) <= givens(p) and all(m[i] == p[i] for i in givens(m)),
              "not a subset of %s: %s" % (p, m))
        eq(count(m), 1, "one solution: " + m)
        for i in givens(m):
            eq(count(without(m, {i})), 2, "r%dc%d of %s can still go"
               % (i // 9 + 1, i % 9 + 1, m))


@T.case("constrain: -L and the daemon alike; a superset, one solution, "
        "which solves the input; a proper puzzle is its own answer",
        transports=ONE, timeout=300)
def _(c):
    base = [h.EMPTY, "123456789" + "." * 72,
            h.load_puzzles("puzzles2_17_clue", 1)[0][:40] + "." * 41]
    rc, out, err = both(c, "constrain", "--seed", 4,
                        stdin=lines_of(base + [h.CLASSIC]))
    eq((rc, err), (0, ""), "exit status and messages")
    got = out.split("\n")[:-1]
    eq(got[-1], h.CLASSIC, "a proper puzzle")
    for p, a in zip(base, got):
        check(all(a[i] == p[i] for i in givens(p)), "givens of %s kept: %s"
              % (p, a))
        eq(count(a), 1, "one solution: " + a)
        eq(h.solution_problem(p.replace("0", "."), solution_of(a)), None,
           "its solution solves " + p)


def check_path(k, p, lines):
    """A path of p: HINT's actions applied here solve it (or reach a
    dead end of an extreme one), the summary RATE's words and the steps
    counted."""
    steps, summary = lines[:-1], lines[-1]
    marks, used = start_marks(p), {}
    for i in givens(p):         # a given's digit leaves its peers
        apply(marks, "given r%dc%d=%s" % (i // 9 + 1, i % 9 + 1, p[i]))
    for i, step in enumerate(steps):
        if step.startswith("nostep "):
            eq(i, len(steps) - 1, "nostep ends the path")
            break
        apply(marks, step)
        used[step.split()[0]] = used.get(step.split()[0], 0) + 1
    rate = k.req("RATE " + p)
    check(summary.startswith(rate + " ") or summary == rate,
          "summary %r, RATE %r" % (summary, rate))
    tail = summary[len(rate) + 1:].split()
    eq(dict((t.split("=")[0], int(t.split("=")[1])) for t in tail), used,
       "the steps counted by technique")
    done = all(m.count(".") == 8 for m in marks)
    eq(done, not steps[-1].startswith("nostep "), "solved, or a dead end")
    if done:
        eq("".join(m.strip(".") for m in marks), solution_of(p),
           "the path's digits are the solution")


PATHS = (h.load_puzzles("puzzles3_magictour_top1465", 6) +
         h.load_puzzles("puzzles6_forum_hardest_1106", 4) + [h.CLASSIC])


@T.case("path: -L and the daemon alike; each path applied here solves its "
        "puzzle or ends in nostep, the summary counts its steps; a blank "
        "line between; ERR multiple in place", transports=ONE, timeout=300)
def _(c):
    rc, out, err = both(c, "-q", "path", stdin=lines_of(PATHS + [h.EMPTY]))
    eq(rc, 1, "exit status: the empty grid (%s)" % err)
    blocks = out.rstrip("\n").split("\n\n")
    eq(len(blocks), len(PATHS) + 1, "a block a puzzle")
    eq(blocks[-1] + "\n", MULTI_ERR, "the empty grid")
    k = c.connect(timeout=60)
    for p, b in zip(PATHS, blocks):
        check_path(k, p, b.split("\n"))
    # Many paths checked by sudokuc itself: none of its checks refuses
    # the daemon's answers.
    many = h.load_puzzles("puzzles3_magictour_top1465", 300)
    rc, out, err = both(c, "path", stdin=lines_of(many))
    eq((rc, err), (0, ""), "300 paths: exit status and messages")
    eq(out.count("\n\n"), 299, "300 paths")


@T.case("generate --symmetry, --clues, --pattern: -L and the daemon alike; "
        "the shape kept (orbits made here), one solution, minimal under the "
        "symmetry; impossible shapes a usage error", transports=ONE,
        timeout=300)
def _(c):
    for sym, clues in (("rot180", "22-28"), ("mirror", None),
                       ("diagonal", "26")):
        args = ["generate", "-n", 3, "--seed", 7, "-l", "easy",
                "--symmetry", sym] + (["--clues", clues] if clues else [])
        rc, out, err = both(c, *args)
        eq((rc, err), (0, ""), "%s: exit status and messages" % sym)
        for p in out.split("\n")[:-1]:
            check(invariant(p, sym), "%s: not symmetric: %s" % (sym, p))
            eq(count(p), 1, "one solution: " + p)
            lo, _, hi = (clues or "17-81").partition("-")
            check(int(lo) <= len(givens(p)) <= int(hi or lo),
                  "%s: %d givens" % (clues, len(givens(p))))
            for o in orbits(sym):
                if o <= givens(p) and not clues:
                    eq(count(without(p, o)), 2, "orbit %s can go" % o)
    shape = h.CLASSIC.translate(str.maketrans("123456789", "x" * 9))
    rc, out, err = both(c, "generate", "--seed", 8, "-n", 2, "--pattern",
                        shape)
    eq((rc, err), (0, ""), "--pattern: exit status and messages")
    for p in out.split("\n")[:-1]:
        eq(givens(p), givens(h.CLASSIC), "the pattern's cells")
        eq(count(p), 1, "one solution: " + p)
    for bad, why in ((["--clues", "16"], "--clues must be"),
                     (["--clues", "30-20"], "--clues must be"),
                     (["--symmetry", "spiral"], "unknown symmetry"),
                     (["--pattern", "x.x"], "--pattern must be"),
                     (["--symmetry", "rot180", "--pattern", "x" + "." * 80],
                      "no puzzle has that shape")):
        for mode in ("-L", "-s"):
            rc, out, err = run(*([mode] if mode == "-L" else
                                 [mode, c.d.path]), "generate", *bad)
            check(rc == 2 and out == "" and why in err,
                  "%s %s: %r %r" % (mode, bad, rc, err))


@T.case("generate -D with a shape the level cannot have: the daemon's best "
        "by then, its level said on standard error, exit 0", transports=ONE,
        daemon=dict(budget=100000000), timeout=120)
def _(c):
    # An extreme puzzle with 54 givens never comes; the deadline makes
    # the daemon answer its nearest one, on any machine (toolbox.py).
    shape = "".join("." if i % 3 == 0 else "x" for i in range(81))
    rc, out, err = run("-s", c.d.path, "generate", "-l", "extreme",
                       "--seed", 11, "--pattern", shape, "-D", 300)
    m = re.fullmatch(r"sudokuc: seed 11: a puzzle of level (\w+), not "
                     r"extreme: the deadline came first\n", err)
    check(rc == 0 and m and m.group(1) in LEVELS[:4], "%r %r" % (rc, err))
    p = out.strip()
    eq(givens(p), givens(shape.replace("x", "1")), "the shape kept")
    eq(count(p), 1, "one solution")
    k = c.connect(timeout=60)
    eq(k.req("RATE " + p).split()[0], m.group(1), "the level said")


def real_paths(c, puzzles):
    k = c.connect(timeout=60)
    return {p: k.block("PATH " + p, 60) + ["END"] for p in puzzles}


def one_less(lines):
    """A summary that counts one step fewer of its first technique."""
    m = re.match(r"(.*? (\w+)=)(\d+)(.*)", lines[-2])
    return lines[:-2] + ["%s%d%s" % (m.group(1), int(m.group(3)) - 1,
                                     m.group(4)), "END"]


def wrong_digit(lines):
    """The first placement of the path, of another digit."""
    k = next(k for k, ln in enumerate(lines) if "=" in ln.split()[1])
    step = lines[k]
    i = step.index("=") + 1
    d = "1" if step[i] != "1" else "2"
    return lines[:k] + [step[:i] + d + step[i + 1:]] + lines[k + 1:]


@T.case("a server lying about CANON, SHUFFLE or PATH: alone, nothing "
        "printed, exit 2; beside a daemon, set aside, every answer the "
        "daemon's (as -L prints it), exit 3", transports=ONE, timeout=300)
def _(c):
    seventeen = h.load_puzzles("puzzles2_17_clue", 40)
    paths = real_paths(c, PATHS)
    other = dict(zip(seventeen, seventeen[1:] + seventeen[:1]))
    lies = [
        # (the 17-clue set is stored in its canonical forms)
        ("CANON: an equivalent, not the least", ["canon"], seventeen,
         lambda ln: transform(puzzle_of(ln), random.Random(1)) + " 1",
         r"no minlex form|not the least equivalent"),
        ("CANON: automorphisms that divide nothing", ["canon"], [h.CLASSIC],
         lambda ln: "........1.....2.34156...27......8.......51..232974......"
         "16..9....34..7..28.91.45. 7", r"7 automorphisms, which do not "
         r"divide 3359232"),
        ("SHUFFLE: another 17-clue puzzle", ["shuffle", "--seed", "1"],
         seventeen,
         lambda ln: other[puzzle_of(ln)],
         r"not an equivalent puzzle: another canonical form"),
        ("PATH: a summary one step short", ["path"], PATHS,
         lambda ln: one_less(paths[puzzle_of(ln)]),
         r"a summary that does not count \d+ \w+"),
        ("PATH: a wrong digit placed", ["path"], PATHS,
         lambda ln: wrong_digit(paths[puzzle_of(ln)]),
         r"unsound hint: r\dc\d=\d, but the solution has \d there"),
        # Errors the request cannot get: CANON and SHUFFLE search
        # nothing, PATH is sent no grid to be wrong.
        ("CANON: ERR budget", ["canon"], seventeen[:3],
         lambda ln: "ERR budget search budget of 5 guesses exceeded",
         r"ERR budget, which this request cannot get"),
        ("SHUFFLE: ERR budget", ["shuffle", "--seed", "1"], seventeen[:3],
         lambda ln: "ERR budget search budget of 5 guesses exceeded",
         r"ERR budget, which this request cannot get"),
        ("PATH: ERR wrong", ["path"], PATHS,
         lambda ln: "ERR wrong r1c1",
         r"ERR wrong, which this request cannot get"),
    ]
    d = h.Daemon(workers=1).start()
    try:
        for what, args, puzzles, answer, why in lies:
            liar_caught(what, answer, args, lines_of(puzzles), why, d)
    finally:
        d.cleanup()


@T.case("a PATH reply cut by a server dying midway: sent again, printed "
        "once, in order, as -L prints it; and a daemon killed mid-batch",
        transports=ONE, own=True, timeout=300)
def _(c):
    d = h.Daemon(workers=2).start()
    try:
        paths = {p: ["END"] for p in PATHS}
        k = d.connect(timeout=60)
        for p in PATHS:
            paths[p] = k.block("PATH " + p, 60) + ["END"]
        cuts = []

        def answer(line):
            p = puzzle_of(line)
            if not cuts and p == PATHS[3]:
                cuts.append(p)
                return Cut(paths[p][:len(paths[p]) // 2])
            return paths[p]
        text = lines_of(PATHS * 3)
        rc, out, err, name, _ = lying(answer, "-v", "-C", "2", "path",
                                      stdin=text, daemon=d)
        want = run("-L", "path", stdin=text)[1]
        eq((rc, out), (0, want), "exit status and output (%s)" % err)
        eq(cuts, [PATHS[3]], "the reply was cut")
        check(re.search(r"^sudokuc: %s: the server closed the connection "
                        r"with \d+ requests? unanswered" % re.escape(name),
                        err, re.M), "the loss said: %r" % err)
        check(re.search(r"^sudokuc: \d+ requests? sent again$", err, re.M),
              "the resend said: %r" % err)
        killed_mid_batch(c, d)
    finally:
        d.cleanup()


def killed_mid_batch(c, a):
    """Paths of the magictour set over two daemons, a killed once some
    answers are out: the same output as -L, exit 0."""
    b = h.Daemon(workers=2).start()
    f = os.path.join(h.PUZZLE_DIR, "puzzles3_magictour_top1465")
    want = run("-L", "path", f)[1]
    p = h.spawn([h.SUDOKUC, "-v", "-t", "10", "-H", "127.0.0.1:%d" % a.port,
                 "-H", "127.0.0.1:%d" % b.port, "path", f],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        first = p.stdout.read(200000)
        a.kill()
        rest = p.stdout.read()
        err = p.stderr.read().decode()
        p.wait(60)
    finally:
        b.cleanup()
    c.note("killed after %d bytes of %d; %s" % (
        len(first), len(want), "resent" if "sent again" in err else
        "nothing to resend"))
    eq(p.returncode, 0, "exit status (%s)" % err)
    check((first + rest).decode() == want, "the output is -L's")


if __name__ == "__main__":
    sys.exit(T.run())
