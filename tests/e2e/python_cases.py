#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
python_cases.py -- the cases every kind of Python client (python/sudokud)
passes against the real daemon, over the Unix socket and TCP: every
method and its parsed value (solutions checked by the reference solver,
not by the daemon), errors raised as sudokud.Error with their code, the
options as keywords, pencil marks, the *_many methods pipelining a set
in input order (and with errors=True, in place), an abandoned batch
leaving the connection in step.  Not a test itself: register(T, tag,
client, client_at) adds them to a file's Tap, for a kind of client:
python_client.py the Client, python_pool.py the Pool, python_async.py
the asyncio Client and Pool (through a sync facade, aio_facade.py).
client(c, timeout) is a client of the case's daemon, client_at(address,
timeout) one of another server.
"""

import os
import random
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
from toolbox_common import (count, givens, invariant,  # noqa: E402
                            marks_of, solution_of, strike, transform,
                            without)

sys.path.insert(0, os.path.join(h.TOP_SRCDIR, "python"))
import sudokud                                          # noqa: E402
from fake_server import FakeServer                      # noqa: E402

EMPTY = "0" * 81


def raises(code, fn, *args, **kw):
    try:
        fn(*args, **kw)
    except sudokud.Error as e:
        eq(e.code, code, "the code of %r" % (e,))
        return e
    raise h.Fail("no sudokud.Error %s from %s" % (code, fn.__name__))



def register(T, tag, client, client_at, transports=("unix", "tcp"),
             liars=True):
    """The cases, their names starting with tag, on T; with liars, one
    against a server that lies too (not for a pool, which sets it
    aside: python_pool.py)."""
    @T.case(tag + "every method: parsed values, checked against the reference "
            "solver",
            transports=transports)
    def _(c):
        with client(c) as k:
            k.ping()
            eq(k.version(), h.package_version(), "version()")
            hello = k.hello()
            eq((hello["server"], hello["proto"]), ("sudokud", 2), "hello()")
            check("SOLVE" in hello["verbs"].split(","), "verbs")
            eq((type(hello["budget"]), type(hello["version"])), (int, str),
               "hello(): the limits ints, the rest strs")
            check("auth" not in hello or hello["auth"] in ("none", "required"),
                  "hello()['auth']: %r" % hello.get("auth"))
            eq(k.solve(h.CLASSIC), h.CLASSIC_SOLUTION, "solve()")
            eq(k.lexmin(EMPTY), h.EMPTY_LEXMIN, "lexmin()")
            eq((k.count(h.CLASSIC), k.count(EMPTY, 7)), (1, 7), "count()")
            r = k.rate(h.CLASSIC)
            eq(r, sudokud.Rating("easy", 1.0, "naked_single"), "rate()")
            hint = k.hint(h.CLASSIC)
            eq(hint.technique, "naked_single", "hint().technique")
            a = hint.actions[0]
            eq((a.cell, a.row, a.col, a.place), ("r5c5", 5, 5, True), "action")
            eq(h.CLASSIC_SOLUTION[(a.row - 1) * 9 + a.col - 1], str(a.digit),
               "the hint's digit is the solution's")
            eq(k.hint(h.CLASSIC, h.CLASSIC_SOLUTION), None, "solved: None")
            an = k.analyze(h.CLASSIC)
            eq((an.status, an.clues, an.solution, an.level, an.score,
                an.hardest), ("unique", 30, h.CLASSIC_SOLUTION, "easy", 1.0,
                              "naked_single"), "analyze()")
            eq(k.analyze(EMPTY).status, "multiple", "analyze() of many")
            p = k.generate("hard", 7)
            eq(k.generate("hard", seed=7), p, "generate() seeded twice")
            eq(h.ref_search(p, limit=2, lexmin=False)[0], 1, "one solution")
            g = k.generate("easy", info=True)
            eq((g.level, k.generate("easy", g.seed)), ("easy", g.puzzle),
               "generate(info=True): its seed makes it again")
            st = k.stats()
            check(isinstance(st["cmd_solve"], int) and st["cmd_solve"] >= 1 and
                  st["version"] == h.package_version(), "stats(): %r" % (st,))
            # One type however the deadline falls (when it falls depends on
            # the machine): a Generated, its level easy or the nearest made.
            for level, ms in (("easy", 60.0), ("extreme", 0.001)):
                g = k.generate(level, 3, deadline=ms)
                check(isinstance(g, sudokud.Generated) and g.seed is None and
                      g.level in sudokud.LEVELS, "generate(deadline=): %r"
                      % (g,))
                if g.level == level:
                    eq(g.puzzle, k.generate(level, 3), "the level's puzzle")

    @T.case(tag + "errors: sudokud.Error with the protocol's code and "
            "text; options "
            "as keywords; effort=True", daemon={"workers": 1, "budget": 500},
            transports=transports)
    def _(c):
        with client(c) as k:
            e = raises("char", k.solve, "x" + h.CLASSIC[1:])
            eq(e.text, "bad character 'x' (0x78) at position 1", ".text")
            eq(e.request, "SOLVE x" + h.CLASSIC[1:], ".request")
            raises("conflict", k.solve, "55" + h.CLASSIC[2:])
            raises("nosolution", k.solve, "12345678." + "........9" + "." * 63)
            raises("multiple", k.rate, EMPTY)
            raises("budget", k.count, EMPTY, 1000)
            e = raises("budget", k.count, EMPTY, 1000, budget=10)
            eq(e.text, "search budget of 10 guesses exceeded", "budget=10")
            e = raises("budget", k.count, EMPTY, 1000, budget=10 ** 12)
            eq(e.text, "search budget of 500 guesses exceeded", "capped")
            eff = k.solve(h.CLASSIC, effort=True)
            check(isinstance(eff, sudokud.Effort) and eff.value ==
                  h.CLASSIC_SOLUTION and eff.guesses >= 0 and eff.us >= 0,
                  "effort=True: %r" % (eff,))
            eff = k.analyze(h.CLASSIC, effort=True)
            eq((eff.value.status, eff.guesses), ("unique", eff.value.guesses),
               "analyze(effort=True)")
            e = raises("budget", k.count, EMPTY, 1000, budget=10, effort=True)
            eq(e.text, "search budget of 10 guesses exceeded", "the text "
               "without the effort")
            eq(k.count(h.CLASSIC, deadline=5.0), 1, "a deadline far away")
            for bad in (lambda: k.solve("123"), lambda: k.generate("tricky"),
                        lambda: k.count(h.CLASSIC, budget=0),
                        lambda: k.solve(h.CLASSIC, deadline=0)):
                try:
                    bad()
                except ValueError:
                    continue
                raise h.Fail("no ValueError")
            k.ping()

    @T.case(tag + "*_many: 17-clue set pipelined, every solution right and in "
            "order; errors in place; an abandoned batch leaves it in step",
            timeout=120,
            transports=transports)
    def _(c):
        puzzles = h.load_puzzles("puzzles2_17_clue", 5000)
        with client(c, 60) as k:
            got = list(k.solve_many(puzzles, window=64))
            eq(len(got), len(puzzles), "answers")
            for p, s in zip(puzzles, got):
                eq(h.solution_problem(p, s), None, "solution of %s" % p)
            counts = list(k.count_many(puzzles[:500], 2))
            eq(counts, [1] * 500, "count_many()")
            mixed = [h.CLASSIC, "55" + h.CLASSIC[2:], EMPTY]
            got = list(k.solve_many(mixed, errors=True))
            eq(got[0], h.CLASSIC_SOLUTION, "first")
            check(isinstance(got[1], sudokud.Error) and got[1].code ==
                  "conflict", "second: %r" % (got[1],))
            eq(h.solution_problem(EMPTY, got[2]), None, "third")
            try:
                list(k.solve_many(mixed))
            except sudokud.Error as e:
                eq(e.code, "conflict", "raised")
            batch = k.solve_many(puzzles[:1000], window=256)
            first = next(batch)
            eq(h.solution_problem(puzzles[0], first), None, "first of a batch")
            batch.close()           # abandoned with requests in flight
            eq(k.solve(h.CLASSIC), h.CLASSIC_SOLUTION, "in step after it")
            rates = list(k.rate_many([h.CLASSIC] * 3))
            eq(rates, [sudokud.Rating("easy", 1.0, "naked_single")] * 3,
               "rate_many()")
            gens = list(k.generate_many(range(3), "easy"))
            eq(gens, [k.generate("easy", s) for s in range(3)],
               "generate_many()")

    @T.case(tag + "bad input: a puzzle of a wrong length or with a line "
            "break is sudokud.InputError (an Error, code length or char, a "
            "ValueError), "
            "nothing sent; with errors=True in its place in a batch, the rest "
            "answered; a deadline that lets a request finish",
            transports=transports)
    def _(c):
        with client(c) as k:
            e = raises("length", k.solve, h.CLASSIC[:80])
            check(isinstance(e, sudokud.InputError) and
                  isinstance(e, ValueError),
                  "an InputError: %r" % (e,))
            broken = h.CLASSIC[:40] + "\n" + h.CLASSIC[41:]
            got = list(k.solve_many([h.CLASSIC, h.CLASSIC[:80], broken, EMPTY],
                                    errors=True))
            eq([getattr(g, "code", None) for g in got],
               [None, "length", "char", None], "the errors in place")
            eq((got[0], h.solution_problem(EMPTY, got[3])),
               (h.CLASSIC_SOLUTION, None), "the others answered")
            eq(k.solve(h.CLASSIC, deadline=0.25), h.CLASSIC_SOLUTION,
               "deadline=0.25 (250 ms): time to finish")
            eq(k.solutions(EMPTY, 3, deadline=30.0),
               h.ref_solutions(EMPTY, 3)[0],
               "a deadline far away")

    @T.case(tag + "the toolbox: canon of equivalents made here, shuffle "
            "equivalent, minimize and constrain as defined, path's steps "
            "sound and counted, generate's shape; *_many in order, an "
            "abandoned path batch in step",
            timeout=120,
            transports=transports)
    def _(c):
        rng = random.Random(5)
        hard = h.load_puzzles("puzzles3_magictour_top1465", 4)
        with client(c, 60) as k:
            form, autos = k.canon(h.CLASSIC)
            eq(k.canon(transform(h.CLASSIC, rng)), (form, autos), "canon()")
            eq(list(k.canon_many(hard)), [k.canon(transform(p, rng))
                                          for p in hard], "canon_many()")
            s = k.shuffle(h.CLASSIC, 7)
            eq((k.canon(s), count(s), k.shuffle(h.CLASSIC, 7)),
               ((form, autos), 1, s), "shuffle(): equivalent, per seed")
            g = k.shuffle(h.CLASSIC, info=True)
            eq(k.shuffle(h.CLASSIC, g.seed), g.puzzle, "shuffle(info=True)")
            eq(list(k.shuffle_many(hard, seed=3)),
               [k.shuffle(p, 3 + i) for i, p in enumerate(hard)],
               "shuffle_many(): the seeds 3, 4, ...")
            m = k.minimize(h.CLASSIC, 1)
            check(givens(m) <= givens(h.CLASSIC) and count(m) == 1 and
                  all(count(without(m, {i})) == 2 for i in givens(m)),
                  "minimize(): %s" % m)
            e = raises("multiple", k.minimize, EMPTY)
            eq(e.request, "MINIMIZE " + EMPTY, "the request of the error")
            a = k.constrain(EMPTY, 2)
            eq((count(a), k.constrain(h.CLASSIC)), (1, h.CLASSIC),
               "constrain()")
            eq(list(k.constrain_many([EMPTY] * 2, seed=2)),
               [a, k.constrain(EMPTY, 3)], "constrain_many()")
            for p in hard + [h.CLASSIC]:
                path = k.path(p)
                sol = solution_of(p)
                eq(path.rating, k.rate(p), "path(): the rating of " + p)
                used = {}
                for st in path.steps:
                    used[st.technique] = used.get(st.technique, 0) + 1
                    for act in st.actions:
                        i = (act.row - 1) * 9 + act.col - 1
                        eq(act.place, sol[i] == str(act.digit), "a sound step")
                eq((path.used, path.dead_end), (used, path.rating.level ==
                                                 "extreme"), "path(): counted")
            got = list(k.path_many(hard + [EMPTY], errors=True))
            eq(got[:-1], [k.path(p) for p in hard], "path_many()")
            eq(got[-1].code, "multiple", "path_many(): the error in place")
            batch = k.path_many(hard * 10, window=8)
            next(batch)
            batch.close()           # abandoned with replies of lines in flight
            eq(k.solve(h.CLASSIC), h.CLASSIC_SOLUTION, "in step after it")
            p = k.generate("easy", 3, symmetry="rot180", clues=(22, 30))
            check(invariant(p, "rot180") and 22 <= len(givens(p)) <= 30 and
                  count(p) == 1, "generate(symmetry, clues): %s" % p)
            shape = h.CLASSIC.translate(str.maketrans("123456789", "x" * 9))
            eq(givens(k.generate(seed=4, pattern=shape)), givens(h.CLASSIC),
               "generate(pattern=)")
            eq(k.generate(seed=4), k.generate("medium", 4),
               "the default level")
            # A deadline's nearest level, as the daemon words it (toolbox.py
            # shows it over the wire; when it comes depends on the machine).
            eq(sudokud.replies.generated(late=True)(p + " level=hard"),
               sudokud.Generated(p, None, "hard"), "a reply with level=")
            raises("syntax", k.generate, symmetry="rot180",
                   pattern="x" + "." * 80)

    @T.case(tag + "a malformed PATH or STATS reply (fake_server.py) raises "
            "ProtocolError, as path_many's does, and the connection stays in "
            "step", transports=(None,) if liars else ())
    def _(c):
        bad = {"PATH": ["nonsense", "END"], "STATS": ["STAT alone", "END"]}
        s = FakeServer(lambda ln: bad.get(ln.split(" ")[0], "PONG"))
        try:
            with client_at("127.0.0.1:%d" % s.port, 5) as k:
                for what, fn in (("path", lambda: k.path(h.CLASSIC)),
                                 ("path_many",
                                  lambda: list(k.path_many([h.CLASSIC]))),
                                 ("stats", k.stats)):
                    try:
                        fn()
                    except sudokud.ProtocolError:
                        k.ping()
                        continue
                    except Exception as e:          # noqa: BLE001
                        raise h.Fail("%s: %r, not ProtocolError" % (what, e))
                    raise h.Fail("%s: a malformed reply accepted" % what)
        finally:
            s.close()

    @T.case(tag + "request() of a verb of several lines (STATS, HELP, PATH, "
            "SOLUTIONS, SLOWLOG GET, CLIENT LIST): the whole reply, its lines "
            "joined by LF, the last END or SOLUTIONS' ERR; the next reply the "
            "next request's; request_many() the same, pipelined",
            transports=transports)
    def _(c):
        with client(c, timeout=30) as k:
            for line, last in (("STATS", "END"), ("HELP", "END"),
                               ("stats", "END"), ("HELP x", "ERR syntax "),
                               ("PATH " + h.CLASSIC, "END"),
                               ("SOLUTIONS %s 3" % EMPTY, "END"),
                               ("SOLUTIONS %s 3 effort=1" % EMPTY, "END "),
                               ("SOLUTIONS %s 1000 budget=200" % EMPTY,
                                "ERR budget "),
                               ("SLOWLOG GET", "END"), ("CLIENT LIST", "END")):
                got = k.request(line).split("\n")
                check(got[-1] == last or (last.endswith(" ") and
                                          got[-1].startswith(last)),
                      "%s: ends in %r" % (line, got[-1]))
                eq(k.request("PING"), "PONG", "the reply after %s" % line)
            eq(k.request("SOLUTIONS %s 3" % EMPTY).split("\n"),
               k.solutions(EMPTY, 3) + ["END"], "SOLUTIONS' lines")
            eq(k.request("PATH 1" + h.CLASSIC),
               "ERR length expected 81 cells, "
               "found 82", "an ERR alone, one line")
            lines = ["PING", "SOLUTIONS %s 3" % EMPTY, "HELP x", "PING\n",
                     "SOLVE " + h.CLASSIC, "PATH " + h.CLASSIC, "VERSION"]
            got = list(k.request_many(lines, window=3, errors=True))
            eq(got[:3], ["PONG", k.request(lines[1]), k.request(lines[2])],
               "request_many()")
            eq((got[3].code, got[4:6]), ("char", [h.CLASSIC_SOLUTION,
                                                   k.request(lines[5])]),
               "request_many(): a line refused in its place")
            eq(got[6], "VERSION " + h.package_version(), "the last")

    @T.case(tag + "solutions() and solutions_many(): the reference's first n, "
            "smallest first, fewer or none; cut by a budget, the Error "
            "holding those found; effort=True; pencil marks for solve, "
            "lexmin, count, analyze and solutions",
            transports=transports)
    def _(c):
        sparse = h.CLASSIC[:62] + "." * 19
        nosol = "12345678." + "........9" + "." * 63
        with client(c, 60) as k:
            for p, n in ((EMPTY, 5), (sparse, 1000), (h.CLASSIC, 3),
                         (nosol, 4)):
                eq(k.solutions(p, n), h.ref_solutions(p, n)[0],
                   "solutions(%s, %d)" % (p[:20], n))
            e = raises("budget", k.solutions, EMPTY, 1000, budget=200)
            eq(e.partial, h.ref_solutions(EMPTY, len(e.partial))[0],
               "the solutions before the budget ran out")
            check(0 < len(e.partial) < 1000, "%d of them" % len(e.partial))
            eff = k.solutions(EMPTY, 3, effort=True)
            check(isinstance(eff, sudokud.Effort) and eff.value ==
                  h.ref_solutions(EMPTY, 3)[0] and eff.guesses >= 0,
                  "effort=True: %r" % (eff,))
            eq(list(k.solutions_many([sparse, h.CLASSIC, nosol], 20)),
               [h.ref_solutions(p, 20)[0] for p in (sparse, h.CLASSIC, nosol)],
               "solutions_many()")
            got = list(k.solutions_many([EMPTY, "55" + EMPTY[2:]], 2,
                                        errors=True))
            check(got[0] == h.ref_solutions(EMPTY, 2)[0] and
                  isinstance(got[1], sudokud.Error) and got[1].code ==
                  "conflict", "errors in place: %r" % (got,))
            eq(k.solve(h.CLASSIC), h.CLASSIC_SOLUTION, "in step after them")
            for bad in (lambda: k.solutions(h.CLASSIC, 0),
                        lambda: k.solutions(h.CLASSIC[:80], 2)):
                try:
                    bad()
                except ValueError:
                    continue
                raise h.Fail("no ValueError")
            base = "".join("." if i % 3 else ch
                           for i, ch in enumerate(h.CLASSIC_SOLUTION))
            cells = strike(marks_of(base), random.Random(5), 300,
                           h.CLASSIC_SOLUTION)
            m = "".join(cells)
            want = h.ref_solutions("." * 81, 50, marks=cells)[0]
            eq(k.solutions(m, 50), want, "solutions() of pencil marks")
            eq(k.count(m, 50), len(want), "count() of pencil marks")
            eq(k.lexmin(m), want[0], "lexmin() of pencil marks")
            check(k.solve(m) in want, "solve() of pencil marks")
            eq(k.analyze(marks_of(h.CLASSIC)), k.analyze(h.CLASSIC),
               "analyze() of a puzzle's own marks")
            eq(list(k.count_many([m, marks_of(h.CLASSIC)], 50)),
               [len(want), 1],
               "count_many() of pencil marks")


