# SPDX-License-Identifier: ISC
"""
The client: one connection to a sudokud, a method per verb of its line
protocol (doc/protocol.md, version 2), replies parsed into Python
values, every ``ERR`` raised as :class:`Error`, and ``*_many`` methods
that pipeline a whole iterable with a bounded window of requests in
flight, answers in input order.

Standard library only; Python 3.9 and later.
"""

from __future__ import annotations

import collections
import math
import os
import re
import socket
from typing import (Any, Callable, Dict, Iterable, Iterator, List,
                    NamedTuple, Optional, Tuple, Union)

#: Where a client connects when given no address: $SUDOKUD_SOCKET (its
#: first entry), else the socket a system install listens on.
DEFAULT_SOCKET = "/run/sudokud.sock"

#: Requests in flight for the ``*_many`` methods: 256 puzzle requests are
#: about 21 KiB each way, far below the socket buffers, so neither side
#: ever blocks the other while the server always has work queued.
DEFAULT_WINDOW = 256

LEVELS = ("easy", "medium", "hard", "expert", "extreme")

#: What GENERATE's ``symmetry=`` takes (HELLO's ``symmetries=``).
SYMMETRIES = ("none", "rot180", "rot90", "mirror", "flip", "diagonal",
              "antidiagonal", "dihedral")


class Error(Exception):
    """An ``ERR <code> <text>`` reply: ``code`` is the stable word
    (``length``, ``nosolution``, ``budget``, ``deadline``, ...),
    ``text`` the words for people, ``request`` the line it answered,
    ``partial`` the lines that came before it in a reply cut short
    (SOLUTIONS: the solutions found before the budget or the deadline
    ran out), else empty."""

    def __init__(self, code: str, text: str, request: str = "",
                 partial: Optional[List[str]] = None):
        super().__init__("%s: %s" % (code, text) if text else code)
        self.code = code
        self.text = text
        self.request = request
        self.partial = partial or []


class ProtocolError(Exception):
    """The server sent something sudokud would not: not a sudokud, or
    a version that does not speak what was asked."""


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
    steps: List["Hint"]
    rating: "Rating"
    used: Dict[str, int]
    dead_end: bool


class Effort(NamedTuple):
    """What a reply cost, with ``effort=True``: ``value`` is what the
    method returns otherwise; ``guesses`` made and microseconds of
    solving."""
    value: Any
    guesses: int
    us: int


Address = Union[str, Tuple[str, int]]


def parse_address(address: Optional[Address]) -> Tuple[int, Any]:
    """(socket family, address) of ``"unix:/path"``, ``"/path"`` (any
    string with a ``/``), ``"host:port"``, ``"[v6]:port"`` or a
    ``(host, port)`` pair; None is $SUDOKUD_SOCKET or DEFAULT_SOCKET."""
    if address is None:
        env = os.environ.get("SUDOKUD_SOCKET", "")
        address = env.split(",")[0] or DEFAULT_SOCKET
    if isinstance(address, tuple):
        return socket.AF_INET6 if ":" in address[0] else socket.AF_INET, \
            address
    if address.startswith("unix:"):
        return socket.AF_UNIX, address[5:]
    if "/" in address:
        return socket.AF_UNIX, address
    if address.startswith("tcp:"):
        address = address[4:]
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError("%r is not unix:PATH, a path, or HOST:PORT"
                         % address)
    if host.startswith("[") and host.endswith("]"):
        return socket.AF_INET6, (host[1:-1], int(port))
    return socket.AF_INET, (host or "127.0.0.1", int(port))


def _options(budget: Optional[int], deadline: Optional[float],
             effort: bool, extra: str = "") -> str:
    """The options of a request: budget in guesses, deadline in
    seconds (sent as whole milliseconds, rounded up)."""
    out = extra
    if budget is not None:
        if budget < 1:
            raise ValueError("budget must be at least 1 guess")
        out += " budget=%d" % budget
    if deadline is not None:
        if deadline <= 0:
            raise ValueError("deadline must be more than 0 seconds")
        out += " deadline=%d" % max(1, math.ceil(deadline * 1000))
    if effort:
        out += " effort=1"
    return out


