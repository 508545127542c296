#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
toolbox.py -- the puzzle toolbox over the wire (issue 21), checked from
outside: the symmetries, orbits, transformations and uniqueness are
worked out here (reference.py's solver, this file's own maps of the
square), never by asking the daemon what it thinks of its own answer.

- GENERATE symmetry=: the givens invariant under each of the eight, one
  solution, minimal under the symmetry (no orbit can go), the level
  asked; clues= and pattern=; the same puzzle for the same seed;
- CANON: equal on equivalents this file makes, different on puzzles that
  are not equivalent, idempotent, automorphisms of known grids;
- SHUFFLE: an equivalent (CANON equal, same solutions), per seed;
- equivalent puzzles: RATE's level and hardest technique kept (ANALYZE's,
  PATH's), RATE of CANON's form the same;
- MINIMIZE: a subset of the givens, one solution, no given removable;
- CONSTRAIN: a superset, one solution, which solves the input;
- PATH: HINT's steps walked with the placed digits cleared, a summary
  that agrees with RATE and the steps, END; the dead end of an extreme;
- GENERATE deadline=: an answer by the deadline whatever the machine;
  ERR deadline when a clue ceiling or a pattern kept nothing by then.
"""

import os
import random
import re
import sys
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
from toolbox_common import (LEVELS, SYMMETRIES, apply,  # noqa: E402
                            count, givens, invariant, orbits, solution_of,
                            start_marks, transform, without)

T = h.Tap()

def rate_level(k, p):
    return k.req("RATE " + p).split()[0]


@T.case("GENERATE symmetry=S for each of the eight: givens invariant, one "
        "solution, minimal under S, the level asked, the same per seed",
        timeout=300)
def _(c):
    k = c.connect(timeout=60)
    for sym in SYMMETRIES:
        for level, seed in (("easy", 1), ("medium", 2), ("hard", 3)):
            req = "GENERATE %s %d symmetry=%s" % (level, seed, sym)
            p = k.req(req, 60)
            check(re.fullmatch(r"[1-9.]{81}", p), "%s: %r" % (req, p))
            check(invariant(p, sym), "%s: givens not symmetric: %s"
                  % (req, p))
            eq(count(p), 1, "%s: solutions of %s" % (req, p))
            for o in orbits(sym):
                if o <= givens(p):
                    check(count(without(p, o)) == 2, "%s: orbit %s of %s "
                          "can go" % (req, sorted(o), p))
            eq(rate_level(k, p), level, "%s: level" % req)
            eq(k.req(req, 60), p, "%s: the same again" % req)
    eq(k.req("GENERATE easy 42 symmetry=none"), k.req("GENERATE easy 42"),
       "symmetry=none is GENERATE's puzzle")


@T.case("GENERATE clues= and pattern=: the number of givens, exactly the "
        "pattern's cells, one solution; impossible shapes refused",
        timeout=300)
def _(c):
    k = c.connect(timeout=60)
    for req, lo, hi in (("GENERATE medium 5 clues=24-26", 24, 26),
                        ("GENERATE easy 6 clues=30", 30, 30),
                        ("GENERATE 7 clues=22-24 symmetry=rot180", 22, 24)):
        p = k.req(req, 60)
        check(lo <= len(givens(p)) <= hi, "%s: %d givens: %s"
              % (req, len(givens(p)), p))
        eq(count(p), 1, "%s: solutions" % req)
        if "rot180" in req:
            check(invariant(p, "rot180"), "%s: symmetric" % req)
    shape = h.CLASSIC.translate(str.maketrans("123456789", "x" * 9))
    p = k.req("GENERATE 8 pattern=" + shape, 60)
    eq(givens(p), givens(h.CLASSIC), "pattern=: the givens' cells")
    eq(count(p), 1, "pattern=: one solution")
    eq(k.req("GENERATE 8 pattern=" + h.CLASSIC, 60), p,
       "a puzzle is its own pattern")
    for bad, why in (("clues=16", "clues must be"), ("clues=30-20",
                                                      "clues must be"),
                     ("pattern=x.x", "pattern must be"),
                     ("symmetry=spiral", "symmetry must be"),
                     ("pattern=" + "x" * 10 + "." * 71,
                      "no puzzle has that shape")):
        got = k.req("GENERATE 1 " + bad)
        check(got.startswith("ERR syntax ") and why in got,
              "GENERATE %s: %r" % (bad, got))
    lopsided = shape[:2] + "x" + shape[3:]      # r1c3 given, r9c7 not
    eq(k.req("GENERATE 1 symmetry=rot180 pattern=" + lopsided),
       "ERR syntax no puzzle has that shape: the pattern is not invariant "
       "under the symmetry", "an asymmetric pattern")
    got = k.req("GENERATE easy 4 clues=30 symmetry=dihedral budget=2000")
    eq(got, "ERR budget search budget of 2000 guesses exceeded",
       "a shape not met within the budget")


@T.case("CANON: equal on equivalents made here, different otherwise, "
        "idempotent; automorphisms of the empty grid and a symmetric one",
        timeout=300)
def _(c):
    k = c.connect(timeout=30)
    rng = random.Random(2026)
    puzzles = (h.load_puzzles("puzzles2_17_clue", 20) +
               h.load_puzzles("puzzles6_forum_hardest_1106", 10) +
               [h.CLASSIC, h.CLASSIC_SOLUTION])
    forms = {}
    for p in puzzles:
        form, autos = k.req("CANON " + p).split()
        check(re.fullmatch(r"[1-9.]{81}", form) and int(autos) >= 1,
              "CANON %s: %r %r" % (p, form, autos))
        eq(len(givens(form)), len(givens(p)), "the givens of the form")
        eq(k.req("CANON " + form).split()[0], form, "CANON of the form")
        for _ in range(3):
            eq(k.req("CANON " + transform(p, rng)).split(), [form, autos],
               "CANON of an equivalent of %s" % p)
        forms.setdefault(form, p)
    eq(len(forms), len(puzzles), "different puzzles, different forms")
    eq(k.req("CANON " + h.EMPTY), "." * 81 + " 3359232", "the empty grid")
    # A solved grid has at most 648 automorphisms; a form starts 123456789.
    form, autos = k.req("CANON " + h.CLASSIC_SOLUTION).split()
    check(form.startswith("123456789") and 1 <= int(autos) <= 648,
          "a solution's form %s %s" % (form, autos))
    eq(k.req("CANON 11" + "." * 79), "ERR conflict digit 1 twice in row "
       "1: r1c1 and r1c2", "a conflict")


@T.case("SHUFFLE: equivalent (CANON equal, solutions kept), the same for "
        "a seed, different for another; info=1 names a random seed")
def _(c):
    k = c.connect(timeout=30)
    for p in h.load_puzzles("puzzles3_magictour_top1465", 10):
        form = k.req("CANON " + p)
        a = k.req("SHUFFLE %s 1" % p)
        eq(k.req("CANON " + a), form, "CANON of SHUFFLE %s" % p)
        eq(count(a), 1, "solutions of the shuffle")
        eq(k.req("SHUFFLE %s 1" % p), a, "the same seed")
        check(k.req("SHUFFLE %s 2" % p) != a, "another seed")
    got = k.req("SHUFFLE %s info=1" % h.CLASSIC)
    m = re.fullmatch(r"([1-9.]{81}) seed=(\d+)", got)
    check(m, "info=1: %r" % got)
    eq(k.req("SHUFFLE %s %s" % (h.CLASSIC, m.group(2))), m.group(1),
       "the seed info=1 named")


@T.case("equivalent puzzles (transformed here) rate alike: RATE's level "
        "and hardest technique, ANALYZE's and PATH's summary's too; RATE of "
        "CANON's form the same in every word; GENERATE's level kept",
        timeout=300)
def _(c):
    k = c.connect(timeout=60)
    rng = random.Random(34)
    puzzles = (h.load_puzzles("puzzles2_17_clue", 400)[::40] +
               h.load_puzzles("puzzles3_magictour_top1465", 120)[::12] +
               h.load_puzzles("puzzles6_forum_hardest_1106", 60)[::10] +
               [k.req("GENERATE %s %d" % (lv, i), 60)
                for i, lv in enumerate(LEVELS)])
    moved = 0
    for lv, p in zip(LEVELS, puzzles[-len(LEVELS):]):
        eq(k.req("RATE " + p).split()[0], lv, "GENERATE's %s" % p)
    for p in puzzles:
        r = k.req("RATE " + p).split()
        rf = k.req("RATE " + k.req("CANON " + p).split()[0])
        for _ in range(5):
            q = transform(p, rng)
            rq = k.req("RATE " + q).split()
            eq((rq[0], rq[2]), (r[0], r[2]), "RATE %s, of %s" % (q, p))
            moved += rq[1] != r[1]
            a = dict(t.split("=", 1) for t in k.req("ANALYZE " + q).split())
            eq((a["level"], a["hardest"]), (r[0], r[2]), "ANALYZE " + q)
            summary = k.block("PATH " + q, 60)[-1].split()
            eq((summary[0], summary[2]), (r[0], r[2]), "PATH " + q)
            eq(k.req("RATE " + k.req("CANON " + q).split()[0]), rf,
               "RATE of CANON's form of %s" % q)
    c.note("%d puzzles, 5 transformations each: %d scores moved"
           % (len(puzzles), moved))
    check(moved > 0, "no score moved: the documents promise too little")


@T.case("MINIMIZE: a subset of the givens, one solution, no given "
        "removable; ERR multiple and nosolution", timeout=300)
def _(c):
    k = c.connect(timeout=60)
    sols = [solution_of(p) for p in
            h.load_puzzles("puzzles3_magictour_top1465", 4)]
    # Fuller puzzles than the set's: half of a solution's cells.
    rng = random.Random(7)
    for sol in sols + [h.CLASSIC_SOLUTION]:
        p = "".join(ch if rng.random() < 0.5 else "." for ch in sol)
        if count(p) != 1:
            p = sol
        m = k.req("MINIMIZE %s 3" % p, 60)
        check(givens(m) <= givens(p) and all(m[i] == p[i]
                                             for i in givens(m)),
              "MINIMIZE %s: not a subset: %s" % (p, m))
        eq(count(m), 1, "MINIMIZE %s: solutions" % p)
        for i in givens(m):
            check(count(without(m, {i})) == 2, "MINIMIZE %s: r%dc%d of %s "
                  "can still go" % (p, i // 9 + 1, i % 9 + 1, m))
        eq(k.req("MINIMIZE %s 3" % p, 60), m, "the same seed")
    eq(k.req("MINIMIZE " + h.EMPTY), "ERR multiple the puzzle has more "
       "than one solution", "the empty grid")
    eq(k.req("MINIMIZE 12345678." + "........9" + "." * 63), "ERR nosolution "
       "the puzzle has no solution", "no solution")


@T.case("CONSTRAIN: a superset of the givens, one solution, which solves "
        "the input; a proper puzzle is its own answer", timeout=300)
def _(c):
    k = c.connect(timeout=60)
    for p, seed in ((h.EMPTY, 1), (h.EMPTY, 2), ("123456789" + "." * 72, 3),
                    (h.load_puzzles("puzzles2_17_clue", 1)[0][:40] +
                     "." * 41, 4)):
        got = k.req("CONSTRAIN %s %d" % (p, seed), 60)
        check(givens(p) <= givens(got) and all(got[i] == p[i]
                                               for i in givens(p)),
              "CONSTRAIN %s: the givens kept: %s" % (p, got))
        eq(count(got), 1, "CONSTRAIN %s: solutions" % p)
        check(h.solution_problem(p.replace("0", "."),
                                 solution_of(got)) is None,
              "CONSTRAIN %s: its solution solves the input" % p)
        eq(k.req("CONSTRAIN %s %d" % (p, seed), 60), got, "the same seed")
    eq(k.req("CONSTRAIN %s 5" % h.CLASSIC), h.CLASSIC, "a proper puzzle")
    eq(k.req("CONSTRAIN 12345678." + "........9" + "." * 63), "ERR nosolution "
       "the puzzle has no solution", "no solution")


@T.case("PATH: HINT's steps, each applied, a summary of RATE's words and "
        "the steps counted, END; an extreme puzzle's dead end; errors",
        timeout=300)
def _(c):
    k = c.connect(timeout=60)
    for p in (h.load_puzzles("puzzles3_magictour_top1465", 3) +
              [h.CLASSIC, k.req("GENERATE hard 3", 60)]):
        lines = k.block("PATH " + p, 60)
        steps, summary = lines[:-1], lines[-1]
        marks = start_marks(p)
        used = {}
        for i, step in enumerate(steps):
            if step.startswith("nostep "):
                eq(i, len(steps) - 1, "nostep ends the path")
                eq(k.req("HINT %s %s" % (p, "".join(marks))).split()[:2],
                   ["ERR", "nostep"], "HINT agrees there is no step")
                break
            eq(k.req("HINT %s %s" % (p, "".join(marks))), step,
               "PATH %s: step %d" % (p[:20], i + 1))
            apply(marks, step)
            used[step.split()[0]] = used.get(step.split()[0], 0) + 1
        rate = k.req("RATE " + p)
        check(summary.startswith(rate + " "), "summary %r, RATE %r"
              % (summary, rate))
        tail = summary[len(rate) + 1:].split()
        eq(dict((t.split("=")[0], int(t.split("=")[1])) for t in tail),
           used, "the steps counted by technique")
        if rate.startswith("extreme"):
            check(steps[-1].startswith("nostep "), "extreme: the dead end")
        else:
            eq(k.req("HINT %s %s" % (p, "".join(marks))), "solved",
               "the path solves %s" % p)
    eq(k.req("PATH " + h.EMPTY), "ERR multiple the puzzle has more than "
       "one solution", "PATH of the empty grid")
    eq(k.req("PATH %s %s" % (h.CLASSIC, "55" + h.CLASSIC[2:])),
       "ERR wrong r1c2", "PATH from a wrong grid")


@T.case("PATH of an extreme puzzle ends in nostep, then extreme in the "
        "summary", timeout=120)
def _(c):
    k = c.connect(timeout=60)
    p = next(q for q in h.load_puzzles("puzzles6_forum_hardest_1106", 20)
             if k.req("RATE " + q).startswith("extreme"))
    lines = k.block("PATH " + p, 60)
    eq(lines[-2], "nostep no logical step applies from here; the rest "
       "needs trial and error", "the dead end")
    check(lines[-1].startswith("extreme "), "summary %r" % lines[-1])


@T.case("GENERATE deadline=: an answer by the deadline, of the level asked "
        "or, saying so, the nearest; never ERR", timeout=120,
        daemon=dict(budget=100000000))
def _(c):
    k = c.connect(timeout=60)
    # An extreme puzzle with 54 givens never comes (singles alone solve
    # such a puzzle): without the deadline this runs the budget out
    # (10^8 guesses, minutes anywhere); with it, the best by 0.3 s
    # comes, so the answer shows the deadline at work on any machine.
    shape = "".join("." if i % 3 == 0 else "x" for i in range(81))
    req = "GENERATE extreme 11 pattern=%s deadline=300" % shape
    t0 = time.monotonic()
    got = k.req(req, 60)
    took = time.monotonic() - t0
    m = re.fullmatch(r"([1-9.]{81}) level=(\w+)", got)
    check(m, "%s: %r" % (req, got))
    check(m.group(2) in LEVELS[:4], "the nearest level: %r" % got)
    eq(rate_level(k, m.group(1)), m.group(2), "the level the reply says")
    eq(count(m.group(1)), 1, "one solution")
    eq(givens(m.group(1)), givens(shape.replace("x", "1")),
       "the shape kept")
    # The deadline is 0.3 s; the answer may come one attempt after it.
    check(0.25 <= took <= 4.5, "answered after %.2f s with a deadline of "
          "0.3 s" % took)
    for seed in range(20, 26):
        got = k.req("GENERATE extreme %d deadline=1" % seed, 60)
        m = re.fullmatch(r"([1-9.]{81})( level=(\w+))?", got)
        check(m, "deadline=1: %r" % got)
        eq(rate_level(k, m.group(1)), m.group(3) or "extreme",
           "deadline=1 seed %d: the level said" % seed)


@T.case("GENERATE deadline= with a clue ceiling or a pattern and nothing "
        "kept by then: ERR deadline at the deadline, not the first puzzle "
        "kept or ERR budget after the whole budget", timeout=120,
        daemon=dict(budget=10 ** 8))
def _(c):
    k = c.connect(timeout=60)
    # Exactly 17 givens (clues=17): a random minimal puzzle has 20 to 26,
    # and these two seeds keep none within 10^7 guesses (tried: about
    # 30 s on a loaded Zen 3), so that no machine keeps one within the
    # deadline.  (A ceiling of 19 keeps one after 4 * 10^6 guesses: a
    # machine fast enough could answer it in time, so it is not used.)
    # With a budget of 10^8 guesses the job used to drop its deadline
    # and run on to the first puzzle kept or the budget's end; now the
    # deadline holds.  Bounded by what the daemon is told: 0.3 s,
    # answered at most an attempt after.  (A pattern that keeps nothing
    # takes the same path: nothing kept, ERR deadline.)
    for req in ("GENERATE hard 1 clues=17 deadline=300",
                "GENERATE extreme 2 clues=17 deadline=300"):
        t0 = time.monotonic()
        got = k.req(req, 60)
        took = time.monotonic() - t0
        eq(got, "ERR deadline deadline of 300 ms passed before an answer",
           req[:60])
        check(0.25 <= took <= 4.5, "%s: answered after %.2f s with a "
              "deadline of 0.3 s" % (req[:40], took))
    st = k.stats()
    eq(int(st["err_deadline"]), 2, "err_deadline")
    # The same with a budget that runs out first: ERR budget, as before.
    eq(k.req("GENERATE hard 1 clues=17 deadline=60000 budget=20000", 60),
       "ERR budget search budget of 20000 guesses exceeded",
       "the budget first")


def singles_fill(p):
    """Does this file's own singles solver (a cell with one digit that
    fits, a digit with one place in a row, column or box) fill p?"""
    g = [int(ch) if ch != "." else 0 for ch in p]

    def fits(c, d):
        r, col = divmod(c, 9)
        b = r // 3 * 27 + col // 3 * 3
        return all(g[r * 9 + i] != d and g[i * 9 + col] != d and
                   g[b + i // 3 * 9 + i % 3] != d for i in range(9))
    units = ([[r * 9 + i for i in range(9)] for r in range(9)] +
             [[i * 9 + c for i in range(9)] for c in range(9)] +
             [[b // 3 * 27 + b % 3 * 3 + i // 3 * 9 + i % 3
               for i in range(9)] for b in range(9)])
    placed = True
    while placed:
        placed = False
        for c in range(81):
            ds = [d for d in range(1, 10) if g[c] == 0 and fits(c, d)]
            if len(ds) == 1:
                g[c], placed = ds[0], True
        for u in units:
            for d in range(1, 10):
                if d in (g[c] for c in u):
                    continue
                at = [c for c in u if g[c] == 0 and fits(c, d)]
                if len(at) == 1:
                    g[at[0]], placed = d, True
    return 0 not in g


def stall_free(cells):
    """Can no state of a puzzle with these givens stall a logical
    solver?  A stall needs blanks where every row, column and box has
    none or two or more: take away each blank alone in one of its
    units until none is; none left: no stall."""
    blank = set(range(81)) - set(cells)

    def units(c):
        return ("r%d" % (c // 9), "c%d" % (c % 9),
                "b%d" % (c // 27 * 3 + c % 9 // 3))
    while True:
        n = {}
        for c in blank:
            for u in units(c):
                n[u] = n.get(u, 0) + 1
        alone = {c for c in blank if min(n[u] for u in units(c)) == 1}
        if not alone:
            return not blank
        blank -= alone


@T.case("GENERATE refuses at once a shape that cannot give the level "
        "asked: every cell given, 78 givens or more, blanks singles always "
        "fill, two blank rows of a band; what it makes on such a pattern, "
        "singles fill", timeout=300)
def _(c):
    k = c.connect(timeout=60)
    refused = "ERR syntax no puzzle has that shape: "
    easy = ("every puzzle with that pattern is easy: each blank is, in "
            "turn, the only one of a row, column or box")
    full = "x" * 81
    twins = "." * 9 + "x" * 9 + "." * 9 + "x" * 54
    rng = random.Random(34)
    before = int(k.stats()["guesses"])
    for req, want in (
            ("GENERATE medium 1 pattern=" + full, refused + easy),
            ("GENERATE extreme 1 pattern=" + full, refused + easy),
            ("GENERATE hard 2 clues=78-81", refused + "with 78 givens or "
             "more, every puzzle is easy"),
            ("GENERATE hard 2 clues=81", refused + "with 78 givens or "
             "more, every puzzle is easy"),
            ("GENERATE easy 3 pattern=" + twins, refused + "the pattern "
             "has two blank rows of one band or columns of one stack: "
             "swapped, they make a second solution")):
        eq(k.req(req, 60), want, req[:40])
    eq(int(k.stats()["guesses"]), before, "refused before any work")
    # Every cell given is a complete grid, which only easy can be.
    g = k.req("GENERATE easy 1 pattern=" + full, 60)
    check(re.fullmatch(r"[1-9]{81}", g) and
          h.solution_problem("." * 81, g) is None, "a complete grid: %r" % g)
    # Dense random patterns: those refused above easy give puzzles that
    # this file's singles fill (the rule's promise, checked outside).
    seen = kept = 0
    while seen < 6 or kept < 6:
        cells = set(rng.sample(range(81), rng.randrange(50, 70)))
        shape = "".join("x" if i in cells else "." for i in range(81))
        got = k.req("GENERATE medium 1 pattern=%s budget=1" % shape, 60)
        if not stall_free(cells):
            eq(got, "ERR budget search budget of 1 guesses exceeded",
               "a pattern where logic may stall is not refused")
            kept += 1
            continue
        eq(got, refused + easy, "a dense pattern")
        p = k.req("GENERATE easy %d pattern=%s" % (seen, shape), 60)
        eq(givens(p), cells, "the pattern's cells")
        eq(count(p), 1, "one solution: " + p)
        check(singles_fill(p), "singles do not fill %s" % p)
        seen += 1


@T.case("GENERATE pattern= on a Unix socket whose client has gone: its "
        "work stops at its next slice (gone_kicks), the worker serves the "
        "next client", transports=("unix",),
        daemon=dict(workers=1, budget=100000000))
def _(c):
    # 10^8 guesses of descents on a pattern that never gives an extreme
    # puzzle: minutes of work anywhere, until its client goes.
    shape = "".join("." if i % 3 == 0 else "x" for i in range(81))
    k = c.connect()
    k.send(("GENERATE extreme 11 pattern=%s\n" % shape).encode())
    k2 = c.connect()
    check(h.wait_for(lambda: "state=busy" in " ".join(
        k2.block("CLIENT LIST")), 10), "the GENERATE is at work")
    k.close()
    check(h.wait_for(lambda: int(k2.stats()["gone_kicks"]) == 1, 20),
          "gone_kicks %s" % k2.stats()["gone_kicks"])
    eq(k2.req("PING"), "PONG", "the worker is free")
    eq(k2.req("SOLVE " + h.CLASSIC), h.CLASSIC_SOLUTION, "and solves")


def pool_depths(k):
    st = k.stats()
    return [int(st["generate_pool_" + lv]) for lv in LEVELS]


@T.case("the GENERATE pool: filled while idle to generate_pool per level "
        "and worker, seedless GENERATE served from it (a puzzle its seed "
        "makes again), hits and misses counted, refilled, resized on "
        "reload, off at 0", transports=(None,), own=True, timeout=300)
def _(c):
    with h.Daemon(workers=1, generate_pool=3) as d:
        k = d.connect(timeout=60)
        check(h.wait_for(lambda: pool_depths(k) == [3] * 5, 120, 0.2),
              "the pool did not fill: %r" % pool_depths(k))
        got = {}
        for lv in LEVELS:
            got[lv] = k.req("GENERATE %s info=1" % lv, 60)
        st = k.stats()
        eq((st["generate_pool_hits"], st["generate_pool_misses"]),
           ("5", "0"), "a hit per level")
        for lv, line in got.items():
            m = re.fullmatch(r"([1-9.]{81}) seed=(\d+) level=(\w+)", line)
            check(m and m.group(3) == lv, "GENERATE %s: %r" % (lv, line))
            eq(count(m.group(1)), 1, "one solution")
            eq(rate_level(k, m.group(1)), lv, "its level")
            eq(k.req("GENERATE %s %s" % (lv, m.group(2)), 60), m.group(1),
               "the seed named makes the same puzzle")
        # Five in one write: the worker is busy, the pool cannot refill
        # in between: 2 left of easy, then misses, made fresh.
        k.send("".join("GENERATE easy\n" for _ in range(5)))
        lines = [k.line(60) for _ in range(5)]
        check(all(re.fullmatch(r"[1-9.]{81}", ln) for ln in lines) and
              len(set(lines)) == 5, "five different puzzles: %r" % lines)
        st = k.stats()
        hits = int(st["generate_pool_hits"]) - 5
        misses = int(st["generate_pool_misses"])
        check(hits >= 2 and hits + misses == 5, "hits %d, misses %d"
              % (hits, misses))
        check(h.wait_for(lambda: pool_depths(k) == [3] * 5, 120, 0.2),
              "the pool did not refill: %r" % pool_depths(k))
        eq(k.req("GENERATE easy 9 info=1").split()[1], "seed=9",
           "a seed given is never the pool's")
        eq(int(k.stats()["generate_pool_hits"]) - 5, hits,
           "GENERATE with a seed takes nothing")
        k.req("GENERATE easy symmetry=rot180", 60)
        eq(int(k.stats()["generate_pool_hits"]) - 5, hits,
           "GENERATE with a shape takes nothing")
        with open(d.conf) as f:
            text = f.read()
        with open(d.conf, "w") as f:
            f.write(text.replace("generate_pool = 3", "generate_pool = 1"))
        d.proc.send_signal(__import__("signal").SIGHUP)
        check(h.wait_for(lambda: pool_depths(k) == [1] * 5, 30, 0.2),
              "reload to 1: %r" % pool_depths(k))
        metrics = k.req("PING")
        eq(metrics, "PONG", "still serving")
    with h.Daemon(workers=1, generate_pool=0) as d:
        k = d.connect(timeout=60)
        time.sleep(0.5)
        eq(pool_depths(k), [0] * 5, "generate_pool = 0: nothing made ahead")
        k.req("GENERATE easy", 60)
        st = k.stats()
        eq((st["generate_pool_hits"], st["generate_pool_misses"]),
           ("0", "0"), "generate_pool = 0: neither hit nor miss")


@T.case("the GENERATE pool under a budget too small for any puzzle: the "
        "worker goes idle (no solving while nobody asks), a seedless "
        "GENERATE still ERR budget, and a reload to a larger budget fills "
        "it", transports=(None,), timeout=300,
        daemon=dict(workers=1, generate_pool=2, budget=1))
def _(c):
    k = c.connect(timeout=60)
    # One guess never makes a puzzle: every generation of the pool runs
    # out of budget.  It retried them without end, a worker's CPU spent
    # on an idle daemon (solve_usec and guesses growing with no request);
    # now each level rests after a few in a row.
    def solving():
        st = k.stats()
        return (int(st["solve_usec"]), int(st["guesses"]))
    check(h.wait_for(lambda: solving() == solving(), 10, 0.5),
          "the idle worker never stopped solving: %r" % (solving(),))
    before = solving()
    time.sleep(1)
    eq(solving(), before, "solve_usec and guesses of an idle worker, a "
       "second apart")
    eq(pool_depths(k), [0] * 5, "nothing made with a budget of 1")
    eq(k.req("GENERATE easy", 60),
       "ERR budget search budget of 1 guesses exceeded",
       "a seedless GENERATE, nothing made ahead")
    with open(c.d.conf) as f:
        text = f.read()
    with open(c.d.conf, "w") as f:
        f.write(text.replace("budget = 1\n", "budget = 100000\n"))
    c.d.proc.send_signal(__import__("signal").SIGHUP)
    check(h.wait_for(lambda: pool_depths(k) == [2] * 5, 120, 0.2),
          "after a reload to budget = 100000 the pool did not fill: %r"
          % pool_depths(k))


if __name__ == "__main__":
    sys.exit(T.run())
