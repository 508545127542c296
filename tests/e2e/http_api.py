#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
http_api.py -- the HTTP/JSON API of doc/http.md, end to end (TAP): every
resource answered by GET and by POST with the answers doc/protocol.md
shows for the same requests; the batch form, as one object and as JSON
Lines, against the line protocol's answers to the same puzzles on the
same daemon; keep-alive, pipelining, HEAD, effort, the page's files;
the listener on a Unix socket, over TLS and behind a PROXY header;
X-Forwarded-For from a trusted proxy only; bearer authentication; what
STATS, CLIENT LIST and /metrics say of it.  Every reply is validated
against doc/openapi.yaml (http_common.py); every solution by the
harness's own checker.
"""

import json
import os
import socket
import ssl
import sys
import urllib.parse

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
import http_common as hc                                # noqa: E402
from http_common import EASY, EASY_SOLUTION, EMPTY      # noqa: E402

T = h.Tap()
ONE = (None,)
HARD = ("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2"
        ".....1.4......")

# doc/protocol.md's examples: the request's fields, the reply's.
KNOWN = [
    ("solve", {"puzzle": EASY}, {"solution": EASY_SOLUTION}),
    ("lexmin", {"puzzle": EMPTY}, {"solution": h.EMPTY_LEXMIN}),
    ("count", {"puzzle": EASY}, {"count": 1}),
    ("count", {"puzzle": EMPTY, "limit": 10}, {"count": 10}),
    ("solutions", {"puzzle": EMPTY, "n": 3}, {"solutions": [
        h.EMPTY_LEXMIN,
        "1234567894567891237891234562143658973658972148972143655316429786"
        "48971532972538641",
        "1234567894567891237891234562143658973658972148972143655316429786"
        "72938541948571632"]}),
    ("analyze", {"puzzle": EASY}, {
        "status": "unique", "clues": 30, "guesses": 0,
        "solution": EASY_SOLUTION, "level": "easy", "score": 1.0,
        "hardest": "naked_single"}),
    ("analyze", {"puzzle": EMPTY}, None),
    ("rate", {"puzzle": EASY}, {"level": "easy", "score": 1.0,
                                "hardest": "naked_single"}),
    ("hint", {"puzzle": EASY}, {
        "solved": False, "technique": "naked_single",
        "placements": [{"cell": "r5c5", "digit": 5}], "eliminations": [],
        "explanation": "5 is the only candidate left in r5c5",
        "cells": ["r5c5"], "units": []}),
    ("hint", {"puzzle": EASY, "grid": EASY_SOLUTION}, {"solved": True}),
    ("generate", {"level": "easy", "seed": 42}, {
        "puzzle": "....587.....7......3.6..49.16....9..........22..5......9..."
                  "48.6..81..3...27..9...", "seed": "42", "level": "easy"}),
    ("canon", {"puzzle": EASY}, {
        "canonical": "........1.....2.34156...27......8.......51..232974......"
                     "16..9....34..7..28.91.45.", "automorphisms": 1}),
    ("shuffle", {"puzzle": EASY, "seed": 7}, {
        "puzzle": "5....2.9.4....1.2.6....84.12.....8733.1....5..472........5."
                  "7.4...249.........3687", "seed": "7"}),
    ("minimize", {"puzzle": EASY, "seed": 1}, {
        "puzzle": "53..7.......19.....98....6.....6...34..8.3..17...2.....6..."
                  ".28....41...........7.", "seed": "1"}),
    ("constrain", {"puzzle": EMPTY, "seed": 3}, {
        "puzzle": "1.5.48..98.9....4.6.479.....5182..963461.92.......347.5.7.."
                  "2.6.9...6.7144639.7.82", "seed": "3"}),
    ("ping", {}, {"pong": True}),
    ("version", {}, {"version": h.package_version()}),
]


def query(fields):
    return "&".join("%s=%s" % (k, urllib.parse.quote(
        str(v).lower() if isinstance(v, bool) else str(v), safe=""))
        for k, v in fields.items())


@T.case("every resource of doc/protocol.md's examples: GET with a query "
        "string and POST with JSON give the answer the example shows",
        transports=ONE, own=True)
def _(c):
    d = hc.HttpDaemon(workers=1).start()
    try:
        api = d.api()
        for verb, fields, want in KNOWN:
            got = api.post(verb, fields)
            eq(got.status, 200, "POST %s %r" % (verb, fields))
            if want is not None:
                eq(got.obj, want, "POST /v2/%s %r" % (verb, fields))
            again = api.get("/v2/%s?%s" % (verb, query(fields)))
            eq((again.status, again.obj), (200, got.obj),
               "GET /v2/%s: the same as POST" % verb)
            if "solution" in got.obj:
                h.check_solution(fields["puzzle"], got.obj["solution"])
        r = api.post("analyze", {"puzzle": EMPTY}).obj
        eq((sorted(r), r["status"], r["clues"]),
           (["clues", "guesses", "status"], "multiple", 0),
           "ANALYZE of the empty grid")
    finally:
        d.cleanup()


@T.case("PATH: every step as HINT's object, the summary's rating and "
        "counts, which add up to the steps; the same as HINT walking the "
        "grid step by step", transports=ONE, own=True)
def _(c):
    d = hc.HttpDaemon(workers=1).start()
    try:
        api = d.api()
        p = api.post("path", {"puzzle": HARD}).obj
        eq((p["level"], p["score"], p["hardest"], p["complete"]),
           ("medium", 2.2, "pointing", True), "the summary")
        eq(p["techniques"], {"naked_single": 46, "hidden_single": 10,
                             "pointing": 7}, "the counts")
        eq(len(p["steps"]), 63, "the steps")
        eq(p["steps"][0], {
            "technique": "hidden_single",
            "placements": [{"cell": "r6c2", "digit": 4}],
            "eliminations": [],
            "explanation": "4 can only go in r6c2 within box 4",
            "cells": ["r6c2"], "units": ["box 4"]}, "its first step")
        point = [s for s in p["steps"] if s["technique"] == "pointing"][0]
        eq((point["cells"], point["units"],
            [e["cell"] for e in point["eliminations"]]),
           (["r2c7", "r2c9"], ["box 3", "row 2"], ["r2c1", "r2c3"]),
           "a pointing step's cells and units")
        # The line protocol's PATH, line by line, is the same walk.
        k = d.connect("unix")
        lines = k.block("PATH " + HARD)
        eq(len(lines), len(p["steps"]) + 1, "PATH's lines (and summary)")
        for ln, step in zip(lines, p["steps"]):
            tech, acts, expl = ln.split(" ", 2)
            eq((tech, expl), (step["technique"], step["explanation"]),
               "a step")
            eq(acts.split(","), ["%s%s%d" % (a["cell"], o, a["digit"])
                                 for o, key in (("=", "placements"),
                                                ("-", "eliminations"))
                                 for a in step[key]], "its actions")
    finally:
        d.cleanup()


def line_json(verb, line):
    """The line protocol's reply as doc/http.md says it in JSON, written
    here again (not the daemon's code): the fields compared."""
    if line.startswith("ERR "):
        code, _, text = line[4:].partition(" ")
        return {"error": {"code": code, "message": text}}
    if verb in ("solve", "lexmin"):
        return {"solution": line}
    if verb == "count":
        return {"count": int(line)}
    if verb == "rate":
        lv, score, hardest = line.split(" ")
        return {"level": lv, "score": float(score), "hardest": hardest}
    kv = dict(w.split("=", 1) for w in line.split(" "))
    for k in ("clues", "guesses"):
        kv[k] = int(kv[k])
    if "score" in kv:
        kv["score"] = float(kv["score"])
    return kv


def strip_error(o):
    """An answer's fields as line_json() has them."""
    if "error" in o:
        return {"error": {"code": o["error"]["code"],
                          "message": o["error"]["message"]}}
    return o


@T.case("the batch form against the line protocol on the same puzzles: "
        "SOLVE, COUNT, RATE and ANALYZE of 17-clue puzzles and malformed "
        "ones, as one object and as JSON Lines", transports=ONE, own=True)
def _(c):
    d = hc.HttpDaemon(workers=2).start()
    try:
        puzzles = h.load_puzzles("puzzles2_17_clue", 40)
        puzzles += [EASY, EASY[:80], EASY[:80] + "x", "55" + EASY[2:],
                    "." * 80 + "é", EMPTY]
        k = d.connect("unix")
        api = d.api()
        for verb in ("solve", "count", "rate", "analyze"):
            lines = [k.req("%s %s" % (verb.upper(), p)) for p in puzzles]
            want = [line_json(verb, ln) for ln in lines]
            r = api.post(verb, {"puzzles": puzzles})
            eq((r.status, r.headers.get("transfer-encoding")),
               (200, "chunked"), "%s: the batch's response" % verb)
            eq([strip_error(o) for o in r.obj["results"]], want,
               "%s: the batch's answers" % verb)
            for accept in hc.JSONL:
                s = api.post(verb, {"puzzles": puzzles},
                             headers={"Accept": accept})
                eq((s.status, s.type), (200, accept), "JSON Lines asked")
                eq(s.obj, r.obj["results"], "%s as JSON Lines" % verb)
            one = [api.post(verb, {"puzzle": p}).obj for p in puzzles[:3]]
            eq(one, r.obj["results"][:3], "single requests")
        for p, o in zip(puzzles, api.post("solve", {
                "puzzles": puzzles[:40]}).obj["results"]):
            h.check_solution(p, o["solution"])
        st = k.stats()
        check(int(st["cmd_solve"]) >= 2 * len(puzzles), "cmd_solve %s: a "
              "batch's puzzles count each" % st["cmd_solve"])
    finally:
        d.cleanup()


@T.case("options: budget, deadline_ms, effort (guesses and us on answers "
        "and errors), GENERATE's symmetry, clues and pattern",
        transports=ONE, own=True)
def _(c):
    d = hc.HttpDaemon(workers=1).start()
    try:
        api = d.api()
        r = api.post("count", {"puzzle": EMPTY, "limit": 1000,
                               "budget": 10})
        eq((r.status, r.obj), (422, {"error": {
            "code": "budget",
            "message": "search budget of 10 guesses exceeded"}}), "budget")
        r = api.post("solve", {"puzzle": EASY, "effort": True})
        eq(sorted(r.obj), ["guesses", "solution", "us"], "effort")
        r = api.post("solve", {"puzzle": EASY[:80], "effort": True})
        eq((r.status, sorted(r.obj)), (422, ["error", "guesses", "us"]),
           "effort on an error")
        r = api.post("generate", {"level": "easy", "seed": 42,
                                  "symmetry": "rot180", "clues": "22-40"})
        g = r.obj["puzzle"]
        check(all((g[i] == ".") == (g[80 - i] == ".") for i in range(81)),
              "rot180: %s" % g)
        check(22 <= 81 - g.count(".") <= 40, "clues: %s" % g)
        eq(r.obj["seed"], "42", "the seed, as a string")
        big = api.post("generate", {"seed": "18446744073709551615"})
        eq((big.status, big.obj["seed"]), (200, "18446744073709551615"),
           "a seed above 2^63, as a string")
        r = api.get("/v2/generate?level=hard&seed=7&clues=22-24")
        eq((r.status, r.obj["level"], r.obj["seed"]), (200, "hard", "7"),
           "GET /v2/generate?level=hard&seed=7&clues=22-24")
    finally:
        d.cleanup()


@T.case("keep-alive and pipelining: requests of one write answered in "
        "order on the connection; Connection: close ends it after the "
        "response; HEAD has GET's headers and no body", transports=ONE,
        own=True)
def _(c):
    d = hc.HttpDaemon(workers=1).start()
    try:
        k = d.raw()
        body = json.dumps({"puzzle": EASY}).encode()
        k.send(b"GET /v2/ping HTTP/1.1\r\nHost: x\r\n\r\n"
               b"POST /v2/solve HTTP/1.1\r\nHost: x\r\n"
               b"Content-Type: application/json\r\nContent-Length: %d\r\n"
               b"\r\n%s"
               b"HEAD /v2/version HTTP/1.1\r\nHost: x\r\n\r\n"
               b"GET /v2/count?puzzle=%s HTTP/1.1\r\nHost: x\r\n"
               b"Connection: close\r\n\r\n"
               % (len(body), body, EASY.encode()))
        got = hc.read_responses(k, 4, heads=(2,))
        eq([g[0] for g in got], [200] * 4, "four statuses")
        eq([json.loads(g[2]) if g[2] else None for g in got],
           [{"pong": True}, {"solution": EASY_SOLUTION}, None,
            {"count": 1}], "the answers, in order")
        eq([g[1]["connection"] for g in got],
           ["keep-alive"] * 3 + ["close"], "Connection")
        eq(got[2][1]["content-length"], str(len(json.dumps(
            {"version": h.package_version()}, separators=(",", ":")))),
           "HEAD's Content-Length is GET's")
        k.expect_eof(what="the end after Connection: close")
        # HTTP/1.0: closed unless it asks; a batch's end is the close.
        k = d.raw()
        k.send(b"POST /v2/solve HTTP/1.0\r\nContent-Type: application/json"
               b"\r\nContent-Length: %d\r\n\r\n%s"
               % (len(json.dumps({"puzzles": [EASY]})),
                  json.dumps({"puzzles": [EASY]}).encode()))
        data = k.read_to_eof()
        head, _, rest = data.partition(b"\r\n\r\n")
        check(b"Content-Length" not in head and b"chunked" not in head,
              "HTTP/1.0: neither length nor chunks: %r" % head)
        eq(json.loads(rest), {"results": [{"solution": EASY_SOLUTION}]},
           "HTTP/1.0 batch")
    finally:
        d.cleanup()


@T.case("the page: GET / serves www/index.html with its Content-Type, "
        "nosniff and the CSP; a file that is not there, a name with '..' "
        "and POST are refused; page = 0 serves only /v2/",
        transports=ONE, own=True)
def _(c):
    d = hc.HttpDaemon(workers=1).start()
    try:
        api = d.api()
        r = api.get("/")
        with open(os.path.join(hc.WWW, "index.html"), "rb") as f:
            eq(r.body, f.read(), "index.html")
        eq((r.status, r.type, r.headers.get("x-content-type-options")),
           (200, "text/html", "nosniff"), "its headers")
        eq(r.headers.get("content-security-policy"), "default-src 'self'",
           "CSP")
        eq(api.get("/index.html").body, r.body, "/index.html")
        for path in ("/nope.html", "/../README.md", "/%2e%2e/README.md",
                     "/.hidden", "/index.html/", "//etc/passwd"):
            r = api.get(path)
            eq((r.status, r.obj["error"]["code"]), (404, "notfound"), path)
        r = api.req("POST", "/", data=b"")
        eq((r.status, r.headers.get("allow")), (405, "GET, HEAD"), "POST /")
    finally:
        d.cleanup()
    d = hc.HttpDaemon(workers=1, http_conf="page = 0\n").start()
    try:
        r = d.api().get("/")
        eq((r.status, r.obj["error"]["code"]), (404, "notfound"), "page = 0")
        eq(d.api().get("/v2/ping").obj, {"pong": True}, "the API is there")
    finally:
        d.cleanup()


@T.case("HELLO, STATS, SLOWLOG and CLIENT over HTTP: HELLO's http= names "
        "the listener; STATS counts responses by class; CLIENT LIST shows "
        "the connection with transport=http; the slow log has its lines",
        transports=ONE, own=True)
def _(c):
    d = hc.HttpDaemon(workers=1, extra_conf="[server]\n"
                      "slowlog_slower_than = 0\n").start()
    try:
        api = d.api()
        hello = api.get("/v2/hello").obj
        eq(hello["http"], ["http://127.0.0.1:%d" % d.http_port], "http")
        k = d.connect("unix")
        line = k.req("HELLO")
        check(" http=http://127.0.0.1:%d " % d.http_port in line,
              "HELLO over the line protocol: %s" % line)
        eq(hello["verbs"], line.split("verbs=")[1].split(" ")[0].split(","),
           "verbs")
        api.post("solve", {"puzzle": EASY})
        api.get("/v2/nope")
        st = api.get("/v2/stats").obj
        eq((st["http_2xx"], st["http_4xx"], st["http_5xx"]), (2, 1, 0),
           "responses by class")
        cl = [x for x in api.get("/v2/client").obj["clients"]
              if x["transport"] == "http"]
        eq(len(cl), 1, "one http connection")
        check(any("transport=http addr=tcp:127.0.0.1:" in ln
                  for ln in k.block("CLIENT LIST")), "CLIENT LIST")
        entries = api.get("/v2/slowlog?n=100").obj["entries"]
        check(any(e["request"].startswith("SOLVE " + EASY)
                  for e in entries), "the slow log: %r" % entries[:3])
        n = api.get("/v2/slowlog?action=len").obj["len"]
        check(n >= len(entries), "SLOWLOG LEN %d, %d entries"
              % (n, len(entries)))
        eq(api.post("slowlog", {"action": "reset"}).obj, {"ok": True},
           "reset")
        eq(api.get("/v2/help").obj["help"], k.block("HELP"), "HELP")
    finally:
        d.cleanup()


def unix_http(path, request):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(path)
    k = h.Client(s, 10)
    k.send(request)
    return k


@T.case("http on a Unix socket path, unix_mode applied; https with the "
        "[tls] certificate; http_proxy with a PROXY header, CLIENT LIST "
        "naming the client it names", transports=ONE, own=True)
def _(c):
    import certs
    cs = certs.certs()
    tls_port, proxy_port = h.free_port(), h.free_port()
    d = hc.HttpDaemon(workers=1, listen_conf=(
        "http = %s/http.sock\nhttps = 127.0.0.1:%d\nhttp_proxy = "
        "127.0.0.1:%d\n" % ("@TMP@", tls_port, proxy_port)))
    d.extra_conf = d.extra_conf.replace("@TMP@", d.tmp) + \
        "[tls]\ncert = %s\nkey = %s\n" % (cs.path("server.pem"),
                                         cs.path("server.key"))
    d.start()
    try:
        path = os.path.join(d.tmp, "http.sock")
        eq(oct(os.stat(path).st_mode & 0o777), "0o660", "unix_mode")
        k = unix_http(path, b"GET /v2/ping HTTP/1.1\r\nHost: x\r\n\r\n")
        got = hc.read_responses(k, 1)
        eq((got[0][0], json.loads(got[0][2])), (200, {"pong": True}),
           "over the Unix socket")
        ctx = ssl.create_default_context(cafile=cs.path("ca.pem"))
        api = hc.Api(tls_port, tls=ctx)
        eq(api.post("solve", {"puzzle": EASY}).obj,
           {"solution": EASY_SOLUTION}, "over TLS")
        cl = [x for x in api.get("/v2/client").obj["clients"]]
        eq(sorted(x["transport"] for x in cl if x["transport"] != "unix"),
           ["http", "https"], "transports")
        k = h.Client(socket.create_connection(("127.0.0.1", proxy_port),
                                              10), 10)
        k.send(b"PROXY TCP4 203.0.113.7 127.0.0.1 51000 80\r\n"
               b"GET /v2/client HTTP/1.1\r\nHost: x\r\n\r\n")
        got = hc.read_responses(k, 1)
        mine = [x for x in json.loads(got[0][2])["clients"]
                if x["transport"] == "http_proxy"]
        eq([x["addr"] for x in mine], ["tcp:203.0.113.7:51000"],
           "the PROXY header's client")
        k = h.Client(socket.create_connection(("127.0.0.1", proxy_port),
                                              10), 10)
        k.send(b"GET /v2/ping HTTP/1.1\r\nHost: x\r\n\r\n")
        got = hc.read_responses(k, 1)
        eq((got[0][0], json.loads(got[0][2])["error"]["code"]),
           (400, "syntax"), "no PROXY header on http_proxy")
    finally:
        d.cleanup()


@T.case("X-Forwarded-For: from a trusted proxy the client CLIENT LIST "
        "shows is the header's last untrusted address; from anyone else "
        "it is ignored", transports=ONE, own=True)
def _(c):
    for trusted, want in (("127.0.0.0/8, 10.0.0.0/8", "tcp:198.51.100.9:0"),
                          ("10.0.0.0/8", None)):
        d = hc.HttpDaemon(workers=1, http_conf="trusted_proxies = %s\n"
                          % trusted).start()
        try:
            api = d.api()
            api.get("/v2/ping", headers={
                "X-Forwarded-For": "192.0.2.1, 198.51.100.9, 10.1.2.3"})
            me = [x for x in api.get("/v2/client").obj["clients"]
                  if x["transport"] == "http"][0]
            if want is None:
                check(me["addr"].startswith("tcp:127.0.0.1:") and
                      "via" not in me, "untrusted: %r" % me)
            else:
                eq((me["addr"], me["via"].startswith("tcp:127.0.0.1:")),
                   (want, True), "trusted %s" % trusted)
        finally:
            d.cleanup()


@T.case("auth_file: without Authorization the API answers 401 with "
        "WWW-Authenticate, but for hello, ping and the page; a wrong "
        "bearer token is 401 and counted in auth_failures; the right one "
        "opens every resource", transports=ONE, own=True)
def _(c):
    d = hc.HttpDaemon(workers=1).secret("correct-horse").start()
    try:
        api = d.api()
        r = api.post("solve", {"puzzle": EASY})
        eq((r.status, r.obj["error"]["code"],
            r.headers.get("www-authenticate")),
           (401, "noauth", 'Bearer realm="sudokud"'), "no token")
        eq(api.get("/v2/hello").obj["auth"], "required", "hello is open")
        eq(api.get("/v2/ping").status, 200, "ping is open")
        eq(api.get("/").status, 200, "the page is open")
        bad = {"Authorization": "Bearer correct-horsf"}
        r = api.post("solve", {"puzzle": EASY}, headers=bad)
        eq((r.status, r.obj["error"]["message"]), (401, "wrong secret"),
           "a wrong token")
        r = api.get("/v2/ping", headers=bad)
        eq(r.status, 401, "a wrong token, even for ping")
        good = {"Authorization": "Bearer correct-horse"}
        eq(api.post("solve", {"puzzles": [EASY]}, headers=good).obj,
           {"results": [{"solution": EASY_SOLUTION}]}, "the right token")
        st = api.get("/v2/stats", headers=good).obj
        eq(st["auth_failures"], 2, "auth_failures")
    finally:
        d.cleanup()


@T.case("/metrics counts the HTTP responses by class",
        transports=ONE, own=True)
def _(c):
    port = h.free_port()
    d = hc.HttpDaemon(workers=1, listen_conf="metrics = 127.0.0.1:%d\n"
                      % port).start()
    try:
        api = d.api()
        api.get("/v2/ping")
        api.get("/v2/nope")
        api.get("/v2/nope")
        m = hc.Api(port)
        m.conn.request("GET", "/metrics")
        text = m.conn.getresponse().read().decode()
        for cls, n in (("2xx", 1), ("4xx", 2), ("5xx", 0)):
            check('sudokud_http_responses_total{class="%s"} %d' % (cls, n)
                  in text, "/metrics: %s" % cls)
    finally:
        d.cleanup()


if __name__ == "__main__":
    sys.exit(T.run())
