# SPDX-License-Identifier: ISC
"""
The asyncio client (``sudokud.asyncio.Client``): one connection, shared
by any number of coroutines.  A request is queued and written at once,
in the order of the calls; a task reads the replies as they come and
gives each to the oldest request, whose reply it is (sudokud answers in
order), after the same checks as the sync client's (wire.py).  Every
call has its own deadline; a timeout, a reply that does not fit or a
connection lost closes the connection: the call that met it raises its
error, every other call then in flight raises ConnectionError (a Pool
sends those again), and the next call connects again.
"""

from __future__ import annotations

import asyncio
import collections
import socket
import ssl
from typing import (Any, AsyncIterator, Deque, Iterable, List, Optional,
                    Tuple, Union)

from . import replies as R
from . import requests as Q
from .address import AddressLike
from .errors import (AuthError, ConnectionError, Error, ProtocolError,
                     SudokudError, TimeoutError)
from .secure import TLS, auth_line, auth_reply, handshake_error
from .aiopipeline import Sink, pipeline
from .servers import Tries
from .settings import Endpoint
from .verbs import AsyncVerbs
from .wire import Batch, Make, Reader, Req, fatal, outcomes, spec, wire

#: Bytes waiting in the transport before a writer waits for them to go.
_HIGH = 1 << 16


#: Who waits for a reply: a call's future, or a batch's sink.
Waiter = Union["asyncio.Future[Any]", Sink]


def _deliver(who: Waiter, outcome: Any) -> None:
    if isinstance(who, Sink):
        who.put([outcome])
    elif not who.done():
        if isinstance(outcome, BaseException):
            who.set_exception(outcome)
        else:
            who.set_result(outcome)


class Conn:
    """One connection: its streams, the requests in flight in the order
    sent, and the task that reads their replies."""

    def __init__(self, name: str, reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter):
        self.name = name
        self.reader = reader
        self.writer = writer
        self.wire = Reader()
        self.flight: Deque[Tuple[Req, Waiter]] = collections.deque()
        self.closed: Optional[BaseException] = None
        self.drain = asyncio.Lock()
        self.task = asyncio.ensure_future(self._read())

    def send(self, reqs: List[Req], who: Waiter) -> None:
        """Queue the requests, their replies for who; written at once,
        so that the order of the wire is the order of the queue."""
        if self.closed is not None:
            raise ConnectionError("%s: the connection was closed (%s)"
                                  % (self.name, self.closed))
        self.flight.extend((r, who) for r in reqs)
        self.writer.write(wire(reqs))

    async def flush(self) -> None:
        """Wait while too much is waiting to be written."""
        if self.writer.transport.get_write_buffer_size() > _HIGH:
            async with self.drain:
                try:
                    await self.writer.drain()
                except OSError as e:
                    err = ConnectionError("send to %s: %s" % (self.name, e))
                    self.fail(err)
                    raise err from e

    async def _read(self) -> None:
        try:
            while True:
                data = await self.reader.read(262144)
                if not data:
                    raise ConnectionError("%s: the server closed the "
                                          "connection" % self.name)
                if not self.flight:
                    raise unasked(self.name, data)
                self.wire.feed(data)
                self._dispatch()
        except asyncio.CancelledError:
            raise
        except Delivered as d:
            self.fail(d.e, delivered=True)
        except SudokudError as e:
            self.fail(e)
        except ssl.SSLError as e:
            self.fail(handshake_error("TLS with", self.name, e))
        except (OSError, EOFError) as e:
            self.fail(ConnectionError("recv %s: %s" % (self.name, e)))

    def _dispatch(self) -> None:
        """The replies that have come whole, each to its request, all
        checked (wire.outcomes: a run of solutions at once); one that
        does not fit, or ERR busy, ends the connection after it."""
        flight, wire = self.flight, self.wire
        while flight:
            out = outcomes(wire, [req for req, _ in flight])
            if not out:
                break
            i, n = 0, len(out)
            while i < n:                # a batch's run of them at once
                who = flight.popleft()[1]
                j = i + 1
                if isinstance(who, Sink):
                    while j < n and flight[0][1] is who:
                        flight.popleft()
                        j += 1
                    who.put(out[i:j])
                else:
                    _deliver(who, out[i])
                i = j
            if isinstance(out[-1], ProtocolError):
                raise Delivered(out[-1])
            if isinstance(out[-1], Error) and fatal(out[-1]):
                raise Delivered(ConnectionError("%s: closed after ERR busy"
                                                % self.name))
        if not flight and wire.unread():
            raise unasked(self.name, wire.buf or b"\n".join(wire.pending))

    def fail(self, e: BaseException, delivered: bool = False) -> None:
        """Close, the oldest request in flight getting e (unless it has
        it already, or e is a TimeoutError: its caller's own), the others
        a ConnectionError (their requests may be sent again)."""
        if self.closed is not None:
            return
        self.closed = e
        self.writer.close()
        if not self.task.done() and asyncio.current_task() is not self.task:
            self.task.cancel()
        lost = ConnectionError("%s: the connection was closed (%s)"
                               % (self.name, e))
        first = not delivered and not isinstance(e, TimeoutError)
        while self.flight:
            _deliver(self.flight.popleft()[1], e if first else lost)
            first = False


