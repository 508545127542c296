#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
limits.py -- output throttling, write/idle timeouts, connection
limits, fd leaks and EMFILE, over the Unix socket and TCP.  Each case
runs its own daemon with the limits it needs.
"""

import os
import socket
import sys
import threading
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq, Fail                     # noqa: E402

T = h.Tap({"workers": 2})
MiB = 1 << 20


def fd_list(pid):
    out = []
    for fd in sorted(os.listdir("/proc/%d/fd" % pid), key=int):
        try:
            out.append("%s:%s" % (fd, os.readlink("/proc/%d/fd/%s"
                                                   % (pid, fd))))
        except OSError:
            pass
    return " ".join(out)


def stalled(res, quiet=0.5, timeout=20):
    """Until a sender()'s count of bytes sent stops growing for quiet
    seconds (the daemon stopped reading); False if it never does."""
    last, since = -1, time.monotonic()
    deadline = since + timeout
    while time.monotonic() < deadline and not res["done"]:
        if res["sent"] != last:
            last, since = res["sent"], time.monotonic()
        elif time.monotonic() - since >= quiet:
            return True
        time.sleep(0.05)
    return False


class RssWatch:
    """Samples the daemon's RSS every 50 ms in a thread; keeps the peak."""

    def __init__(self, pid):
        self.pid = pid
        self.base = h.proc_rss_kb(pid)
        self.peak = self.base
        self.stop = False
        self.t = threading.Thread(target=self.run, daemon=True)
        self.t.start()

    def run(self):
        while not self.stop:
            try:
                self.peak = max(self.peak, h.proc_rss_kb(self.pid))
            except OSError:
                return
            time.sleep(0.05)

    def done(self):
        self.stop = True
        self.t.join(1)
        return self.peak - self.base


@T.case("client pipelines ~50 MB and never reads -> bounded, others "
        "served while it is stuck, write_timeout kicks it",
        daemon={"workers": 2, "write_timeout": 3, "idle_timeout": 60})
