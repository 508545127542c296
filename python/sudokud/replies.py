# SPDX-License-Identifier: ISC
"""
The values the client returns, and the parsers of the replies they come
from.  A parser raises ValueError (or KeyError, IndexError) for a reply
a version 2 sudokud would not send to that request -- of the wrong
shape, or an answer that cheap checks show wrong -- which the client
raises as :class:`ProtocolError`.  Those of an answer know the request:
``solution(puzzle)`` is the parser of SOLVE's reply to that puzzle.
"""

import re
import sys
from typing import (Any, Callable, Dict, Generic, List, NamedTuple,
                    Optional, Tuple, TypedDict, TypeVar, Union)

from .checks import LEVELS, check_grid, check_solution, filled, givens

#: The level of a GENERATE that names none (doc/protocol.md).
DEFAULT_LEVEL = "medium"


class Rating(NamedTuple):
    """RATE's answer: ``easy`` .. ``extreme``, the score (1.0-5.9), and
    the hardest technique needed."""
    level: str
    score: float
    hardest: str


class Action(NamedTuple):
    """One action of a hint: place ``digit`` at ``cell`` (``rRcC``), or
    eliminate it there; ``row`` and ``col`` count from 1."""
    cell: str
    row: int
    col: int
    digit: int
    place: bool


class Hint(NamedTuple):
    """HINT's next step: the technique, what it does, and why."""
    technique: str
    actions: List[Action]
    text: str


class Analysis(NamedTuple):
    """ANALYZE's answer.  ``status`` is ``unique``, ``multiple`` or
    ``nosolution``; the solution and rating are set for a unique puzzle
    only."""
    status: str
    clues: int
    guesses: int
    solution: Optional[str] = None
    level: Optional[str] = None
    score: Optional[float] = None
    hardest: Optional[str] = None


class Generated(NamedTuple):
    """GENERATE's answer with ``info=True`` (the puzzle, the seed that
    makes it again, its level), or with a deadline that came before a
    puzzle of the level asked (the nearest one made, its level; the seed
    None)."""
    puzzle: str
    seed: Optional[int]
    level: str


class Seeded(NamedTuple):
    """SHUFFLE's, MINIMIZE's or CONSTRAIN's answer with ``info=True``:
    the puzzle and the seed that makes it again."""
    puzzle: str
    seed: int


class Path(NamedTuple):
    """PATH's answer: every step, as :meth:`Client.hint` gives them;
    the rating of the start (as RATE's); the steps of each technique
    used, by name; and whether logic ended before the grid was done
    (an extreme puzzle's dead end, where trial and error is needed)."""
    steps: List[Hint]
    rating: Rating
    used: Dict[str, int]
    dead_end: bool


V = TypeVar("V", covariant=True)

if sys.version_info >= (3, 11):
    class Effort(NamedTuple, Generic[V]):
        """What a reply cost, with ``effort=True``: ``value`` is what
        the method returns otherwise (``Effort[str]`` of solve());
        ``guesses`` made and microseconds of solving."""
        value: V
        guesses: int
        us: int
else:                   # a NamedTuple is generic from Python 3.11 on
    class Effort(NamedTuple):
        value: Any
        guesses: int
        us: int


#: A value of HELLO or STATS: a decimal number is an int, one with a
#: point a float, anything else (a version, a list) a str.
Value = Union[int, float, str]


class Hello(TypedDict, total=False):
    """HELLO's tokens: the numbers (proto and the limits) ints, the rest
    strs (lists as the server writes them, comma-separated); ``auth``
    (``required`` or ``none``) only from servers that have AUTH.  A key
    a newer server adds is there too, its value as :data:`Value`
    says."""
    server: str
    version: str
    proto: int
    verbs: str
    options: str
    levels: str
    symmetries: str
    max_connections: int
    idle_timeout: int
    write_timeout: int
    max_line: int
    output_high: int
    budget: int
    count_max: int
    auth: str


