#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
metrics_counts.py -- /metrics against a known workload, so that a wrong
number shows: every verb sent a known number of times, every error code
provoked, then every counter compared with its STATS twin (seconds as
seconds), every verb="..." and code="..." label risen by exactly what
was sent, each latency histogram's count by its verb's requests, the
queue-wait histogram by every request line, no name-and-label pair twice,
histograms well formed, the configured limits as gauges agreeing with
HELLO, and nothing recorded with latency_histograms = 0.  Bodies parsed
with prometheus_client's own parser.
"""

import http.client
import os
import sys
import time

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
EMPTY = "0" * 81
NOSOL = "12345678." + "........9" + "." * 63
N = 7                       # of each verb


class MetricsDaemon(h.Daemon):
    def __init__(self, metrics_conf="", **kw):
        self.metrics_port = h.free_port()
        super().__init__(extra_conf="[listen]\nmetrics = 127.0.0.1:%d\n%s"
                         % (self.metrics_port, metrics_conf), **kw)

    def scrape(self):
        """{(name, labels): value}; a pair seen twice fails."""
        c = http.client.HTTPConnection("127.0.0.1", self.metrics_port,
                                       timeout=5)
        try:
            c.request("GET", "/metrics")
            r = c.getresponse()
            eq(r.status, 200, "GET /metrics")
            body = r.read().decode()
        finally:
            c.close()
        out = {}
        for fam in text_string_to_metric_families(body):
            for s in fam.samples:
                key = (s.name, tuple(sorted(s.labels.items())))
                check(key not in out, "%r twice in one scrape" % (key,))
                out[key] = s.value
        return out


def v(samples, name, **labels):
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


# Each verb's requests, N times; the errors they make are counted too.
WORK = {
    "solve": ["SOLVE " + h.CLASSIC], "lexmin": ["LEXMIN " + EMPTY],
    "count": ["COUNT %s 3" % EMPTY], "analyze": ["ANALYZE " + h.CLASSIC],
    "rate": ["RATE " + h.CLASSIC], "hint": ["HINT " + h.CLASSIC],
    "generate": ["GENERATE easy 5"], "hello": ["HELLO"], "ping": ["PING"],
    "version": ["VERSION"],
}
# An error of each code a line can get, and the verb it counts under.
ERRORS = [
    ("syntax", None, "FOO"), ("length", "solve", "SOLVE 12"),
    ("char", "solve", "SOLVE x" + h.CLASSIC[1:]),
    ("conflict", "solve", "SOLVE 55" + h.CLASSIC[2:]),
    ("nosolution", "solve", "SOLVE " + NOSOL),
    ("multiple", "rate", "RATE " + EMPTY),
    ("budget", "count", "COUNT %s 1000 budget=5" % EMPTY),
    ("wrong", "hint", "HINT %s %s" % (h.CLASSIC, "1" * 81)),
    # The fourth of the forum's hardest: no step from its givens.
    ("nostep", "hint", "HINT " + h.load_puzzles(
        "puzzles6_forum_hardest_1106", 4)[3]),
    ("toolong", None, "PING " + "x" * 2000),
    ("deadline", "count", "COUNT %s 1000 deadline=1" % EMPTY),
]


def settled(d):
    """A scrape once the written bytes stop moving: a worker counts a
    write once it is made, and the client may have read it before."""
    last, deadline = None, time.monotonic() + 5
    while time.monotonic() < deadline:
        s = d.scrape()
        w = s.get(("sudokud_written_bytes_total", ()))
        if w == last:
            return s
        last = w
        time.sleep(0.05)
    raise h.Fail("written_bytes_total never settled")


def workload(d):
    """Every request, on one connection: (lines sent, bytes sent)."""
    k = d.connect("unix")
    lines = []
    for verb, reqs in WORK.items():
        lines += reqs * N
    lines += [line for _, _, line in ERRORS]
    data = "".join(ln + "\n" for ln in lines)
    k.send(data)
    got = k.lines(len(lines), timeout=60)
    errs = got[-len(ERRORS):]
    for (code, _, line), reply in zip(ERRORS, errs):
        if code == "deadline" and reply.startswith("1000"):
            continue        # a machine that counts 1000 in 1 ms
        check(reply.startswith("ERR %s " % code), "%s: %r" % (line[:20],
                                                              reply))
    k.close()
    return len(lines), len(data)


@T.case("after a known workload: every metric equals its STATS twin, "
        "every verb and code label and histogram count rose by exactly "
        "what was sent", transports=ONE, own=True)
def _(c):
    if text_string_to_metric_families is None:
        raise h.Fail("prometheus_client is missing: scripts/install-deps "
                     "installs python3-prometheus-client")
    d = MetricsDaemon(workers=2, count_max=1000).start()
    try:
        before = d.scrape()
        nlines, nbytes = workload(d)
        after = settled(d)
        k = d.connect("unix")
        st = h.stats_ints(k.stats())
        deadline_hit = after.get(("sudokud_errors_total",
                                  (("code", "deadline"),)), 0) > before.get(
            ("sudokud_errors_total", (("code", "deadline"),)), 0)
        for verb in WORK:
            want = N + sum(1 for _, ver, _ in ERRORS if ver == verb)
            for name in ("sudokud_requests_total",
                         "sudokud_request_duration_seconds_count"):
                eq(v(after, name, verb=verb) - v(before, name, verb=verb),
                   want, "%s{verb=%s}" % (name, verb))
        for code, _, _ in ERRORS:
            want = 0 if code == "deadline" and not deadline_hit else 1
            eq(v(after, "sudokud_errors_total", code=code) -
               v(before, "sudokud_errors_total", code=code), want,
               "errors_total{code=%s}" % code)
        eq(v(after, "sudokud_queue_wait_seconds_count") -
           v(before, "sudokud_queue_wait_seconds_count"), nlines,
           "queue waits: one a line")
        eq(v(after, "sudokud_read_bytes_total") -
           v(before, "sudokud_read_bytes_total"), nbytes, "bytes read")
        # The twins, read after the scrape: STATS counts itself and its
        # own line, nothing else moved.
        eq(v(after, "sudokud_connections_total"),
           st["total_connections"] - 1, "connections_total (STATS' own "
           "after it)")
        twins = {"guesses_total": "guesses", "solved_total": "solved",
                 "unsolvable_total": "unsolvable",
                 "toolong_lines_total": "toolong_lines",
                 "written_bytes_total": "bytes_written"}
        for metric, stat in twins.items():
            eq(v(after, "sudokud_" + metric), st[stat], metric)
        eq(v(after, "sudokud_read_bytes_total"), st["bytes_read"] - 6,
           "read_bytes_total (STATS\\n after it)")
        eq(v(after, "sudokud_requests_total", verb="stats"),
           st["cmd_stats"] - 1, "requests_total{verb=stats}")
        secs = v(after, "sudokud_solve_seconds_total")
        check(abs(secs - st["solve_usec"] / 1e6) < 2e-6,
              "solve_seconds_total %r against solve_usec %d: seconds as "
              "seconds" % (secs, st["solve_usec"]))
        check(secs > 0, "no solver time")
        k.close()
    finally:
        d.cleanup()


@T.case("histograms are cumulative, +Inf is the count; STATS has p50 <= "
        "p99 for each verb; the limits as gauges agree with HELLO",
        transports=ONE, own=True)
def _(c):
    d = MetricsDaemon(workers=1, max_connections=77, count_max=1234).start()
    try:
        workload(d)
        s = d.scrape()
        for verb in list(WORK) + ["stats", "help", "quit"]:
            name = "sudokud_request_duration_seconds_bucket"
            buckets = sorted((float(dict(lb)["le"]), val) for (n, lb), val
                             in s.items() if n == name and
                             dict(lb)["verb"] == verb)
            eq(len(buckets), 20, "buckets of %s" % verb)
            check(all(a[1] <= b[1] for a, b in zip(buckets, buckets[1:])),
                  "not cumulative: %s" % verb)
            eq(buckets[-1][1], v(s, "sudokud_request_duration_seconds_count",
                                 verb=verb), "+Inf = count: %s" % verb)
            eq(buckets[0][0], 1e-05, "the first bound, 10 us")
        k = d.connect("unix")
        st = k.stats()
        for verb in WORK:
            p50 = int(st["latency_%s_p50_usec" % verb])
            p99 = int(st["latency_%s_p99_usec" % verb])
            check(0 < p50 <= p99 <= 10000000, "%s: p50 %d p99 %d" % (
                verb, p50, p99))
        hello = dict(t.split("=", 1) for t in k.req("HELLO").split()[1:])
        for key in ("max_connections", "idle_timeout", "write_timeout",
                    "max_line", "output_high", "budget", "count_max"):
            eq(v(s, "sudokud_config_" + key), float(hello[key]),
               "sudokud_config_%s against HELLO" % key)
        eq((v(s, "sudokud_config_max_connections"),
            v(s, "sudokud_config_count_max")), (77.0, 1234.0),
           "the configured values")
    finally:
        d.cleanup()


@T.case("requests behind a long one are timed with their wait: each "
        "PING and HELLO after a SOLVE took at least the SOLVE's time",
        transports=ONE, own=True)
def _(c):
    # One write, so one read: every line is whole from the same moment,
    # and each reply is queued after the SOLVE's.  More instant requests
    # than conn.c's CONN_UNTIMED (16), so that some take the clock
    # reading of the request before them and some their own.  What the
    # SOLVE takes does not matter: the sums compare, not the times.
    d = MetricsDaemon(workers=1).start()
    try:
        npings, budget = 40, 20000
        k = d.connect("unix")
        k.send("SOLVE %s budget=%d\n" % (h.DEEP, budget) +
               "PING\n" * npings + "HELLO\n")
        got = k.lines(npings + 2, timeout=60)
        eq(got[0], h.deep_reply(budget), "SOLVE DEEP")
        eq(got[1:npings + 1], ["PONG"] * npings, "the PINGs")
        s = d.scrape()
        name = "sudokud_request_duration_seconds"
        solve = v(s, name + "_sum", verb="solve")
        check(solve > 0, "the SOLVE took no time")
        for verb, n in (("ping", npings), ("hello", 1)):
            eq(v(s, name + "_count", verb=verb), n, verb + " count")
            took = v(s, name + "_sum", verb=verb)
            check(took >= n * solve * (1 - 1e-9), "%d %s took %r s in all, "
                  "less than %d times the SOLVE before them (%r s)" % (
                      n, verb, took, n, solve))
        k.close()
    finally:
        d.cleanup()


@T.case("latency_histograms = 0: nothing recorded, the counters go on",
        transports=ONE, own=True)
def _(c):
    d = MetricsDaemon(workers=1, metrics_conf="[server]\n"
                      "latency_histograms = 0\n").start()
    try:
        workload(d)
        s = d.scrape()
        eq(sum(val for (n, _), val in s.items()
               if n.endswith("_count") and "seconds" in n), 0.0,
           "histogram counts")
        check(v(s, "sudokud_requests_total", verb="ping") == N, "counters")
    finally:
        d.cleanup()


if __name__ == "__main__":
    sys.exit(T.run())
