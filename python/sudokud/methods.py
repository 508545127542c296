# SPDX-License-Identifier: ISC
"""
The methods every client has, written once: each makes its request
(requests.py) and hands it to the client's ``_run`` (one request, its
value) or ``_batch`` (an iterable pipelined, the values in order).  The
sync Client and Pool run them and return the value; the asyncio Client
and Pool return a coroutine (``_batch``: an async iterator).  verbs.py
gives each its types for each kind of client.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional, Protocol, Tuple, Union

from . import replies as R
from . import requests as Q
from .checks import check_window
from .wire import DEFAULT_WINDOW, Make, Req

Clues = Union[None, int, Tuple[int, int]]


class Runner(Protocol):
    """What a client does with a request, or a batch of them."""

    def _run(self, req: Req) -> Any: ...

    def _batch(self, items: Iterable[Any], make: Make, window: int,
               errors: bool) -> Any: ...


def _many(self: Runner, items: Iterable[Any], make: Make, window: int,
          errors: bool) -> Any:
    check_window(window)
    return self._batch(items, make, window, errors)


# -- verbs without a solver ----------------------------------------------
def ping(self: Runner) -> Any:
    """PING; raises unless the server answers PONG."""
    return self._run(Q.simple("PING", R.pong))


def version(self: Runner) -> Any:
    """The server's version."""
    return self._run(Q.simple("VERSION", R.version))


def hello(self: Runner) -> Any:
    """HELLO: server, version, proto, verbs, options, the limits of
    the server's configuration and (a server with AUTH) auth, as a
    :class:`Hello` dict: the numbers (proto, the limits) ints, the rest
    strs (``auth``: ``required`` or ``none``)."""
    return self._run(Q.simple("HELLO", R.hello))


def stats(self: Runner) -> Any:
    """STATS as a dict: a count or a number of microseconds an int, a
    value with a point a float, any other (``version``) a str."""
    return self._run(Q.simple("STATS", R.stats))


def request(self: Runner, line: str) -> Any:
    """Send one request line, return its reply as it is (an ``ERR`` line
    too): the protocol, unparsed.  The reply of a verb of several lines
    (STATS, HELP, PATH, SOLUTIONS, SLOWLOG GET, CLIENT LIST) is read
    whole, so that the next reply is the next request's: its lines
    joined by LF, the last ``END`` (``END guesses=... us=...`` with
    effort=1) or, for SOLUTIONS, the ``ERR`` that cut the list short;
    one ``ERR`` line when the request was refused.  The line must be
    printable ASCII and blanks, and not blank (a blank line gets no
    reply)."""
    return self._run(Q.raw(line))


# -- verbs that solve ------------------------------------------------------
def solve(self: Runner, puzzle: str, *, budget: Optional[int] = None,
          deadline: Optional[float] = None, effort: bool = False) -> Any:
    """Any solution of the puzzle (81 characters, ``1``-``9`` for
    givens, ``0`` or ``.`` for blanks; or 729 characters of pencil
    marks, a solution then one of them in each cell), as 81 digits.
    So do lexmin, count, solutions and analyze."""
    return self._run(Q.solver("SOLVE", budget, deadline, effort)(puzzle))


def lexmin(self: Runner, puzzle: str, *, budget: Optional[int] = None,
           deadline: Optional[float] = None, effort: bool = False) -> Any:
    """The lexicographically smallest solution."""
    return self._run(Q.solver("LEXMIN", budget, deadline, effort)(puzzle))


def count(self: Runner, puzzle: str, limit: int = 2, *,
          budget: Optional[int] = None, deadline: Optional[float] = None,
          effort: bool = False) -> Any:
    """How many solutions, counted up to limit (a result equal to limit
    means at least that many)."""
    return self._run(Q.counter(limit, budget, deadline, effort)(puzzle))


def analyze(self: Runner, puzzle: str, *, budget: Optional[int] = None,
            deadline: Optional[float] = None, effort: bool = False) -> Any:
    """Status, clues, effort and, for a unique puzzle, solution and
    rating, in one round trip: an :class:`Analysis`."""
    return self._run(Q.analyzer(budget, deadline, effort)(puzzle))


def solutions(self: Runner, puzzle: str, n: int, *,
              budget: Optional[int] = None,
              deadline: Optional[float] = None,
              effort: bool = False) -> Any:
    """Up to n solutions of the puzzle, smallest first (the first is
    lexmin's, each next one the next larger), as a list of 81-digit
    strings; fewer when it has fewer, none when it has none.  When the
    budget or the deadline cuts the search short, the :class:`Error`
    raised holds the solutions found by then in ``partial``.  With
    effort, an :class:`Effort` of the list."""
    return self._run(Q.lister(n, budget, deadline, effort)(puzzle))


def rate(self: Runner, puzzle: str, *, budget: Optional[int] = None,
         deadline: Optional[float] = None, effort: bool = False) -> Any:
    """How hard the puzzle is for a person: a :class:`Rating`."""
    return self._run(Q.rater(budget, deadline, effort)(puzzle))


