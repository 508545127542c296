#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
http_errors.py -- every error of doc/http.md's table, end to end (TAP):
each code with its HTTP status and its error object (cells and position
where the message names them), from curl and from Python's http.client;
what a careless or hostile client sends -- malformed JSON, duplicate
keys, deep nesting, huge numbers, bytes that are not UTF-8, the wrong
Content-Type, a chunked or oversized body, a head over 8 KiB, HTTP/2,
a body that never ends -- refused with its status, the connection kept
where the request was read whole and closed where it was not; busy
(503) and deadline (504) sized to the configuration, never to the
machine's speed; and the request_timeout bounded as configured.
"""

import json
import os
import subprocess
import sys
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
import http_common as hc                                # noqa: E402
from http_common import EASY, EMPTY                     # noqa: E402

T = h.Tap()
ONE = (None,)
NOSOL = "12345678." + "........9" + "." * 63
PUZ = '"puzzle": "%s"' % EASY

# Bodies POSTed to /v2/solve (or the resource named first), each 400
# syntax with a message holding the words given; the connection goes on.
SYNTAX = [
    ("malformed JSON", b'{"puzzle": ', "malformed JSON at line 1"),
    ("duplicate keys", b'{"puzzle": "1", "puzzle": "2"}',
     "duplicate object key"),
    ("nesting deeper than 8", b'{"puzzle": ' + b"[" * 9 + b"]" * 9 + b"}",
     "nested deeper than 8"),
    ("nesting of 8 is read (and the type refused)",
     b'{"puzzle": ' + b"[" * 7 + b"]" * 7 + b"}", "puzzle must be a string"),
    ("an integer over 64 bits", b'{%s, "budget": 99999999999999999999}'
     % PUZ.encode(), "too big integer"),
    ("a real too large", b'{%s, "budget": 1e400}' % PUZ.encode(),
     "real number overflow"),
    ("a fraction", b'{%s, "budget": 1.5}' % PUZ.encode(),
     "budget must be an integer"),
    ("a negative number", b'{%s, "budget": -1}' % PUZ.encode(),
     "budget must be an integer from 0"),
    ("bytes that are not UTF-8", b'{"puzzle": "\xff\xfe"}',
     "unable to decode byte 0xff"),
    ("a NUL in a string", b'{"puzzle": "ab\\u0000"}', "NUL"),
    ("something after the object", b'{%s} x' % PUZ.encode(),
     "end of file expected"),
    ("not an object", b"[1]", "the body must be a JSON object"),
    ("a field the verb does not take", b'{%s, "limit": 3}' % PUZ.encode(),
     "unknown field 'limit' for /v2/solve; it takes puzzle, puzzles, "
     "budget, deadline_ms, effort"),
    ("no puzzle", b'{"budget": 3}', "missing field puzzle (or puzzles)"),
    ("puzzle and puzzles", b'{%s, "puzzles": ["1"]}' % PUZ.encode(),
     "give puzzle or puzzles, not both"),
    ("an empty batch", b'{"puzzles": []}', "puzzles must be an array"),
    ("a batch of a number", b'{"puzzles": ["1", 2]}',
     "puzzles[1] must be a string"),
    ("a blank in a puzzle", b'{"puzzle": "53 ..7"}', "without blanks"),
    ("an option in a puzzle", b'{"puzzle": "x budget=1"}', "without "
     "blanks"),
    ("an '=' in a puzzle", b'{"puzzle": "a=b"}', "'='"),
    ("an empty puzzle", b'{"puzzle": ""}', "not empty"),
    ("effort as a number", b'{%s, "effort": 1}' % PUZ.encode(),
     "effort must be true or false"),
]


@T.case("400 syntax for every malformed body, each naming what is wrong; "
        "the connection serves the next request", transports=ONE, own=True)
def _(c):
    d = hc.HttpDaemon(workers=1).start()
    try:
        api = d.api()
        for what, body, words in SYNTAX:
            r = api.req("POST", "/v2/solve", data=body,
                        headers={"Content-Type": "application/json"})
            eq((r.status, r.obj["error"]["code"]), (400, "syntax"), what)
            check(words in r.obj["error"]["message"], "%s: %r lacks %r"
                  % (what, r.obj["error"]["message"], words))
            eq(r.headers.get("connection"), "keep-alive", what)
        eq(api.post("solve", {"puzzle": EASY}).status, 200, "then served")
        r = api.post("hint", {"puzzles": [EASY], "grid": EASY})
        eq(r.obj["error"]["message"], "grid goes with one puzzle, not with "
           "puzzles", "a batch with a grid")
        r = api.post("generate", {"level": "9"})
        eq(r.obj["error"]["message"], "level must be a word of letters",
           "a level that would read as a seed")
    finally:
        d.cleanup()


QUERIES = [
    ("/v2/solve?puzzle=%zz", "malformed percent-encoding"),
    ("/v2/solve?puzzle=1&puzzle=2", "query parameter 'puzzle' given twice"),
    ("/v2/solve?Puzzle=1", "no such query parameter 'Puzzle'"),
    ("/v2/solve?puzzle=%s&effort=maybe" % EASY, "effort must be true or "
     "false"),
    ("/v2/solve?puzzle=%s&budget=-1" % EASY, "budget must be an integer"),
    ("/v2/solve?puzzle=5+3", "without blanks"),
    ("/v2/count?puzzle=%s&limit=1.5" % EASY, "limit must be an integer"),
    ("/v2/solve?puzzles=%s" % EASY, "puzzles must be an array"),
]


@T.case("400 syntax for malformed query strings; a query's bytes that "
        "are not UTF-8 reach the verb, which says where (422 char)",
        transports=ONE, own=True)
def _(c):
    d = hc.HttpDaemon(workers=1).start()
    try:
        api = d.api()
        for path, words in QUERIES:
            r = api.get(path)
            eq((r.status, r.obj["error"]["code"]), (400, "syntax"), path)
            check(words in r.obj["error"]["message"], "%s: %r lacks %r"
                  % (path, r.obj["error"]["message"], words))
        r = api.get("/v2/solve?puzzle=%s%%C3%%A9" % EASY[:79])
        eq((r.status, r.obj["error"]), (422, {
            "code": "char", "position": 80,
            "message": "bad byte 0xc3 at position 80"}), "a query's byte")
    finally:
        d.cleanup()


def marks_walk(api, p):
    """PATH's steps of p applied to its pencil marks: the dead end."""
    marks = [("123456789" if ch in ".0" else "".join(
        x if x == ch else "." for x in "123456789")) for ch in p]
    path = api.post("path", {"puzzle": p}).obj
    eq(path["complete"], False, "PATH of an extreme puzzle ends early")
    for step in path["steps"]:
        for a in step["placements"]:
            cell = (int(a["cell"][1]) - 1) * 9 + int(a["cell"][3]) - 1
            marks[cell] = "".join(x if x == str(a["digit"]) else "."
                                  for x in "123456789")
        for a in step["eliminations"]:
            cell = (int(a["cell"][1]) - 1) * 9 + int(a["cell"][3]) - 1
            marks[cell] = marks[cell].replace(str(a["digit"]), ".")
    return "".join(marks)


