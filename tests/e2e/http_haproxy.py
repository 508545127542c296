#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
http_haproxy.py -- sudokud's HTTP listeners behind a real HAProxy in
mode http, as contrib/haproxy/sudokud-http.cfg says (TAP): the file run
as written (its addresses replaced by free ones), every answer through
it right (the harness's checker), the requests spread over the nodes,
keep-alive connections to them shared by many clients; the client a
node shows is the one HAProxy names, never an X-Forwarded-For the
client sent itself; a node stopped (SIGTERM) is taken out by its health
check and the requests that follow are all answered by the others.
"""

import os
import signal
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
import http_common as hc                                # noqa: E402
from http_common import EASY, EASY_SOLUTION             # noqa: E402
import balancer                                         # noqa: E402

T = h.Tap()
ONE = (None,)
EXAMPLE = os.path.join(h.TOP_SRCDIR, "contrib", "haproxy",
                       "sudokud-http.cfg")
NODES = 3


class Node(hc.HttpDaemon):
    """A node as the example's header says: http, metrics, trusting the
    proxy's X-Forwarded-For."""

    def __init__(self, **kw):
        self.metrics_port = h.free_port()
        super().__init__(listen_conf="metrics = 127.0.0.1:%d\n"
                         % self.metrics_port,
                         http_conf="trusted_proxies = 127.0.0.1\n", **kw)

    def served(self):
        return int(self.stats()["cmd_solve"])


class HAProxy(balancer.HAProxy):
    """HAProxy running sudokud-http.cfg with free addresses: its nodes'
    http and metrics ports; the file has no stats socket, so HAProxy is
    up once every node answers through it."""
    EXAMPLE = EXAMPLE
    SERVER_PORT = "http_port"

    def global_subs(self):
        return super().global_subs()[:1]

    def wait_up(self, up):
        if not h.wait_for(self.answers, 15, 0.1):
            raise h.Fail("no answer through HAProxy:\n%s" % self.log_tail())

    def answers(self):
        try:
            return hc.Api(self.port, timeout=2).get("/v2/ping").status == 200
        except OSError:
            return False


def solve_many(port, n, clients=4):
    """n requests over clients keep-alive connections through HAProxy,
    each checked; SOLVE and batches alternately."""
    apis = [hc.Api(port, timeout=30) for _ in range(clients)]
    puzzles = h.load_puzzles("puzzles2_17_clue", 20)
    for i in range(n):
        api = apis[i % clients]
        p = puzzles[i % len(puzzles)]
        if i % 2:
            r = api.post("solve", {"puzzle": p})
            eq(r.status, 200, "request %d" % i)
            h.check_solution(p, r.obj["solution"])
        else:
            r = api.post("solve", {"puzzles": [p, EASY]})
            eq(r.status, 200, "batch %d" % i)
            h.check_solution(p, r.obj["results"][0]["solution"])
            eq(r.obj["results"][1], {"solution": EASY_SOLUTION}, "batch")
    for api in apis:
        api.close()


@T.case("HAProxy (mode http) with contrib/haproxy/sudokud-http.cfg: "
        "every answer right, spread over the nodes; the client a node "
        "shows is HAProxy's word, not one a client forged; a node "
        "stopped is taken out and the rest answer everything",
        transports=ONE, own=True, timeout=120)
def _(c):
    nodes, hap = [], None
    try:
        nodes = [Node(workers=1).start() for _ in range(NODES)]
        hap = HAProxy(nodes).start()
        before = [n.served() for n in nodes]
        solve_many(hap.port, 120)
        spread = [n.served() - b for n, b in zip(nodes, before)]
        c.note("solved per node: %r" % spread)
        eq(sum(spread), 180, "every SOLVE of the batches and singles")
        check(all(s > 0 for s in spread), "each node served: %r" % spread)
        # A client's own X-Forwarded-For is dropped by the proxy.
        api = hc.Api(hap.port)
        for _ in range(NODES):
            api.get("/v2/ping", headers={"X-Forwarded-For": "198.51.100.7"})
        lists = [n.api().get("/v2/client").obj["clients"] for n in nodes]
        via = [x for cl in lists for x in cl if "via" in x]
        check(via, "no node shows a client HAProxy named: %r" % lists)
        check(all(x["addr"].startswith("tcp:127.0.0.1:") for x in via),
              "a forged X-Forwarded-For got through: %r" % via)
        # Stopped, node1 drains (its /healthz 503), then goes.
        nodes[0].proc.send_signal(signal.SIGTERM)
        nodes[0].wait_exit(15)
        solve_many(hap.port, 60, clients=2)
        c.note("after node1 stopped: %r" % [n.served() for n in nodes[1:]])
    finally:
        if hap is not None:
            hap.stop()
        for n in nodes:
            n.cleanup()


if __name__ == "__main__":
    sys.exit(T.run())
