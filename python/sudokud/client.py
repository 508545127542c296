# SPDX-License-Identifier: ISC
"""
The client: one connection to a sudokud, a method per verb of its line
protocol (doc/protocol.md, version 2), replies parsed into Python
values and checked (a reply sudokud would not send raises
:class:`ProtocolError`), every ``ERR`` raised as :class:`Error`, and
``*_many`` methods that pipeline a whole iterable with a bounded window
of requests in flight, answers in input order.

Every argument is checked before anything is sent; every call has a
deadline, ``timeout`` seconds; a timeout, a lost connection or a reply
that does not fit closes the connection, and the next call connects
again, so that no reply is ever read out of step.

Standard library only; Python 3.9 and later.
"""

from __future__ import annotations

import builtins
import collections
import os
import re
import socket
import ssl
import time
from typing import (Any, Callable, Deque, Dict, FrozenSet, Iterable,
                    Iterator, List, Literal, NamedTuple, Optional, Tuple,
                    Union, cast, overload)

from . import replies as R
from .checks import (GIVENS, LEVELS, SYMMETRIES, check_cells, check_line,
                     check_window, count_arg, level_arg, options, seed_arg,
                     shape_args)
from .errors import (AuthError, ConnectionError, Error, InputError,
                     ProtocolError, SudokudError, TimeoutError, TLSError)
from .replies import (Action, Analysis, Effort, Generated, Hello, Hint,
                      Path, Rating, Seeded, Value, _generated)
from .secure import TLS, context, handshake_error, scheme, secret_of

__all__ = ["Action", "Analysis", "AuthError", "Client", "ConnectionError",
           "DEFAULT_SOCKET", "DEFAULT_WINDOW", "Effort", "Error",
           "Generated", "Hello", "Hint", "InputError", "LEVELS", "Path",
           "ProtocolError", "Rating", "SYMMETRIES", "Seeded",
           "SudokudError", "TLSError", "TimeoutError", "Value",
           "parse_address", "_generated"]

#: Where a client connects when given no address: $SUDOKUD_SOCKET (its
#: first entry), else the socket a system install listens on.
DEFAULT_SOCKET = "/run/sudokud.sock"

#: Requests in flight for the ``*_many`` methods: 256 puzzle requests are
#: about 21 KiB each way, far below the socket buffers, so neither side
#: ever blocks the other while the server always has work queued.
DEFAULT_WINDOW = 256

Address = Union[str, Tuple[str, int]]


def parse_address(address: Optional[Address]) -> Tuple[int, Any]:
    """(socket family, address) of ``"unix:/path"``, ``"/path"`` (any
    string with a ``/``), ``"host:port"``, ``"[v6]:port"`` or a
    ``(host, port)`` pair; None is $SUDOKUD_SOCKET or DEFAULT_SOCKET.
    ``"sudokuds://host:port"`` and ``"tls:host:port"`` are host:port
    over TLS (Client's ``tls=``), ``"sudokud://host:port"`` in the
    clear."""
    if address is None:
        env = os.environ.get("SUDOKUD_SOCKET", "")
        address = env.split(",")[0] or DEFAULT_SOCKET
    if isinstance(address, str):
        address, tls = scheme(address)
        if tls is not None:
            address = "tcp:" + address
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


# -- what a reply may be ---------------------------------------------------
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
_BAD_BYTE = re.compile(rb"[^\x20-\x7e]")


class _Spec(NamedTuple):
    """What the reply to one request may be: several lines (block), at
    most max_line bytes each and max_lines of them; the ERR codes it
    may have (None: any); its parser (None: as it came, request()'s);
    with effort, effort's tokens; partial: the check of the lines
    before an ERR (None: an ERR comes alone)."""
    block: bool
    max_line: int
    max_lines: int
    codes: Optional[FrozenSet[str]]
    parse: Optional[Callable[[Any], Any]]
    effort: bool = False
    partial: Optional[Callable[[List[str]], Any]] = None
    analysis: bool = False


def _spec(line: str, parse: Optional[Callable[[Any], Any]] = None,
          effort: bool = False, lines: Optional[int] = None,
          analysis: bool = False) -> _Spec:
    """The spec of the reply to line; with a parse, the codes the verb
    may get are checked too."""
    words = line.upper().split()
    verb = "SOLVE" if line[:1] in "0123456789." else words[0]
    block = verb in _BLOCK_VERBS or tuple(words[:2]) in _BLOCK_PAIRS
    max_line = max(_LINE.get(verb, 256), 256 + 6 * len(line))
    if lines is None:
        lines = _LINES.get(verb, 1) if block else 1
        if verb == "SLOWLOG" and len(words) > 2 and words[2].isdigit():
            lines = min(lines, int(words[2]) + 1)
        if verb == "SOLUTIONS" and len(words) > 2 and words[2].isdigit():
            lines = min(lines, int(words[2]) + 1)
    codes = None
    if parse is not None:
        codes = frozenset(_ALWAYS + _CODES.get(verb, ()) + (
            ("deadline",) if " deadline=" in line else ()))
    return _Spec(block, max_line, lines, codes, parse, effort,
                 getattr(parse, "partial", None), analysis)


