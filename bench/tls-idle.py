#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
tls-idle.py -- what an idle connection costs the daemon, plain, over
TLS and over HTTP: a fresh daemon (workers = 1, idle_timeout = 0, a tcp,
a tls and an http listener, a self-signed EC P-256 certificate made
with openssl), its RSS (VmRSS) before and after N connections of each
kind that sent one PING (GET /v2/ping over HTTP, kept alive) and wait,
a second after the last; the bytes per connection are the difference
over N.  The three kinds take turns over ROUNDS rounds, each on a fresh
daemon; medians are printed.

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


KINDS = ("plain", "tls", "http")


def daemon(exe, tmp, n):
    ports = {k: free_port() for k in KINDS}
    p = start(exe, tmp + "/sudokud.conf", "[server]\nworkers = 1\n"
              "idle_timeout = 0\nmax_connections = %d\n"
              "max_connections_per_peer = 0\n[listen]\ntcp = 127.0.0.1:%d\n"
              "tls = 127.0.0.1:%d\nhttp = 127.0.0.1:%d\n[http]\npage = 0\n"
              "[tls]\ncert = %s/c.pem\nkey = %s/k.pem\n[log]\n"
              "level = warning\n" % (n + 100, ports["plain"], ports["tls"],
                                     ports["http"], tmp, tmp),
              ports["plain"])
    return p, ports


def ping(s, kind):
    req, end = b"PING\n", b"PONG\n"
    if kind == "http":
        req, end = b"GET /v2/ping HTTP/1.1\r\nHost: x\r\n\r\n", b"true}"
    s.sendall(req)
    buf = b""
    while not buf.endswith(end):
        buf += s.recv(512)
    assert kind == "http" or buf == b"PONG\n", buf


def measure(exe, tmp, n, kind):
    p, ports = daemon(exe, tmp, n)
    ctx = ssl.create_default_context(cafile=tmp + "/c.pem")
    conns = []
    try:
        time.sleep(0.5)
        before = rss_kb(p.pid)
        for _ in range(n):
            s = socket.create_connection(("127.0.0.1", ports[kind]), 10)
            if kind == "tls":
                s = ctx.wrap_socket(s, server_hostname="localhost")
            ping(s, kind)
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
        got = {k: [] for k in KINDS}
        for r in range(a.r):
            for kind in KINDS:
                got[kind].append(measure(a.sudokud, tmp, a.n, kind))
                print("round %d %-5s %7.0f bytes a connection"
                      % (r + 1, kind, got[kind][-1]), flush=True)
        for kind in KINDS:
            print("median %-5s %7.0f bytes a connection (%d idle, %d rounds)"
                  % (kind, statistics.median(got[kind]), a.n, a.r))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
