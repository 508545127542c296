# SPDX-License-Identifier: ISC
"""
The loop of a pipelined batch for asyncio, for the Client and the Pool,
as pipeline.py's for the sync ones: requests sent a window at a time on
a connection shared with other tasks, their replies (read and checked
by the connection's task, aioclient.py) taken from the batch's sink in
order.  What a connection's failure means is the lease's to say: a
Client raises it, a Pool takes another connection and sends what was
unanswered again.
"""

from __future__ import annotations

import asyncio
import collections
from typing import (TYPE_CHECKING, Any, AsyncIterator, Deque, List,
                    Optional, Protocol, cast)

from .errors import ConnectionError, Error, InputError, TimeoutError
from .pipeline import lost
from .servers import Tries
from .wire import Batch, Req

if TYPE_CHECKING:
    from .aioclient import Client, Conn


class Sink:
    """Where the replies of one batch go, in order: each value, or the
    exception in its place; a consumer waits on ``waiter``."""

    def __init__(self) -> None:
        self.out: Deque[Any] = collections.deque()
        self.waiter: Optional[asyncio.Future[None]] = None
        self.closed = False         # left: its replies are dropped

    def put(self, outcomes: List[Any]) -> None:
        if self.closed:
            return
        self.out.extend(outcomes)
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)


class Lease(Protocol):
    """Where a batch gets its client (connected), and what it does when
    its connection fails."""

    async def take(self, tries: Tries) -> "Client": ...

    def lost(self, client: "Client", e: BaseException,
             tries: Tries) -> bool: ...

    def answered(self, client: "Client") -> None: ...


async def next_of(c: "Conn", sink: "Sink", timeout: Optional[float]) -> Any:
    """The next outcome of a batch's sink, within timeout: a timeout
    closes the connection."""
    while not sink.out:
        if c.closed is not None:
            raise ConnectionError("%s: the connection was closed (%s)"
                                  % (c.name, c.closed))
        sink.waiter = asyncio.get_running_loop().create_future()
        try:
            await asyncio.wait_for(sink.waiter, timeout)
        except asyncio.TimeoutError:
            e = TimeoutError("%s: no reply within %s s" % (c.name, timeout))
            c.fail(e)
            raise e from None
        finally:
            sink.waiter = None
    return sink.out.popleft()


class Lane:
    """One connection of a batch: its client, and the sink its replies
    go to (a new one with each connection)."""
    __slots__ = ("client", "conn", "sink", "fresh")

    def __init__(self) -> None:
        self.client: Optional["Client"] = None
        self.conn: Optional["Conn"] = None      # the one its requests are on
        self.sink = Sink()
        self.fresh = False

    def drop(self) -> None:
        self.client = self.conn = None
        self.sink.closed = True         # what comes late is dropped


async def _send(lease: Lease, at: Lane, reqs: List[Req],
                tries: Tries) -> bool:
    """reqs sent on the lane's connection: False; True when it failed
    and is to be replaced; an error not to be sent again raised."""
    client = cast("Client", at.client)
    try:
        c = at.conn = await client._ready()
        c.send(reqs, at.sink)
        await c.flush()
        return False
    except Exception as e:
        lost(lease, client, e, tries)   # raises but for a resend
        at.drop()
        return True


async def _open(lease: Lease, batch: Batch, lanes: List[Lane],
                tries: Tries) -> None:
    """A connection for each lane that has requests and none, its
    requests sent on it."""
    again = True
    while again:
        again = False
        for j, at in enumerate(lanes):
            if at.client is None and batch.sent(j):
                at.client, at.fresh = await lease.take(tries), True
                at.conn, at.sink = None, Sink()
                again |= await _send(lease, at, batch.sent(j), tries)


async def pipeline(lease: Lease, batch: Batch,
                   errors: bool) -> AsyncIterator[Any]:
    """Each slot's value in order; an Error in its place with errors
    (an InputError for an item refused before it was sent), else
    raised; over batch.lanes connections, as pipeline.py's."""
    slots, lane_of, half = batch.slots, batch.lane, batch.window // 2
    lanes = [Lane() for _ in range(batch.lanes)]
    tries = Tries()
    opening = True
    try:
        while True:
            if len(slots) <= half and not batch.done:
                for at, reqs in zip(lanes, batch.refill()):
                    if reqs and at.client is not None:
                        await _send(lease, at, reqs, tries)
                opening = True
            if opening:
                await _open(lease, batch, lanes, tries)
                opening = False
            if not slots:
                return
            got: Any = slots[0]
            if not isinstance(got, InputError):
                at = lanes[lane_of[0]]
                client, sink = cast("Client", at.client), at.sink
                try:
                    got = sink.out.popleft() if sink.out else \
                        await next_of(cast("Conn", at.conn), sink,
                                      client.timeout)
                    if isinstance(got, BaseException):
                        raise got
                except Exception as e:
                    got = lost(lease, client, e, tries)
                    if got is None:     # on another connection
                        at.drop()
                        opening = True
                        continue
                if at.fresh:            # the server answers: it is well
                    at.fresh = False
                    lease.answered(client)
                    tries = Tries()
            slots.popleft()
            lane_of.popleft()
            if not errors and isinstance(got, Error):
                raise got
            yield got
    finally:
        for at in lanes:
            at.sink.closed = True