#: What SOLVE, LEXMIN, COUNT, SOLUTIONS and ANALYZE take: 81 cells, or
#: 729 characters of pencil marks (nine a cell, the digit while it is a
#: candidate, else ``.``).
_GIVENS = (81, 729)


def _check_cells(puzzle: str, sizes: Tuple[int, ...] = (81,)) -> str:
    if not isinstance(puzzle, str) or len(puzzle) not in sizes:
        raise ValueError("a puzzle is a string of %s characters"
                         % " or ".join(map(str, sizes)))
    return puzzle


def _effort(line: str, effort: bool,
            parse: Callable[[str], Any]) -> Any:
    """line parsed, and with effort its guesses= and us= peeled off."""
    if not effort:
        return parse(line)
    head, _, us = line.rpartition(" us=")
    guesses = 0
    if " guesses=" in head and not head.startswith("status="):
        head, _, g = head.rpartition(" guesses=")
        guesses = int(g)
    value = parse(head)
    if isinstance(value, Analysis):
        guesses = value.guesses
    return Effort(value, guesses, int(us))


_EFFORT_TAIL = re.compile(r"( guesses=\d+)? us=\d+$")


def _rating(line: str) -> Rating:
    level, score, hardest = line.split(" ")
    return Rating(level, float(score), hardest)


def _hint(line: str) -> Optional[Hint]:
    if line == "solved":
        return None
    technique, acts, text = line.split(" ", 2)
    actions = []
    for a in acts.split(","):
        actions.append(Action(a[:4], int(a[1]), int(a[3]), int(a[5]),
                              a[4] == "="))
    return Hint(technique, actions, text)


def _analysis(line: str) -> Analysis:
    kv = dict(tok.split("=", 1) for tok in line.split(" "))
    return Analysis(kv["status"], int(kv["clues"]), int(kv["guesses"]),
                    kv.get("solution"), kv.get("level"),
                    float(kv["score"]) if "score" in kv else None,
                    kv.get("hardest"))


def _generated(line: str) -> Union[str, Generated]:
    if " " not in line:
        return line
    puzzle, *tokens = line.split(" ")
    kv = dict(t.split("=", 1) for t in tokens)
    return Generated(puzzle, int(kv["seed"]) if "seed" in kv else None,
                     kv["level"])


def _seeded(line: str) -> Union[str, Seeded]:
    if " " not in line:
        return line
    puzzle, seed = line.split(" ")
    if not seed.startswith("seed="):
        raise ValueError(line)
    return Seeded(puzzle, int(seed[5:]))


def _canon(line: str) -> Tuple[str, int]:
    form, autos = line.split(" ")
    return form, int(autos)


def _count(n: int) -> str:
    """SOLUTIONS' n argument: at least 1 (the server's count_max is the
    most)."""
    if not isinstance(n, int) or n < 1:
        raise ValueError("n must be at least 1")
    return " %d" % n


def _solutions(effort: bool) -> Callable[[List[str]], Any]:
    """SOLUTIONS' lines parsed: the solutions, or with effort an
    :class:`Effort` of them from the last line, ``END guesses= us=``."""
    def parse(lines: List[str]) -> Any:
        sols = lines[:-1] if effort else lines
        if not all(len(s) == 81 and s.isdigit() for s in sols):
            raise ValueError(lines)
        if not effort:
            return list(sols)
        return _effort(lines[-1], True,
                       lambda end: sols if end == "END" else int(end))
    return parse


def _stats(lines: List[str]) -> Dict[str, str]:
    """STATS' lines, "STAT <name> <value>", as a dict."""
    return {ln.split(" ")[1]: ln.split(" ", 2)[2] for ln in lines}


