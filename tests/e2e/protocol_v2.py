#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
protocol_v2.py -- what protocol version 2 adds for programs, over the
Unix socket and TCP, and what it keeps: every request of version 1 gets
the same reply, byte for byte (v1_replies.jsonl: 478 requests and the
replies of the version-1 daemon, sudokud at commit 1056a9e, made with
mkv1corpus.py); HELLO names the verbs HELP lists and the limits the
configuration sets; ANALYZE agrees with COUNT, SOLVE and RATE on 2,000
puzzles, its solutions checked by the reference solver; the options
budget=, deadline=, effort= and info=; a deadline that holds whatever
the machine's speed (the work is sized at run time to outlast it).
"""

import json
import os
import re
import signal
import sys
import threading
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
from toolbox_common import marks_of, strike             # noqa: E402

T = h.Tap({"workers": 2})
EMPTY = "0" * 81
EFFORT = re.compile(r"^(.*) guesses=(\d+) us=(\d+)$")


def corpus():
    with open(os.path.join(h.HERE, "v1_replies.jsonl")) as f:
        return [json.loads(ln) for ln in f]


@T.case("version 1: 478 requests get the version-1 daemon's replies, "
        "byte for byte, pipelined", daemon={"workers": 1, "budget": 500})
def _(c):
    rows = corpus()
    k = c.connect()
    k.send("".join(r["req"] + "\n" for r in rows).encode("latin-1"))
    got = k.lines(len(rows), timeout=60)
    # A request version 1 answered ERR budget may be answered now: the
    # solver needs fewer guesses.  Which answer the budget allows was
    # never up to the budget: it must be the one a budget of 10^8 gives.
    edge = [(r, g) for r, g in zip(rows, got) if g != r["reply"] and
            r["reply"].startswith("ERR budget ")]
    if edge:
        with h.Daemon(workers=1, budget=100000000) as big:
            kb = big.connect(timeout=60)
            for r, g in edge:
                eq(g, kb.req(r["req"], 60), "%s: ERR budget in version 1, "
                   "now the answer of a larger budget" % r["req"][:60])
        c.note("%d requests at the edge of the budget of 500 are answered "
               "now, as a larger budget answered them" % len(edge))
    bad = [(r["req"][:60], r["reply"][:80], g[:80])
           for r, g in zip(rows, got) if g != r["reply"] and
           not r["reply"].startswith("ERR budget ")]
    eq(bad, [], "requests whose reply changed")


def hello(k):
    line = k.req("HELLO")
    check(line.startswith("HELLO "), "HELLO reply %r" % line)
    kv = {}
    for tok in line.split()[1:]:
        key, sep, val = tok.partition("=")
        check(sep and key not in kv, "token %r of %r" % (tok, line))
        kv[key] = val
    return kv


LIMITS = {"max_connections": "99", "idle_timeout": "123",
          "write_timeout": "45", "max_line": "2048",
          "output_high": "131072", "budget": "5000", "count_max": "77"}


@T.case("HELLO: server, version, proto 2, every verb of HELP, the options, "
        "and the limits of the configuration; a reload changes them",
        daemon=dict(LIMITS, output_low="1024"))
def _(c):
    k = c.connect()
    kv = hello(k)
    eq((kv.get("server"), kv.get("version"), kv.get("proto")),
       ("sudokud", h.package_version(), "2"), "who")
    helped = [ln.split()[0] for ln in k.block("HELP")
              if re.match(r"^  [A-Z]+\b", ln)]
    eq(kv.get("verbs", "").split(","), helped, "verbs= against HELP")
    opted = [ln.split()[0].split("=")[0] for ln in k.block("HELP")
             if re.match(r"^  [a-z]+=", ln)]
    eq(kv.get("options", "").split(","), opted, "options= against HELP")
    eq(kv.get("levels"), "easy,medium,hard,expert,extreme", "levels")
    eq(kv.get("symmetries"), "none,rot180,rot90,mirror,flip,diagonal,"
       "antidiagonal,dihedral", "symmetries (doc/protocol.md, Options)")
    for key, want in LIMITS.items():
        eq(kv.get(key), want, "HELLO %s" % key)
    with open(c.d.conf) as f:
        text = f.read()
    with open(c.d.conf, "w") as f:
        f.write(text.replace("count_max = 77", "count_max = 78"))
    c.d.proc.send_signal(signal.SIGHUP)
    # HELLO on k itself: a new connection may go to the other worker,
    # which can have reloaded before k's has.
    check(h.wait_for(lambda: hello(k).get("count_max") == "78", 5),
          "HELLO after a reload")
    eq(k.req("COUNT %s 78" % EMPTY), "78", "the limit HELLO names holds")


def sample():
    """About 2,000 puzzles: every kind, some with no or many solutions."""
    out = (h.load_puzzles("puzzles2_17_clue", 1000) +
           h.load_puzzles("puzzles3_magictour_top1465", 500) +
           h.load_puzzles("puzzles6_forum_hardest_1106", 100) +
           h.load_puzzles("puzzles7_many_solutions", 300))
    # Fewer givens (many solutions) and a wrong one (none, often).
    for p in out[:50]:
        out.append("." + p[1:] if p[0] != "." else "1" + p[1:])
    return out


@T.case("ANALYZE agrees with COUNT, SOLVE and RATE on 2,000 puzzles; "
        "solutions checked by the reference solver", timeout=120)
def _(c):
    puzzles = sample()
    k = c.connect()
    reqs = []
    for p in puzzles:
        reqs += ["ANALYZE " + p, "COUNT %s 2 effort=1" % p, "RATE " + p]
    # Sent from a thread while the replies are read: 6,000 requests
    # written whole before reading can meet a daemon that stopped reading
    # at output_high (a slow build writes its replies in small pieces,
    # which fill the socket's buffer sooner), and both would wait.
    t, res = h.sender(k.sock, "".join(r + "\n" for r in reqs).encode(),
                      stop_on_block=60)
    got = k.lines(len(reqs), timeout=100)
    t.join(10)
    check(res["error"] is None, "sending: %r" % (res["error"],))
    seen = set()
    for i, p in enumerate(puzzles):
        a, n, rate = got[3 * i:3 * i + 3]
        if a.startswith("ERR "):
            eq(a, rate, "ANALYZE and RATE errors of %s" % p)
            continue
        kv = dict(t.split("=", 1) for t in a.split())
        m = EFFORT.match(n)
        check(m, "COUNT effort=1 reply %r" % n)
        count, guesses = int(m.group(1)), m.group(2)
        want = {0: "nosolution", 1: "unique", 2: "multiple"}[count]
        eq(kv["status"], want, "status of %s (COUNT %d)" % (p, count))
        eq(int(kv["clues"]), sum(ch not in ".0" for ch in p), "clues")
        eq(kv["guesses"], guesses, "guesses: ANALYZE's search is COUNT 2's")
        seen.add(want)
        if want != "unique":
            eq(sorted(kv), ["clues", "guesses", "status"], "keys of " + a)
            continue
        eq(h.solution_problem(p, kv["solution"]), None, "solution of " + p)
        eq("%s %s %s" % (kv["level"], kv["score"], kv["hardest"]), rate,
           "rating of %s" % p)
    eq(seen, {"unique", "multiple", "nosolution"}, "statuses seen")


@T.case("ANALYZE: malformed and conflicting puzzles get the usual errors")
def _(c):
    k = c.connect()
    eq(k.req("ANALYZE 12"), "ERR length expected 81 cells, found 2 (one "
       "row of a grid? send the whole puzzle on one line, row by row)",
       "length")
    check(k.req("ANALYZE x" + h.CLASSIC[1:]).startswith("ERR char "), "char")
    check(k.req("ANALYZE 55" + h.CLASSIC[2:]).startswith("ERR conflict "),
          "conflict")
    eq(k.req("ANALYZE"), "ERR syntax wrong number of arguments for ANALYZE, "
       "try HELP", "no puzzle")


@T.case("options: budget= lowers the budget and is capped at the server's; "
        "unknown, repeated or bad options are ERR syntax naming them",
        daemon={"workers": 1, "budget": 500, "count_max": 100000})
def _(c):
    k = c.connect()
    big = "COUNT %s 100000" % EMPTY
    eq(k.req(big + " budget=10"), "ERR budget search budget of 10 guesses "
       "exceeded", "budget=10")
    eq(k.req(big + " budget=99999999"), "ERR budget search budget of 500 "
       "guesses exceeded", "capped at the server's 500")
    eq(k.req("COUNT %s 5 budget=1" % h.CLASSIC), "1", "enough within 1")
    for line, want in (
            ("SOLVE %s foo=1" % h.CLASSIC, "unknown option 'foo' for SOLVE"),
            ("SOLVE %s info=1" % h.CLASSIC, "unknown option 'info' for "
             "SOLVE"),
            ("SOLVE %s budget=1 budget=2" % h.CLASSIC, "option budget given "
             "twice"),
            ("SOLVE %s budget=0" % h.CLASSIC, "budget must be a number"),
            ("SOLVE %s budget=x" % h.CLASSIC, "budget must be a number"),
            ("SOLVE %s deadline=0" % h.CLASSIC, "deadline must be a number"),
            ("SOLVE %s deadline=86400001" % h.CLASSIC, "deadline must be"),
            ("SOLVE %s effort=2" % h.CLASSIC, "effort must be 0 or 1"),
            ("GENERATE info=yes", "info must be 0 or 1"),
            ("SOLVE %s =1" % h.CLASSIC, "an option is name=value, not "
             "'=1'"),
            ("CANON %s budget=1" % h.CLASSIC, "unknown option 'budget' "
             "for CANON, try HELP"),
            ("HELLO info=1", "unknown option 'info' for HELLO, try HELP"),
            ("CLIENT LIST x=1", "unknown option 'x' for CLIENT, try HELP"),
            ("PING budget=1", "wrong number of arguments for PING")):
        got = k.req(line)
        check(got.startswith("ERR syntax ") and want in got,
              "%s: %r" % (line[-20:], got))
    # Options follow the arguments of a bare puzzle too.
    check(EFFORT.match(k.req(h.CLASSIC + " effort=1")), "bare effort=1")
    eq(k.req("PING"), "PONG", "still in step")


@T.case("effort=1 on every verb that solves: the same reply, then guesses= "
        "and us=; ANALYZE adds us= only")
def _(c):
    k = c.connect()
    p = h.load_puzzles("puzzles3_magictour_top1465", 1)[0]
    for line in ("SOLVE " + p, "LEXMIN " + p, "COUNT %s 5" % p, "RATE " + p,
                 "HINT " + p, "GENERATE hard 7", "SOLVE 12",
                 "COUNT %s 2000" % EMPTY):
        plain = k.req(line)
        m = EFFORT.match(k.req(line + " effort=1"))
        check(m, "%s effort=1" % line[:20])
        eq(m.group(1), plain, "%s: the reply before the effort" % line[:20])
    got = k.req("ANALYZE %s effort=1" % p)
    check(re.match(r"^status=unique .* guesses=\d+ .* us=\d+$", got) and
          got.count("guesses=") == 1, "ANALYZE effort=1: %r" % got)


@T.case("GENERATE info=1: the seed and level it used; that seed gives the "
        "same puzzle again")
def _(c):
    k = c.connect()
    got = k.req("GENERATE hard info=1")
    m = re.match(r"^([1-9.]{81}) seed=(\d+) level=hard$", got)
    check(m, "GENERATE hard info=1: %r" % got)
    eq(k.req("GENERATE hard %s" % m.group(2)), m.group(1), "the same seed")
    eq(h.ref_search(m.group(1), limit=2, lexmin=False)[0], 1, "unique")


def timed(k, line, timeout=120):
    t0 = time.monotonic()
    got = k.req(line, timeout)
    return got, time.monotonic() - t0


@T.case("deadline=: work that outlasts it on any machine gets ERR deadline "
        "no sooner than the deadline, soon after; PINGs answered meanwhile; "
        "the same work with a deadline ten times longer, its answer",
        daemon={"workers": 1, "budget": 100000000, "count_max": 1000000},
        timeout=150)
def _(c):
    k = c.connect()
    # Counting 10^6 solutions of the empty grid takes about 0.3 s on a
    # Zen 3 (300 ns a solution): no machine does it within 20 ms.  (The
    # deadline used to be a quarter of a count timed here first, which a
    # loaded machine could time at seven times what the next took.)
    limit, ms = 1000000, 20
    pings = []
    stop = threading.Event()
    first = threading.Event()

    def pinger():
        p = c.connect()
        while not stop.is_set():
            pings.append(p.req("PING"))
            first.set()
    t = threading.Thread(target=pinger, daemon=True)
    t.start()
    check(first.wait(10), "no PONG before the count")
    before = len(pings)
    got, late = timed(k, "COUNT %s %d deadline=%d" % (EMPTY, limit, ms))
    during = len(pings) - before
    # And without a deadline, PINGs answered between its slices.
    got_all, took = timed(k, "COUNT %s %d" % (EMPTY, limit))
    during_all = len(pings) - before - during
    stop.set()
    t.join(10)
    c.note("deadline=%d ms answered after %.3f s, %d PINGs meanwhile; "
           "COUNT %d: %.2f s, %d PINGs meanwhile" % (ms, late, during,
                                                     limit, took, during_all))
    eq(got, "ERR deadline deadline of %d ms passed before an answer" % ms,
       "the reply")
    check(late >= ms / 1000.0, "answered %.3f s after a %d ms deadline"
          % (late, ms))
    check(late < ms / 1000.0 + 2, "answered %.3f s after a %d ms deadline"
          % (late, ms))
    eq(got_all, str(limit), "COUNT %d without a deadline" % limit)
    check(during_all > 0, "no PING answered during COUNT %d" % limit)
    # A deadline that lets the same work finish (ten times what it took,
    # and 2 s more) changes nothing: the count, not ERR deadline.
    long_ms = int(took * 10000) + 2000
    eq(k.req("COUNT %s %d deadline=%d" % (EMPTY, limit, long_ms), 60),
       str(limit), "COUNT %d with deadline=%d" % (limit, long_ms))
    check(pings and set(pings) == {"PONG"}, "PINGs: %r" % pings[:3])
    st = h.stats_ints(c.d.stats())
    eq(st["err_deadline"], 1, "err_deadline")
    # Work that ends first is answered as without one.
    eq(k.req("SOLVE %s deadline=%d" % (h.CLASSIC, ms)),
       h.CLASSIC_SOLUTION, "a quick SOLVE with the same deadline")


def solutions_block(k, req, timeout=60):
    """SOLUTIONS' lines up to END (returned without it) or an ERR line."""
    k.send(req + "\n")
    out = []
    while True:
        ln = k.line(timeout)
        if ln.split(" ")[0] == "END" or ln.startswith("ERR "):
            return out, ln
        out.append(ln)


