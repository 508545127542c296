# SPDX-License-Identifier: ISC
"""
What the client checks before it sends (each argument, raising
:class:`InputError` with the code the server would give) and the cheap
checks of an answer it gets back (a solution is 81 digits, every row,
column and box a permutation of 1-9, the givens kept).
"""

import functools
import math
import re
from typing import Dict, List, Optional, Tuple, Union

from .errors import InputError

LEVELS = ("easy", "medium", "hard", "expert", "extreme")

#: What GENERATE's ``symmetry=`` takes (HELLO's ``symmetries=``).
SYMMETRIES = ("none", "rot180", "rot90", "mirror", "flip", "diagonal",
              "antidiagonal", "dihedral")

#: What SOLVE, LEXMIN, COUNT, SOLUTIONS and ANALYZE take: 81 cells, or
#: 729 characters of pencil marks (nine a cell, the digit while it is a
#: candidate, else ``.``).
GIVENS = (81, 729)

#: The largest deadline= the protocol takes: 86400000 ms, a day.
MAX_DEADLINE = 86400.0


def _shown(ch: str) -> str:
    """A character as the server's error text shows a byte."""
    if " " < ch < "\x7f":
        return "character '%s' (0x%02x)" % (ch, ord(ch))
    if ord(ch) < 0x80:
        return "byte 0x%02x" % ord(ch)
    return "character U+%04X" % ord(ch)


#: A puzzle that goes out as one token: 81 or 729 printable ASCII
#: characters, none a blank or ``=``.
_TOKEN = re.compile(r"[!-<>-~]{81}(?:[!-<>-~]{648})?")


def check_cells(puzzle: object, sizes: Tuple[int, ...] = (81,)) -> str:
    """puzzle if it is a str of one of sizes that goes out as one token
    of one line: each character printable ASCII, not a blank, not
    ``=`` (which would make it an option); else InputError ``length`` or
    ``char``, as the server words them.  Which of those characters a
    cell may be is the server's to say (``ERR char``)."""
    if isinstance(puzzle, str) and _TOKEN.fullmatch(puzzle) and \
            len(puzzle) in sizes:
        return puzzle
    if not isinstance(puzzle, str):
        raise InputError("length", "a puzzle is a str, not %s"
                         % type(puzzle).__name__)
    if len(puzzle) not in sizes:
        raise InputError("length", "expected %s cells, found %d"
                         % (" or ".join(map(str, sizes)), len(puzzle)))
    for i, ch in enumerate(puzzle):
        if not " " < ch < "\x7f" or ch == "=":
            raise InputError("char", "bad %s at position %d"
                             % (_shown(ch), i + 1))
    return puzzle


def check_line(line: object) -> str:
    """A request line for request(): printable ASCII and blanks, not
    blank (a blank line gets no reply), no line break."""
    if not isinstance(line, str):
        raise InputError("syntax", "a request line is a str")
    for i, ch in enumerate(line):
        if not (" " <= ch < "\x7f" or ch == "\t"):
            raise InputError("char", "bad %s at position %d"
                             % (_shown(ch), i + 1))
    if not line.strip(" \t"):
        raise InputError("syntax", "a blank line gets no reply")
    return line


