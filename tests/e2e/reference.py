# SPDX-License-Identifier: ISC
"""
reference.py -- the test-side Sudoku oracle for the end-to-end tests.

Nothing here talks to the daemon or uses src/core: a naive
backtracker (the seeds' row/column/box bitmasks, BOJ 2239/2580) that
meets solutions in lexicographic order, a counting variant that branches
on the fewest candidates, and a checker for complete grids.
"""

import re


class RefError(Exception):
    pass


def _peers():
    peers = []
    for i in range(81):
        r, c = divmod(i, 9)
        b = (r // 3) * 3 + c // 3
        peers.append((r, 9 + c, 18 + b))
    return peers


UNITS_OF = _peers()


def parse_grid(p):
    if len(p) != 81:
        raise RefError("reference: puzzle of %d cells" % len(p))
    return [0 if ch in "0." else int(ch) for ch in p]


def givens_consistent(cells):
    used = [0] * 27
    for i, v in enumerate(cells):
        if v:
            for u in UNITS_OF[i]:
                if used[u] & (1 << v):
                    return False
                used[u] |= 1 << v
    return True


def _search(puzzle, limit, maxnodes, lexmin, marks):
    """
    Plain backtracking with row/column/box bitmasks.  With lexmin the
    blanks are filled in row-major order, digits ascending, so solutions
    are met in lexicographic order; otherwise the blank with the fewest
    candidates goes first (fast, for counting).  marks (81 strings of the
    digits a cell may hold) narrow the cells further.  Returns (the
    solutions met, at most limit, in order; finished).
    """
    cells = parse_grid(puzzle)
    if not givens_consistent(cells):
        return [], True
    allowed = [0x3FE] * 81
    for i, m in enumerate(marks or ()):
        allowed[i] = sum(1 << int(ch) for ch in m if ch != ".")
    used = [0] * 27
    for i, v in enumerate(cells):
        if v:
            for u in UNITS_OF[i]:
                used[u] |= 1 << v
    blanks = [i for i in range(81) if not cells[i]]
    out, nodes = [], [0]

    def cand(i):
        a, b, c = UNITS_OF[i]
        return ~(used[a] | used[b] | used[c]) & allowed[i]

    def rec(k):
        nodes[0] += 1
        if nodes[0] > maxnodes:
            raise OverflowError
        if k == len(blanks):
            out.append("".join(map(str, cells)))
            return len(out) >= limit
        if not lexmin:
            best, bc = k, 10
            for j in range(k, len(blanks)):
                n = bin(cand(blanks[j])).count("1")
                if n < bc:
                    best, bc = j, n
                    if n <= 1:
                        break
            blanks[k], blanks[best] = blanks[best], blanks[k]
        i = blanks[k]
        m = cand(i)
        a, b, c = UNITS_OF[i]
        while m:
            bit = m & -m
            m ^= bit
            cells[i] = bit.bit_length() - 1
            used[a] |= bit
            used[b] |= bit
            used[c] |= bit
            stop = rec(k + 1)
            used[a] ^= bit
            used[b] ^= bit
            used[c] ^= bit
            cells[i] = 0
            if stop:
                return True
        return False

    try:
        rec(0)
        return out, True
    except OverflowError:
        return out, False


def ref_search(puzzle, limit=1, maxnodes=2000000, lexmin=True):
    """
    The solutions of puzzle, counted up to limit (_search()): with
    lexmin the first is the lexicographically smallest.  Returns (count,
    first_solution_or_None, finished).
    """
    sols, done = _search(puzzle, limit, maxnodes, lexmin, None)
    return len(sols), sols[0] if sols else None, done


def ref_solutions(puzzle, limit, marks=None, maxnodes=2000000):
    """
    Up to limit solutions in lexicographic order; marks (81 strings, as
    from a 729-character pencil-mark puzzle) narrow the cells.
    (solutions, finished).
    """
    return _search(puzzle, limit, maxnodes, True, marks)


def solution_problem(puzzle, sol):
    """None if sol solves puzzle, else a reason."""
    if not isinstance(sol, str) or len(sol) != 81:
        return "not 81 characters: %r" % (sol,)
    if not re.fullmatch(r"[1-9]{81}", sol):
        return "not all digits 1-9: %r" % sol
    for i, ch in enumerate(puzzle):
        if ch not in "0." and ch != sol[i]:
            return "given %s at r%dc%d changed to %s" % (
                ch, i // 9 + 1, i % 9 + 1, sol[i])
    for r in range(9):
        if len(set(sol[r * 9:r * 9 + 9])) != 9:
            return "row %d repeats a digit" % (r + 1)
    for c in range(9):
        if len(set(sol[c::9])) != 9:
            return "column %d repeats a digit" % (c + 1)
    for b in range(9):
        r0, c0 = (b // 3) * 3, (b % 3) * 3
        box = [sol[(r0 + i) * 9 + c0 + j] for i in range(3) for j in range(3)]
        if len(set(box)) != 9:
            return "box %d repeats a digit" % (b + 1)
    return None


def right_answers(puzzles, out):
    """'' if out is one right solution per puzzle, in order, each line
    ended by LF; else what is wrong."""
    lines = out.split("\n")
    if lines.pop() != "" or len(lines) != len(puzzles):
        return "%d answers for %d puzzles" % (len(lines), len(puzzles))
    for k, (p, a) in enumerate(zip(puzzles, lines)):
        why = solution_problem(p, a)
        if why:
            return "answer %d: %s" % (k + 1, why)
    return ""
