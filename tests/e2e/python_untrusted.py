#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
python_untrusted.py -- what the Python client (python/sudokud) does
with a server it cannot trust and with arguments that do not fit
(issue 31), against fake servers (fake_server.py) that lie as a
hostile server would; no daemon.

One exception tree under sudokud.SudokudError; every argument checked
before anything is sent (nothing reaches the server); a call's deadline
(its timeout) bounds a server that answers late or trickles, and a
timeout closes the connection, so that the late reply is never read as
the next request's (the next call connects again); a reply a version 2
sudokud would not send (a wrong answer, five copies of a solution, a
pair of replies swapped, bytes that are no text, a line or a list
without end) raises sudokud.ProtocolError; deadline= goes out in
milliseconds.  AUTH (issue 30) against a fake server that asks for it
as sudokud does: the secret sent first on every connection, a wrong one
or a server without one sudokud.AuthError, a request before AUTH too,
a secret that could not go out refused before anything is sent.
"""

import builtins
import os
import sys
import tempfile
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
from fake_server import (FakeServer, Raw, Slow,        # noqa: E402
                         puzzle_of, solution, swapped)
from reference import ref_solutions                     # noqa: E402

sys.path.insert(0, os.path.join(h.TOP_SRCDIR, "python"))
import sudokud                                          # noqa: E402

T = h.Tap()
ONE = (None,)
CLASSIC, SOLUTION, EMPTY = h.CLASSIC, h.CLASSIC_SOLUTION, "." * 81
# CLASSIC with its digits 1 and 2 exchanged: another puzzle, whose
# solution is CLASSIC's so relabelled.
OTHER = CLASSIC.translate(str.maketrans("12", "21"))


def honest(line):
    """What sudokud answers to SOLVE (any other verb: ERR syntax)."""
    if line.startswith("SOLVE "):
        return solution(puzzle_of(line))
    return "ERR syntax unknown command"


def serving(answer, timeout=5):
    """A fake server answering answer(line), and a client of it."""
    s = FakeServer(answer)
    return s, sudokud.Client(s.name[4:], timeout=timeout)


def fails(exc, what, fn, *args, **kw):
    """fn(*args, **kw) raises exc (not a subclass of it only by
    accident: any other exception, or none, fails); the exception."""
    try:
        got = fn(*args, **kw)
    except exc as e:
        return e
    except Exception as e:                      # noqa: BLE001
        raise h.Fail("%s: %r, not %s" % (what, e, exc.__name__))
    raise h.Fail("%s: no %s, returned %r" % (what, exc.__name__,
                                             str(got)[:100]))


@T.case("one exception tree: SudokudError over ConnectionError, "
        "TimeoutError, ProtocolError and Error (InputError under it), each "
        "also the built-in of its name", transports=ONE, daemonless=True)
def _(c):
    S = sudokud
    for cls, builtin in ((S.ConnectionError, builtins.ConnectionError),
                         (S.TimeoutError, builtins.TimeoutError),
                         (S.ProtocolError, Exception), (S.Error, Exception),
                         (S.InputError, ValueError)):
        check(issubclass(cls, S.SudokudError) and issubclass(cls, builtin),
              "%s: %s" % (cls.__name__, cls.__mro__))
    check(issubclass(S.InputError, S.Error), "InputError is an Error")
    e = fails(S.ConnectionError, "a socket that is not there",
              S.Client, "unix:/nonexistent/sudokud.sock", timeout=5)
    check(isinstance(e, OSError), "an OSError too: %r" % (e,))
    s = FakeServer(lambda line: None)           # never answers
    try:
        with sudokud.Client(s.name[4:], timeout=0.5) as k:
            fails(S.TimeoutError, "a server that never answers", k.solve,
                  CLASSIC)
    finally:
        s.close()


@T.case("a timeout closes the connection: the late GENERATE reply is not "
        "read as the next SOLVE's, which connects again",
        transports=ONE, daemonless=True)
def _(c):
    def answer(line):
        if line.startswith("GENERATE"):
            return Slow([CLASSIC], 1.0)         # a second late
        return honest(line)
    s, k = serving(answer, 0.3)
    try:
        t0 = time.monotonic()
        fails(sudokud.TimeoutError, "generate() answered late",
              k.generate, "hard", seed=1000)
        took = time.monotonic() - t0
        check(0.25 <= took <= 4.5, "raised after %.2f s, timeout 0.3" % took)
        time.sleep(1.5)                          # the late reply came
        k.timeout = 5
        eq(k.solve(OTHER), solution(OTHER), "the next call's answer")
        eq(len(s.threads), 2, "connections made")
    finally:
        k.close()
        s.close()


@T.case("every argument is checked before anything is sent: a puzzle "
        "with a line break, CR, NUL, a blank, '=' or a non-ASCII character, "
        "of a wrong length, a limit not an int, clues= from 30 to 20, a "
        "request line of two lines, with DEL or blank; sudokud.InputError, "
        "an Error and a ValueError",
        transports=ONE, daemonless=True)
def _(c):
    got = []
    s, k = serving(lambda line: got.append(line) or honest(line))
    try:
        for i, (code, fn, args, *kw) in enumerate((
                ("char", k.solve, (CLASSIC[:40] + "\n" + CLASSIC[41:],)),
                ("char", k.solve, (CLASSIC[:80] + "\r",)),
                ("char", k.solve, ("\x00" + CLASSIC[1:],)),
                ("char", k.solve, (CLASSIC[:9] + " " + CLASSIC[10:],)),
                ("char", k.lexmin, (CLASSIC[:9] + "=" + CLASSIC[10:],)),
                ("char", k.count, (CLASSIC[:80] + "\u00e9",)),
                ("length", k.solve, (CLASSIC[:80],)),
                ("length", k.solve, (CLASSIC + "\n",)),
                ("syntax", k.count, (CLASSIC, 2.5)),
                ("syntax", k.count, (CLASSIC, True)),
                ("syntax", k.solve, (CLASSIC,), {"deadline": 86401}),
                ("char", k.request, ("PING\nSOLVE " + CLASSIC,)),
                ("char", k.request, ("PING\x7f",)),
                ("syntax", k.generate, ("easy",), {"clues": (30, 20)}),
                ("syntax", k.request, ("  ",)))):
            e = fails(sudokud.InputError, "argument %d" % i, fn, *args,
                      **(kw[0] if kw else {}))
            check(isinstance(e, sudokud.Error) and isinstance(e, ValueError)
                  and e.code == code, "%d: %r, code %s" % (i, e, e.code))
        eq(k.solve(CLASSIC), SOLUTION, "the next call")
        eq(got, ["SOLVE " + CLASSIC], "what the server got")
    finally:
        k.close()
        s.close()


@T.case("deadline= in milliseconds on the wire, rounded up: 0.25 s is "
        "deadline=250", transports=ONE, daemonless=True)
def _(c):
    got = []
    s, k = serving(lambda line: got.append(line) or honest(line))
    try:
        for secs, ms in ((0.25, 250), (2, 2000), (1.5, 1500), (0.0001, 1),
                         (86400, 86400000)):
            eq(k.solve(CLASSIC, deadline=secs), SOLUTION, "answered")
            eq(got.pop(), "SOLVE %s deadline=%d" % (CLASSIC, ms),
               "deadline=%r s" % secs)
    finally:
        k.close()
        s.close()


@T.case("a server that lies: a solution that is no solution, SOLUTIONS "
        "repeated, too many or out of order, a count above the limit, a "
        "score of three digits, an "
        "ERR code SOLVE cannot get, bytes that are no text: ProtocolError; "
        "the next call connects again", transports=ONE, daemonless=True)
def _(c):
    five = ref_solutions(EMPTY, 5)[0]
    lies = [
        ("banana", lambda k: k.solve(CLASSIC), "banana"),
        ("a grid two digits swapped", lambda k: k.solve(CLASSIC),
         swapped(CLASSIC)),
        ("OTHER's solution", lambda k: k.lexmin(CLASSIC), solution(OTHER)),
        ("five copies", lambda k: k.solutions(EMPTY, 5),
         [five[0]] * 5 + ["END"]),
        ("50 for 5", lambda k: k.solutions(EMPTY, 5),
         ref_solutions(EMPTY, 50)[0] + ["END"]),
        ("largest first", lambda k: k.solutions(EMPTY, 5),
         five[::-1] + ["END"]),
        ("a count of 7 to 2", lambda k: k.count(EMPTY, 2), "7"),
        ("a score of three digits", lambda k: k.rate(CLASSIC),
         "easy 1.05 naked_single"),
        ("ERR wrong to SOLVE", lambda k: k.solve(CLASSIC), "ERR wrong r1c1"),
        ("0xff bytes", lambda k: k.solve(CLASSIC), b"\xff" * 81),
        ("an ESC", lambda k: k.solve(CLASSIC), SOLUTION[:80] + "\x1b"),
    ]
    lie = {}
    s, k = serving(lambda line: lie["reply"])
    try:
        for what, call, reply in lies:
            lie["reply"] = reply
            fails(sudokud.ProtocolError, what, call, k)
            lie["reply"] = SOLUTION
            eq(k.solve(CLASSIC), SOLUTION, "after " + what)
        eq(len(s.threads), len(lies) + 1, "a connection after each lie")
    finally:
        k.close()
        s.close()


@T.case("solve_many against a server that swaps each pair of replies: "
        "ProtocolError, no puzzle given the other's answer",
        transports=ONE, daemonless=True)
def _(c):
    held = []

    def answer(line):
        held.append(solution(puzzle_of(line)))
        if len(held) < 2:
            return None
        pair = held[::-1]
        del held[:]
        return pair
    s, k = serving(answer)
    try:
        fails(sudokud.ProtocolError, "replies swapped",
              lambda: list(k.solve_many([CLASSIC, OTHER] * 2, window=4)))
    finally:
        k.close()
        s.close()


def endless(piece, most=32 << 20):
    """piece again and again, up to most bytes (a bound that only the
    client of before, which read on, ever saw the end of)."""
    return iter([piece] * (most // len(piece)))


@T.case("replies bounded by what the verb can send: a 2 MB line, a line "
        "without end, STATS without end: ProtocolError; a server trickling "
        "a byte at a time: TimeoutError at the call's deadline",
        transports=ONE, daemonless=True)
def _(c):
    for what, reply, call in (
            ("a 2 MB line", "1" * (2 << 20), lambda k: k.solve(CLASSIC)),
            ("a line without end", Raw(endless(b"1" * 65536)),
             lambda k: k.solve(CLASSIC)),
            ("STATS without end", Raw(endless(b"STAT x 1\n" * 1000)),
             lambda k: k.stats())):
        s, k = serving(lambda line, reply=reply: reply)
        try:
            fails(sudokud.ProtocolError, what, call, k)
        finally:
            k.close()
            s.close()
    drip = [bytes([b]) for b in (SOLUTION + "\n").encode()]
    s, k = serving(lambda line: Raw(drip, 0.1), 2)     # 8.2 s in all
    try:
        t0 = time.monotonic()
        fails(sudokud.TimeoutError, "a trickle", k.solve, CLASSIC)
        took = time.monotonic() - t0
        check(1 <= took <= 4.5, "raised after %.2f s, timeout 2" % took)
    finally:
        k.close()
        s.close()


@T.case("generate() with a deadline is a Generated however it falls: the "
        "exact answer (no level=) has the level asked (the default "
        "medium), the nearest one its level=; without one a str",
        transports=ONE, daemonless=True)
def _(c):
    reply = {"GENERATE": CLASSIC}
    s, k = serving(lambda line: reply[line.split(" ")[0]])
    try:
        G = sudokud.Generated
        eq(k.generate("hard", 1, deadline=5), G(CLASSIC, None, "hard"),
           "in time")
        eq(k.generate(deadline=5), G(CLASSIC, None, "medium"), "default")
        eq(k.generate("hard", 1), CLASSIC, "no deadline: the puzzle")
        reply["GENERATE"] = CLASSIC + " level=easy"
        eq(k.generate("hard", 1, deadline=5), G(CLASSIC, None, "easy"),
           "late: the nearest level")
    finally:
        k.close()
        s.close()


def authed(secret="s3cret", answer=honest):
    """A fake server that asks for AUTH with secret ("" none set)."""
    got = []
    s = FakeServer(lambda line: got.append(line) or answer(line),
                   auth=secret)
    return s, got


@T.case("AUTH: the right secret is sent first on every connection, "
        "before a pipelined batch and again after a reconnection; "
        "auth_file= too; hello() says auth=required", transports=ONE,
        daemonless=True)
def _(c):
    hello = ("HELLO server=sudokud version=0.2.0 proto=2 budget=100000 "
             "auth=required")
    s, got = authed(answer=lambda line: hello if line == "HELLO"
                    else honest(line))
    try:
        with sudokud.Client(s.name[4:], timeout=5, auth="s3cret") as k:
            eq(list(k.solve_many([CLASSIC, OTHER] * 3, window=4)),
               [SOLUTION, solution(OTHER)] * 3, "a batch after AUTH")
            eq((k.hello()["auth"], s.auths), ("required", 1), "hello()")
            k.close()
            eq(list(k.solve_many([OTHER])), [solution(OTHER)],
               "a batch after a reconnection")
            eq((s.auths, len(s.threads)), (2, 2), "an AUTH a connection")
        fd, path = tempfile.mkstemp(prefix="sudokud-auth.")
        try:
            os.write(fd, b"s3cret\n")
            os.close(fd)
            with sudokud.Client(s.name[4:], timeout=5,
                                auth_file=path) as k:
                eq(k.solve(CLASSIC), SOLUTION, "auth_file=")
        finally:
            os.unlink(path)
        eq(s.auths, 3, "auth_file's AUTH")
        eq(got, ["SOLVE " + p for p in [CLASSIC, OTHER] * 3] +
           ["HELLO", "SOLVE " + OTHER, "SOLVE " + CLASSIC],
           "the server's requests, each after AUTH")
    finally:
        s.close()


@T.case("AUTH refused: a wrong secret, a server with none set: "
        "sudokud.AuthError (an Error, code noauth, request AUTH without "
        "the secret), the connection closed; a request before AUTH "
        "(none given; a pipelined batch, each in its place) is an "
        "AuthError too, and "
        "the connection stays", transports=ONE, daemonless=True)
def _(c):
    for secret, text in (("other", "wrong secret"),
                         ("", "no secret is set on this server "
                          "(auth_file)")):
        s, got = authed(secret)
        try:
            e = fails(sudokud.AuthError, "AUTH to %r" % secret,
                      sudokud.Client, s.name[4:], timeout=5,
                      auth="s3cret")
            eq((e.code, e.text, e.request), ("noauth", text, "AUTH"),
               "the AuthError")
            check(isinstance(e, sudokud.Error) and "s3cret" not in str(e),
                  "an Error, the secret not in it: %r" % (e,))
            eq((got, s.auths), ([], 1), "nothing sent after AUTH")
            check(h.wait_for(lambda: s.closed == 1, 5), "not closed")
        finally:
            s.close()
    s, got = authed()
    try:
        with sudokud.Client(s.name[4:], timeout=5) as k:
            e = fails(sudokud.AuthError, "SOLVE before AUTH", k.solve,
                      CLASSIC)
            eq((e.code, e.text, e.request), ("noauth", "authentication "
               "required: AUTH <secret> first", "SOLVE " + CLASSIC),
               "a request before AUTH")
            batch = list(k.solve_many([CLASSIC, OTHER], errors=True))
            check(all(isinstance(e, sudokud.AuthError) for e in batch),
                  "a batch before AUTH: %r" % (batch,))
            eq(k.request("AUTH s3cret"), "OK", "AUTH by request()")
            eq(list(k.solve_many([CLASSIC, OTHER])),
               [SOLUTION, solution(OTHER)], "a batch after it")
            eq(len(s.threads), 1, "one connection throughout")
    finally:
        s.close()


@T.case("a secret is checked before anything is sent: empty, 257 bytes, a "
        "blank, a line break, non-ASCII, not a str, auth and auth_file "
        "both, an auth_file missing: InputError, no connection",
        transports=ONE, daemonless=True)
def _(c):
    s, _ = authed()
    try:
        for what, kw in (("empty", {"auth": ""}),
                         ("257 bytes", {"auth": "x" * 257}),
                         ("a blank", {"auth": "a b"}),
                         ("a line break", {"auth": "ab\nPING"}),
                         ("non-ASCII", {"auth": "caf\u00e9"}),
                         ("bytes", {"auth": b"secret"}),
                         ("both", {"auth": "a", "auth_file": "/dev/null"}),
                         ("a missing file",
                          {"auth_file": "/nonexistent/secret"})):
            fails(sudokud.InputError, what, sudokud.Client, s.name[4:],
                  timeout=5, **kw)
        eq(len(s.threads), 0, "connections made")
        fails(sudokud.AuthError, "256 bytes, another secret",
              sudokud.Client, s.name[4:], timeout=5, auth="~" * 256)
        eq(s.auths, 1, "256 bytes sent")
    finally:
        s.close()


def grids(rng, n):
    """n solution grids: CLASSIC's, its digits relabelled, rows swapped
    within bands and bands swapped, columns likewise, maybe
    transposed."""
    base = [SOLUTION[r * 9:r * 9 + 9] for r in range(9)]
    for _ in range(n):
        digits = rng.sample("123456789", 9)
        rows = [b * 3 + r for b in rng.sample(range(3), 3)
                for r in rng.sample(range(3), 3)]
        cols = [b * 3 + c for b in rng.sample(range(3), 3)
                for c in rng.sample(range(3), 3)]
        g = [[digits[int(base[r][c]) - 1] for c in cols] for r in rows]
        if rng.random() < 0.5:
            g = [list(col) for col in zip(*g)]
        yield "".join("".join(row) for row in g)


def spoiled(rng, sol):
    """sol, or sol made wrong one of the ways a server could."""
    cells = list(sol)
    i, j = rng.randrange(81), rng.randrange(81)
    how = rng.randrange(7)
    if how == 1:
        cells[i], cells[j] = cells[j], cells[i]         # may be a no-op
    elif how == 2:
        cells[i] = rng.choice("1234567890.x")
    elif how == 3:                                      # a row turned
        r = rng.randrange(9) * 9
        cells[r:r + 9] = cells[r + 1:r + 9] + cells[r:r + 1]
    elif how == 4:                                      # a 9 moved
        k = rng.choice([n for n, ch in enumerate(cells) if ch == "9"])
        cells[k], cells[i] = cells[i], cells[k]
    elif how == 5:
        return sol[:80] if rng.random() < 0.5 else sol + sol[0]
    elif how == 6:
        a, b = rng.sample("123456789", 2)               # still a grid
        cells = [b if ch == a else a if ch == b else ch for ch in cells]
    return "".join(cells)


@T.case("the client's checks of a solution (one at a time, and a batch's "
        "at once) agree with the reference's checker on 20,000 grids, "
        "right and wrong: swapped cells, a digit changed, a row turned, a "
        "9 moved, a length off, digits relabelled, givens kept or not",
        transports=ONE, daemonless=True)
def _(c):
    import random
    from sudokud.checks import all_solve, solves
    rng = random.Random(31)
    group, size, groups = [], 1, 0
    for sol in grids(rng, 20000):
        puzzle = "".join(ch if rng.random() < 0.3 else "."
                         for ch in sol)
        got = spoiled(rng, sol)
        want = h.solution_problem(puzzle, got) is None
        eq(solves(puzzle.encode(), got.encode("ascii", "replace")), want,
           "solves(%s, %s)" % (puzzle, got))
        group.append((puzzle, got, want))
        if len(group) == size:
            eq(all_solve([g[0] for g in group], [g[1] for g in group]),
               all(g[2] for g in group), "all_solve of %r" % (group,))
            group, size, groups = [], rng.randrange(1, 40), groups + 1
    check(groups > 500, "%d groups" % groups)


@T.case("a batch whose 37th answer of 64 is wrong (two digits swapped, a "
        "given changed, another puzzle's, 80 digits): the 36 before it "
        "answered right, then ProtocolError", transports=ONE,
        daemonless=True)
def _(c):
    puzzles = [CLASSIC, OTHER] * 32
    for what, lie in (("swapped", swapped(CLASSIC)),
                      ("a given changed", "6" + SOLUTION[1:]),
                      ("another's", solution(OTHER)),
                      ("80 digits", SOLUTION[:80])):
        asked = []

        def answer(line, lie=lie):
            asked.append(line)
            return lie if len(asked) == 37 else honest(line)
        s, k = serving(answer)
        try:
            got = []
            e = fails(sudokud.ProtocolError, what, lambda: got.extend(
                k.solve_many(puzzles, window=64)))
            eq(got, [solution(p) for p in puzzles[:36]], what + ": before")
            check(what in ("80 digits",) or "not a solution" in str(e),
                  str(e))
        finally:
            k.close()
            s.close()


@T.case("each method's signature (methods.py, the one body of the sync "
        "and asyncio clients) is the one its declared type has (verbs.py): "
        "the same parameters and kinds in every overload, a default only "
        "where the method has one",
        transports=ONE, daemonless=True)
def _(c):
    import inspect
    import types
    import typing
    from sudokud import methods, verbs
    if not hasattr(typing, "get_overloads"):
        c.note("typing.get_overloads needs Python 3.11: not compared")
        return

    def shape(sig, skip):
        return [(p.name, p.kind, p.default is not inspect.Parameter.empty)
                for p in list(sig.parameters.values())[skip:]]
    eq(sorted(verbs.NAMES), sorted(verbs.AsyncVerbs.__annotations__),
       "the same methods sync and asyncio")
    for name in verbs.NAMES:
        body = shape(inspect.signature(getattr(methods, name)), 1)
        for kind in (verbs.SyncVerbs, verbs.AsyncVerbs):
            proto = typing.get_origin(kind.__annotations__[name]) or \
                kind.__annotations__[name]
            if isinstance(proto, str):
                proto = getattr(verbs, proto.split("[")[0])
            # An overload's name, as get_overloads() looks it up (the
            # class's __call__ is typing's placeholder).
            key = types.SimpleNamespace(__module__=proto.__module__,
                                        __qualname__=proto.__qualname__ +
                                        ".__call__")
            sigs = typing.get_overloads(key) or [proto.__call__]
            for i, fn in enumerate(sigs):
                got = shape(inspect.signature(fn), 1)
                what = "%s.%s, overload %d" % (kind.__name__, name, i + 1)
                eq([g[:2] for g in got], [b[:2] for b in body], what)
                check(all(b[2] or not g[2] for g, b in zip(got, body)),
                      "%s: a default the method lacks: %r" % (what, got))
        eq(getattr(sudokud.Client, name), getattr(methods, name),
           "Client.%s is methods.%s" % (name, name))


if __name__ == "__main__":
    sys.exit(T.run())
