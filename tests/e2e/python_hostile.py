#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
python_hostile.py -- the asyncio Client and the two pools of
python/sudokud (issue 31) against servers that lie as a hostile server
would (fake_server.py), the cases python_untrusted.py puts to the sync
Client: a reply that never ends, a 100 MB line, replies out of order, a
close in the middle of a reply, a byte a second, a wrong solution,
SOLUTIONS with a duplicate, an ERR the request cannot get, no reply at
all.  Each kind must raise the documented exception (ProtocolError for
what sudokud would not send, and a pool of one server sets it aside;
ConnectionError for a close, after a pool's tries; TimeoutError at the
call's deadline, never later), never return a wrong answer, and keep
its peak RSS bounded (getrusage's ru_maxrss, the process's high-water
mark: the 100 MB are never buffered).  No daemon.
"""

import os
import resource
import sys
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from aio_facade import Facade                           # noqa: E402
from fake_server import (Cut, FakeServer, Raw,         # noqa: E402
                         puzzle_of, solution, swapped)
from harness import check, eq                           # noqa: E402
from reference import ref_solutions                     # noqa: E402

sys.path.insert(0, os.path.join(h.TOP_SRCDIR, "python"))
import sudokud                                          # noqa: E402
import sudokud.asyncio                                  # noqa: E402

T = h.Tap()
ONE = (None,)
CLASSIC, SOLUTION, EMPTY = h.CLASSIC, h.CLASSIC_SOLUTION, "." * 81
OTHER = CLASSIC.translate(str.maketrans("12", "21"))
# The most a client may add to the process's peak RSS while it meets a
# 100 MB line or one without end (it holds a few KiB of it).
RSS_BOUND_KB = 48 * 1024

KINDS = (
    ("asyncio.Client", lambda addr, t: Facade(
        lambda: sudokud.asyncio.Client(addr, t))),
    ("Pool", lambda addr, t: sudokud.Pool([addr], 2, t)),
    ("asyncio.Pool", lambda addr, t: Facade(
        lambda: sudokud.asyncio.Pool([addr], 2, t))),
)


def endless(piece, most):
    """piece again and again, up to most bytes (a list of references to
    one piece: the server holds it once)."""
    return [piece] * (most // len(piece))


def peak_kb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def swapping(line):
    """Each pair of CLASSIC and OTHER answered the other way round, as a
    server that swaps its replies would (without holding any: a pool
    spreads a batch over two connections)."""
    p = puzzle_of(line)
    return solution(OTHER if p == CLASSIC else CLASSIC)


def attempt(kind, make, answer, call, exc, timeout=5.0):
    """call(client) against a fake server answering answer: raises exc
    (no other, no answer) within timeout + 4 s; the exception, the
    seconds it took, the server (closed)."""
    s = FakeServer(answer)
    k = make(s.name[4:], timeout)
    t0 = time.monotonic()
    try:
        got = call(k)
    except exc as e:
        return e, time.monotonic() - t0, s
    except Exception as e:                      # noqa: BLE001
        raise h.Fail("%s: %r, not %s" % (kind, e, exc.__name__))
    else:
        raise h.Fail("%s: no %s, returned %r" % (kind, exc.__name__,
                                                 str(got)[:100]))
    finally:
        took = time.monotonic() - t0
        k.close()
        s.close()
        check(took <= timeout + 4, "%s: %.1f s, timeout %s" % (kind, took,
                                                              timeout))


def each_kind(answer, call, exc, timeout=5.0, rss=False):
    """attempt() with each kind of client; with rss, the peak RSS grows
    by at most RSS_BOUND_KB."""
    out = []
    for kind, make in KINDS:
        before = peak_kb()
        out.append((kind,) + attempt(kind, make, answer, call, exc,
                                     timeout))
        if rss:
            grew = peak_kb() - before
            check(grew <= RSS_BOUND_KB, "%s: the peak RSS grew by %d KiB"
                  % (kind, grew))
    return out


@T.case("a reply line that never ends (32 MB without LF), a 100 MB line, "
        "a STATS without END: ProtocolError as soon as a line is longer "
        "than the verb can send, the peak RSS bounded", transports=ONE,
        daemonless=True)
def _(c):
    each_kind(lambda line: Raw(endless(b"1" * 65536, 32 << 20)),
              lambda k: k.solve(CLASSIC), sudokud.ProtocolError, rss=True)
    each_kind(lambda line: Raw(endless(b"1" * (1 << 20), 100 << 20) +
                               [b"\n"]),
              lambda k: k.solve(CLASSIC), sudokud.ProtocolError, rss=True)
    each_kind(lambda line: Raw(endless(b"STAT x 1\n" * 1000, 32 << 20)),
              lambda k: k.stats(), sudokud.ProtocolError, rss=True)


@T.case("replies out of order (each pair swapped), a wrong solution, "
        "SOLUTIONS with a duplicate, an ERR SOLVE cannot get: "
        "ProtocolError, never the wrong answer; a pool of one sets the "
        "server aside and asks it once", transports=ONE, daemonless=True)
def _(c):
    five = ref_solutions(EMPTY, 5)[0]
    for what, answer, call in (
            ("out of order", swapping,
             lambda k: list(k.solve_many([CLASSIC, OTHER] * 2, window=4))),
            ("a wrong solution", lambda line: swapped(CLASSIC),
             lambda k: k.solve(CLASSIC)),
            ("a duplicate", lambda line: five[:2] + five[1:4] + ["END"],
             lambda k: k.solutions(EMPTY, 5)),
            ("ERR wrong to SOLVE", lambda line: "ERR wrong r1c1",
             lambda k: k.solve(CLASSIC))):
        for kind, e, took, s in each_kind(answer, call,
                                          sudokud.ProtocolError):
            if "Pool" in kind:
                check(s.requests <= 4, "%s, %s: %d requests" % (
                    what, kind, s.requests))


@T.case("a close in the middle of a reply: ConnectionError (a pool after "
        "its tries of a server that never answered: 3 at most); no reply "
        "at all: TimeoutError at the deadline", transports=ONE,
        daemonless=True)
def _(c):
    path = ["hidden_single r9c3=7 7 can only go in r9c3 within box 7"]
    for kind, e, took, s in each_kind(lambda line: Cut(path),
                                      lambda k: k.path(CLASSIC),
                                      sudokud.ConnectionError):
        check(s.requests <= 3, "%s: %d requests" % (kind, s.requests))
    for kind, e, took, s in each_kind(lambda line: None,
                                      lambda k: k.solve(CLASSIC),
                                      sudokud.TimeoutError, timeout=1.0):
        check(took >= 0.9, "%s: TimeoutError after %.2f s, timeout 1"
              % (kind, took))


@T.case("a byte a second: TimeoutError at the call's deadline (2 s), "
        "not a byte's timeout later; the answer never returned",
        transports=ONE, daemonless=True)
def _(c):
    drip = [bytes([b]) for b in (SOLUTION + "\n").encode()]
    for kind, e, took, s in each_kind(lambda line: Raw(drip, 1.0),
                                      lambda k: k.solve(CLASSIC),
                                      sudokud.TimeoutError, timeout=2.0):
        check(1.0 <= took <= 4.5, "%s: after %.2f s, timeout 2"
              % (kind, took))


@T.case("the asyncio Client and the pools against a server whose every "
        "answer is right: the same answers (so the cases above fail on the "
        "lies alone)", transports=ONE, daemonless=True)
def _(c):
    def honest(line):
        return solution(puzzle_of(line))
    for kind, make in KINDS:
        s = FakeServer(honest)
        k = make(s.name[4:], 5)
        try:
            eq(k.solve(CLASSIC), SOLUTION, kind)
            eq(list(k.solve_many([CLASSIC, OTHER] * 2, window=4)),
               [SOLUTION, solution(OTHER)] * 2, kind + " batch")
        finally:
            k.close()
            s.close()


if __name__ == "__main__":
    sys.exit(T.run())
