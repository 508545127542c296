#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
client_lies_tools.py -- a lie for every check sudokuc makes of the
toolbox's answers and GENERATE's (issue 32.1), as client_lies.py does
for the rest: GENERATE's puzzle (81 cells, givens in no conflict, one
solution, the symmetry, the clues and the pattern asked, minimal as far
as the shape lets it), CANON's form and automorphisms, SHUFFLE's
equivalent, MINIMIZE's subset and CONSTRAIN's superset, PATH's steps
(their technique, actions and explanation, each action sound and
possible where the walk is), its end and its summary.  Each lie breaks
one rule and passes every check before it; the expected messages, cells
and counts are worked out here with the reference solver.
"""

import os
import random
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check                               # noqa: E402
from reference import ref_search                        # noqa: E402
from toolbox_common import (count, every_row, exactly, givens,  # noqa: E402
                            invariant, liar_caught, orbits, run, transform,
                            without)

T = h.Tap({"workers": 2})
ONE = (None,)
CLASSIC, SOL = h.CLASSIC, h.CLASSIC_SOLUTION
SPARSE = CLASSIC[:62] + "." * 19
CONFLICT = "11" + "." * 79


def cell(i):
    return "r%dc%d" % (i // 9 + 1, i % 9 + 1)


def local(*args):
    """sudokuc -L's lines for args: the material of a lie."""
    rc, out, err = run("-L", *args)
    check(rc == 0, "sudokuc -L %r: %r" % (args, err))
    return out.split("\n")[:-1]


def first_removable(p, sym="none", floor=0):
    """The message for the first orbit of givens (by its first cell)
    that can go with one solution left, or None."""
    for o in sorted(orbits(sym), key=min):
        if o <= givens(p) and len(givens(p)) - len(o) >= floor and \
           count(without(p, o)) == 1:
            return ("not minimal: the given at %s can go" % cell(min(o))
                    if len(o) == 1 else "not minimal under %s: the %d givens"
                    " of the orbit of %s can go" % (sym, len(o),
                                                    cell(min(o))))
    return None


