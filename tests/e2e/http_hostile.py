#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
http_hostile.py -- the HTTP listener (doc/http.md) against what a
hostile or careless client sends, each case a hole found in a hostile
round and closed (TAP): a batch of tiny puzzles that jansson made thirty
times the body's size in memory, held while the answers waited to be
read; X-Forwarded-For in several lines read from its last alone; a 100
Continue to HTTP/1.0; a request cut short by the end of input dropped
without a word; a POST's query string dropped in silence; CLIENT LIST's
auth= a request late; symbolic links in page_dir passed over in silence.
And what held, kept: pipelines of every kind of request, cut at random,
answered in order as each alone.  What is asserted is counts, statuses,
order and bounds on memory, never the machine's speed.
"""

import json
import os
import random
import shutil
import socket
import sys
import tempfile

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, check_mem, eq                # noqa: E402
import http_common as hc                                # noqa: E402
from http_common import EASY                            # noqa: E402

T = h.Tap()
ONE = (None,)
PING = b"GET /v2/ping HTTP/1.1\r\nHost: x\r\n\r\n"


def post(verb, body, extra=b""):
    """A POST of the bytes body to /v2/verb, as raw bytes."""
    return (b"POST /v2/%s HTTP/1.1\r\nHost: x\r\nContent-Type: "
            b"application/json\r\nContent-Length: %d\r\n%s\r\n"
            % (verb.encode(), len(body), extra)) + body


def tiny_batch(n):
    """A batch of n one-character puzzles: the most values a body holds."""
    return b'{"puzzles":[' + b",".join([b'"1"'] * n) + b"]}"


@T.case("a batch holds at most max_body / 84 puzzles, and a body as many "
        "values: one more is 413 toolong (refused before jansson reads "
        "it), the connection goes on; as many are answered, each in turn",
        transports=ONE, own=True)
def _(c):
    d = hc.HttpDaemon(workers=1, http_conf="max_body = 4k\n").start()
    try:
        most = 4096 // 84
        k = d.raw()
        k.send(post("solve", tiny_batch(most + 1)) + PING)
        got = hc.read_responses(k, 2)
        err = json.loads(got[0][2])["error"]
        eq((got[0][0], err["code"]), (413, "toolong"), "one puzzle more")
        eq(err["message"], "a batch holds at most %d puzzles (max_body / "
           "84), and a body as many values" % most, "its message")
        eq(got[0][1]["connection"], "keep-alive", "read whole: kept")
        eq((got[1][0], json.loads(got[1][2])), (200, {"pong": True}),
           "the request after it")
        # Values that are no puzzles count too, before jansson sees them.
        body = b'{"puzzle":"%s","budget":[%s]}' % (
            EASY.encode(), b",".join([b"1"] * (most + 16)))
        k.send(post("solve", body))
        got = hc.read_responses(k, 1)
        eq((got[0][0], json.loads(got[0][2])["error"]["code"]),
           (413, "toolong"), "an array of numbers")
        k.send(post("solve", tiny_batch(most)))
        got = hc.read_responses(k, 1)
        results = json.loads(got[0][2])["results"]
        eq((got[0][0], len(results)), (200, most), "as many as it may")
        eq({r["error"]["code"] for r in results}, {"length"}, "each its "
           "answer")
        k.close()
    finally:
        d.cleanup()


@T.case("8 clients POST a body of max_body (1m) and read nothing: 4 of "
        "tiny puzzles only, refused (413), 4 of as many as a batch may "
        "hold, answered: the daemon holds less than twice max_body for "
        "each (it held 23 MiB for each of the first 4: jansson's values, "
        "while the answers waited)", transports=ONE, own=True, timeout=120)
def _(c):
    d = hc.HttpDaemon(workers=1, write_timeout=60,
                      http_conf="max_body = 1m\n").start()
    socks = []
    try:
        most = 1048576 // 84
        before = d.rss_kb()
        for n in [(1048576 - 14) // 4] * 4 + [most] * 4:
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.settimeout(30)
            s.connect(("127.0.0.1", d.http_port))
            s.sendall(post("solve", tiny_batch(n)))
            socks.append(s)
        for s in socks[:4]:
            eq(s.recv(12), b"HTTP/1.1 413", "a body of tiny puzzles only")
        k = d.connect("unix")

        def held():
            return sum("transport=http" in ln and ("state=blocked" in ln or
                                                   "requests=%d " % most
                                                   in ln)
                       for ln in k.block("CLIENT LIST")) == 4
        check(h.wait_for(held, 60), "4 batches answered or blocked")
        grew = d.rss_kb() - before
        c.note("8 bodies of 1 MiB, 4 answered and unread: %d KiB more"
               % grew)
        check_mem(grew < 8 * 2048, "%d KiB more for 8 bodies of 1 MiB"
                  % grew)
        k.close()
    finally:
        for s in socks:
            s.close()
        d.cleanup()


def client_of(d, xff_lines):
    """The addr CLIENT LIST shows for a connection whose request had these
    X-Forwarded-For lines."""
    k = d.raw()
    port = ":%d" % k.sock.getsockname()[1]
    k.send(b"GET /v2/client HTTP/1.1\r\nHost: x\r\n" + b"".join(
        b"X-Forwarded-For: %s\r\n" % x.encode() for x in xff_lines) +
        b"\r\n")
    got = hc.read_responses(k, 1)
    k.close()
    # This connection's: the one whose peer (via=, or addr=) is k.
    me = [x for x in json.loads(got[0][2])["clients"]
          if x.get("via", x["addr"]).endswith(port)]
    eq(len(me), 1, "this connection")
    return me[0]["addr"]


@T.case("X-Forwarded-For in several lines, as a chain of proxies that each "
        "add their own (HAProxy's option forwardfor) sends it, is one list: "
        "the client is the last untrusted address of them all (it was the "
        "last line's, a trusted proxy); one the client sent itself is "
        "still passed over", transports=ONE, own=True)
def _(c):
    d = hc.HttpDaemon(workers=1, http_conf="trusted_proxies = 127.0.0.1, "
                      "10.0.0.0/8\n").start()
    try:
        for lines in (["203.0.113.9", "10.0.0.5"],
                      ["203.0.113.9, 10.0.0.5"],
                      ["198.51.100.1, 203.0.113.9", "10.0.0.7", "10.0.0.5"],
                      ["198.51.100.1", "203.0.113.9"]):
            eq(client_of(d, lines), "tcp:203.0.113.9:0", repr(lines))
        # Every address trusted: the leftmost, as in one line.
        eq(client_of(d, ["10.0.0.9", "10.0.0.5"]), "tcp:10.0.0.9:0",
           "all trusted")
        # A line that is no address stops the walk where it is.
        eq(client_of(d, ["203.0.113.9", "nonsense", "10.0.0.5"]),
           "tcp:10.0.0.5:0", "a word that is no address")
    finally:
        d.cleanup()


@T.case("HTTP/1.0 with Expect: 100-continue gets no 100 Continue (RFC "
        "9110, 10.1.1: a 1.0 client would take it for the response to its "
        "request): one response for each request, in order", transports=ONE,
        own=True)
def _(c):
    d = hc.HttpDaemon(workers=1).start()
    try:
        body = b'{"puzzle": "%s"}' % EASY.encode()
        k = d.raw()
        # One write: the server reads the POST's head with the PING, and
        # answers what it would before the body comes.
        k.send(b"GET /v2/ping HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"
               b"POST /v2/solve HTTP/1.0\r\nContent-Type: application/json"
               b"\r\nExpect: 100-continue\r\nContent-Length: %d\r\n\r\n"
               % len(body))
        got = hc.read_responses(k, 1)
        k.send(body)
        got += hc.raw_responses(k.read_to_eof())[0]
        eq([g[0] for g in got], [200, 200], "the statuses")
        eq(json.loads(got[1][2])["solution"], hc.EASY_SOLUTION, "the answer")
        # HTTP/1.1's is still answered.
        k = d.raw()
        k.send(b"POST /v2/solve HTTP/1.1\r\nHost: x\r\nContent-Type: "
               b"application/json\r\nExpect: 100-continue\r\n"
               b"Content-Length: %d\r\n\r\n" % len(body))
        eq(k.sock.recv(100), b"HTTP/1.1 100 Continue\r\n\r\n", "1.1")
        k.close()
    finally:
        d.cleanup()


@T.case("a request cut short by the end of the client's input (a body "
        "shorter than its Content-Length, a head without its end) is "
        "answered 400, not dropped without a word; a CRLF alone is no "
        "request; a whole one before the end is served", transports=ONE,
        own=True)
def _(c):
    d = hc.HttpDaemon(workers=1).start()
    try:
        for what, data in (
                ("a short body", post("solve", b"{}")[:-2] + b"{"),
                ("a lying Content-Length", post("solve", b"{}").replace(
                    b"Length: 2", b"Length: 9")),
                ("a head without its end", b"GET /v2/ping HTTP/1.1\r\nHo"),
                ("a request line cut", b"GET /v2/pi"),
                ("a whole one, then a cut one", PING + b"GET /v2/pi")):
            k = d.raw()
            k.send(data)
            k.shut_wr()
            got = hc.raw_responses(k.read_to_eof())[0]
            eq([g[0] for g in got][-1:], [400], what)
            err = json.loads(got[-1][2])["error"]
            eq((err["code"], err["message"]), ("syntax", "the input ended "
               "in the middle of a request"), what)
            eq(got[-1][1]["connection"], "close", what)
            eq(len(got), 2 if data.startswith(PING) else 1, what)
        k = d.raw()
        k.send(PING + b"\r\n")
        k.shut_wr()
        got = hc.raw_responses(k.read_to_eof())[0]
        eq([g[0] for g in got], [200], "a CRLF after a request")
    finally:
        d.cleanup()


@T.case("auth_file: CLIENT LIST's auth= is how the request that asks came "
        "(it said the request before's: 'no' for a first request with the "
        "right token); a wrong token on a file of the page is no attempt "
        "(the page is open), counted nowhere", transports=ONE, own=True)
def _(c):
    d = hc.HttpDaemon(workers=1).secret("correct-horse").start()
    try:
        good = {"Authorization": "Bearer correct-horse"}
        for n in range(2):
            api = d.api()
            api.conn.connect()
            port = "tcp:127.0.0.1:%d" % api.conn.sock.getsockname()[1]
            for i in range(n):
                api.get("/v2/hello")
            me = [x for x in api.get("/v2/client", headers=good).obj[
                "clients"] if x["addr"] == port]
            eq([x["auth"] for x in me], ["yes"], "after %d requests "
               "without a token" % n)
            api.close()
        api = d.api()
        eq(api.get("/", headers={"Authorization": "Bearer wrong"}).status,
           200, "the page")
        eq(api.get("/v2/stats", headers=good).obj["auth_failures"], 0,
           "no failure counted")
    finally:
        d.cleanup()


@T.case("page_dir: a symbolic link among the names that would be served, "
        "to a file or to a directory, fails the load naming it (a linked "
        "directory was passed over in silence, its files 404; a linked "
        "file said 'Too many levels of symbolic links'); a file named "
        "otherwise is no matter", transports=ONE, daemonless=True)
def _(c):
    tmp = tempfile.mkdtemp(prefix="sudokud-www.")
    outside = os.path.join(tmp, "outside")
    os.mkdir(outside)
    with open(os.path.join(outside, "secret.txt"), "w") as f:
        f.write("not for the web\n")
    for name, target, words in (
            ("img", outside, "img: a symbolic link (not followed)"),
            ("notes.txt", os.path.join(outside, "secret.txt"),
             "notes.txt: a symbolic link (not followed)"),
            ("backup.bak", outside, None)):
        www = os.path.join(tmp, "www-" + name)
        shutil.copytree(hc.WWW, www)
        os.symlink(target, os.path.join(www, name))
        with tempfile.NamedTemporaryFile("w", suffix=".conf") as f:
            f.write("[listen]\nhttp = 127.0.0.1:18080\n[http]\npage_dir = "
                    "%s\n" % www)
            f.flush()
            rc, _, err = h.run_daemon_cmd("-n", "-f", f.name)
        if words is None:
            eq((rc, err), (0, "configuration OK\n"), name)
        else:
            eq(rc, 1, name)
            check("[http] page_dir %s: %s" % (www, words) in err, "%s: %r"
                  % (name, err))
    shutil.rmtree(tmp)


@T.case("POST with a query string is 400: its fields were dropped in "
        "silence (a budget, a limit the client thought it gave); a POST's "
        "fields are its body's", transports=ONE, own=True)
def _(c):
    d = hc.HttpDaemon(workers=1).start()
    try:
        api = d.api()
        r = api.req("POST", "/v2/count?limit=1", {"puzzle": hc.EMPTY})
        eq((r.status, r.obj["error"]), (400, {
            "code": "syntax", "message": "a POST takes its fields in its "
            "JSON body, not in a query string"}), "POST with a query")
        eq(r.headers.get("connection"), "keep-alive", "read whole: kept")
        r = api.req("POST", "/v2/count?", {"puzzle": EASY})
        eq((r.status, r.obj), (200, {"count": 1}), "an empty query")
        r = api.req("POST", "/v2/count", {"puzzle": hc.EMPTY, "limit": 1})
        eq((r.status, r.obj), (200, {"count": 1}), "the fields in the body")
    finally:
        d.cleanup()


class Responses:
    """The responses of a raw connection, read one by one as a client
    that knows its requests reads them: 100 Continue passed over, a
    HEAD's without a body, a chunked one whole."""

    def __init__(self, sock):
        self.sock, self.buf = sock, b""

    def _more(self):
        b = self.sock.recv(65536)
        check(b != b"", "the end, with responses missing")
        self.buf += b

    def _until(self, sep):
        while sep not in self.buf:
            self._more()
        got, _, self.buf = self.buf.partition(sep)
        return got

    def _take(self, n):
        while len(self.buf) < n:
            self._more()
        got, self.buf = self.buf[:n], self.buf[n:]
        return got

    def next(self, head):
        """(status, body) of the next response but 100 Continue."""
        while True:
            lines = self._until(b"\r\n\r\n").decode("latin-1").split("\r\n")
            status = int(lines[0].split()[1])
            hdrs = dict(ln.lower().split(": ", 1) for ln in lines[1:])
            if status != 100:
                break
        if head:
            return status, b""
        if hdrs.get("transfer-encoding") != "chunked":
            return status, self._take(int(hdrs["content-length"]))
        body = b""
        while True:
            n = int(self._until(b"\r\n"), 16)
            body += self._take(n + 2)[:n]
            if n == 0:
                return status, body