@T.case("SOLUTIONS: the first n solutions in increasing order, as the "
        "reference finds them, then END; fewer, none; bounds and errors")
def _(c):
    k = c.connect(timeout=60)
    sparse = h.CLASSIC[:62] + "." * 19          # some dozens of solutions
    for p, n in ((EMPTY, 5), (sparse, 20), (sparse, 1000), (h.CLASSIC, 3),
                 ("12345678." + "........9" + "." * 63, 4)):
        want, done = h.ref_solutions(p, n)
        check(done, "the reference finished on %s" % p)
        got, end = solutions_block(k, "SOLUTIONS %s %d" % (p, n))
        eq((got, end), (want, "END"), "SOLUTIONS %s %d" % (p[:20], n))
    eq(solutions_block(k, "SOLUTIONS %s 1001" % EMPTY),
       ([], "ERR syntax SOLUTIONS count must be a number from 1 to 1000"),
       "n above count_max")
    eq(solutions_block(k, "SOLUTIONS %s" % EMPTY),
       ([], "ERR syntax wrong number of arguments for SOLUTIONS, try HELP"),
       "no n")
    eq(solutions_block(k, "SOLUTIONS 11%s 2" % EMPTY[2:]),
       ([], "ERR conflict digit 1 twice in row 1: r1c1 and r1c2"), "conflict")
    got, end = solutions_block(k, "SOLUTIONS %s 1000 budget=200" % EMPTY)
    want, _ = h.ref_solutions(EMPTY, len(got) or 1)
    check(end == "ERR budget search budget of 200 guesses exceeded" and
          got == want[:len(got)], "cut by the budget: %d lines, then %r"
          % (len(got), end))
    got, end = solutions_block(k, "SOLUTIONS %s 3 effort=1" % EMPTY)
    check(len(got) == 3 and EFFORT.match(end) and
          EFFORT.match(end).group(1) == "END", "effort=1: %r" % end)


