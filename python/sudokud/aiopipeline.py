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
                    Optional, Protocol)

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


def _sent(batch: Batch) -> List[Req]:
    return [s for s in batch.slots if not isinstance(s, InputError)]


async def pipeline(lease: Lease, batch: Batch,
                   errors: bool) -> AsyncIterator[Any]:
    """Each slot's value in order; an Error in its place with errors
    (an InputError for an item refused before it was sent), else
    raised."""
    slots, half = batch.slots, batch.window // 2
    tries = Tries()
    client: Optional["Client"] = None
    sink = Sink()
    c: Optional["Conn"] = None
    fresh = False                       # no reply yet on client
    try:
        while True:
            if client is None:
                client, fresh = await lease.take(tries), True
                resend = _sent(batch)
                sink.closed = True
                sink = Sink()
                c = None
            try:
                if c is None:
                    c = await client._ready()
                reqs = resend
                if len(slots) <= half and not batch.done:
                    reqs = reqs + batch.refill()
                if reqs:
                    resend = []
                    c.send(reqs, sink)
                    await c.flush()
                if not slots:
                    return
                got: Any = slots[0]
                if not isinstance(got, InputError):
                    got = sink.out.popleft() if sink.out else \
                        await next_of(c, sink, client.timeout)
                    if isinstance(got, BaseException):
                        raise got
                    if fresh:           # the server answers: it is well
                        fresh = False
                        lease.answered(client)
                        tries = Tries()
            except Exception as e:
                got = lost(lease, client, e, tries)
                if got is None:
                    client = None       # on another connection
                    continue
            slots.popleft()
            if not errors and isinstance(got, Error):
                raise got
            yield got
    finally:
        sink.closed = True
