#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
client_examples.py -- sudokuc -P (--with-puzzle), and the EXAMPLES of
sudokuc(1) run as written (issue 34).

-P puts a tab and the puzzle as it was read after every line of an
answer: each line is held to the puzzle it came from in the input (not
to its place among the lines, which comments and grids shift), and to
the daemon's own reply to that puzzle.

Every example of sudokuc(1) that starts "$ sudokuc" is run by bash, as
the page prints it, in a directory of its own with the files it names
(puzzles.txt with comment lines among the puzzles), against a private
sudokud ($SUDOKUD_SOCKET); its output is checked on its own: solutions
by the reference solver, levels by the daemon's RATE, classes of
equivalent puzzles by how they were made here, symmetry and clues by
counting.  An example that needs other machines (-H example.org, TLS
servers) is listed in ELSEWHERE with why; a new example that is in
neither fails, as does one of ELSEWHERE that is gone from the page.
"""

import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
from toolbox_common import (both, count, givens,  # noqa: E402
                            invariant, lines_of, run, solution_of,
                            transform, without)

T = h.Tap({"workers": 2})
ONE = (None,)
NOSOL = "12345678." + "........9" + "." * 63
SPARSE = h.CLASSIC[:62] + "." * 19          # some dozens of solutions
STEP = re.compile(r"^([a-z_]+) ((?:r[1-9]c[1-9][=-][1-9],?)+) (.+)$")
RATING = re.compile(r"^(easy|medium|hard|expert|extreme) [1-9]\.[0-9] "
                    r"[a-z_]+")

# The examples that need more than this host; each one's reason.
ELSEWHERE = {
    "sudokuc -H sudoku.example.org puzzles.txt": "a remote daemon",
    "sudokuc -H '[2001:db8::1]:7999' ping stats": "a remote daemon",
    "sudokuc -v -t 60 -C 8 -H db1.example.org -H db2.example.org big.txt":
        "two remote daemons (client_servers.py spreads a batch)",
    "sudokuc -H tls://db1.example.org:7443 -H 127.0.0.1 puzzles.txt":
        "a remote TLS daemon (client_tls.py)",
    "sudokuc --tls --ca ca.pem --cert me.pem --key me.key \\\n"
    "    --auth-file ~/.sudokud-secret -H db1.example.org -H "
    "db2.example.org \\\n    puzzles.txt":
        "two remote TLS daemons, a CA and a client certificate "
        "(client_tls.py)",
}


def examples():
    """The "$ sudokuc ..." lines of sudokuc(1)'s EXAMPLES, unescaped."""
    with open(os.path.join(h.TOP_SRCDIR, "man", "sudokuc.1.in")) as f:
        page = f.read()
    sec = page.split("\n.Sh EXAMPLES\n", 1)[1].split("\n.Sh ", 1)[0]
    out = [ln[len(".Dl $ "):] for ln in sec.splitlines()
           if ln.startswith(".Dl $ ")]
    # A long one, in a literal block: its lines, as the page shows them.
    out += [b.split("\n.Ed", 1)[0][2:] for b in
            sec.split(".Bd -literal -offset indent\n")[1:]
            if b.startswith("$ ")]
    return [x.replace("\\(dq", '"').replace("\\e", "\\") for x in out]


def shell(c, cmd, files, stdin=""):
    """cmd run by bash in a new directory holding files, sudokud the
    case's daemon: (status, out, err, the directory's files after)."""
    d = tempfile.mkdtemp(prefix="e2e_examples.")
    try:
        for name, text in files.items():
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        env = dict(os.environ, SUDOKUD_SOCKET=c.d.path,
                   PATH=os.path.dirname(os.path.abspath(h.SUDOKUC)) + ":" +
                   os.environ.get("PATH", ""))
        env.pop("SUDOKUD_SERVERS", None)
        p = h.run_child(["bash", "-c", cmd], cwd=d, env=env, text=True,
                        input=stdin, timeout=120)
        after = {}
        for name in os.listdir(d):
            with open(os.path.join(d, name)) as f:
                after[name] = f.read()
        return p.returncode, p.stdout, p.stderr, after
    finally:
        shutil.rmtree(d)


def commented(puzzles):
    """puzzles.txt: a comment before every other puzzle, and blank lines,
    as a file people keep."""
    out = "# puzzles, one a line\n"
    for i, p in enumerate(puzzles):
        out += ("# number %d\n\n" % (i + 1) if i % 2 else "") + p + "\n"
    return out


def solves(line, p):
    return re.fullmatch(r"[1-9]{81}", line) and \
        h.solution_problem(p, line) is None


