#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
flood.py -- a flood as a hostile client sends it, against a daemon of
the default configuration (but its listeners): N connections that each
send one heavy request (SOLVE of a puzzle whose search spends the whole
budget the server allows, 100000 guesses; over HTTP, POST /v2/solve of
it) and close at once; or N TLS connections that send half a
ClientHello and stall.  Meanwhile a live client (the same user on the
Unix socket; another address, 127.0.0.2, over TCP) sends PING (GET
/v2/ping over HTTP) every 20 ms on a new connection, and the figures are
what it got: PONGs, ERR busy (503), failures, and the longest time
without a PONG.

    bench/flood.py [-n N] [-s SECONDS] [-k KINDS] [SUDOKUD]

Each kind of flood on a fresh daemon: unix, tcp, tls, http (-k
unix,tcp,http for a daemon without TLS).
"""

import argparse
import os
import shutil
import socket
import ssl
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tlsbench import certificate, free_port, start  # noqa: E402

# A puzzle whose search runs to the end of any budget (the tests' DEEP):
# the heaviest request the default configuration allows (count_max 1000
# refuses COUNT's 1000000 at once).
DEEP = ("000005000000601000000000000010500000000106000300000005"
        "500000061000000004000000000")


HTTP_SOLVE = ('POST /v2/solve HTTP/1.1\r\nHost: x\r\nContent-Type: '
              'application/json\r\nContent-Length: %d\r\n\r\n{"puzzle": '
              '"%s"}' % (len(DEEP) + 14, DEEP)).encode()
HTTP_PING = b"GET /v2/ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"


def daemon(exe, tmp):
    tport, sport, hport = free_port(), free_port(), free_port()
    tls = ("tls = 127.0.0.1:%d\n[tls]\ncert = %s/c.pem\nkey = %s/k.pem\n"
           % (sport, tmp, tmp)) if daemon.tls else ""
    p = start(exe, tmp + "/sudokud.conf", "[listen]\nunix = %s/sock\n"
              "tcp = 127.0.0.1:%d\nhttp = 127.0.0.1:%d\n%s[http]\n"
              "page = 0\n[log]\nlevel = error\n"
              % (tmp, tport, hport, tls), tport)
    return p, tmp + "/sock", tport, sport, hport


def connect(kind, where):
    if kind == "unix":
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(2)
        s.connect(where)
        return s
    return socket.create_connection(where, 2, source_address=(
        ("127.0.0.2", 0) if kind == "live" else None))


def flood(kind, target, n, hello):
    """The attacker: n connections, as fast as it can."""
    t0 = time.monotonic()
    for _ in range(n):
        try:
            s = connect("unix" if kind == "unix" else "tcp", target)
            if kind == "tls":
                s.sendall(hello[:len(hello) // 2])
                flood.held.append(s)        # stalled, kept open
            elif kind == "http":
                s.sendall(HTTP_SOLVE)
                s.close()
            else:
                s.sendall(("SOLVE %s\n" % DEEP).encode())
                s.close()
        except OSError:
            pass
    return time.monotonic() - t0


flood.held = []


def live(kind, target, seconds, ctx):
    """The live client: a PING every 20 ms on a new connection."""
    got = {"pong": 0, "busy": 0, "fail": 0}
    gap, last = 0.0, time.monotonic()
    end = last + seconds
    while time.monotonic() < end:
        try:
            if kind == "unix":
                s = connect("unix", target)
            else:
                s = socket.create_connection(target, 2, source_address=(
                    "127.0.0.2", 0))
                if kind == "tls":
                    s = ctx.wrap_socket(s, server_hostname="127.0.0.1")
            s.sendall(HTTP_PING if kind == "http" else b"PING\n")
            line = s.makefile().readline()
            s.close()
            if kind == "http":
                line = {"HTTP/1.1 200 OK": "PONG\n", "HTTP/1.1 503 "
                        "Service Unavailable": "ERR busy"}.get(
                            line.rstrip("\r\n"), line)
            key = "pong" if line == "PONG\n" else "busy" if \
                line.startswith("ERR busy") else "fail"
        except (OSError, ssl.SSLError):
            key = "fail"
        got[key] += 1
        now = time.monotonic()
        if key == "pong":
            gap, last = max(gap, now - last), now
        time.sleep(0.02)
    got["gap"] = max(gap, time.monotonic() - last)
    return got


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=1100)
    ap.add_argument("-s", type=float, default=30)
    ap.add_argument("-k", default="unix,tcp,tls,http",
                    help="the floods, of unix, tcp, tls, http")
    ap.add_argument("sudokud", nargs="?", default="src/sudokud")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="flood.")
    try:
        certificate(tmp)
        ctx = ssl.create_default_context(cafile=tmp + "/c.pem")
        bio = ssl.MemoryBIO(), ssl.MemoryBIO()
        obj = ctx.wrap_bio(bio[0], bio[1], server_hostname="127.0.0.1")
        try:
            obj.do_handshake()
        except ssl.SSLWantReadError:
            pass
        hello = bio[1].read()
        daemon.tls = "tls" in a.k
        for kind in a.k.split(","):
            p, sock, tport, sport, hport = daemon(a.sudokud, tmp)
            target = sock if kind == "unix" else ("127.0.0.1", {
                "tls": sport, "http": hport}.get(kind, tport))
            res = {}
            t = threading.Thread(target=lambda: res.update(
                live(kind, target, a.s, ctx)))
            t.start()
            time.sleep(0.5)
            took = flood(kind, target, a.n, hello)
            t.join()
            for s in flood.held:
                s.close()
            flood.held.clear()
            p.terminate()
            p.wait(10)
            print("%-4s flood of %d in %.2f s; live client over %.0f s: "
                  "%d PONG, %d ERR busy, %d failed, longest without a "
                  "PONG %.2f s" % (kind, a.n, took, a.s, res["pong"],
                                   res["busy"], res["fail"], res["gap"]),
                  flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
