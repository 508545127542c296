# SPDX-License-Identifier: ISC
"""
The types of the methods, for a checker (mypy --strict): each shape of
signature is a Protocol written once, generic in what its overloads
return, so that the sync clients (:class:`SyncVerbs`: ``solve(p)`` a
str, ``solve(p, effort=True)`` an ``Effort[str]``) and the asyncio ones
(:class:`AsyncVerbs`: the same, awaited) declare each method in one
line, with the one body methods.py has.  The signatures here and there
agree (tests/e2e/python_untrusted.py compares them).
"""

from __future__ import annotations

from typing import (Any, AsyncIterator, Callable, Coroutine, Dict, Iterable,
                    Iterator, List, Literal, Optional, Protocol, Tuple,
                    TypeVar, Union, overload)

from . import methods as M
from .replies import (Analysis, Effort, Generated, Hello, Hint, Path,
                      Rating, Seeded, Value)

A = TypeVar("A", covariant=True)
B = TypeVar("B", covariant=True)
C = TypeVar("C", covariant=True)
D = TypeVar("D", covariant=True)
X = TypeVar("X", covariant=True)
T = TypeVar("T")

#: What an asyncio client's method returns: a coroutine of the value.
Co = Coroutine[Any, Any, T]
Clues = Union[None, int, Tuple[int, int]]
_I = Optional[int]
_F = Optional[float]
_S = Optional[str]


class Nullary(Protocol[A]):
    def __call__(self) -> A: ...


class Line(Protocol[A]):
    def __call__(self, line: str) -> A: ...


class Canon(Protocol[A]):
    def __call__(self, puzzle: str) -> A: ...


class Solver(Protocol[A, B]):
    """solve, lexmin, analyze, rate: effort=True gives B."""
    @overload
    def __call__(self, puzzle: str, *, budget: _I = ..., deadline: _F = ...,
                 effort: Literal[False] = ...) -> A: ...
    @overload
    def __call__(self, puzzle: str, *, budget: _I = ..., deadline: _F = ...,
                 effort: Literal[True]) -> B: ...
    @overload
    def __call__(self, puzzle: str, *, budget: _I = ..., deadline: _F = ...,
                 effort: bool) -> Union[A, B]: ...


class Counter(Protocol[A, B]):
    @overload
    def __call__(self, puzzle: str, limit: int = ..., *, budget: _I = ...,
                 deadline: _F = ..., effort: Literal[False] = ...) -> A: ...
    @overload
    def __call__(self, puzzle: str, limit: int = ..., *, budget: _I = ...,
                 deadline: _F = ..., effort: Literal[True]) -> B: ...
    @overload
    def __call__(self, puzzle: str, limit: int = ..., *, budget: _I = ...,
                 deadline: _F = ..., effort: bool) -> Union[A, B]: ...


class Lister(Protocol[A, B]):
    @overload
    def __call__(self, puzzle: str, n: int, *, budget: _I = ...,
                 deadline: _F = ..., effort: Literal[False] = ...) -> A: ...
    @overload
    def __call__(self, puzzle: str, n: int, *, budget: _I = ...,
                 deadline: _F = ..., effort: Literal[True]) -> B: ...
    @overload
    def __call__(self, puzzle: str, n: int, *, budget: _I = ...,
                 deadline: _F = ..., effort: bool) -> Union[A, B]: ...


class Hinter(Protocol[A, B]):
    @overload
    def __call__(self, puzzle: str, grid: _S = ..., *, budget: _I = ...,
                 deadline: _F = ..., effort: Literal[False] = ...) -> A: ...
    @overload
    def __call__(self, puzzle: str, grid: _S = ..., *, budget: _I = ...,
                 deadline: _F = ..., effort: Literal[True]) -> B: ...
    @overload
    def __call__(self, puzzle: str, grid: _S = ..., *, budget: _I = ...,
                 deadline: _F = ..., effort: bool) -> Union[A, B]: ...


class Pather(Protocol[A]):
    def __call__(self, puzzle: str, grid: _S = ..., *, budget: _I = ...,
                 deadline: _F = ...) -> A: ...


