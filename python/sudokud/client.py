# SPDX-License-Identifier: ISC
"""
The sync client: one connection to a sudokud, a method per verb of its
line protocol (doc/protocol.md, version 2; methods.py), replies parsed
into Python values and checked (wire.py: a reply sudokud would not send
raises :class:`ProtocolError`), every ``ERR`` raised as :class:`Error`,
and ``*_many`` methods that pipeline a whole iterable with a bounded
window of requests in flight, answers in input order.

Every argument is checked before anything is sent; every call has a
deadline, ``timeout`` seconds, and making the connection its own,
``connect_timeout``; a timeout, a lost connection or a reply that does
not fit closes the connection, and the next call connects again, so
that no reply is ever read out of step.

Standard library only; Python 3.9 and later.
"""

from __future__ import annotations

import builtins
import collections
import select
import socket
import ssl
from typing import Any, Callable, Deque, Iterable, Iterator, List, Optional

from .address import AddressLike
from . import replies as R
from . import requests as Q
from .errors import ConnectionError, Error, ProtocolError, TimeoutError
from .secure import TLS, auth_line, auth_reply, handshake_error
from .pipeline import pipeline
from .servers import Tries
from .settings import Endpoint, deadline_in, seconds_left
from .verbs import SyncVerbs
from .wire import (Batch, Make, Reader, Req, Spec, fatal, outcomes, spec,
                   value, wire)


