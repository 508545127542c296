#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
metrics_http.py -- the metrics listener as an HTTP server facing hostile
or careless clients: HEAD answered without a body on a connection kept
open, pipelined requests answered in order, malformed requests refused
with the right status and a plain-text body, a request that does not
arrive whole within metrics_timeout answered 408, at most
metrics_max_connections open so a flood leaves the client sockets usable
(one more closes the quietest, or gets 503 if every one is sending), and no accept busy loop when the daemon is out
of file descriptors.  HTTP is read with Python's http.client, a real
client that loses its place if a response is not what it says.
"""

import http.client
import os
import signal
import socket
import sys
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402

T = h.Tap()
ONE = (None,)


class MetricsDaemon(h.Daemon):
    def __init__(self, metrics_conf="", **kw):
        self.metrics_port = h.free_port()
        super().__init__(extra_conf="[listen]\nmetrics = 127.0.0.1:%d\n%s"
                         % (self.metrics_port, metrics_conf), **kw)

    def http(self, timeout=5):
        return http.client.HTTPConnection("127.0.0.1", self.metrics_port,
                                          timeout=timeout)

    def scrapes(self):
        """Does GET /metrics on a new connection answer 200?"""
        conn = self.http(1)
        try:
            conn.request("GET", "/metrics")
            return conn.getresponse().status == 200
        except OSError:
            return False
        finally:
            conn.close()

    def raw(self, timeout=5):
        s = socket.create_connection(("127.0.0.1", self.metrics_port),
                                     timeout)
        return h.Client(s, timeout)


def read_some(k, timeout):
    """What arrives within timeout: bytes, b"" if nothing, None at EOF."""
    k.sock.settimeout(timeout)
    try:
        data = k.sock.recv(65536)
    except socket.timeout:
        return b""
    except ConnectionResetError:
        return None
    return data or None


def read_response(k, timeout=5):
    """One whole response from a raw connection: (status, headers, body)."""
    deadline, data = time.monotonic() + timeout, b""
    while time.monotonic() < deadline:
        got, _ = responses(data)
        if got and len(got[0][2]) == int(got[0][1]["content-length"]):
            return got[0]
        more = read_some(k, max(0.01, deadline - time.monotonic()))
        if more is None:
            break
        data += more
    raise h.Fail("no whole response (have %r)" % data[:200])


def reload(d):
    """SIGHUP, and wait until every thread serves with the new file."""
    n = open(d.log, "rb").read().count(b"configuration reloaded")
    d.proc.send_signal(signal.SIGHUP)
    check(h.wait_for(lambda: open(d.log, "rb").read().count(
        b"configuration reloaded") > n, 5), "no reload in the log")


def responses(data, heads=()):
    """Raw HTTP/1.1 responses with Content-Length: [(status, headers,
    body)], and what is left over; those numbered in heads answer HEAD
    (no body)."""
    out = []
    while data:
        head, sep, rest = data.partition(b"\r\n\r\n")
        if not sep:
            break
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        hdrs = {}
        for ln in lines[1:]:
            k, _, v = ln.partition(":")
            hdrs[k.strip().lower()] = v.strip()
        n = 0 if len(out) in heads else int(hdrs["content-length"])
        out.append((status, hdrs, rest[:n]))
        data = rest[n:]
    return out, data


@T.case("metrics: HEAD has the headers of GET and no body, and the "
        "connection goes on serving", transports=ONE, own=True)
def _(c):
    d = MetricsDaemon(workers=1).start()
    try:
        conn = d.http()
        conn.request("GET", "/metrics")
        r = conn.getresponse()
        body = r.read()
        eq(r.status, 200, "GET")
        eq(int(r.getheader("Content-Length")), len(body), "GET length")
        for _ in range(3):
            conn.request("HEAD", "/metrics")
            r = conn.getresponse()
            eq((r.status, r.read()), (200, b""), "HEAD: no body")
            check(int(r.getheader("Content-Length")) > 1000,
                  "HEAD Content-Length %r" % r.getheader("Content-Length"))
            check(r.getheader("Content-Type").startswith(
                "text/plain; version=0.0.4"), "HEAD Content-Type")
        # The same connection: a stray body would be read as this status.
        conn.request("GET", "/metrics")
        r = conn.getresponse()
        eq(r.status, 200, "GET after HEADs on one connection")
        check(b"sudokud_requests_total" in r.read(), "GET body")
        conn.close()
        # And with nothing else on the wire: exactly the head.
        k = d.raw()
        k.send(b"HEAD /metrics HTTP/1.1\r\nHost: x\r\nConnection: close"
               b"\r\n\r\n")
        data = k.read_to_eof(5)
        check(data.endswith(b"\r\n\r\n") and data.count(b"\r\n\r\n") == 1,
              "HEAD sent more than a head: %r" % data[-80:])
    finally:
        d.cleanup()


@T.case("metrics: pipelined requests answered in order; 404 and 405 are "
        "plain text; Connection: close honoured", transports=ONE,
        own=True)
def _(c):
    d = MetricsDaemon(workers=1).start()
    try:
        k = d.raw()
        k.send(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
               b"GET /nope HTTP/1.1\r\nHost: x\r\n\r\n"
               b"POST /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
               b"HEAD /nope HTTP/1.1\r\nHost: x\r\n\r\n"
               b"GET /metrics?name=x HTTP/1.1\r\nHost: x\r\n"
               b"Connection: close\r\n\r\n"
               b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        got, rest = responses(k.read_to_eof(5), heads=(3,))
        eq([r[0] for r in got], [200, 404, 405, 404, 200],
           "statuses, in order, none after Connection: close")
        eq(rest, b"", "bytes after the last response")
        eq(got[2][1].get("allow"), "GET, HEAD", "Allow of the 405")
        for status, hdrs, body in got[1:3]:
            check(hdrs["content-type"].startswith("text/plain") and
                  body.decode().startswith("%d " % status) and
                  body.endswith(b"\n"), "%d body %r" % (status, body))
        eq(got[3][2], b"", "HEAD of a 404: no body")
        eq(got[4][1].get("connection"), "close", "Connection: close")
        # HTTP/1.0 closes after one response unless asked to keep alive.
        k = d.raw()
        k.send(b"GET /metrics HTTP/1.0\r\n\r\n")
        got, _ = responses(k.read_to_eof(5))
        eq([r[0] for r in got], [200], "HTTP/1.0")
    finally:
        d.cleanup()


@T.case("metrics: HTTP/1.0 with Connection: keep-alive is told keep-alive "
        "and served again on the connection; without it, close",
        transports=ONE, own=True)
def _(c):
    d = MetricsDaemon(workers=1).start()
    try:
        k = d.raw()
        for req in (b"GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n"
                    b"\r\n", b"GET /livez HTTP/1.0\r\nConnection: "
                    b"Keep-Alive\r\n\r\n"):
            k.send(req)
            status, hdrs, _ = read_response(k)
            eq((status, hdrs.get("connection")), (200, "keep-alive"),
               "%r" % req.split(b"\r\n")[0])
        # The same connection, still open: one more, that closes it.
        k.send(b"GET /healthz HTTP/1.0\r\n\r\n")
        got, rest = responses(k.read_to_eof(5))
        eq([(r[0], r[1].get("connection")) for r in got], [(200, "close")],
           "HTTP/1.0 without keep-alive: Connection: close, then the end")
        eq(rest, b"", "bytes after it")
        # HTTP/1.1 is kept alive unasked, and says so the same way.
        k = d.raw()
        k.send(b"GET /livez HTTP/1.1\r\nHost: x\r\n\r\n")
        eq(read_response(k)[1].get("connection"), "keep-alive", "HTTP/1.1")
    finally:
        d.cleanup()


BAD = [
    ("garbage", b"\x00\x01\x02 hello\r\n\r\n", 400),
    ("no version", b"GET /metrics\r\n\r\n", 400),
    ("HTTP/2.0", b"GET /metrics HTTP/2.0\r\nHost: x\r\n\r\n", 505),
    ("HTTP/1.1 without Host", b"GET /metrics HTTP/1.1\r\n\r\n", 400),
    ("two Hosts", b"GET /metrics HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
     400),
    ("a body", b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5"
     b"\r\n\r\nhello", 413),
    ("chunked", b"GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: "
     b"chunked\r\n\r\n0\r\n\r\n", 413),
    ("line folding", b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n"
     b" 2\r\n\r\n", 400),
    ("a blank before the colon", b"GET /metrics HTTP/1.1\r\nHost : x"
     b"\r\n\r\n", 400),
    ("a 9 KiB head", b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Pad: " +
     b"a" * 9216 + b"\r\n\r\n", 431),
]


@T.case("metrics: malformed requests -> 400, 413, 431 or 505 with a "
        "plain-text body, then the end", transports=ONE, own=True)
def _(c):
    d = MetricsDaemon(workers=1).start()
    try:
        for name, req, want in BAD:
            k = d.raw()
            k.send(req)
            got, _ = responses(k.read_to_eof(5))
            eq([r[0] for r in got], [want], name)
            check(got[0][1].get("connection") == "close" and
                  got[0][2].decode().startswith("%d " % want),
                  "%s: %r" % (name, got[0]))
        conn = d.http()
        conn.request("GET", "/metrics")
        eq(conn.getresponse().status, 200, "still serving")
    finally:
        d.cleanup()


@T.case("metrics: a request trickled a byte at a time past metrics_timeout "
        "-> 408 and the end within 1-4.5 s; an idle connection closed",
        transports=ONE, own=True)
def _(c):
    d = MetricsDaemon(workers=1, metrics_conf="metrics_timeout = 2\n")
    d.start()
    try:
        k = d.raw()
        t0 = time.monotonic()
        req = b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
        data, i = b"", 0
        while i < len(req) and time.monotonic() - t0 < 8:
            try:
                k.send(req[i:i + 1])
            except OSError:
                break
            i += 1
            got = read_some(k, 0.5)
            if got is None:
                break
            data += got
            if data:
                break
        data += k.read_to_eof(5)
        took = time.monotonic() - t0
        got, _ = responses(data)
        eq([r[0] for r in got], [408], "a request still coming")
        check(1 <= took <= 4.5, "408 after %.1f s (metrics_timeout 2)"
              % took)
        check(i < len(req), "the whole request went out a byte every "
              "0.5 s (%d bytes) before the timeout" % i)
        k = d.raw()
        t0 = time.monotonic()
        k.expect_eof(8, "close of an idle metrics connection")
        took = time.monotonic() - t0
        check(1 <= took <= 4.5, "idle close after %.1f s" % took)
    finally:
        d.cleanup()


SCRAPE = b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
LIVEZ = b"GET /livez HTTP/1.1\r\nHost: x\r\n\r\n"


def queued(k):
    """Bytes the kernel holds for k unread (FIONREAD)."""
    import fcntl
    import struct
    import termios
    return struct.unpack("i", fcntl.ioctl(k.sock, termios.FIONREAD,
                                          b"\0\0\0\0"))[0]


def stuck_writing(d, n):
    """n connections that ask for /metrics 2000 times and never read,
    once the server's responses to each have stopped going out."""
    held = []
    for _ in range(n):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.settimeout(5)
        s.connect(("127.0.0.1", d.metrics_port))
        k = h.Client(s, 5)
        t, res = h.sender(s, SCRAPE * 2000, stop_on_block=2)
        held.append(k)
    for k in held:
        last = [-1]

        def still(k=k, last=last):
            now, last[0] = queued(k), queued(k)
            time.sleep(0.3)
            return now > 0 and queued(k) == now
        check(h.wait_for(still, 10, 0), "responses kept going to a "
              "connection that does not read")
    return held


