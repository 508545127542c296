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
import re
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
LEVELS = ("easy", "medium", "hard", "expert", "extreme")


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


# Each verb's request, sent N times: every verb of HELP (QUIT on
# connections of its own); the errors some make are counted too.
WORK = {
    "solve": "SOLVE " + h.CLASSIC, "lexmin": "LEXMIN " + EMPTY,
    "count": "COUNT %s 3" % EMPTY, "solutions": "SOLUTIONS %s 2" % h.CLASSIC,
    "analyze": "ANALYZE " + h.CLASSIC, "rate": "RATE " + h.CLASSIC,
    "hint": "HINT " + h.CLASSIC, "generate": "GENERATE easy 5",
    "canon": "CANON " + h.CLASSIC, "shuffle": "SHUFFLE %s 3" % h.CLASSIC,
    "minimize": "MINIMIZE %s 1" % h.CLASSIC,
    "constrain": "CONSTRAIN %s 1" % h.CLASSIC, "path": "PATH " + h.CLASSIC,
    "hello": "HELLO", "auth": "AUTH no-secret-here", "ping": "PING",
    "version": "VERSION", "stats": "STATS", "slowlog": "SLOWLOG LEN",
    "client": "CLIENT LIST", "help": "HELP", "quit": "QUIT",
}
BLOCKS = ("SOLUTIONS", "PATH", "STATS", "CLIENT", "HELP")
WORK_ERRORS = {"noauth": N}         # AUTH on a server without a secret
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


def pool_full(d):
    """Once each worker has made generate_pool puzzles of every level."""
    def full(s):
        return all(v(s, "sudokud_generate_pool_puzzles", level=lv) == 4
                   for lv in LEVELS)
    check(h.wait_for(lambda: full(d.scrape()), 120, 0.2),
          "the GENERATE pool did not fill")


def reply(k, line):
    """The reply to line: its lines, a block's up to END."""
    out = [k.line(60)]
    if line.split()[0] in BLOCKS:
        while out[-1] != "END" and not out[0].startswith("ERR "):
            out.append(k.line(60))
    return out


def workload(d):
    """Every request, on one connection but QUIT's: (lines sent, bytes
    sent)."""
    k = d.connect("unix")
    lines = []
    for verb, req in WORK.items():
        if verb != "quit":
            lines += [req] * N
    lines += [line for _, _, line in ERRORS]
    data = "".join(ln + "\n" for ln in lines)
    k.send(data)
    got = [reply(k, ln) for ln in lines]
    for (code, _, line), r in zip(ERRORS, got[-len(ERRORS):]):
        if code == "deadline" and r[0].startswith("1000"):
            continue        # a machine that counts 1000 in 1 ms
        check(r[0].startswith("ERR %s " % code), "%s: %r" % (line[:20], r))
    k.close()
    for _ in range(N):
        q = d.connect("unix")
        eq(q.req("QUIT"), "BYE", "QUIT")
        q.close()
    return len(lines) + N, len(data) + N * 5


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
            want += WORK_ERRORS.get(code, 0)
            eq(v(after, "sudokud_errors_total", code=code) -
               v(before, "sudokud_errors_total", code=code), want,
               "errors_total{code=%s}" % code)
        eq(v(after, "sudokud_queue_wait_seconds_count") -
           v(before, "sudokud_queue_wait_seconds_count"), nlines,
           "queue waits: one a line")
        eq(v(after, "sudokud_read_bytes_total") -
           v(before, "sudokud_read_bytes_total"), nbytes, "bytes read")
        secs = v(after, "sudokud_solve_seconds_total")
        check(secs > 0, "no solver time")
        k.close()
    finally:
        d.cleanup()


# STATS' names of the counters whose metric is not sudokud_<name>_total.
TWINS = {"total_connections": "sudokud_connections_total",
         "rejected_connections": "sudokud_connections_rejected_total",
         "solve_usec": "sudokud_solve_seconds_total",
         "bytes_read": "sudokud_read_bytes_total",
         "bytes_written": "sudokud_written_bytes_total",
         "curr_connections": "sudokud_open_connections",
         "workers": "sudokud_workers", "uptime": "sudokud_uptime_seconds"}
BOUNDS_US = (10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 25000,
             50000, 100000, 250000, 500000, 1000000, 2500000, 5000000,
             10000000)


