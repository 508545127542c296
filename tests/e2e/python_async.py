#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
python_async.py -- the asyncio client of python/sudokud,
sudokud.asyncio.Client (issue 31), against the real daemon: the cases
of python_cases.py as the sync client passes them (every method and
option, pencil marks, batches in order, errors in place; through
aio_facade.py), over the Unix socket and TCP; then what only asyncio
has: many tasks sharing one client (each answer the one to its own
request, checked against the reference solver), batches and single
calls interleaved on one connection, a call cancelled by its caller
leaving the connection in step, a call's own deadline closing the
connection (the calls behind it get ConnectionError, the next call
connects again), async with, repr.
"""

import asyncio
import os
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
import python_cases                                     # noqa: E402
from aio_facade import Facade                           # noqa: E402
from harness import check, eq                           # noqa: E402

sys.path.insert(0, os.path.join(h.TOP_SRCDIR, "python"))
import sudokud                                          # noqa: E402
import sudokud.asyncio                                  # noqa: E402

T = h.Tap({"workers": 2})
A = sudokud.asyncio


def address(c):
    if c.transport == "tcp":
        return "127.0.0.1:%d" % c.d.port
    return "unix:" + c.d.path


def client(c, timeout=10):
    return Facade(lambda: A.Client(address(c), timeout=timeout))


python_cases.register(T, "asyncio.Client: ", client,
                      lambda addr, timeout: Facade(
                          lambda: A.Client(addr, timeout)))


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 120))


@T.case("many tasks share one client: 32 tasks x 200 requests of SOLVE, "
        "COUNT, RATE and batches among them, each answer its own request's "
        "(the reference solver checks every solution)", timeout=180)
def _(c):
    puzzles = h.load_puzzles("puzzles2_17_clue", 6400)

    async def task(k, i):
        mine = puzzles[i::32]
        for j, p in enumerate(mine):
            if j % 3 == 0:
                eq(await k.count(p), 1, "count of %s" % p)
            else:
                eq(h.solution_problem(p, await k.solve(p)), None, p)
        got = [s async for s in k.solve_many(mine, window=7)]
        for p, s in zip(mine, got):
            eq(h.solution_problem(p, s), None, "batch answer of " + p)
        return len(got)

    async def main():
        async with A.Client(address(c), timeout=60) as k:
            eq(await asyncio.gather(*[task(k, i) for i in range(32)]),
               [200] * 32, "answers per task")
            check("0 in flight" in repr(k), repr(k))
            eq(len(await k.solutions(h.EMPTY, 7)), 7, "after them")
    run(main())


def deep_daemon(seconds, workers=2):
    """A daemon of the case's own, and the budget that makes SOLVE DEEP
    last about seconds there (at least: longer on a loaded machine)."""
    budget = h.deep_budget(seconds)
    return h.Daemon(workers=workers, budget=budget, tcp=False).start(), \
        budget


@T.case("a call cancelled by its caller leaves the connection in step; "
        "an abandoned batch too", transports=(None,), own=True)
def _(c):
    d, deep = deep_daemon(2.0)

    async def main():
        async with A.Client("unix:" + d.path, timeout=60) as k:
            slow = asyncio.ensure_future(k.solve(h.DEEP, budget=deep))
            await asyncio.sleep(0.2)
            slow.cancel()
            try:
                await slow
            except asyncio.CancelledError:
                pass
            eq(await k.solve(h.CLASSIC), h.CLASSIC_SOLUTION, "after it")
            batch = k.solve_many(h.load_puzzles("puzzles2_17_clue", 500))
            first = await batch.__anext__()
            await batch.aclose()
            eq(h.solution_problem(h.load_puzzles("puzzles2_17_clue", 1)[0],
                                  first), None, "the batch's first answer")
            eq(await k.lexmin(h.EMPTY), h.EMPTY_LEXMIN, "after the batch")
            eq(k.in_flight(), 0, "nothing left in flight")
    try:
        run(main())
    finally:
        d.cleanup()


@T.case("a call's own deadline: a TimeoutError for it within its timeout, "
        "the connection closed (the call queued behind it, with a later "
        "deadline, gets ConnectionError), the next call connects again",
        transports=(None,), own=True)
def _(c):
    d, deep = deep_daemon(3.0, workers=1)

    async def main():
        k = A.Client("unix:" + d.path, timeout=0.5)
        await k.connect()
        slow = asyncio.ensure_future(k.solve(h.DEEP, budget=deep))
        await asyncio.sleep(0.05)
        k.timeout = 30
        behind = asyncio.ensure_future(k.solve(h.CLASSIC))
        for what, fut, exc in (("the slow call", slow, sudokud.TimeoutError),
                               ("the call behind it", behind,
                                sudokud.ConnectionError)):
            try:
                got = await fut
            except exc:
                continue
            except Exception as e:                  # noqa: BLE001
                raise h.Fail("%s: %r, not %s" % (what, e, exc.__name__))
            raise h.Fail("%s: answered %r" % (what, got))
        check(not k.connected(), "closed: %r" % k)
        eq(await k.solve(h.CLASSIC), h.CLASSIC_SOLUTION, "connects again")
        await k.close()
    try:
        run(main())
    finally:
        d.cleanup()


@T.case("errors=True in a batch shared with other tasks: each Error in its "
        "place, the other tasks' answers their own")
def _(c):
    mixed = [h.CLASSIC, "55" + h.CLASSIC[2:], h.CLASSIC[:80], h.EMPTY]

    async def main():
        async with A.Client(address(c)) as k:
            got, single = await asyncio.gather(
                _collect(k.solve_many(mixed * 20, errors=True)),
                asyncio.gather(*[k.rate(h.CLASSIC) for _ in range(40)]))
            codes = [getattr(g, "code", None) for g in got]
            eq(codes, [None, "conflict", "length", None] * 20, "in place")
            eq({(got[i], got[i + 3]) for i in range(0, 80, 4)},
               {(h.CLASSIC_SOLUTION, got[3])}, "the same answers each "
               "round")
            eq(h.solution_problem(h.EMPTY, got[3]), None, "EMPTY's")
            eq(set(single), {sudokud.Rating("easy", 1.0, "naked_single")},
               "the rates")
    run(main())


async def _collect(agen):
    return [x async for x in agen]


if __name__ == "__main__":
    sys.exit(T.run())
