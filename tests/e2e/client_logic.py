#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
client_logic.py -- sudokuc rate, hint and generate (issue 13), against a
private sudokud and with -L.

The two must print the same bytes; and each answer is checked on its
own, never against sudokuc's output captured once: a rating is the
daemon's RATE reply to the same puzzle; a generated puzzle has one
solution and no given to spare (the daemon's COUNT), the level asked
(RATE), and is the daemon's GENERATE reply for its seed; a hint places
the solution's digit (SOLVE) and never eliminates it; -f pretty draws
every cell as the candidates computed here say.
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

T = h.Tap({"workers": 2})
SUDOKUC = h.SUDOKUC
LEVELS = ("easy", "medium", "hard", "expert", "extreme")
TMP = tempfile.mkdtemp(prefix="e2e_logic.")
with open(os.path.join(h.TOP_SRCDIR, "tests", "unit", "samples",
                       "boj2580.in")) as _f:
    BOJ2580_GRID = _f.read()        # 9 spaced lines
BOJ2580 = "".join(BOJ2580_GRID.split())
NOSOL = "12345678." + "........9" + "." * 63
NOSTEP = "ERR nostep no logical step applies; this needs trial and error"
STEP = re.compile(r"^([a-z_]+) ((?:r[1-9]c[1-9][=-][1-9],?)+) (.+)$")
PEERS = [[j for j in range(81) if j != i and (
    j // 9 == i // 9 or j % 9 == i % 9 or
    (j // 27 == i // 27 and j % 9 // 3 == i % 9 // 3))] for i in range(81)]


def env():
    e = dict(os.environ)
    e.pop("SUDOKUD_SOCKET", None)
    e.pop("SUDOKUD_SERVERS", None)
    return e


def run(*args, stdin="", timeout=None):
    """sudokuc to its exit; its case's timeout bounds it (and kills it)."""
    p = h.run_child([SUDOKUC] + list(args), input=stdin, env=env(),
                    text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def both(c, *args, stdin=""):
    """sudokuc with the daemon and with -L: the same (status, out, err)."""
    d = run("-s", c.d.path, *args, stdin=stdin)
    loc = run("-L", *args, stdin=stdin)
    eq(loc, d, "-L and the daemon, for %r" % (args,))
    return d


def tmpfile(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def some_puzzles():
    return (h.load_puzzles("puzzles2_17_clue", 12) +
            h.load_puzzles("puzzles3_magictour_top1465", 12) +
            h.load_puzzles("puzzles6_forum_hardest_1106", 6) + [h.CLASSIC])


@T.case("rate: the daemon and -L print the same; each line is the "
        "daemon's RATE reply; errors in place", transports=(None,))
def _(c):
    k = c.connect()
    puzzles = some_puzzles()
    f = tmpfile("rate.txt", "# to rate\n" + "\n".join(puzzles) + "\n\n" +
                BOJ2580_GRID + "\n" + h.EMPTY + "\n" + NOSOL + "\n" +
                h.CLASSIC[:80] + "\n")
    rc, out, err = both(c, "rate", f)
    lines = out.splitlines()
    eq(rc, 1, "exit status: error answers")
    eq(len(lines), len(puzzles) + 4, "one line per puzzle")
    for p, ln in zip(puzzles + [BOJ2580], lines):
        eq(ln, k.req("RATE " + p), "the rating of " + p)
        lv, score, _ = ln.split()
        eq(int(float(score)), LEVELS.index(lv) + 1, "score band of " + ln)
    eq(lines[len(puzzles)].split()[0], "easy", "BOJ 2580 (a spaced grid)")
    eq(lines[-3:], ["ERR multiple the puzzle has more than one solution",
                    "ERR nosolution the puzzle has no solution",
                    "ERR length expected 81 cells, found 80"], "errors")
    n = len(puzzles) + 12
    eq(err.splitlines(), [
        "sudokuc: %s:%d: the puzzle has more than one solution" % (f, n + 1),
        "sudokuc: %s:%d: the puzzle has no solution" % (f, n + 2),
        "sudokuc: %s:%d: expected 81 cells, found 80" % (f, n + 3)], "notes")
    both(c, "-C", "3", "-w", "2", "rate", f)


def givens(p):
    return [i for i, ch in enumerate(p) if ch not in ".0"]


@T.case("generate -n 3 -l LEVEL --seed S, every level: the same with -L; "
        "unique, minimal, of that level; puzzle i is seed S + i",
        transports=(None,), timeout=90)
def _(c):
    k = c.connect(timeout=30)
    for n, level in enumerate(LEVELS):
        seed = 1000 + 10 * n
        rc, out, err = both(c, "generate", "-n", "3", "-l", level, "--seed",
                            seed)
        eq((rc, err), (0, ""), "exit status and messages")
        got = out.splitlines()
        eq(len(got), 3, "three puzzles")
        for i, p in enumerate(got):
            check(re.fullmatch(r"[1-9.]{81}", p), "a puzzle line: %r" % p)
            eq(p, k.req("GENERATE %s %d" % (level, seed + i), 30),
               "the puzzle of seed %d" % (seed + i))
            eq(k.req("COUNT %s 2" % p), "1", "one solution: " + p)
            for g in givens(p):
                eq(k.req("COUNT %s.%s 2" % (p[:g], p[g + 1:])), "2",
                   "given %d of %s is needed" % (g, p))
            eq(k.req("RATE " + p).split()[0], level, "the level of " + p)
        eq(run("-s", c.d.path, "generate", "-n", "3", "-l", level,
               "--seed", seed)[1], out, "the same command again")


@T.case("generate: medium by default, -v names the seeds, --seed of that "
        "seed repeats it; -f shapes; -C 3 -n 40 equals -L",
        transports=(None,), timeout=60)
def _(c):
    k = c.connect(timeout=30)
    rc, out, err = run("-s", c.d.path, "-v", "generate", "-n", "2")
    m = re.search(r"^sudokuc: generate: 2 medium puzzles, seeds (\d+) to "
                  r"(\d+)$", err, re.M)
    check(rc == 0 and m, (rc, err))
    eq(int(m.group(2)), (int(m.group(1)) + 1) % 2 ** 64, "two seeds")
    rc, _, err1 = run("-s", c.d.path, "-v", "generate", "--seed", "7")
    check(rc == 0 and re.search(r"^sudokuc: generate: 1 medium puzzle, "
                                r"seed 7$", err1, re.M),
          "one puzzle, one seed: %r" % err1)
    eq(run("-L", "generate", "--seed", m.group(1), "-n", "2")[1], out,
       "the same puzzles from the seed -v named")
    eq(k.req("RATE " + out.split()[0]).split()[0], "medium", "default level")
    p = out.split()[0]
    rc, grid, _ = both(c, "-f", "grid", "generate", "--seed", m.group(1))
    eq(grid, "".join(p[i:i + 9] + "\n" for i in range(0, 81, 9)), "-f grid")
    rc, pretty, _ = both(c, "-f", "pretty", "generate", "--seed", m.group(1))
    eq(run("-L", "-f", "line", "-c", stdin=pretty)[1], "1\n",
       "-f pretty reads back as the puzzle")
    rc, many, _ = both(c, "-C", "3", "-w", "5", "generate", "-n", "40",
                       "--seed", "18446744073709551600", "-l", "easy")
    lines = many.splitlines()
    eq(len(set(lines)), 40, "40 puzzles, all different")
    eq(lines[20], k.req("GENERATE easy 4", 30), "seeds wrap around 2^64")


def solution(k, p):
    sol = k.req("SOLVE " + p)
    h.check_solution(p, sol)
    return sol


def check_step(step, sol, what):
    """A step: places the solution's digits, never eliminates them."""
    m = STEP.match(step)
    check(m, "%s: not a step: %r" % (what, step))
    acts = m.group(2).split(",")
    for act in acts:
        cell = (int(act[1]) - 1) * 9 + int(act[3]) - 1
        if act[4] == "=":
            eq(act[5], sol[cell], "%s: %s places the solution's digit"
               % (what, act))
        else:
            check(act[5] != sol[cell], "%s: %s eliminates the solution's "
                  "digit" % (what, act))
    return acts


@T.case("hint: the same with -L; a placement is the solution's digit "
        "(SOLVE), an elimination never is", transports=(None,))
def _(c):
    k = c.connect()
    puzzles = some_puzzles()
    f = tmpfile("hint.txt", "\n".join(puzzles) + "\n")
    rc, out, err = both(c, "hint", f)
    lines = out.splitlines()
    eq(len(lines), len(puzzles), "one hint per puzzle")
    stuck = 0
    for n, (p, ln) in enumerate(zip(puzzles, lines)):
        eq(ln, k.req("HINT " + p), "the daemon's HINT")
        if ln == NOSTEP:    # an extreme puzzle may have no step at all
            eq(k.req("RATE " + p).split()[0], "extreme", "RATE of " + p)
            check("%s:%d: no logical step" % (f, n + 1) in err, err)
            stuck += 1
        else:
            check_step(ln, solution(k, p), p)
    eq(rc, 1 if stuck else 0, "exit status")
    c.note("%d of %d puzzles without a first step" % (stuck, len(puzzles)))
    rc, out, _ = both(c, "hint", stdin=BOJ2580_GRID)
    check_step(out.strip(), solution(k, BOJ2580), "BOJ 2580 on stdin")


def marks_of(p):
    return [("123456789" if ch in ".0" else
             "".join(x if x == ch else "." for x in "123456789"))
            for ch in p]


def apply(marks, acts):
    for act in acts:
        cell = (int(act[1]) - 1) * 9 + int(act[3]) - 1
        d = act[5]
        if act[4] == "=":
            marks[cell] = "".join(x if x == d else "." for x in "123456789")
        else:
            marks[cell] = marks[cell].replace(d, ".")


@T.case("hint PUZZLE GRID: every wrong cell, solved, 729 marks walked with "
        "sudokuc, ERR nostep at an extreme dead end; same with -L",
        transports=(None,), timeout=90)
def _(c):
    k = c.connect(timeout=30)
    sol = solution(k, h.CLASSIC)
    grid = list(h.CLASSIC.replace(".", "0"))
    for cell in (2, 40, 72):        # wrong digits in r1c3, r5c5, r9c1
        grid[cell] = "1" if sol[cell] != "1" else "2"
    wrong = ",".join("r%dc%d" % (i // 9 + 1, i % 9 + 1) for i in range(81)
                     if grid[i] != "0" and grid[i] != sol[i])
    eq(both(c, "hint", h.CLASSIC, "".join(grid))[:2],
       (1, "ERR wrong %s\n" % wrong), "wrong cells")
    one = h.CLASSIC[:40] + grid[40] + h.CLASSIC[41:]
    eq(both(c, "hint", h.CLASSIC, one)[:2], (1, "ERR wrong r5c5\n"),
       "one wrong cell")
    eq(both(c, "hint", h.CLASSIC, sol)[:2], (0, "solved\n"), "solved")
    spaced = "\n".join(" ".join(sol[i:i + 9]) for i in range(0, 81, 9))
    eq(both(c, "hint", h.CLASSIC, spaced)[:2], (0, "solved\n"),
       "a spaced grid")
    p = h.load_puzzles("puzzles3_magictour_top1465", 1)[0]
    psol, marks = solution(k, p), marks_of(p)
    for n in range(12):
        rc, out, _ = both(c, "hint", p, "".join(marks))
        apply(marks, check_step(out.strip(), psol, "step %d" % n))
    for p in h.load_puzzles("puzzles6_forum_hardest_1106", 10):
        if k.req("RATE " + p).split()[0] == "extreme":
            break
    marks = marks_of(p)
    for n in range(400):
        reply = k.req("HINT %s %s" % (p, "".join(marks)))
        if reply.startswith("ERR"):
            break
        apply(marks, STEP.match(reply).group(2).split(","))
    eq(reply, NOSTEP, "the daemon's walk of %s ends in nostep" % p)
    eq(both(c, "hint", p, "".join(marks))[:2], (1, NOSTEP + "\n"),
       "sudokuc at the dead end")


def effective(puzzle, grid):
    """The candidates of each cell as sets, less the filled peers'."""
    if grid is None:
        grid = puzzle
    if len(grid) == 81:
        raw = [set("123456789") if ch in ".0" else {ch} for ch in grid]
    else:
        raw = [set(grid[9 * i:9 * i + 9]) - {"."} for i in range(81)]
    raw = [{puzzle[i]} & s if puzzle[i] not in ".0" else s
           for i, s in enumerate(raw)]
    eff = []
    for i, s in enumerate(raw):
        if len(s) > 1:
            s = s - {d for j in PEERS[i] if len(raw[j]) == 1
                     for d in raw[j]}
        eff.append((s, len(raw[i]) == 1))
    return eff


def pretty_problem(out, line, puzzle, grid=None):
    """'' if out draws the step line on the state as documented."""
    rows = out.split("\n")
    if rows[-1] != "" or len(rows) != 16:
        return "16 lines ending in LF expected: %r" % rows
    if rows[0] != line:
        return "first line %r, not the hint %r" % (rows[0], line)
    if rows[1].split() != ["c%d" % i for i in range(1, 10)]:
        return "header %r" % rows[1]
    if any(ord(ch) > 126 or (ord(ch) < 32) for ch in out.replace("\n", "")):
        return "not printable 7-bit ASCII"
    place, gone = {}, {}
    for act in STEP.match(line).group(2).split(","):
        cell = (int(act[1]) - 1) * 9 + int(act[3]) - 1
        if act[4] == "=":
            place[cell] = act[5]
        else:
            gone.setdefault(cell, set()).add(act[5])
    bars = None
    eff = effective(puzzle, grid)
    for r in range(9):
        rule, row = rows[2 + r + r // 3], rows[3 + r + r // 3]
        if r % 3 == 0 and not re.fullmatch(r"   (\+-+){3}\+", rule):
            return "rule %r" % rule
        m = re.fullmatch(r"r%d \|(.*)\|" % (r + 1), row)
        if not m:
            return "row %r" % row
        pos = [i for i, ch in enumerate(row) if ch == "|"]
        plus = [i for i, ch in enumerate(rows[2]) if ch == "+"]
        if pos != plus or (bars is not None and pos != bars):
            return "columns not aligned: %r" % row
        bars = pos
        cells = m.group(1).replace("|", " ").split()
        for col, got in enumerate(cells):
            i = r * 9 + col
            cand, filled = eff[i]
            if i in place:
                want = "(%s)" % place[i]
            elif filled:
                want = "=" + "".join(cand)     # a given is marked (23.10)
            else:
                want = "".join(("[%s]" if d in gone.get(i, ()) else "%s") % d
                               for d in sorted(cand | gone.get(i, set())))
            if got != want:
                return "r%dc%d is %r, not %r, in %r" % (r + 1, col + 1, got,
                                                       want, row)
        if len(cells) != 9:
            return "not 9 cells: %r" % row
    return ""


@T.case("hint -f pretty: the hint line, c1-c9, rules and rows r1-r9 "
        "aligned, every cell as computed here, (d) placed, [d] eliminated; "
        "the same with -L", transports=(None,))
def _(c):
    k = c.connect()
    elim = ("....4...1.3.6.....8........1.9..5.........87....2......7....26."
            "5...94.........3..")
    checked = 0
    for p in [h.CLASSIC, elim] + h.load_puzzles("puzzles2_17_clue", 5):
        line = k.req("HINT " + p)
        rc, out, err = both(c, "-f", "pretty", "hint", p)
        eq((rc, err), (0, ""), "exit status and messages")
        eq(pretty_problem(out, line, p), "", "the drawing of " + p)
        checked += 1
    check("[7]" in both(c, "-f", "pretty", "hint", elim)[1],
          "an elimination drawn")
    p = h.load_puzzles("puzzles3_magictour_top1465", 1)[0]
    marks = marks_of(p)
    for _ in range(6):
        apply(marks, STEP.match(k.req("HINT %s %s" % (
            p, "".join(marks)))).group(2).split(","))
    grid = "".join(marks)
    line = k.req("HINT %s %s" % (p, grid))
    rc, out, _ = both(c, "-f", "pretty", "hint", p, grid)
    eq(pretty_problem(out, line, p, grid), "", "the drawing on 729 marks")
    eq(both(c, "-f", "pretty", "hint", h.EMPTY)[:2], (1, "ERR multiple the "
       "puzzle has more than one solution\n"), "an error is one line")
    rc, out, _ = both(c, "-f", "pretty", "hint", h.CLASSIC,
                      solution(k, h.CLASSIC))
    eq((rc, out), (0, "solved\n"), "solved is one line")
    c.note("%d drawings checked" % (checked + 1))


@T.case("usage errors exit 2 with a message: hint operands and grid, "
        "generate operands, level, number, seed; --count and --lexmin with "
        "a command", transports=(None,))
def _(c):
    bad = [(["hint", h.CLASSIC, h.CLASSIC, h.CLASSIC], "hint takes"),
           (["hint", h.CLASSIC, "1" * 80], "grid, argument 2: expected 81 "
            "cells or 729 candidates, found 80"),
           (["hint", h.CLASSIC, "x" * 81], "grid, argument 2: bad "
            "character 'x'"),
           (["generate", h.CLASSIC], "generate takes no operands"),
           (["generate", "-l", "fiendish"], "unknown level 'fiendish'"),
           (["generate", "-n", "0"], "number of puzzles must be"),
           (["generate", "--seed", "18446744073709551616"], "seed must be"),
           (["generate", "--seed"], "needs an argument"),
           (["-c", "rate", h.CLASSIC], "not with rate"),
           (["-l", "generate"], "not with generate"),
           (["rate", "-c", h.CLASSIC], "unknown option -c"),
           (["generate", "-j", "2"], "-j is for -L")]
    res = [(a, run(*a)) for a, _ in bad]
    for (a, want), (_, (rc, out, err)) in zip(bad, res):
        check(rc == 2 and out == "" and err.startswith("sudokuc: ") and
              want in err, "%r: %r" % (a, (rc, out, err)))
    eq(run("-L", "rate", "-L", "-q", h.CLASSIC)[:2], (0, "easy 1.0 "
       "naked_single\n"), "global options after the command word too")


if __name__ == "__main__":
    try:
        sys.exit(T.run())
    finally:
        subprocess.run(["rm", "-rf", TMP])
