#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
http_fair.py -- an HTTP connection is served in slices as a line
connection is (TAP): while one connection POSTs heavy work -- a batch of
expensive puzzles, or one request of about a second -- another's GET
/v2/ping, on the same worker, is answered all along, between the
slices; and a batch's answers go out as they are made.  Heavy work is
SOLVE DEEP with a budget measured on this machine at run time
(h.deep_budget): what is asserted is order and counts, never time.
"""

import json
import os
import select
import sys
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
import http_common as hc                                # noqa: E402

T = h.Tap()
ONE = (None,)
PING = b"GET /v2/ping HTTP/1.1\r\nHost: x\r\n\r\n"
BATCH = 100             # puzzles of the batch
EACH = 0.02             # seconds of solving each (2 s in all)


def post(k, verb, body, lines=False):
    data = json.dumps(body).encode()
    k.send(b"POST /v2/%s HTTP/1.1\r\nHost: x\r\nContent-Type: "
           b"application/json\r\n%sContent-Length: %d\r\n\r\n%s"
           % (verb.encode(), b"Accept: application/x-ndjson\r\n" if lines
              else b"", len(data), data))


def pings_meanwhile(heavy, done, k):
    """PINGs on k, one at a time, while heavy's response comes: how many
    were answered before done(heavy's bytes so far) said it had all of
    it, and how many of heavy's answers had come at each PONG."""
    k.send(PING)
    data, seen, pongs = b"", b"", []
    while not done(seen):
        ready = select.select([heavy.sock, k.sock], [], [], 60)[0]
        check(ready, "nothing within 60 s; the heavy response so far: %r"
              % seen[-200:])
        if heavy.sock in ready:
            more = heavy.sock.recv(65536)
            check(more, "the heavy connection closed")
            seen += more
        if k.sock in ready:
            data += k.sock.recv(65536)
            got, data = hc.raw_responses(data)
            for status, _, body in got:
                eq((status, json.loads(body)), (200, {"pong": True}),
                   "PING")
                pongs.append(seen.count(b'"error"'))
                k.send(PING)
    return seen, pongs


@T.case("a batch of expensive puzzles on one connection -> another's GET "
        "/v2/ping is answered all along, and the batch's answers come as "
        "they are made (JSON Lines)", transports=ONE, own=True, timeout=120)
def _(c):
    budget = h.deep_budget(EACH)
    d = hc.HttpDaemon(workers=1, budget=budget).start()
    try:
        heavy, k = d.raw(60), d.raw(60)
        k.send(PING)
        hc.read_responses(k, 1)
        post(heavy, "solve", {"puzzles": [h.DEEP] * BATCH}, lines=True)
        seen, pongs = pings_meanwhile(
            heavy, lambda s: s.endswith(b"\r\n0\r\n\r\n"), k)
        got = hc.raw_responses(seen)[0]
        eq(len(got), 1, "one response")
        items = [json.loads(ln) for ln in got[0][2].split(b"\n")[:-1]]
        eq(items, [{"error": {"code": "budget", "message": "search budget "
                              "of %d guesses exceeded" % budget}}] * BATCH,
           "the batch's answers")
        c.note("%d puzzles of %d guesses: %d PONGs meanwhile"
               % (BATCH, budget, len(pongs)))
        # Served whole before the other connection, no PONG would come
        # back before the batch's end.
        check(len(pongs) >= 10, "only %d PONGs during a batch of %d "
              "puzzles on another connection" % (len(pongs), BATCH))
        # Answers go out as made: PONGs saw some answers and not all.
        check(any(0 < n < BATCH for n in pongs), "no PONG came while the "
              "batch's answers were arriving: %r" % pongs[:20])
    finally:
        d.cleanup()


@T.case("one POST of about a second -> GET /v2/ping on the same worker is "
        "answered between its slices", transports=ONE, own=True,
        timeout=120)
def _(c):
    budget = h.deep_budget(1.0)
    d = hc.HttpDaemon(workers=1, budget=budget).start()
    try:
        heavy, k = d.raw(60), d.raw(60)
        k.send(PING)
        hc.read_responses(k, 1)
        t0 = time.monotonic()
        post(heavy, "solve", {"puzzle": h.DEEP})

        def whole(s):
            return bool(hc.raw_responses(s)[0])
        seen, pongs = pings_meanwhile(heavy, whole, k)
        status, _, body = hc.raw_responses(seen)[0][0]
        eq((status, json.loads(body)["error"]["code"]), (422, "budget"),
           "the long request")
        c.note("one request of %d guesses, %.2f s: %d PONGs meanwhile"
               % (budget, time.monotonic() - t0, len(pongs)))
        check(len(pongs) >= 20, "only %d PONGs during one request of %d "
              "guesses on the same worker" % (len(pongs), budget))
    finally:
        d.cleanup()


if __name__ == "__main__":
    sys.exit(T.run())