@T.case("metrics: metrics_max_connections open, each sending a response "
        "its client does not read: one more gets 503 (metrics_refused); a "
        "reload raises the limit; the client sockets unaffected",
        transports=ONE, own=True)
def _(c):
    d = MetricsDaemon(workers=1, metrics_conf="metrics_max_connections = 4"
                      "\nmetrics_timeout = 60\n").start()
    try:
        held = stuck_writing(d, 4)
        k = d.raw()
        got, _ = responses(k.read_to_eof(5))
        eq([r[0] for r in got], [503], "the fifth connection")
        check(b"metrics_max_connections" in got[0][2] and
              got[0][1].get("retry-after") == "1", "503: %r" % (got,))
        u = d.connect("unix")
        eq(u.req("PING"), "PONG", "the Unix socket")
        st = h.stats_ints(u.stats())
        eq((st["metrics_refused"], st["metrics_evicted"]), (1, 0),
           "(metrics_refused, metrics_evicted)")
        held.pop().close()
        check(h.wait_for(d.scrapes, 5), "a slot freed is not reused")
        # Reload with a higher limit: the fifth is served.
        with open(d.conf) as f:
            text = f.read()
        with open(d.conf, "w") as f:
            f.write(text.replace("metrics_max_connections = 4",
                                 "metrics_max_connections = 8"))
        reload(d)
        more = [d.raw() for _ in range(2)]
        for k in more:
            k.send(SCRAPE)
            eq(read_response(k)[0], 200, "after the reload")
        for k in held + more:
            k.close()
    finally:
        d.cleanup()