class Shuffler(Protocol[A, B]):
    """shuffle: info=True gives B."""
    @overload
    def __call__(self, puzzle: str, seed: _I = ..., *,
                 info: Literal[False] = ...) -> A: ...
    @overload
    def __call__(self, puzzle: str, seed: _I = ..., *,
                 info: Literal[True]) -> B: ...
    @overload
    def __call__(self, puzzle: str, seed: _I = ..., *,
                 info: bool) -> Union[A, B]: ...


class Reducer(Protocol[A, B, C, D]):
    """minimize, constrain: A plain, B with effort, C with info, D with
    both."""
    @overload
    def __call__(self, puzzle: str, seed: _I = ..., *,
                 info: Literal[False] = ..., budget: _I = ...,
                 deadline: _F = ..., effort: Literal[False] = ...) -> A: ...
    @overload
    def __call__(self, puzzle: str, seed: _I = ..., *,
                 info: Literal[False] = ..., budget: _I = ...,
                 deadline: _F = ..., effort: Literal[True]) -> B: ...
    @overload
    def __call__(self, puzzle: str, seed: _I = ..., *, info: Literal[True],
                 budget: _I = ..., deadline: _F = ...,
                 effort: Literal[False] = ...) -> C: ...
    @overload
    def __call__(self, puzzle: str, seed: _I = ..., *, info: Literal[True],
                 budget: _I = ..., deadline: _F = ...,
                 effort: Literal[True]) -> D: ...
    @overload
    def __call__(self, puzzle: str, seed: _I = ..., *, info: bool,
                 budget: _I = ..., deadline: _F = ...,
                 effort: bool) -> Union[A, B, C, D]: ...


class Generator(Protocol[A, B, C, D, X]):
    """generate: A (a puzzle) without info and deadline, B with effort;
    C (a Generated) with info or a deadline, D with effort too; X when
    the flags are not known."""
    @overload
    def __call__(self, level: _S = ..., seed: _I = ..., *,
                 info: Literal[False] = ..., symmetry: _S = ...,
                 clues: Clues = ..., pattern: _S = ..., budget: _I = ...,
                 deadline: None = ..., effort: Literal[False] = ...) -> A: ...
    @overload
    def __call__(self, level: _S = ..., seed: _I = ..., *,
                 info: Literal[False] = ..., symmetry: _S = ...,
                 clues: Clues = ..., pattern: _S = ..., budget: _I = ...,
                 deadline: None = ..., effort: Literal[True]) -> B: ...
    @overload
    def __call__(self, level: _S = ..., seed: _I = ..., *,
                 info: Literal[True], symmetry: _S = ..., clues: Clues = ...,
                 pattern: _S = ..., budget: _I = ..., deadline: _F = ...,
                 effort: Literal[False] = ...) -> C: ...
    @overload
    def __call__(self, level: _S = ..., seed: _I = ..., *,
                 info: Literal[True], symmetry: _S = ..., clues: Clues = ...,
                 pattern: _S = ..., budget: _I = ..., deadline: _F = ...,
                 effort: Literal[True]) -> D: ...
    @overload
    def __call__(self, level: _S = ..., seed: _I = ..., *,
                 info: Literal[False] = ..., symmetry: _S = ...,
                 clues: Clues = ..., pattern: _S = ..., budget: _I = ...,
                 deadline: float, effort: Literal[False] = ...) -> C: ...
    @overload
    def __call__(self, level: _S = ..., seed: _I = ..., *,
                 info: Literal[False] = ..., symmetry: _S = ...,
                 clues: Clues = ..., pattern: _S = ..., budget: _I = ...,
                 deadline: float, effort: Literal[True]) -> D: ...
    @overload
    def __call__(self, level: _S = ..., seed: _I = ..., *, info: bool = ...,
                 symmetry: _S = ..., clues: Clues = ..., pattern: _S = ...,
                 budget: _I = ..., deadline: _F = ...,
                 effort: bool = ...) -> X: ...