Parse = Callable[[Any], Any]
_NUM = re.compile(r"0|[1-9][0-9]{0,19}")
_WORD = re.compile(r"[a-z][a-z0-9_]*")
_EFFORT = re.compile(r"(.*?)(?: guesses=([0-9]{1,20}))? us=([0-9]{1,20})")
#: An ERR text's effort tokens.
EFFORT_TAIL = re.compile(r"( guesses=\d+)? us=\d+$")


def num(s: str, hi: Optional[int] = None) -> int:
    """A decimal number as sudokud writes one (no sign, no blank, no
    leading zero), at most hi."""
    if not _NUM.fullmatch(s) or (hi is not None and int(s) > hi):
        raise ValueError("not a number%s: %r"
                         % ("" if hi is None else " to %d" % hi, s[:40]))
    return int(s)


def word(s: str) -> str:
    if not _WORD.fullmatch(s):
        raise ValueError("not a word: %r" % s[:40])
    return s


def effort_of(line: str, effort: bool, parse: Parse,
              guesses: bool = True) -> Any:
    """line parsed, and with effort its guesses= (but for ANALYZE,
    whose answer has its own) and us= peeled off."""
    if not effort:
        return parse(line)
    m = _EFFORT.fullmatch(line)
    if not m or bool(m.group(2)) != guesses:
        raise ValueError("no effort tokens: %r" % line[-60:])
    value = parse(m.group(1))
    g = value.guesses if isinstance(value, Analysis) else int(m.group(2))
    return Effort(value, g, int(m.group(3)))


class Solution:
    """SOLVE's and LEXMIN's answer: a solution of the puzzle (called on
    the reply's line, or checked with others at once: wire.values())."""
    __slots__ = ("puzzle",)

    def __init__(self, puzzle: str):
        self.puzzle = puzzle

    def __call__(self, line: str) -> str:
        return check_solution(self.puzzle, line)


solution = Solution


def count(limit: int) -> Parse:
    """COUNT's answer: 0 to the limit."""
    return lambda line: num(line, limit)


_SCORE = re.compile(r"[1-5]\.[0-9]")


def rating(line: str) -> Rating:
    level, score, hardest = line.split(" ")
    if level not in LEVELS or not _SCORE.fullmatch(score) or \
            int(score[0]) != LEVELS.index(level) + 1:
        raise ValueError("not a rating: %r" % line[:60])
    return Rating(level, float(score), word(hardest))


_ACTION = re.compile(r"r([1-9])c([1-9])([=-])([1-9])")


def hint_of(grid: Optional[str]) -> Callable[[str], Optional[Hint]]:
    """HINT's answer from grid (None: no check of the cells): a step
    whose placements are on cells not filled yet, or "solved" of a grid
    all filled."""
    def parse(line: str) -> Optional[Hint]:
        if line == "solved":
            if grid is not None and not filled(grid):
                raise ValueError("'solved', but the grid has blanks")
            return None
        technique, acts, text = line.split(" ", 2)
        fixed = givens(grid) if grid is not None else {}
        actions = []
        for a in acts.split(","):
            m = _ACTION.fullmatch(a)
            if not m:
                raise ValueError("not an action: %r" % a[:20])
            r, c, d = int(m.group(1)), int(m.group(2)), int(m.group(4))
            place = m.group(3) == "="
            if place and (r - 1) * 9 + c - 1 in fixed:
                raise ValueError("a placement on a filled cell: " + a)
            actions.append(Action(a[:4], r, c, d, place))
        return Hint(word(technique), actions, text)
    return parse


hint = hint_of(None)


