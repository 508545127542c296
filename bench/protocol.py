#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
protocol.py -- benchmarks of protocol version 2 (make bench; issue 20):

ANALYZE against COUNT 2 and RATE on the 17-clue set: each verb sent
for the whole set, pipelined, in alternating rounds; the figure is the
daemon's own solver time (the us= of effort=1, summed over the set),
which leaves out the transport both share, and the median of the
rounds.  ANALYZE should cost at most COUNT 2 plus RATE.  (The Python
client against sudokuc: bench/python-client.py.)

Starts its own sudokud from the build tree (SUDOKUD, default
src/sudokud), with 2 workers.  Environment:
PUZZLE_DIR, BENCH_ROUNDS (default 5).  Prints a table; exit 1 if an
answer is wrong.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import sudokud                                          # noqa: E402

SUDOKUD = os.environ.get("SUDOKUD", "src/sudokud")
DATA = os.environ.get("PUZZLE_DIR", os.path.join(HERE, "..", "data"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
SET17 = os.path.join(DATA, "puzzles2_17_clue")


def puzzles(path):
    with open(path) as f:
        return [ln.strip() for ln in f if ln.strip() and ln[0] != "#"]


def start(tmp):
    sock = os.path.join(tmp, "sock")
    conf = os.path.join(tmp, "conf")
    with open(conf, "w") as f:
        f.write("[server]\nworkers = 2\n[listen]\nunix = %s\n" % sock)
    d = subprocess.Popen([SUDOKUD, "-f", conf, "-d"],
                         stderr=subprocess.DEVNULL)
    for _ in range(200):
        if os.path.exists(sock):
            return d, sock
        time.sleep(0.05)
    raise SystemExit("protocol.py: sudokud did not start")


def solver_us(c, verb, ps):
    """Solver microseconds the daemon reports for verb over ps."""
    lines = ("%s %s%s effort=1" % (verb, p, " 2" if verb == "COUNT" else "")
             for p in ps)
    total = 0
    for line in c.request_many(lines):
        total += int(line.rpartition(" us=")[2])
    return total


def analyze_vs(c, ps):
    runs = {"ANALYZE": [], "COUNT": [], "RATE": []}
    order = list(runs)
    for r in range(ROUNDS):
        for verb in order[r % 3:] + order[:r % 3]:
            runs[verb].append(solver_us(c, verb, ps))
    med = {v: statistics.median(x) for v, x in runs.items()}
    n = len(ps)
    print("ANALYZE vs COUNT 2 + RATE, %s (%d puzzles), solver time per "
          "puzzle, median of %d rounds:" % (os.path.basename(SET17), n,
                                           ROUNDS))
    for v in order:
        print("  %-8s %8.2f us" % (v if v != "COUNT" else "COUNT 2",
                                   med[v] / n))
    ratio = med["ANALYZE"] / (med["COUNT"] + med["RATE"])
    print("  ANALYZE / (COUNT 2 + RATE) = %.2f (bar: at most 1.00)" % ratio)


def main():
    if not os.access(SUDOKUD, os.X_OK):
        print("protocol.py: %s not built; skipped" % SUDOKUD)
        return 0
    ps = puzzles(SET17)
    tmp = tempfile.mkdtemp(prefix="sudokud-bench.")
    d, sock = start(tmp)
    try:
        with sudokud.Client(sock, timeout=60) as c:
            got = list(c.solve_many(ps[:2000]))
            bad = [p for p, s in zip(ps, got)
                   if any(q not in ".0" and q != a for q, a in zip(p, s))]
            if bad:
                print("protocol.py: wrong answers")
                return 1
            analyze_vs(c, ps)
    finally:
        d.terminate()
        d.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