def mixed_requests():
    """Requests that keep the connection, of every kind of answer."""
    solve = json.dumps({"puzzle": EASY}).encode()
    return [
        PING, b"HEAD /v2/ping HTTP/1.1\r\nHost: x\r\n\r\n",
        b"HEAD / HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /style.css HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /v2/nope HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc",
        b"DELETE /v2/solve HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\n"
        b"GET ", post("solve", solve), post("solve", b'{"puzzle": 1}'),
        post("solve", solve).replace(b"application/json", b"text/plain"),
        post("count", json.dumps({"puzzles": [EASY, "1", EASY]}).encode()),
        post("count", json.dumps({"puzzles": [EASY, "1"]}).encode(),
             b"Accept: application/x-ndjson\r\n"),
        post("solve", solve, b"Expect: 100-continue\r\n"),
        b"GET /v2/solve?puzzle=%s HTTP/1.1\r\nHost: x\r\n\r\n" % EASY.encode(),
        b"GET /v2/slowlog?action=reset HTTP/1.1\r\nHost: x\r\n\r\n",
        b"\r\nGET /v2/version HTTP/1.1\r\nHost: x\r\n\r\n",
        post("solve?x=1", b"{}"),
        b"HEAD /v2/solve?puzzle=1 HTTP/1.1\r\nHost: x\r\n\r\n"]


