#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
soak.py -- a daemon under a mix of hostile clients for a while: clients
that pipeline and hang up, trickle bytes, never read, send garbage, and
well-behaved ones whose every reply is checked, while SIGHUPs arrive.
Then: no sanitizer report, every checked reply right, and the daemon's
open fds and RSS back to where they were.

SOAK_SECONDS sets the length: 60 s by default against a sanitizer build
(what CI runs), 15 s otherwise.
"""

import os
import random
import signal
import socket
import sys
import threading
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402

T = h.Tap()
SECONDS = float(os.environ.get("SOAK_SECONDS") or
                (60 if h.SANITIZED else 15))


class Mix:
    """The clients, one thread each, until the deadline."""

    def __init__(self, d, deadline, puzzles):
        self.d = d
        self.deadline = deadline
        self.puzzles = puzzles
        self.errors = []
        self.checked = 0
        self.lock = threading.Lock()

    def alive(self):
        return time.monotonic() < self.deadline

    def sock(self, rnd):
        return self.d.raw_socket(rnd.choice(("unix", "tcp")), timeout=10)

    def fail(self, what):
        with self.lock:
            self.errors.append(what)

    def good(self, rnd):
        """Pipelines puzzles and checks every answer."""
        k = h.Client(self.sock(rnd), 30)
        try:
            while self.alive():
                batch = [rnd.choice(self.puzzles) for _ in range(
                    rnd.randint(1, 64))]
                k.send("".join(p + "\n" for p in batch))
                for p in batch:
                    sol = k.line(30)
                    why = h.solution_problem(p, sol)
                    if why:
                        self.fail("%s -> %s: %s" % (p, sol, why))
                        return
                with self.lock:
                    self.checked += len(batch)
        finally:
            k.close()

    def hangup(self, rnd):
        """Pipelines hard work, then closes or resets at once."""
        while self.alive():
            s = self.sock(rnd)
            try:
                s.sendall(("COUNT %s 1000\n" % ("0" * 81)).encode() *
                          rnd.randint(1, 100))
                if rnd.random() < 0.5:
                    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                 b"\x01\x00\x00\x00\x00\x00\x00\x00")
            except OSError:
                pass
            s.close()
            time.sleep(rnd.random() * 0.05)

    def trickle(self, rnd):
        """A byte at a time, slowly, sometimes never ending the line."""
        s = self.sock(rnd)
        try:
            while self.alive():
                s.sendall(rnd.choice((b"P", b"I", b"N", b"G", b"\n")))
                time.sleep(0.2)
        except OSError:
            pass        # closed for its slowness: fine
        s.close()

    def deaf(self, rnd):
        """Pipelines and never reads."""
        s = self.sock(rnd)
        s.settimeout(2)
        try:
            while self.alive():
                s.sendall(b"HELP\nSTATS\n" * 500)
        except OSError:
            pass        # closed by write_timeout: fine
        s.close()

    def garbage(self, rnd):
        """Random bytes, long lines, TLS and HTTP openings."""
        while self.alive():
            s = self.sock(rnd)
            try:
                s.sendall(rnd.choice((
                    os.urandom(rnd.randint(1, 5000)),
                    b"\x16\x03\x01" + os.urandom(200),
                    b"get / http/1.1\r\n\r\n",
                    b"x" * 70000 + b"\n",
                    b"SOLVE " + os.urandom(81) + b"\n")))
                s.settimeout(0.2)
                s.recv(4096)
            except OSError:
                pass
            s.close()

    def hup(self, rnd):
        while self.alive():
            try:
                self.d.proc.send_signal(signal.SIGHUP)
            except ProcessLookupError:
                return
            time.sleep(0.5 + rnd.random())


@T.case("a minute of hostile and honest clients with SIGHUPs -> every "
        "checked reply right, no sanitizer report, fds and RSS back",
        transports=(None,), timeout=int(SECONDS) + 90,
        daemon={"workers": 2, "idle_timeout": 3, "write_timeout": 2,
                "max_line": 4096, "count_max": 1000})
def _(c):
    d = c.d
    puzzles = h.load_puzzles("puzzles3_magictour_top1465", 300)
    k = d.connect("unix")
    eq(k.req("PING"), "PONG", "warm up")
    k.close()
    time.sleep(0.5)
    fds0, rss0 = d.fds(), d.rss_kb()
    mix = Mix(d, time.monotonic() + SECONDS, puzzles)
    kinds = ([mix.good] * 4 + [mix.hangup] * 3 + [mix.trickle] * 2 +
             [mix.deaf] * 2 + [mix.garbage] * 2 + [mix.hup])
    threads = [threading.Thread(target=fn, args=(random.Random(i),),
                                daemon=True) for i, fn in enumerate(kinds)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(SECONDS + 60)
    check(not any(t.is_alive() for t in threads), "clients still running")
    eq(mix.errors, [], "wrong replies")
    check(mix.checked > 0, "no reply was checked")
    # Everything the clients opened goes, at the latest at the timeouts.
    back = h.wait_for(lambda: d.fds() <= fds0, 10, 0.2)
    st = c.stats()
    c.note("%.0f s: %d answers checked, %d connections, fds %d -> %d, "
           "RSS %d -> %d KiB" % (SECONDS, mix.checked,
                                 st["total_connections"], fds0, d.fds(),
                                 rss0, d.rss_kb()))
    check(back, "fds %d at the start, %d now" % (fds0, d.fds()))
    h.check_mem(d.rss_kb() < rss0 + 8192, "RSS %d KiB at the start, %d KiB "
                "now" % (rss0, d.rss_kb()))
    eq(d.terminate(10), 0, "exit status after SIGTERM")


if __name__ == "__main__":
    sys.exit(T.run())