@T.case("metrics: at metrics_max_connections a new connection closes the "
        "one quiet longest (idle after a response, or silent since its "
        "start), never one more recently heard from; counted in "
        "metrics_evicted", transports=ONE, own=True)
def _(c):
    d = MetricsDaemon(workers=1, metrics_conf="metrics_max_connections = 4"
                      "\nmetrics_timeout = 60\n").start()
    try:
        # s first: accepted before the others (the queue is in order),
        # whichever turn of the loop accepts them.
        s = d.raw()
        a, b, e = d.raw(), d.raw(), d.raw()
        for k in (a, b, e):
            k.send(LIVEZ)
            eq(read_response(k)[0], 200, "a first request")
        # Quiet longest first: s (silent since its start), a, b, e.
        s.send(b"")
        a.send(LIVEZ)
        eq(read_response(a)[0], 200, "a, again: heard from last now")
        # Now: s, b, e, a.  Each new one closes the first of them.
        news = []
        for gone in (s, b):
            n = d.raw()
            n.send(LIVEZ)
            eq(read_response(n)[0], 200, "the new connection is served")
            check(read_some(gone, 5) is None, "the quietest was not closed")
            news.append(n)
        for k in [e, a] + news:
            k.send(LIVEZ)
            eq(read_response(k)[0], 200, "a connection heard from more "
               "recently is kept")
        st = h.stats_ints(d.connect("unix").stats())
        eq((st["metrics_evicted"], st["metrics_refused"]), (2, 0),
           "(metrics_evicted, metrics_refused)")
    finally:
        d.cleanup()