def proper():
    return (h.load_puzzles("puzzles3_magictour_top1465", 6) +
            h.load_puzzles("puzzles2_17_clue", 4) + [h.CLASSIC])


# ---- -P ---------------------------------------------------------------------

@T.case("-P: each answer's lines, a tab, its puzzle as read (a grid's "
        "cells, 729 marks, a malformed one's place); -L and the daemon "
        "alike", transports=ONE)
def _(c):
    k = c.connect(timeout=30)
    grid = "".join(h.CLASSIC[i:i + 9] + "\n" for i in range(0, 81, 9))
    marks = "".join("123456789" if ch == "." else "." * (int(ch) - 1) + ch +
                    "." * (9 - int(ch)) for ch in SPARSE)
    f = "# a comment\n%s\n\n%s\n%s\n%s\n" % (h.CLASSIC, grid, NOSOL,
                                           h.CLASSIC[:80])
    rc, out, err = both(c, "-P", "-q", stdin=f)
    eq(rc, 1, "exit status: error answers")
    eq(out.splitlines(), [
        h.CLASSIC_SOLUTION + "\t" + h.CLASSIC,
        h.CLASSIC_SOLUTION + "\t" + h.CLASSIC,      # a grid: a line
        "ERR nosolution the puzzle has no solution\t" + NOSOL,
        "ERR length expected 81 cells, found 80\t-:15"], "solve -P")
    rc, out, _ = both(c, "-P", "-q", "rate", stdin=f)
    for ln, p in zip(out.splitlines()[:2], (h.CLASSIC, h.CLASSIC)):
        eq(ln, k.req("RATE " + p) + "\t" + p, "rate -P: the daemon's RATE")
    rc, out, _ = both(c, "-P", "-c", "5", marks)
    eq(out, "5\t%s\n" % marks, "-c -P of 729 pencil marks")
    rc, out, _ = both(c, "-P", "solutions", "-n", 3, SPARSE, h.CLASSIC)
    want = h.ref_solutions(SPARSE, 3)[0]
    eq(out, "".join(s + "\t" + SPARSE + "\n" for s in want) + "\n" +
       h.CLASSIC_SOLUTION + "\t" + h.CLASSIC + "\n", "solutions -P: lines")
    rc, out, _ = both(c, "-P", "path", h.CLASSIC)
    lines = out.splitlines()
    check(len(lines) > 2 and all(ln.endswith("\t" + h.CLASSIC) and
                                 STEP.match(ln.split("\t")[0])
                                 for ln in lines[:-1]) and
          RATING.match(lines[-1]), "path -P: every line %r" % lines[-2:])
    rc, out, err = both(c, "-P", "-e", stdin=f)
    eq(out, (h.CLASSIC_SOLUTION + "\t" + h.CLASSIC + "\n") * 2,
       "-e: error answers on stderr, without their puzzle")
    for args, why in ((["-f", "grid"], "not with -f grid"),
                      (["-f", "pretty", "hint"], "not with -f pretty"),
                      (["generate"], "generate reads none")):
        rc, out, err = run("-L", "-P", *args, h.CLASSIC
                           if args[-1] != "generate" else "-q")
        check(rc == 2 and out == "" and why in err, "%r: %r" % (args, err))
    eq(run("-L", "-P", "ping", "version")[1].count("\t"), 0,
       "ping and version: no puzzle")


# ---- the examples -------------------------------------------------------------

def ex_solve(c, cmd):
    ps = proper()
    bad = h.CLASSIC[:80]
    if "-e" in cmd:
        rc, out, err, files = shell(c, cmd, {"puzzles.txt": commented(
            ps + [bad])})
        lines = files["solutions.txt"].splitlines()
        check(rc == 1 and len(lines) == len(ps) and
              all(solves(a, p) for a, p in zip(lines, ps)) and
              re.fullmatch(r"sudokuc: puzzles\.txt:\d+: ERR length "
                           r"expected 81 cells, found 80\n",
                           files["errors.txt"]), "%s: %r" % (cmd, files))
        return
    rc, out, err, files = shell(c, cmd, {"puzzles.txt": commented(ps)})
    lines = files.get("solutions.txt", out).splitlines()
    check(rc == 0 and len(lines) == len(ps) and
          all(solves(a, p) for a, p in zip(lines, ps)),
          "%s: %r %r" % (cmd, lines[:2], err))
    if "-v" in cmd:
        check(re.search(r"%d puzzles in .* %d solved" % (len(ps), len(ps)),
                        err), "%s: the summary: %r" % (cmd, err))


def boj(name):
    with open(os.path.join(h.TOP_SRCDIR, "tests", "unit", "samples",
                           name)) as f:
        return f.read()


