#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
protocol.py -- every verb of doc/protocol.md, with exact reply lines,
over the Unix socket and TCP: the answers of SOLVE, LEXMIN, COUNT, PING,
VERSION, HELP, RATE, HINT, GENERATE, STATS and QUIT, the forms a request
line may take (case, blanks, CRLF, empty lines), ERR nosolution, ERR
budget and count_max.  The errors of malformed requests are in
protocol_errors.py.
"""

import os
import re
import sys
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
import protodoc                                         # noqa: E402
from harness import check, eq, Fail                     # noqa: E402

T = h.Tap({"workers": 2})


def multi_solution_puzzle():
    """The classic puzzle with givens removed until it has 3..200 solutions."""
    p = list(h.CLASSIC)
    for i, ch in enumerate(h.CLASSIC):
        if ch == ".":
            continue
        p[i] = "."
        n, _, done = h.ref_search("".join(p), limit=201, lexmin=False)
        if done and 3 <= n <= 200:
            return "".join(p), n
    raise Fail("could not build a multi-solution puzzle")


def wrong_given(puzzle):
    """puzzle plus one consistent given that the unique solution lacks."""
    n, sol, done = h.ref_search(puzzle, limit=2, lexmin=False)
    check(done and n == 1, "reference: puzzle is not proper")
    i = puzzle.index(".")
    for v in "123456789":
        if v == sol[i]:
            continue
        q = puzzle[:i] + v + puzzle[i + 1:]
        if h.givens_consistent(h.parse_grid(q)):
            n, _, done = h.ref_search(q, limit=1, lexmin=False,
                                      maxnodes=500000)
            check(done and n == 0, "reference: %s not proved unsolvable" % q)
            return q
    raise Fail("no wrong given found")


def doc_help_lines():
    """The HELP reply exactly as doc/protocol.md shows it."""
    path = os.path.join(h.TOP_SRCDIR, "doc", "protocol.md")
    with open(path) as f:
        text = f.read()
    sec = text.split("### `HELP`", 1)[1].split("###", 1)[0]
    block = [ln[4:] for ln in sec.splitlines() if ln.startswith("    ")]
    check(block and block[0] == "HELP" and block[-1] == "END",
          "cannot find the HELP example in " + path)
    return block[1:-1]


# ---- known answers ----------------------------------------------------------

@T.case("reference solver agrees with the answers printed in protocol.md",
        transports=(None,), own=True, daemonless=True)
def _(c):
    n, sol, done = h.ref_search(h.CLASSIC, limit=2, lexmin=False)
    eq((n, sol, done), (1, h.CLASSIC_SOLUTION, True), "classic puzzle")
    n, sol, done = h.ref_search(h.EMPTY, limit=1, lexmin=True)
    eq(sol, h.EMPTY_LEXMIN, "empty grid LEXMIN")
    check(h.solution_problem(h.EMPTY, h.EMPTY_LEXMIN) is None, "checker")


@T.case("bare puzzle ('.' and '0' blanks) -> the solution")
def _(c):
    k = c.connect()
    eq(k.req(h.CLASSIC), h.CLASSIC_SOLUTION, "bare '.' puzzle")
    eq(k.req(h.CLASSIC.replace(".", "0")), h.CLASSIC_SOLUTION,
       "bare '0' puzzle")
    mixed = "".join("0" if ch == "." and i % 2 else ch
                    for i, ch in enumerate(h.CLASSIC))
    eq(k.req(mixed), h.CLASSIC_SOLUTION, "mixed '.'/'0' puzzle")


@T.case("SOLVE -> exact solution of the protocol.md example")
def _(c):
    k = c.connect()
    eq(k.req("SOLVE " + h.CLASSIC), h.CLASSIC_SOLUTION, "SOLVE classic")


@T.case("SOLVE on 17-clue and hardest puzzles -> checked unique solutions")
def _(c):
    k = c.connect()
    ps = (h.load_puzzles("puzzles2_17_clue", 30)
          + h.load_puzzles("puzzles6_forum_hardest_1106", 15))
    for p in ps:
        got = k.req("SOLVE " + p)
        h.check_solution(p, got)


@T.case("SOLVE on a puzzle with many solutions -> a valid one")
def _(c):
    p, _ = multi_solution_puzzle()
    k = c.connect()
    h.check_solution(p, k.req("SOLVE " + p))
    h.check_solution(h.EMPTY, k.req("SOLVE " + h.EMPTY))
    h.check_solution(h.EMPTY, k.req(h.EMPTY.replace("0", ".")))


@T.case("LEXMIN empty grid -> the protocol.md answer")
def _(c):
    k = c.connect()
    eq(k.req("LEXMIN " + h.EMPTY), h.EMPTY_LEXMIN, "LEXMIN empty")
    eq(k.req("LEXMIN " + "." * 81), h.EMPTY_LEXMIN, "LEXMIN dots")


@T.case("LEXMIN unique and multi-solution puzzles -> reference answer")
def _(c):
    k = c.connect()
    eq(k.req("LEXMIN " + h.CLASSIC), h.CLASSIC_SOLUTION, "LEXMIN classic")
    p, _ = multi_solution_puzzle()
    _, want, done = h.ref_search(p, limit=1, lexmin=True)
    check(done, "reference")
    eq(k.req("LEXMIN " + p), want, "LEXMIN multi")
    # a sparse one: first row given only
    p = "987654321" + "." * 72
    _, want, done = h.ref_search(p, limit=1, lexmin=True)
    eq(k.req("LEXMIN " + p), want, "LEXMIN first row 987654321")


@T.case("COUNT default limit -> 1 (proper), 2 (at least 2)")
def _(c):
    k = c.connect()
    eq(k.req("COUNT " + h.CLASSIC), "1", "COUNT classic")
    eq(k.req("COUNT " + h.EMPTY), "2", "COUNT empty")
    p, _ = multi_solution_puzzle()
    eq(k.req("COUNT " + p), "2", "COUNT multi")


@T.case("COUNT explicit limits -> exact counts, capped at limit")
def _(c):
    k = c.connect()
    eq(k.req("COUNT " + h.EMPTY + " 10"), "10", "COUNT empty 10")
    eq(k.req("COUNT " + h.EMPTY + " 1"), "1", "COUNT empty 1")
    eq(k.req("COUNT " + h.EMPTY + " 1000"), "1000", "COUNT empty 1000")
    eq(k.req("COUNT " + h.CLASSIC + " 1000"), "1", "COUNT classic 1000")
    p, n = multi_solution_puzzle()
    eq(k.req("COUNT %s 1000" % p), str(n), "COUNT multi 1000")
    eq(k.req("COUNT %s %d" % (p, n)), str(n), "COUNT multi n")
    eq(k.req("COUNT %s %d" % (p, n - 1)), str(n - 1), "COUNT multi n-1")


@T.case("COUNT out-of-range or non-numeric limit -> ERR syntax")
def _(c):
    k = c.connect()
    for lim in ("0", "1001", "-1", "abc", "1.5", "10x", "99999999999999999999",
                "0x10"):
        got = k.req("COUNT %s %s" % (h.CLASSIC, lim))
        check(got.startswith("ERR syntax "),
              "COUNT limit %r: expected ERR syntax ..., got %r" % (lim, got))
    got = k.req("COUNT %s 10 10" % h.CLASSIC)
    check(got.startswith("ERR syntax "), "COUNT with 3 args: %r" % got)
    eq(k.req("PING"), "PONG", "still usable")


@T.case("COUNT on an unsolvable puzzle -> 0, not ERR nosolution")
def _(c):
    k = c.connect()
    eq(k.req("COUNT " + wrong_given(h.CLASSIC)), "0", "COUNT unsolvable")
    eq(k.req("COUNT " + "12345678." + "........9" + "." * 63 + " 5"), "0",
       "COUNT trivially unsolvable")


@T.case("PING -> PONG, VERSION -> configure's version")
def _(c):
    k = c.connect()
    eq(k.req("PING"), "PONG", "PING")
    eq(k.req("VERSION"), "VERSION " + h.package_version(), "VERSION")


@T.case("HELP -> the lines of protocol.md, then END")
def _(c):
    k = c.connect()
    eq(k.block("HELP"), doc_help_lines(), "HELP reply")
    eq(k.req("PING"), "PONG", "after HELP")


def doc_stat_names(k):
    """The names of protocol.md's STATS table, in order, each family
    spelt out: the latency pair of each verb HELLO lists."""
    with open(os.path.join(h.TOP_SRCDIR, "doc", "protocol.md")) as f:
        names = protodoc.stat_names(f.read(), "md")
    hello = dict(t.split("=", 1) for t in k.req("HELLO").split()[1:])
    verbs = hello["verbs"].lower().split(",")
    return protodoc.expand_stats(names, {"<verb>": verbs})


@T.case("STATS -> the names of protocol.md's table in its order, integer "
        "values, then END")
def _(c):
    k = c.connect()
    names = doc_stat_names(k)
    before = time.time()
    st = k.stats()
    after = time.time()
    eq(list(st), names, "the STAT names")
    for name, v in st.items():
        if name != "version":
            check(re.fullmatch(r"[0-9]+", v),
                  "STAT %s %r is not a decimal integer" % (name, v))
    eq(int(st["pid"]), c.d.pid, "STAT pid")
    eq(st["version"], h.package_version(), "STAT version")
    eq(int(st["workers"]), 2, "STAT workers")
    # The daemon's clock read between our two, in whole seconds.
    check(int(before) <= int(st["time"]) <= after, "STAT time %s, read "
          "between %.1f and %.1f" % (st["time"], before, after))
    # No older than this file's run (the shared daemon started in it).
    check(int(st["uptime"]) <= time.monotonic() - T.start + 1,
          "STAT uptime %s, this file started %.0f s ago"
          % (st["uptime"], time.monotonic() - T.start))
    check(int(st["curr_connections"]) >= 1, "curr_connections")


@T.case("STAT time just after a second begins is that second, not the one "
        "before", transports=(None,))
def _(c):
    # time(2) reads the clock of the last timer tick, which for a few ms
    # after a second begins still gives the second before; the daemon
    # must read the clock its clients read.  So ask just after a second
    # begins, a few times: the reply may never be older than a reading
    # taken before the request, however long the request takes.
    k = c.connect()
    for _ in range(3):
        second = int(time.time()) + 1
        time.sleep(max(0.0, second - time.time() - 0.02))
        while time.time() < second:
            pass
        before = time.time()
        got = int(k.stats()["time"])
        check(got >= int(before), "STAT time %d, but the clock read %.6f "
              "before the request" % (got, before))


@T.case("STATS uptime advances with time", transports=(None,))
def _(c):
    # The two snapshots were taken somewhere within the moments around
    # them: whole seconds between floor(the least) and ceil(the most
    # time that can have passed), however long the requests took.
    k = c.connect()
    t0 = time.monotonic()
    s1 = h.stats_ints(k.stats())
    t1 = time.monotonic()
    time.sleep(1.1)
    t2 = time.monotonic()
    s2 = h.stats_ints(k.stats())
    t3 = time.monotonic()
    least, most = int(t2 - t1), int(t3 - t0) + 1
    for key in ("uptime", "time"):
        check(least <= s2[key] - s1[key] <= most, "%s %d -> %d, %.2f to "
              "%.2f s apart" % (key, s1[key], s2[key], t2 - t1, t3 - t0))


@T.case("STATS counters move as requests arrive")
def _(c):
    k = c.connect()
    check(h.wait_for(lambda: h.stats_ints(k.stats())["curr_connections"] == 1,
                     10), "other connections still open")
    s1 = h.stats_ints(k.stats())
    others = [c.connect() for _ in range(3)]
    for o in others:
        eq(o.req("PING"), "PONG", "PING on another connection")
    eq(k.req("PING"), "PONG", "PING")
    eq(k.req("ping"), "PONG", "ping")
    eq(k.req("1234x" + "." * 76), "ERR char bad character 'x' (0x78) at "
       "position 5", "char error")
    eq(k.req("SOLVE " + h.CLASSIC), h.CLASSIC_SOLUTION, "SOLVE")
    eq(k.req(h.CLASSIC), h.CLASSIC_SOLUTION, "bare")
    eq(k.req("LEXMIN " + h.CLASSIC), h.CLASSIC_SOLUTION, "LEXMIN")
    eq(k.req("COUNT " + h.EMPTY + " 3"), "3", "COUNT")
    eq(k.req("COUNT " + wrong_given(h.CLASSIC)), "0", "COUNT unsolvable")
    eq(k.req("VERSION"), "VERSION " + h.package_version(), "VERSION")
    k.block("HELP")
    eq(k.req("FOO"), "ERR syntax unknown command 'FOO', try HELP", "FOO")
    eq(k.req("1" * 80), "ERR length expected 81 cells, found 80", "length")
    s2 = h.stats_ints(k.stats())
    d = {n: s2[n] - s1[n] for n in s1 if n != "version"}
    want = {"cmd_ping": 5, "err_char": 1, "total_connections": 3,
            "cmd_solve": 4, "cmd_lexmin": 1, "cmd_count": 2,
            "cmd_version": 1, "cmd_help": 1, "cmd_stats": 1,
            "err_syntax": 1, "err_length": 1, "solved": 4, "unsolvable": 1,
            "err_conflict": 0, "err_budget": 0, "err_toolong": 0,
            "rejected_connections": 0, "cmd_quit": 0}
    bad = ["%s %+d (want %+d)" % (n, d[n], w) for n, w in want.items()
           if d[n] != w]
    check(not bad, "STATS deltas wrong: " + ", ".join(bad))
    check(d["guesses"] >= 1, "guesses did not rise (COUNT empty 3)")
    check(d["bytes_written"] >= 300, "bytes_written rose only %d"
          % d["bytes_written"])
    check(d["bytes_read"] >= 600, "bytes_read rose only %d" % d["bytes_read"])
    eq(s2["curr_connections"] - s1["curr_connections"], 3,
       "curr_connections with 3 more open")
    for o in others:
        o.close()
    ok = h.wait_for(lambda: h.stats_ints(k.stats())["curr_connections"]
                    == s1["curr_connections"], 10)
    check(ok, "curr_connections did not drop back after 3 closes")


@T.case("STATS bytes_read counts exactly the bytes received")
def _(c):
    k = c.connect()
    s1 = h.stats_ints(k.stats())
    eq(k.req("PING"), "PONG", "PING")
    s2 = h.stats_ints(k.stats())
    # between the two replies the daemon read "PING\n" and "STATS\n"
    eq(s2["bytes_read"] - s1["bytes_read"], 11, "bytes_read delta")


@T.case("STATS bytes_written counts exactly the bytes sent back")
def _(c):
    # A reply reaches its client a moment before its worker adds it to
    # bytes_written, so a reply of an earlier case (on another worker)
    # may land between the snapshots: measure again, a few times at most.
    for attempt in range(5):
        k = c.connect()
        k.send("STATS\n")
        lines = []
        while not lines or lines[-1] != "END":
            lines.append(k.line())
        first = sum(len(ln) + 1 for ln in lines)
        s1 = dict(ln.split(" ", 2)[1:] for ln in lines[:-1])
        eq(k.req("PING"), "PONG", "PING")
        s2 = k.stats()
        # between the two snapshots: the first STATS reply and "PONG\n"
        delta = int(s2["bytes_written"]) - int(s1["bytes_written"])
        if delta == first + 5:
            break
        time.sleep(0.2)
    eq(delta, first + 5, "bytes_written delta")


@T.case("unsolvable puzzles move err_nosolution, unsolvable, guesses, "
        "solve_usec")
def _(c):
    k = c.connect()
    bad = [wrong_given(p) for p in
           h.load_puzzles("puzzles6_forum_hardest_1106", 5)]
    s1 = h.stats_ints(k.stats())
    t0 = time.monotonic()
    for p in bad:
        eq(k.req(p), "ERR nosolution the puzzle has no solution", "SOLVE")
    for p in bad[:2]:
        eq(k.req("COUNT " + p), "0", "COUNT")
    for p in h.load_puzzles("puzzles6_forum_hardest_1106", 30):
        h.check_solution(p, k.req(p))
    s2 = h.stats_ints(k.stats())
    wall_us = (time.monotonic() - t0) * 1e6
    eq(s2["err_nosolution"] - s1["err_nosolution"], 5, "err_nosolution")
    used = s2["solve_usec"] - s1["solve_usec"]
    check(used <= wall_us, "solve_usec rose by %d in %d us of wall time "
          "(one connection, so at most the wall time)" % (used, wall_us))
    eq(s2["unsolvable"] - s1["unsolvable"], 7, "unsolvable")
    eq(s2["solved"] - s1["solved"], 30, "solved")
    check(s2["guesses"] - s1["guesses"] >= 30, "guesses rose by %d for 30 "
          "hardest puzzles" % (s2["guesses"] - s1["guesses"]))
    check(s2["solve_usec"] > s1["solve_usec"], "solve_usec did not rise")


@T.case("QUIT -> BYE then close; later requests in the same write ignored")
def _(c):
    k = c.connect()
    s1 = c.stats()
    k.send("PING\nQUIT\nPING\nVERSION\n")
    eq(k.line(), "PONG", "reply before QUIT")
    eq(k.line(), "BYE", "QUIT reply")
    k.expect_eof(what="close after BYE")
    s2 = c.stats()
    eq(s2["cmd_quit"] - s1["cmd_quit"], 1, "cmd_quit delta")
    eq(s2["cmd_ping"] - s1["cmd_ping"], 1, "cmd_ping delta (PING after QUIT)")


@T.case("QUIT after a slow request -> its reply first, then BYE")
def _(c):
    k = c.connect()
    hard = h.load_puzzles("puzzles6_forum_hardest_1106", 4)
    k.send("".join("SOLVE %s\n" % p for p in hard) + "quit\n")
    for p in hard:
        h.check_solution(p, k.line())
    eq(k.line(), "BYE", "quit reply")
    k.expect_eof(what="close after BYE")


@T.case("verbs are case-insensitive")
def _(c):
    k = c.connect()
    for v in ("ping", "Ping", "pInG"):
        eq(k.req(v), "PONG", v)
    eq(k.req("version"), "VERSION " + h.package_version(), "version")
    eq(k.req("Version"), "VERSION " + h.package_version(), "Version")
    eq(k.req("solve " + h.CLASSIC), h.CLASSIC_SOLUTION, "solve")
    eq(k.req("Solve " + h.CLASSIC), h.CLASSIC_SOLUTION, "Solve")
    eq(k.req("lexmin " + h.EMPTY), h.EMPTY_LEXMIN, "lexmin")
    eq(k.req("Count " + h.EMPTY + " 7"), "7", "Count")
    eq(k.block("help"), doc_help_lines(), "help")
    check("pid" in k.stats() and True, "stats")
    st = k.block("Stats")
    check(st and st[0].startswith("STAT "), "Stats")
    eq(k.req("qUiT"), "BYE", "qUiT")
    k.expect_eof()


@T.case("blanks: leading, trailing and repeated separators are ignored")
def _(c):
    k = c.connect()
    eq(k.req("  PING"), "PONG", "leading spaces")
    eq(k.req("PING \t "), "PONG", "trailing blanks")
    eq(k.req("\tPING\t"), "PONG", "tabs")
    eq(k.req("SOLVE  \t  " + h.CLASSIC + "  "), h.CLASSIC_SOLUTION,
       "repeated separators")
    eq(k.req("  " + h.CLASSIC + "\t"), h.CLASSIC_SOLUTION,
       "bare puzzle with blanks around")
    eq(k.req("COUNT\t" + h.EMPTY + "  \t 4 "), "4", "COUNT with tabs")
    eq(k.req("SOLVE\t" + h.CLASSIC), h.CLASSIC_SOLUTION, "SOLVE<TAB>")


@T.case("CRLF -> identical replies (CR stripped)")
def _(c):
    k = c.connect()
    k.send("PING\r\nSOLVE %s\r\n%s\r\nCOUNT %s 5\r\n" % (
        h.CLASSIC, h.CLASSIC, h.EMPTY))
    eq(k.lines(4), ["PONG", h.CLASSIC_SOLUTION, h.CLASSIC_SOLUTION, "5"],
       "CRLF replies")
    k.send("HELP\r\n")
    eq(k.lines(len(doc_help_lines()) + 1), doc_help_lines() + ["END"],
       "HELP with CRLF")
    eq(k.req("1" * 80 + "\r"), "ERR length expected 81 cells, found 80",
       "80 cells + CRLF")


@T.case("empty and blank lines get no reply")
def _(c):
    k = c.connect()
    k.send("\n\nPING\n")
    eq(k.line(), "PONG", "after two empty lines")
    k.send("   \n\t\n \t \r\n\r\n")
    check(k.quiet(0.3), "blank lines got a reply: %r" % k.buf)
    eq(k.req("PING"), "PONG", "after blank lines")
    check(k.quiet(0.2), "extra bytes: %r" % k.buf)


@T.case("consistent givens without a solution -> ERR nosolution")
def _(c):
    k = c.connect()
    trivial = "12345678." + "........9" + "." * 63
    n, _, done = h.ref_search(trivial, limit=1, lexmin=False)
    check(done and n == 0 and h.givens_consistent(h.parse_grid(trivial)),
          "reference")
    want = "ERR nosolution the puzzle has no solution"
    eq(k.req(trivial), want, "no candidate for r1c9")
    eq(k.req("SOLVE " + wrong_given(h.CLASSIC)), want, "classic + wrong given")
    hard = h.load_puzzles("puzzles6_forum_hardest_1106", 3)
    for p in hard:
        eq(k.req("SOLVE " + wrong_given(p)), want, "hardest + wrong given")
    eq(k.req("LEXMIN " + wrong_given(hard[0])), want, "LEXMIN")
    eq(k.req("PING"), "PONG", "usable")


@T.case("budget = 1 on hardest puzzles -> ERR budget or a valid solution",
        daemon={"workers": 2, "budget": 1})
def _(c):
    k = c.connect()
    s1 = c.stats()
    budget = 0
    ps = h.load_puzzles("puzzles6_forum_hardest_1106", 20)
    for p in ps:
        got = k.req("SOLVE " + p)
        if got.startswith("ERR "):
            eq(got, "ERR budget search budget of 1 guesses exceeded",
               "budget reply")
            budget += 1
        else:
            h.check_solution(p, got)
    check(budget >= 1, "no hardest puzzle ran out of a budget of 1 guess")
    s2 = c.stats()
    eq(s2["err_budget"] - s1["err_budget"], budget, "err_budget delta")


@T.case("COUNT on an empty grid with a big limit and a small budget -> "
        "ERR budget", daemon={"workers": 2, "budget": 100})
def _(c):
    k = c.connect()
    eq(k.req("COUNT %s 1000" % h.EMPTY),
       "ERR budget search budget of 100 guesses exceeded", "COUNT empty 1000")
    p, _ = multi_solution_puzzle()
    eq(k.req("COUNT %s 2" % p), "2", "COUNT 2 on a nearly full grid")
    eq(k.req("PING"), "PONG", "usable")


@T.case("count_max from the config bounds the COUNT limit",
        daemon={"workers": 1, "count_max": 50})
def _(c):
    k = c.connect()
    eq(k.req("COUNT %s 50" % h.EMPTY), "50", "limit == count_max")
    got = k.req("COUNT %s 51" % h.EMPTY)
    check(got.startswith("ERR syntax "), "limit > count_max: %r" % got)
    eq(int(c.stats()["workers"]), 1, "STAT workers")


if __name__ == "__main__":
    sys.exit(T.run())
