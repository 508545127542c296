#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
observe.py -- what an operator asks a running sudokud (issue 22): the
slow log (SLOWLOG GET, LEN, RESET: the slow request is in it, the fast
ones are not; bounded by slowlog_max_len, newest first, reloadable; a
request's bytes other than printable ASCII shown as '?') and
CLIENT LIST (every connection of every worker, with its transport,
address -- the PROXY header's client behind a balancer -- and counts).
The slow request's work is sized at run time to outlast the threshold
by far (h.deep_budget), so the test holds on any machine.
"""

import os
import re
import signal
import socket
import struct
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402

T = h.Tap()
ONE = (None,)
SLOW_MS = 100                       # slowlog_slower_than, in ms
SIG = b"\r\n\r\n\x00\r\nQUIT\n"


def kv(line):
    """A line of key=value tokens; request= takes the rest of the line."""
    head, _, request = line.partition(" request=")
    out = dict(t.split("=", 1) for t in head.split())
    if request:
        out["request"] = request
    return out


def reload(d, old, new):
    """The config file's line old made new, then SIGHUP, then its log."""
    with open(d.conf) as f:
        text = f.read()
    check(old in text, "%r not in the config" % old)
    with open(d.conf, "w") as f:
        f.write(text.replace(old, new))
    n = open(d.log, "rb").read().count(b"configuration reloaded")
    d.proc.send_signal(signal.SIGHUP)
    check(h.wait_for(lambda: open(d.log, "rb").read().count(
        b"configuration reloaded") > n, 5), "no reload in the log")


@T.case("SLOWLOG: the slow request is there, with its time, guesses, "
        "client and line; the fast ones are not; LEN and RESET",
        transports=ONE, own=True)
def _(c):
    budget = h.deep_budget(1.0)     # a second of solving, here
    d = h.Daemon(workers=2, budget=100000000,
                 extra_conf="[server]\nslowlog_slower_than = %d\n"
                 % (SLOW_MS * 1000)).start()
    try:
        k = d.connect("unix")
        for _ in range(50):
            eq(k.req("PING"), "PONG", "a fast request")
        eq(k.req("SOLVE %s budget=%d" % (h.DEEP, budget)),
           h.deep_reply(budget), "the slow request")
        eq(k.req("SOLVE " + h.CLASSIC), h.CLASSIC_SOLUTION, "a fast one")
        got = k.block("SLOWLOG GET")
        eq(len(got), 1, "entries: %r" % got)
        e = kv(got[0])
        eq(e["request"], "SOLVE %s budget=%d" % (h.DEEP, budget),
           "its line")
        check(int(e["us"]) >= SLOW_MS * 1000, "us=%s" % e["us"])
        eq(int(e["guesses"]), budget, "its guesses: the budget it ran out")
        eq(e["client"], "unix:pid=%d:uid=%d" % (os.getpid(), os.getuid()),
           "its client")
        check(abs(int(e["time"]) - int(k.stats()["time"])) < 60, "time")
        eq(k.req("SLOWLOG LEN"), "1", "LEN")
        eq(k.req("SLOWLOG RESET"), "OK", "RESET")
        eq(k.req("SLOWLOG LEN"), "0", "LEN after RESET")
        eq(k.block("SLOWLOG GET 5"), [], "GET after RESET")
        for line in ("SLOWLOG", "SLOWLOG FOO", "SLOWLOG GET x",
                     "SLOWLOG LEN 1", "CLIENT", "CLIENT KILL"):
            check(k.req(line).startswith("ERR syntax "), line)
    finally:
        d.cleanup()


@T.case("SLOWLOG: slowlog_max_len bounds it, newest first; a reload to "
        "fewer drops the oldest; a long line is cut", transports=ONE,
        own=True)
def _(c):
    d = h.Daemon(workers=1, max_line=4096,
                 extra_conf="[server]\nslowlog_slower_than = 0\n"
                 "slowlog_max_len = 3\n").start()
    try:
        k = d.connect("unix")
        for i in range(5):
            k.req("PING")
        got = [kv(ln) for ln in k.block("SLOWLOG GET")]
        ids = [int(e["id"]) for e in got]
        eq(len(ids), 3, "kept: slowlog_max_len 3")
        check(ids == sorted(ids, reverse=True), "newest first: %r" % ids)
        reload(d, "slowlog_max_len = 3", "slowlog_max_len = 2")
        eq(k.req("SLOWLOG LEN"), "2", "after a reload to 2")
        k.req("PING " + "x" * 300)
        top = kv(k.block("SLOWLOG GET 1")[0])
        eq(top["request"], ("PING " + "x" * 300)[:128] + "...", "cut at 128")
        reload(d, "slowlog_slower_than = 0", "slowlog_slower_than = -1")
        n = k.req("SLOWLOG LEN")
        k.req("PING")
        eq(k.req("SLOWLOG LEN"), n, "off: nothing more kept")
    finally:
        d.cleanup()


@T.case("SLOWLOG: a request of control bytes, TAB, CR, ESC, DEL and "
        "UTF-8 is one line of printable ASCII, each such byte '?'",
        transports=ONE, own=True)
def _(c):
    d = h.Daemon(workers=1, extra_conf="[server]\nslowlog_slower_than = 0\n"
                 ).start()
    try:
        k = d.connect("unix")
        # The CR before LF ends the line; the one in it is a byte of it.
        k.send(b"PING \x01\t\x1b[31mred\x1b[0m \x7f caf\xc3\xa9 \rx\x00y"
               b"\r\n")
        k.line()
        got = k.block("SLOWLOG GET 1")    # Client.line: ASCII, no CR
        eq(len(got), 1, "one line: %r" % got)
        eq(kv(got[0])["request"], "PING ???[31mred?[0m ? caf?? ?x?y",
           "the request as doc/protocol.md shows it")
    finally:
        d.cleanup()


def proxy_v2(src, sport):
    body = socket.inet_aton(src) + socket.inet_aton("192.0.2.1") + \
        struct.pack("!HH", sport, 7999)
    return SIG + bytes([0x21, 0x11]) + struct.pack("!H", len(body)) + body


@T.case("CLIENT LIST: every connection of both workers, its transport, "
        "address (the PROXY client, via the balancer), requests, state",
        transports=ONE, own=True)
def _(c):
    pport = h.free_port()
    d = h.Daemon(workers=2, extra_conf="[listen]\ntcp_proxy = "
                 "127.0.0.1:%d\n" % pport).start()
    try:
        u = d.connect("unix")
        t = d.connect("tcp")
        p = h.Client(socket.create_connection(("127.0.0.1", pport), 5))
        p.send(proxy_v2("203.0.113.7", 51000))
        for k, n in ((u, 3), (t, 5), (p, 7)):
            for _ in range(n):
                eq(k.req("PING"), "PONG", "PING")
        me = d.connect("unix")
        lines = [kv(ln) for ln in me.block("CLIENT LIST")]
        by = {e["transport"]: e for e in lines}
        eq(len(lines), 4, "lines: %r" % lines)
        eq(sorted(e["transport"] for e in lines),
           ["tcp", "tcp_proxy", "unix", "unix"], "transports")
        ids = [int(e["id"]) for e in lines]
        check(ids == sorted(ids) and len(set(ids)) == 4, "ids %r" % ids)
        tport = t.sock.getsockname()[1]
        eq(by["tcp"]["addr"], "tcp:127.0.0.1:%d" % tport, "tcp address")
        eq(by["tcp"]["requests"], "5", "tcp requests")
        eq(by["tcp_proxy"]["addr"], "tcp:203.0.113.7:51000", "PROXY client")
        eq(by["tcp_proxy"]["via"], "tcp:127.0.0.1:%d"
           % p.sock.getsockname()[1], "via the balancer")
        eq(by["tcp_proxy"]["requests"], "7", "tcp_proxy requests")
        unix = [e for e in lines if e["transport"] == "unix"]
        eq(sorted(e["requests"] for e in unix), ["0", "3"], "unix requests")
        check(all(e["addr"] == "unix:pid=%d:uid=%d" % (os.getpid(),
                                                       os.getuid())
                  for e in unix), "unix addresses: %r" % unix)
        check(all(e["state"] in ("idle", "busy") and e["pending"] == "0"
                  and int(e["age"]) >= 0 and int(e["idle"]) >= 0
                  for e in lines), "states: %r" % lines)
        t.close()
        check(h.wait_for(lambda: len(me.block("CLIENT LIST")) == 3, 5),
              "a closed connection leaves the list")
    finally:
        d.cleanup()


if __name__ == "__main__":
    sys.exit(T.run())