@T.case("422 for what a verb says of its puzzle: length, char (with "
        "position), conflict (with cells), nosolution, multiple, wrong "
        "(every cell), nostep (at PATH's dead end), budget",
        transports=ONE, own=True)
def _(c):
    d = hc.HttpDaemon(workers=1).start()
    try:
        api = d.api()
        sol = api.post("solve", {"puzzle": EASY}).obj["solution"]
        wrong = list(sol)
        wrong[2] = "1" if sol[2] != "1" else "2"
        hard = h.load_puzzles("puzzles6_forum_hardest_1106", 1)[0]
        cases = [
            ("solve", {"puzzle": EASY[:80]}, {
                "code": "length", "message": "expected 81 cells, found 80"}),
            ("solve", {"puzzle": EASY[:80] + "x"}, {
                "code": "char", "position": 81,
                "message": "bad character 'x' (0x78) at position 81"}),
            ("solve", {"puzzle": "55" + EASY[2:]}, {
                "code": "conflict", "cells": ["r1c1", "r1c2"],
                "message": "digit 5 twice in row 1: r1c1 and r1c2"}),
            ("solve", {"puzzle": NOSOL}, {
                "code": "nosolution",
                "message": "the puzzle has no solution"}),
            ("rate", {"puzzle": EMPTY}, {
                "code": "multiple",
                "message": "the puzzle has more than one solution"}),
            ("hint", {"puzzle": EASY, "grid": "".join(wrong)}, {
                "code": "wrong", "cells": ["r1c3"], "message": "r1c3"}),
            ("hint", {"puzzle": hard, "grid": marks_walk(api, hard)}, {
                "code": "nostep", "message": "no logical step applies; "
                "this needs trial and error"}),
            ("count", {"puzzle": EMPTY, "limit": 1000, "budget": 5}, {
                "code": "budget",
                "message": "search budget of 5 guesses exceeded"}),
        ]
        for verb, fields, want in cases:
            r = api.post(verb, fields)
            eq((r.status, r.obj), (422, {"error": want}), "%s %s"
               % (verb, want["code"]))
        # SOLUTIONS cut short: its error, and the solutions found by then.
        r = api.post("solutions", {"puzzle": EMPTY, "n": 1000,
                                   "budget": 200})
        eq((r.status, r.obj["error"]["code"]), (422, "budget"), "SOLUTIONS")
        check(len(r.obj["solutions"]) > 0, "SOLUTIONS found some first")
        for s in r.obj["solutions"]:
            h.check_solution(EMPTY, s)
    finally:
        d.cleanup()


