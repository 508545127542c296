# SPDX-License-Identifier: ISC
"""
The protocol without I/O, shared by every client (the sync Client, the
asyncio one, the pools): what a reply to each request may be (its
:class:`Spec`), the replies cut from the bytes of a connection and
bounded as they come (:class:`Reader`), a reply turned into its value
or its exception (:func:`value`), and the order of a pipelined batch
(:class:`Batch`).  A client only moves bytes and keeps time; every
check of what the server says is here, once.
"""

from __future__ import annotations

import collections
import itertools
import re
from typing import (Any, Callable, Deque, FrozenSet, Iterable, Iterator,
                    List, NamedTuple, Optional, Tuple, Union, cast)

from . import replies as R
from .checks import all_solve, solves_all
from .errors import AuthError, Error, InputError, ProtocolError

#: Requests in flight for the ``*_many`` methods: 256 puzzle requests are
#: about 21 KiB each way, far below the socket buffers, so neither side
#: ever blocks the other while the server always has work queued.
DEFAULT_WINDOW = 256

# The longest line (without its LF) each verb's reply has, with room for
# effort's tokens, and for a reply of several lines the most lines.  An
# ERR line may quote the request, each byte as 0xNN at worst: any line
# may be 256 + 6 times the request's length too.
_EFF = 64
_LINE = {"PING": 64, "VERSION": 256, "HELLO": 16384, "QUIT": 64,
         "SOLVE": 81 + _EFF, "LEXMIN": 81 + _EFF, "COUNT": 20 + _EFF,
         "SOLUTIONS": 81 + _EFF, "ANALYZE": 512 + _EFF, "RATE": 128 + _EFF,
         "HINT": 16384, "GENERATE": 256 + _EFF, "CANON": 128,
         "SHUFFLE": 128, "MINIMIZE": 128 + _EFF, "CONSTRAIN": 128 + _EFF,
         "PATH": 16384, "STATS": 4096, "HELP": 1024, "SLOWLOG": 1024,
         "CLIENT": 1024}
# A PATH is at most a step per candidate (729), a dead end, a summary.
_LINES = {"PATH": 732, "STATS": 4096, "HELP": 1024, "SLOWLOG": 100002,
          "CLIENT": 1 << 20, "SOLUTIONS": 1 << 20}

# The ERR codes a request may get besides syntax, toolong and busy, by
# verb (doc/protocol.md); deadline too for one sent with deadline=.
_P = ("length", "char", "conflict")
_CODES = {"SOLVE": _P + ("nosolution", "budget"),
          "COUNT": _P + ("budget",), "SOLUTIONS": _P + ("budget",),
          "ANALYZE": _P + ("budget",),
          "RATE": _P + ("nosolution", "multiple", "budget"),
          "HINT": _P + ("nosolution", "multiple", "budget", "wrong",
                        "nostep"),
          "GENERATE": ("budget",), "CANON": _P, "SHUFFLE": _P,
          "MINIMIZE": _P + ("nosolution", "multiple", "budget"),
          "CONSTRAIN": _P + ("nosolution", "budget"),
          "PATH": _P + ("nosolution", "multiple", "wrong", "budget")}
_CODES["LEXMIN"] = _CODES["SOLVE"]
_ALWAYS = ("syntax", "toolong", "busy", "noauth")

# The requests whose reply is several lines (doc/protocol.md, Framing):
# by their verb, or their verb and its first argument.
_BLOCK_VERBS = frozenset(("STATS", "HELP", "PATH", "SOLUTIONS"))
_BLOCK_PAIRS = frozenset((("SLOWLOG", "GET"), ("CLIENT", "LIST")))
# What a reply may hold: printable ASCII, and LF between lines.
_TEXT = bytes(range(0x20, 0x7f)) + b"\n"
_BAD_BYTE = re.compile(rb"[^\x20-\x7e]")

#: A reply's parser: its line (or lines, for a block) to a value, or
#: ValueError (KeyError, IndexError) for one sudokud would not send.
Parse = Callable[[Any], Any]


