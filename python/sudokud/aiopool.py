# SPDX-License-Identifier: ISC
"""
A pool of asyncio connections to one sudokud or several
(``sudokud.asyncio.Pool``): up to ``size`` connections, each shared by
the tasks whose requests it carries (aioclient.py), a call going to the
connection with the fewest in flight; a request whose connection failed
sent again on another, to the same server or another (servers.py says
which, as sudokuc does).
"""

from __future__ import annotations

import asyncio
import time
from typing import (Any, AsyncIterator, Dict, Iterable, List, Optional,
                    Sequence, Tuple, Union)

from .address import AddressLike
from .aioclient import Client
from .aiopipeline import pipeline
from .errors import ConnectionError
from .secure import TLS
from .servers import Server, Tries, shortest
from .settings import PoolSettings, deadline_in, seconds_left
from .verbs import AsyncVerbs
from .wire import Batch, Make, Req, fatal


class Pool(PoolSettings, AsyncVerbs):
    """Connections to the servers, for tasks: the methods of
    :class:`sudokud.Pool`, each a coroutine, each ``*_many`` an async
    iterator.

    ``servers``, ``timeout``, ``connect_timeout``, ``tls``,
    ``server_hostname``, ``auth``, ``auth_file``: as
    :class:`sudokud.Pool`'s.  ``size``: the most connections open at
    once, over all servers; each carries the requests of any number of
    tasks, pipelined, so a few are enough.  A call goes to the open
    connection with the fewest requests in flight, or to a new one
    while there are fewer than ``size``; new connections go to the
    servers in turn.  A connection the server closes is seen at once
    (each connection has a task reading it) and made again when next
    needed.  Failures, resends and servers set aside: as
    :class:`sudokud.Pool`.  ``await pool.close()`` (or the end of
    ``async with``) closes every connection.
    """

    def __init__(self, servers: Union[None, str,
                                      Sequence[AddressLike]] = None,
                 size: int = 4, timeout: Optional[float] = 30.0, *,
                 connect_timeout: Optional[float] = 10.0, tls: TLS = False,
                 server_hostname: Optional[str] = None,
                 auth: Optional[str] = None,
                 auth_file: Optional[str] = None):
        PoolSettings.__init__(self, servers, size, timeout, connect_timeout,
                              tls, server_hostname, auth, auth_file)
        self._slots: List[Tuple[Server, Client]] = []
        self._server: Dict[int, Server] = {}    # id(client): its server
        self._closed = False

    def __repr__(self) -> str:
        return "<sudokud.asyncio.Pool %s, size=%d, %d open>" % (
            self._label(), self.size,
            sum(1 for _, c in self._slots if c.connected()))

    async def close(self) -> None:
        """Close every connection; the calls in flight raise
        ConnectionError.  A call after this raises ConnectionError."""
        self._closed = True
        slots, self._slots = self._slots, []
        for _, c in slots:
            await c.close()

    async def __aenter__(self) -> "Pool":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    def _client(self, server: Server) -> Client:
        c = Client(server.address.name, self.timeout,
                   connect_timeout=self.connect_timeout,
                   tls=self._tls_of(server.address.tls),
                   server_hostname=self._hostname, auth=self._secret)
        self._slots.append((server, c))
        self._server[id(c)] = server
        return c

    def _drop(self, c: Client) -> None:
        self._slots = [(s, k) for s, k in self._slots if k is not c]
        self._server.pop(id(c), None)
        c._drop()

    def _choose(self, tries: Tries) -> Optional[Client]:
        """The connection a call goes to now: an open one with nothing
        in flight, else a new one while there are fewer than size, else
        the open one (or one to be made again) with the fewest in
        flight; None when no server may take one now."""
        skip = tries.skip(self.servers)
        now = time.monotonic()
        for s, c in list(self._slots):
            if s.aside is not None:
                self._drop(c)
        ok = [c for s, c in self._slots if s not in skip and
              (c.connected() or s.retry_at <= now)]
        best = min(ok, key=Client.in_flight, default=None)
        if best is not None and best.connected() and not best.in_flight():
            return best
        if len(self._slots) < self.size:
            server = self.servers.pick(skip)
            if server is not None:
                return self._client(server)
        return best

    async def _get(self, deadline: Optional[float], tries: Tries) -> Client:
        """A connected client for a call (PING first to a server that
        failed)."""
        while True:
            if self._closed:
                raise ConnectionError("the pool is closed")
            c = self._choose(tries)
            if c is None:
                await self._wait(deadline, tries)
                continue
            server = self._server[id(c)]
            fresh = not c.connected()
            try:
                left = seconds_left(deadline, "no connection within %s s"
                             % self.timeout)
                await c._ready(shortest(left, self.connect_timeout))
                if fresh and server.suspect:
                    await c._check()
            except BaseException as e:
                if not self.servers.failed(server, e, True):
                    raise
                tries.add(server, e)
                self._drop(c)
                continue
            return c

    async def _wait(self, deadline: Optional[float], tries: Tries) -> None:
        """No server may take a connection now: wait for the first to
        be tried again, or give up."""
        wait = tries.wait(self.servers, deadline)
        if wait is None:
            raise tries.give_up(self.servers)
        await asyncio.sleep(wait)

    async def _run(self, req: Req) -> Any:
        deadline = deadline_in(self.timeout)
        tries = Tries()
        while True:
            c = await self._get(deadline, tries)
            server = self._server[id(c)]
            try:
                got = await c._call(await c._ready(), req, seconds_left(
                    deadline, "no reply within %s s" % self.timeout))
            except BaseException as e:
                if not (fatal(e) and self.servers.failed(server, e, False)):
                    raise
                tries.add(server, e)
                continue
            self.servers.answered(server)
            return got

    def _batch(self, items: Iterable[Any], make: Make, window: int,
               errors: bool) -> AsyncIterator[Any]:
        return pipeline(self, Batch(items, make, window, min(2, self.size)),
                        errors)

    # The lease of a batch (aiopipeline.py): a connection of the pool,
    # and another when it fails.
    async def take(self, tries: Tries) -> Client:
        return await self._get(deadline_in(self.timeout), tries)

    def lost(self, client: Client, e: BaseException, tries: Tries) -> bool:
        server = self._server.get(id(client))
        if server is None or not (fatal(e) and
                                  self.servers.failed(server, e, False)):
            return False
        tries.add(server, e)
        return True

    def answered(self, client: Client) -> None:
        server = self._server.get(id(client))
        if server is not None:
            self.servers.answered(server)

