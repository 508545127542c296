#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
httpbench.py -- the HTTP listener against the line protocol over TCP, on
the same puzzles, side by side in one run (make bench; the figures are
in doc/bench-daemon.md, "HTTP and JSON"):

  line d1    loadgen, CONNS connections, one SOLVE in flight on each
  http 1     wrk, CONNS connections, POST /v2/solve of one puzzle
  line dB    loadgen, CONNS connections, BATCH SOLVEs pipelined on each
  http B     wrk, CONNS connections, POST /v2/solve of BATCH puzzles

each run ROUNDS times, the four alternating, medians kept: puzzles a
second, p50 and p99 of a request (a batch's whole response for http B),
and the daemon's CPU time per puzzle (/proc/PID/stat, which another
load on the machine disturbs less than the rate).  Before them, every
puzzle of the set is solved in one batch and each answer checked here
(a grid that keeps the givens and breaks no rule); a run whose
responses are not 200 with solutions fails the benchmark.  The aim of
issue 33: a batch within 1.5 times the line protocol's cost a puzzle.

    httpbench.py SUDOKUD LOADGEN PUZZLES

Environment: HTTP_SECONDS (3), HTTP_ROUNDS (5), HTTP_CONNS (4),
HTTP_BATCH (100), HTTP_WORKERS (1).
"""

import json
import os
import platform
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import urllib.request

from tlsbench import free_port, start

HERE = os.path.dirname(os.path.abspath(__file__))
SECS = int(os.environ.get("HTTP_SECONDS", "3"))
ROUNDS = int(os.environ.get("HTTP_ROUNDS", "5"))
CONNS = int(os.environ.get("HTTP_CONNS", "4"))
BATCH = int(os.environ.get("HTTP_BATCH", "100"))
WORKERS = int(os.environ.get("HTTP_WORKERS", "1"))
AIM = 1.5


def valid(p, s):
    """s solves p: the givens kept, each row, column and box 1-9."""
    if len(s) != 81 or any(a not in ".0" and a != b for a, b in zip(p, s)):
        return False
    units = [[r * 9 + c for c in range(9)] for r in range(9)]
    units += [[r * 9 + c for r in range(9)] for c in range(9)]
    units += [[(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3
               for i in range(9)] for b in range(9)]
    return all(sorted(s[i] for i in u) == list("123456789") for u in units)


def cpu(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def solved(port):
    """STATS cmd_solve, over the line protocol."""
    with socket.create_connection(("127.0.0.1", port), 10) as s:
        s.sendall(b"STATS\nQUIT\n")
        data = b""
        while not data.endswith(b"BYE\n"):
            more = s.recv(65536)
            if not more:
                break
            data += more
    return int(re.search(rb"^STAT cmd_solve (\d+)$", data, re.M).group(1))


def run_line(loadgen, port, puzzles, depth):
    p = subprocess.run([loadgen, "-H", "127.0.0.1", "-p", str(port), "-c",
                        str(CONNS), "-d", str(depth), "-f", puzzles, "-t",
                        str(SECS), "-w", "1", "-j"],
                       capture_output=True, text=True, timeout=SECS + 60)
    kv = dict(w.split("=", 1) for w in p.stdout.split())
    if p.returncode != 0 or kv.get("errors") != "0":
        sys.exit("httpbench: loadgen failed: %s%s" % (p.stdout, p.stderr))
    return float(kv["rps"]), float(kv["p50_us"]), float(kv["p99_us"])


def run_http(hport, puzzles, batch):
    env = dict(os.environ, PUZZLES=puzzles, BATCH=str(batch))
    p = subprocess.run(["wrk", "-t1", "-c%d" % CONNS, "-d%ds" % SECS,
                        "-s", os.path.join(HERE, "httpbench.lua"),
                        "http://127.0.0.1:%d/v2/solve" % hport],
                       capture_output=True, text=True, env=env,
                       timeout=SECS + 60)
    m = re.search(r"^httpbench (.*)$", p.stdout, re.M)
    if p.returncode != 0 or m is None:
        sys.exit("httpbench: wrk failed: %s%s" % (p.stdout, p.stderr))
    kv = dict(w.split("=", 1) for w in m.group(1).split())
    if kv["errors"] != "0":
        sys.exit("httpbench: %s errors: %s" % (kv["errors"], p.stdout))
    rps = int(kv["requests"]) / float(kv["seconds"]) * max(batch, 1)
    return rps, float(kv["p50_us"]), float(kv["p99_us"])


def check_all(hport, puzzles):
    with open(puzzles) as f:
        ps = [ln.strip() for ln in f if len(ln.strip()) == 81 and
              not ln.startswith("#")]
    req = urllib.request.Request(
        "http://127.0.0.1:%d/v2/solve" % hport,
        json.dumps({"puzzles": ps}).encode(),
        {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        got = json.load(r)["results"]
    bad = [p for p, o in zip(ps, got) if not valid(p, o.get("solution", ""))]
    if len(got) != len(ps) or bad:
        sys.exit("httpbench: wrong answers for %d of %d puzzles"
                 % (len(bad), len(ps)))
    return len(ps)


def cpu_model():
    with open("/proc/cpuinfo") as f:
        m = re.search(r"^model name\s*:\s*(.*)$", f.read(), re.M)
    return m.group(1) if m else platform.processor()


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: httpbench.py SUDOKUD LOADGEN PUZZLES")
    exe, loadgen, puzzles = sys.argv[1:]
    tmp = tempfile.mkdtemp(prefix="sudokud-httpbench.")
    port, hport = free_port(), free_port()
    d = start(exe, tmp + "/conf", "[server]\nworkers = %d\n[solver]\n"
              "generate_pool = 0\n[listen]\ntcp = 127.0.0.1:%d\n"
              "http = 127.0.0.1:%d\n[http]\npage = 0\nmax_body = 64m\n"
              % (WORKERS, port, hport), port)
    runs = {
        "line d1": lambda: run_line(loadgen, port, puzzles, 1),
        "http 1": lambda: run_http(hport, puzzles, 0),
        "line d%d" % BATCH: lambda: run_line(loadgen, port, puzzles, BATCH),
        "http %d" % BATCH: lambda: run_http(hport, puzzles, BATCH),
    }
    got = {k: [] for k in runs}
    try:
        n = check_all(hport, puzzles)
        for r in range(ROUNDS):
            names = list(runs) if r % 2 == 0 else list(reversed(runs))
            for name in names:
                s0, c0 = solved(port), cpu(d.pid)
                rps, p50, p99 = runs[name]()
                s1, c1 = solved(port), cpu(d.pid)
                got[name].append((rps, p50, p99,
                                  (c1 - c0) * 1e6 / max(1, s1 - s0)))
    finally:
        d.terminate()
        d.wait()
    print("httpbench: POST /v2/solve against the line protocol over TCP, "
          "%s; %d worker(s), %d connections, %d s a run, medians of %d "
          "alternating rounds; %d puzzles checked first; %s, %d CPUs, "
          "loadavg %s" % (os.path.basename(puzzles), WORKERS, CONNS, SECS,
                          ROUNDS, n, cpu_model(), os.cpu_count(),
                          " ".join(open("/proc/loadavg").read().split()[:3])))
    print("  %-10s %12s %10s %10s %12s" % ("", "puzzles/s", "p50_us",
                                           "p99_us", "sd_us/puzzle"))
    med = {}
    for name, rows in got.items():
        med[name] = [statistics.median(col) for col in zip(*rows)]
        print("  %-10s %12.0f %10.0f %10.0f %12.2f" % ((name,) +
                                                       tuple(med[name])))
    ratio = med["http %d" % BATCH][3] / med["line d%d" % BATCH][3]
    single = med["http 1"][3] / med["line d1"][3]
    print("  daemon CPU a puzzle, http over line: batch of %d %.2fx (aim: "
          "at most %.1fx), single %.2fx" % (BATCH, ratio, AIM, single))


if __name__ == "__main__":
    main()