class Spec(NamedTuple):
    """What the reply to a request may be: several lines (block), at
    most max_line bytes each and max_lines of them; the ERR codes it
    may have (None: any); with effort, effort's tokens; analysis: its
    guesses are ANALYZE's own.  One spec serves every request of a
    batch; the parser, which knows each request, goes beside it."""
    block: bool
    max_line: int
    max_lines: int
    codes: Optional[FrozenSet[str]]
    effort: bool = False
    analysis: bool = False


#: A request: its line, the spec of its reply, and its parser (None:
#: the reply as it came, request()'s).
Req = Tuple[str, Spec, Optional[Parse]]
#: What makes the request of one item of a batch (a puzzle, a seed).
Make = Callable[[Any], Req]


def spec(line: str, checked: bool = True, effort: bool = False,
         lines: Optional[int] = None, analysis: bool = False) -> Spec:
    """The spec of the reply to line (for a batch: its longest line);
    checked: the codes the verb may get are checked too."""
    words = line.upper().split()
    verb = "SOLVE" if line[:1] in "0123456789." else words[0]
    block = verb in _BLOCK_VERBS or tuple(words[:2]) in _BLOCK_PAIRS
    max_line = max(_LINE.get(verb, 256), 256 + 6 * len(line))
    if lines is None:
        lines = _LINES.get(verb, 1) if block else 1
        if verb in ("SLOWLOG", "SOLUTIONS") and len(words) > 2 and \
                words[2].isdigit():
            lines = min(lines, int(words[2]) + 1)
    codes = None
    if checked:
        codes = frozenset(_ALWAYS + _CODES.get(verb, ()) + (
            ("deadline",) if " deadline=" in line else ()))
    return Spec(block, max_line, lines, codes, effort, analysis)


class Reader:
    """The replies in the bytes of one connection, in order: feed() what
    came, reply() the next reply's lines once they are all there.  A
    line longer than its spec allows, a reply of more lines, a byte that
    is no 7-bit text raise ProtocolError as soon as they are seen, so
    that nothing without end is ever buffered."""

    def __init__(self) -> None:
        self.buf = b""
        self.pending: Deque[bytes] = collections.deque()
        self.cur: List[str] = []        # the lines of a reply so far
        self.heard = False              # a byte came
        self.dirty = False              # a byte that is no text came

    def feed(self, data: bytes) -> None:
        """What came: its whole lines join the pending ones."""
        self.heard = True
        if not self.dirty and data.translate(None, _TEXT):
            self.dirty = True           # each line is looked at from now
        *lines, self.buf = (self.buf + data).split(b"\n")
        self.pending.extend(lines)

    def _line(self, spec: Spec) -> Optional[str]:
        if not self.pending:
            if len(self.buf) > spec.max_line:
                raise ProtocolError("a reply line longer than %d bytes"
                                    % spec.max_line)
            return None
        raw = self.pending.popleft()
        if len(raw) > spec.max_line:
            raise ProtocolError("a reply line of %d bytes, at most %d"
                                % (len(raw), spec.max_line))
        if self.dirty and _BAD_BYTE.search(raw):
            raise ProtocolError("a reply line that is no 7-bit text: %r"
                                % raw[:100])
        return raw.decode("ascii")

    def reply(self, spec: Spec) -> Optional[List[str]]:
        """The next reply's lines as they came, or None until they are
        all there: one, or with block up to and with the last, a line
        that is END or starts with "END " (effort's tokens) or "ERR "
        (one alone, or SOLUTIONS' cut)."""
        if not spec.block:
            pending = self.pending
            if pending and not self.dirty and len(pending[0]) <= \
                    spec.max_line:
                return [pending.popleft().decode("ascii")]
            line = self._line(spec)
            return None if line is None else [line]
        out = self.cur
        while True:
            line = self._line(spec)
            if line is None:
                return None
            out.append(line)
            if line.split(" ")[0] == "END" or line.startswith("ERR "):
                self.cur = []
                return out
            if len(out) > spec.max_lines:
                raise ProtocolError("a reply of more than %d lines"
                                    % spec.max_lines)

    def waiting(self, spec: Spec) -> bool:
        """Is no line there whole?  (ProtocolError if the part that has
        come is longer than spec allows.)"""
        if self.pending:
            return False
        if len(self.buf) > spec.max_line:
            raise ProtocolError("a reply line longer than %d bytes"
                                % spec.max_line)
        return True

    def unread(self) -> bool:
        """Did anything come that no reply has taken?"""
        return bool(self.buf or self.pending or self.cur)