def ex_boj(c, cmd):
    rc, out, err, _ = shell(c, cmd, {"2239.in": boj("boj2239.in"),
                                     "2580.in": boj("boj2580.in")})
    if "--lexmin" in cmd:
        eq((rc, out), (0, boj("boj2239.out")), cmd + ": BOJ 2239's answer")
        return
    p = "".join(boj("boj2580.in").split())
    sol = "".join(out.split())
    check(rc == 0 and solves(sol, p) and all(
        re.fullmatch(r"[1-9]( [1-9]){8}", ln) for ln in out.splitlines()),
        "%s: a spaced grid solving BOJ 2580: %r" % (cmd, out))


def ex_count(c, cmd):
    ps = proper() + [SPARSE, NOSOL, h.EMPTY]
    improper = sum(count(p) != 1 for p in ps)
    rc, out, err, _ = shell(c, cmd, {"puzzles.txt": commented(ps)})
    eq(out, "%d\n" % improper, cmd + ": the puzzles without one solution")


def ex_pretty(c, cmds):
    ps = proper()
    rc, out, err, files = shell(c, " && ".join(cmds),
                                {"puzzles.txt": commented(ps)})
    lines = out.splitlines()
    check(rc == 0 and files["boxed.txt"].count("+-------+") >= len(ps) and
          len(lines) == len(ps) and
          all(solves(a, p) for a, p in zip(lines, ps)),
          "%s: %r %r" % (cmds, lines[:2], err))


def ex_rate(c, cmd):
    """The example of issue 34: paste mislabelled every puzzle after a
    comment; each puzzle printed must be one the daemon rates hard."""
    k = c.connect(timeout=30)
    ps = (h.load_puzzles("puzzles3_magictour_top1465", 30) +
          h.load_puzzles("puzzles2_17_clue", 10))
    level = {p: k.req("RATE " + p).split()[0] for p in ps}
    want = [p for p in ps if level[p] == "hard"]
    check(0 < len(want) < len(ps), "hard and other puzzles: %r" % level)
    rc, out, err, _ = shell(c, cmd, {"puzzles.txt": commented(ps)})
    eq(out.splitlines(), want, cmd + ": the hard puzzles, in order")


def ex_canon(c, cmd):
    """Three classes of equivalent puzzles, made here, and one alone."""
    rng = random.Random(34)
    base = h.load_puzzles("puzzles2_17_clue", 3) + [h.CLASSIC]
    ps, cls = [], {}
    for i, p in enumerate(base):
        for _ in range(4 if i < 3 else 1):
            q = transform(p, rng)
            ps.append(q)
            cls[q] = i
    rng.shuffle(ps)
    rc, out, err, _ = shell(c, cmd, {"puzzles.txt": commented(ps)})
    got = out.splitlines()
    check(rc == 0 and sorted(cls.get(p, -1) for p in got) ==
          list(range(len(base))), "%s: one puzzle of each of the %d "
          "classes: %r" % (cmd, len(base), got))


def ex_hint(c, cmd):
    p = h.load_puzzles("puzzles3_magictour_top1465", 1)[0]
    sol = solution_of(p)
    mine = "".join(sol[i] if ch == "." and i % 3 == 0 else ch
                   for i, ch in enumerate(p))
    grid = "".join(mine[i:i + 9] + "\n" for i in range(0, 81, 9))
    rc, out, err, _ = shell(c, cmd, {"puzzle.txt": p + "\n",
                                     "mygrid.txt": grid})
    m = STEP.match(out.splitlines()[0] if out else "")
    check(rc == 0 and m, "%s: a step: %r %r" % (cmd, out[:200], err))
    for act in m.group(2).split(","):
        i, d = (int(act[1]) - 1) * 9 + int(act[3]) - 1, act[5]
        check((act[4] == "=") == (sol[i] == d) and
              ("mygrid" not in cmd or mine[i] == "."),
              "%s: %s against the solution" % (cmd, act))
    if "pretty" in cmd:
        check(out.count("r1 |") == 1 and out.count("+--") >= 4,
              "%s: drawn: %r" % (cmd, out))


def ex_generate(c, cmd):
    k = c.connect(timeout=60)
    rc, out, err, _ = shell(c, cmd, {})
    again = shell(c, cmd, {})[1]
    ps = out.splitlines()
    n = int(re.search(r"-n (\d+)", cmd).group(1))
    check(rc == 0 and len(ps) == n and all(
        re.fullmatch(r"[1-9.]{81}", p) and count(p) == 1 for p in ps),
        "%s: %d puzzles of one solution: %r" % (cmd, n, ps))
    if "--seed" in cmd:
        eq(again, out, cmd + ": the same ones every time")
    if "-l expert" in cmd:
        eq([k.req("RATE " + p).split()[0] for p in ps], ["expert"] * n,
           cmd + ": the daemon rates them expert")
    if "--symmetry rot180" in cmd:
        check(all(invariant(p, "rot180") and 24 <= len(givens(p)) <= 28
                  for p in ps), "%s: rot180, 24 to 28 givens" % cmd)