@T.case("STATS: SOLUTIONS of a puzzle with none counts as unsolvable, as "
        "COUNT's 0 does; of one with some, as solved")
def _(c):
    k = c.connect(timeout=60)
    nosol = "12345678." + "........9" + "." * 63
    before = h.stats_ints(c.d.stats())
    eq(solutions_block(k, "SOLUTIONS %s 4" % nosol), ([], "END"),
       "SOLUTIONS of none")
    eq(k.req("COUNT %s 4" % nosol), "0", "COUNT of none")
    eq(len(solutions_block(k, "SOLUTIONS %s 3" % EMPTY)[0]), 3,
       "SOLUTIONS of many")
    got, end = solutions_block(k, "SOLUTIONS %s 1000 budget=200" % EMPTY)
    check(got and end.startswith("ERR budget"),
          "some solutions, then the cut: %d, %r" % (len(got), end))
    after = h.stats_ints(c.d.stats())
    eq((after["unsolvable"] - before["unsolvable"],
        after["solved"] - before["solved"],
        after["err_budget"] - before["err_budget"]), (2, 2, 1),
       "unsolvable, solved (the cut one too: its solutions went out) and "
       "err_budget risen by")


@T.case("SOLUTIONS n deadline=1, pipelined: a reply with all n solutions "
        "ends with END, never with a deadline's ERR after the last")
