# SPDX-License-Identifier: ISC
"""
A pool of sync connections to one sudokud or several, for threads: the
methods of the Client, each call on a connection of its own for its
time; connections made as they are needed, up to ``size``, kept for the
next call, and checked before they are used again; a request whose
connection failed sent again on another, to the same server or another
(servers.py says which, as sudokuc does).
"""

from __future__ import annotations

import threading
import time
from typing import (Any, Dict, Iterable, Iterator, List, Optional,
                    Sequence, Tuple, Union)

from .address import AddressLike
from .client import Client
from .errors import ConnectionError, TimeoutError
from .pipeline import pipeline
from .secure import TLS
from .servers import Server, Tries, shortest
from .settings import PoolSettings, deadline_in
from .verbs import SyncVerbs
from .wire import Batch, Make, Req, Spec, fatal


def _in(deadline: Optional[float]) -> Optional[float]:
    """The seconds to deadline (not below 0)."""
    return None if deadline is None else max(0.0, deadline -
                                             time.monotonic())


class Pool(PoolSettings, SyncVerbs):
    """Connections to the servers, for many threads at once.

    ``servers``: a list of addresses (any form :class:`Client` takes),
    or a str of them separated by commas, as $SUDOKUD_SERVERS; None:
    $SUDOKUD_SERVERS, else each socket of $SUDOKUD_SOCKET, else
    ``/run/sudokud.sock`` (as sudokuc looks).  ``size``: the most
    connections open at once, over all servers; a call when all are in
    use waits for one, within its timeout.  ``timeout``: the seconds a
    call may take from its start (waiting for a connection, making it,
    sending again after a failure, all included; a ``*_many`` call:
    each reply, from the one before); ``connect_timeout``: the most
    making one connection may take.  ``tls``, ``server_hostname``,
    ``auth``, ``auth_file``: as :class:`Client`'s, for every server.

    New connections go to the servers in turn.  A connection back from
    a call is kept (the most recent first) and checked before it is
    used again: one the server closed (its ``idle_timeout``), or that
    has bytes nobody asked for, is closed and another made.  When a
    connection fails (reset, closed, ``ERR busy``), what it left
    unanswered is sent again on another, so a server's restart or one
    of several servers going away costs no request; a server that could
    not be reached is tried again after 50 ms, doubling to 2 s, and one
    that failed is asked PING before its next request.  A server that
    answers what sudokud would not (:class:`ProtocolError`), refuses
    AUTH or fails its TLS handshake is set aside for the pool's life,
    and its requests go to the others; with none left, the error is
    raised (ConnectionError naming each server, but for a pool of one,
    whose own error is).  Sending again is safe: every request is a
    pure function of its line (servers.py says more).
    """

    def __init__(self, servers: Union[None, str,
                                      Sequence[AddressLike]] = None,
                 size: int = 8, timeout: Optional[float] = 30.0, *,
                 connect_timeout: Optional[float] = 10.0, tls: TLS = False,
                 server_hostname: Optional[str] = None,
                 auth: Optional[str] = None,
                 auth_file: Optional[str] = None):
        PoolSettings.__init__(self, servers, size, timeout, connect_timeout,
                              tls, server_hostname, auth, auth_file)
        self._cond = threading.Condition()
        self._idle: List[Tuple[Server, Client]] = []
        self._busy: Dict[int, Server] = {}     # id(client): its server
        self._open = 0
        self._closed = False

    def __repr__(self) -> str:
        with self._cond:
            return "<sudokud.Pool %s, size=%d, %d open, %d idle>" % (
                self._label(), self.size, self._open, len(self._idle))

    def close(self) -> None:
        """Close the idle connections; those in use close when their
        calls end.  A call after this raises ConnectionError."""
        with self._cond:
            self._closed = True
            idle, self._idle = self._idle, []
            self._open -= len(idle)
            self._cond.notify_all()
        for _, c in idle:
            c.close()

    def __enter__(self) -> "Pool":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- connections ---------------------------------------------------------
    def _client(self, server: Server) -> Client:
        return Client(server.address.name, self.timeout,
                      connect_timeout=self.connect_timeout,
                      tls=self._tls_of(server.address.tls),
                      server_hostname=self._hostname, auth=self._secret,
                      connect=False)

    def _slot(self, deadline: Optional[float], tries: Tries) -> \
            Optional[Tuple[Server, Client]]:
        """Under the lock: an idle connection fit to use, or None when
        a new one may be made (counted open); waits while all are in
        use."""
        skip = tries.skip(self.servers)
        while True:
            if self._closed:
                raise ConnectionError("the pool is closed")
            while self._idle:
                server, c = self._idle.pop()
                if server.aside is None and server not in skip and \
                        not c._stale():
                    return server, c
                c.close()
                self._open -= 1
            if self._open < self.size:
                self._open += 1
                return None
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise TimeoutError("no connection of the pool free within "
                                   "%s s" % self.timeout)
            self._cond.wait(left)

    def _new(self, deadline: Optional[float], tries: Tries) -> \
            Tuple[Server, Client]:
        """A new connection (counted open), to the next server that may
        take one; PING first to one that failed."""
        while True:
            with self._cond:
                server = self.servers.pick(tries.skip(self.servers))
                wait = self._wait(server, deadline, tries)
            if server is None:
                time.sleep(wait)
                continue
            c = self._client(server)
            within = deadline_in(shortest(_in(deadline),
                                          self.connect_timeout))
            try:
                c._connect(within)
                if server.suspect:
                    c._check(within)
            except BaseException as e:
                c.close()
                with self._cond:
                    if not self.servers.failed(server, e, True):
                        self._open -= 1
                        self._cond.notify()
                        raise
                    tries.add(server, e)
                continue
            return server, c

    def _wait(self, server: Optional[Server], deadline: Optional[float],
              tries: Tries) -> float:
        """Under the lock, no server to connect to now (server None):
        how long to wait for one to be tried again, or the error."""
        if server is not None:
            return 0.0
        wait = tries.wait(self.servers, deadline)
        if wait is None:
            self._open -= 1
            self._cond.notify()
            raise tries.give_up(self.servers)
        return wait

    def _get(self, deadline: Optional[float], tries: Tries) -> \
            Tuple[Server, Client]:
        with self._cond:
            got = self._slot(deadline, tries)
        if got is None:
            got = self._new(deadline, tries)
        with self._cond:
            self._busy[id(got[1])] = got[0]
        return got

    def _put(self, c: Client) -> None:
        """A connection back from a call: kept if it is still open."""
        with self._cond:
            server = self._busy.pop(id(c))
            if c.sock is not None and not self._closed and \
                    server.aside is None:
                self._idle.append((server, c))
            else:
                self._open -= 1
            self._cond.notify()
        if c.sock is not None and (self._closed or server.aside):
            c.close()

    def _failed(self, c: Client, e: BaseException, tries: Tries) -> bool:
        """c failed with e in a call: True to send again (c closed)."""
        with self._cond:
            server = self._busy[id(c)]
            again = fatal(e) and self.servers.failed(server, e, False)
            if again:
                tries.add(server, e)
        if again:
            c.close()
        return again

    # -- calls ---------------------------------------------------------------
    def _run(self, req: Req) -> Any:
        deadline = deadline_in(self.timeout)
        tries = Tries()
        while True:
            server, c = self._get(deadline, tries)
            try:
                got = c._exchange(req, deadline)
            except BaseException as e:
                again = self._failed(c, e, tries)
                self._put(c)
                if not again:
                    raise
                continue
            with self._cond:
                self.servers.answered(server)
            self._put(c)
            return got

    def _batch(self, items: Iterable[Any], make: Make, window: int,
               errors: bool) -> Iterator[Any]:
        return pipeline(self, Batch(items, make, window, min(2, self.size)),
                        errors)

    # The lease of a batch (pipeline.py): a connection of the pool, and
    # another when it fails.
    def take(self, tries: Tries) -> Client:
        deadline = deadline_in(self.timeout)
        while True:
            c = self._get(deadline, tries)[1]
            try:
                c._skip_owed(deadline)      # another batch's, left
            except BaseException as e:
                if not self.lost(c, e, tries):
                    raise
                continue
            return c

    def lost(self, conn: Client, e: BaseException, tries: Tries) -> bool:
        again = self._failed(conn, e, tries)
        if again:
            self._put(conn)
        return again

    def answered(self, conn: Client) -> None:
        with self._cond:
            self.servers.answered(self._busy[id(conn)])

    def give_back(self, conn: Client, owed: List[Spec]) -> None:
        if conn.sock is not None:
            conn._owed.extend(owed)
        self._put(conn)