@T.case("metrics: 400 connections at RLIMIT_NOFILE 256 -> the Unix socket "
        "still serves, the daemon's descriptors stay bounded",
        transports=ONE, own=True)
def _(c):
    d = MetricsDaemon(workers=2, rlimit_nofile=256).start()
    socks = []
    try:
        fds0 = d.fds()
        for _ in range(400):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setblocking(False)
            s.connect_ex(("127.0.0.1", d.metrics_port))
            socks.append(s)
        time.sleep(0.5)
        peak = d.fds()
        c.note("fds %d before, %d with 400 metrics connections" % (fds0,
                                                                  peak))
        check(peak <= fds0 + 16 + 4, "the daemon holds %d fds (was %d)"
              % (peak, fds0))
        for _ in range(5):
            eq(d.connect("unix").req("PING"), "PONG", "the Unix socket")
    finally:
        for s in socks:
            s.close()
        d.cleanup()


@T.case("metrics: out of file descriptors, a metrics connection -> no "
        "accept busy loop, no log flood; served again after",
        transports=ONE, own=True)
def _(c):
    d = MetricsDaemon(workers=2, rlimit_nofile=64, idle_timeout=60).start()
    socks = []
    try:
        for _ in range(80):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.setblocking(False)
            s.connect_ex(d.path)
            socks.append(s)
        time.sleep(0.5)
        check(d.fds() >= 60, "never reached the fd limit (%d)" % d.fds())
        size0 = os.path.getsize(d.log)
        m = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        m.setblocking(False)
        m.connect_ex(("127.0.0.1", d.metrics_port))
        cpu0 = d.cpu()
        time.sleep(1.5)
        cpu = d.cpu() - cpu0
        grew = os.path.getsize(d.log) - size0
        c.note("at EMFILE with a metrics connection waiting: CPU %.2f s "
               "in 1.5 s, log grew %d bytes" % (cpu, grew))
        check(grew < 2000, "the log grew by %d bytes in 1.5 s" % grew)
        check(d.alive(), "daemon died at EMFILE")
        m.close()
    finally:
        for s in socks:
            s.close()
    try:
        check(h.wait_for(d.scrapes, 8, 0.2), "no scrape after EMFILE")
    finally:
        d.cleanup()


