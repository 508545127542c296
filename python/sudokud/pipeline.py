# SPDX-License-Identifier: ISC
"""
The loop of a pipelined batch on sync connections, for the Client and
the Pool: requests sent a window at a time, each reply read in order
and checked (wire.py), each value yielded in input order.  What a
connection's failure means is the lease's to say: a Client raises it,
a Pool takes another connection (another server, maybe) and sends what
was unanswered again.
"""

from __future__ import annotations

import collections
from typing import (TYPE_CHECKING, Any, Deque, Iterator, List, Optional,
                    Protocol)

from .errors import Error, InputError
from .servers import Tries
from .wire import Batch, Req, Spec, fatal

if TYPE_CHECKING:
    from .client import Client


class Lease(Protocol):
    """Where a batch gets its connection, and what it does when one
    fails."""

    def take(self, tries: Tries) -> "Client":
        """A connection, made, for the batch to use."""

    def lost(self, conn: "Client", e: BaseException, tries: Tries) -> bool:
        """conn failed with e (closed if unusable): True to go on on
        another connection, sending the unanswered requests again."""

    def answered(self, conn: "Client") -> None:
        """A reply came on conn."""

    def give_back(self, conn: "Client", owed: List[Spec]) -> None:
        """The batch ends; the replies owed on conn, if any, are to be
        skipped by its next user."""


def _sent(batch: Batch) -> List[Req]:
    return [s for s in batch.slots if not isinstance(s, InputError)]


def lost(lease: Any, conn: Any, e: BaseException,
         tries: Tries) -> Optional[Error]:
    """What e, met by a batch's request on conn, means: None to go on
    on another connection (the lease's to say), else the Error that
    answers the request (to yield in its place, or raise); any other
    exception is raised."""
    if fatal(e) and lease.lost(conn, e, tries):
        return None
    if isinstance(e, Error):
        return e
    raise e


def pipeline(lease: Lease, batch: Batch, errors: bool) -> Iterator[Any]:
    """Each slot's value in order; an Error in its place with errors
    (an InputError for an item refused before it was sent), else
    raised."""
    slots, half = batch.slots, batch.window // 2
    tries = Tries()
    conn: Optional["Client"] = None
    fresh = False                       # no reply yet on conn
    ready: Deque[Any] = collections.deque()    # outcomes read ahead
    try:
        while True:
            if conn is None:
                conn, fresh = lease.take(tries), True
                resend = _sent(batch)
                ready.clear()
            try:
                if resend:
                    conn._pipe(resend)
                    resend = []
                if len(slots) <= half and not batch.done:
                    conn._pipe(batch.refill())
                if not slots:
                    return
                got: Any = slots[0]
                if not isinstance(got, InputError):
                    if not ready:
                        ready.extend(conn._take_many(_sent(batch)))
                    got = ready.popleft()
                    if isinstance(got, BaseException):
                        raise got
                    if fresh:           # the server answers: it is well
                        fresh = False
                        lease.answered(conn)
                        tries = Tries()
            except Exception as e:
                got = lost(lease, conn, e, tries)
                if got is None:
                    conn = None         # on another connection
                    continue
            slots.popleft()
            if not errors and isinstance(got, Error):
                raise got
            yield got
    finally:
        if conn is not None:
            lease.give_back(conn, [r[1] for r in _sent(batch)[len(ready):]])