def unsolvable(p):
    """p with one given more, in no conflict with the others, that leaves
    it no solution."""
    sol = "".join(map(str, ref_search(p, limit=1)[1]))
    for i in (i for i in range(81) if p[i] in ".0"):
        peers = {p[j] for j in range(81) if j // 9 == i // 9 or
                 j % 9 == i % 9 or (j // 27 == i // 27 and
                                    j % 9 // 3 == i % 9 // 3)}
        for d in (d for d in "123456789" if d != sol[i] and d not in peers):
            q = p[:i] + d + p[i + 1:]
            if ref_search(q, limit=1)[0] == 0:
                return q
    raise h.Fail("no unsolvable variant of " + p)


def first_met(p):
    """p's digits renamed 1, 2, 3, ... in the order first met."""
    names = {}
    for ch in p:
        if ch not in ".0" and ch not in names:
            names[ch] = str(len(names) + 1)
    return "".join(names.get(ch, ".") for ch in p)


def generate_lies():
    g = local("generate", "--seed", 3)[0]           # unique, minimal
    check(count(g) == 1 and first_removable(g) is None, "G minimal")
    check(not invariant(g, "rot180"), "G not symmetric")
    gs = local("generate", "--seed", 3, "--symmetry", "rot180")[0]
    i = next(i for i in range(40) if gs[i] == "." and gs[80 - i] == ".")
    gsol = "".join(map(str, ref_search(gs, limit=1)[1]))
    fat = gs[:i] + gsol[i] + gs[i + 1:80 - i] + gsol[80 - i] + gs[81 - i:]
    pattern = "".join("x" if ch not in ".0" else "." for ch in CLASSIC)
    k = lambda text: lambda ln: text                    # noqa: E731
    gen = ["generate", "-n", 20, "--seed", 3]
    j = next(j for j in range(81) if (g[j] == ".") != (CLASSIC[j] == "."))
    n = len(givens(g))
    # g with a given of its solution more: one can go, leaving n.
    gsol1 = "".join(map(str, ref_search(g, limit=1)[1]))
    b = next(i for i in range(81) if g[i] == ".")
    g1 = g[:b] + gsol1[b] + g[b + 1:]
    return [
        ("GENERATE: 80 cells", gen, k(g[:80]), "not a puzzle of 81 cells"),
        ("GENERATE: a level after it, no deadline asked", gen,
         k(g + " level=easy"), "not a puzzle of 81 cells"),
        ("GENERATE: an x among the cells", gen, k("x" + g[1:]),
         "not a puzzle of 81 cells"),
        ("GENERATE: givens in conflict", gen, k(CONFLICT),
         "a puzzle whose givens conflict"),
        ("GENERATE: no solution", gen, k(unsolvable(CLASSIC)),
         "a puzzle with no solution"),
        ("GENERATE: many solutions", gen, k(SPARSE),
         "a puzzle with more than one solution"),
        ("GENERATE: not the symmetry asked", gen + ["--symmetry", "rot180"],
         k(g), "givens not invariant under rot180"),
        ("GENERATE: too few clues", gen + ["--clues", "30-40"], k(g),
         "%d givens, not 30 to 40" % len(givens(g))),
        ("GENERATE: a clue too many", gen + ["--clues", "17-%d" % (n - 1)],
         k(g), "%d givens, not 17 to %d" % (n, n - 1)),
        ("GENERATE: a given that can go, down to clues=' least",
         gen + ["--clues", "%d-%d" % (n, n + 1)], k(g1),
         first_removable(g1, floor=n)),
        ("GENERATE: not the pattern asked", gen + ["--pattern", pattern],
         k(g), "not the pattern asked at %s" % cell(j)),
        ("GENERATE: a given that can go", gen, k(CLASSIC),
         first_removable(CLASSIC)),
        ("GENERATE: symmetric, an orbit that can go",
         gen + ["--symmetry", "rot180"], k(fat),
         first_removable(fat, "rot180")),
    ]


def canon_lies():
    form = local("canon", CLASSIC)[0].split()[0]
    other = first_met(transform(CLASSIC, random.Random(5)))
    check(other != form, "another form")
    k = lambda text: lambda ln: text                    # noqa: E731
    can = ["canon"]
    return [
        ("CANON: no automorphisms", can, k(form),
         "not a form and its automorphisms"),
        ("CANON: an x in the form", can, k("x" + form[1:] + " 1"),
         "not a puzzle of 81 cells"),
        ("CANON: a form in conflict", can, k(CONFLICT + " 1"),
         "a puzzle whose givens conflict"),
        ("CANON: 0 automorphisms", can, k(form + " 0"),
         "no number of automorphisms"),
        ("CANON: automorphisms of 8 digits", can, k(form + " 12345678"),
         "no number of automorphisms"),
        ("CANON: automorphisms dividing nothing", can, k(form + " 7"),
         "7 automorphisms, which do not divide 3359232"),
        ("CANON: a given fewer", can,
         k(without(form, {min(givens(form))}) + " 1"),
         "a form of 29 givens for a puzzle of 30"),
        ("CANON: digits out of order", can,
         k(form.translate(str.maketrans("12", "21")) + " 1"),
         "no minlex form: 2 comes before 1"),
        ("CANON: an equivalent, digits in order, not the least", can,
         k(other + " 1"), "not the least equivalent puzzle"),
        ("CANON: the form, automorphisms not its", can, k(form + " 2"),
         "2 automorphisms, not 1"),
    ]


def reduce_lies():
    m = local("minimize", "--seed", 1, CLASSIC)[0]
    blank = next(i for i in range(81) if CLASSIC[i] == ".")
    moved = "".join(SOL[i] if CLASSIC[(i + 1) % 81] != "." else
                    "." for i in range(81))
    unsol = unsolvable(CLASSIC)
    k = lambda text: lambda ln: text                    # noqa: E731
    shu, mini, con = (["shuffle", "--seed", 1], ["minimize", "--seed", 1],
                      ["constrain", "--seed", 1])
    return [
        ("SHUFFLE: 80 cells", shu, CLASSIC, k(CLASSIC[:80]),
         "not a puzzle of 81 cells"),
        ("SHUFFLE: givens in conflict", shu, CLASSIC, k(CONFLICT),
         "a puzzle whose givens conflict"),
        ("SHUFFLE: a given fewer", shu, CLASSIC, k(without(CLASSIC, {0})),
         "29 givens for a puzzle of 30"),
        ("SHUFFLE: as many givens, another puzzle", shu, CLASSIC, k(moved),
         "not an equivalent puzzle: another canonical form"),
        ("MINIMIZE: 80 cells", mini, CLASSIC, k(m[:80]),
         "not a puzzle of 81 cells"),
        ("MINIMIZE: a given added", mini, CLASSIC,
         k(m[:blank] + SOL[blank] + m[blank + 1:]),
         "adds the given %s at %s" % (SOL[blank], cell(blank))),
        ("MINIMIZE: a given too many gone", mini, CLASSIC,
         k(without(m, {min(givens(m))})),
         "a puzzle with more than one solution"),
        ("MINIMIZE: not minimal", mini, CLASSIC, k(CLASSIC),
         first_removable(CLASSIC)),
        ("MINIMIZE: no solution", mini, unsol, k(unsol),
         "a puzzle with no solution"),
        ("CONSTRAIN: a given dropped", con, SPARSE, k(without(SOL, {0})),
         "drops the given 5 at r1c1"),
        ("CONSTRAIN: many solutions", con, SPARSE, k(SPARSE),
         "a puzzle with more than one solution"),
        ("CONSTRAIN: no solution", con, CLASSIC, k(unsol),
         "a puzzle with no solution"),
    ]


def path_lies():
    p = local("path", CLASSIC)
    steps, summary = p[:-1], p[-1]
    check(summary == "easy 1.0 naked_single naked_single=48", summary)
    first, r, c = steps[0], steps[0][14], steps[0][16]
    check(first.startswith("naked_single r"), first)
    wrong = "1" if first[18] != "1" else "2"
    seed = next(s for s in range(1, 50) if "hidden_single=" in
                local("path", local("generate", "-l", "easy", "--seed",
                                    s)[0])[-1])
    hp = local("generate", "-l", "easy", "--seed", seed)[0]
    hpath = local("path", hp)
    rest = hpath[-1].split(" ", 3)[3]
    nostep = "nostep no logical step applies from here"
    k = lambda lines: lambda ln: lines + ["END"]         # noqa: E731
    return [
        ("PATH: no END", CLASSIC, lambda ln: p + ["ERR budget x"],
         "not a path: no summary, END"),
        ("PATH: a step of no technique", CLASSIC,
         k(["magic" + first[12:]] + p[1:]), "step 1: no technique"),
        ("PATH: a step of no explanation", CLASSIC,
         k([first[:19]] + p[1:]), "step 1: no explanation"),
        ("PATH: a bad action", CLASSIC,
         k([first[:16] + "0" + first[17:]] + p[1:]),
         "not a hint: bad action"),
        ("PATH: a wrong digit", CLASSIC,
         k([first[:18] + wrong + first[19:]] + p[1:]),
         "unsound hint: r%sc%s=%s, but the solution has %s there"
         % (r, c, wrong, first[18])),
        ("PATH: a given placed again", CLASSIC,
         k(["naked_single r1c1=5 x"] + p),
         "step 1: r1c1=5, but r1c1 is placed already"),
        ("PATH: a candidate a given rules out", CLASSIC,
         k(["pointing r1c3-5 x"] + p),
         "step 1: r1c3-5, but r1c3 has no such candidate left"),
        ("PATH: a line of 1100 bytes", CLASSIC,
         k([first + " " + "x" * 1100] + p[1:]), "a line over 1023 bytes"),
        ("PATH: a summary of 1100 bytes", CLASSIC,
         k(p[:-1] + [summary + " " + "x" * 1100]),
         "a summary over 1023 bytes"),
        ("PATH: cells left open", CLASSIC, k(steps[:10] + [summary]),
         "a path that stops with cells open"),
        ("PATH: a dead end, every cell done", CLASSIC,
         k(steps + [nostep, summary]), "a dead end with every cell done"),
        ("PATH: a dead end, not extreme", CLASSIC,
         k(steps[:10] + [nostep, summary]),
         "a summary of easy 1.0 naked_single after a dead end"),
        ("PATH: extreme, no dead end", CLASSIC,
         k(steps + ["extreme 5.0 trial_and_error naked_single=48"]),
         "a summary of extreme 5.0 trial_and_error without a dead end"),
        ("PATH: a rating too long", CLASSIC,
         k(steps + ["easy 1.0 " + "n" * 60 + " naked_single=48"]),
         "not a rating: too long"),
        ("PATH: a rating out of range", CLASSIC,
         k(steps + ["easy 2.0 naked_single naked_single=48"]),
         "score 2.0 out of the range of naked_single"),
        ("PATH: a step not counted", CLASSIC,
         k(steps + ["easy 1.0 naked_single naked_single=47"]),
         "a summary that does not count 48 naked_single"),
        ("PATH: a technique harder than the hardest", hp,
         k(hpath[:-1] + ["easy 1.0 naked_single " + rest]),
         "a path using hidden_single, harder than its hardest, "
         "naked_single"),
        ("PATH: a step counted that is not", CLASSIC,
         k(steps + [summary + " x_wing=1"]),
         "a summary that counts steps the path has not:  x_wing=1"),
    ]


def rows():
    """(what, sudokuc's arguments, input, the answer, the message)."""
    out = [(w, a, CLASSIC, f, y) for w, a, f, y in
           generate_lies() + canon_lies()]
    out += [(w, a, p, f, y) for w, a, p, f, y in reduce_lies()]
    out += [(w, ["path"], p, f, y) for w, p, f, y in path_lies()]
    return out


@T.case("a lie for every check of GENERATE, CANON, SHUFFLE, MINIMIZE, "
        "CONSTRAIN and PATH: alone, nothing printed, exit 2, its own "
        "message; beside a daemon, set aside for good, -L's output, exit 3",
        transports=ONE, timeout=900)
def _(c):
    def one(row):
        what, args, p, answer, why = row
        check(why is not None, "no message worked out")
        stdin = "" if args[0] == "generate" else p + "\n"
        liar_caught(what, answer, args, stdin, exactly(why), c.d,
                    tcp=args[0] == "generate")
    every_row(rows(), one)


if __name__ == "__main__":
    sys.exit(T.run())
