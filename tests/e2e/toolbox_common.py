# SPDX-License-Identifier: ISC
"""
toolbox_common.py -- what the tests of the puzzle toolbox share
(toolbox.py, over the wire; client_toolbox.py, through sudokuc; not a
test program): the symmetries of the square as maps of cells, their
orbits, rule-keeping transformations made here, uniqueness by the
reference solver, and HINT's actions applied to pencil marks.  Nothing
here asks the daemon or src/core.
"""

import harness as h
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
