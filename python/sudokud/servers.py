# SPDX-License-Identifier: ISC
"""
The servers of a pool and what happened to each, without I/O, shared by
the sync Pool and the asyncio one: which server a new connection goes
to, and what a failure means, as sudokuc(1) decides it ("Several
servers"):

- a connection lost (reset, closed, ``ERR busy``) or never made: its
  unanswered requests are sent again, on another connection; a server
  that failed is tried again at once, then after 50 ms, doubling up to
  2 s, while the others carry the load, and a connection to it is asked
  PING first; within the call's timeout if it has answered before, but
  three times at most if it never has;
- a server that answers wrong (:class:`ProtocolError`), refuses AUTH
  (:class:`AuthError`) or fails a TLS handshake (:class:`TLSError`) is
  set aside for the pool's life, and its requests go to the others;
- a timeout ends the call (its deadline is gone); the server is asked
  PING before its next request;
- an ``ERR`` reply (:class:`Error`) is the answer: it is raised.

Resending is safe: every request is a pure function of its line
(doc/protocol.md, "End of a connection"): one answered twice gets the
same answer twice, but for GENERATE, SHUFFLE, MINIMIZE and CONSTRAIN
without a seed, whose resend gets another puzzle as good as the first
(give a seed to make them repeatable), and requests with ``deadline=``,
which may meet the deadline on one try and not on the other.
"""

from __future__ import annotations

import time
from typing import Dict, List, Optional, Sequence, Union

from .address import Address, AddressLike, server_list
from .errors import (AuthError, ConnectionError, Error, ProtocolError,
                     SudokudError, TimeoutError, TLSError)

#: The first pause before a server that could not be reached is tried
#: again, and the longest (sudokuc's).
RETRY_FIRST = 0.05
RETRY_MOST = 2.0
#: How many times a call tries one server before it gives up on it.
TRIES = 3


def shortest(a: Optional[float], b: Optional[float]) -> Optional[float]:
    """The shorter of two spans of time (None: without end)."""
    return b if a is None else a if b is None else min(a, b)


class Server:
    """A server of a pool: its address, and what happened to it."""

    def __init__(self, address: Address):
        self.address = address
        self.aside: Optional[SudokudError] = None   # why it was set aside
        self.retry_at = 0.0             # not tried again before this
        self.pause = 0.0                # the next pause after a failure
        self.suspect = False            # PING before its next request
        self.answered = 0               # replies it gave

    def __repr__(self) -> str:
        state = "set aside" if self.aside else "suspect" if self.suspect \
            else "up"
        return "%s (%s)" % (self.address.name, state)


class Servers:
    """The servers of a pool, in the order given; new connections go to
    those in use, one to each in turn."""

    def __init__(self, servers: Union[None, str, Sequence[AddressLike]]):
        self.all: List[Server] = [Server(a) for a in server_list(servers)]
        self.turn = 0

    def usable(self) -> List[Server]:
        return [s for s in self.all if s.aside is None]

    def pick(self, skip: Sequence[Server] = ()) -> Optional[Server]:
        """The next server a connection may go to now (not set aside,
        not waiting to be tried again, not in skip), or None."""
        now = time.monotonic()
        n = len(self.all)
        for i in range(n):
            s = self.all[(self.turn + i) % n]
            if s.aside is None and s.retry_at <= now and s not in skip:
                self.turn = (self.turn + i + 1) % n
                return s
        return None

    def none_left(self) -> Optional[SudokudError]:
        """When every server has been set aside: the error to raise."""
        if self.usable():
            return None
        last = self.all[-1].aside
        if len(self.all) == 1 and last is not None:
            return last
        return ConnectionError("every server was set aside: " + "; ".join(
            "%s: %s" % (s.address.name, s.aside) for s in self.all))

    def answered(self, server: Server) -> None:
        server.answered += 1
        server.pause = 0.0
        server.suspect = False

    def failed(self, server: Server, e: BaseException,
               connecting: bool) -> bool:
        """What e, raised by a request to server (or by connecting to
        it: connecting), means for the request: True to send it again
        (on another connection), False to raise e."""
        if isinstance(e, (ProtocolError, TLSError, AuthError)):
            server.aside = e            # a lie, or a refusal
            return True
        if isinstance(e, Error) and e.code != "busy":
            return False                # the answer
        if not isinstance(e, (ConnectionError, TimeoutError, Error)):
            return False
        # Tried again at once after the first failure, then after 50 ms,
        # doubling to 2 s, until it answers; PING first.
        server.suspect = True
        server.retry_at = time.monotonic() + server.pause
        server.pause = min(max(server.pause * 2, RETRY_FIRST), RETRY_MOST)
        return connecting or not isinstance(e, TimeoutError)


class Tries:
    """The servers one call (or one stretch of a batch without a reply)
    has failed on.  A server that has answered before is tried again
    while the call's deadline allows (a restart, a failover); one that
    never has, not after TRIES failures (nothing listens there, as
    sudokuc finds at its start)."""

    def __init__(self) -> None:
        self.count: Dict[int, int] = {}
        self.last: Optional[BaseException] = None

    def add(self, server: Server, e: BaseException) -> None:
        """server failed with e."""
        self.count[id(server)] = self.count.get(id(server), 0) + 1
        self.last = e

    def skip(self, servers: Servers) -> List[Server]:
        return [s for s in servers.all if not s.answered and
                self.count.get(id(s), 0) >= TRIES]

    def wait(self, servers: Servers,
             deadline: Optional[float]) -> Optional[float]:
        """No server may take a connection now: the seconds until the
        first that this call may try is tried again, or None when none
        is left to try before deadline (raise give_up())."""
        skip = self.skip(servers)
        later = [s.retry_at for s in servers.usable() if s not in skip]
        if not later or (deadline is not None and min(later) >= deadline):
            return None
        return max(0.0, min(later) - time.monotonic())

    def give_up(self, servers: Servers) -> BaseException:
        """The error to raise when no server is left to try."""
        gone = servers.none_left()
        if gone is not None:
            return gone
        if isinstance(self.last, SudokudError):
            return self.last
        return ConnectionError("no server could be reached: " + ", ".join(
            s.address.name for s in servers.all))