def analysis_of(puzzle: str) -> Parse:
    """ANALYZE's answer of the puzzle: its clues counted, a unique
    puzzle's solution a solution of it."""
    def parse(line: str) -> Analysis:
        toks = [t.split("=", 1) for t in line.split(" ")]
        keys = [k for k, _ in toks]
        kv = dict(toks)
        unique = kv.get("status") == "unique"
        want = ["status", "clues", "guesses"] + (
            ["solution", "level", "score", "hardest"] if unique else [])
        if keys != want or kv["status"] not in ("unique", "multiple",
                                                "nosolution"):
            raise ValueError("not an analysis: %r" % line[:100])
        clues = num(kv["clues"], 81)
        if len(puzzle) == 81 and clues != len(givens(puzzle)):
            raise ValueError("clues=%d, but %d givens"
                             % (clues, len(givens(puzzle))))
        a = Analysis(kv["status"], clues, num(kv["guesses"]))
        if not unique:
            return a
        r = rating("%s %s %s" % (kv["level"], kv["score"], kv["hardest"]))
        return a._replace(solution=check_solution(puzzle, kv["solution"]),
                          level=r.level, score=r.score, hardest=r.hardest)
    return parse


def _tokens(tokens: List[str], allowed: Tuple[str, ...]) -> Dict[str, str]:
    kv = dict(t.split("=", 1) for t in tokens)
    if len(kv) != len(tokens) or not set(kv) <= set(allowed):
        raise ValueError("unexpected tokens: %r" % " ".join(tokens)[:80])
    return kv


def generated(level: Optional[str] = None, seed: Optional[int] = None,
              info: bool = False, late: bool = True,
              clues: Optional[Tuple[int, int]] = None,
              pattern: Optional[str] = None) -> Parse:
    """GENERATE's answer to a request of that level, seed and shape: a
    puzzle of 17 givens or more, with info its seed= and level=; late
    (a deadline was given): level= alone, a nearest level.  With info
    or late a Generated (its level the one asked when the reply has
    none), else the puzzle."""
    def parse(line: str) -> Union[str, Generated]:
        puzzle, *tokens = line.split(" ")
        n = len(givens(check_grid(puzzle)))
        if n < 17 or (clues and not clues[0] <= n <= clues[1]):
            raise ValueError("a puzzle of %d givens" % n)
        if pattern is not None and any(
                (ch == ".") != (pattern[i] in ".0")
                for i, ch in enumerate(puzzle)):
            raise ValueError("givens not the pattern's: " + puzzle)
        if not tokens and not info:
            return Generated(puzzle, None, level or DEFAULT_LEVEL) \
                if late else puzzle
        kv = _tokens(tokens, ("seed", "level") if info else ("level",))
        if info and "seed" not in kv or (not info and not late):
            raise ValueError("unexpected tokens: %r" % line[82:])
        got = kv["level"]
        if got not in LEVELS or (level and got != level and not late):
            raise ValueError("level=%s" % got[:20])
        s = num(kv["seed"]) if "seed" in kv else None
        if seed is not None and s is not None and s != seed:
            raise ValueError("seed=%d, not %d" % (s, seed))
        return Generated(puzzle, s, got)
    return parse


_generated = generated(late=True)


def seeded(puzzle: str, verb: str, seed: Optional[int],
           info: bool) -> Parse:
    """SHUFFLE's, MINIMIZE's or CONSTRAIN's answer: a puzzle with as
    many givens (SHUFFLE), some of them (MINIMIZE), all and more
    (CONSTRAIN); with info its seed, the one asked if any."""
    def parse(line: str) -> Union[str, Seeded]:
        out, *tokens = line.split(" ")
        mine, theirs = givens(puzzle), givens(check_grid(out))
        if verb == "SHUFFLE":
            ok = len(mine) == len(theirs)
        else:
            small, big = (theirs, mine) if verb == "MINIMIZE" else \
                (mine, theirs)
            ok = all(big.get(i) == d for i, d in small.items())
        if not ok or bool(tokens) != info:
            raise ValueError("not a %s of the puzzle: %r"
                             % (verb, line[:100]))
        if not info:
            return out
        s = num(_tokens(tokens, ("seed",))["seed"])
        if seed is not None and s != seed:
            raise ValueError("seed=%d, not %d" % (s, seed))
        return Seeded(out, s)
    return parse


