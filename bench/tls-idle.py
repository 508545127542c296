#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
tls-idle.py -- what an idle connection costs the daemon, plain and over
TLS: a fresh daemon (workers = 1, idle_timeout = 0, a tcp and a tls
listener, a self-signed EC P-256 certificate made with openssl), its RSS
(VmRSS) before and after N connections of each kind that sent one PING
and wait, a second after the last; the bytes per connection are the
difference over N.  The two kinds take turns over ROUNDS rounds, each
on a fresh daemon; medians are printed.

    bench/tls-idle.py [-n N] [-r ROUNDS] [SUDOKUD]

N defaults to 10000 (the shell's open-file limit must allow N + 100:
ulimit -n 20000).
"""

import argparse
import os
import resource
import shutil
import socket
import ssl
import statistics
import sys
import tempfile
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tlsbench import certificate, free_port, start  # noqa: E402


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def daemon(exe, tmp, n):
    tport, sport = free_port(), free_port()
    p = start(exe, tmp + "/sudokud.conf", "[server]\nworkers = 1\n"
              "idle_timeout = 0\nmax_connections = %d\n"
              "max_connections_per_peer = 0\n[listen]\ntcp = 127.0.0.1:%d\n"
              "tls = 127.0.0.1:%d\n[tls]\ncert = %s/c.pem\nkey = %s/k.pem\n"
              "[log]\nlevel = warning\n" % (n + 100, tport, sport, tmp, tmp),
              tport)
    return p, tport, sport


def ping(s):
    s.sendall(b"PING\n")
    buf = b""
    while not buf.endswith(b"\n"):
        buf += s.recv(64)
    assert buf == b"PONG\n", buf


def measure(exe, tmp, n, tls):
    p, tport, sport = daemon(exe, tmp, n)
    ctx = ssl.create_default_context(cafile=tmp + "/c.pem")
    conns = []
    try:
        time.sleep(0.5)
        before = rss_kb(p.pid)
        for _ in range(n):
            s = socket.create_connection(("127.0.0.1",
                                          sport if tls else tport), 10)
            if tls:
                s = ctx.wrap_socket(s, server_hostname="localhost")
            ping(s)
            conns.append(s)
        time.sleep(1)
        after = rss_kb(p.pid)
    finally:
        for s in conns:
            s.close()
        p.terminate()
        p.wait(10)
    return (after - before) * 1024 / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=10000)
    ap.add_argument("-r", type=int, default=3)
    ap.add_argument("sudokud", nargs="?", default="src/sudokud")
    a = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < a.n + 100:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, a.n + 100),
                                                    hard))
    tmp = tempfile.mkdtemp(prefix="tls-idle.")
    try:
        certificate(tmp)
        got = {False: [], True: []}
        for r in range(a.r):
            for tls in (False, True):
                got[tls].append(measure(a.sudokud, tmp, a.n, tls))
                print("round %d %-5s %7.0f bytes a connection"
                      % (r + 1, "tls" if tls else "plain", got[tls][-1]),
                      flush=True)
        for tls in (False, True):
            print("median %-5s %7.0f bytes a connection (%d idle, %d rounds)"
                  % ("tls" if tls else "plain", statistics.median(got[tls]),
                     a.n, a.r))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
