#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
proxy.py -- a tcp_proxy listener, as HAProxy's send-proxy and
send-proxy-v2 use it: the PROXY header (version 1 or 2) is required
first, and its client address is the one the log names; a missing,
malformed, truncated or oversized header is answered with one ERR syntax
line naming the problem and closes the connection, with one log line; a
header must be whole within 3 s, whatever idle_timeout says; the
balancer's own connections (v2 LOCAL) are served; a plain listener
refuses a header, however its bytes are split across reads.  The headers here are built from the
protocol's description, not by the daemon's code.
"""

import os
import re
import socket
import struct
import sys
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402

T = h.Tap()
ONE = (None,)
SIG = b"\r\n\r\n\x00\r\nQUIT\n"
V1 = b"PROXY TCP4 203.0.113.7 192.0.2.1 51000 7999\r\n"


def v2(cmd=1, fam=0x11, body=None):
    if body is None:
        body = (socket.inet_aton("198.51.100.9") +
                socket.inet_aton("192.0.2.1") + struct.pack("!HH", 50000,
                                                             7999))
    return SIG + bytes([0x20 | cmd, fam]) + struct.pack("!H", len(body)) + \
        body


class ProxyDaemon(h.Daemon):
    """A daemon with a tcp_proxy listener beside its unix and tcp ones."""

    def __init__(self, **kw):
        self.proxy_port = h.free_port()
        super().__init__(extra_conf="[listen]\ntcp_proxy = 127.0.0.1:%d\n"
                         "[log]\nlevel = debug\n" % self.proxy_port, **kw)

    def proxy_conn(self):
        s = socket.create_connection(("127.0.0.1", self.proxy_port), 5)
        return h.Client(s, 5)


def log_lines(d):
    with open(d.log, "rb") as f:
        return [h.unstamp(ln) for ln in
                f.read().decode("ascii", "replace").splitlines()]


def refused(k, why):
    """One ERR syntax line holding why, then the end of the stream."""
    try:
        data = k.read_to_eof(5)
    except h.Fail:
        return False
    lines = data.decode("ascii", "replace").split("\n")
    return (len(lines) == 2 and lines[1] == "" and
            lines[0].startswith("ERR syntax ") and why in lines[0])


def trickle(k, data, pause=0.005):
    """data a byte at a time, each its own segment (TCP_NODELAY)."""
    k.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    for b in data:
        k.send(bytes([b]))
        time.sleep(pause)


@T.case("tcp_proxy: PROXY v1 and v2 headers, then requests, pipelined; "
        "the balancer's LOCAL health check served", transports=ONE,
        own=True)
def _(c):
    d = ProxyDaemon(workers=2).start()
    try:
        for hdr in (V1, v2(), v2(cmd=0, fam=0, body=b"")):
            k = d.proxy_conn()
            k.send(hdr + b"PING\n" + b"SOLVE %s\n" % h.CLASSIC.encode())
            eq(k.line(), "PONG", "PING after %r" % hdr[:16])
            h.check_solution(h.CLASSIC, k.line())
            k.close()
        # A header trickled a byte at a time, then 1000 requests at once.
        k = d.proxy_conn()
        for b in V1:
            k.send(bytes([b]))
            time.sleep(0.002)
        k.send(b"PING\n" * 1000)
        eq(k.lines(1000), ["PONG"] * 1000, "1000 pipelined replies")
        st = h.stats_ints(d.stats())
        eq(st["proxy_headers"], 4, "proxy_headers")
        eq(st["proxy_errors"], 0, "proxy_errors")
    finally:
        d.cleanup()


@T.case("tcp_proxy: the log names the client the header carries, via "
        "the balancer", transports=ONE, own=True)
def _(c):
    d = ProxyDaemon(workers=1).start()
    try:
        k = d.proxy_conn()
        k.send(V1 + b"PING\n")
        eq(k.line(), "PONG", "PING")
        k.close()
        k = d.proxy_conn()
        k.send(v2() + b"PING\n")
        eq(k.line(), "PONG", "PING")
        k.close()
        ok = h.wait_for(lambda: sum(
            "connection closed" in ln and "via" in ln
            for ln in log_lines(d)) >= 2, 10)
        lines = [ln for ln in log_lines(d) if "via" in ln]
        check(ok and any(re.search(r", tcp 203\.0\.113\.7:51000 via "
                                   r"127\.0\.0\.1:\d+: connection closed$",
                                   ln) for ln in lines) and
              any(re.search(r", tcp 198\.51\.100\.9:50000 via 127\.0\.0\.1:"
                            r"\d+: connection closed$", ln) for ln in lines),
              "no close lines naming the clients:\n" + "\n".join(
                  log_lines(d)[-12:]))
    finally:
        d.cleanup()


BAD = [
    ("no header at all", b"PING\n", "this listener expects a PROXY "
     "protocol header (from a load balancer); use a tcp listener for "
     "direct clients"),
    ("a malformed v1 header", b"PROXY TCP4 1.2.3.4 5.6.7.8 65536 2\r\n"
     b"PING\n", "malformed PROXY v1 header"),
    ("a v1 header with a NUL in an address",
     b"PROXY TCP4 1.2.3.4\x00 5.6.7.8 1 2\r\nPING\n",
     "malformed PROXY v1 header"),
    ("a v1 header with a space after its ports",
     b"PROXY TCP4 1.2.3.4 5.6.7.8 1 2 \r\nPING\n",
     "malformed PROXY v1 header"),
    ("a v1 header with no CRLF in 107 bytes", b"PROXY UNKNOWN " + b"x" * 200,
     "without CRLF"),
    ("an oversized v2 header", v2(body=b"\0" * 2000), "longer than 1 KiB"),
    ("a v2 header of an unknown family", v2(fam=0x41) + b"PING\n",
     "no known family"),
    ("a v1 header of 108 bytes", b"PROXY UNKNOWN " + b"x" * 92 +
     b"\r\nPING\n", "without CRLF within 107 bytes"),
    ("a v2 header of a UDP connection", v2(fam=0x12) + b"PING\n",
     "datagram"),
    ("a truncated header, then the end", V1[:20], "ended within"),
]


@T.case("tcp_proxy: a missing, malformed, truncated or oversized header "
        "-> one ERR syntax line naming it, the end, one log line each",
        transports=ONE, own=True)
def _(c):
    d = ProxyDaemon(workers=1).start()
    try:
        for name, data, why in BAD:
            k = d.proxy_conn()
            k.send(data)
            if name.endswith("then the end"):
                k.shut_wr()
            check(refused(k, why), "%s: not one ERR line with %r, then "
                  "the end" % (name, why))
            k.close()
            ok = h.wait_for(lambda: any(why in ln and "closing" in ln
                                        for ln in log_lines(d)), 10)
            check(ok, "%s: no log line with %r" % (name, why))
        st = h.stats_ints(d.stats())
        eq(st["proxy_errors"], len(BAD), "proxy_errors")
        eq(st["proxy_headers"], 0, "proxy_headers")
        k = d.proxy_conn()
        k.send(V1 + b"PING\n")
        eq(k.line(), "PONG", "still serving")
    finally:
        d.cleanup()


@T.case("a PROXY header on a plain listener -> ERR syntax, then the end")
def _(c):
    for hdr in (V1, v2()):
        k = c.connect()
        k.send(hdr + b"PING\n")
        eq(k.line(), "ERR syntax a PROXY protocol header, but this listener "
           "is not tcp_proxy", "reply to %r" % hdr[:16])
        k.expect_eof(3, "close after the reply")


@T.case("a PROXY header on a plain listener, split at every byte -> the "
        "same one ERR syntax line, then the end", transports=("tcp",))
def _(c):
    want = ("ERR syntax a PROXY protocol header, but this listener is not "
            "tcp_proxy")
    for hdr in (V1, v2()):
        k = c.connect()
        trickle(k, hdr + b"PING\n")
        eq(k.line(), want, "reply to %r a byte at a time" % hdr[:16])
        k.expect_eof(3, "close after the reply")
    # What only begins like one is served once it is told apart.
    k = c.connect()
    trickle(k, b"\r\nPING\nP")
    trickle(k, b"ING\n")
    eq(k.lines(2), ["PONG", "PONG"], "an empty line, then PINGs")


@T.case("tcp_proxy: a v1 header of exactly 107 bytes is taken",
        transports=ONE, own=True)
def _(c):
    d = ProxyDaemon(workers=1).start()
    try:
        hdr = b"PROXY UNKNOWN " + b"x" * 91 + b"\r\n"
        eq(len(hdr), 107, "header length")
        k = d.proxy_conn()
        k.send(hdr + b"PING\n")
        eq(k.line(), "PONG", "PING after a 107-byte header")
    finally:
        d.cleanup()


@T.case("tcp_proxy with idle_timeout 0: a half-sent header is closed "
        "within 1.5-6 s (3 s of its own), counted", transports=ONE, own=True)
def _(c):
    d = ProxyDaemon(workers=1, idle_timeout=0).start()
    try:
        k = d.proxy_conn()
        t0 = time.monotonic()
        k.send(V1[:20])
        k.expect_eof(10, "close of a half-sent header")
        took = time.monotonic() - t0
        check(1.5 <= took <= 6, "closed after %.1f s" % took)
        st = h.stats_ints(d.stats())
        eq(st["proxy_errors"], 1, "proxy_errors")
        k = d.proxy_conn()
        k.send(V1 + b"PING\n")
        eq(k.line(), "PONG", "still serving")
    finally:
        d.cleanup()


if __name__ == "__main__":
    sys.exit(T.run())