class Client(Endpoint, SyncVerbs):
    """A connection to one sudokud.

    ``address``: ``"unix:/run/sudokud.sock"``, ``"/path.sock"``,
    ``"host:port"``, ``(host, port)`` or a URL (``sudokud://host:port``,
    ``sudokuds://``, ``unix:///path``; address.py); None:
    $SUDOKUD_SOCKET, else ``/run/sudokud.sock``.  ``timeout``: the
    seconds a call may take, from its request sent to its reply read
    whole (a ``*_many`` call: each reply, from the one before); None:
    forever.  ``connect_timeout``: the seconds making the connection may
    take (connect, the TLS handshake, AUTH).  Both are attributes, which
    may be changed between calls.  The connection is made at once
    (``connect=False``: at the first call); one that failed (a timeout,
    a connection lost, a reply that does not fit) is closed, and the
    next call connects again.  :meth:`close`, or the end of a ``with``
    block, closes it.  A client is for one thread at a time (a
    :class:`Pool` is for many).

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

    def __init__(self, address: Optional[AddressLike] = None,
                 timeout: Optional[float] = 30.0, *,
                 connect_timeout: Optional[float] = 10.0, tls: TLS = False,
                 server_hostname: Optional[str] = None,
                 auth: Optional[str] = None,
                 auth_file: Optional[str] = None, connect: bool = True):
        Endpoint.__init__(self, address, timeout, connect_timeout, tls,
                          server_hostname, auth, auth_file)
        self.family, self.address = self.where.family, self.where.target
        self.sock: Optional[socket.socket] = None
        self._reader = Reader()
        # The replies of an abandoned batch to skip: their specs.
        self._owed: Deque[Spec] = collections.deque()
        if connect:
            self._connect(deadline_in(connect_timeout))

    def __repr__(self) -> str:
        return "<sudokud.Client %s, %s, timeout=%s>" % (
            self._label(), "connected" if self.sock else "not connected",
            self.timeout)

    # -- the connection -------------------------------------------------
    def close(self) -> None:
        """Close the connection (the server answers what it has); a
        call after this connects again."""
        if self.sock is not None:
            self.sock.close()
        self.sock = None
        self._reader = Reader()
        self._owed.clear()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _io(self, what: str, fn: Callable[[], Any]) -> Any:
        """fn(), its socket errors raised as ours."""
        try:
            return fn()
        except (socket.timeout, builtins.TimeoutError) as e:
            raise TimeoutError("%s %s: no progress within the deadline"
                               % (what, self.where.name)) from e
        except ssl.SSLError as e:
            raise handshake_error("TLS with", self.where.name, e) from e
        except OSError as e:
            raise ConnectionError("%s %s: %s" % (what, self.where.name,
                                                 e)) from e

    def _connect(self, deadline: Optional[float]) -> socket.socket:
        """The connection, made if there is none within deadline:
        connected, its TLS handshake done, AUTH answered OK."""
        if self.sock is not None:
            return self.sock
        late = "connect to %s: not made within %s s" % (
            self.where.name, self.connect_timeout)
        sock = socket.socket(self.family, socket.SOCK_STREAM)
        try:
            sock.settimeout(seconds_left(deadline, late))
            self._io("connect", lambda: sock.connect(self.address))
            if self.tls is not None:
                sock.settimeout(seconds_left(deadline, late))
                sock = self._handshake(sock, self.tls)
        except BaseException:
            sock.close()
            raise
        self.sock = sock
        if self._secret is not None:
            try:
                self._auth(self._secret, deadline)
            except BaseException:
                self.close()
                raise
        return sock

    def _handshake(self, sock: socket.socket,
                   ctx: ssl.SSLContext) -> ssl.SSLSocket:
        """sock wrapped in TLS, the handshake done within its timeout;
        any failure of it a TLSError, but a timeout."""
        tls = ctx.wrap_socket(sock, server_hostname=self.server_hostname,
                              do_handshake_on_connect=False)
        try:
            tls.do_handshake()
        except (socket.timeout, builtins.TimeoutError) as e:
            raise TimeoutError("TLS handshake with %s: not done within %s s"
                               % (self.where.name, self.connect_timeout)) \
                from e
        except OSError as e:
            raise handshake_error("TLS handshake with", self.where.name,
                                  e) from e
        return tls

    def _auth(self, secret: str, deadline: Optional[float]) -> None:
        """AUTH with the secret, first on a connection: OK, or the
        AuthError (another Error) of its ERR raised."""
        line = auth_line(secret)
        self._send((line + "\n").encode("ascii"), deadline)
        auth_reply(self._reply(spec(line, checked=False), deadline)[0])

    def _sock(self) -> socket.socket:
        if self.sock is None:
            raise ConnectionError("%s: the connection was closed"
                                  % self.where.name)
        return self.sock

    def _send(self, data: bytes, deadline: Optional[float]) -> None:
        sock = self._sock()
        sock.settimeout(seconds_left(deadline, "send to %s: not sent within "
                                     "%s s" % (self.where.name,
                                               self.timeout)))
        self._io("send", lambda: sock.sendall(data))

    def _fill(self, deadline: Optional[float]) -> None:
        """Read what came into the reader."""
        sock = self._sock()
        sock.settimeout(seconds_left(deadline, "%s: no reply within %s s"
                              % (self.where.name, self.timeout)))
        data = self._io("recv", lambda: sock.recv(262144))
        if not data:
            raise ConnectionError("%s: the server closed the connection%s"
                                  % (self.where.name, self._why_closed()))
        self._reader.feed(data)

    def _why_closed(self) -> str:
        if self._reader.heard or self.tls is not None or \
                self.family == socket.AF_UNIX:
            return ""
        return " before any reply (a TLS port? tls=True)"

    def _reply(self, sp: Spec, deadline: Optional[float]) -> List[str]:
        """The next reply's lines, read before deadline."""
        while True:
            lines = self._reader.reply(sp)
            if lines is not None:
                return lines
            self._fill(deadline)

    def _skip_owed(self, deadline: Optional[float]) -> None:
        """The replies of a batch left before its end: read, dropped,
        so that the next reply is the next request's; then nothing must
        be left that no request asked for."""
        while self._owed:
            self._reply(self._owed[0], deadline)
            self._owed.popleft()
        if self._reader.unread():
            raise ProtocolError("%s: bytes no request asked for: %r" % (
                self.where.name, (self._reader.buf or b"\n".join(
                    self._reader.pending))[:100]))

    def _exchange(self, req: Req, deadline: Optional[float]) -> Any:
        """Send one request on the connection (made before), read its
        reply whole before the deadline: its value; any failure on the
        way that leaves the connection unusable closes it."""
        try:
            self._skip_owed(deadline)
            self._send((req[0] + "\n").encode("ascii"), deadline)
        except BaseException:
            self.close()
            raise
        return self._take(req, deadline)

    def _run(self, req: Req) -> Any:
        self._connect(deadline_in(self.connect_timeout))
        return self._exchange(req, deadline_in(self.timeout))

    # -- pipelined batches -------------------------------------------------
    def _batch(self, items: Iterable[Any], make: Make, window: int,
               errors: bool) -> Iterator[Any]:
        return pipeline(self, Batch(items, make, window), errors)

    def _pipe(self, reqs: List[Req]) -> None:
        """Send a batch's requests; any failure closes the connection."""
        if not reqs:
            return
        try:
            self._send(wire(reqs), deadline_in(self.timeout))
        except BaseException:
            self.close()
            raise

    def _take(self, req: Req, deadline: Optional[float] = None) -> Any:
        """The value of the next reply, req's, read before deadline (None:
        timeout from now, if it has not all come: a batch's reply, from
        the one before), checked; a failure that leaves the connection
        unusable (not an ERR but busy) closes it."""
        try:
            lines = self._reader.reply(req[1])
            if lines is None:
                lines = self._reply(req[1], deadline or
                                    deadline_in(self.timeout))
            return value(req, lines)
        except Error as e:
            if fatal(e):
                self.close()
            raise
        except BaseException:
            self.close()
            raise

    def _take_many(self, reqs: List[Req]) -> List[Any]:
        """The outcomes (wire.outcomes) of the next replies, those of
        reqs in order: the first read within timeout, then as many as
        have come whole; one that leaves the connection unusable
        (ProtocolError, ERR busy) is the last, and closes it."""
        reader = self._reader
        deadline = None
        try:
            while reader.waiting(reqs[0][1]):
                deadline = deadline or deadline_in(self.timeout)
                self._fill(deadline)
            out = outcomes(reader, reqs)
            while not out:              # a reply of lines, not all here
                deadline = deadline or deadline_in(self.timeout)
                self._fill(deadline)
                out = outcomes(reader, reqs)
        except BaseException:
            self.close()
            raise
        if isinstance(out[-1], BaseException) and fatal(out[-1]):
            self.close()
        return out

    # A Client is the lease of its own batches (pipeline.py): its one
    # connection, and no other when it fails.
    def take(self, tries: Tries) -> "Client":
        try:
            self._connect(deadline_in(self.connect_timeout))
            self._skip_owed(deadline_in(self.timeout))
        except BaseException:
            self.close()
            raise
        return self

    def lost(self, conn: "Client", e: BaseException, tries: Tries) -> bool:
        return False

    def answered(self, conn: "Client") -> None:
        pass

    def give_back(self, conn: "Client", owed: List[Spec]) -> None:
        if self.sock is not None:
            self._owed.extend(owed)

    # -- for pools ------------------------------------------------------------
    def _stale(self) -> bool:
        """Is the idle connection no longer fit to use: the server closed
        it (its idle_timeout), or sent what nobody asked for?  Looks
        without waiting; a TLS record that is no data is fine."""
        sock = self.sock
        if sock is None or self._owed:
            return False
        if self._reader.unread():
            return True
        try:
            if not select.select([sock], [], [], 0)[0]:
                return False
            sock.setblocking(False)
            sock.recv(4096)
        except (ssl.SSLWantReadError, BlockingIOError):
            return False
        except (OSError, ValueError):
            return True
        return True         # an end of stream, or bytes nobody asked for

    def _check(self, deadline: Optional[float]) -> None:
        """PING on the connection (a server that failed before must
        answer it before it gets requests, as sudokuc asks)."""
        self._exchange(Q.simple("PING", R.pong), deadline)