def _error(line: str, lines: List[str], spec: Spec,
           parse: Optional[Parse], last: str) -> Error:
    """The Error of an ERR reply; ValueError if the request cannot get
    it (its code, lines before it where none may come)."""
    code, _, text = last[4:].partition(" ")
    if code == "noauth":
        return AuthError(code, text, line)
    if spec.codes is not None and code not in spec.codes:
        raise ValueError("ERR %s to this request" % code[:20])
    partial = getattr(parse, "partial", None)
    if len(lines) > 1 and partial is None:
        raise ValueError("ERR after other lines")
    if spec.effort:
        text = R.EFFORT_TAIL.sub("", text)
    if partial is not None:
        partial(lines[:-1])
    return Error(code, text, line, lines[:-1])


def value(req: Req, lines: List[str]) -> Any:
    """The value of the reply to req, or its :class:`Error` raised (the
    caller closes the connection after ``busy``, which the server closes
    too); a reply that does not fit raises :class:`ProtocolError` (the
    caller closes the connection)."""
    line, sp, parse = req
    if parse is None:
        return "\n".join(lines)
    last = lines[-1]
    try:
        if last.startswith("ERR "):
            raise _error(line, lines, sp, parse, last)
        if not sp.block:
            if not sp.effort:
                return parse(last)
            return R.effort_of(last, True, parse, not sp.analysis)
        if last != "END" and not (sp.effort and last.startswith("END ")):
            raise ValueError("no END")
        return parse(lines if sp.effort else lines[:-1])
    except Error:
        raise
    except (ValueError, KeyError, IndexError) as e:
        raise ProtocolError("unexpected reply to %r: %r (%s)"
                            % (line[:40], "\n".join(lines)[:100],
                               e)) from None


def values(reqs: List[Req], replies: List[List[str]]) -> List[Any]:
    """The outcome of each reply to its request, in order: its value, or
    the Error or ProtocolError instance value() would raise, the list
    ending at the first ProtocolError (the connection is not to be
    believed after it).  The solutions of 81-cell puzzles are checked
    all at once (checks.all_solve), the rest one by one."""
    out: List[Any] = []
    bulk: List[int] = []
    puzzles: List[str] = []
    for req, lines in zip(reqs, replies):
        parse = req[2]
        if isinstance(parse, R.Solution) and not req[1].effort and \
                len(parse.puzzle) == 81 and not lines[0].startswith("ERR "):
            bulk.append(len(out))
            puzzles.append(parse.puzzle)
            out.append(lines[0])
            continue
        try:
            out.append(value(req, lines))
        except Error as e:
            out.append(e)
        except ProtocolError as e:
            out.append(e)
            break
    if bulk and not all_solve(puzzles, [out[i] for i in bulk]):
        for i in bulk:                  # which one: the first wrong
            try:
                value(reqs[i], replies[i])
            except ProtocolError as e:
                out[i] = e
                del out[i + 1:]
                break
    return out


def solutions_run(reader: Reader, reqs: List[Req]) -> List[str]:
    """The fast lane of a batch of SOLVE or LEXMIN: the replies that have
    come whole for the longest run of reqs that are such requests (of
    81-cell puzzles, without effort, of one spec), taken from the reader
    as the solutions they are, checked all at once, when they all are
    (81 bytes each, checks.solves_all); else [] and nothing taken: the
    caller takes values()' way, which finds what is wrong."""
    pending = reader.pending
    if reader.dirty or not pending or not reqs:
        return []
    sp = reqs[0][1]
    if sp.block or sp.effort:
        return []
    puzzles: List[str] = []
    for req in itertools.islice(reqs, len(pending)):
        parse = req[2]
        if req[1] is not sp or not isinstance(parse, R.Solution) or \
                len(parse.puzzle) != 81:
            break
        puzzles.append(parse.puzzle)
    n = len(puzzles)
    raw = list(itertools.islice(pending, n))
    if not n or set(map(len, raw)) != {81}:
        return []
    sols = b"".join(raw)
    if not solves_all("".join(puzzles).encode("ascii", "replace"), sols, n):
        return []
    for _ in range(n):
        pending.popleft()
    text = sols.decode("ascii")
    return [text[i:i + 81] for i in range(0, 81 * n, 81)]