def hint(self: Runner, puzzle: str, grid: Optional[str] = None, *,
         budget: Optional[int] = None, deadline: Optional[float] = None,
         effort: bool = False) -> Any:
    """The next logical step from grid (81 cells, or 729 characters of
    pencil marks; None: the puzzle itself): a :class:`Hint`, or None
    when every cell is filled."""
    return self._run(Q.hinter(budget, deadline, effort)((puzzle, grid)))


def generate(self: Runner, level: Optional[str] = None,
             seed: Optional[int] = None, *, info: bool = False,
             symmetry: Optional[str] = None, clues: Clues = None,
             pattern: Optional[str] = None, budget: Optional[int] = None,
             deadline: Optional[float] = None, effort: bool = False) -> Any:
    """A new puzzle of level (``easy`` .. ``extreme``; None: the server's
    default, ``medium``), the same for the same seed.  Its shape:
    ``symmetry`` (one of :data:`SYMMETRIES`), ``clues`` (a number of
    givens, or a (low, high) pair), ``pattern`` (81 cells, ``x`` for a
    given, ``.`` for a blank).  With info or a deadline, however the
    deadline falls, a :class:`Generated`: the puzzle, its level (the
    one asked, or the nearest made by the deadline), with info the seed
    that makes it again (else None); without either, the puzzle (a
    str).  A clue ceiling or a pattern that nothing met by the deadline
    raises :class:`Error` ``deadline``."""
    return self._run(Q.generator(level, info, symmetry, clues, pattern,
                                 budget, deadline, effort)(seed))


# -- the toolbox -------------------------------------------------------------
def canon(self: Runner, puzzle: str) -> Any:
    """The canonical (minlex) form of the puzzle, ``.`` for blanks, and
    its number of automorphisms: two puzzles are equivalent exactly when
    their forms are equal."""
    return self._run(Q.canoner()(puzzle))


def shuffle(self: Runner, puzzle: str, seed: Optional[int] = None, *,
            info: bool = False) -> Any:
    """An equivalent puzzle, the same for the same seed (None: the
    server picks one; info returns a :class:`Seeded` naming it)."""
    return self._run(Q.seeder("SHUFFLE", seed, info, None, None,
                              False)((0, puzzle)))


def minimize(self: Runner, puzzle: str, seed: Optional[int] = None, *,
             info: bool = False, budget: Optional[int] = None,
             deadline: Optional[float] = None, effort: bool = False) -> Any:
    """The puzzle (one solution) with givens removed, in an order drawn
    from the seed, until none can go."""
    return self._run(Q.seeder("MINIMIZE", seed, info, budget, deadline,
                              effort)((0, puzzle)))


def constrain(self: Runner, puzzle: str, seed: Optional[int] = None, *,
              info: bool = False, budget: Optional[int] = None,
              deadline: Optional[float] = None,
              effort: bool = False) -> Any:
    """The puzzle with givens added, from a solution drawn from the
    seed, until it has exactly one solution."""
    return self._run(Q.seeder("CONSTRAIN", seed, info, budget, deadline,
                              effort)((0, puzzle)))


def path(self: Runner, puzzle: str, grid: Optional[str] = None, *,
         budget: Optional[int] = None,
         deadline: Optional[float] = None) -> Any:
    """The whole logical solution from grid (as :meth:`hint` takes it;
    None: the puzzle), every step applied before the next: a
    :class:`Path`."""
    return self._run(Q.pather(budget, deadline)((puzzle, grid)))


# -- pipelined batches -----------------------------------------------------
# Each sends its requests with at most window in flight and yields each
# value in input order; an Error in its place with errors (an
# InputError for an item refused before it was sent), else raised.

def request_many(self: Runner, lines: Iterable[str], *,
                 window: int = DEFAULT_WINDOW, errors: bool = False) -> Any:
    """request() of each line, pipelined: each reply as it came (an
    ``ERR`` line too), in order; a line that cannot go out is an
    :class:`InputError`, in its place with errors."""
    return _many(self, lines, Q.raw, window, errors)


def solve_many(self: Runner, puzzles: Iterable[str], *,
               budget: Optional[int] = None,
               deadline: Optional[float] = None, effort: bool = False,
               window: int = DEFAULT_WINDOW, errors: bool = False) -> Any:
    """solve() of each puzzle, pipelined: the solutions in input order.
    With errors, an :class:`Error` takes the place of a puzzle's
    solution instead of being raised (an :class:`InputError` for a
    puzzle refused before sending)."""
    return _many(self, puzzles, Q.solver("SOLVE", budget, deadline, effort),
                 window, errors)


def lexmin_many(self: Runner, puzzles: Iterable[str], *,
                budget: Optional[int] = None,
                deadline: Optional[float] = None, effort: bool = False,
                window: int = DEFAULT_WINDOW, errors: bool = False) -> Any:
    """lexmin() of each puzzle, pipelined, in input order."""
    return _many(self, puzzles, Q.solver("LEXMIN", budget, deadline,
                                         effort), window, errors)