# The requests whose reply is several lines (doc/protocol.md, Framing):
# by their verb, or their verb and its first argument.
_BLOCK_VERBS = frozenset(("STATS", "HELP", "PATH", "SOLUTIONS"))
_BLOCK_PAIRS = frozenset((("SLOWLOG", "GET"), ("CLIENT", "LIST")))


def _is_block(line: str) -> bool:
    """Is the reply to the request line several lines?"""
    words = line.upper().split()
    return bool(words) and (words[0] in _BLOCK_VERBS or
                            tuple(words[:2]) in _BLOCK_PAIRS)


def _path(lines: List[str]) -> Path:
    *steps, summary = lines
    dead = bool(steps) and steps[-1].startswith("nostep ")
    words = summary.split(" ")
    used = {k: int(v) for k, v in (w.split("=") for w in words[3:])}
    return Path([_hint(ln) for ln in (steps[:-1] if dead else steps)],
                _rating(" ".join(words[:3])), used, dead)


def _seed(seed: Optional[int]) -> str:
    """A request's seed argument, or none: the server picks one."""
    if seed is None:
        return ""
    if not 0 <= seed < 1 << 64:
        raise ValueError("seed must be from 0 to 2**64 - 1")
    return " %d" % seed


def _level(level: Optional[str]) -> str:
    """GENERATE's level argument, or none: the server's default."""
    if level is None:
        return ""
    if level not in LEVELS:
        raise ValueError("level must be one of " + ", ".join(LEVELS))
    return " " + level


def _shape(symmetry: Optional[str], clues: Union[None, int, Tuple[int, int]],
           pattern: Optional[str]) -> str:
    """GENERATE's shape options: symmetry=, clues= (N or (LO, HI)),
    pattern= (81 cells, ``x`` a given, ``.`` a blank)."""
    out = ""
    if symmetry is not None:
        if symmetry not in SYMMETRIES:
            raise ValueError("symmetry must be one of "
                             + ", ".join(SYMMETRIES))
        out += " symmetry=" + symmetry
    if clues is not None:
        lo, hi = (clues, clues) if isinstance(clues, int) else clues
        if not 17 <= lo <= hi <= 81:
            raise ValueError("clues must be from 17 to 81, low to high")
        out += " clues=%d-%d" % (lo, hi)
    if pattern is not None:
        out += " pattern=" + _check_cells(pattern)
    return out