# -- batches: I is Iterator[Any], or AsyncIterator[Any] ------------------
class SolverMany(Protocol[A]):
    """solve_many, lexmin_many, analyze_many, rate_many, hint_many."""
    def __call__(self, puzzles: Iterable[str], *, budget: _I = ...,
                 deadline: _F = ..., effort: bool = ..., window: int = ...,
                 errors: bool = ...) -> A: ...


class LineMany(Protocol[A]):
    def __call__(self, lines: Iterable[str], *, window: int = ...,
                 errors: bool = ...) -> A: ...


class CounterMany(Protocol[A]):
    def __call__(self, puzzles: Iterable[str], limit: int = ..., *,
                 budget: _I = ..., deadline: _F = ..., effort: bool = ...,
                 window: int = ..., errors: bool = ...) -> A: ...


class ListerMany(Protocol[A]):
    def __call__(self, puzzles: Iterable[str], n: int, *, budget: _I = ...,
                 deadline: _F = ..., effort: bool = ..., window: int = ...,
                 errors: bool = ...) -> A: ...


class GeneratorMany(Protocol[A]):
    def __call__(self, seeds: Iterable[Optional[int]], level: _S = ..., *,
                 info: bool = ..., symmetry: _S = ..., clues: Clues = ...,
                 pattern: _S = ..., budget: _I = ..., deadline: _F = ...,
                 effort: bool = ..., window: int = ...,
                 errors: bool = ...) -> A: ...


class CanonMany(Protocol[A]):
    def __call__(self, puzzles: Iterable[str], *, window: int = ...,
                 errors: bool = ...) -> A: ...


class ShufflerMany(Protocol[A]):
    def __call__(self, puzzles: Iterable[str], seed: _I = ..., *,
                 info: bool = ..., window: int = ...,
                 errors: bool = ...) -> A: ...


class ReducerMany(Protocol[A]):
    def __call__(self, puzzles: Iterable[str], seed: _I = ..., *,
                 info: bool = ..., budget: _I = ..., deadline: _F = ...,
                 effort: bool = ..., window: int = ...,
                 errors: bool = ...) -> A: ...


class PatherMany(Protocol[A]):
    def __call__(self, puzzles: Iterable[str], *, budget: _I = ...,
                 deadline: _F = ..., window: int = ...,
                 errors: bool = ...) -> A: ...


def _m(fn: Callable[..., Any]) -> Any:
    """A method of methods.py, typed by its declaration."""
    return fn


_Stats = Dict[str, Value]
_Canon = Tuple[str, int]
_Hint = Optional[Hint]
_It = Iterator[Any]
_AIt = AsyncIterator[Any]


class SyncVerbs:
    """The methods of the sync Client and Pool, with their types."""
    ping: Nullary[None] = _m(M.ping)
    version: Nullary[str] = _m(M.version)
    hello: Nullary[Hello] = _m(M.hello)
    stats: Nullary[_Stats] = _m(M.stats)
    request: Line[str] = _m(M.request)
    solve: Solver[str, Effort[str]] = _m(M.solve)
    lexmin: Solver[str, Effort[str]] = _m(M.lexmin)
    count: Counter[int, Effort[int]] = _m(M.count)
    analyze: Solver[Analysis, Effort[Analysis]] = _m(M.analyze)
    solutions: Lister[List[str], Effort[List[str]]] = _m(M.solutions)
    rate: Solver[Rating, Effort[Rating]] = _m(M.rate)
    hint: Hinter[_Hint, Effort[_Hint]] = _m(M.hint)
    generate: Generator[str, Effort[str], Generated, Effort[Generated],
                        Any] = _m(M.generate)
    canon: Canon[_Canon] = _m(M.canon)
    shuffle: Shuffler[str, Seeded] = _m(M.shuffle)
    minimize: Reducer[str, Effort[str], Seeded, Effort[Seeded]] = \
        _m(M.minimize)
    constrain: Reducer[str, Effort[str], Seeded, Effort[Seeded]] = \
        _m(M.constrain)
    path: Pather[Path] = _m(M.path)
    request_many: LineMany[_It] = _m(M.request_many)
    solve_many: SolverMany[_It] = _m(M.solve_many)
    lexmin_many: SolverMany[_It] = _m(M.lexmin_many)
    count_many: CounterMany[_It] = _m(M.count_many)
    analyze_many: SolverMany[_It] = _m(M.analyze_many)
    solutions_many: ListerMany[_It] = _m(M.solutions_many)
    rate_many: SolverMany[_It] = _m(M.rate_many)
    hint_many: SolverMany[_It] = _m(M.hint_many)
    generate_many: GeneratorMany[_It] = _m(M.generate_many)
    canon_many: CanonMany[_It] = _m(M.canon_many)
    shuffle_many: ShufflerMany[_It] = _m(M.shuffle_many)
    minimize_many: ReducerMany[_It] = _m(M.minimize_many)
    constrain_many: ReducerMany[_It] = _m(M.constrain_many)
    path_many: PatherMany[_It] = _m(M.path_many)


