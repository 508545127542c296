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


def _send(conn: "Client", batch: Batch, fresh: bool) -> None:
    """The batch's requests sent on conn: on a fresh one, those still
    unanswered again; then the window refilled once half answered."""
    if fresh:
        conn._pipe(_sent(batch))
    if len(batch.slots) <= batch.window // 2 and not batch.done:
        conn._pipe(batch.refill())


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


def answered(slots: Deque[Any], got: Any, errors: bool) -> Any:
    """The head slot's value, or its Error (raised without errors)."""
    slots.popleft()
    if isinstance(got, Error) and not errors:
        raise got
    return got


def pipeline(lease: Lease, batch: Batch, errors: bool) -> Iterator[Any]:
    """Each slot's value in order; an Error in its place with errors
    (an InputError for an item refused before it was sent), else
    raised."""
    slots = batch.slots
    tries = Tries()
    conn: Optional["Client"] = None
    fresh = False
    try:
        while True:
            if conn is None:
                conn, fresh = lease.take(tries), True
            try:
                _send(conn, batch, fresh)
                fresh = False
                if not slots:
                    return
                got: Any = slots[0]
                if not isinstance(got, InputError):
                    got = conn._take(got)
                    lease.answered(conn)
                    tries = Tries()
            except Exception as e:
                got = lost(lease, conn, e, tries)
                if got is None:
                    conn = None         # on another connection
                    continue
            yield answered(slots, got, errors)
    finally:
        if conn is not None:
            lease.give_back(conn, [r[1] for r in _sent(batch)])