class Client:
    """A connection to one sudokud.

    ``address``: ``"unix:/run/sudokud.sock"``, ``"/path.sock"``,
    ``"host:port"`` or ``(host, port)``; None: $SUDOKUD_SOCKET, else
    ``/run/sudokud.sock``.  ``timeout``: the seconds a call may take,
    from its start to its reply read whole (a ``*_many`` call: each
    reply, from the one before); None: forever.  It is an attribute,
    which may be changed between calls.  The connection is made at once;
    one that failed (a timeout, a connection lost, a reply that does not
    fit) is closed, and the next call connects again.  :meth:`close`, or
    the end of a ``with`` block, closes it.  A client is for one thread
    at a time.

    Every method that solves takes the request options as keywords:
    ``budget`` (at most that many guesses; the server's ``budget`` is
    the most), ``deadline`` (seconds: ``ERR deadline`` if the request is
    not done that long after the server starts on it) and ``effort``
    (return an :class:`Effort`: the value, guesses and microseconds).

    ``tls``: True for TLS with a verifying default context
    (ssl.create_default_context(): the system's CAs, the certificate
    and the server's name checked; TLS 1.2 at least), or an
    ssl.SSLContext used as it is (its CA, a client certificate);
    ``"sudokuds://host:port"`` says True too.  ``server_hostname``: the
    name the certificate must have (None: the address's host).  A
    handshake that fails raises :class:`TLSError`.  ``auth`` (or
    ``auth_file``, a file holding it): a secret, 1-256 printable ASCII
    characters without blanks, sent as ``AUTH <secret>`` first on every
    connection, which must answer ``OK``; a refusal raises
    :class:`AuthError`.
    """

    def __init__(self, address: Optional[Address] = None,
                 timeout: Optional[float] = 30.0, *, tls: TLS = False,
                 server_hostname: Optional[str] = None,
                 auth: Optional[str] = None,
                 auth_file: Optional[str] = None):
        if isinstance(address, str) and scheme(address)[1] and \
                tls is False:
            tls = True
        self.family, self.address = parse_address(address)
        self.timeout = timeout
        self.tls = context(tls)
        if server_hostname is None and self.family != socket.AF_UNIX:
            server_hostname = self.address[0]
        if self.tls is not None and self.tls.check_hostname and \
                server_hostname is None:
            raise InputError("syntax", "TLS over a Unix socket needs a "
                             "server_hostname to check")
        self.server_hostname = server_hostname
        self._secret = secret_of(auth, auth_file)
        self.sock: Optional[socket.socket] = None
        self._heard = False         # a byte came on this connection
        self._buf = b""
        self._pending: Deque[bytes] = collections.deque()
        # The replies of an abandoned batch to skip: their specs.
        self._owed: Deque[_Spec] = collections.deque()
        self._connect(self._deadline())

    # -- the connection -------------------------------------------------
    def close(self) -> None:
        """Close the connection (the server answers what it has); a
        call after this connects again."""
        if self.sock is not None:
            self.sock.close()
        self.sock = None
        self._buf = b""
        self._pending.clear()
        self._owed.clear()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _deadline(self) -> Optional[float]:
        return None if self.timeout is None else \
            time.monotonic() + self.timeout

    def _left(self, deadline: Optional[float]) -> Optional[float]:
        """The seconds left to deadline; TimeoutError when none are."""
        if deadline is None:
            return None
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no reply within %s s" % self.timeout)
        return left

    def _io(self, what: str, fn: Callable[[], Any]) -> Any:
        """fn(), its socket errors raised as ours."""
        try:
            return fn()
        except (socket.timeout, builtins.TimeoutError) as e:
            raise TimeoutError("%s: no progress within %s s"
                               % (what, self.timeout)) from e
        except ssl.SSLError as e:
            raise handshake_error("TLS with", self._where(), e) from e
        except OSError as e:
            raise ConnectionError("%s %r: %s" % (what, self.address,
                                                 e)) from e

    def _where(self) -> str:
        if self.family == socket.AF_UNIX:
            return "unix:%s" % self.address
        return "%s:%d" % self.address[:2]

    def _connect(self, deadline: Optional[float]) -> socket.socket:
        """The connection, made if there is none: connected, its TLS
        handshake done, AUTH answered OK."""
        if self.sock is None:
            sock = socket.socket(self.family, socket.SOCK_STREAM)
            try:
                sock.settimeout(self._left(deadline))
                self._io("connect", lambda: sock.connect(self.address))
                if self.tls is not None:
                    sock = self._handshake(sock, self.tls)
            except BaseException:
                sock.close()
                raise
            self.sock = sock
            self._heard = False
            if self._secret is not None:
                try:
                    self._auth(self._secret, deadline)
                except BaseException:
                    self.close()
                    raise
        return self.sock

    def _handshake(self, sock: socket.socket,
                   ctx: ssl.SSLContext) -> ssl.SSLSocket:
        """sock wrapped in TLS, the handshake done within its timeout;
        any failure of it a TLSError, but a timeout."""
        tls = ctx.wrap_socket(sock, server_hostname=self.server_hostname,
                              do_handshake_on_connect=False)
        try:
            tls.do_handshake()
        except (socket.timeout, builtins.TimeoutError) as e:
            raise TimeoutError("TLS handshake with %s: no progress within "
                               "%s s" % (self._where(), self.timeout)) from e
        except OSError as e:
            raise handshake_error("TLS handshake with", self._where(),
                                  e) from e
        return tls

    def _auth(self, secret: str, deadline: Optional[float]) -> None:
        """AUTH with the secret, first on a connection: OK, or the
        AuthError (another Error) of its ERR raised."""
        line = "AUTH " + secret
        sock = self._connect(deadline)
        sock.settimeout(self._left(deadline))
        self._io("send", lambda: sock.sendall(line.encode("ascii") + b"\n"))
        reply = self._lines(_spec(line), deadline)[0]
        code, _, text = reply[4:].partition(" ")
        if reply == "OK":
            return
        if reply.startswith("ERR ") and code == "noauth":
            raise AuthError(code, text, "AUTH")
        if reply.startswith("ERR ") and code == "syntax":
            raise Error(code, text, "AUTH")     # a server without AUTH
        raise ProtocolError("unexpected reply to AUTH: %r" % reply[:100])

    def _send(self, lines: Iterable[str], deadline: Optional[float]) -> None:
        sock = self._connect(deadline)
        data = "".join(ln + "\n" for ln in lines).encode("ascii")
        sock.settimeout(self._left(deadline))
        self._io("send", lambda: sock.sendall(data))

    def _fill(self, deadline: Optional[float]) -> None:
        """Read what came; its whole lines join the pending ones."""
        sock = self._connect(deadline)
        sock.settimeout(self._left(deadline))
        data = self._io("recv", lambda: sock.recv(262144))
        if not data:
            raise ConnectionError("the server closed the connection" + (
                " before any reply (a TLS port? tls=True)"
                if not self._heard and self.tls is None and
                self.family != socket.AF_UNIX else ""))
        self._heard = True
        *lines, self._buf = (self._buf + data).split(b"\n")
        self._pending.extend(lines)

    def _line(self, spec: _Spec, deadline: Optional[float]) -> str:
        """The next line, at most spec.max_line bytes of 7-bit text."""
        while not self._pending:
            if len(self._buf) > spec.max_line:
                raise ProtocolError("a reply line longer than %d bytes"
                                    % spec.max_line)
            self._fill(deadline)
        raw = self._pending.popleft()
        if len(raw) > spec.max_line:
            raise ProtocolError("a reply line of %d bytes, at most %d"
                                % (len(raw), spec.max_line))
        if _BAD_BYTE.search(raw):
            raise ProtocolError("a reply line that is no 7-bit text: %r"
                                % raw[:100])
        return raw.decode("ascii")

    def _lines(self, spec: _Spec, deadline: Optional[float]) -> List[str]:
        """The next reply's lines as they came: one, or with block up
        to and with the last, a line that is END or starts with "END "
        (effort's tokens) or "ERR " (one alone, or SOLUTIONS' cut)."""
        out = [self._line(spec, deadline)]
        while spec.block and out[-1].split(" ")[0] != "END" and \
                not out[-1].startswith("ERR "):
            if len(out) > spec.max_lines:
                raise ProtocolError("a reply of more than %d lines"
                                    % spec.max_lines)
            out.append(self._line(spec, deadline))
        return out

    def _skip_owed(self, deadline: Optional[float]) -> None:
        """The replies of a batch left before its end: read, dropped,
        so that the next reply is the next request's."""
        while self._owed:
            self._lines(self._owed[0], deadline)
            self._owed.popleft()

    def _value(self, request: str, lines: List[str], spec: _Spec) -> Any:
        """The reply's value, or its Error raised; a reply that does not
        fit closes the connection and raises ProtocolError."""
        try:
            return self._parse(request, lines, spec)
        except Error as e:
            if e.code == "busy":            # the server closes after it
                self.close()
            raise
        except (ValueError, KeyError, IndexError) as e:
            self.close()
            raise ProtocolError("unexpected reply to %r: %r (%s)"
                                % (request[:40], "\n".join(lines)[:100],
                                   e)) from None

    @staticmethod
    def _parse(request: str, lines: List[str], spec: _Spec) -> Any:
        last = lines[-1]
        if last.startswith("ERR "):
            code, _, text = last[4:].partition(" ")
            if code == "noauth":
                raise AuthError(code, text, request)
            if spec.codes is not None and code not in spec.codes:
                raise ValueError("ERR %s to this request" % code[:20])
            if len(lines) > 1 and spec.partial is None:
                raise ValueError("ERR after other lines")
            if spec.effort:
                text = R.EFFORT_TAIL.sub("", text)
            partial = lines[:-1]
            if spec.partial is not None:
                spec.partial(partial)
            raise Error(code, text, request, partial)
        if spec.parse is None:
            return "\n".join(lines)
        if not spec.block:
            return R.effort_of(last, spec.effort, spec.parse,
                               not spec.analysis)
        if last != "END" and not (spec.effort and last.startswith("END ")):
            raise ValueError("no END")
        return spec.parse(lines if spec.effort else lines[:-1])

    def _call(self, line: str, spec: _Spec) -> Any:
        """Send one request, read its reply whole before the deadline;
        any failure on the way closes the connection."""
        deadline = self._deadline()
        try:
            self._skip_owed(deadline)
            self._send([line], deadline)
            lines = self._lines(spec, deadline)
        except BaseException:
            self.close()
            raise
        return self._value(line, lines, spec)

    def request(self, line: str) -> str:
        """Send one request line, return its reply as it is (an ``ERR``
        line too): the protocol, unparsed.  The reply of a verb of
        several lines (STATS, HELP, PATH, SOLUTIONS, SLOWLOG GET,
        CLIENT LIST) is read whole, so that the next reply is the next
        request's: its lines joined by LF, the last ``END`` (``END
        guesses=... us=...`` with effort=1) or, for SOLUTIONS, the
        ``ERR`` that cut the list short; one ``ERR`` line when the
        request was refused.  The line must be printable ASCII and
        blanks, and not blank (a blank line gets no reply)."""
        line = check_line(line)
        deadline = self._deadline()
        try:
            self._skip_owed(deadline)
            self._send([line], deadline)
            return "\n".join(self._lines(_spec(line), deadline))
        except BaseException:
            self.close()
            raise

    def _ask(self, line: str, parse: Callable[[Any], Any],
             effort: bool = False, lines: Optional[int] = None,
             analysis: bool = False) -> Any:
        return self._call(line, _spec(line, parse, effort, lines, analysis))

    # -- verbs without a solver -----------------------------------------
    def ping(self) -> None:
        """PING; raises unless the server answers PONG."""
        self._ask("PING", R.pong)

    def version(self) -> str:
        """The server's version."""
        return cast(str, self._ask("VERSION", R.version))

    def hello(self) -> Hello:
        """HELLO: server, version, proto, verbs, options, the limits of
        the server's configuration and (a server with AUTH) auth, as a
        :class:`Hello` dict: the numbers (proto, the limits) ints, the
        rest strs (``auth``: ``required`` or ``none``)."""
        return cast(Hello, self._ask("HELLO", R.hello))

    def stats(self) -> Dict[str, Value]:
        """STATS as a dict: a count or a number of microseconds an int,
        a value with a point a float, any other (``version``) a str."""
        return cast(Dict[str, Value], self._ask("STATS", R.stats))

    # -- verbs that solve ------------------------------------------------
    @overload
    def solve(self, puzzle: str, *, budget: Optional[int] = ...,
              deadline: Optional[float] = ...,
              effort: Literal[False] = ...) -> str: ...
    @overload
    def solve(self, puzzle: str, *, budget: Optional[int] = ...,
              deadline: Optional[float] = ...,
              effort: Literal[True]) -> Effort[str]: ...
    @overload
    def solve(self, puzzle: str, *, budget: Optional[int] = ...,
              deadline: Optional[float] = ...,
              effort: bool) -> Union[str, Effort[str]]: ...

    def solve(self, puzzle: str, *, budget: Optional[int] = None,
              deadline: Optional[float] = None,
              effort: bool = False) -> Any:
        """Any solution of the puzzle (81 characters, ``1``-``9`` for
        givens, ``0`` or ``.`` for blanks; or 729 characters of pencil
        marks, a solution then one of them in each cell), as 81 digits.
        So do lexmin, count, solutions and analyze."""
        return self._call(*_solve("SOLVE", puzzle, options(
            budget, deadline, effort), effort))

    @overload
    def lexmin(self, puzzle: str, *, budget: Optional[int] = ...,
               deadline: Optional[float] = ...,
               effort: Literal[False] = ...) -> str: ...
    @overload
    def lexmin(self, puzzle: str, *, budget: Optional[int] = ...,
               deadline: Optional[float] = ...,
               effort: Literal[True]) -> Effort[str]: ...
    @overload
    def lexmin(self, puzzle: str, *, budget: Optional[int] = ...,
               deadline: Optional[float] = ...,
               effort: bool) -> Union[str, Effort[str]]: ...

    def lexmin(self, puzzle: str, *, budget: Optional[int] = None,
               deadline: Optional[float] = None,
               effort: bool = False) -> Any:
        """The lexicographically smallest solution."""
        return self._call(*_solve("LEXMIN", puzzle, options(
            budget, deadline, effort), effort))

    @overload
    def count(self, puzzle: str, limit: int = ..., *,
              budget: Optional[int] = ..., deadline: Optional[float] = ...,
              effort: Literal[False] = ...) -> int: ...
    @overload
    def count(self, puzzle: str, limit: int = ..., *,
              budget: Optional[int] = ..., deadline: Optional[float] = ...,
              effort: Literal[True]) -> Effort[int]: ...
    @overload
    def count(self, puzzle: str, limit: int = ..., *,
              budget: Optional[int] = ..., deadline: Optional[float] = ...,
              effort: bool) -> Union[int, Effort[int]]: ...

    def count(self, puzzle: str, limit: int = 2, *,
              budget: Optional[int] = None,
              deadline: Optional[float] = None,
              effort: bool = False) -> Any:
        """How many solutions, counted up to limit (a result equal to
        limit means at least that many)."""
        return self._call(*_count(puzzle, limit, options(
            budget, deadline, effort), effort))

    @overload
    def analyze(self, puzzle: str, *, budget: Optional[int] = ...,
                deadline: Optional[float] = ...,
                effort: Literal[False] = ...) -> Analysis: ...
    @overload
    def analyze(self, puzzle: str, *, budget: Optional[int] = ...,
                deadline: Optional[float] = ...,
                effort: Literal[True]) -> Effort[Analysis]: ...
    @overload
    def analyze(self, puzzle: str, *, budget: Optional[int] = ...,
                deadline: Optional[float] = ...,
                effort: bool) -> Union[Analysis, Effort[Analysis]]: ...

    def analyze(self, puzzle: str, *, budget: Optional[int] = None,
                deadline: Optional[float] = None,
                effort: bool = False) -> Any:
        """Status, clues, effort and, for a unique puzzle, solution and
        rating, in one round trip: an :class:`Analysis`."""
        return self._call(*_analyze(puzzle, options(budget, deadline,
                                                    effort), effort))

    @overload
    def solutions(self, puzzle: str, n: int, *, budget: Optional[int] = ...,
                  deadline: Optional[float] = ...,
                  effort: Literal[False] = ...) -> List[str]: ...
    @overload
    def solutions(self, puzzle: str, n: int, *, budget: Optional[int] = ...,
                  deadline: Optional[float] = ...,
                  effort: Literal[True]) -> Effort[List[str]]: ...
    @overload
    def solutions(self, puzzle: str, n: int, *, budget: Optional[int] = ...,
                  deadline: Optional[float] = ...,
                  effort: bool) -> Union[List[str], Effort[List[str]]]: ...

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
        return self._call(*_solutions(puzzle, n, options(
            budget, deadline, effort), effort))

    @overload
    def rate(self, puzzle: str, *, budget: Optional[int] = ...,
             deadline: Optional[float] = ...,
             effort: Literal[False] = ...) -> Rating: ...
    @overload
    def rate(self, puzzle: str, *, budget: Optional[int] = ...,
             deadline: Optional[float] = ...,
             effort: Literal[True]) -> Effort[Rating]: ...
    @overload
    def rate(self, puzzle: str, *, budget: Optional[int] = ...,
             deadline: Optional[float] = ...,
             effort: bool) -> Union[Rating, Effort[Rating]]: ...

    def rate(self, puzzle: str, *, budget: Optional[int] = None,
             deadline: Optional[float] = None,
             effort: bool = False) -> Any:
        """How hard the puzzle is for a person: a :class:`Rating`."""
        return self._call(*_rate(puzzle, options(budget, deadline, effort),
                                 effort))

    @overload
    def hint(self, puzzle: str, grid: Optional[str] = ..., *,
             budget: Optional[int] = ..., deadline: Optional[float] = ...,
             effort: Literal[False] = ...) -> Optional[Hint]: ...
    @overload
    def hint(self, puzzle: str, grid: Optional[str] = ..., *,
             budget: Optional[int] = ..., deadline: Optional[float] = ...,
             effort: Literal[True]) -> Effort[Optional[Hint]]: ...
    @overload
    def hint(self, puzzle: str, grid: Optional[str] = ..., *,
             budget: Optional[int] = ..., deadline: Optional[float] = ...,
             effort: bool) -> Union[Optional[Hint],
                                    Effort[Optional[Hint]]]: ...

    def hint(self, puzzle: str, grid: Optional[str] = None, *,
             budget: Optional[int] = None,
             deadline: Optional[float] = None,
             effort: bool = False) -> Any:
        """The next logical step from grid (81 cells, or 729 characters
        of pencil marks; None: the puzzle itself): a :class:`Hint`, or
        None when every cell is filled."""
        return self._call(*_hint(puzzle, grid, options(
            budget, deadline, effort), effort))

    @overload
    def generate(self, level: Optional[str] = ..., seed: Optional[int] = ...,
                 *, info: Literal[False] = ..., symmetry: Optional[str] = ...,
                 clues: Union[None, int, Tuple[int, int]] = ...,
                 pattern: Optional[str] = ..., budget: Optional[int] = ...,
                 deadline: None = ...,
                 effort: Literal[False] = ...) -> str: ...
    @overload
    def generate(self, level: Optional[str] = ..., seed: Optional[int] = ...,
                 *, info: Literal[False] = ..., symmetry: Optional[str] = ...,
                 clues: Union[None, int, Tuple[int, int]] = ...,
                 pattern: Optional[str] = ..., budget: Optional[int] = ...,
                 deadline: None = ...,
                 effort: Literal[True]) -> Effort[str]: ...
    @overload
    def generate(self, level: Optional[str] = ..., seed: Optional[int] = ...,
                 *, info: Literal[True], symmetry: Optional[str] = ...,
                 clues: Union[None, int, Tuple[int, int]] = ...,
                 pattern: Optional[str] = ..., budget: Optional[int] = ...,
                 deadline: Optional[float] = ...,
                 effort: Literal[False] = ...) -> Generated: ...
    @overload
    def generate(self, level: Optional[str] = ..., seed: Optional[int] = ...,
                 *, info: Literal[True], symmetry: Optional[str] = ...,
                 clues: Union[None, int, Tuple[int, int]] = ...,
                 pattern: Optional[str] = ..., budget: Optional[int] = ...,
                 deadline: Optional[float] = ...,
                 effort: Literal[True]) -> Effort[Generated]: ...
    @overload
    def generate(self, level: Optional[str] = ..., seed: Optional[int] = ...,
                 *, info: Literal[False] = ..., symmetry: Optional[str] = ...,
                 clues: Union[None, int, Tuple[int, int]] = ...,
                 pattern: Optional[str] = ..., budget: Optional[int] = ...,
                 deadline: float,
                 effort: Literal[False] = ...) -> Generated: ...
    @overload
    def generate(self, level: Optional[str] = ..., seed: Optional[int] = ...,
                 *, info: Literal[False] = ..., symmetry: Optional[str] = ...,
                 clues: Union[None, int, Tuple[int, int]] = ...,
                 pattern: Optional[str] = ..., budget: Optional[int] = ...,
                 deadline: float,
                 effort: Literal[True]) -> Effort[Generated]: ...
    @overload
    def generate(self, level: Optional[str] = ..., seed: Optional[int] = ...,
                 *, info: bool = ..., symmetry: Optional[str] = ...,
                 clues: Union[None, int, Tuple[int, int]] = ...,
                 pattern: Optional[str] = ..., budget: Optional[int] = ...,
                 deadline: Optional[float] = ...,
                 effort: bool = ...) -> Any: ...

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
        ``x`` for a given, ``.`` for a blank).  With info or a deadline,
        however the deadline falls, a :class:`Generated`: the puzzle,
        its level (the one asked, or the nearest made by the deadline),
        with info the seed that makes it again (else None); without
        either, the puzzle (a str).  A clue ceiling or a pattern that
        nothing met by the deadline raises :class:`Error` ``deadline``."""
        gen = _generator(level, info, symmetry, clues, pattern, budget,
                         deadline, effort)
        return self._call(*gen(seed))

    # -- the toolbox ------------------------------------------------------
    def canon(self, puzzle: str) -> Tuple[str, int]:
        """The canonical (minlex) form of the puzzle, ``.`` for blanks,
        and its number of automorphisms: two puzzles are equivalent
        exactly when their forms are equal."""
        return cast(Tuple[str, int], self._call(*_canon(puzzle)))

    @overload
    def shuffle(self, puzzle: str, seed: Optional[int] = ..., *,
                info: Literal[False] = ...) -> str: ...
    @overload
    def shuffle(self, puzzle: str, seed: Optional[int] = ..., *,
                info: Literal[True]) -> Seeded: ...
    @overload
    def shuffle(self, puzzle: str, seed: Optional[int] = ..., *,
                info: bool) -> Union[str, Seeded]: ...

    def shuffle(self, puzzle: str, seed: Optional[int] = None, *,
                info: bool = False) -> Any:
        """An equivalent puzzle, the same for the same seed (None: the
        server picks one; info returns a :class:`Seeded` naming it)."""
        return self._call(*_seeded("SHUFFLE", puzzle, seed, info, "",
                                   False))

    @overload
    def minimize(self, puzzle: str, seed: Optional[int] = ..., *,
                 info: Literal[False] = ..., budget: Optional[int] = ...,
                 deadline: Optional[float] = ...,
                 effort: Literal[False] = ...) -> str: ...
    @overload
    def minimize(self, puzzle: str, seed: Optional[int] = ..., *,
                 info: Literal[False] = ..., budget: Optional[int] = ...,
                 deadline: Optional[float] = ...,
                 effort: Literal[True]) -> Effort[str]: ...
    @overload
    def minimize(self, puzzle: str, seed: Optional[int] = ..., *,
                 info: Literal[True], budget: Optional[int] = ...,
                 deadline: Optional[float] = ...,
                 effort: Literal[False] = ...) -> Seeded: ...
    @overload
    def minimize(self, puzzle: str, seed: Optional[int] = ..., *,
                 info: Literal[True], budget: Optional[int] = ...,
                 deadline: Optional[float] = ...,
                 effort: Literal[True]) -> Effort[Seeded]: ...
    @overload
    def minimize(self, puzzle: str, seed: Optional[int] = ..., *, info: bool,
                 budget: Optional[int] = ..., deadline: Optional[float] = ...,
                 effort: bool) -> Union[str, Seeded, Effort[str],
                                  Effort[Seeded]]: ...

    def minimize(self, puzzle: str, seed: Optional[int] = None, *,
                 info: bool = False, budget: Optional[int] = None,
                 deadline: Optional[float] = None,
                 effort: bool = False) -> Any:
        """The puzzle (one solution) with givens removed, in an order
        drawn from the seed, until none can go."""
        return self._call(*_seeded("MINIMIZE", puzzle, seed, info, options(
            budget, deadline, effort), effort))

    @overload
    def constrain(self, puzzle: str, seed: Optional[int] = ..., *,
                  info: Literal[False] = ..., budget: Optional[int] = ...,
                  deadline: Optional[float] = ...,
                  effort: Literal[False] = ...) -> str: ...
    @overload
    def constrain(self, puzzle: str, seed: Optional[int] = ..., *,
                  info: Literal[False] = ..., budget: Optional[int] = ...,
                  deadline: Optional[float] = ...,
                  effort: Literal[True]) -> Effort[str]: ...
    @overload
    def constrain(self, puzzle: str, seed: Optional[int] = ..., *,
                  info: Literal[True], budget: Optional[int] = ...,
                  deadline: Optional[float] = ...,
                  effort: Literal[False] = ...) -> Seeded: ...
    @overload
    def constrain(self, puzzle: str, seed: Optional[int] = ..., *,
                  info: Literal[True], budget: Optional[int] = ...,
                  deadline: Optional[float] = ...,
                  effort: Literal[True]) -> Effort[Seeded]: ...
    @overload
    def constrain(self, puzzle: str, seed: Optional[int] = ..., *, info: bool,
                  budget: Optional[int] = ..., deadline: Optional[float] = ...,
                  effort: bool) -> Union[str, Seeded, Effort[str],
                                   Effort[Seeded]]: ...

    def constrain(self, puzzle: str, seed: Optional[int] = None, *,
                  info: bool = False, budget: Optional[int] = None,
                  deadline: Optional[float] = None,
                  effort: bool = False) -> Any:
        """The puzzle with givens added, from a solution drawn from the
        seed, until it has exactly one solution."""
        return self._call(*_seeded("CONSTRAIN", puzzle, seed, info,
                                   options(budget, deadline, effort),
                                   effort))

    def path(self, puzzle: str, grid: Optional[str] = None, *,
             budget: Optional[int] = None,
             deadline: Optional[float] = None) -> Path:
        """The whole logical solution from grid (as :meth:`hint` takes
        it; None: the puzzle), every step applied before the next: a
        :class:`Path`."""
        return cast(Path, self._call(*_path(puzzle, grid, options(
            budget, deadline, False))))

    # -- pipelined batches -----------------------------------------------
    def _many(self, items: Iterable[Any],
              make: Callable[[Any], Tuple[str, _Spec]], window: int,
              errors: bool) -> Iterator[Any]:
        """make(item) of each item sent with at most window in flight;
        yield each parsed reply in order (an :class:`Error` in its place
        with errors, else raised: an :class:`InputError` too, for an
        item refused before it was sent).  Each reply has its deadline,
        the timeout from the one before."""
        check_window(window)
        try:
            self._skip_owed(self._deadline())
        except BaseException:
            self.close()
            raise
        it = iter(items)
        # Requests in flight (request, spec) and refused ones (error).
        sent: Deque[Union[InputError, Tuple[str, _Spec]]] = \
            collections.deque()
        done = False
        while True:
            # Refill once half the window is answered: one write a batch.
            if not done and len(sent) <= window // 2:
                batch: List[Tuple[str, _Spec]] = []
                for item in it:
                    try:
                        line, spec = make(item)
                    except InputError as e:
                        sent.append(e)
                    else:
                        batch.append((line, spec))
                        sent.append((line, spec))
                    if len(sent) >= window:
                        break
                else:
                    done = True
                if batch:
                    try:
                        self._send([ln for ln, _ in batch],
                                   self._deadline())
                    except BaseException:
                        self.close()
                        raise
                    self._owed.extend(sp for _, sp in batch)
            if not sent:
                return
            head = sent.popleft()
            if isinstance(head, InputError):
                if not errors:
                    raise head
                yield head
                continue
            request, spec = head
            try:
                lines = self._lines(spec, self._deadline())
            except BaseException:
                self.close()
                raise
            self._owed.popleft()
            try:
                value = self._value(request, lines, spec)
            except Error as e:
                if not errors:
                    raise
                yield e
            else:
                yield value

    def solve_many(self, puzzles: Iterable[str], *,
                   budget: Optional[int] = None,
                   deadline: Optional[float] = None, effort: bool = False,
                   window: int = DEFAULT_WINDOW,
                   errors: bool = False) -> Iterator[Any]:
        """solve() of each puzzle, pipelined: an iterator of the
        solutions in input order.  With errors, an :class:`Error` takes
        the place of a puzzle's solution instead of being raised (an
        :class:`InputError` for a puzzle refused before sending)."""
        opts = options(budget, deadline, effort)
        return self._many(puzzles, lambda p: _solve("SOLVE", p, opts,
                                                    effort), window, errors)

    def lexmin_many(self, puzzles: Iterable[str], *,
                    budget: Optional[int] = None,
                    deadline: Optional[float] = None, effort: bool = False,
                    window: int = DEFAULT_WINDOW,
                    errors: bool = False) -> Iterator[Any]:
        """lexmin() of each puzzle, pipelined, in input order."""
        opts = options(budget, deadline, effort)
        return self._many(puzzles, lambda p: _solve("LEXMIN", p, opts,
                                                    effort), window, errors)

    def count_many(self, puzzles: Iterable[str], limit: int = 2, *,
                   budget: Optional[int] = None,
                   deadline: Optional[float] = None, effort: bool = False,
                   window: int = DEFAULT_WINDOW,
                   errors: bool = False) -> Iterator[Any]:
        """count() of each puzzle, pipelined, in input order."""
        opts = options(budget, deadline, effort)
        count_arg(limit, "limit")
        return self._many(puzzles, lambda p: _count(p, limit, opts, effort),
                          window, errors)

    def analyze_many(self, puzzles: Iterable[str], *,
                     budget: Optional[int] = None,
                     deadline: Optional[float] = None,
                     effort: bool = False, window: int = DEFAULT_WINDOW,
                     errors: bool = False) -> Iterator[Any]:
        """analyze() of each puzzle, pipelined, in input order."""
        opts = options(budget, deadline, effort)
        return self._many(puzzles, lambda p: _analyze(p, opts, effort),
                          window, errors)

    def solutions_many(self, puzzles: Iterable[str], n: int, *,
                       budget: Optional[int] = None,
                       deadline: Optional[float] = None,
                       effort: bool = False, window: int = DEFAULT_WINDOW,
                       errors: bool = False) -> Iterator[Any]:
        """solutions() of each puzzle, pipelined, in input order: each
        reply's lines read whole before the next."""
        opts = options(budget, deadline, effort)
        count_arg(n)
        return self._many(puzzles, lambda p: _solutions(p, n, opts, effort),
                          window, errors)

    def rate_many(self, puzzles: Iterable[str], *,
                  budget: Optional[int] = None,
                  deadline: Optional[float] = None, effort: bool = False,
                  window: int = DEFAULT_WINDOW,
                  errors: bool = False) -> Iterator[Any]:
        """rate() of each puzzle, pipelined, in input order."""
        opts = options(budget, deadline, effort)
        return self._many(puzzles, lambda p: _rate(p, opts, effort),
                          window, errors)

    def hint_many(self, puzzles: Iterable[str], *,
                  budget: Optional[int] = None,
                  deadline: Optional[float] = None, effort: bool = False,
                  window: int = DEFAULT_WINDOW,
                  errors: bool = False) -> Iterator[Any]:
        """hint() of each puzzle (from its givens), pipelined."""
        opts = options(budget, deadline, effort)
        return self._many(puzzles, lambda p: _hint(p, None, opts, effort),
                          window, errors)

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
        return self._many(seeds, _generator(level, info, symmetry, clues,
                                            pattern, budget, deadline,
                                            effort), window, errors)

    def canon_many(self, puzzles: Iterable[str], *,
                   window: int = DEFAULT_WINDOW,
                   errors: bool = False) -> Iterator[Any]:
        """canon() of each puzzle, pipelined, in input order."""
        return self._many(puzzles, _canon, window, errors)

    def _seeded_many(self, verb: str, puzzles: Iterable[str],
                     seed: Optional[int], info: bool, opts: str,
                     effort: bool, window: int,
                     errors: bool) -> Iterator[Any]:
        """verb of each puzzle, the seeds seed, seed + 1, ... in turn
        (modulo 2**64) as sudokuc --seed numbers them; None: the
        server picks each."""
        seed_arg(seed)

        def make(ip: Tuple[int, str]) -> Tuple[str, _Spec]:
            s = None if seed is None else (seed + ip[0]) % (1 << 64)
            return _seeded(verb, ip[1], s, info, opts, effort)
        return self._many(enumerate(puzzles), make, window, errors)

    def shuffle_many(self, puzzles: Iterable[str],
                     seed: Optional[int] = None, *, info: bool = False,
                     window: int = DEFAULT_WINDOW,
                     errors: bool = False) -> Iterator[Any]:
        """shuffle() of each puzzle, pipelined, in input order: the
        seeds seed, seed + 1, ... (None: the server's)."""
        return self._seeded_many("SHUFFLE", puzzles, seed, info, "", False,
                                 window, errors)

    def minimize_many(self, puzzles: Iterable[str],
                      seed: Optional[int] = None, *, info: bool = False,
                      budget: Optional[int] = None,
                      deadline: Optional[float] = None,
                      effort: bool = False, window: int = DEFAULT_WINDOW,
                      errors: bool = False) -> Iterator[Any]:
        """minimize() of each puzzle, pipelined, seeds as shuffle_many."""
        return self._seeded_many("MINIMIZE", puzzles, seed, info, options(
            budget, deadline, effort), effort, window, errors)

    def constrain_many(self, puzzles: Iterable[str],
                       seed: Optional[int] = None, *, info: bool = False,
                       budget: Optional[int] = None,
                       deadline: Optional[float] = None,
                       effort: bool = False, window: int = DEFAULT_WINDOW,
                       errors: bool = False) -> Iterator[Any]:
        """constrain() of each puzzle, pipelined, seeds as
        shuffle_many."""
        return self._seeded_many("CONSTRAIN", puzzles, seed, info, options(
            budget, deadline, effort), effort, window, errors)

    def path_many(self, puzzles: Iterable[str], *,
                  budget: Optional[int] = None,
                  deadline: Optional[float] = None,
                  window: int = DEFAULT_WINDOW,
                  errors: bool = False) -> Iterator[Any]:
        """path() of each puzzle (from its givens), pipelined, in input
        order: each reply's lines read whole before the next."""
        opts = options(budget, deadline, False)
        return self._many(puzzles, lambda p: _path(p, None, opts), window,
                          errors)