def metric_of(stat):
    """The sample of /metrics that says what STATS' stat says:
    (name, labels)."""
    for prefix, name, label in (
            ("cmd_", "sudokud_requests_total", "verb"),
            ("err_", "sudokud_errors_total", "code"),
            ("generate_pool_", "sudokud_generate_pool_puzzles", "level"),
            ("http_", "sudokud_http_responses_total", "class")):
        rest = stat[len(prefix):]
        if stat.startswith(prefix) and rest not in ("hits", "misses"):
            return name, ((label, rest),)
    return TWINS.get(stat, "sudokud_%s_total" % stat), ()


def quantile_us(s, name, q, **labels):
    """STATS' quantile (doc/protocol.md) of a histogram of /metrics: the
    bound of the bucket where the rank floor(count * q) falls, in us."""
    count = v(s, name + "_count", **labels)
    if count == 0:
        return 0
    rank = min(int(count * q), count - 1)
    for us in BOUNDS_US:
        le = {"le": "%g" % (us / 1e6)}
        le.update(labels)
        if v(s, name + "_bucket", **le) > rank:
            return us
    return BOUNDS_US[-1]


@T.case("every figure of STATS against /metrics after a workload of every "
        "verb: a scrape, STATS, a scrape; each counter, gauge and "
        "percentile equal, STATS' own request the only difference, and "
        "no family of /metrics left unchecked", transports=ONE, own=True,
        timeout=180)
def _(c):
    d = MetricsDaemon(workers=2, count_max=1000, generate_pool=2).start()
    try:
        k = d.connect("unix")           # before: connections_total
        pool_full(d)
        workload(d)
        # The pool taken from, and filled again (toolbox.py has more):
        # three of a level in one write, on a worker with two, which it
        # cannot make more of while it serves them.
        k.send("GENERATE hard\n" * 3)
        eq(len(set(k.lines(3, 60))), 3, "three different puzzles")
        pool_full(d)
        a = settled(d)
        hits, misses = (v(a, "sudokud_generate_pool_%s_total" % w)
                        for w in ("hits", "misses"))
        check(hits >= 2 and hits + misses == 3, "pool hits %r, misses %r"
              % (hits, misses))
        st = k.stats()
        b = d.scrape()
        seen = set()
        for stat, val in st.items():
            if stat in ("pid", "time"):
                continue        # no metric says them
            if stat == "version":
                eq(v(a, "sudokud_build_info", version=val), 1.0, stat)
                seen.add("sudokud_build_info")
                continue
            m = re.fullmatch(r"(latency_(\w+)|queue_wait)_p(50|99)_usec",
                             stat)
            if m:
                # STATS counts its wait before it answers, its time after.
                q = int(m.group(3)) / 100
                got = quantile_us(a, "sudokud_request_duration_seconds", q,
                                  verb=m.group(2)) if m.group(2) else \
                    quantile_us(b, "sudokud_queue_wait_seconds", q)
                eq(int(val), got, "%s against the buckets of /metrics"
                   % stat)
                seen.add("sudokud_request_duration_seconds" if m.group(2)
                         else "sudokud_queue_wait_seconds")
                continue
            name, labels = metric_of(stat)
            check((name, labels) in a, "%s: no %s%r in /metrics"
                  % (stat, name, labels))
            seen.add(name)
            was, now = a[(name, labels)], b[(name, labels)]
            if stat == "solve_usec":
                check(abs(was - int(val) / 1e6) < 2e-6, "solve_usec %s, "
                      "solve_seconds_total %r" % (val, was))
            elif stat == "uptime":
                check(was <= int(val) <= now, "uptime %s, then %r and %r"
                      % (val, was, now))
            elif stat == "cmd_stats":
                eq((was + 1, now), (int(val), int(val)), stat + ": itself")
            elif stat == "bytes_read":
                eq((was + 6, now), (int(val), int(val)), stat + ": STATS")
            elif stat == "bytes_written":
                eq(was, int(val), stat)
                check(now > was, "bytes_written: STATS' reply")
            else:
                eq((was, now), (int(val), int(val)), stat)
        families = {n for n, _ in a if not n.startswith("sudokud_config_")}
        families = {re.sub(r"_(bucket|sum|count)$", "", n) if "seconds" in n
                    and "total" not in n else n for n in families}
        eq(sorted(families - seen), ["sudokud_draining"],
           "families of /metrics without a STATS twin")
        eq(v(a, "sudokud_draining"), 0.0, "draining")
        eq(int(st["cmd_quit"]), N, "the QUITs")
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
        for verb in WORK:
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