def _(c):
    d = c.d
    other = c.connect()
    eq(other.req("PING"), "PONG", "warm up")
    s1 = h.stats_ints(other.stats())
    watch = RssWatch(d.pid)
    unit = (b"HELP\n" + b"PING\n" * 3 + h.CLASSIC.encode() + b"\n"
            + b"STATS\n")
    data = unit * (50 * MiB // len(unit))
    stuck = d.raw_socket(c.transport)
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
    t, res = h.sender(stuck, data, chunk=256 * 1024, stop_on_block=10)
    check(stalled(res), "the stuck client's sending never blocked")
    # The stuck client must not hold up the others: their requests are
    # answered while it is still there (it goes only at write_timeout).
    for i in range(5):
        eq(other.req("PING"), "PONG", "PING while another client is stuck")
        eq(other.req(h.CLASSIC), h.CLASSIC_SOLUTION, "SOLVE while stuck")
    st = h.stats_ints(other.stats())
    eq((st["output_kicks"] - s1["output_kicks"], st["curr_connections"]),
       (0, 2), "(output_kicks delta, connections) once the other's "
       "requests were answered: the stuck client was still there")
    ok = h.wait_for(lambda: h.stats_ints(other.stats())["output_kicks"]
                    > s1["output_kicks"], 8, 0.2)
    grow = watch.done()
    c.note("stuck client: sent %d bytes, RSS peak growth %d KiB"
           % (res["sent"], grow))
    h.check_mem(grow < 64 * 1024, "RSS grew by %d KiB" % grow)
    check(ok, "output_kicks did not rise within 8 s, write_timeout 3 "
          "(sent %d of %d bytes, sender error %r)"
          % (res["sent"], len(data), res["error"]))
    check(res["sent"] < len(data), "daemon read all 50 MB without "
          "throttling (output never backed up?)")
    s2 = h.stats_ints(other.stats())
    eq(s2["output_kicks"] - s1["output_kicks"], 1, "output_kicks delta")
    eq(s2["curr_connections"], 1, "curr_connections after the kick")
    t.join(8)
    stuck.close()
    eq(other.req("PING"), "PONG", "still serving")


@T.case("slow reader -> bounded memory, every reply delivered in order",
        daemon={"workers": 2, "write_timeout": 30})
def _(c):
    d = c.d
    k = c.connect(timeout=10)
    k.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 32768)
    help_lines = k.block("HELP")
    one = ("\n".join(help_lines) + "\nEND\n").encode()
    n = 20000
    watch = RssWatch(d.pid)
    t, res = h.sender(k.sock, b"HELP\n" * n, stop_on_block=20)
    got = bytearray()
    t_end = time.monotonic() + 2.0
    k.sock.settimeout(2)
    while time.monotonic() < t_end:
        got += k.sock.recv(2048)
        time.sleep(0.01)
    grow = watch.done()
    c.note("slow reader: RSS peak growth %d KiB" % grow)
    h.check_mem(grow < 8 * 1024, "RSS grew by %d KiB with %d KiB of "
                "replies pending" % (grow, n * len(one) // 1024))
    # Another client is answered while the slow reader's replies wait
    # (nothing of them is read meanwhile: a worker stuck on it would
    # never answer, and req() would time out).
    other = c.connect()
    eq(other.req("PING"), "PONG", "another client")
    want = one * n
    k.sock.settimeout(10)
    try:
        while len(got) < len(want):
            chunk = k.sock.recv(1 << 20)
            if not chunk:
                break
            got += chunk
    except socket.timeout:
        st = h.stats_ints(other.stats())
        raise Fail("replies stopped: got %d of %d bytes (%d HELP blocks); "
                   "sent %d of %d bytes, sender error %r; daemon bytes_read "
                   "%d, bytes_written %d, cmd_help %d"
                   % (len(got), len(want), len(got) // len(one),
                      res["sent"], n * 5, res["error"], st["bytes_read"],
                      st["bytes_written"], st["cmd_help"]))
    eq(len(got), len(want), "bytes of replies")
    check(bytes(got) == want, "replies differ from %d HELP blocks" % n)


def read_blocks(k, one, n, wait=5):
    """Read n copies of the reply block one; Fail on a stall."""
    want = len(one) * n
    got = bytearray()
    k.sock.settimeout(wait)
    try:
        while len(got) < want:
            chunk = k.sock.recv(1 << 20)
            if not chunk:
                break
            got += chunk
    except socket.timeout:
        raise Fail("replies stalled after %d of %d bytes" % (len(got), want))
    eq(len(got), want, "reply bytes")
    check(bytes(got) == one * n, "replies differ")


@T.case("output_high 4096, output_low 0 -> reading resumes, no stall",
        daemon={"workers": 2, "output_high": 4096, "output_low": 0})
def _(c):
    k = c.connect(timeout=10)
    one = ("\n".join(k.block("HELP")) + "\nEND\n").encode()
    t, res = h.sender(k.sock, b"HELP\n" * 3000)
    read_blocks(k, one, 3000)
    t.join(5)


@T.case("write_timeout 0 -> a client that never reads is kept",
        daemon={"workers": 2, "write_timeout": 0, "idle_timeout": 1})
def _(c):
    s1 = c.stats()
    stuck = c.d.raw_socket(c.transport)
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    t, res = h.sender(stuck, b"HELP\n" * 100000, stop_on_block=2)
    time.sleep(3)
    s2 = c.stats()
    eq(s2["curr_connections"], 2, "curr_connections (stuck + STATS)")
    eq(s2["output_kicks"] - s1["output_kicks"], 0, "output_kicks")
    eq(s2["idle_kicks"] - s1["idle_kicks"], 0, "idle_kicks (output pending)")
    stuck.close()


@T.case("max_line 1 MiB -> a 1 MiB request is served, 1 MiB + 1 is not",
        daemon={"workers": 1, "max_line": 1048576})
def _(c):
    k = c.connect(timeout=10)
    data = (b"PING" + b" " * (MiB - 4) + b"\n" + b"PING" + b" " * (MiB - 3)
            + b"\r\nPING\n")
    t, res = h.sender(k.sock, data)
    eq(k.line(10), "PONG", "1 MiB line")
    eq(k.line(10), "ERR toolong request line longer than 1048576 bytes",
       "1 MiB + 1 line")
    eq(k.line(10), "PONG", "after")
    t.join(5)


@T.case("idle_timeout 2 s closes an idle connection, not an active one",
        daemon={"workers": 2, "idle_timeout": 2})
def _(c):
    s1 = c.stats()
    idle = c.connect()
    busy = c.connect()
    t0 = time.monotonic()
    closed_at = None
    while time.monotonic() - t0 < 6.0:
        eq(busy.req("PING"), "PONG", "active connection")
        if closed_at is None and not idle.quiet(0.3):
            check(idle.eof, "idle connection got bytes: %r" % idle.buf)
            closed_at = time.monotonic() - t0
    check(closed_at is not None, "idle connection still open after 6 s")
    check(1 <= closed_at <= 4.5, "idle close after %.2f s (idle_timeout 2)"
          % closed_at)
    eq(busy.req("PING"), "PONG", "active connection survives")
    s2 = c.stats()
    eq(s2["idle_kicks"] - s1["idle_kicks"], 1, "idle_kicks delta")


@T.case("idle_timeout does not close a connection whose replies wait",
        daemon={"workers": 2, "idle_timeout": 1, "write_timeout": 30})
def _(c):
    k = c.connect(timeout=10)
    k.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)
    one = ("\n".join(k.block("HELP")) + "\nEND\n").encode()
    n = 5000
    k.send(b"HELP\n" * n)
    time.sleep(2.5)                 # > idle_timeout, replies pending
    want = one * n
    got = bytearray()
    k.sock.settimeout(5)
    try:
        while len(got) < len(want):
            chunk = k.sock.recv(1 << 20)
            if not chunk:
                break
            got += chunk
    except socket.timeout:
        pass
    eq(len(got), len(want), "reply bytes (closed while output pending?)")
    check(bytes(got) == want, "replies differ")
    k.expect_eof(3.5, "idle close once the replies are read "
                 "(idle_timeout 1)")


@T.case("2000 idle connections + 20 busy ones -> all served, bounded",
        daemon={"workers": 2, "max_connections": 5000, "idle_timeout": 60},
        timeout=40)
def _(c):
    import resource
    import threading
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = 2200
    if soft < need:
        if hard != resource.RLIM_INFINITY and hard < need:
            raise Fail("RLIMIT_NOFILE hard limit %d < %d" % (hard, need))
        resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))
    d = c.d
    dsoft = int([ln for ln in open("/proc/%d/limits" % d.pid)
                 if ln.startswith("Max open files")][0].split()[3])
    check(dsoft >= need, "daemon RLIMIT_NOFILE %d" % dsoft)
    rss0 = d.rss_kb()
    idle = []
    try:
        for _ in range(2000):
            idle.append(d.raw_socket(c.transport))
        k = c.connect()
        check(h.wait_for(lambda: h.stats_ints(k.stats())["curr_connections"]
                         == 2001, 20), "not all 2000 accepted")
        per = (d.rss_kb() - rss0) * 1024 // 2000
        c.note("2000 idle connections: %d bytes of RSS each" % per)
        h.check_mem(per < 32768, "%d bytes of RSS per idle connection"
                    % per)
        errors = []

        easy = h.load_puzzles("puzzles2_17_clue", 50)

        def busy(i):
            try:
                b = c.d.connect(c.transport, 15)
                for p in easy:
                    h.check_solution(p, b.req(p, 10))
                b.close()
            except Exception as e:
                errors.append(e)
        t0 = time.monotonic()
        ts = [threading.Thread(target=busy, args=(i,), daemon=True)
              for i in range(20)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(30)
        check(not any(t.is_alive() for t in ts), "busy clients still "
              "running after 30 s")
        took = time.monotonic() - t0
        c.note("20 clients x 50 requests beside 2000 idle: %.2f s" % took)
        check(not errors, "busy client failed: %s" % errors[:1])
        eq(k.req("PING"), "PONG", "PING")
    finally:
        for s in idle:
            s.close()
    check(h.wait_for(lambda: h.stats_ints(k.stats())["curr_connections"]
                     == 1, 10), "idle connections not released")


@T.case("max_connections 3, a 4th -> ERR busy, close, counted",
        daemon={"workers": 2, "max_connections": 3, "idle_timeout": 60})
def _(c):
    k1 = c.connect()
    check(h.wait_for(lambda: h.stats_ints(k1.stats())["curr_connections"]
                     == 1, 10), "probe connections still open")
    s1 = h.stats_ints(k1.stats())
    k2, k3 = c.connect(), c.connect()
    for k in (k1, k2, k3):
        eq(k.req("PING"), "PONG", "one of 3")
    k4 = c.connect()
    eq(k4.line(), "ERR busy too many connections (max 3), try later",
       "4th connection")
    k4.expect_eof(what="close after ERR busy")
    s2 = h.stats_ints(k1.stats())
    eq(s2["rejected_connections"] - s1["rejected_connections"], 1,
       "rejected_connections delta")
    eq(s2["err_busy"] - s1["err_busy"], 1, "err_busy delta")
    eq(s2["curr_connections"], 3, "curr_connections")
    k3.close()

    def try_again():
        # Until the daemon has seen k3 go, a new one may get ERR busy
        # and be closed before its PING is even sent.
        k = c.connect()
        try:
            if k.req("PING") == "PONG":
                return k
        except (OSError, Fail):
            pass
        k.close()
        return None
    k5 = h.wait_for(try_again, 10, 0.1)
    check(k5 is not None, "no slot free after closing one")
    eq(k2.req("PING"), "PONG", "old connection still works")


@T.case("1000 short connections -> fd count and RSS back to baseline")
def _(c):
    d = c.d
    k0 = c.connect()
    eq(k0.req("PING"), "PONG", "warm up")
    for _ in range(20):             # warm allocator caches
        k = c.connect()
        k.req("PING")
        k.close()
    time.sleep(0.3)
    fds0, rss0 = d.fds(), d.rss_kb()
    s1 = h.stats_ints(k0.stats())
    for i in range(1000):
        k = c.connect()
        if i % 5 == 0:
            k.send("PIN")           # partial line, then close
        elif i % 5 == 1:
            pass                    # nothing at all
        else:
            eq(k.req("PING"), "PONG", "short connection %d" % i)
        k.close()
    check(h.wait_for(lambda: d.fds() == fds0, 10),
          "fds %d, baseline %d" % (d.fds(), fds0))
    s2 = h.stats_ints(k0.stats())
    eq(s2["total_connections"] - s1["total_connections"], 1000,
       "total_connections delta")
    check(h.wait_for(lambda: h.stats_ints(k0.stats())["curr_connections"]
                     == 1, 10), "curr_connections not back to 1")
    grow = d.rss_kb() - rss0
    c.note("1000 connections: fds %d -> %d, RSS growth %d KiB"
           % (fds0, d.fds(), grow))
    h.check_mem(grow < 2048, "RSS grew by %d KiB over 1000 connections"
                % grow)


@T.case("RLIMIT_NOFILE 64 and 200 connects -> no busy loop, recovers",
        daemon={"workers": 2, "rlimit_nofile": 64, "idle_timeout": 60})
def _(c):
    d = c.d
    fds0 = d.fds()
    socks = []
    fam = socket.AF_UNIX if c.transport == "unix" else socket.AF_INET
    addr = d.path if c.transport == "unix" else ("127.0.0.1", d.port)
    try:
        for _ in range(200):
            s = socket.socket(fam, socket.SOCK_STREAM)
            s.setblocking(False)
            s.connect_ex(addr)
            socks.append(s)
        h.wait_for(lambda: d.fds() >= 60, 10)
        peak = d.fds()
        check(peak >= 60, "the daemon never reached its fd limit (%d fds)"
              % peak)
        # A busy loop takes all the CPU it gets, a waiting daemon next to
        # none: CPU time as a fraction of wall time, whatever the speed.
        cpu0, t0 = d.cpu(), time.monotonic()
        time.sleep(1.5)
        cpu, wall = d.cpu() - cpu0, time.monotonic() - t0
        c.note("EMFILE: daemon fds %d (limit 64), CPU %.2f s in %.2f s"
               % (peak, cpu, wall))
        check(cpu < 0.2 * wall, "daemon used %.2f s CPU in %.2f s at "
              "EMFILE (accept busy loop?)" % (cpu, wall))
        check(d.alive(), "daemon died at EMFILE")
    finally:
        for s in socks:
            s.close()

    def serves():
        try:
            k = c.connect(timeout=1)
        except OSError:
            return False
        try:
            return k.req("PING", 1) == "PONG"
        except (Fail, OSError):
            return False
        finally:
            k.close()
    check(h.wait_for(serves, 8, 0.2), "daemon does not serve after EMFILE")
    check(h.wait_for(lambda: d.fds() <= fds0, 10),
          "fds %d, baseline %d: %s" % (d.fds(), fds0, fd_list(d.pid)))


ONE = (None,)
# A long reply is made a piece at a time (sudokud.conf(5), output_high):
# a connection's replies unsent are at most output_high, a piece and a
# line.
PIECE = 64 * 1024
LONG_REPLIES = [
    ("SLOWLOG GET 100000", 3), ("CLIENT LIST", 3000), ("STATS", 2000),
    ("HELP", 2000), ("PATH " + h.CLASSIC, 2000),
    ("SOLUTIONS " + "0" * 81 + " 100000", 3),
]


def until_end(k, timeout=60):
    """The lines of a reply that ends with END, however many."""
    return k.block(None, timeout, most=None)


def cards(k):
    """CLIENT LIST as {id: {field: value}}."""
    k.send("CLIENT LIST\n")
    return {int(e["id"]): e for e in
            (dict(f.split("=", 1) for f in ln.split())
             for ln in until_end(k))}


@T.case("replies of any length stay under output_high: SLOWLOG GET of a "
        "log of 100000, CLIENT LIST, STATS, HELP, PATH, SOLUTIONS asked "
        "over and over by clients that never read -> each holds at most "
        "output_high + 64 KiB; the listing read later comes whole, in order",
        transports=ONE, own=True, timeout=120)
def _(c):
    high = 65536
    d = h.Daemon(workers=1, output_high=high, output_low=16384,
                 count_max=100000, write_timeout=0, extra_conf="[server]\nslowlog_slower_than"
                 " = 0\nslowlog_max_len = 100000\n").start()
    stuck = []
    try:
        k = d.connect("unix")
        for _ in range(100):
            k.send("PING\n" * 1000)
            k.lines(1000)
        eq(k.req("SLOWLOG LEN"), "100000", "entries kept")
        rss0 = d.rss_kb()
        for req, n in LONG_REPLIES:
            s = d.raw_socket("unix")
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.sendall(((req + "\n") * n).encode())
            stuck.append(s)

        def blocked():
            return [int(e["pending"]) for e in cards(k).values()
                    if e["state"] == "blocked"]
        check(h.wait_for(lambda: len(blocked()) == len(LONG_REPLIES), 30,
                         0.2), "not all %d clients blocked: %r"
              % (len(LONG_REPLIES), cards(k)))
        time.sleep(0.5)         # any piece under way is queued by now
        pend = sorted(blocked())
        c.note("replies unsent of the %d clients: %r bytes; RSS grew by "
               "%d KiB" % (len(pend), pend, d.rss_kb() - rss0))
        check(len(pend) == len(LONG_REPLIES) and
              max(pend) <= high + PIECE + 512, "a client holds more than "
              "output_high + 64 KiB + a line (%d): %r"
              % (high + PIECE + 512, pend))
        h.check_mem(d.rss_kb() - rss0 < 64 * 1024, "RSS grew by %d KiB"
                    % (d.rss_kb() - rss0))
        eq(k.req("PING"), "PONG", "served beside them")
        # The listing, read now: newest first, ids one apart, to the
        # oldest still kept (requests since it began pushed some out).
        r = h.Client(stuck[0])
        ids = [int(ln.split()[0][3:]) for ln in until_end(r)]
        k.send("SLOWLOG GET 100000\n")
        oldest = int(until_end(k)[-1].split()[0][3:])
        check(ids == list(range(ids[0], ids[0] - len(ids), -1)),
              "ids not one apart, newest first: %r..." % ids[:5])
        # It ended at the oldest kept then: since, its connection's next
        # GETs (2) and this one may have pushed as many more out.
        check(oldest - 3 <= ids[-1] <= oldest, "the listing ended at id %d,"
              " the oldest kept is now %d" % (ids[-1], oldest))
        # It began at the newest then: SLOWLOG LEN's (id 100000) or later.
        check(ids[0] >= 100000, "the listing began at id %d" % ids[0])
    finally:
        for s in stuck:
            s.close()
        d.cleanup()


@T.case("CLIENT LIST of 1200 connections (a reply of several pieces): each "
        "once, ids increasing, then END; a client asking for it over and "
        "over without reading holds at most output_high + 64 KiB",
        transports=ONE, own=True, timeout=60)
def _(c):
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1400:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(1400, hard), hard))
    d = h.Daemon(workers=2, max_connections=2000, output_high=4096,
                 output_low=1024, write_timeout=0).start()
    conns = []
    try:
        conns = [d.raw_socket("unix") for _ in range(1200)]
        k = d.connect("unix")
        check(h.wait_for(lambda: len(cards(k)) == 1201, 20),
              "not all 1200 accepted")
        k.send("CLIENT LIST\n")
        got = until_end(k)
        ids = [int(ln.split()[0][3:]) for ln in got]
        eq(len(ids), 1201, "lines")
        check(ids == sorted(set(ids)), "ids not increasing, each once")
        check(sum(len(ln) + 1 for ln in got) > 4096 + PIECE,
              "the reply is shorter than output_high and a piece")
        s = d.raw_socket("unix")
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.sendall(b"CLIENT LIST\n" * 200)
        conns.append(s)

        def pending():
            got = cards(k)
            e = got[max(got)]           # s, the newest
            return int(e["pending"]) if e["state"] == "blocked" else None
        check(h.wait_for(lambda: pending() is not None, 20, 0.2),
              "the client that does not read never blocked")
        time.sleep(0.5)
        n = pending()
        c.note("replies unsent: %d bytes" % n)
        check(n <= 4096 + PIECE + 512, "%d bytes unsent, more than "
              "output_high + 64 KiB + a line" % n)
    finally:
        for s in conns:
            s.close()
        d.cleanup()


if __name__ == "__main__":
    sys.exit(T.run())
