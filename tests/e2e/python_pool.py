#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
python_pool.py -- the pools of python/sudokud (issue 31), sudokud.Pool
for threads and sudokud.asyncio.Pool for tasks, against real daemons:
the cases of python_cases.py (every method, option, pencil marks,
batches; the asyncio one through aio_facade.py); 32 threads x 1,000
requests and 32 tasks x 1,000, every answer checked by the reference
solver (reference.py), never more connections than the size; a daemon
stopped and started again under load and in the middle of a batch (no
request lost, none answered twice in the output, every answer right);
two daemons, one stopped for good: the other carries everything; a
server that cannot be reached beside a live one; one that answers wrong
(fake_server.py) set aside beside a live one; an idle connection the
daemon closed (idle_timeout) seen before use, no request failing on it;
a pool whose only server is not there: ConnectionError at once.
"""

import asyncio
import os
import sys
import threading
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
import python_cases                                     # noqa: E402
from aio_facade import Facade                           # noqa: E402
from fake_server import FakeServer                      # noqa: E402
from harness import check, eq                           # noqa: E402

sys.path.insert(0, os.path.join(h.TOP_SRCDIR, "python"))
import sudokud                                          # noqa: E402
import sudokud.asyncio                                  # noqa: E402

T = h.Tap({"workers": 2})
ONE = (None,)
UNIX = ("unix",)


def address(c):
    if c.transport == "tcp":
        return "127.0.0.1:%d" % c.d.port
    return "unix:" + c.d.path


python_cases.register(
    T, "Pool: ", lambda c, timeout=10: sudokud.Pool([address(c)], 2,
                                                     timeout),
    lambda addr, timeout: sudokud.Pool([addr], 2, timeout), UNIX, False)
python_cases.register(
    T, "asyncio.Pool: ", lambda c, timeout=10: Facade(
        lambda: sudokud.asyncio.Pool([address(c)], 2, timeout)),
    lambda addr, timeout: Facade(
        lambda: sudokud.asyncio.Pool([addr], 2, timeout)), UNIX, False)


def verbs(k, p):
    """Three requests of p, each answer checked: a solution (the
    reference's checker), a count, a lexmin that is a solution."""
    eq(h.solution_problem(p, k.solve(p)), None, "solve of " + p)
    eq(k.count(p), 1, "count of " + p)
    eq(h.solution_problem(p, k.lexmin(p)), None, "lexmin of " + p)


@T.case("32 threads x 1,000 requests on a Pool of 6: every answer right "
        "(the reference's checker), at most 6 connections made",
        transports=UNIX, timeout=300)
def _(c):
    puzzles = h.load_puzzles("puzzles2_17_clue", 32 * 334)
    before = c.stats()["total_connections"]
    errors = []
    with sudokud.Pool([address(c)], size=6, timeout=60) as pool:
        def work(i):
            try:
                for p in puzzles[i::32][:333]:
                    verbs(pool, p)
                eq(pool.ping(), None, "ping")
            except Exception as e:                  # noqa: BLE001
                errors.append(e)
        threads = [threading.Thread(target=work, args=(i,))
                   for i in range(32)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(240)
        eq(errors, [], "errors in the threads")
        check("size=6, 6 open" in repr(pool), repr(pool))
    made = c.stats()["total_connections"] - before - 1   # the stats'
    check(made <= 6, "%d connections made by a pool of 6" % made)


@T.case("32 tasks x 1,000 requests on an asyncio Pool of 3 (500 single "
        "calls and a batch of 500 each): every answer right, at most 3 "
        "connections made",
        transports=UNIX, timeout=300)
def _(c):
    puzzles = h.load_puzzles("puzzles2_17_clue", 32 * 500)
    before = c.stats()["total_connections"]

    async def task(pool, i):
        mine = puzzles[i::32]
        for p in mine[:250]:
            eq(h.solution_problem(p, await pool.solve(p)), None, p)
            eq(await pool.count(p), 1, "count of " + p)
        got = [s async for s in pool.solve_many(mine, window=16)]
        for p, s in zip(mine, got):
            eq(h.solution_problem(p, s), None, "batch answer of " + p)
        return len(got)

    async def main():
        async with sudokud.asyncio.Pool([address(c)], 3, 60) as pool:
            eq(await asyncio.gather(*[task(pool, i) for i in range(32)]),
               [500] * 32, "batch answers per task")
            check(repr(pool).endswith("size=3, 3 open>"), repr(pool))
    asyncio.run(asyncio.wait_for(main(), 240))
    made = c.stats()["total_connections"] - before - 1
    check(made <= 3, "%d connections made by a pool of 3" % made)


def restart(d, pause=0.3):
    """Stop the daemon (it answers what it has read, then closes), start
    it again on the same socket after pause seconds."""
    d.terminate()
    time.sleep(pause)
    d.start()


@T.case("a daemon stopped and started again under 8 threads and in the "
        "middle of a batch (sync and asyncio pools): no request lost, every "
        "answer right and in order", transports=ONE, own=True, timeout=180)
def _(c):
    puzzles = h.load_puzzles("puzzles2_17_clue", 4000)
    d = h.Daemon(workers=2, tcp=False).start()
    try:
        with sudokud.Pool(["unix:" + d.path], size=4, timeout=30) as pool:
            got = []
            batch = pool.solve_many(puzzles, window=128)
            got += [next(batch) for _ in range(500)]
            restart(d)
            got += list(batch)
            eq(len(got), len(puzzles), "answers of the batch")
            for p, s in zip(puzzles, got):
                eq(h.solution_problem(p, s), None, "answer of " + p)
            stop, errors = threading.Event(), []

            def work(i):
                try:
                    for p in puzzles[i::8]:
                        if stop.is_set():
                            return
                        eq(h.solution_problem(p, pool.solve(p)), None, p)
                except Exception as e:              # noqa: BLE001
                    errors.append(e)
            threads = [threading.Thread(target=work, args=(i,))
                       for i in range(8)]
            for t in threads:
                t.start()
            time.sleep(0.3)
            restart(d)
            time.sleep(0.3)
            stop.set()
            for t in threads:
                t.join(60)
            eq(errors, [], "errors in the threads")

        async def main():
            async with sudokud.asyncio.Pool(["unix:" + d.path], 2,
                                            30) as pool:
                out = []
                async for s in pool.solve_many(puzzles, window=128):
                    out.append(s)
                    if len(out) == 500:
                        restart(d)
                return out
        got = asyncio.run(main())
        eq(len(got), len(puzzles), "answers of the asyncio batch")
        for p, s in zip(puzzles, got):
            eq(h.solution_problem(p, s), None, "asyncio answer of " + p)
    finally:
        d.cleanup()


@T.case("two daemons: a batch goes over a connection to each; one "
        "stopped for good in the middle, the other answers everything (sync "
        "and asyncio); a server nothing listens on beside a live one: every "
        "call answered", transports=ONE, own=True,
        timeout=180)
def _(c):
    puzzles = h.load_puzzles("puzzles2_17_clue", 3000)
    a = h.Daemon(workers=1, tcp=False).start()
    b = h.Daemon(workers=1, tcp=False).start()
    try:
        with sudokud.Pool("unix:%s, unix:%s" % (a.path, b.path), 4,
                          30) as pool:
            # A batch goes over two connections at once, one to each.
            batch = pool.solve_many(puzzles, window=64)
            got = [next(batch) for _ in range(300)]
            check(all(s.answered for s in pool.servers.all),
                  "both answered one batch: %r" % pool)
            a.terminate()
            got += list(batch)
            for p in puzzles[40:200]:
                verbs(pool, p)
        eq([h.solution_problem(p, s) for p, s in zip(puzzles, got)],
           [None] * len(puzzles), "every answer right")

        async def main():
            async with sudokud.asyncio.Pool(
                    ["unix:" + a.path, "unix:" + b.path], 2, 30) as pool:
                return await asyncio.gather(*[pool.solve(p)
                                              for p in puzzles[:300]])
        eq([h.solution_problem(p, s) for p, s in
            zip(puzzles, asyncio.run(main()))], [None] * 300,
           "asyncio: every answer right with one server down")
        with sudokud.Pool(["unix:/nonexistent/sudokud.sock",
                           "unix:" + b.path], 2, 30) as pool:
            for p in puzzles[:20]:
                verbs(pool, p)
            eq(pool.servers.all[0].answered, 0, "the missing one")
    finally:
        a.cleanup()
        b.cleanup()


@T.case("a server that answers wrong beside a live daemon: set aside, "
        "every answer right, the liar asked once (sync and asyncio)",
        transports=UNIX)
def _(c):
    puzzles = h.load_puzzles("puzzles2_17_clue", 200)
    for kind in ("sync", "asyncio"):
        liar = FakeServer(lambda line: h.CLASSIC_SOLUTION)
        try:
            servers = [liar.name, address(c)]
            if kind == "sync":
                with sudokud.Pool(servers, 2, 30) as pool:
                    got = [pool.solve(p) for p in puzzles]
                    got += list(pool.solve_many(puzzles))
                    state = repr(pool)
            else:
                async def main():
                    async with sudokud.asyncio.Pool(servers, 2, 30) as pool:
                        out = [await pool.solve(p) for p in puzzles]
                        out += [s async for s in pool.solve_many(puzzles)]
                        return out, repr(pool)
                got, state = asyncio.run(main())
            eq([h.solution_problem(p, s) for p, s in zip(puzzles * 2, got)],
               [None] * 400, kind + ": every answer right")
            check("%s (set aside)" % liar.name in state, state)
            eq(liar.requests, 1, kind + ": requests the liar got")
        finally:
            liar.close()


@T.case("an idle connection the daemon closed (idle_timeout 1 s) is seen "
        "before its next use: the call goes on a new one, nothing failed "
        "(the server not marked)", transports=UNIX,
        daemon={"idle_timeout": 1})
def _(c):
    with sudokud.Pool([address(c)], 1, 10) as pool:
        eq(pool.solve(h.CLASSIC), h.CLASSIC_SOLUTION, "the first call")
        check(h.wait_for(lambda: c.stats()["idle_kicks"] >= 1, 10),
              "the daemon closed the idle connection")
        eq(pool.solve(h.CLASSIC), h.CLASSIC_SOLUTION, "the next call")
        check(not pool.servers.all[0].suspect,
              "a request failed on the closed connection: %r" % pool)


@T.case("a pool whose only server is not there: ConnectionError at once, "
        "naming it (sync and asyncio); a bad size is InputError",
        transports=ONE, daemonless=True)
def _(c):
    where = "unix:/nonexistent/sudokud.sock"
    for make in (lambda: sudokud.Pool([where], timeout=30).solve(h.CLASSIC),
                 lambda: asyncio.run(sudokud.asyncio.Pool(
                     [where], timeout=30).solve(h.CLASSIC))):
        t0 = time.monotonic()
        try:
            make()
            raise h.Fail("answered")
        except sudokud.ConnectionError as e:
            check(where in str(e), str(e))
        check(time.monotonic() - t0 < 25, "not at once: %.1f s"
              % (time.monotonic() - t0))
    for bad in (0, -1, 1.5, "4"):
        try:
            sudokud.Pool([where], bad)
            raise h.Fail("size %r accepted" % (bad,))
        except sudokud.InputError:
            pass


if __name__ == "__main__":
    sys.exit(T.run())