class Client:
    """A connection to one sudokud.

    ``address``: ``"unix:/run/sudokud.sock"``, ``"/path.sock"``,
    ``"host:port"`` or ``(host, port)``; None: $SUDOKUD_SOCKET, else
    ``/run/sudokud.sock``.  ``timeout``: seconds any one socket
    operation may take (None: forever).  The connection is made at once
    and closed by :meth:`close` or at the end of a ``with`` block.  A
    client is for one thread at a time.

    Every method that solves takes the request options as keywords:
    ``budget`` (at most that many guesses; the server's ``budget`` is
    the most), ``deadline`` (seconds: ``ERR deadline`` if the request is
    not done that long after the server starts on it) and ``effort``
    (return an :class:`Effort`: the value, guesses and microseconds).
    """

    def __init__(self, address: Optional[Address] = None,
                 timeout: Optional[float] = 30.0):
        family, addr = parse_address(address)
        self.address = addr
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        try:
            self.sock.connect(addr)
        except OSError:
            self.sock.close()
            raise
        self._buf = b""
        self._pending: collections.deque = collections.deque()
        # The replies of an abandoned batch to skip: True for a reply of
        # several lines (PATH), False for one line.
        self._owed: collections.deque = collections.deque()

    # -- the connection -------------------------------------------------
    def close(self) -> None:
        """Close the connection (the server answers what it has)."""
        self.sock.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _send(self, lines: Iterable[str]) -> None:
        self.sock.sendall("".join(ln + "\n" for ln in lines).encode(
            "ascii"))

    def _fill(self) -> None:
        """Read what came; its whole lines join the pending ones."""
        data = self.sock.recv(262144)
        if not data:
            raise ConnectionError("the server closed the connection")
        *lines, self._buf = (self._buf + data).split(b"\n")
        self._pending.extend(lines)

    def _line(self) -> str:
        while not self._pending:
            self._fill()
        return self._pending.popleft().decode("ascii")

    def _lines(self, block: bool) -> List[str]:
        """The next reply's lines as they came: one, or with block up
        to and with the last, a line that is END or starts with "END "
        (effort's tokens) or "ERR " (one alone, or SOLUTIONS' cut)."""
        out = [self._line()]
        while block and out[-1].split(" ")[0] != "END" and \
                not out[-1].startswith("ERR "):
            out.append(self._line())
        return out

    def _reply(self, block: bool) -> Union[str, List[str]]:
        """The next reply: one line, or with block the lines up to END
        (not kept), or the one ERR line such a request gets instead.  A
        last line that says more is kept: SOLUTIONS' ERR after the
        solutions a budget let out, END with effort's tokens."""
        lines = self._lines(block)
        if not block or (len(lines) == 1 and lines[0].startswith("ERR ")):
            return lines[0]
        return lines[:-1] if lines[-1] == "END" else lines

    def _skip_owed(self) -> None:
        """The replies of a batch left before its end: read, dropped,
        so that the next reply is the next request's."""
        while self._owed:
            self._reply(self._owed[0])
            self._owed.popleft()

    @staticmethod
    def _value(request: str, reply: Union[str, List[str]],
               parse: Callable[[Any], Any], effort: bool) -> Any:
        last = reply[-1] if isinstance(reply, list) and reply else reply
        if isinstance(last, str) and last.startswith("ERR "):
            code, _, text = last[4:].partition(" ")
            if effort:
                text = _EFFORT_TAIL.sub("", text)
            raise Error(code, text, request,
                        reply[:-1] if isinstance(reply, list) else None)
        try:
            if isinstance(reply, list):
                return parse(reply)
            return _effort(reply, effort, parse)
        except (ValueError, KeyError, IndexError):
            raise ProtocolError("unexpected reply to %r: %r"
                                % (request[:40], reply[:100])) from None

    def request(self, line: str) -> str:
        """Send one request line, return its reply as it is (an ``ERR``
        line too): the protocol, unparsed.  The reply of a verb of
        several lines (STATS, HELP, PATH, SOLUTIONS, SLOWLOG GET,
        CLIENT LIST) is read whole, so that the next reply is the next
        request's: its lines joined by LF, the last ``END`` (``END
        guesses=... us=...`` with effort=1) or, for SOLUTIONS, the
        ``ERR`` that cut the list short; one ``ERR`` line when the
        request was refused."""
        self._skip_owed()
        self._send([line])
        return "\n".join(self._lines(_is_block(line)))

    def _ask(self, line: str, parse: Callable[[str], Any],
             effort: bool = False) -> Any:
        return self._value(line, self.request(line), parse, effort)

    def _block(self, line: str, parse: Callable[[List[str]], Any] = list,
               effort: bool = False) -> Any:
        """A reply of several lines, the last one END (not kept)."""
        self._skip_owed()
        self._send([line])
        reply = self._reply(True)
        return self._value(line, reply, parse, effort)

    # -- verbs without a solver -----------------------------------------
    def ping(self) -> None:
        """PING; raises unless the server answers PONG."""
        self._ask("PING", lambda s: None if s == "PONG" else int("x"))

    def version(self) -> str:
        """The server's version."""
        return self._ask("VERSION", lambda s: s.split(" ", 1)[1])

    def hello(self) -> Dict[str, str]:
        """HELLO: server, version, proto, verbs, options and the limits
        of the server's configuration, as a dict of strings."""
        def parse(s: str) -> Dict[str, str]:
            words = s.split(" ")
            if words[0] != "HELLO":
                raise ValueError(s)
            return dict(w.split("=", 1) for w in words[1:])
        return self._ask("HELLO", parse)

    def stats(self) -> Dict[str, str]:
        """STATS, as a dict of strings."""
        return self._block("STATS", _stats)

    # -- verbs that solve ------------------------------------------------
    def solve(self, puzzle: str, *, budget: Optional[int] = None,
              deadline: Optional[float] = None,
              effort: bool = False) -> Any:
        """Any solution of the puzzle (81 characters, ``1``-``9`` for
        givens, ``0`` or ``.`` for blanks; or 729 characters of pencil
        marks, a solution then one of them in each cell), as 81 digits.
        So do lexmin, count, solutions and analyze."""
        return self._ask("SOLVE " + _check_cells(puzzle, _GIVENS) +
                         _options(budget, deadline, effort), str, effort)

    def lexmin(self, puzzle: str, *, budget: Optional[int] = None,
               deadline: Optional[float] = None,
               effort: bool = False) -> Any:
        """The lexicographically smallest solution."""
        return self._ask("LEXMIN " + _check_cells(puzzle, _GIVENS) +
                         _options(budget, deadline, effort), str, effort)

    def count(self, puzzle: str, limit: int = 2, *,
              budget: Optional[int] = None,
              deadline: Optional[float] = None,
              effort: bool = False) -> Any:
        """How many solutions, counted up to limit (a result equal to
        limit means at least that many)."""
        return self._ask("COUNT %s %d%s" % (_check_cells(puzzle, _GIVENS),
                                             limit,
                                             _options(budget, deadline,
                                                      effort)),
                         int, effort)

    def analyze(self, puzzle: str, *, budget: Optional[int] = None,
                deadline: Optional[float] = None,
                effort: bool = False) -> Any:
        """Status, clues, effort and, for a unique puzzle, solution and
        rating, in one round trip: an :class:`Analysis`."""
        return self._ask("ANALYZE " + _check_cells(puzzle, _GIVENS) +
                         _options(budget, deadline, effort), _analysis,
                         effort)

    def solutions(self, puzzle: str, n: int, *,
                  budget: Optional[int] = None,
                  deadline: Optional[float] = None,
                  effort: bool = False) -> Any:
        """Up to n solutions of the puzzle, smallest first (the first is
        lexmin's, each next one the next larger), as a list of 81-digit
        strings; fewer when it has fewer, none when it has none.  When
        the budget or the deadline cuts the search short, the
        :class:`Error` raised holds the solutions found by then in
        ``partial``.  With effort, an :class:`Effort` of the list."""
        line = "SOLUTIONS " + _check_cells(puzzle, _GIVENS) + _count(n)
        return self._block(line + _options(budget, deadline, effort),
                           _solutions(effort), effort)

    def rate(self, puzzle: str, *, budget: Optional[int] = None,
             deadline: Optional[float] = None,
             effort: bool = False) -> Any:
        """How hard the puzzle is for a person: a :class:`Rating`."""
        return self._ask("RATE " + _check_cells(puzzle) + _options(
            budget, deadline, effort), _rating, effort)

    def hint(self, puzzle: str, grid: Optional[str] = None, *,
             budget: Optional[int] = None,
             deadline: Optional[float] = None,
             effort: bool = False) -> Any:
        """The next logical step from grid (81 cells, or 729 characters
        of pencil marks; None: the puzzle itself): a :class:`Hint`, or
        None when every cell is filled."""
        line = "HINT " + _check_cells(puzzle)
        if grid is not None:
            line += " " + _check_cells(grid, (81, 729))
        return self._ask(line + _options(budget, deadline, effort),
                         _hint, effort)

    def generate(self, level: Optional[str] = None,
                 seed: Optional[int] = None, *, info: bool = False,
                 symmetry: Optional[str] = None,
                 clues: Union[None, int, Tuple[int, int]] = None,
                 pattern: Optional[str] = None,
                 budget: Optional[int] = None,
                 deadline: Optional[float] = None,
                 effort: bool = False) -> Any:
        """A new puzzle of level (``easy`` .. ``extreme``; None: the
        server's default, ``medium``), the same for the same seed.  Its
        shape: ``symmetry`` (one of :data:`SYMMETRIES`), ``clues`` (a
        number of givens, or a (low, high) pair), ``pattern`` (81 cells,
        ``x`` for a given, ``.`` for a blank).  With info, or when the
        deadline came first and the server answers the nearest level it
        made, a :class:`Generated` that says the level (and with info
        the seed); else the puzzle."""
        line = "GENERATE" + _level(level) + _seed(seed)
        return self._ask(line + _options(budget, deadline, effort,
                                         (" info=1" if info else "") +
                                         _shape(symmetry, clues, pattern)),
                         _generated, effort)

    # -- the toolbox ------------------------------------------------------
    def canon(self, puzzle: str) -> Tuple[str, int]:
        """The canonical (minlex) form of the puzzle, ``.`` for blanks,
        and its number of automorphisms: two puzzles are equivalent
        exactly when their forms are equal."""
        return self._ask("CANON " + _check_cells(puzzle), _canon)

    def shuffle(self, puzzle: str, seed: Optional[int] = None, *,
                info: bool = False) -> Any:
        """An equivalent puzzle, the same for the same seed (None: the
        server picks one; info returns a :class:`Seeded` naming it)."""
        return self._ask("SHUFFLE " + _check_cells(puzzle) + _seed(seed) +
                         (" info=1" if info else ""), _seeded)

    def minimize(self, puzzle: str, seed: Optional[int] = None, *,
                 info: bool = False, budget: Optional[int] = None,
                 deadline: Optional[float] = None,
                 effort: bool = False) -> Any:
        """The puzzle (one solution) with givens removed, in an order
        drawn from the seed, until none can go."""
        return self._ask("MINIMIZE " + _check_cells(puzzle) + _seed(seed) +
                         _options(budget, deadline, effort,
                                  " info=1" if info else ""),
                         _seeded, effort)

    def constrain(self, puzzle: str, seed: Optional[int] = None, *,
                  info: bool = False, budget: Optional[int] = None,
                  deadline: Optional[float] = None,
                  effort: bool = False) -> Any:
        """The puzzle with givens added, from a solution drawn from the
        seed, until it has exactly one solution."""
        return self._ask("CONSTRAIN " + _check_cells(puzzle) + _seed(seed) +
                         _options(budget, deadline, effort,
                                  " info=1" if info else ""),
                         _seeded, effort)

    def path(self, puzzle: str, grid: Optional[str] = None, *,
             budget: Optional[int] = None,
             deadline: Optional[float] = None) -> Path:
        """The whole logical solution from grid (as :meth:`hint` takes
        it; None: the puzzle), every step applied before the next: a
        :class:`Path`."""
        line = "PATH " + _check_cells(puzzle)
        if grid is not None:
            line += " " + _check_cells(grid, (81, 729))
        line += _options(budget, deadline, False)
        return self._block(line, _path)

    # -- pipelined batches -----------------------------------------------
    def _many(self, lines: Iterable[str], parse: Callable[[Any], Any],
              effort: bool, window: int, errors: bool,
              block: bool = False) -> Iterator[Any]:
        """Send lines with at most window in flight; yield each parsed
        reply in order (an :class:`Error` in its place with errors, else
        raised); with block, replies of several lines (PATH)."""
        if window < 1:
            raise ValueError("window must be at least 1")
        self._skip_owed()
        it = iter(lines)
        sent: collections.deque = collections.deque()
        done = False
        while True:
            # Refill once half the window is answered: one write a batch.
            if not done and len(sent) <= window // 2:
                batch = []
                for line in it:
                    batch.append(line)
                    if len(sent) + len(batch) >= window:
                        break
                else:
                    done = True
                if batch:
                    self._send(batch)
                    sent.extend(batch)
                    self._owed.extend([block] * len(batch))
            if not sent:
                return
            request = sent.popleft()
            reply = self._reply(block)
            self._owed.popleft()
            try:
                yield self._value(request, reply, parse, effort)
            except Error as e:
                if not errors:
                    raise
                yield e

    def solve_many(self, puzzles: Iterable[str], *,
                   budget: Optional[int] = None,
                   deadline: Optional[float] = None, effort: bool = False,
                   window: int = DEFAULT_WINDOW,
                   errors: bool = False) -> Iterator[Any]:
        """solve() of each puzzle, pipelined: an iterator of the
        solutions in input order.  With errors, an :class:`Error` takes
        the place of a puzzle's solution instead of being raised."""
        opts = _options(budget, deadline, effort)
        return self._many(("SOLVE " + _check_cells(p, _GIVENS) + opts
                           for p in puzzles), str, effort, window, errors)

    def lexmin_many(self, puzzles: Iterable[str], *,
                    budget: Optional[int] = None,
                    deadline: Optional[float] = None, effort: bool = False,
                    window: int = DEFAULT_WINDOW,
                    errors: bool = False) -> Iterator[Any]:
        """lexmin() of each puzzle, pipelined, in input order."""
        opts = _options(budget, deadline, effort)
        return self._many(("LEXMIN " + _check_cells(p, _GIVENS) + opts
                           for p in puzzles), str, effort, window, errors)

    def count_many(self, puzzles: Iterable[str], limit: int = 2, *,
                   budget: Optional[int] = None,
                   deadline: Optional[float] = None, effort: bool = False,
                   window: int = DEFAULT_WINDOW,
                   errors: bool = False) -> Iterator[Any]:
        """count() of each puzzle, pipelined, in input order."""
        opts = " %d%s" % (limit, _options(budget, deadline, effort))
        return self._many(("COUNT " + _check_cells(p, _GIVENS) + opts
                           for p in puzzles), int, effort, window, errors)

    def analyze_many(self, puzzles: Iterable[str], *,
                     budget: Optional[int] = None,
                     deadline: Optional[float] = None,
                     effort: bool = False, window: int = DEFAULT_WINDOW,
                     errors: bool = False) -> Iterator[Any]:
        """analyze() of each puzzle, pipelined, in input order."""
        opts = _options(budget, deadline, effort)
        return self._many(("ANALYZE " + _check_cells(p, _GIVENS) + opts
                           for p in puzzles), _analysis, effort, window,
                          errors)

    def solutions_many(self, puzzles: Iterable[str], n: int, *,
                       budget: Optional[int] = None,
                       deadline: Optional[float] = None,
                       effort: bool = False, window: int = DEFAULT_WINDOW,
                       errors: bool = False) -> Iterator[Any]:
        """solutions() of each puzzle, pipelined, in input order: each
        reply's lines read whole before the next."""
        opts = _count(n) + _options(budget, deadline, effort)
        return self._many(("SOLUTIONS " + _check_cells(p, _GIVENS) + opts
                           for p in puzzles), _solutions(effort), effort,
                          window, errors, block=True)

    def rate_many(self, puzzles: Iterable[str], *,
                  budget: Optional[int] = None,
                  deadline: Optional[float] = None, effort: bool = False,
                  window: int = DEFAULT_WINDOW,
                  errors: bool = False) -> Iterator[Any]:
        """rate() of each puzzle, pipelined, in input order."""
        opts = _options(budget, deadline, effort)
        return self._many(("RATE " + _check_cells(p) + opts
                           for p in puzzles), _rating, effort, window,
                          errors)

    def hint_many(self, puzzles: Iterable[str], *,
                  budget: Optional[int] = None,
                  deadline: Optional[float] = None, effort: bool = False,
                  window: int = DEFAULT_WINDOW,
                  errors: bool = False) -> Iterator[Any]:
        """hint() of each puzzle (from its givens), pipelined."""
        opts = _options(budget, deadline, effort)
        return self._many(("HINT " + _check_cells(p) + opts
                           for p in puzzles), _hint, effort, window, errors)

    def generate_many(self, seeds: Iterable[int],
                      level: Optional[str] = "medium", *,
                      info: bool = False, symmetry: Optional[str] = None,
                      clues: Union[None, int, Tuple[int, int]] = None,
                      pattern: Optional[str] = None,
                      budget: Optional[int] = None,
                      deadline: Optional[float] = None,
                      effort: bool = False, window: int = DEFAULT_WINDOW,
                      errors: bool = False) -> Iterator[Any]:
        """generate(level, seed) of each seed, pipelined, in order."""
        opts = _options(budget, deadline, effort, (" info=1" if info else
                                                   "") +
                        _shape(symmetry, clues, pattern))
        head = "GENERATE" + _level(level)
        return self._many((head + _seed(s) + opts for s in seeds),
                          _generated, effort, window, errors)

    def canon_many(self, puzzles: Iterable[str], *,
                   window: int = DEFAULT_WINDOW,
                   errors: bool = False) -> Iterator[Any]:
        """canon() of each puzzle, pipelined, in input order."""
        return self._many(("CANON " + _check_cells(p) for p in puzzles),
                          _canon, False, window, errors)

    def _seeded_many(self, verb: str, puzzles: Iterable[str],
                     seed: Optional[int], opts: str, effort: bool,
                     window: int, errors: bool) -> Iterator[Any]:
        """verb of each puzzle, the seeds seed, seed + 1, ... in turn
        (modulo 2**64) as sudokuc --seed numbers them; None: the
        server picks each."""
        def lines() -> Iterator[str]:
            for i, p in enumerate(puzzles):
                s = None if seed is None else (seed + i) % (1 << 64)
                yield "%s %s%s%s" % (verb, _check_cells(p), _seed(s), opts)
        return self._many(lines(), _seeded, effort, window, errors)

    def shuffle_many(self, puzzles: Iterable[str],
                     seed: Optional[int] = None, *, info: bool = False,
                     window: int = DEFAULT_WINDOW,
                     errors: bool = False) -> Iterator[Any]:
        """shuffle() of each puzzle, pipelined, in input order: the
        seeds seed, seed + 1, ... (None: the server's)."""
        return self._seeded_many("SHUFFLE", puzzles, seed,
                                 " info=1" if info else "", False, window,
                                 errors)

    def minimize_many(self, puzzles: Iterable[str],
                      seed: Optional[int] = None, *, info: bool = False,
                      budget: Optional[int] = None,
                      deadline: Optional[float] = None,
                      effort: bool = False, window: int = DEFAULT_WINDOW,
                      errors: bool = False) -> Iterator[Any]:
        """minimize() of each puzzle, pipelined, seeds as shuffle_many."""
        return self._seeded_many("MINIMIZE", puzzles, seed, _options(
            budget, deadline, effort, " info=1" if info else ""), effort,
            window, errors)

    def constrain_many(self, puzzles: Iterable[str],
                       seed: Optional[int] = None, *, info: bool = False,
                       budget: Optional[int] = None,
                       deadline: Optional[float] = None,
                       effort: bool = False, window: int = DEFAULT_WINDOW,
                       errors: bool = False) -> Iterator[Any]:
        """constrain() of each puzzle, pipelined, seeds as
        shuffle_many."""
        return self._seeded_many("CONSTRAIN", puzzles, seed, _options(
            budget, deadline, effort, " info=1" if info else ""), effort,
            window, errors)

    def path_many(self, puzzles: Iterable[str], *,
                  budget: Optional[int] = None,
                  deadline: Optional[float] = None,
                  window: int = DEFAULT_WINDOW,
                  errors: bool = False) -> Iterator[Any]:
        """path() of each puzzle (from its givens), pipelined, in input
        order: each reply's lines read whole before the next."""
        opts = _options(budget, deadline, False)
        return self._many(("PATH " + _check_cells(p) + opts
                           for p in puzzles), _path, False, window, errors,
                          block=True)
