#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
signals.py -- SIGHUP reloads (good and broken files), the service
manager interfaces (NOTIFY_SOCKET, socket activation with LISTEN_FDS),
socket permissions and restarting on a TCP port with TIME_WAIT left.
"""

import os
import re
import signal
import socket
import stat
import sys
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq, Fail                     # noqa: E402

T = h.Tap({"workers": 1})
ONE = (None,)


def hard_needing_guesses(k, n=20):
    """Hardest puzzles that a daemon with budget 1 refuses."""
    out = []
    for p in h.load_puzzles("puzzles6_forum_hardest_1106", n):
        if k.req("SOLVE " + p).startswith("ERR budget "):
            out.append(p)
    check(out, "no hardest puzzle needs more than one guess")
    return out


def rewrite_conf(d, **changes):
    d.opts.update(changes)
    d.write_conf()


def reloaded_lines(d):
    """How many times the log says 'configuration reloaded'."""
    with open(d.log, "rb") as f:
        return f.read().count(b"configuration reloaded")


def hup_and_wait(d, k, pred, timeout=10):
    d.proc.send_signal(signal.SIGHUP)
    return h.wait_for(pred, timeout, 0.05)


@T.case("SIGHUP with a valid new config -> applied, connections kept",
        transports=("unix", "tcp"), daemon={"workers": 1, "budget": 1})
def _(c):
    k = c.connect()
    hard = hard_needing_guesses(k)
    s1 = h.stats_ints(k.stats())
    rewrite_conf(c.d, budget=100000, count_max=5)
    ok = hup_and_wait(c.d, k, lambda: not k.req("SOLVE " + hard[0])
                      .startswith("ERR "))
    check(ok, "new budget not applied 10 s after SIGHUP\n" + c.d.log_tail())
    h.check_solution(hard[0], k.req("SOLVE " + hard[0]))
    eq(k.req("COUNT %s 5" % h.EMPTY), "5", "COUNT at the new count_max")
    check(k.req("COUNT %s 6" % h.EMPTY).startswith("ERR syntax "),
          "COUNT above the new count_max")
    s2 = h.stats_ints(k.stats())
    check(s2["cmd_solve"] > s1["cmd_solve"] and s2["err_budget"]
          >= s1["err_budget"], "counters reset by SIGHUP")
    eq(s2["pid"], s1["pid"], "pid")
    k2 = c.connect()
    eq(k2.req("PING"), "PONG", "new connection")


@T.case("SIGHUP with a broken config -> file:line logged, old config kept",
        transports=ONE, daemon={"workers": 1, "budget": 1})
def _(c):
    k = c.connect()
    hard = hard_needing_guesses(k, 10)
    with open(c.d.conf, "a") as f:
        f.write("[solver]\nbudget = 100000\nno_such_key = 3\n")
    c.d.proc.send_signal(signal.SIGHUP)
    conf = re.escape(os.path.basename(c.d.conf))
    logged = h.wait_for(lambda: re.search(conf + r":\d+: ",
                                          open(c.d.log).read()), 10)
    check(logged, "no 'file:line: reason' in the log\n" + c.d.log_tail())
    eq(k.req("SOLVE " + hard[0]), "ERR budget search budget of 1 guesses "
       "exceeded", "old budget kept")
    eq(k.req("PING"), "PONG", "still serving")
    check(c.d.alive(), "daemon died")
    # and a file that has become unreadable
    os.unlink(c.d.conf)
    c.d.proc.send_signal(signal.SIGHUP)
    time.sleep(0.3)
    eq(k.req("SOLVE " + hard[0]), "ERR budget search budget of 1 guesses "
       "exceeded", "old budget kept without a file")
    k2 = c.connect(transport="tcp")
    eq(k2.req("PING"), "PONG", "new connection")


@T.case("SIGHUP: a smaller max_line applies to the next request",
        transports=ONE, daemon={"workers": 1})
def _(c):
    k = c.connect()
    line = "PING" + " " * 500
    eq(k.req(line), "PONG", "505-byte line under max_line 1024")
    rewrite_conf(c.d, max_line=256)
    ok = hup_and_wait(c.d, k, lambda: k.req(line).startswith("ERR toolong"))
    check(ok, "max_line 256 not applied")
    eq(k.req(line), "ERR toolong request line longer than 256 bytes",
       "toolong text names the new limit")
    eq(k.req("PING"), "PONG", "usable")


@T.case("SIGHUP raising max_line during a too-long line: its one ERR "
        "toolong names the limit it broke", transports=ONE,
        daemon={"workers": 1})
def _(c):
    k = c.connect()
    b0 = c.stats()["bytes_read"]
    k.send("x" * 2000)                  # over 1024: being discarded
    # Read by the daemon (and so begun under max_line 1024) before the
    # reload, however long that takes.
    check(h.wait_for(lambda: c.stats()["bytes_read"] - b0 >= 2000),
          "the daemon did not read the 2000 bytes")
    probe = c.connect()
    line = "PING" + " " * 2000
    eq(probe.req(line), "ERR toolong request line longer than 1024 bytes",
       "a 2004-byte line under max_line 1024")
    rewrite_conf(c.d, max_line=4096)
    ok = hup_and_wait(c.d, probe, lambda: probe.req(line) == "PONG")
    check(ok, "max_line 4096 not applied")
    k.send("\n")
    eq(k.line(), "ERR toolong request line longer than 1024 bytes",
       "the line begun under max_line 1024")
    eq(k.req(line), "PONG", "a 2004-byte line under max_line 4096")


@T.case("300 SIGHUPs in a row -> still serving, exits 0, sanitizers quiet",
        transports=ONE, daemon={"workers": 2})
def _(c):
    d = c.d
    k = c.connect()
    for i in range(300):
        check(d.alive(), "daemon died after %d SIGHUPs, status %s\n%s"
              % (i, d.proc.returncode, d.log_tail(25)))
        d.proc.send_signal(signal.SIGHUP)
        time.sleep(0.002)
    time.sleep(0.3)
    check(d.alive(), "daemon died, status %s\n%s"
          % (d.proc.returncode, d.log_tail(25)))
    eq(k.req("PING"), "PONG", "old connection")
    eq(d.terminate(5), 0, "exit status after SIGTERM")
    with open(d.log, "rb") as f:
        bad = [ln for ln in f.read().split(b"\n")
               if any(b < 0x20 and b != 9 or b >= 0x7f for b in ln)]
    check(not bad, "%d log lines with garbage bytes (freed memory?), "
          "e.g. %r" % (len(bad), bad[:2]))


@T.case("chaos: resets, half-closes, pipelines and SIGHUPs at once -> "
        "consistent and no leak", transports=ONE,
        daemon={"workers": 2, "budget": 100000}, timeout=40)
def _(c):
    import random
    import struct
    import threading
    d = c.d
    base = c.connect()
    eq(base.req("PING"), "PONG", "warm up")
    fds0 = d.fds()
    hard = h.load_puzzles("puzzles6_forum_hardest_1106", 60)
    errors = []
    stop = time.monotonic() + 3.0

    def client(seed):
        rnd = random.Random(seed)
        tr = ("unix", "tcp")
        try:
            while time.monotonic() < stop:
                s = d.raw_socket(rnd.choice(tr))
                ps = rnd.sample(hard, 4)
                s.sendall(("".join("SOLVE %s\n" % p for p in ps)
                           + "COUNT %s 500\nHELP\nSTATS\n" % h.EMPTY)
                          .encode())
                how = rnd.randrange(3)
                if how == 0:            # reset at once
                    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                 struct.pack("ii", 1, 0))
                    s.close()
                elif how == 1:          # half-close, read everything
                    s.shutdown(socket.SHUT_WR)
                    k = h.Client(s, 10)
                    lines = k.read_to_eof(10).decode("ascii").split("\n")
                    for p, ln in zip(ps, lines):
                        h.check_solution(p, ln)
                    eq(lines[4], "500", "COUNT under chaos")
                    k.close()
                else:                   # read one reply, then close
                    k = h.Client(s, 10)
                    h.check_solution(ps[0], k.line(10))
                    k.close()
        except Exception as e:
            errors.append("%s: %s" % (type(e).__name__, e))

    ts = [threading.Thread(target=client, args=(i,), daemon=True)
          for i in range(4)]
    for t in ts:
        t.start()
    hups = 0
    while time.monotonic() < stop:
        rewrite_conf(d, budget=100000 if hups % 2 else 90000)
        d.proc.send_signal(signal.SIGHUP)
        hups += 1
        time.sleep(0.2)
    for t in ts:
        t.join(15)
    check(not errors, "client errors: %s" % errors[:3])
    check(d.alive(), "daemon died")
    eq(base.req("PING"), "PONG", "still serving")
    check(h.wait_for(lambda: h.stats_ints(base.stats())["curr_connections"]
                     == 1, 10), "connections not all closed")
    check(h.wait_for(lambda: d.fds() <= fds0, 10),
          "fds %d, baseline %d" % (d.fds(), fds0))
    c.note("chaos: %d SIGHUPs, %d connections" %
           (hups, h.stats_ints(base.stats())["total_connections"]))


@T.case("SIGHUP: a new idle_timeout applies to open connections and "
        "to new ones (sudokud(8) SIGNALS)", transports=ONE,
        daemon={"workers": 1, "idle_timeout": 30})
def _(c):
    old = c.connect()
    eq(old.req("PING"), "PONG", "old connection")
    rewrite_conf(c.d, idle_timeout=1)
    reloads = reloaded_lines(c.d)
    c.d.proc.send_signal(signal.SIGHUP)
    # Logged once every worker serves with the new file.
    check(h.wait_for(lambda: reloaded_lines(c.d) > reloads),
          "no 'configuration reloaded'\n" + c.d.log_tail())
    new = c.connect()
    eq(new.req("PING"), "PONG", "new connection")
    t0 = time.monotonic()
    new.expect_eof(4, "close of the new connection at the new "
                   "idle_timeout of 1 s")
    check(time.monotonic() - t0 >= 0.5, "closed %.2f s after its PING, "
          "idle_timeout 1" % (time.monotonic() - t0))
    old.expect_eof(4, "close of the connection accepted before the "
                   "reload at the new idle_timeout of 1 s")


def notify_socket(d):
    path = os.path.join(d.tmp, "notify")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(path)
    s.settimeout(5)
    d.env = {"NOTIFY_SOCKET": path}
    return s


def notify_wait(s, word, timeout=5):
    """Messages until one has a line equal to word; returns all of them."""
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        s.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            msg = s.recv(4096).decode("ascii", "replace")
        except socket.timeout:
            break
        seen.append(msg)
        if word in msg.split("\n"):
            return seen
    raise Fail("no %s from the daemon; got %r" % (word, seen))


@T.case("NOTIFY_SOCKET gets READY=1, RELOADING=1 + MONOTONIC_USEC, "
        "STOPPING=1", transports=ONE, own=True)
def _(c):
    d = h.Daemon(workers=1)
    try:
        n = notify_socket(d)
        d.start()
        notify_wait(n, "READY=1")
        d.proc.send_signal(signal.SIGHUP)
        msgs = notify_wait(n, "READY=1")
        rel = [m for m in msgs if "RELOADING=1" in m.split("\n")]
        check(rel, "no RELOADING=1 before READY=1: %r" % msgs)
        check(re.search(r"^MONOTONIC_USEC=\d+$", rel[0], re.M),
              "RELOADING=1 without MONOTONIC_USEC= in the same message: %r"
              % rel[0])
        eq(d.terminate(5), 0, "exit status")
        notify_wait(n, "STOPPING=1", 1)
        n.close()
    finally:
        d.cleanup()


@T.case("SIGTERM -> STOPPING=1 with EXTEND_TIMEOUT_USEC=, shutdown_timeout "
        "+ 5 s in us, the value a reload left", transports=ONE, own=True)
def _(c):
    # systemd's TimeoutStopSec= would otherwise kill a longer drain.
    for start, reload in ((45, None), (45, 3600)):
        d = h.Daemon(workers=1, shutdown_timeout=start)
        try:
            n = notify_socket(d)
            d.start()
            notify_wait(n, "READY=1")
            if reload is not None:
                rewrite_conf(d, shutdown_timeout=reload)
                d.proc.send_signal(signal.SIGHUP)
                notify_wait(n, "READY=1")
            eq(d.terminate(5), 0, "exit status")
            msg = notify_wait(n, "STOPPING=1", 1)[-1]
            want = ((reload or start) + 5) * 1000000
            eq(sorted(msg.split("\n")), ["EXTEND_TIMEOUT_USEC=%d" % want,
                                         "STOPPING=1"],
               "the message of shutdown_timeout %d%s" % (start, "" if reload
                                                      is None else ", then "
                                                      "%d" % reload))
            n.close()
        finally:
            d.cleanup()


@T.case("socket activation: inherited fd 3 is used, never unlinked",
        transports=ONE, own=True)
def _(c):
    d = h.Daemon(workers=1)
    ls = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        ls.bind(d.path)
        ls.listen(16)
        ino = os.stat(d.path).st_ino
        d.inherit_fd = ls.fileno()
        d.wrapper = ["sh", "-c", 'LISTEN_PID=$$; LISTEN_FDS=1; '
                     'export LISTEN_PID LISTEN_FDS; exec "$@"', "sh"]
        d.start()
        ls.close()          # only the daemon holds it now
        eq(os.stat(d.path).st_ino, ino, "socket replaced instead of used")
        k = d.connect("unix")
        eq(k.req("PING"), "PONG", "PING on the inherited socket")
        k.close()
        k = d.connect("tcp")
        eq(k.req("PING"), "PONG", "PING on the configured TCP listener")
        k.close()
        eq(d.terminate(5), 0, "exit status")
        check(os.path.exists(d.path), "inherited socket file was unlinked")
    finally:
        ls.close()
        d.cleanup()


@T.case("Unix socket mode: 0660 by default, unix_mode applied",
        transports=ONE, own=True)
def _(c):
    d = h.Daemon(workers=1, tcp=False)
    try:
        d.start()
        eq(oct(stat.S_IMODE(os.stat(d.path).st_mode)), oct(0o660),
           "default mode")
        d.terminate(5)
        d.extra_conf = "[listen]\nunix_mode = 0600\n"
        d.start()
        eq(oct(stat.S_IMODE(os.stat(d.path).st_mode)), oct(0o600),
           "unix_mode 0600")
    finally:
        d.cleanup()


@T.case("restart on the same TCP port right after server-closed "
        "connections (TIME_WAIT)", transports=ONE, own=True)
def _(c):
    d = h.Daemon(workers=1, unix=False)
    try:
        d.start()
        for _ in range(5):
            k = d.connect("tcp")
            eq(k.req("QUIT"), "BYE", "QUIT")
            k.expect_eof()
            k.close()
        port = d.port
        eq(d.terminate(5), 0, "exit status")
        d.spawn()                       # same config, same port
        state = d.wait_ready(5)
        eq(state, "ready", "restart on port %d\n%s" % (port, d.log_tail()))
        k = d.connect("tcp")
        eq(k.req("PING"), "PONG", "PING after restart")
        k.close()
    finally:
        d.cleanup()


if __name__ == "__main__":
    sys.exit(T.run())
