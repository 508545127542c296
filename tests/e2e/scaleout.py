#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
scaleout.py -- sudokud behind HAProxy, as contrib/haproxy/sudokud.cfg
sets it up: three daemons with tcp_proxy listeners on loopback ports,
HAProxy from Debian in front, run with that very file (its addresses and
paths replaced by free ones; the test fails if the file no longer has
the lines it replaces), and sudokuc sending the whole 17-clue set
through it.  Every answer is checked by the test's own grid checker.
A backend killed (SIGKILL) or stopped (SIGTERM) in the middle of the
batch costs nothing: sudokuc resends what the lost connections left
unanswered, HAProxy's check takes the node out, and the backends' logs
name the client the PROXY header carries.
"""

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
from balancer import Farm, HAProxy                      # noqa: E402

T = h.Tap()
ONE = (None,)
SUDOKUC = h.SUDOKUC
EXAMPLE = HAProxy.EXAMPLE
SET = "puzzles2_17_clue"
KILL_AT = 5000          # answers read before a backend is stopped


def example_check_timing():
    """inter and fall of the example's servers: the bound on marking down."""
    with open(EXAMPLE) as f:
        m = re.search(r"^\s*default-server .*\binter (\d+)s\b.*\bfall (\d+)",
                      f.read(), re.M)
    if m is None:
        raise h.Fail("%s: no default-server line with inter and fall"
                     % EXAMPLE)
    return int(m.group(1)), int(m.group(2))


