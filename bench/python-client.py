#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
python-client.py -- the Python client's rate against sudokuc's (make
bench; issue 31 item 5), side by side on one daemon and one file:

- batches: sudokuc -s (its default, 2 connections) and sudokuc -s -C 1
  against solve_many() of the sync Client and the asyncio Client (one
  connection each) and of the Pool and the asyncio Pool (a batch over
  2 connections), every answer checked by the client (a solution is 81
  digits, each unit a permutation, the givens kept); the daemon gives
  each connection one worker, so each is measured against sudokuc with
  as many connections too; the bar is 0.70 of that rate;
- one request at a time, on the first ONE_AT_A_TIME puzzles: the sync
  Client's solve() in a loop, a Pool of 8 with 8 threads, the asyncio
  Client shared by 64 tasks, an asyncio Pool of 2 with 64 tasks.

Each round runs every variant once, in an order that turns by one each
round; the figure is the median of the rounds (puzzles/s), with the
Python process's CPU time per puzzle (user + system, time.process_time),
which depends less on what else the machine runs.  Starts its own
sudokud from the build tree (SUDOKUD, default src/sudokud; SUDOKUC,
default src/sudokuc) with 2 workers on a Unix socket.  Environment:
PUZZLE_DIR, BENCH_ROUNDS (default 5), ONE_AT_A_TIME (default 5000),
BENCH_STRICT=1 (exit 1 when a batch misses the bar).  Prints the CPU
model and a table; exit 1 if an answer is missing.
"""

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True      # keep the source tree clean

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)
import sudokud                                          # noqa: E402
import sudokud.asyncio                                  # noqa: E402
from protocol import start                              # noqa: E402

SUDOKUD = os.environ.get("SUDOKUD", "src/sudokud")
SUDOKUC = os.environ.get("SUDOKUC", "src/sudokuc")
DATA = os.environ.get("PUZZLE_DIR", os.path.join(HERE, "..", "data"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
ONE = int(os.environ.get("ONE_AT_A_TIME", "5000"))
SET17 = os.path.join(DATA, "puzzles2_17_clue")
BAR = 0.70


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


# -- the variants: each returns how many answers it got ------------------
def sudokuc(sock, ps, conns=()):
    out = subprocess.run([SUDOKUC, "-s", sock] + list(conns) + [SET17],
                         stdout=subprocess.PIPE, check=True).stdout
    return out.count(b"\n")


def sudokuc1(sock, ps):
    return sudokuc(sock, ps, ["-C", "1"])


def client_many(sock, ps):
    with sudokud.Client(sock, timeout=60) as c:
        return sum(1 for _ in c.solve_many(ps))


def pool_many(sock, ps):
    with sudokud.Pool([sock], 2, 60) as pool:
        return sum(1 for _ in pool.solve_many(ps))


async def _count(agen):
    n = 0
    async for _ in agen:
        n += 1
    return n


def aio_many(sock, ps):
    async def main():
        async with sudokud.asyncio.Client(sock, 60) as c:
            return await _count(c.solve_many(ps))
    return asyncio.run(main())


def aio_pool_many(sock, ps):
    async def main():
        async with sudokud.asyncio.Pool([sock], 2, 60) as pool:
            return await _count(pool.solve_many(ps))
    return asyncio.run(main())


def client_one(sock, ps):
    with sudokud.Client(sock, timeout=60) as c:
        return sum(1 for p in ps[:ONE] if c.solve(p))


def pool_threads(sock, ps):
    got = []
    with sudokud.Pool([sock], 8, 60) as pool:
        def work(i):
            got.append(sum(1 for p in ps[i:ONE:8] if pool.solve(p)))
        threads = [threading.Thread(target=work, args=(i,))
                   for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    return sum(got)


def _tasks(make, ps):
    """The puzzles solved one at a time by 64 tasks sharing make()."""
    async def main():
        async with make() as k:
            async def task(i):
                return sum([1 for p in ps[i::64] if await k.solve(p)])
            return sum(await asyncio.gather(*[task(i) for i in range(64)]))
    return asyncio.run(main())


def aio_tasks(sock, ps):
    return _tasks(lambda: sudokud.asyncio.Client(sock, 60), ps[:ONE])


def aio_pool_tasks(sock, ps):
    return _tasks(lambda: sudokud.asyncio.Pool([sock], 2, 60), ps[:ONE])


# name, function, connections
BATCHES = [("sudokuc -s (2 connections)", sudokuc, 2),
           ("sudokuc -s -C 1", sudokuc1, 1),
           ("Client.solve_many", client_many, 1),
           ("asyncio Client.solve_many", aio_many, 1),
           ("Pool.solve_many", pool_many, 2),
           ("asyncio Pool.solve_many", aio_pool_many, 2)]
SINGLES = [("Client.solve, one at a time", client_one),
           ("Pool of 8, 8 threads", pool_threads),
           ("asyncio Client, 64 tasks", aio_tasks),
           ("asyncio Pool of 2, 64 tasks", aio_pool_tasks)]


def measure(sock, ps):
    """{name: ([rate], [cpu us per puzzle])}, the variants alternating."""
    variants = [b[:2] for b in BATCHES] + SINGLES
    batches = {b[0] for b in BATCHES}
    runs = {name: ([], []) for name, _ in variants}
    for r in range(ROUNDS):
        for name, fn in variants[r:] + variants[:r]:
            want = len(ps) if name in batches else min(ONE, len(ps))
            t0, c0 = time.monotonic(), time.process_time()
            n = fn(sock, ps)
            took, cpu = time.monotonic() - t0, time.process_time() - c0
            if n != want:
                raise SystemExit("python-client.py: %s: %d answers of %d"
                                 % (name, n, want))
            runs[name][0].append(n / took)
            runs[name][1].append(cpu / n * 1e6)
    return runs


def report(runs, n):
    med = {k: (statistics.median(v[0]), statistics.median(v[1]))
           for k, v in runs.items()}
    base = {2: med[BATCHES[0][0]][0], 1: med[BATCHES[1][0]][0]}
    print("Python client against sudokuc, SOLVE of %s over Unix sockets "
          "to one sudokud (2 workers), median of %d alternating rounds; "
          "CPU: %s, %d CPUs" % (os.path.basename(SET17), ROUNDS,
                                cpu_model(), os.cpu_count() or 0))
    print("  batches of %d puzzles:       conns  puzzles/s  of -s  of the "
          "same  client CPU us/puzzle" % n)
    missed = []
    for name, _, conns in BATCHES:
        rate, cpu = med[name]
        same = rate / base[conns]
        python = not name.startswith("sudokuc")
        print("  %-30s %5d %10.0f %6.2f %8.2f  %s" % (
            name, conns, rate, rate / base[2], same,
            "%6.2f%s" % (cpu, "" if same >= BAR else "  (under %.2f)"
                         % BAR) if python else ""))
        if python and same < BAR:
            missed.append(name)
    print("  one at a time, %d puzzles:" % min(ONE, n))
    for name, _ in SINGLES:
        rate, cpu = med[name]
        print("  %-30s       %10.0f %6.2f           %6.2f" % (
            name, rate, rate / base[2], cpu))
    return missed


def main():
    if not os.access(SUDOKUD, os.X_OK) or not os.access(SUDOKUC, os.X_OK):
        print("python-client.py: %s or %s not built; skipped"
              % (SUDOKUD, SUDOKUC))
        return 0
    ps = sudokud.read_puzzles(SET17)
    tmp = tempfile.mkdtemp(prefix="sudokud-bench.")
    d, sock = start(tmp)
    try:
        missed = report(measure(sock, ps), len(ps))
    finally:
        d.terminate()
        d.wait()
    print("  bar: each batch at least %.2f of sudokuc with as many "
          "connections: %s" % (BAR, "met" if not missed else "missed by " +
                               ", ".join(missed)))
    return 1 if missed and os.environ.get("BENCH_STRICT") == "1" else 0


if __name__ == "__main__":
    sys.exit(main())