def raw_one(d, data, close=True):
    """data on a new connection: its one response, and whether the
    connection then ended."""
    k = d.raw()
    k.send(data)
    got = hc.read_responses(k, 1)
    ended = False
    if close:
        try:
            k.expect_eof(what="the end")
            ended = True
        except h.Fail:
            pass
    k.close()
    return got[0], ended


@T.case("the HTTP framing: 404, 405 (Allow), 411 (a chunked body), 413 "
        "(a body over max_body, refused from its head), 415, 431 (a head "
        "over 8 KiB), 505 (HTTP/2) and a malformed head (400), each with "
        "its error object; the connection closed unless the request was "
        "read whole", transports=ONE, own=True)
def _(c):
    d = hc.HttpDaemon(workers=1, http_conf="max_body = 1k\n").start()
    try:
        api = d.api()
        for path in ("/v2/nope", "/v2/", "/v2/auth", "/v2/quit",
                     "/v2/SOLVE"):
            r = api.get(path)
            eq((r.status, r.obj["error"]["code"]), (404, "notfound"), path)
        r = api.req("DELETE", "/v2/solve")
        eq((r.status, r.obj["error"]["code"], r.headers.get("allow")),
           (405, "method", "GET, HEAD, POST"), "DELETE")
        r = api.get("/v2/slowlog?action=reset")
        eq((r.status, r.headers.get("allow")), (405, "POST"),
           "SLOWLOG reset by GET")
        for ctype in (None, "text/plain", "application/x-www-form-urlencoded",
                      "application/json; charset=latin-1"):
            hdrs = {} if ctype is None else {"Content-Type": ctype}
            r = api.req("POST", "/v2/solve", data=json.dumps(
                {"puzzle": EASY}).encode(), headers=hdrs)
            eq((r.status, r.obj["error"]["code"]), (415, "mediatype"),
               "Content-Type %r" % ctype)
        for ctype in ("application/json; charset=utf-8",
                      'Application/JSON;charset="UTF-8"'):
            r = api.req("POST", "/v2/solve", data=json.dumps(
                {"puzzle": EASY}).encode(), headers={"Content-Type": ctype})
            eq(r.status, 200, "Content-Type %r" % ctype)
        frames = [
            ("chunked", b"POST /v2/solve HTTP/1.1\r\nHost: x\r\n"
             b"Content-Type: application/json\r\nTransfer-Encoding: chunked"
             b"\r\n\r\n5\r\n{}{}{\r\n0\r\n\r\n", 411, "syntax"),
            ("over max_body", b"POST /v2/solve HTTP/1.1\r\nHost: x\r\n"
             b"Content-Type: application/json\r\nContent-Length: 1025\r\n"
             b"\r\n", 413, "toolong"),
            ("a head over 8 KiB", b"GET /v2/ping HTTP/1.1\r\nHost: x\r\n"
             b"X-Pad: " + b"a" * 9000 + b"\r\n\r\n", 431, "toolong"),
            ("HTTP/2", b"GET /v2/ping HTTP/2.0\r\nHost: x\r\n\r\n", 505,
             "syntax"),
            ("no Host", b"GET /v2/ping HTTP/1.1\r\n\r\n", 400, "syntax"),
            ("two lengths", b"POST /v2/solve HTTP/1.1\r\nHost: x\r\n"
             b"Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", 400,
             "syntax"),
            ("a line protocol request", b"SOLVE %s\n\n" % EASY.encode(),
             400, "syntax"),
        ]
        for what, data, status, code in frames:
            (st, hdrs, body), ended = raw_one(d, data)
            eq((st, json.loads(body)["error"]["code"], ended),
               (status, code, True), what)
            eq(hdrs["connection"], "close", what)
            hc.validate(json.loads(body), hc.schema("ErrorReply"), what)
        # A body of exactly max_body is read, and answered.
        body = b'{"puzzle": "%s"}' % (b"x" * (1024 - 14))
        eq(len(body), 1024, "a body of 1 KiB")
        r = api.req("POST", "/v2/solve", data=body,
                    headers={"Content-Type": "application/json"})
        eq((r.status, r.obj["error"]["code"]), (422, "length"), "max_body")
    finally:
        d.cleanup()