def outcomes(reader: Reader, reqs: List[Req]) -> List[Any]:
    """The outcomes (values()) of the replies to reqs that have come
    whole, in order, maybe none: a run of solutions by the fast lane
    (solutions_run), else each read and checked; a reply that breaks the
    reader's bounds ends the list with its ProtocolError."""
    fast = solutions_run(reader, reqs)
    if fast:
        return fast
    replies: List[List[str]] = []
    broken: Optional[ProtocolError] = None
    for req in reqs:
        try:
            lines = reader.reply(req[1])
        except ProtocolError as e:
            broken = e
            break
        if lines is None:
            break
        replies.append(lines)
    out = values(reqs[:len(replies)], replies)
    if broken is not None and len(out) == len(replies):
        out.append(broken)
    return out


def fatal(e: BaseException) -> bool:
    """Does e leave the connection unusable (to be closed)?  All but an
    Error other than ``busy``."""
    return not isinstance(e, Error) or e.code == "busy"


#: A slot of a batch: a request sent, or an item refused before.
Slot = Union[InputError, Req]


class Batch:
    """The order of a pipelined batch: make(item) of each item, at most
    window requests in flight, refilled once half the window is answered
    (one write a refill); refused items keep their place.  The requests
    go over lanes connections, each refill's cut into as many runs, one
    a lane (lane[i] is slot i's; -1 for a refused item)."""

    def __init__(self, items: Iterable[Any], make: Make, window: int,
                 lanes: int = 1):
        self.it: Iterator[Any] = iter(items)
        self.make = make
        self.window = window
        self.lanes = lanes
        self.slots: Deque[Slot] = collections.deque()
        self.lane: Deque[int] = collections.deque()
        self.done = False

    def refill(self) -> List[List[Req]]:
        """The requests to send now, by lane (none while the window is
        more than half full, or the items are all out)."""
        if self.done or len(self.slots) > self.window // 2:
            return []
        room = self.window - len(self.slots)
        items = list(itertools.islice(self.it, room))
        if len(items) < room:
            self.done = True
        try:
            new: List[Slot] = list(map(self.make, items))
        except InputError:
            new = self._made(items)
        refused = any(isinstance(r, InputError) for r in new)
        n = len(new) if not refused else \
            sum(1 for r in new if not isinstance(r, InputError))
        per = max(1, -(-n // self.lanes))
        if refused:
            return self._lanes(new, per)
        self.slots.extend(new)
        out = [cast(List[Req], new[i:i + per]) for i in range(0, n, per)]
        for j, run in enumerate(out):
            self.lane.extend(itertools.repeat(j, len(run)))
        return out + [[] for _ in range(self.lanes - len(out))]

    def _lanes(self, new: List[Slot], per: int) -> List[List[Req]]:
        """new's requests cut into runs of per, a lane each; refused
        items in their places (lane -1)."""
        out: List[List[Req]] = [[] for _ in range(self.lanes)]
        i = 0
        for r in new:
            if isinstance(r, InputError):
                self.lane.append(-1)
            else:
                out[i // per].append(r)
                self.lane.append(i // per)
                i += 1
        self.slots.extend(new)
        return out

    def _made(self, items: List[Any]) -> List[Slot]:
        """make() of items one of which is refused: its InputError in
        its place."""
        out: List[Slot] = []
        for item in items:
            try:
                out.append(self.make(item))
            except InputError as e:
                out.append(e)
        return out

    def sent(self, lane: int) -> List[Req]:
        """The requests of a lane not yet answered, in order."""
        return cast(List[Req], list(itertools.compress(
            self.slots, map(lane.__eq__, self.lane))))


def wire(reqs: Iterable[Req]) -> bytes:
    """The bytes of the requests' lines."""
    return "".join([r[0] + "\n" for r in reqs]).encode("ascii")