class Delivered(Exception):
    """The connection ends for e, which its request has had already."""

    def __init__(self, e: SudokudError):
        super().__init__(str(e))
        self.e = e


def unasked(name: str, data: bytes) -> SudokudError:
    """What bytes that came with no request waiting for them mean: the
    ERR busy or ERR noauth sudokud sends a connection it refuses as it
    comes (a ConnectionError, an AuthError), else a ProtocolError."""
    code, _, text = data.partition(b"\n")[0][4:].decode(
        "ascii", "replace").partition(" ")
    if data.startswith(b"ERR busy "):
        return ConnectionError("%s: busy: %s" % (name, text[:200]))
    if data.startswith(b"ERR noauth "):
        return AuthError(code, text[:200], "")
    return ProtocolError("%s: bytes no request asked for: %r"
                         % (name, data[:100]))


class Client(Endpoint, AsyncVerbs):
    """A connection to one sudokud, for coroutines: the methods of
    :class:`sudokud.Client`, each a coroutine (``await c.solve(p)``),
    each ``*_many`` an async iterator (``async for s in
    c.solve_many(ps)``), pipelined.  Any number of tasks may share one
    client: their requests go out in the order of the calls, and each
    reply goes to its own.

    ``address``, ``timeout``, ``connect_timeout``, ``tls``,
    ``server_hostname``, ``auth``, ``auth_file``: as
    :class:`sudokud.Client`'s.  The connection is made by the first
    call, or ``await c.connect()``, or ``async with``; ``await
    c.close()`` closes it.  Each call has its deadline, ``timeout``
    seconds from its start (a ``*_many`` call: each reply, from the one
    before); a call that meets it raises :class:`TimeoutError` and
    closes the connection, and the other calls then in flight on it
    raise :class:`ConnectionError`.  A reply that does not fit raises
    :class:`ProtocolError` the same way.  A call cancelled by its
    caller leaves the connection as it is (its reply, when it comes, is
    dropped).
    """

    def __init__(self, address: Optional[AddressLike] = None,
                 timeout: Optional[float] = 30.0, *,
                 connect_timeout: Optional[float] = 10.0, tls: TLS = False,
                 server_hostname: Optional[str] = None,
                 auth: Optional[str] = None,
                 auth_file: Optional[str] = None):
        Endpoint.__init__(self, address, timeout, connect_timeout, tls,
                          server_hostname, auth, auth_file)
        self._conn: Optional[Conn] = None
        self._lock: Optional[asyncio.Lock] = None

    def __repr__(self) -> str:
        c = self._conn
        return "<sudokud.asyncio.Client %s, %s, timeout=%s>" % (
            self._label(), "not connected" if c is None or c.closed else
            "%d in flight" % len(c.flight), self.timeout)

    async def __aenter__(self) -> "Client":
        await self.connect()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the connection; the calls in flight on it raise
        ConnectionError.  A call after this connects again."""
        c = self._conn
        self._drop()
        if c is not None:
            try:
                await c.writer.wait_closed()
            except (OSError, asyncio.CancelledError, SudokudError):
                pass

    async def connect(self) -> None:
        """Make the connection, if there is none (within
        connect_timeout): connected, TLS's handshake done, AUTH answered
        OK."""
        await self._ready()

    def connected(self) -> bool:
        """Is the connection open (as far as is known)?"""
        return self._conn is not None and self._conn.closed is None

    def in_flight(self) -> int:
        """The requests sent on the connection and not yet answered."""
        c = self._conn
        return 0 if c is None or c.closed is not None else len(c.flight)

    def _drop(self) -> None:
        """Close at once, without waiting for the transport."""
        c, self._conn = self._conn, None
        if c is not None:
            c.fail(ConnectionError("closed by the client"))

    async def _ready(self, within: Optional[float] = -1.0) -> Conn:
        """The connection, made if there is none, within the
        connect_timeout (or within seconds)."""
        c = self._conn
        if c is not None and c.closed is None:
            return c
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            c = self._conn
            if c is None or c.closed is not None:
                c = self._conn = await self._open(
                    self.connect_timeout if within == -1.0 else within)
        return c

    async def _open(self, within: Optional[float]) -> Conn:
        name = self.where.name
        try:
            r, w = await asyncio.wait_for(self._streams(), within)
        except asyncio.TimeoutError:
            raise TimeoutError("connect to %s: not made within %s s"
                               % (name, within)) from None
        except OSError as e:
            if isinstance(e, ssl.SSLError):
                raise handshake_error("TLS handshake with", name, e) from e
            raise ConnectionError("connect %s: %s" % (name, e)) from e
        c = Conn(name, r, w)
        if self._secret is not None:
            line = auth_line(self._secret)
            try:
                auth_reply(await self._call(c, (line, spec(
                    line, checked=False), None), within))
            except BaseException:
                c.fail(ConnectionError("AUTH failed"))
                raise
        return c

    async def _streams(self) -> Tuple[asyncio.StreamReader,
                                      asyncio.StreamWriter]:
        a = self.where
        if a.family == socket.AF_UNIX:
            return await asyncio.open_unix_connection(
                a.target, ssl=self.tls, limit=1 << 20,
                server_hostname=self.server_hostname if self.tls else None)
        return await asyncio.open_connection(
            a.target[0], a.target[1], ssl=self.tls, limit=1 << 20,
            server_hostname=self.server_hostname if self.tls else None)

    async def _call(self, c: Conn, req: Req,
                    timeout: Optional[float]) -> Any:
        """req's value on c, within timeout; a timeout closes c."""
        fut: asyncio.Future[Any] = \
            asyncio.get_running_loop().create_future()
        c.send([req], fut)
        try:
            if c.writer.transport.get_write_buffer_size() > _HIGH:
                await asyncio.wait_for(_both(c, fut), timeout)
            elif timeout is None:
                await fut
            else:
                await asyncio.wait_for(fut, timeout)
        except asyncio.TimeoutError:
            e = TimeoutError("%s: no reply within %s s" % (c.name, timeout))
            c.fail(e)
            raise e from None
        return fut.result()

    async def _run(self, req: Req) -> Any:
        return await self._call(await self._ready(), req, self.timeout)

    def _batch(self, items: Iterable[Any], make: Make, window: int,
               errors: bool) -> AsyncIterator[Any]:
        return pipeline(self, Batch(items, make, window), errors)

    # A Client is the lease of its own batches (aiopipeline.py): its one
    # connection, and no other when it fails.
    async def take(self, tries: Tries) -> "Client":
        await self._ready()
        return self

    def lost(self, client: "Client", e: BaseException,
             tries: Tries) -> bool:
        return False

    def answered(self, client: "Client") -> None:
        pass

    async def _check(self) -> None:
        """PING (a server that failed must answer it first)."""
        c = await self._ready()
        await self._call(c, Q.simple("PING", R.pong), self.connect_timeout)


async def _both(c: Conn, fut: "asyncio.Future[Any]") -> None:
    """Written out (if much waits to go), then answered."""
    await c.flush()
    await fut

