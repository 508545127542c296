# SPDX-License-Identifier: ISC
"""
Each request of the protocol as the clients make it: a factory per verb
takes the options, checks them once and returns ``make``, which checks
one item (a puzzle, a seed) and gives its request: the line, the spec
of its reply and the parser that knows that item (a solution must keep
that puzzle's givens).  A single call is ``make`` of one item; a batch
calls it for each, the spec made once.  Nothing here does I/O.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple, Union

from . import replies as R
from .checks import (GIVENS, check_cells, check_line, count_arg, level_arg,
                     options, seed_arg, shape_args)
from .wire import Make, Parse, Req, spec

#: The longest puzzle of a request, for the bound of its ERR line.
_LONGEST = "x" * 729


def simple(line: str, parse: Parse) -> Req:
    """A request without arguments (PING, VERSION, HELLO, STATS)."""
    return line, spec(line), parse


def raw(line: str) -> Req:
    """request()'s line, checked, its reply unparsed."""
    line = check_line(line)
    return line, spec(line, checked=False), None


def solver(verb: str, budget: Optional[int], deadline: Optional[float],
           effort: bool) -> Make:
    """SOLVE or LEXMIN of a puzzle: a solution of it."""
    opts = options(budget, deadline, effort)
    sp = spec("%s %s%s" % (verb, _LONGEST, opts), effort=effort)
    head = verb + " "

    def make(puzzle: str) -> Req:
        return head + check_cells(puzzle, GIVENS) + opts, sp, \
            R.solution(puzzle)
    return make


def counter(limit: int, budget: Optional[int], deadline: Optional[float],
            effort: bool) -> Make:
    """COUNT of a puzzle up to limit."""
    tail = count_arg(limit, "limit") + options(budget, deadline, effort)
    sp = spec("COUNT %s%s" % (_LONGEST, tail), effort=effort)
    parse = R.count(limit)

    def make(puzzle: str) -> Req:
        return "COUNT " + check_cells(puzzle, GIVENS) + tail, sp, parse
    return make


def analyzer(budget: Optional[int], deadline: Optional[float],
             effort: bool) -> Make:
    """ANALYZE of a puzzle."""
    opts = options(budget, deadline, effort)
    sp = spec("ANALYZE %s%s" % (_LONGEST, opts), effort=effort,
              analysis=True)

    def make(puzzle: str) -> Req:
        return "ANALYZE " + check_cells(puzzle, GIVENS) + opts, sp, \
            R.analysis_of(puzzle)
    return make


def lister(n: int, budget: Optional[int], deadline: Optional[float],
           effort: bool) -> Make:
    """SOLUTIONS of a puzzle, up to n."""
    tail = count_arg(n) + options(budget, deadline, effort)
    sp = spec("SOLUTIONS %s%s" % (_LONGEST, tail), effort=effort,
              lines=n + 1)

    def make(puzzle: str) -> Req:
        return "SOLUTIONS " + check_cells(puzzle, GIVENS) + tail, sp, \
            R.solutions(puzzle, n, effort)
    return make


def rater(budget: Optional[int], deadline: Optional[float],
          effort: bool) -> Make:
    """RATE of a puzzle."""
    opts = options(budget, deadline, effort)
    sp = spec("RATE %s%s" % (_LONGEST, opts), effort=effort)

    def make(puzzle: str) -> Req:
        return "RATE " + check_cells(puzzle) + opts, sp, R.rating
    return make


def _grid(verb: str, item: Union[str, Tuple[str, Optional[str]]]) -> \
        Tuple[str, str]:
    """A HINT's or PATH's line without its options, and the grid its
    answer is checked against: item a puzzle, or (puzzle, grid)."""
    puzzle, grid = (item, None) if isinstance(item, str) else item
    line = verb + " " + check_cells(puzzle)
    if grid is None:
        return line, puzzle
    return line + " " + check_cells(grid, GIVENS), grid


def hinter(budget: Optional[int], deadline: Optional[float],
           effort: bool) -> Make:
    """HINT of a puzzle, or of (puzzle, grid)."""
    opts = options(budget, deadline, effort)
    sp = spec("HINT %s %s%s" % (_LONGEST[:81], _LONGEST, opts),
              effort=effort)

    def make(item: Union[str, Tuple[str, Optional[str]]]) -> Req:
        line, grid = _grid("HINT", item)
        return line + opts, sp, R.hint_of(grid)
    return make


def pather(budget: Optional[int], deadline: Optional[float]) -> Make:
    """PATH of a puzzle, or of (puzzle, grid)."""
    opts = options(budget, deadline, False)
    sp = spec("PATH %s %s%s" % (_LONGEST[:81], _LONGEST, opts))

    def make(item: Union[str, Tuple[str, Optional[str]]]) -> Req:
        return _grid("PATH", item)[0] + opts, sp, R.path
    return make


def generator(level: Optional[str], info: bool, symmetry: Optional[str],
              clues: Union[None, int, Tuple[int, int]],
              pattern: Optional[str], budget: Optional[int],
              deadline: Optional[float], effort: bool) -> Make:
    """GENERATE of a seed (None: the server picks one), its shape
    checked once."""
    head = "GENERATE" + level_arg(level)
    opts = options(budget, deadline, effort, (" info=1" if info else "") +
                   shape_args(symmetry, clues, pattern))
    sp = spec(head + " 18446744073709551615" + opts, effort=effort)
    span = (clues, clues) if isinstance(clues, int) else clues

    def make(seed: Optional[int]) -> Req:
        return head + seed_arg(seed) + opts, sp, R.generated(
            level, seed, info, deadline is not None, span, pattern)
    return make


def canoner(_: Any = None) -> Make:
    """CANON of a puzzle."""
    sp = spec("CANON " + _LONGEST[:81])

    def make(puzzle: str) -> Req:
        return "CANON " + check_cells(puzzle), sp, R.canon_of(puzzle)
    return make


def seeder(verb: str, seed: Optional[int], info: bool,
           budget: Optional[int], deadline: Optional[float],
           effort: bool) -> Make:
    """SHUFFLE, MINIMIZE or CONSTRAIN of (i, puzzle): the seed seed + i
    (modulo 2**64), as sudokuc --seed numbers them; None: the server
    picks each."""
    seed_arg(seed)
    opts = (" info=1" if info else "") + options(budget, deadline, effort)
    sp = spec("%s %s 18446744073709551615%s" % (verb, _LONGEST[:81], opts),
              effort=effort)

    def make(item: Tuple[int, str]) -> Req:
        i, puzzle = item
        s = None if seed is None else (seed + i) % (1 << 64)
        return "%s %s%s%s" % (verb, check_cells(puzzle), seed_arg(s),
                              opts), sp, R.seeded(puzzle, verb, s, info)
    return make