@T.case("Expect: 100-continue gets 100 Continue before the body is sent; "
        "curl's large POST goes through without waiting for it",
        transports=ONE, own=True)
def _(c):
    d = hc.HttpDaemon(workers=1).start()
    try:
        body = json.dumps({"puzzles": [EASY] * 100}).encode()
        k = d.raw()
        k.send(b"POST /v2/count HTTP/1.1\r\nHost: x\r\nContent-Type: "
               b"application/json\r\nExpect: 100-continue\r\n"
               b"Content-Length: %d\r\n\r\n" % len(body))
        k.sock.settimeout(10)
        first = k.sock.recv(100)
        eq(first, b"HTTP/1.1 100 Continue\r\n\r\n", "100 Continue")
        k.send(body)
        got = hc.read_responses(k, 1)
        eq(json.loads(got[0][2])["results"], [{"count": 1}] * 100,
           "then the answer")
        p = subprocess.run(["curl", "-s", "-S", "--json", "@-",
                            "http://127.0.0.1:%d/v2/count" % d.http_port],
                           input=body, capture_output=True, timeout=30)
        eq(json.loads(p.stdout)["results"], [{"count": 1}] * 100, "curl")
    finally:
        d.cleanup()


@T.case("a slow body and a slow head: closed at request_timeout (1 s), "
        "between 1 and 4.5 s, counted in idle_kicks; an idle keep-alive "
        "connection is not (idle_timeout)", transports=ONE, own=True)
def _(c):
    d = hc.HttpDaemon(workers=1, idle_timeout=60,
                      http_conf="request_timeout = 1\n").start()
    try:
        idle = d.raw()
        idle.send(b"GET /v2/ping HTTP/1.1\r\nHost: x\r\n\r\n")
        hc.read_responses(idle, 1)
        for what, data in (
                ("a body that stops", b"POST /v2/solve HTTP/1.1\r\nHost: x"
                 b"\r\nContent-Type: application/json\r\nContent-Length: "
                 b"100\r\n\r\n{\"puzzle\":"),
                ("a head that stops", b"GET /v2/ping HTTP/1.1\r\nHo")):
            k = d.raw()
            t0 = time.monotonic()
            k.send(data)
            k.expect_eof(timeout=10, what=what)
            took = time.monotonic() - t0
            check(1.0 <= took <= 4.5, "%s: closed after %.2f s" % (what,
                                                                   took))
        eq(int(d.stats()["idle_kicks"]), 2, "idle_kicks")
        idle.send(b"GET /v2/ping HTTP/1.1\r\nHost: x\r\n\r\n")
        eq(hc.read_responses(idle, 1)[0][0], 200, "the idle one served")
    finally:
        d.cleanup()


@T.case("503 busy over max_connections, with Retry-After, then the end; "
        "504 deadline for a request past deadline_ms", transports=ONE,
        own=True, timeout=90)
def _(c):
    d = hc.HttpDaemon(workers=1, max_connections=3).start()
    try:
        a, b = d.raw(), d.raw()
        for k in (a, b):
            k.send(b"GET /v2/ping HTTP/1.1\r\nHost: x\r\n\r\n")
            hc.read_responses(k, 1)
        k = d.connect("unix")
        # Three open, once the harness's probes are seen closed.
        check(h.wait_for(lambda: k.stats()["curr_connections"] == "3", 5),
              "curr_connections %s" % k.stats()["curr_connections"])
        (st, hdrs, body), ended = raw_one(
            d, b"GET /v2/ping HTTP/1.1\r\nHost: x\r\n\r\n")
        eq((st, hdrs.get("retry-after"), ended), (503, "1", True), "busy")
        err = json.loads(body)["error"]
        eq((err["code"], err["message"]), ("busy", "too many connections "
           "(max 3), try later"), "its error")
        k.close()
    finally:
        d.cleanup()
    budget = h.deep_budget(2.0)
    d = hc.HttpDaemon(workers=1, budget=budget).start()
    try:
        r = d.api(timeout=60).post("solve", {"puzzle": h.DEEP,
                                             "deadline_ms": 100})
        eq((r.status, r.obj), (504, {"error": {
            "code": "deadline",
            "message": "deadline of 100 ms passed before an answer"}}),
           "deadline (a search of %d guesses)" % budget)
    finally:
        d.cleanup()


if __name__ == "__main__":
    sys.exit(T.run())