def _(c):
    k = c.connect(timeout=120)
    # 800 lines are the 64 KiB a slice may send: the slice ends right
    # after the last solution, where the deadline used to be checked
    # before the search said it was done.
    reps, n = 300, 800
    k.send("".join("SOLUTIONS %s %d deadline=1\n" % (EMPTY, n)
                   for _ in range(reps)))
    want, _ = h.ref_solutions(EMPTY, n)
    whole = 0
    for i in range(reps):
        got, end = [], None
        while end is None:
            ln = k.line(120)
            if ln.split(" ")[0] == "END" or ln.startswith("ERR "):
                end = ln
            else:
                got.append(ln)
        check(got == want[:len(got)], "reply %d: not the first solutions" % i)
        if len(got) == n:
            whole += 1
            eq(end, "END", "reply %d: all %d solutions out, then" % (i, n))
        else:
            check(end.startswith("ERR deadline"),
                  "reply %d: %d solutions then %r" % (i, len(got), end))
    c.note("%d of %d replies whole" % (whole, reps))


@T.case("pencil marks (729 characters): SOLVE, LEXMIN, COUNT, SOLUTIONS "
        "and ANALYZE answer within the marks, as the reference does; a cell "
        "without a candidate, a bad character, clashing givens")
def _(c):
    import random
    k = c.connect(timeout=60)
    rng = random.Random(20)
    eq(k.req("SOLVE " + marks_of(h.CLASSIC)), h.CLASSIC_SOLUTION,
       "SOLVE of a puzzle's own marks")
    eq(k.req("ANALYZE " + marks_of(h.CLASSIC)),
       k.req("ANALYZE " + h.CLASSIC), "ANALYZE of its marks")
    # Two thirds of a solution's cells open, then candidates struck
    # (never the solution's): from one to dozens of solutions, quick for
    # the reference.
    base = "".join("." if i % 3 else ch
                   for i, ch in enumerate(h.CLASSIC_SOLUTION))
    counts = []
    tried = 0
    for _ in range(20):
        cells = strike(marks_of(base), rng, 300, h.CLASSIC_SOLUTION)
        m = "".join(cells)
        want, done = h.ref_solutions("." * 81, 50, marks=cells)
        check(done, "the reference finished")
        got, end = solutions_block(k, "SOLUTIONS %s 50" % m)
        eq((got, end), (want, "END"), "SOLUTIONS of marks")
        eq(k.req("COUNT %s 50" % m), str(len(want)), "COUNT of marks")
        counts.append(len(want))
        eq(k.req("LEXMIN " + m), want[0] if want else
           "ERR nosolution the puzzle has no solution", "LEXMIN of marks")
        if want:
            sol = k.req("SOLVE " + m)
            check(h.solution_problem("." * 81, sol) is None and
                  all(sol[i] in cells[i] for i in range(81)) and
                  (len(want) == 50 or sol in want),
                  "SOLVE of marks: %r" % sol)
        tried += 1
    check(tried == 20 and len(set(counts)) > 5, "mark sets: %r" % counts)
    c.note("solutions of the mark sets: %r" % sorted(counts))
    bad = marks_of(h.CLASSIC)
    eq(k.req("SOLVE " + bad[:27] + "." * 9 + bad[36:]),
       "ERR conflict r1c4 has no candidate left", "an empty cell")
    eq(k.req("COUNT " + bad[:728] + "x"),
       "ERR char bad character 'x' (0x78) at position 729", "a bad byte")
    two = "....5...." * 2 + "123456789" * 79
    eq(k.req("SOLVE " + two),
       "ERR conflict digit 5 twice in row 1: r1c1 and r1c2", "two givens")
    eq(k.req("SOLVE " + bad + "1"), "ERR length expected 81 cells, found "
       "730", "730 characters: version 1's error")


if __name__ == "__main__":
    sys.exit(T.run())