def get(d, path):
    conn = d.http(5)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        return r.status, r.read().decode()
    finally:
        conn.close()


@T.case("/healthz: 200 ok while serving; after SIGTERM 503 draining until "
        "the last client is answered, the metrics still served; /livez "
        "200 throughout", transports=ONE, own=True)
def _(c):
    d = MetricsDaemon(workers=1, shutdown_timeout=30, write_timeout=30,
                      output_high=4096, output_low=0).start()
    try:
        eq(get(d, "/healthz"), (200, "ok\n"), "/healthz while serving")
        eq(get(d, "/livez"), (200, "ok\n"), "/livez")
        # A client that reads nothing: its replies (more than the socket
        # buffers hold) keep the drain open until it reads them.
        k = d.connect("unix")
        n = 30000
        # From a thread: past output_high the daemon stops reading.
        th, _ = h.sender(k.sock, ("SOLVE %s\n" % h.CLASSIC).encode() * n)
        check(h.wait_for(lambda: h.stats_ints(d.stats())["cmd_solve"] > 0,
                         10), "the client's requests were not read")
        d.proc.send_signal(signal.SIGTERM)
        d.stopped = True
        check(h.wait_for(lambda: get(d, "/healthz") == (503, "draining\n"),
                         5), "/healthz after SIGTERM: %r" % (get(d,
                                                                "/healthz"),))
        eq(get(d, "/livez"), (200, "ok\n"), "/livez while draining")
        eq(get(d, "/metrics")[0], 200, "/metrics while draining")
        check(not h.can_connect(d.path), "the Unix socket still accepts")
        check(d.alive(), "the daemon did not wait for its client")
        # What it had read when the signal came is answered, then the end.
        got = k.read_to_eof(60).decode().split("\n")
        check(got.pop() == "" and len(got) > 0 and
              set(got) == {h.CLASSIC_SOLUTION}, "the replies after the "
              "signal: %d" % len(got))
        k.close()
        eq(d.wait_exit(15), 0, "exit status once drained")
    finally:
        d.cleanup()


if __name__ == "__main__":
    sys.exit(T.run())
