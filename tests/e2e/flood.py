#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
flood.py -- floods that must not lock others out (TAP): clients that send
a heavy request and end their sending side over TCP hold at most
max_half_closed connections with work (the rest are dropped, counted in
gone_kicks), while a client that ends its sending side with light work
still gets its replies, and another client is answered throughout.  The
heavy work is sized at run time (h.deep_budget), so that it outlasts
the test on any machine; what is asserted is counts and order.
"""

import os
import socket
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402

T = h.Tap()
ONE = (None,)


@T.case("TCP: 40 clients each send 30 s of solving and end their sending "
        "side (half or full close), max_half_closed 5 -> at most 5 of "
        "them keep their work, the other 35 are dropped (gone_kicks); a "
        "live client is answered; one that shut its sending side with "
        "light work gets its replies", transports=ONE, own=True,
        timeout=120)
def _(c):
    budget = h.deep_budget(30)
    d = h.Daemon(workers=1, max_connections=100, budget=budget, unix=True,
                 extra_conf="[server]\nmax_half_closed = 5\n").start()
    flood = []
    try:
        for i in range(40):
            s = socket.create_connection(("127.0.0.1", d.port), 5)
            s.sendall(("SOLVE %s\n" % h.DEEP).encode())
            if i % 2:
                s.shutdown(socket.SHUT_WR)      # a half close, kept
                flood.append(s)
            else:
                s.close()
        k = d.connect("unix")

        def dropped():
            return int(k.stats()["gone_kicks"]) >= 35
        check(h.wait_for(dropped, 20), "gone_kicks %s of 40, want 35 or "
              "more" % k.stats()["gone_kicks"])
        busy = [ln for ln in k.block("CLIENT LIST")
                if "transport=tcp " in ln and "state=busy" in ln]
        check(len(busy) <= 5, "%d TCP connections still at work, "
              "max_half_closed 5" % len(busy))
        eq(k.req("PING"), "PONG", "a live client beside them")
        st = h.stats_ints(k.stats())
        c.note("40 heavy clients that ended their sending side: %d dropped,"
               " %d still at work" % (st["gone_kicks"], len(busy)))
        eq(st["gone_kicks"], 40 - len(busy), "every other one dropped")
    finally:
        for s in flood:
            s.close()
        d.cleanup()
    # Under the cap, a half-closed client is served whole.
    d = h.Daemon(workers=1, extra_conf="[server]\nmax_half_closed = 5\n")
    d.start()
    try:
        k = d.connect("tcp")
        k.send("PING\n%s\nPING\n" % h.CLASSIC)
        k.shut_wr()
        eq(k.lines(3), ["PONG", h.CLASSIC_SOLUTION, "PONG"],
           "the replies of a half-closed client")
        eq(int(d.stats("unix")["gone_kicks"]), 0, "gone_kicks")
    finally:
        d.cleanup()


if __name__ == "__main__":
    sys.exit(T.run())