# -- each request: its line, checked, and the spec of its reply ---------
Req = Tuple[str, _Spec]


def _solve(verb: str, puzzle: str, opts: str, effort: bool) -> Req:
    line = "%s %s%s" % (verb, check_cells(puzzle, GIVENS), opts)
    return line, _spec(line, R.solution(puzzle), effort)


def _count(puzzle: str, limit: int, opts: str, effort: bool) -> Req:
    line = "COUNT %s%s%s" % (check_cells(puzzle, GIVENS),
                             count_arg(limit, "limit"), opts)
    return line, _spec(line, R.count(limit), effort)


def _analyze(puzzle: str, opts: str, effort: bool) -> Req:
    line = "ANALYZE %s%s" % (check_cells(puzzle, GIVENS), opts)
    return line, _spec(line, R.analysis_of(puzzle), effort, analysis=True)


def _solutions(puzzle: str, n: int, opts: str, effort: bool) -> Req:
    line = "SOLUTIONS %s%s%s" % (check_cells(puzzle, GIVENS), count_arg(n),
                                 opts)
    return line, _spec(line, R.solutions(puzzle, n, effort), effort,
                       n + 1)


def _rate(puzzle: str, opts: str, effort: bool) -> Req:
    line = "RATE %s%s" % (check_cells(puzzle), opts)
    return line, _spec(line, R.rating, effort)


