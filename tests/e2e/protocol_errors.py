#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
protocol_errors.py -- every error doc/protocol.md gives a malformed
request, with exact reply lines, over the Unix socket and TCP: ERR
length, ERR char (bytes too), ERR conflict, ERR syntax, an HTTP
request; and random puzzles, conflicting or malformed (the documented
first error) or with several solutions (LEXMIN and COUNT as the
reference solver says).  The verbs' answers are in protocol.py.
"""

import os
import re
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq, Fail                     # noqa: E402

T = h.Tap({"workers": 2})


@T.case("80 and 82 cells -> ERR length, connection stays usable")
def _(c):
    k = c.connect()
    eq(k.req(h.CLASSIC[:80]), "ERR length expected 81 cells, found 80", "80")
    eq(k.req(h.CLASSIC + "."), "ERR length expected 81 cells, found 82", "82")
    eq(k.req("SOLVE " + h.CLASSIC[:-1]),
       "ERR length expected 81 cells, found 80", "SOLVE 80")
    eq(k.req("LEXMIN 1"), "ERR length expected 81 cells, found 1 (one row "
       "of a grid? send the whole puzzle on one line, row by row)",
       "LEXMIN 1")
    eq(k.req("COUNT " + h.EMPTY * 2),
       "ERR length expected 81 cells, found 162", "COUNT 162")
    eq(k.req("PING"), "PONG", "usable after length errors")


@T.case("bad characters -> ERR char with the byte and position")
def _(c):
    k = c.connect()
    p = "1234x" + "." * 76
    eq(k.req(p), "ERR char bad character 'x' (0x78) at position 5", "x")
    eq(k.req("SOLVE " + "a" * 81),
       "ERR char bad character 'a' (0x61) at position 1", "SOLVE a*81")
    eq(k.req("LEXMIN " + "." * 80 + "X"),
       "ERR char bad character 'X' (0x58) at position 81", "LEXMIN X")
    eq(k.req("COUNT " + "0" * 40 + "-" + "0" * 40 + " 3"),
       "ERR char bad character '-' (0x2d) at position 41", "COUNT -")
    # length is checked before characters, characters before conflicts
    eq(k.req("SOLVE " + "x" * 80), "ERR length expected 81 cells, found 80",
       "length before char")
    eq(k.req("55x" + "." * 78),
       "ERR char bad character 'x' (0x78) at position 3",
       "char before conflict")
    eq(k.req("PING"), "PONG", "usable")


@T.case("NUL, DEL and UTF-8 bytes -> ERR char 'bad byte 0xNN', ASCII reply")
def _(c):
    k = c.connect()
    k.send(b"1234\x00" + b"." * 76 + b"\n")
    eq(k.line().lower(), "err char bad byte 0x00 at position 5", "NUL")
    k.send(b"SOLVE " + b"." * 9 + b"\x7f" + b"." * 71 + b"\n")
    eq(k.line().lower(), "err char bad byte 0x7f at position 10", "DEL")
    # 81 bytes, an e-acute (c3 a9) at bytes 5 and 6
    k.send(b"1234" + "\u00e9".encode() + b"." * 75 + b"\n")
    eq(k.line().lower(), "err char bad byte 0xc3 at position 5", "UTF-8")
    k.send(b"SOLVE " + b"\xff" * 81 + b"\n")
    eq(k.line().lower(), "err char bad byte 0xff at position 1", "0xff")
    eq(k.req("PING"), "PONG", "usable")


@T.case("a NUL or non-ASCII verb -> one ASCII ERR syntax line")
def _(c):
    k = c.connect()
    for bad in (b"PI\x00NG", b"\xc3\xa9t\xc3\xa9", b"\x00", b"PING\x00",
                b"\x1b[A", b"SOLVE\x00" + h.CLASSIC.encode(),
                b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"):
        k.send(bad + b"\n")
        got = k.line()
        check(got.startswith("ERR syntax "),
              "%r: expected ERR syntax ..., got %r" % (bad, got))
    eq(k.req("PING"), "PONG", "usable")


@T.case("tab inside a puzzle -> one ERR line")
def _(c):
    k = c.connect()
    got = k.req(h.CLASSIC[:40] + "\t" + h.CLASSIC[41:])
    check(re.match(r"ERR (syntax|char|length) ", got), "got %r" % got)
    eq(k.req("PING"), "PONG", "usable")


@T.case("conflicting givens -> ERR conflict naming the cells")
def _(c):
    k = c.connect()
    eq(k.req(".5....5.." + "." * 72),
       "ERR conflict digit 5 twice in row 1: r1c2 and r1c7", "row")
    eq(k.req("3" + "." * 71 + "3" + "." * 8),
       "ERR conflict digit 3 twice in column 1: r1c1 and r9c1", "column")
    eq(k.req("." * 9 * 8 + "....." + "7" + "." + "7" + "."),
       "ERR conflict digit 7 twice in row 9: r9c6 and r9c8", "row 9")
    eq(k.req("7" + "." * 9 + "7" + "." * 70),
       "ERR conflict digit 7 twice in box 1: r1c1 and r2c2", "box 1")
    eq(k.req("." * 60 + "4" + "." * 9 + "4" + "." * 10),
       "ERR conflict digit 4 twice in box 9: r7c7 and r8c8", "box 9")
    # the pair whose second cell comes first in row-major order wins
    eq(k.req("59......5" + "..9" + "." * 69),
       "ERR conflict digit 5 twice in row 1: r1c1 and r1c9", "order")
    eq(k.req("SOLVE " + h.CLASSIC[:8] + "5" + h.CLASSIC[9:]),
       "ERR conflict digit 5 twice in row 1: r1c1 and r1c9", "SOLVE")
    eq(k.req("LEXMIN " + ".5....5.." + "." * 72),
       "ERR conflict digit 5 twice in row 1: r1c2 and r1c7", "LEXMIN")
    eq(k.req("COUNT " + ".5....5.." + "." * 72),
       "ERR conflict digit 5 twice in row 1: r1c2 and r1c7", "COUNT")


def random_grid(rnd):
    """A random complete grid: the LEXMIN answer of a shuffled empty grid."""
    perm = list("123456789")
    rnd.shuffle(perm)
    base = h.EMPTY_LEXMIN
    g = [perm[int(ch) - 1] for ch in base]
    # shuffle rows inside bands and columns inside stacks: stays valid
    rows = [b * 3 + r for b in rnd.sample(range(3), 3)
            for r in rnd.sample(range(3), 3)]
    cols = [b * 3 + r for b in rnd.sample(range(3), 3)
            for r in rnd.sample(range(3), 3)]
    return "".join(g[rows[i // 9] * 9 + cols[i % 9]] for i in range(81))


def first_conflict(p):
    """The documented first conflict, or None if ambiguous/none."""
    for j in range(81):
        if p[j] in ".0":
            continue
        rj, cj = divmod(j, 9)
        hits = []
        for i in range(j):
            if p[i] != p[j]:
                continue
            ri, ci = divmod(i, 9)
            units = []
            if ri == rj:
                units.append(("row", rj + 1))
            if ci == cj:
                units.append(("column", cj + 1))
            if (ri // 3, ci // 3) == (rj // 3, cj // 3):
                units.append(("box", (rj // 3) * 3 + cj // 3 + 1))
            if units:
                hits.append((i, units))
        if not hits:
            continue
        if len(hits) != 1 or len(hits[0][1]) != 1:
            return None             # more than one way to name it
        i, ((unit, n),) = hits[0]
        return "ERR conflict digit %s twice in %s %d: r%dc%d and r%dc%d" % (
            p[j], unit, n, i // 9 + 1, i % 9 + 1, rj + 1, cj + 1)
    return None


@T.case("200 random conflicting puzzles -> the documented first conflict")
def _(c):
    import random
    rnd = random.Random(7)
    k = c.connect()
    tried = 0
    while tried < 200:
        g = list(random_grid(rnd))
        keep = set(rnd.sample(range(81), rnd.randrange(15, 40)))
        p = [g[i] if i in keep else rnd.choice(".0") for i in range(81)]
        for _ in range(rnd.randrange(1, 4)):
            i = rnd.randrange(81)
            p[i] = str(rnd.randrange(1, 10))
        p = "".join(p)
        want = first_conflict(p)
        if want is None:
            continue
        tried += 1
        eq(k.req(rnd.choice(("", "SOLVE ", "LEXMIN ", "COUNT ")) + p), want,
           "conflict reply for %s" % p)


@T.case("200 random bad puzzles -> the documented length/char error")
def _(c):
    import random
    rnd = random.Random(11)
    k = c.connect()
    tried = 0
    while tried < 200:
        n = rnd.choice((81, 81, 81, rnd.randrange(1, 200)))
        cells = [rnd.choice("123456789.0") for _ in range(n)]
        nbad = rnd.randrange(0 if n != 81 else 1, 4)
        for _ in range(nbad):
            cells[rnd.randrange(n)] = chr(rnd.choice(
                [rnd.randrange(0x21, 0x7f), rnd.randrange(0x80, 0x100),
                 0, 1, 0x7f]))
        raw = "".join(cells).encode("latin-1")
        bad = [i for i, b in enumerate(raw) if b not in b"1234567890."]
        if n == 81 and not bad:
            continue
        tried += 1
        if n != 81:
            want = "ERR length expected 81 cells, found %d" % n
            if n <= 9:
                want += (" (one row of a grid? send the whole puzzle on "
                         "one line, row by row)")
        else:
            b = raw[bad[0]]
            if 0x21 <= b < 0x7f:
                want = "ERR char bad character '%c' (0x%02x) at position " \
                       "%d" % (b, b, bad[0] + 1)
            else:
                want = "ERR char bad byte 0x%02x at position %d" % (
                    b, bad[0] + 1)
        k.send(b"SOLVE " + raw + b"\n")
        got = k.line()
        if got.lower() != want.lower():
            raise Fail("SOLVE %r:\n  expected %r\n  got      %r"
                       % (raw, want, got))


@T.case("random multi-solution puzzles: LEXMIN and COUNT match the "
        "reference, SOLVE is valid")
def _(c):
    import random
    rnd = random.Random(5)
    k = c.connect()
    done = 0
    while done < 40:
        g = random_grid(rnd)
        keep = set(rnd.sample(range(81), rnd.randrange(24, 34)))
        p = "".join(g[i] if i in keep else "." for i in range(81))
        n, _, fin = h.ref_search(p, limit=50, lexmin=False, maxnodes=200000)
        _, lex, fin2 = h.ref_search(p, limit=1, lexmin=True, maxnodes=200000)
        if not (fin and fin2):
            continue
        done += 1
        eq(k.req("COUNT %s 50" % p), str(n), "COUNT 50 of %s" % p)
        eq(k.req("LEXMIN " + p), lex, "LEXMIN of %s" % p)
        h.check_solution(p, k.req(p))


@T.case("syntax errors -> ERR syntax, connection usable")
def _(c):
    k = c.connect()
    eq(k.req("FOO"), "ERR syntax unknown command 'FOO', try HELP", "FOO")
    for line in ("SOLVE", "LEXMIN", "COUNT", "SOLVE %s %s" % (h.CLASSIC,
                 h.CLASSIC), "LEXMIN %s 2" % h.EMPTY, "PING PONG",
                 "VERSION 2", "HELP ME", "STATS x", "QUIT now",
                 "SOLVEX " + h.CLASSIC, "PINGS", "PIN", "x", "-1",
                 "+" + h.EMPTY):
        got = k.req(line)
        check(got.startswith("ERR syntax "),
              "%r: expected ERR syntax ..., got %r" % (line[:40], got))
    eq(k.req("PING"), "PONG", "usable")


@T.case("HTTP request line -> ERR syntax not an HTTP server, then close")
def _(c):
    for req in ("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n",
                "POST /solve HTTP/1.0\r\nContent-Length: 0\r\n\r\n",
                "HEAD / HTTP/1.1\r\n"):
        k = c.connect()
        k.send(req)
        eq(k.line(), "ERR syntax this is sudokud, not an HTTP server", req[:4])
        k.expect_eof(what="close after the HTTP error")


if __name__ == "__main__":
    sys.exit(T.run())