class AsyncVerbs:
    """The methods of the asyncio Client and Pool: each a coroutine of
    what the sync one returns; each ``*_many`` an async iterator."""
    ping: Nullary[Co[None]] = _m(M.ping)
    version: Nullary[Co[str]] = _m(M.version)
    hello: Nullary[Co[Hello]] = _m(M.hello)
    stats: Nullary[Co[_Stats]] = _m(M.stats)
    request: Line[Co[str]] = _m(M.request)
    solve: Solver[Co[str], Co[Effort[str]]] = _m(M.solve)
    lexmin: Solver[Co[str], Co[Effort[str]]] = _m(M.lexmin)
    count: Counter[Co[int], Co[Effort[int]]] = _m(M.count)
    analyze: Solver[Co[Analysis], Co[Effort[Analysis]]] = _m(M.analyze)
    solutions: Lister[Co[List[str]], Co[Effort[List[str]]]] = \
        _m(M.solutions)
    rate: Solver[Co[Rating], Co[Effort[Rating]]] = _m(M.rate)
    hint: Hinter[Co[_Hint], Co[Effort[_Hint]]] = _m(M.hint)
    generate: Generator[Co[str], Co[Effort[str]], Co[Generated],
                        Co[Effort[Generated]], Co[Any]] = _m(M.generate)
    canon: Canon[Co[_Canon]] = _m(M.canon)
    shuffle: Shuffler[Co[str], Co[Seeded]] = _m(M.shuffle)
    minimize: Reducer[Co[str], Co[Effort[str]], Co[Seeded],
                      Co[Effort[Seeded]]] = _m(M.minimize)
    constrain: Reducer[Co[str], Co[Effort[str]], Co[Seeded],
                       Co[Effort[Seeded]]] = _m(M.constrain)
    path: Pather[Co[Path]] = _m(M.path)
    request_many: LineMany[_AIt] = _m(M.request_many)
    solve_many: SolverMany[_AIt] = _m(M.solve_many)
    lexmin_many: SolverMany[_AIt] = _m(M.lexmin_many)
    count_many: CounterMany[_AIt] = _m(M.count_many)
    analyze_many: SolverMany[_AIt] = _m(M.analyze_many)
    solutions_many: ListerMany[_AIt] = _m(M.solutions_many)
    rate_many: SolverMany[_AIt] = _m(M.rate_many)
    hint_many: SolverMany[_AIt] = _m(M.hint_many)
    generate_many: GeneratorMany[_AIt] = _m(M.generate_many)
    canon_many: CanonMany[_AIt] = _m(M.canon_many)
    shuffle_many: ShufflerMany[_AIt] = _m(M.shuffle_many)
    minimize_many: ReducerMany[_AIt] = _m(M.minimize_many)
    constrain_many: ReducerMany[_AIt] = _m(M.constrain_many)
    path_many: PatherMany[_AIt] = _m(M.path_many)


#: The methods both kinds have, by name (the same set in each class).
NAMES = tuple(n for n in SyncVerbs.__dict__ if not n.startswith("_"))
