#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""solve-ir.py -- user-space instructions a SOLVE costs sudokud, against
the core's cost of the same puzzle in-process (doc/bench-daemon.md, "One
socket against the core"): callgrind's counts, which hold on any x86-64
machine and under any load where times do not.

    python3 bench/solve-ir.py [-t] [-r replies] sudokud-a [sudokud-b ...]

The in-process figure is callgrind on bench/solverbench -m any over the
17-clue set: the instructions of sudoku_solve() a puzzle (the grids are
parsed beforehand, as the in-process rate of solve-ab.sh is measured),
and of sudoku_parse() beside it.  Each daemon (1 worker, no GENERATE
pool, a Unix socket; -t: TCP on 127.0.0.1) runs under callgrind twice,
serving 5,000 requests and then 5,000 and the whole set once more
(bench/loadgen, 1 connection, depth 32, SOLVE <puzzle> cycling through
the set): the difference, divided by the set's size, is what a request
costs the daemon, every thread, start-up and end cancelled out, on the
very puzzles of the in-process figure.

One correction: the daemon sends the replies of a pipelined batch after
32 us of solving (conn.c, CONN_EARLY_NS), and under callgrind a search
runs about 50 times slower, so it writes after one or two replies where
it writes after about 15 at full speed (solve-ab.sh's repl/wr).  So each
daemon's writes are counted (conn_send()'s calls) and the instructions
of a write (conn_flush(): the writev, the evbuffer drained) measured,
and the figure is also given as it would be at -r replies a write
(default 15).  Exits 1 on a wrong reply, 0 without valgrind (skipped).
"""
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

PUZZLE_DIR = os.environ.get(
    "PUZZLE_DIR", os.path.join(os.path.dirname(__file__), "..", "data"))
PUZZLES = os.path.join(PUZZLE_DIR, "puzzles2_17_clue")
LOADGEN = os.environ.get("LOADGEN", "bench/loadgen")
SOLVERBENCH = os.environ.get("SOLVERBENCH", "bench/solverbench")
FIRST = 5000		# requests of the shorter run


def die(msg, code=2):
    print("solve-ir: " + msg, file=sys.stderr)
    sys.exit(code)


def annotate(path, names):
    """The total, and each function of names: (instructions, calls).

    Inclusive counts; a function may be listed under two spellings of
    its file's path (callgrind_annotate's cwd), so the largest is taken.
    """
    out = subprocess.run(["callgrind_annotate", "--auto=no",
                          "--inclusive=yes", "--tree=caller",
                          "--threshold=100", path],
                         capture_output=True, text=True, check=True).stdout
    got = {name: (0, 0) for name in names}
    total, calls = None, 0
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+)\s+\([^)]*\)\s+(<|\*)?\s*(\S+)"
                     r"(?:\s+\(([\d,]+)x\))?", line)
        if not m:
            calls = 0
            continue
        n = int(m.group(1).replace(",", ""))
        if m.group(3) == "PROGRAM":
            total = n
        if m.group(2) == "<":
            calls += int((m.group(4) or "0").replace(",", ""))
            continue
        for name in names:
            if m.group(3).endswith(":" + name):
                got[name] = (max(got[name][0], n), max(got[name][1], calls))
        calls = 0
    if total is None:
        die("%s: no totals from callgrind_annotate" % path)
    return total, got


def in_process(tmp):
    """sudoku_solve()'s and sudoku_parse()'s instructions a puzzle."""
    out = os.path.join(tmp, "inproc.cg")
    run = subprocess.run(["valgrind", "--tool=callgrind", "-q",
                          "--callgrind-out-file=" + out, SOLVERBENCH,
                          "-n", "1", "-s", PUZZLES, "-m", "any"],
                         capture_output=True, text=True)
    m = re.search(r"^puzzles2_17_clue\s+(\d+)\s+any\s.*\s(\d+)\s*$",
                  run.stdout, re.M)
    if run.returncode != 0 or not m:
        die("solverbench under callgrind failed:\n" + run.stdout +
            run.stderr, 1)
    n, passes = int(m.group(1)), int(m.group(2))
    _, f = annotate(out, ["sudoku_solve", "sudoku_parse"])
    # one untimed pass checks the answers, then the timed ones
    if f["sudoku_solve"][1] != n * (passes + 1):
        die("solverbench: %d calls of sudoku_solve(), not %d" % (
            f["sudoku_solve"][1], n * (passes + 1)))
    return n, f["sudoku_solve"][0] / (n * (passes + 1)), \
        f["sudoku_parse"][0] / n


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def serve(tmp, daemon, requests, tcp):
    """(instructions, conn_flush()'s, writes) of daemon's requests."""
    sock = os.path.join(tmp, "sock")
    out = os.path.join(tmp, "daemon.cg")
    for p in (sock, out):
        if os.path.exists(p):
            os.unlink(p)
    conf = os.path.join(tmp, "conf")
    to = ["-U", sock]
    with open(conf, "w") as f:
        f.write("[server]\nworkers = 1\n[solver]\ngenerate_pool = 0\n"
                "[listen]\nunix = %s\n" % sock)
        if tcp:
            port = free_port()
            f.write("tcp = 127.0.0.1:%d\n" % port)
            to = ["-p", str(port)]
    log = open(os.path.join(tmp, "log"), "w")
    d = subprocess.Popen(["valgrind", "--tool=callgrind", "-q",
                          "--callgrind-out-file=" + out,
                          os.path.abspath(daemon), "-d",
                          "-f", conf], stdout=log, stderr=log)
    try:
        for _ in range(600):
            if os.path.exists(sock) or d.poll() is not None:
                break
            time.sleep(0.1)
        if not os.path.exists(sock):
            with open(os.path.join(tmp, "log")) as f:
                die("%s did not start under callgrind: %s" % (daemon,
                                                              f.read()))
        lg = subprocess.run([LOADGEN] + to + ["-c", "1", "-d", "32", "-n",
                            str(requests), "-x", "60", "-j", "-f",
                            PUZZLES], capture_output=True, text=True)
    finally:
        d.send_signal(signal.SIGTERM)
        d.wait()
        log.close()
    if lg.returncode != 0 or " errors=0 " not in lg.stdout:
        die("%s: wrong or no replies: %s%s" % (daemon, lg.stdout,
                                                 lg.stderr), 1)
    # conn_send(): a write of what c->out holds (conn_flush() calls it
    # only then), with the evbuffer's own work and the writev.
    total, f = annotate(out, ["conn_flush", "conn_send"])
    return total, f["conn_flush"][0], f["conn_send"][1]


def main():
    args = sys.argv[1:]
    tcp, replies = False, 15.0
    while args and args[0].startswith("-"):
        if args[0] == "-t":
            tcp = True
            args = args[1:]
        elif args[0] == "-r" and len(args) > 1:
            replies = float(args[1])
            args = args[2:]
        else:
            args = []
    if not args or replies <= 0:
        die("usage: solve-ir.py [-t] [-r replies] sudokud ...")
    for prog in ("valgrind", "callgrind_annotate"):
        if shutil.which(prog) is None:
            print("solve-ir: skipped, no %s" % prog)
            return
    tmp = tempfile.mkdtemp(prefix="sudokud-ir.")
    try:
        n, solve, parse = in_process(tmp)
        rows = []
        for daemon in args:
            a = serve(tmp, daemon, FIRST, tcp)
            b = serve(tmp, daemon, FIRST + n, tcp)
            per = (b[0] - a[0]) / n
            writes = (b[2] - a[2]) / n
            per_write = (b[1] - a[1]) / max(b[2] - a[2], 1)
            at = per - (writes - 1 / replies) * per_write
            rows.append((daemon, per, writes, per_write, at))
    finally:
        shutil.rmtree(tmp)
    model = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    print("SOLVE 17-clue (%d puzzles), 1 connection%s, depth 32: "
          "user-space instructions (callgrind); %s" %
          (n, " over TCP" if tcp else "", model))
    print("in-process: sudoku_solve() %.0f a puzzle (sudoku_parse() "
          "%.0f more)" % (solve, parse))
    print("%-28s %9s %9s %9s %11s %9s" % (
        "daemon", "a_request", "writes/r", "a_write",
        "at_%g/write" % replies, "core/at"))
    for daemon, per, writes, per_write, at in rows:
        print("%-28s %9.0f %9.3f %9.0f %11.0f %9.3f" % (
            daemon, per, writes, per_write, at, solve / at))
        print("  raw: core/daemon %.3f (sudoku_parse + solve in-process: "
              "%.3f)" % (solve / per, (solve + parse) / per))


if __name__ == "__main__":
    main()