def _int(value: object, what: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or \
            not lo <= value <= hi:
        raise InputError("syntax", "%s must be an int from %d to %d"
                         % (what, lo, hi))
    return value


def options(budget: Optional[int], deadline: Optional[float],
            effort: bool, extra: str = "") -> str:
    """The options of a request: budget in guesses, deadline in
    seconds (sent as whole milliseconds, rounded up)."""
    out = extra
    if budget is not None:
        out += " budget=%d" % _int(budget, "budget", 1, (1 << 64) - 1)
    if deadline is not None:
        if isinstance(deadline, bool) or \
                not isinstance(deadline, (int, float)) or \
                not 0 < deadline <= MAX_DEADLINE:
            raise InputError("syntax", "deadline must be more than 0 "
                             "seconds, at most %d" % MAX_DEADLINE)
        out += " deadline=%d" % max(1, math.ceil(deadline * 1000))
    if effort:
        out += " effort=1"
    return out


def count_arg(n: object, what: str = "n") -> str:
    """COUNT's limit, SOLUTIONS' n: at least 1 (the server's count_max
    is the most)."""
    return " %d" % _int(n, what, 1, (1 << 64) - 1)


def seed_arg(seed: Optional[int]) -> str:
    """A request's seed argument, or none: the server picks one."""
    if seed is None:
        return ""
    return " %d" % _int(seed, "seed", 0, (1 << 64) - 1)


def level_arg(level: Optional[str]) -> str:
    """GENERATE's level argument, or none: the server's default."""
    if level is None:
        return ""
    if level not in LEVELS:
        raise InputError("syntax", "level must be one of "
                         + ", ".join(LEVELS))
    return " " + level


def shape_args(symmetry: Optional[str],
               clues: Union[None, int, Tuple[int, int]],
               pattern: Optional[str]) -> str:
    """GENERATE's shape options: symmetry=, clues= (N or (LO, HI)),
    pattern= (81 cells, ``x`` a given, ``.`` a blank)."""
    out = ""
    if symmetry is not None:
        if symmetry not in SYMMETRIES:
            raise InputError("syntax", "symmetry must be one of "
                             + ", ".join(SYMMETRIES))
        out += " symmetry=" + symmetry
    if clues is not None:
        lo, hi = (clues, clues) if isinstance(clues, int) else clues
        _int(lo, "clues", 17, 81)
        _int(hi, "clues", lo, 81)
        out += " clues=%d-%d" % (lo, hi)
    if pattern is not None:
        out += " pattern=" + check_cells(pattern)
    return out


def check_window(window: object) -> int:
    return _int(window, "window", 1, 1 << 30)


def check_size(size: object) -> int:
    """A pool's size: its most connections."""
    return _int(size, "size", 1, 1 << 16)


# -- answers ------------------------------------------------------------
def givens(puzzle: str) -> Dict[int, str]:
    """The cells a puzzle fixes: its digits (81 cells), or the cells of
    one candidate (729 characters of pencil marks)."""
    if len(puzzle) == 81:
        return {i: ch for i, ch in enumerate(puzzle) if ch in "123456789"}
    out = {}
    for i in range(81):
        cands = puzzle[i * 9:i * 9 + 9].replace(".", "")
        if len(cands) == 1:
            out[i] = cands
    return out


_UNITS: List[List[int]] = (
    [[r * 9 + c for c in range(9)] for r in range(9)] +
    [[r * 9 + c for r in range(9)] for c in range(9)] +
    [[(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)]
     for b in range(9)])
_DIGITS = frozenset("123456789")


def solution_problem(puzzle: str, sol: str) -> Optional[str]:
    """None if sol is a solution of puzzle (81 cells or pencil marks),
    else what is wrong with it."""
    if len(sol) != 81 or not set(sol) <= _DIGITS:
        return "not 81 digits 1-9"
    for unit in _UNITS:
        if len({sol[i] for i in unit}) != 9:
            return "a row, column or box repeats a digit"
    if len(puzzle) == 729:
        for i in range(81):
            if puzzle[i * 9 + int(sol[i]) - 1] == ".":
                return "r%dc%d is not one of its candidates" % (
                    i // 9 + 1, i % 9 + 1)
    else:
        for i, ch in givens(puzzle).items():
            if sol[i] != ch:
                return "the given of r%dc%d changed" % (i // 9 + 1,
                                                        i % 9 + 1)
    return None


# The fast check of a solution, for every answer of a batch: the 81
# cells as one integer of byte lanes, digit d (1-8) bit d - 1 of its
# lane, 9 and anything else 0.  A unit of nine cells holds 1-8 exactly
# when the OR of its lanes is 0xff; and when every unit does, each has
# one cell left, so at most one 9: nine 9s in all (counted) then put
# one 9 in each unit, and each unit is 1-9 once (a cell that is no
# digit has no room).  Shifting the integer right by 8k bits moves each
# cell k places on, so a few shifts and ORs fold every row into its
# last cell, every column into its cell of the last row, every box into
# its last cell: all 27 units at once, in about 2 us where a set per
# unit takes 30 or more (bench/python-client.py).
_LOW = bytes(1 << (i - 49) if 49 <= i <= 56 else 0 for i in range(256))
_GIVEN_MASK = bytes(255 if 49 <= i <= 57 else 0 for i in range(256))


def _ends(cells: List[int]) -> int:
    """The mask of the cells' lanes: 0xff in each."""
    return sum(255 << 8 * (80 - i) for i in cells)


_ROW_END = _ends([9 * r + 8 for r in range(9)])
_COL_END = _ends([72 + c for c in range(9)])
_BOX_END = _ends([27 * (b // 3) + 3 * (b % 3) + 20 for b in range(9)])


@functools.lru_cache(maxsize=32)
def _ends_of(n: int) -> Tuple[int, int, int]:
    """The masks of _ROW_END, _COL_END and _BOX_END for n grids one
    after the other."""
    r, c, b = (int.from_bytes(m.to_bytes(81, "big") * n, "big")
               for m in (_ROW_END, _COL_END, _BOX_END))
    return r, c, b


def solves_all(puzzles: bytes, sols: bytes, n: int) -> bool:
    """solves() of n solutions (81 bytes each, joined) and n puzzles
    (likewise), all at once: one integer, the same folds (a grid's units
    fold within its own 81 bytes).  The caller sees that each is 81
    bytes: joined, 80 and 82 could make two grids."""
    if sols.count(b"9") != 9 * n:
        return False
    v = int.from_bytes(sols.translate(_LOW), "big")
    t = v | v >> 8 | v >> 16                    # 3 cells
    rows = t | t >> 24 | t >> 48                # 9 cells of a row
    boxes = t | t >> 72 | t >> 144              # 3 rows of 3 cells
    cols = v | v >> 72
    cols |= cols >> 144
    cols |= cols >> 288 | v >> 576             # 9 rows
    r, c, b = _ends_of(n)
    return (rows & r == r and cols & c == c and boxes & b == b and
            (int.from_bytes(sols, "big") ^ int.from_bytes(puzzles, "big")) &
            int.from_bytes(puzzles.translate(_GIVEN_MASK), "big") == 0)


def solves(puzzle: bytes, sol: bytes) -> bool:
    """Is sol (ASCII) 81 digits 1-9, each row, column and box holding
    each digit once, with every digit of the 81-cell puzzle in its cell
    (the bytes that differ are 0 under the givens' mask)?"""
    return len(sol) == 81 and len(puzzle) == 81 and solves_all(puzzle, sol, 1)


def all_solve(puzzles: List[str], sols: List[str]) -> bool:
    """solves() of each solution and its 81-cell puzzle, all at once, at
    about half the cost of one by one.  False: one at least is not."""
    n = len(sols)
    if set(map(len, sols)) != {81} or set(map(len, puzzles)) != {81} or \
            len(puzzles) != n:
        return False
    return solves_all("".join(puzzles).encode("ascii", "replace"),
                      "".join(sols).encode("ascii", "replace"), n)


def check_solution(puzzle: str, sol: str) -> str:
    """sol if it solves puzzle, else ValueError (a ProtocolError once
    the client has it)."""
    if solves(puzzle.encode("ascii", "replace"),
              sol.encode("ascii", "replace")):
        return sol
    why = solution_problem(puzzle, sol)
    if why:
        raise ValueError("not a solution (%s): %r" % (why, sol[:100]))
    return sol


def check_grid(line: str) -> str:
    """A puzzle as the server writes one: 81 cells, 1-9 and '.'."""
    if len(line) != 81 or not set(line) <= _DIGITS | {"."}:
        raise ValueError("not a puzzle: %r" % line[:100])
    return line


def filled(grid: str) -> bool:
    """Is every cell of the grid (81 cells or pencil marks) filled?"""
    return len(givens(grid)) == 81
