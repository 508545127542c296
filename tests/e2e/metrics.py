#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
metrics.py -- the Prometheus endpoint ([listen] metrics): scraped while
requests run, every body parsed whole by prometheus_client's own parser
(Debian: python3-prometheus-client), and the counters checked to rise by
exactly the requests sent; other paths and methods refused.
"""

import http.client
import os
import sys
import threading

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402

try:
    from prometheus_client.parser import text_string_to_metric_families
except ImportError:
    text_string_to_metric_families = None

T = h.Tap()
ONE = (None,)


class MetricsDaemon(h.Daemon):
    def __init__(self, **kw):
        self.metrics_port = h.free_port()
        super().__init__(extra_conf="[listen]\nmetrics = 127.0.0.1:%d\n"
                         % self.metrics_port, **kw)

    def get(self, path="/metrics", method="GET"):
        c = http.client.HTTPConnection("127.0.0.1", self.metrics_port,
                                       timeout=5)
        try:
            c.request(method, path)
            r = c.getresponse()
            return r.status, dict(r.getheaders()), r.read().decode()
        finally:
            c.close()


def scrape(d):
    """Every sample of a scrape: {(name, labels): value}, and the types."""
    status, headers, body = d.get()
    eq(status, 200, "GET /metrics")
    check(headers.get("Content-Type", "").startswith(
        "text/plain; version=0.0.4"), "Content-Type %r" % headers)
    samples, types = {}, {}
    for fam in text_string_to_metric_families(body):
        types[fam.name] = fam.type
        check(fam.documentation, "no HELP for " + fam.name)
        for s in fam.samples:
            samples[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return samples, types


def value(samples, name, **labels):
    return samples[(name, tuple(sorted(labels.items())))]


@T.case("GET /metrics parses whole with prometheus_client while requests "
        "run; counters rise by exactly the requests sent", transports=ONE,
        own=True)
def _(c):
    if text_string_to_metric_families is None:
        raise h.Fail("prometheus_client is missing: scripts/install-deps "
                     "installs python3-prometheus-client")
    d = MetricsDaemon(workers=2).start()
    try:
        before, types = scrape(d)
        eq(types.get("sudokud_requests"), "counter", "requests type")
        eq(types.get("sudokud_open_connections"), "gauge", "gauge type")
        eq(value(before, "sudokud_build_info", version=h.package_version()),
           1.0, "build_info")
        stop = threading.Event()
        scrapes = []

        def scraper():
            while not stop.is_set():
                scrapes.append(scrape(d)[0])
        t = threading.Thread(target=scraper, daemon=True)
        t.start()
        k = d.connect("unix")
        # Batches of a known mix until the scraper has read the page a
        # few times while they ran (however slow the machine).
        batch = ("PING\n" * 300 + ("SOLVE %s\n" % h.CLASSIC) * 50 +
                 ("COUNT %s 5\n" % h.EMPTY) * 20 + "SOLVE 12\n" * 7 +
                 "FOO\n" * 3)
        runs = 0
        while runs < 2 or len(scrapes) < 3:
            k.send(batch)
            k.replies(380)
            runs += 1
        stop.set()
        t.join(10)
        after, _ = scrape(d)
        check(len(scrapes) >= 3, "only %d scrapes during %d batches"
              % (len(scrapes), runs))
        for verb, n in (("ping", 300 * runs), ("solve", 57 * runs),
                       ("count", 20 * runs)):
            eq(value(after, "sudokud_requests_total", verb=verb) -
               value(before, "sudokud_requests_total", verb=verb), n,
               "requests_total{verb=%s}" % verb)
        for code, n in (("length", 7 * runs), ("syntax", 3 * runs)):
            eq(value(after, "sudokud_errors_total", code=code) -
               value(before, "sudokud_errors_total", code=code), n,
               "errors_total{code=%s}" % code)
        eq(value(after, "sudokud_solved_total") -
           value(before, "sudokud_solved_total"), 70 * runs,
           "solved_total")
        eq(value(after, "sudokud_open_connections"), 1.0, "open connections")
        check(value(after, "sudokud_solve_seconds_total") >
              value(before, "sudokud_solve_seconds_total"), "solve seconds")
        # Counters never go down from one scrape to the next.
        for a, b in zip(scrapes, scrapes[1:]):
            check(all(b[key] >= v for key, v in a.items()
                      if key[0].endswith("_total")), "a counter went down")
        # The same figures as STATS.
        st = h.stats_ints(d.stats())
        eq(value(scrape(d)[0], "sudokud_requests_total", verb="ping"),
           st["cmd_ping"], "PING count as STATS says")
        k.close()
    finally:
        d.cleanup()


@T.case("metrics: other paths 404, other methods 405 with Allow, HEAD "
        "has no body", transports=ONE, own=True)
def _(c):
    d = MetricsDaemon(workers=1).start()
    try:
        eq(d.get("/")[0], 404, "GET /")
        eq(d.get("/metrics/x")[0], 404, "GET /metrics/x")
        status, headers, _ = d.get(method="POST")
        eq((status, headers.get("Allow")), (405, "GET, HEAD"), "POST")
        status, _, body = d.get(method="HEAD")
        eq((status, body), (200, ""), "HEAD")
        eq(d.get("/metrics?x=1")[0], 200, "a query string")
        k = d.connect("unix")
        eq(k.req("PING"), "PONG", "the line protocol beside it")
    finally:
        d.cleanup()


if __name__ == "__main__":
    sys.exit(T.run())
