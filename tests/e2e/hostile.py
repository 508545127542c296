#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
hostile.py -- what a hostile or careless client must not achieve: a
use-after-free, starving the other clients of its worker, timeouts that
a reload switches off, a slot held by a trickle of bytes, a flood of
connections that crowds out live ones, an unclean end at shutdown, and
foreign protocols left hanging.  Over the Unix socket and TCP.

Timing bounds here are generous (ten times what the design promises) so
that a busy machine does not make them flaky: the behaviour they catch
is off by a hundred times or more (a request stuck behind seconds of
another client's searches, a connection never closed).
"""

import os
import re
import signal
import socket
import statistics
import sys
import threading
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq, Fail                     # noqa: E402

T = h.Tap({"workers": 2})
ONE = ("unix",)
EMPTY = "0" * 81

# One COUNT of the empty grid to 10^6: every guess finds solutions, so it
# runs until the budget is spent (about 20 ms at the default 100000).
HEAVY = "COUNT %s 1000000\n" % EMPTY


def ping_latencies(k, stop, interval=0.02):
    """PING on k until stop() is true; the round trips, in seconds."""
    out = []
    while not stop():
        t0 = time.monotonic()
        eq(k.req("PING", timeout=30), "PONG", "PING")
        out.append(time.monotonic() - t0)
        time.sleep(interval)
    return out


def read_replies(k, n, timeout):
    """n reply lines from k, with the time each arrived."""
    deadline = time.monotonic() + timeout
    got = []
    for _ in range(n):
        line = k.line(max(0.01, deadline - time.monotonic()))
        got.append((time.monotonic(), line))
    return got


# ---- 1. use-after-free ----------------------------------------------------

@T.case("pipelined COUNTs, closed without reading, 10 connections in a "
        "row -> no use after free, still serving",
        daemon={"workers": 2, "count_max": 1000})
def _(c):
    # The crash this guards against freed a connection while libevent
    # still held byte-counting callbacks on its buffers (ASan build):
    # replies written to a closed socket, EPIPE, free.
    batch = ("COUNT %s 1000\n" % EMPTY).encode() * 200
    for _ in range(3):
        for _ in range(10):
            s = c.d.raw_socket(c.transport)
            s.sendall(batch)
            s.close()
        time.sleep(0.5)
    time.sleep(1)
    k = c.connect()
    eq(k.req("PING"), "PONG", "after the closed connections")
    st = c.stats()
    check(st["cmd_count"] >= 1, "no COUNT was served at all")


# ---- 2. fairness ------------------------------------------------------------

@T.case("one connection pipelines the most expensive COUNTs -> another's "
        "PING is answered within a slice, not behind them",
        daemon={"workers": 1, "count_max": 1000000}, timeout=60)
def _(c):
    heavy = c.connect(timeout=60)
    k = c.connect()
    eq(k.req("PING"), "PONG", "warm up")
    n = 100                             # about 2 s of solving
    heavy.send(HEAVY * n)
    got = []
    t = threading.Thread(target=lambda: got.extend(
        read_replies(heavy, n, 60)), daemon=True)
    t.start()
    lat = ping_latencies(k, lambda: not t.is_alive())
    t.join()
    eq(len(got), n, "replies to the heavy connection")
    check(all(line.startswith("ERR budget") for _, line in got),
          "heavy replies: %r" % got[:3])
    check(len(lat) >= 10, "only %d PINGs during the load" % len(lat))
    med, worst = statistics.median(lat), max(lat)
    c.note("PING under load: %d samples, median %.1f ms, max %.1f ms"
           % (len(lat), med * 1e3, worst * 1e3))
    check(med < 0.02 and worst < 0.25,
          "PING median %.1f ms, max %.1f ms behind another connection's "
          "searches" % (med * 1e3, worst * 1e3))


@T.case("one request of a few hundred ms -> other requests on its worker "
        "are answered meanwhile",
        daemon={"workers": 1, "count_max": 1000000, "budget": 5000000},
        timeout=60)
def _(c):
    heavy = c.connect(timeout=60)
    k = c.connect()
    eq(k.req("PING"), "PONG", "warm up")
    t0 = time.monotonic()
    heavy.send(HEAVY)
    done = []
    t = threading.Thread(target=lambda: done.append(heavy.line(60)),
                         daemon=True)
    t.start()
    lat = ping_latencies(k, lambda: not t.is_alive())
    t.join()
    took = time.monotonic() - t0
    eq(done, ["1000000"], "the long request's reply")
    # Enough PINGs came back while it ran to tell slicing from waiting
    # (without slices one PING waits for the whole request).  Not a
    # bound on its time: 0.15 s once, and it got faster with the solver.
    check(len(lat) >= 3, "only %d PINGs during the long request (%.2f s)"
          % (len(lat), took))
    worst, med = max(lat), statistics.median(lat)
    c.note("one %.2f s request: %d PINGs meanwhile, median %.1f ms, max "
           "%.1f ms" % (took, len(lat), med * 1e3, worst * 1e3))
    # Before the fix a PING waited for the whole request.  The median
    # shows the slices; the worst one is also bounded, but loosely: on
    # a busy shared machine the scheduler alone can stall any process
    # for 100 ms and more.
    check(med < 0.02 and worst < took / 3, "PINGs waited %.1f ms "
          "(median), %.0f ms (max) behind one request of %.2f s"
          % (med * 1e3, worst * 1e3, took))


@T.case("two connections with long requests on one worker -> both "
        "progress, round robin",
        daemon={"workers": 1, "count_max": 1000000, "budget": 3000000},
        timeout=60)
def _(c):
    a, b = c.connect(timeout=60), c.connect(timeout=60)
    ends = {}

    def run(name, k):
        k.send(HEAVY)
        k.line(60)
        ends[name] = time.monotonic()
    t0 = time.monotonic()
    ts = [threading.Thread(target=run, args=(n, k), daemon=True)
          for n, k in (("a", a), ("b", b))]
    for t in ts:
        t.start()
    for t in ts:
        t.join(60)
    eq(sorted(ends), ["a", "b"], "both answered")
    first, last = sorted(ends.values())
    ratio = (first - t0) / (last - t0)
    c.note("two long requests: done at %.2f s and %.2f s"
           % (first - t0, last - t0))
    # One after the other, the first would end at half the time.
    check(ratio > 0.75, "the first ended at %.2f s, the second at %.2f s: "
          "not round robin" % (first - t0, last - t0))


# ---- 3. reloads do not restart timeouts ------------------------------------

def hup_every(d, interval, stop):
    while not stop.is_set():
        try:
            d.proc.send_signal(signal.SIGHUP)
        except ProcessLookupError:
            return
        stop.wait(interval)


def with_hups(d, interval=0.4):
    stop = threading.Event()
    t = threading.Thread(target=hup_every, args=(d, interval, stop),
                         daemon=True)
    t.start()
    return stop


@T.case("SIGHUP every 0.4 s -> an idle connection is still closed at "
        "idle_timeout", daemon={"workers": 2, "idle_timeout": 2})
def _(c):
    k = c.connect()
    eq(k.req("PING"), "PONG", "PING")
    t0 = time.monotonic()
    stop = with_hups(c.d)
    try:
        k.expect_eof(timeout=8, what="idle close")
    finally:
        stop.set()
    took = time.monotonic() - t0
    c.note("closed after %.2f s" % took)
    check(1.5 < took < 4, "idle connection closed after %.2f s, "
          "idle_timeout 2 s" % took)


@T.case("SIGHUP every 0.4 s -> a client that never reads is still closed "
        "at write_timeout",
        daemon={"workers": 2, "write_timeout": 2, "output_high": 4096,
                "output_low": 0})
def _(c):
    s = c.d.raw_socket(c.transport)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    before = c.stats()["output_kicks"]
    t, res = h.sender(s, b"HELP\n" * 200000, stop_on_block=10)
    stop = with_hups(c.d)
    try:
        kicked = h.wait_for(lambda: c.stats()["output_kicks"] > before, 9,
                            0.1)
    finally:
        stop.set()
        s.close()
    check(kicked, "not closed for its unread replies within 9 s, "
          "write_timeout 2 s")


# ---- 4. reload diagnostics -------------------------------------------------

def log_lines(d):
    with open(d.log, "rb") as f:
        return [h.unstamp(ln) for ln in
                f.read().decode("ascii", "replace").splitlines()]


def reload_with(d, **opts):
    """Rewrite the config with opts, SIGHUP, wait for the reload line."""
    n = sum("configuration reloaded" in ln for ln in log_lines(d))
    d.opts.update(opts)
    d.write_conf()
    d.proc.send_signal(signal.SIGHUP)
    ok = h.wait_for(lambda: sum("configuration reloaded" in ln
                                for ln in log_lines(d)) > n, 5)
    check(ok, "no reload logged:\n" + d.log_tail())
    return log_lines(d)


@T.case("reloads report restart-only changes against what runs, not "
        "against the last file read", transports=ONE,
        daemon={"workers": 2})
def _(c):
    d = c.d
    lines = reload_with(d, workers=4)
    want = ("[server] workers changed from '2' to '4': restart needed, "
            "still using '2'")
    check(want in lines, "no %r in\n%s" % (want, "\n".join(lines)))
    mark = len(lines)
    lines = reload_with(d, workers=2)
    bad = [ln for ln in lines[mark:] if "workers changed" in ln]
    eq(bad, [], "report after going back to the running value")
    # Listeners: a different socket path, then back to the running one.
    path = d.path
    d.path = os.path.join(d.tmp, "other.sock")
    lines = reload_with(d)
    check(any("[listen] unix changed" in ln for ln in lines),
          "no report of the changed socket:\n" + "\n".join(lines))
    mark = len(lines)
    d.path = path
    lines = reload_with(d)
    bad = [ln for ln in lines[mark:] if "changed" in ln]
    eq(bad, [], "reports after going back to the running sockets")
    k = c.connect()
    eq(k.req("PING"), "PONG", "still serving on the first socket")


# ---- 5. slowloris ----------------------------------------------------------

@T.case("one byte every 0.3 s of a line that never ends -> closed at "
        "idle_timeout from its first byte",
        daemon={"workers": 2, "idle_timeout": 2}, timeout=40)
def _(c):
    s = c.d.raw_socket(c.transport)
    t0 = time.monotonic()
    closed = None
    try:
        for i in range(40):
            s.sendall(b"P")
            time.sleep(0.3)
    except OSError:
        closed = time.monotonic() - t0
    if closed is None:
        s.settimeout(0.5)
        try:
            closed = time.monotonic() - t0 if s.recv(100) == b"" else None
        except OSError:
            closed = time.monotonic() - t0
    s.close()
    check(closed is not None and closed < 5,
          "a trickling client was still connected after 12 s "
          "(idle_timeout 2 s)" if closed is None else
          "closed only after %.1f s" % closed)
    c.note("trickling client closed after %.1f s" % closed)


@T.case("complete lines every 0.5 s keep a connection open past "
        "idle_timeout", daemon={"workers": 2, "idle_timeout": 2})
def _(c):
    k = c.connect()
    for _ in range(9):
        eq(k.req("PING"), "PONG", "PING")
        time.sleep(0.5)
    check(k.quiet(0.2), "closed while sending requests")


# ---- 6. connection floods --------------------------------------------------

@T.case("10,000 connect-and-close cycles -> no ERR busy for anybody, live "
        "connections served throughout",
        daemon={"workers": 2, "max_connections": 64}, timeout=90)
def _(c):
    k = c.connect()
    eq(k.req("PING"), "PONG", "warm up")
    before = c.stats()
    stop = threading.Event()
    lat = []
    t = threading.Thread(target=lambda: lat.extend(
        ping_latencies(k, stop.is_set, 0.005)), daemon=True)
    t.start()
    fam = socket.AF_UNIX if c.transport == "unix" else socket.AF_INET
    addr = c.d.path if c.transport == "unix" else ("127.0.0.1", c.d.port)
    refused = 0
    t0 = time.monotonic()
    for _ in range(10000):
        s = socket.socket(fam, socket.SOCK_STREAM)
        try:
            s.connect(addr)
        except OSError:
            refused += 1
        s.close()
    took = time.monotonic() - t0
    stop.set()
    t.join(10)
    check(h.wait_for(lambda: c.stats()["curr_connections"] <= 2, 5),
          "connections of the flood still counted open")
    after = c.stats()
    busy = after["rejected_connections"] - before["rejected_connections"]
    c.note("10,000 cycles in %.2f s: %d refused at connect, %d ERR busy, "
           "PING max %.1f ms" % (took, refused, busy,
                                 max(lat) * 1e3 if lat else -1))
    eq(busy, 0, "connections rejected with ERR busy (max_connections 64, "
       "never more than 2 open)")
    check(lat and max(lat) < 0.5, "live PINGs during the flood: %d, max "
          "%.0f ms" % (len(lat), max(lat) * 1e3 if lat else -1))


# ---- 7. graceful stop ------------------------------------------------------

@T.case("SIGTERM during a pipelined batch -> replies to what was read, "
        "then an orderly end of stream, not a reset",
        daemon={"workers": 2, "shutdown_timeout": 10})
def _(c):
    s = c.d.raw_socket(c.transport)
    stop = threading.Event()

    def write():
        try:
            while not stop.is_set():
                s.sendall(b"PING\n" * 256)
        except OSError:
            pass
    w = threading.Thread(target=write, daemon=True)
    w.start()
    s.settimeout(10)
    data = b""
    try:
        while len(data) < 50000:
            data += s.recv(65536)
        c.d.stopped = True          # the daemon is meant to exit
        c.d.proc.send_signal(signal.SIGTERM)
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        end = "eof"
    except ConnectionResetError:
        end = "reset"
    except socket.timeout:
        end = "timeout"
    stop.set()
    w.join(5)
    s.close()
    eq(end, "eof", "how the stream ended")
    lines = data.split(b"\n")
    eq(lines[-1], b"", "last reply complete")
    bad = [ln for ln in lines[:-1] if ln != b"PONG"]
    eq(bad, [], "replies other than PONG")
    eq(c.d.proc.wait(10), 0, "exit status")


# ---- 8. foreign protocols --------------------------------------------------

TLS_HELLO = bytes.fromhex(
    "16030100f4010000f00303") + os.urandom(32) + bytes.fromhex(
    "000813021303130100ff010000af")


@T.case("a TLS ClientHello -> one ERR syntax line, then the end")
def _(c):
    s = c.d.raw_socket(c.transport)
    s.sendall(TLS_HELLO)
    k = h.Client(s, 3)
    eq(k.line(3), "ERR syntax this is sudokud, a plain text line protocol, "
       "not a TLS server", "reply")
    k.expect_eof(3, "close after the TLS reply")


@T.case("HTTP request lines in any case -> ERR syntax, then the end")
def _(c):
    for req in ("get / http/1.1", "Get /x HTTP/1.0", "post /solve Http/1.1"):
        k = c.connect()
        k.send(req + "\r\nHost: x\r\n\r\n")
        eq(k.line(3), "ERR syntax this is sudokud, not an HTTP server", req)
        k.expect_eof(3, "close after %r" % req)


if __name__ == "__main__":
    sys.exit(T.run())