def _hint(puzzle: str, grid: Optional[str], opts: str,
          effort: bool) -> Req:
    line = "HINT " + check_cells(puzzle)
    if grid is not None:
        line += " " + check_cells(grid, (81, 729))
    line += opts
    return line, _spec(line, R.hint_of(puzzle if grid is None else grid),
                       effort)


def _path(puzzle: str, grid: Optional[str], opts: str) -> Req:
    line = "PATH " + check_cells(puzzle)
    if grid is not None:
        line += " " + check_cells(grid, (81, 729))
    line += opts
    return line, _spec(line, R.path)


def _generator(level: Optional[str], info: bool, symmetry: Optional[str],
               clues: Union[None, int, Tuple[int, int]],
               pattern: Optional[str], budget: Optional[int],
               deadline: Optional[float],
               effort: bool) -> Callable[[Optional[int]], Req]:
    """The GENERATE request of each seed, its shape checked once."""
    head = "GENERATE" + level_arg(level)
    opts = options(budget, deadline, effort, (" info=1" if info else "") +
                   shape_args(symmetry, clues, pattern))
    span = (clues, clues) if isinstance(clues, int) else clues

    def make(seed: Optional[int]) -> Req:
        line = head + seed_arg(seed) + opts
        return line, _spec(line, R.generated(level, seed, info,
                                             deadline is not None, span,
                                             pattern), effort)
    return make


def _canon(puzzle: str) -> Req:
    line = "CANON " + check_cells(puzzle)
    return line, _spec(line, R.canon_of(puzzle))


def _seeded(verb: str, puzzle: str, seed: Optional[int], info: bool,
            opts: str, effort: bool) -> Req:
    line = "%s %s%s%s%s" % (verb, check_cells(puzzle), seed_arg(seed),
                            " info=1" if info else "", opts)
    return line, _spec(line, R.seeded(puzzle, verb, seed, info), effort)
