#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
stream.py -- framing under stress: pipelining, long and endless
lines, random bytes, half-close, fragmented writes and resets, over the
Unix socket and TCP.  Memory is checked with VmHWM (peak RSS) of a
private daemon, busy loops with utime+stime from /proc as a fraction of
the wall time, or against the CPU time of ordinary requests of the same
size: never against the machine's speed.  Batches are read with no
bound on their total time (that depends on the machine), only on a
stall (Client.replies) and by the case's timeout.
"""

import os
import random
import socket
import struct
import sys
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq, Fail                     # noqa: E402

T = h.Tap({"workers": 2})
MiB = 1 << 20


def hwm_kb(pid):
    return h.proc_status_kb(pid, "VmHWM")     # peak RSS


def mixed_requests(n, seed):
    """n request lines (bytes) and, for each, a checker of its reply."""
    rnd = random.Random(seed)
    easy = h.load_puzzles("puzzles2_17_clue", 300)
    hard = h.load_puzzles("puzzles6_forum_hardest_1106", 40)
    reqs, checks = [], []
    for i in range(n):
        k = rnd.randrange(100)
        if k < 45:
            reqs.append(b"PING\n")
            checks.append(("eq", "PONG"))
        elif k < 85:
            p = rnd.choice(easy)
            reqs.append(p.encode() + b"\n")
            checks.append(("sol", p))
        elif k < 87:
            p = rnd.choice(hard)
            reqs.append(b"SOLVE " + p.encode() + b"\n")
            checks.append(("sol", p))
        elif k < 92:
            reqs.append(b"COUNT " + h.CLASSIC.encode() + b"\n")
            checks.append(("eq", "1"))
        elif k < 95:
            reqs.append(b"LEXMIN " + h.EMPTY.encode() + b"\r\n")
            checks.append(("eq", h.EMPTY_LEXMIN))
        elif k < 97:
            reqs.append(b"1" * 80 + b"\n")
            checks.append(("eq", "ERR length expected 81 cells, found 80"))
        elif k < 98:
            reqs.append(b"version\n")
            checks.append(("eq", "VERSION " + h.package_version()))
        else:
            reqs.append(b"\n \n" + b"ping\n")      # blanks: no reply
            checks.append(("eq", "PONG"))
    return reqs, checks


def check_replies(lines, checks):
    eq(len(lines), len(checks), "number of replies")
    for i, (ln, (kind, want)) in enumerate(zip(lines, checks)):
        if kind == "eq":
            if ln != want:
                raise Fail("reply %d: expected %r, got %r" % (i, want, ln))
        else:
            why = h.solution_problem(want, ln)
            if why:
                raise Fail("reply %d out of order or wrong: %s" % (i, why))


@T.case("10,000 pipelined requests in one write -> 10,000 replies in order",
        timeout=90)
def _(c):
    reqs, checks = mixed_requests(10000, 1)
    k = c.connect(timeout=20)
    data = b"".join(reqs)
    t, res = h.sender(k.sock, data, chunk=len(data))
    lines = k.replies(len(checks))
    t.join(20)
    eq(res["sent"], len(data), "bytes sent")
    check_replies(lines, checks)
    check(k.quiet(0.2), "extra bytes after the last reply: %r" % k.buf[:100])


@T.case("requests in 1-byte writes -> same replies")
def _(c):
    k = c.connect()
    k.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    data = ("PING\r\nSOLVE %s\n%s\nCOUNT %s 5\n" % (
        h.CLASSIC, h.CLASSIC, h.EMPTY)).encode()
    for i in range(len(data)):
        k.send(data[i:i + 1])
        if i % 16 == 0:
            time.sleep(0.001)
    eq(k.lines(4), ["PONG", h.CLASSIC_SOLUTION, h.CLASSIC_SOLUTION, "5"],
       "replies")


@T.case("1 MiB line then a request -> one ERR toolong, then the answer")
def _(c):
    k = c.connect(timeout=10)
    s1 = c.stats()
    data = b"A" * MiB + b"\nPING\n" + h.CLASSIC.encode() + b"\n"
    t, res = h.sender(k.sock, data)
    eq(k.line(10), "ERR toolong request line longer than 1024 bytes",
       "reply to the 1 MiB line")
    eq(k.line(), "PONG", "the next request")
    eq(k.line(), h.CLASSIC_SOLUTION, "the one after")
    check(k.quiet(0.3), "extra reply: %r" % k.buf[:100])
    t.join(5)
    s2 = c.stats()
    eq(s2["toolong_lines"] - s1["toolong_lines"], 1, "toolong_lines delta")
    eq(s2["err_toolong"] - s1["err_toolong"], 1, "err_toolong delta")
    # a long line that looks like a puzzle, and one made of blanks
    k.send(b"1" * 5000 + b"\n" + b" " * 5000 + b"\nPING\n")
    eq(k.line(), "ERR toolong request line longer than 1024 bytes", "digits")
    eq(k.line(), "ERR toolong request line longer than 1024 bytes", "blanks")
    eq(k.line(), "PONG", "after")


@T.case("line of exactly max_line bytes is accepted, max_line + 1 is not",
        daemon={"workers": 1, "max_line": 128})
def _(c):
    k = c.connect()
    line = "SOLVE " + h.CLASSIC
    pad = line + " " * (128 - len(line))
    eq(len(pad), 128, "test line length")
    eq(k.req(pad), h.CLASSIC_SOLUTION, "128 bytes + LF")
    eq(k.req(pad + "\r"), h.CLASSIC_SOLUTION, "128 bytes + CRLF")
    eq(k.req(pad + " "), "ERR toolong request line longer than 128 bytes",
       "129 bytes")
    eq(k.req("PING" + " " * 124), "PONG", "PING padded to 128")
    eq(k.req("PING" + " " * 125), "ERR toolong request line longer than "
       "128 bytes", "PING padded to 129")
    eq(k.req("PING"), "PONG", "usable")


def endless_line(c, closes=False):
    """
    10 MiB of one line without LF on a new connection: (it, the peak RSS,
    fds and CPU before, when its first byte went, when the sending ended).
    closes: the daemon may close it meanwhile (idle_timeout from the first
    byte), on a machine slow enough.
    """
    d = c.d
    k = c.connect(timeout=15)
    eq(k.req("PING"), "PONG", "warm up")
    hwm0, fds0 = hwm_kb(d.pid), d.fds()
    cpu0 = d.cpu()
    first = time.monotonic()
    t, res = h.sender(k.sock, b"7" * (10 * MiB), stop_on_block=10)
    t.join(50)
    check(res["done"], "10 MiB not accepted (sent %d bytes)" % res["sent"])
    check(res["error"] is None or closes, "send failed: %r" % res["error"])
    return k, hwm0, fds0, cpu0, first, res


def ordinary_cpu(c, size):
    """The daemon's CPU time for size bytes of ordinary requests (PINGs
    padded to 1 KiB lines) on a connection of their own."""
    k = c.connect(timeout=15)
    line = b"PING" + b" " * 1019 + b"\n"
    n = size // len(line)
    cpu0 = c.d.cpu()
    t, res = h.sender(k.sock, line * n, stop_on_block=10)
    eq(k.replies(n), ["PONG"] * n, "the replies to %d padded PINGs" % n)
    t.join(20)
    cpu = c.d.cpu() - cpu0
    k.close()
    return cpu


@T.case("line of max_line bytes split before its CR or LF -> accepted",
        daemon={"workers": 1, "max_line": 128})
def _(c):
    k = c.connect()
    line = ("SOLVE " + h.CLASSIC).encode()
    pad = line + b" " * (128 - len(line))
    for parts in ((pad, b"\n"), (pad, b"\r\n"), (pad + b"\r", b"\n"),
                  (pad[:100], pad[100:], b"\r", b"\n")):
        for p in parts:
            k.send(p)
            time.sleep(0.05)
        eq(k.line(), h.CLASSIC_SOLUTION, "split %r" % [len(p) for p in parts])
    for parts in ((pad + b" ", b"\n"), (pad, b" ", b"\r\n"),
                  (pad + b"\r", b"\r\n")):
        for p in parts:
            k.send(p)
            time.sleep(0.05)
        eq(k.line(), "ERR toolong request line longer than 128 bytes",
           "split %r" % [len(p) for p in parts])
    eq(k.req("PING"), "PONG", "usable")
    check(k.quiet(0.2), "extra reply %r" % k.buf)


@T.case("1 MiB line in 64 KiB writes, LF sent last -> one ERR toolong")
def _(c):
    k = c.connect()
    for _ in range(16):
        k.send(b"2" * 65536)
        time.sleep(0.005)
    check(k.quiet(0.2), "reply before the LF: %r" % k.buf[:100])
    k.send(b"\r\nPING\n")
    eq(k.line(), "ERR toolong request line longer than 1024 bytes", "toolong")
    eq(k.line(), "PONG", "next")
    check(k.quiet(0.2), "extra reply %r" % k.buf[:100])


@T.case("8 concurrent pipelining clients -> replies in order, exact STATS",
        transports=("unix", "tcp"), daemon={"workers": 2}, timeout=90)
def _(c):
    import threading
    base = c.connect()
    s1 = h.stats_ints(base.stats())
    results = {}
    sent_bytes = [0] * 8
    counts = [0] * 8

    def one(i):
        try:
            reqs, checks = mixed_requests(1500, 100 + i)
            data = b"".join(reqs)
            sent_bytes[i] = len(data)
            counts[i] = checks
            k = c.d.connect(c.transport, 20)
            t, res = h.sender(k.sock, data)
            lines = k.replies(len(checks))
            check_replies(lines, checks)
            k.close()
            results[i] = None
        except Exception as e:          # reported below
            results[i] = e
    ts = [threading.Thread(target=one, args=(i,), daemon=True)
          for i in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(80)
    for i in range(8):
        check(i in results, "client %d did not finish" % i)
        if results[i] is not None:
            raise Fail("client %d: %s" % (i, results[i]))
    check(h.wait_for(lambda: h.stats_ints(base.stats())["curr_connections"]
                     == 1, 10), "connections not closed")
    s2 = h.stats_ints(base.stats())
    pings = sum(1 for cs in counts for kind, w in cs if w == "PONG")
    sols = sum(1 for cs in counts for kind, w in cs if kind == "sol")
    eq(s2["cmd_ping"] - s1["cmd_ping"], pings, "cmd_ping delta")
    eq(s2["total_connections"] - s1["total_connections"], 8,
       "total_connections delta")
    check(s2["cmd_solve"] - s1["cmd_solve"] >= sols, "cmd_solve delta")
    # every byte sent, plus the STATS requests on base
    eq(s2["bytes_read"] - s1["bytes_read"], sum(sent_bytes)
       + 6 * (s2["cmd_stats"] - s1["cmd_stats"]), "bytes_read delta")


@T.case("1 worker, 6 clients' requests cut anywhere and interleaved -> "
        "each gets its own answers", daemon={"workers": 1})
def _(c):
    # A worker reads into one scratch block shared by its connections;
    # what one leaves there (half a line) must not meet another's bytes.
    rnd = random.Random(7)
    ks, data, checks = [], [], []
    for i in range(6):
        reqs, cs = mixed_requests(80, 200 + i)
        ks.append(c.connect(timeout=20))
        data.append(b"".join(reqs))
        checks.append(cs)
    off = [0] * 6
    while any(off[i] < len(data[i]) for i in range(6)):
        i = rnd.choice([j for j in range(6) if off[j] < len(data[j])])
        n = rnd.randrange(1, 200)
        ks[i].send(data[i][off[i]:off[i] + n])
        off[i] += n
        if rnd.randrange(4) == 0:
            time.sleep(0.0005)      # let the worker read this piece alone
    for i in range(6):
        check_replies(ks[i].replies(len(checks[i])), checks[i])
        check(ks[i].quiet(0.1), "client %d: extra bytes: %r"
              % (i, ks[i].buf[:100]))


@T.case("STATS and HELP pipelined before QUIT -> whole blocks, then BYE")
def _(c):
    k = c.connect()
    k.send("STATS\nHELP\nQUIT\n")
    data = k.read_to_eof().decode("ascii")
    parts = data.split("END\n")
    eq(len(parts), 3, "two END-terminated blocks")
    check(all(ln.startswith("STAT ") for ln in parts[0].splitlines()),
          "STATS block")
    help_lines = parts[1].splitlines()
    check(help_lines[0].startswith("Send one request per line")
          and any(ln.split()[:1] == ["QUIT"] for ln in help_lines),
          "HELP block")
    eq(parts[2], "BYE\n", "after the blocks")


@T.case("10 MiB without newline, then close -> bounded memory, no spin",
        daemon={"workers": 2, "idle_timeout": 30}, timeout=90)
def _(c):
    d = c.d
    ref = ordinary_cpu(c, 10 * MiB)
    k, hwm0, fds0, cpu0, _, _ = endless_line(c)
    k.close()
    time.sleep(0.3)
    grow = hwm_kb(d.pid) - hwm0
    cpu = d.cpu() - cpu0
    c.note("10 MiB line: peak RSS growth %d KiB, CPU %.2f s (10 MiB of "
           "ordinary requests: %.2f s)" % (grow, cpu, ref))
    h.check_mem(grow < 4096, "peak RSS grew by %d KiB for a 10 MiB line"
                % grow)
    # Dropping a line costs no more than serving as many bytes of short
    # requests (linear in the bytes, both); 0.1 s is the clock's tick.
    check(cpu <= 4 * ref + 0.1, "daemon used %.2f s CPU to discard 10 MiB, "
          "%.2f s to serve 10 MiB of requests" % (cpu, ref))
    cpu1, t1 = d.cpu(), time.monotonic()
    time.sleep(1.0)
    spin, wall = d.cpu() - cpu1, time.monotonic() - t1
    check(spin < 0.1 * wall, "daemon spins after the close: %.2f s CPU in "
          "%.2f s" % (spin, wall))
    k2 = c.connect()
    eq(k2.req("PING"), "PONG", "serving after")
    # k2 replaced k
    check(h.wait_for(lambda: d.fds() <= fds0, 10),
          "fds %d, baseline %d" % (d.fds(), fds0))


@T.case("10 MiB without newline, left open -> bounded, idle, then closed",
        daemon={"workers": 2, "idle_timeout": 2})
def _(c):
    d = c.d
    s1 = c.stats()
    k, hwm0, fds0, cpu0, first, res = endless_line(c, closes=True)
    grow = hwm_kb(d.pid) - hwm0
    h.check_mem(grow < 4096, "peak RSS grew by %d KiB for a 10 MiB line"
                % grow)
    cpu1, t1 = d.cpu(), time.monotonic()
    time.sleep(1.0)
    spin, wall = d.cpu() - cpu1, time.monotonic() - t1
    c.note("10 MiB line left open: peak RSS growth %d KiB, CPU %.2f s "
           "in %.2f s of waiting" % (grow, spin, wall))
    check(spin < 0.1 * wall, "daemon spins while waiting: %.2f s CPU in "
          "%.2f s" % (spin, wall))
    # An incomplete line has idle_timeout from its first byte: closed
    # then, while the 10 MiB were still going (the sending failed) or
    # after.
    k.expect_eof(timeout=8, what="idle close")
    took = (res["end"] if res["error"] else time.monotonic()) - first
    check(1.0 <= took <= 4.5, "idle close %.1f s after the line's first "
          "byte (idle_timeout 2)" % took)
    s2 = c.stats()
    eq(s2["idle_kicks"] - s1["idle_kicks"], 1, "idle_kicks delta")


@T.case("1 MiB of random bytes -> ASCII error lines or a close; still serving")
def _(c):
    d = c.d
    rnd = random.Random(20240611)
    data = bytes(rnd.getrandbits(8) for _ in range(MiB))
    k = c.connect(timeout=10)
    t, res = h.sender(k.sock, data + b"\nPING\n", stop_on_block=5)
    while not k.eof and not k.buf.endswith(b"PONG\n"):
        k._fill(time.monotonic() + 10)      # a Fail after 10 s of nothing
    t.join(5)
    raw = k.buf
    check(all(b < 0x80 for b in raw), "non-ASCII byte in replies")
    lines = raw.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for ln in lines:
        check(ln.startswith(b"ERR ") or ln == b"PONG",
              "unexpected reply %r" % ln[:100])
    check(k.eof or raw.endswith(b"PONG\n"), "neither closed nor answered PING")
    check(d.alive(), "daemon died")
    k2 = c.connect()
    eq(k2.req("PING"), "PONG", "new connection served")


@T.case("SHUT_WR after 1000 requests -> all replies, then EOF")
def _(c):
    reqs, checks = mixed_requests(1000, 2)
    k = c.connect(timeout=10)
    k.send(b"".join(reqs))
    k.shut_wr()
    raw = k.read_to_eof(15)
    check(raw.endswith(b"\n"), "last reply without LF")
    lines = raw.decode("ascii").split("\n")[:-1]
    check_replies(lines, checks)


@T.case("last line without newline, then SHUT_WR -> it is answered")
def _(c):
    cases = [
        (b"PING\nPING", b"PONG\nPONG\n"),
        (b"SOLVE " + h.CLASSIC.encode(), h.CLASSIC_SOLUTION.encode() + b"\n"),
        (h.CLASSIC.encode() + b"\r", h.CLASSIC_SOLUTION.encode() + b"\n"),
        (b"COUNT " + h.EMPTY.encode() + b" 9", b"9\n"),
        (b"PING\n  \t", b"PONG\n"),
        (b"quit", b"BYE\n"),
        (b"1" * 80, b"ERR length expected 81 cells, found 80\n"),
        (b"x" * 3000, b"ERR toolong request line longer than 1024 bytes\n"),
        (b"", b""),
        (b"\n\n", b""),
    ]
    for req, want in cases:
        k = c.connect()
        k.send(req)
        k.shut_wr()
        # The end within read_to_eof's 5 s: the idle_timeout (300 s)
        # would be the other way to get one.
        eq(k.read_to_eof(), want, "reply to %r" % req[:40])
        k.close()


@T.case("client resets right after sending hard requests -> daemon survives")
def _(c):
    d = c.d
    k0 = c.connect()
    eq(k0.req("PING"), "PONG", "warm up")
    time.sleep(0.2)
    fds0 = d.fds()
    hard = h.load_puzzles("puzzles6_forum_hardest_1106", 30)
    for i in range(20):
        s = d.raw_socket(c.transport)
        s.sendall(("".join("SOLVE %s\n" % p for p in hard[i:i + 5])
                   + "COUNT %s 1000\n" % h.EMPTY
                   + "HELP\n" * 50).encode())
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                     struct.pack("ii", 1, 0))
        s.close()
    eq(k0.req("PING"), "PONG", "still serving after 20 resets")
    ok = h.wait_for(lambda: h.stats_ints(k0.stats())["curr_connections"] == 1,
                    10)
    check(ok, "curr_connections did not return to 1")
    check(h.wait_for(lambda: d.fds() == fds0, 10),
          "fds %d, baseline %d" % (d.fds(), fds0))


if __name__ == "__main__":
    sys.exit(T.run())