class Batch:
    """
    sudokuc over the whole set, its answers read as they come; at_line
    (a function) runs once KILL_AT answers are in, while the batch goes on.
    """

    def __init__(self, args, at_line=None):
        self.puzzles = h.load_puzzles(SET)
        self.args = ["-v", "-t", "10", "-C", "6"] + args + [
            os.path.join(h.PUZZLE_DIR, SET)]
        self.at_line = at_line
        self.mid = None         # (answers read, client still running)
        self.err = []

    def run(self, timeout=120):
        p = h.spawn([SUDOKUC] + self.args, stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        t = threading.Thread(target=lambda: self.err.extend(p.stderr),
                             daemon=True)
        t.start()
        lines = []
        for line in p.stdout:
            lines.append(line.rstrip("\n"))
            if self.at_line is not None and len(lines) == KILL_AT:
                self.mid = (len(lines), p.poll() is None)
                self.at_line()
        try:
            rc = p.wait(timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            raise h.Fail("sudokuc still running after %d s" % timeout)
        t.join(5)
        self.lines = lines
        return rc

    def stderr(self):
        return "".join(self.err)

    def check_answers(self):
        eq(len(self.lines), len(self.puzzles), "answers\n" +
           h.short(self.stderr(), 2000))
        for i, (p, sol) in enumerate(zip(self.puzzles, self.lines)):
            why = h.solution_problem(p, sol)
            if why:
                raise h.Fail("answer %d (line %d of %s): %s"
                             % (i + 1, i + 1, SET, why))

    def check_mid(self):
        check(self.mid is not None and self.mid[1],
              "the node was stopped after %d answers while sudokuc was "
              "still running (it was: %r)" % (KILL_AT, self.mid))


def watch_down(hap, node, t0):
    """A thread that notes when HAProxy's check has node DOWN."""
    found = {}

    def run():
        deadline = t0 + 30
        while time.monotonic() < deadline:
            if hap.servers().get(node, {}).get("status", "").startswith(
                    "DOWN"):
                found["after"] = time.monotonic() - t0
                return
            time.sleep(0.05)
    th = threading.Thread(target=run, daemon=True)
    th.start()
    return th, found


def served(d):
    return h.stats_ints(d.stats())["cmd_solve"]


@T.case("HAProxy with contrib/haproxy/sudokud.cfg: the whole 17-clue set "
        "via sudokuc, every answer right, all three nodes used",
        transports=ONE, own=True, timeout=180)
def _(c):
    with Farm() as f:
        b = Batch(["-H", "127.0.0.1:%d" % f.hap.port])
        rc = b.run()
        eq(rc, 0, "sudokuc exit status\n" + h.short(b.stderr(), 2000))
        b.check_answers()
        counts = [served(d) for d in f.nodes]
        c.note("%d puzzles through HAProxy; SOLVE per node: %s"
               % (len(b.lines), counts))
        check(all(n > 0 for n in counts), "every node solved some: %s"
              % counts)
        eq(sum(counts), len(b.puzzles), "SOLVE requests over all nodes")


def stop_mid_batch(c, sig, after=None):
    """Stop node1 with sig mid-batch; after(node1) runs before cleanup."""
    inter, fall = example_check_timing()
    with Farm() as f:
        victim = f.nodes[0]
        t = {}

        def stop():
            t["t0"] = time.monotonic()
            t["watch"] = watch_down(f.hap, "node1", t["t0"])
            victim.stopped = True
            victim.proc.send_signal(sig)
        b = Batch(["-H", "127.0.0.1:%d" % f.hap.port], at_line=stop)
        rc = b.run()
        eq(rc, 0, "sudokuc exit status\n" + h.short(b.stderr(), 2000))
        b.check_mid()
        b.check_answers()
        th, found = t["watch"]
        th.join(35)
        check("after" in found, "HAProxy never marked node1 down\n%s"
              % f.hap.log_tail())
        c.note("node1 stopped (signal %d) after %d answers; HAProxy had it "
               "down %.2f s later (inter %d s, fall %d); sudokuc said:\n%s"
               % (sig, KILL_AT, found["after"], inter, fall,
                  h.short(b.stderr(), 1500)))
        # Configured: fall failed checks, inter apart; the window is
        # generous (twice that, plus 1.5 s), as for the daemon's timeouts.
        check(found["after"] <= 2 * inter * fall + 1.5,
              "marked down within 2 x fall x inter (+ 1.5 s): took %.2f s"
              % found["after"])
        # Usually some requests were in flight; if the kill fell between
        # two writes there were none, and sudokuc just reconnects.
        check(re.search(r"requests? unanswered .*sending (them|it) again"
                        r"|before the end of the input.*connecting again",
                        b.stderr()),
              "sudokuc -v reports the resend of what node1 left "
              "unanswered:\n" + h.short(b.stderr(), 2000))
        if after is not None:
            after(victim)


@T.case("HAProxy: kill -9 of a node mid-batch -> sudokuc exits 0 with "
        "every answer, right and in order; the check marks it down",
        transports=ONE, own=True, timeout=180)
def _(c):
    stop_mid_batch(c, signal.SIGKILL)


@T.case("HAProxy: SIGTERM of a node mid-batch -> the same, and the node "
        "logs its drain and exits 0", transports=ONE, own=True, timeout=180)
def _(c):
    def drained(victim):
        eq(victim.wait_exit(5), 0, "exit status of the stopped node\n"
           + victim.log_tail())
        check(re.search(r"signal 15: shutting down", victim.log_text()),
              "the node's log shows the drain\n" + victim.log_tail())
    stop_mid_batch(c, signal.SIGTERM, drained)


def held_blocked(d):
    """Does CLIENT LIST show a connection of d's blocked on its output?"""
    k = d.connect("unix")
    try:
        return any("state=blocked" in ln for ln in k.block("CLIENT LIST"))
    finally:
        k.close()


@T.case("HAProxy: a draining node (SIGTERM, a client holding it open) "
        "fails its /healthz check with 503 and gets no new requests while "
        "the others answer them", transports=ONE, own=True, timeout=120)
def _(c):
    with Farm() as f:
        victim = f.nodes[0]
        # A client of node1's own that reads nothing: its replies (more
        # than the socket buffers hold) keep the drain open until it
        # reads them, below, within shutdown_timeout (10 s).
        hold = victim.connect("unix")
        n = 30000
        # From a thread: past output_high the daemon stops reading.
        th, _ = h.sender(hold.sock, ("SOLVE %s\n" % h.CLASSIC).encode() * n)
        # Until node1 stops reading them (its output past output_high):
        # only then is the drain sure to outlast HAProxy's checks.  How
        # many it has answered by then says nothing (on one core, a few).
        check(h.wait_for(lambda: held_blocked(victim), 30),
              "node1 never stopped reading the held requests: %d solved"
              % victim.solved())
        victim.stopped = True
        victim.proc.send_signal(signal.SIGTERM)
        check(h.wait_for(lambda: f.hap.servers().get("node1", {}).get(
            "status", "").startswith("DOWN"), 15),
              "HAProxy never marked node1 down\n%s" % f.hap.log_tail())
        st = f.hap.servers()["node1"]
        check(st.get("check_status") == "L7STS" and
              st.get("check_code") == "503",
              "node1 is down for its /healthz 503, not a refused connection: "
              "%r" % {k: st.get(k) for k in ("check_status", "check_code")})
        check(victim.alive(), "node1 exited before the test could use its "
              "drain")
        before = victim.solved()
        k = h.Client(socket.create_connection(("127.0.0.1", f.hap.port), 5))
        for _ in range(3):
            for p in h.load_puzzles(SET, 200):
                k.send("SOLVE %s\n" % p)
            for p in h.load_puzzles(SET, 200):
                eq(h.solution_problem(p, k.line(10)), None, "an answer")
        k.close()
        eq(victim.solved(), before, "requests node1 got while draining")
        others = sum(d.solved() for d in f.nodes[1:])
        check(others >= 600, "the others answered %d" % others)
        # What it had read when the signal came is answered, then the end.
        got = hold.read_to_eof(60).decode().split("\n")
        check(got.pop() == "" and len(got) >= before and
              set(got) == {h.CLASSIC_SOLUTION}, "node1's own client, "
              "answered in its drain: %d replies, %d read" % (len(got),
                                                             before))
        hold.close()
        eq(victim.wait_exit(15), 0, "node1's exit status")


@T.case("HAProxy: a node's log and CLIENT LIST name the client address "
        "of the PROXY header, not HAProxy's", transports=ONE, own=True)
def _(c):
    with Farm() as f:
        # The client connects from 127.0.0.2; HAProxy from 127.0.0.1.
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(5)
        s.bind(("127.0.0.2", 0))
        s.connect(("127.0.0.1", f.hap.port))
        me = "127.0.0.2:%d" % s.getsockname()[1]
        k = h.Client(s, 5)
        eq(k.req("PING"), "PONG", "PING through HAProxy")
        # While it is open: one node lists it, as the client it is.
        listed = [ln for d in f.nodes
                  for ln in d.connect("unix").block("CLIENT LIST")
                  if "transport=tcp_proxy" in ln]
        eq(len(listed), 1, "tcp_proxy connections listed: %r" % listed)
        check(re.match(r"^id=\d+ transport=tcp_proxy addr=tcp:%s via=tcp:"
                       r"127\.0\.0\.1:\d+ age=\d+ idle=\d+ requests=1 "
                       r"pending=0 state=idle auth=none$" % re.escape(me),
                       listed[0]),
              "CLIENT LIST: %r" % listed[0])
        k.close()
        pat = re.compile(r"tcp %s via 127\.0\.0\.1:\d+: PROXY header"
                         % re.escape(me))
        check(h.wait_for(lambda: any(pat.search(d.log_text())
                                     for d in f.nodes), 10),
              "no node logged the connection as %s:\n%s" % (
                  me, "\n".join(d.log_tail(5) for d in f.nodes)))


class Squatter:
    """Keeps n connections open on a metrics port, as an attacker would:
    every other one after a keep-alive response, the rest silent; each
    closed is opened again at once, until stop()."""

    def __init__(self, port, n=16):
        self.port, self.n, self.done = port, n, False
        self.socks = [self.open(i) for i in range(n)]
        self.opened = n
        self.t = threading.Thread(target=self.run, daemon=True)
        self.t.start()

    def open(self, i):
        s = socket.create_connection(("127.0.0.1", self.port), 5)
        if i % 2 == 0:
            s.sendall(b"GET /livez HTTP/1.1\r\nHost: x\r\n\r\n")
            data = b""
            while not data.endswith(b"ok\n"):   # (b"" at EOF ends it)
                data += s.recv(4096) or b"ok\n"
        return s

    def run(self):
        import select
        while not self.done:
            r, _, _ = select.select(self.socks, [], [], 0.05)
            for s in r:
                i = self.socks.index(s)
                if s.recv(4096) == b"":
                    s.close()
                    try:
                        self.socks[i] = self.open(i)
                        self.opened += 1
                    except OSError:
                        pass

    def stop(self):
        self.done = True
        self.t.join(5)
        for s in self.socks:
            s.close()


@T.case("HAProxy: 16 connections held open on a node's metrics port "
        "(metrics_max_connections), idle after a keep-alive response or "
        "silent, each reopened as soon as it is closed -> the /healthz "
        "check still passes: the node stays UP, no check fails",
        transports=ONE, own=True, timeout=90)
def _(c):
    inter, fall = example_check_timing()
    with Farm() as f:
        node = f.nodes[0]
        base = int(f.hap.servers()["node1"]["chkfail"])
        sq = Squatter(node.metrics_port)
        try:
            # Long enough for fall checks in a row to fail, twice over.
            time.sleep(inter * (2 * fall + 1))
            srv = f.hap.servers()["node1"]
        finally:
            sq.stop()
        st = h.stats_ints(node.stats("unix"))
        c.note("node1 %s, failed checks %d -> %s; metrics_evicted %s, "
               "metrics_refused %s, the squatter opened %d connections"
               % (srv["status"], base, srv["chkfail"],
                  st.get("metrics_evicted"), st.get("metrics_refused"),
                  sq.opened))
        eq((srv["status"], int(srv["chkfail"])), ("UP", base),
           "node1 (status, failed checks) with the metrics port full\n"
           + f.hap.log_tail())
        check(st["metrics_evicted"] >= 2 * fall, "only %d connections "
              "made room: did the checks come?" % st["metrics_evicted"])


if __name__ == "__main__":
    sys.exit(T.run())