def count_many(self: Runner, puzzles: Iterable[str], limit: int = 2, *,
               budget: Optional[int] = None,
               deadline: Optional[float] = None, effort: bool = False,
               window: int = DEFAULT_WINDOW, errors: bool = False) -> Any:
    """count() of each puzzle, pipelined, in input order."""
    return _many(self, puzzles, Q.counter(limit, budget, deadline, effort),
                 window, errors)


def analyze_many(self: Runner, puzzles: Iterable[str], *,
                 budget: Optional[int] = None,
                 deadline: Optional[float] = None, effort: bool = False,
                 window: int = DEFAULT_WINDOW, errors: bool = False) -> Any:
    """analyze() of each puzzle, pipelined, in input order."""
    return _many(self, puzzles, Q.analyzer(budget, deadline, effort),
                 window, errors)


def solutions_many(self: Runner, puzzles: Iterable[str], n: int, *,
                   budget: Optional[int] = None,
                   deadline: Optional[float] = None, effort: bool = False,
                   window: int = DEFAULT_WINDOW,
                   errors: bool = False) -> Any:
    """solutions() of each puzzle, pipelined, in input order: each
    reply's lines read whole before the next."""
    return _many(self, puzzles, Q.lister(n, budget, deadline, effort),
                 window, errors)


def rate_many(self: Runner, puzzles: Iterable[str], *,
              budget: Optional[int] = None,
              deadline: Optional[float] = None, effort: bool = False,
              window: int = DEFAULT_WINDOW, errors: bool = False) -> Any:
    """rate() of each puzzle, pipelined, in input order."""
    return _many(self, puzzles, Q.rater(budget, deadline, effort), window,
                 errors)


def hint_many(self: Runner, puzzles: Iterable[str], *,
              budget: Optional[int] = None,
              deadline: Optional[float] = None, effort: bool = False,
              window: int = DEFAULT_WINDOW, errors: bool = False) -> Any:
    """hint() of each puzzle (from its givens), pipelined."""
    return _many(self, puzzles, Q.hinter(budget, deadline, effort), window,
                 errors)


def generate_many(self: Runner, seeds: Iterable[Optional[int]],
                  level: Optional[str] = "medium", *, info: bool = False,
                  symmetry: Optional[str] = None, clues: Clues = None,
                  pattern: Optional[str] = None,
                  budget: Optional[int] = None,
                  deadline: Optional[float] = None, effort: bool = False,
                  window: int = DEFAULT_WINDOW,
                  errors: bool = False) -> Any:
    """generate(level, seed) of each seed, pipelined, in order."""
    return _many(self, seeds, Q.generator(level, info, symmetry, clues,
                                          pattern, budget, deadline,
                                          effort), window, errors)


def canon_many(self: Runner, puzzles: Iterable[str], *,
               window: int = DEFAULT_WINDOW, errors: bool = False) -> Any:
    """canon() of each puzzle, pipelined, in input order."""
    return _many(self, puzzles, Q.canoner(), window, errors)


def shuffle_many(self: Runner, puzzles: Iterable[str],
                 seed: Optional[int] = None, *, info: bool = False,
                 window: int = DEFAULT_WINDOW, errors: bool = False) -> Any:
    """shuffle() of each puzzle, pipelined, in input order: the seeds
    seed, seed + 1, ... (modulo 2**64, as sudokuc --seed numbers them;
    None: the server's)."""
    return _many(self, enumerate(puzzles), Q.seeder(
        "SHUFFLE", seed, info, None, None, False), window, errors)


def minimize_many(self: Runner, puzzles: Iterable[str],
                  seed: Optional[int] = None, *, info: bool = False,
                  budget: Optional[int] = None,
                  deadline: Optional[float] = None, effort: bool = False,
                  window: int = DEFAULT_WINDOW,
                  errors: bool = False) -> Any:
    """minimize() of each puzzle, pipelined, seeds as shuffle_many."""
    return _many(self, enumerate(puzzles), Q.seeder(
        "MINIMIZE", seed, info, budget, deadline, effort), window, errors)


def constrain_many(self: Runner, puzzles: Iterable[str],
                   seed: Optional[int] = None, *, info: bool = False,
                   budget: Optional[int] = None,
                   deadline: Optional[float] = None, effort: bool = False,
                   window: int = DEFAULT_WINDOW,
                   errors: bool = False) -> Any:
    """constrain() of each puzzle, pipelined, seeds as shuffle_many."""
    return _many(self, enumerate(puzzles), Q.seeder(
        "CONSTRAIN", seed, info, budget, deadline, effort), window, errors)


def path_many(self: Runner, puzzles: Iterable[str], *,
              budget: Optional[int] = None,
              deadline: Optional[float] = None,
              window: int = DEFAULT_WINDOW, errors: bool = False) -> Any:
    """path() of each puzzle (from its givens), pipelined, in input
    order: each reply's lines read whole before the next."""
    return _many(self, puzzles, Q.pather(budget, deadline), window, errors)