def canon_of(puzzle: str) -> Parse:
    """CANON's answer: a form of as many givens, its automorphisms (at
    most the 3359232 transformations)."""
    def parse(line: str) -> Tuple[str, int]:
        form, autos = line.split(" ")
        if len(givens(check_grid(form))) != len(givens(puzzle)):
            raise ValueError("a form of other givens: " + form)
        n = num(autos, 3359232)
        if n < 1:
            raise ValueError("0 automorphisms")
        return form, n
    return parse


def solutions(puzzle: str, n: int, effort: bool) -> Parse:
    """SOLUTIONS' lines: at most n, each a solution of the puzzle, each
    larger than the one before; the last END (with effort ``END
    guesses= us=``); or, for partial=, those before an ERR."""
    def check(sols: List[str]) -> List[str]:
        if len(sols) > n:
            raise ValueError("%d solutions of %d" % (len(sols), n))
        for i, s in enumerate(sols):
            check_solution(puzzle, s)
            if i and s <= sols[i - 1]:
                raise ValueError("solutions not increasing")
        return sols

    def parse(lines: List[str]) -> Any:
        if not effort:
            return check(lines)
        *sols, end = lines
        return effort_of(end, True, lambda e: check(sols) if e == "END"
                         else int("x"))
    parse.partial = check       # type: ignore[attr-defined]
    return parse


_FLOAT = re.compile(r"-?[0-9]{1,20}\.[0-9]{1,20}")
_STRS = frozenset(Hello.__annotations__) - frozenset(
    k for k, t in Hello.__annotations__.items() if t in (int, "int"))


def value(s: str) -> Value:
    """A value of HELLO or STATS as :data:`Value` says."""
    if _NUM.fullmatch(s):
        return int(s)
    if _FLOAT.fullmatch(s):
        return float(s)
    return s


def stats(lines: List[str]) -> Dict[str, Value]:
    """STATS' lines, "STAT <name> <value>", as a dict, each value an
    int, a float or (the version) a str."""
    out: Dict[str, Value] = {}
    for ln in lines:
        stat, name, v = ln.split(" ", 2)
        if stat != "STAT":
            raise ValueError(ln[:60])
        out[word(name)] = value(v)
    return out


def path(lines: List[str]) -> Path:
    """PATH's lines: steps as HINT's, maybe a dead end, a summary of
    RATE's words and each technique's steps, counted right."""
    *steps, summary = lines
    dead = bool(steps) and steps[-1].startswith("nostep ")
    hints: List[Hint] = []
    for ln in steps[:-1] if dead else steps:
        h = hint(ln)
        if h is None:
            raise ValueError("'solved' in a path")
        hints.append(h)
    words = summary.split(" ")
    used = {word(k): num(v) for k, v in (w.split("=") for w in words[3:])}
    counted: Dict[str, int] = {}
    for h in hints:
        counted[h.technique] = counted.get(h.technique, 0) + 1
    if counted != used:
        raise ValueError("the summary counts other steps: " + summary[:80])
    return Path(hints, rating(" ".join(words[:3])), used, dead)


def hello(line: str) -> Hello:
    """HELLO's line as a Hello: server=sudokud, proto a number, auth
    required or none if there; the numbers of Hello ints (num: no sign,
    no leading zero), its other keys strs, any other key a Value."""
    words = line.split(" ")
    if words[0] != "HELLO":
        raise ValueError(line[:40])
    kv = dict(w.split("=", 1) for w in words[1:])
    if kv.get("server") != "sudokud" or "proto" not in kv:
        raise ValueError("not a sudokud: %r" % line[:60])
    if kv.get("auth", "none") not in ("none", "required"):
        raise ValueError("auth=%s" % kv["auth"][:20])
    out: Dict[str, Value] = {k: v if k in _STRS else
                             num(v) if k in Hello.__annotations__ else
                             value(v) for k, v in kv.items()}
    return out              # type: ignore[return-value]


def version(line: str) -> str:
    verb, v = line.split(" ")
    if verb != "VERSION":
        raise ValueError(line[:40])
    return v


def pong(line: str) -> None:
    if line != "PONG":
        raise ValueError(line[:40])
