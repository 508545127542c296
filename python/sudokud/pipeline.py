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
                    Protocol, cast)

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


class Lane:
    """One connection of a batch: the replies read ahead on it (their
    outcomes), and whether it has answered yet."""
    __slots__ = ("conn", "ready", "fresh")

    def __init__(self) -> None:
        self.conn: Optional["Client"] = None
        self.ready: Deque[Any] = collections.deque()
        self.fresh = False


def _send(lease: Lease, at: Lane, reqs: List[Req], tries: Tries) -> bool:
    """reqs sent on the lane's connection: False; True when it failed
    and is to be replaced (the lane's requests to be sent again); an
    error that is not to be sent again raised."""
    try:
        cast("Client", at.conn)._pipe(reqs)
        return False
    except Exception as e:
        lost(lease, at.conn, e, tries)  # raises but for a resend
        at.conn = None
        return True


def _open(lease: Lease, batch: Batch, lanes: List[Lane],
          tries: Tries) -> None:
    """A connection for each lane that has requests and none, its
    requests sent on it."""
    again = True
    while again:
        again = False
        for j, at in enumerate(lanes):
            if at.conn is None and batch.sent(j):
                at.conn, at.fresh = lease.take(tries), True
                at.ready.clear()
                again |= _send(lease, at, batch.sent(j), tries)


def pipeline(lease: Lease, batch: Batch, errors: bool) -> Iterator[Any]:
    """Each slot's value in order; an Error in its place with errors
    (an InputError for an item refused before it was sent), else
    raised.  The requests go over batch.lanes connections at once (the
    daemon gives each connection a worker); a lane whose connection
    fails takes another, and sends what it left unanswered again."""
    slots, lane_of, half = batch.slots, batch.lane, batch.window // 2
    lanes = [Lane() for _ in range(batch.lanes)]
    tries = Tries()
    opening = True                      # a lane may need a connection
    try:
        while True:
            if len(slots) <= half and not batch.done:
                for at, reqs in zip(lanes, batch.refill()):
                    if reqs and at.conn is not None:
                        _send(lease, at, reqs, tries)
                opening = True
            if opening:
                _open(lease, batch, lanes, tries)
                opening = False
            if not slots:
                return
            got: Any = slots[0]
            if not isinstance(got, InputError):
                at = lanes[lane_of[0]]
                conn = cast("Client", at.conn)
                try:
                    if not at.ready:
                        at.ready.extend(conn._take_many(batch.sent(
                            lane_of[0])))
                    got = at.ready.popleft()
                    if isinstance(got, BaseException):
                        raise got
                except Exception as e:
                    got = lost(lease, conn, e, tries)
                    if got is None:     # on another connection
                        at.conn = None
                        opening = True
                        continue
                if at.fresh:            # the server answers: it is well
                    at.fresh = False
                    lease.answered(conn)
                    tries = Tries()
            slots.popleft()
            lane_of.popleft()
            if not errors and isinstance(got, Error):
                raise got
            yield got
    finally:
        for j, at in enumerate(lanes):
            if at.conn is not None:
                lease.give_back(at.conn, [r[1] for r in batch.sent(j)[
                    len(at.ready):]])