def ex_toolbox(c, cmds):
    """shuffle three times, then minimize: equivalents, the same every
    time; a minimal subset of one solution."""
    k = c.connect(timeout=60)
    p = h.CLASSIC
    shuf, mini = (shell(c, cmd, {"puzzle.txt": p + "\n"}) for cmd in cmds)
    s = shuf[1].splitlines()
    check(len(s) == 3 and len(set(s)) == 3 and all(
        k.req("CANON " + q) == k.req("CANON " + p) and count(q) == 1
        for q in s), "%s: three equivalents: %r" % (cmds[0], s))
    eq(shell(c, cmds[0], {"puzzle.txt": p + "\n"})[1], shuf[1],
       cmds[0] + ": the same ones every time")
    m = mini[1].strip()
    check(givens(m) <= givens(p) and all(m[i] == p[i] for i in givens(m))
          and count(m) == 1 and all(count(without(m, {i})) == 2
                                    for i in givens(m)),
          "%s: a minimal subset: %r" % (cmds[1], mini))


def ex_path(c, cmd):
    k = c.connect(timeout=30)
    p = h.load_puzzles("puzzles3_magictour_top1465", 1)[0]
    rc, out, err, _ = shell(c, cmd, {"puzzle.txt": p + "\n"})
    rating = k.req("RATE " + p)
    check(rc == 0 and out.startswith(rating + " ") and
          re.fullmatch(r"( [a-z_]+=[1-9][0-9]*)+\n", out[len(rating):]),
          "%s: RATE's rating (%s), then the steps' counts: %r"
          % (cmd, rating, out))


def ex_solutions(c, cmd):
    n = int(re.search(r"-n (\d+)", cmd).group(1))
    rc, out, err, _ = shell(c, cmd, {"puzzle.txt": SPARSE + "\n"})
    want = h.ref_solutions(SPARSE, n)[0]
    eq((rc, out), (0, "\n".join("".join(s[i:i + 9] + "\n"
                                        for i in range(0, 81, 9))
                                for s in want)),
       cmd + ": the reference's first %d, as grids, a blank line between"
       % n)


def ex_nc(c, cmd):
    if b"-N" not in subprocess.run(["nc", "-h"], capture_output=True,
                                   timeout=10).stderr:
        print("# %s: skipped, no OpenBSD netcat" % cmd)
        return
    ps = proper()
    cmd = cmd.replace("@runstatedir@/sudokud.sock", c.d.path)
    rc, out, err, _ = shell(c, cmd, {"puzzles.txt": commented(ps)})
    lines = out.splitlines()
    check(len(lines) == len(ps) and all(
        solves(a, p) for a, p in zip(lines, ps)), "%s: %r" % (cmd, out))


def runner(cmd):
    """The check of an example, by what it runs."""
    for key, fn in ((" -NU ", ex_nc), ("2239", ex_boj), ("2580", ex_boj),
                    (" -c puzzles", ex_count), (" rate ", ex_rate),
                    (" canon ", ex_canon), (" hint ", ex_hint),
                    (" generate ", ex_generate), (" path ", ex_path),
                    (" solutions -n", ex_solutions)):
        if key in cmd:
            return fn
    return ex_solve


@T.case("sudokuc(1) EXAMPLES: each is run here as written, or needs "
        "other machines (ELSEWHERE, with why); -P's examples keep each "
        "answer with its puzzle past comment lines", transports=ONE,
        timeout=600)
def _(c):
    cmds = examples()
    check(len(cmds) >= 20, "the examples: %r" % cmds)
    eq(sorted(set(ELSEWHERE) - set(cmds)), [], "ELSEWHERE: on the page")
    todo = [x for x in cmds if x not in ELSEWHERE]
    pretty = [x for x in todo if "boxed.txt" in x]
    tools = [x for x in todo if re.match(r"sudokuc (shuffle|minimize) ", x)]
    ex_pretty(c, pretty)
    ex_toolbox(c, tools)
    for cmd in todo:
        if cmd not in pretty + tools:
            runner(cmd)(c, cmd)
    c.note("%d examples run, %d need other machines" % (len(todo),
                                                       len(ELSEWHERE)))


if __name__ == "__main__":
    sys.exit(T.run())