@T.case("pipelines of 2 to 40 requests of every kind that keeps the "
        "connection (200, HEAD, files, 400, 404, 405, 415, 422, batches "
        "as JSON and JSON Lines, Expect), sent cut at random places down "
        "to a byte a write: each response is the one the request gets "
        "alone, in order, and nothing more (40 pipelines, seeded)",
        transports=ONE, own=True)
def _(c):
    d = hc.HttpDaemon(workers=1).start()
    reqs = mixed_requests()
    rnd = random.Random(33)

    def run(seq, cut):
        k = d.raw()
        data = b"".join(reqs[i] for i in seq)
        pos = 0
        while pos < len(data):
            n = rnd.randint(1, cut)
            k.send(data[pos:pos + n])
            pos += n
        r = Responses(k.sock)
        got = [r.next(reqs[i].lstrip().startswith(b"HEAD")) for i in seq]
        k.send(PING)
        eq(r.next(False)[0], 200, "the connection after them")
        eq(r.buf, b"", "nothing more")
        k.close()
        return got
    try:
        alone = [run([i], 1 << 20)[0] for i in range(len(reqs))]
        for trial in range(40):
            seq = [rnd.randrange(len(reqs)) for _ in range(rnd.randint(2,
                                                                     40))]
            got = run(seq, rnd.choice([1, 7, 50, 300, 1 << 20]))
            for j, i in enumerate(seq):
                eq(got[j], alone[i], "pipeline %d, request %d: %r"
                   % (trial, j, reqs[i][:40]))
    finally:
        d.cleanup()


if __name__ == "__main__":
    sys.exit(T.run())
