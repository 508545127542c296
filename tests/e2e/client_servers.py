#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
client_servers.py -- sudokuc with several servers, and no lost request
(issue 11): real daemons on loopback addresses and Unix sockets in a
temporary directory, killed (SIGKILL) or stopped (SIGTERM) in the middle
of a batch, restarted, or standing in for a server that never answers.

Every answer is checked here, independently of sudokuc: the whole 17-clue
set gets one line per puzzle, in input order, each a valid solution of
its puzzle.  Each case is bounded in time (-t, and the case timeout,
which fails it saying what it waited for) and stops every process it
started.  Durations are bounded only against sudokuc's -t; a batch is
stretched, where a case needs it long, by reading its output slowly,
never by assuming how fast the machine solves.
"""

import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402

T = h.Tap()
SUDOKUC = h.SUDOKUC
SET17 = os.path.join(h.PUZZLE_DIR, "puzzles2_17_clue")
UNITS = ([[r * 9 + c for c in range(9)] for r in range(9)] +
         [[r * 9 + c for r in range(9)] for c in range(9)] +
         [[(br + i // 3) * 9 + bc + i % 3 for i in range(9)]
          for br in (0, 3, 6) for bc in (0, 3, 6)])
DIGITS = set("123456789")
TMP = tempfile.mkdtemp(prefix="e2e_servers.")


def env(extra=None):
    e = dict(os.environ)
    for k in ("SUDOKUD_SOCKET", "SUDOKUD_SERVERS"):
        e.pop(k, None)
    e.update(extra or {})
    return e


def run(*args, extra_env=None, timeout=60, stdin=""):
    p = h.run_child([SUDOKUC] + list(args), input=stdin, env=env(extra_env),
                    text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def answers_problem(puzzles, out):
    """'' if out has one valid solution per puzzle, in order."""
    lines = out.split("\n")
    if lines[-1] != "":
        return "output does not end with a newline"
    lines.pop()
    if len(lines) != len(puzzles):
        return "%d answers for %d puzzles" % (len(lines), len(puzzles))
    for k, (p, a) in enumerate(zip(puzzles, lines)):
        if len(a) != 81 or not set(a) <= DIGITS or any(
                ch not in ".0" and ch != a[i] for i, ch in enumerate(p)) or \
                any(set(a[i] for i in u) != DIGITS for u in UNITS):
            return "answer %d is not a solution of %s: %r" % (k + 1, p, a)
    return ""


def daemon(**opts):
    """A private sudokud on a Unix socket and a loopback TCP port."""
    return h.Daemon(workers=2, **opts).start()


def tcp(d):
    return "127.0.0.1:%d" % d.port


class Batch:
    """
    sudokuc on a file, its standard output read by a thread as it comes;
    wait_lines(n) returns once n answers are out, so that a daemon can
    be stopped in the middle of the batch.
    """

    def __init__(self, args, extra_env=None, pace=None):
        self.p = h.spawn([SUDOKUC] + list(args), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env(extra_env))
        self.pace = pace        # (bytes, seconds): read slowly
        self.chunks = []
        self.lines = 0
        self.cond = threading.Condition()
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        fd = self.p.stdout.fileno()
        while True:
            if self.pace:
                time.sleep(self.pace[1])
            data = os.read(fd, self.pace[0] if self.pace else 65536)
            with self.cond:
                if not data:
                    self.lines = -1
                    self.cond.notify_all()
                    return
                self.chunks.append(data)
                self.lines += data.count(b"\n")
                self.cond.notify_all()

    def wait_lines(self, n):
        """Until n answers are out (or the output ended): however long
        that takes, within the case's timeout."""
        with self.cond:
            while not (self.lines >= n or self.lines < 0):
                self.cond.wait(1.0)
            return self.lines

    def finish(self, timeout=60):
        try:
            err = self.p.stderr.read()
            self.p.wait(timeout)
        finally:
            if self.p.poll() is None:
                self.p.kill()
                self.p.wait()
        self.thread.join(10)
        return (self.p.returncode, b"".join(self.chunks).decode(),
                err.decode())


def mid_batch(c, stop, args_of, extra_env=None, restart=False):
    """
    The whole 17-clue set over two daemons; one of them is stopped with
    stop(daemon) once 5,000 answers are out (and started again once
    25,000 are, with restart).  sudokuc must exit 0 with every answer.
    """
    puzzles = h.load_puzzles("puzzles2_17_clue")
    a, b = daemon(), daemon()
    batch = Batch(["-v", "-t", "10"] + args_of(a, b) + [SET17], extra_env)
    at = batch.wait_lines(5000)
    stop(a)
    if restart:
        batch.wait_lines(25000)
        a.spawn()
        check(a.wait_ready(5) == "ready", "restart: " + a.log_tail())
    rc, out, err = batch.finish()
    resent = re.search(r"^sudokuc: (\d+) requests? sent again$", err, re.M)
    c.note("stopped at %d answers, %s requests sent again" % (
        at, resent.group(1) if resent else "no"))
    eq(rc, 0, "exit status (stderr: %s)" % err)
    check(5000 <= at < len(puzzles), "stopped mid-batch: at %d" % at)
    eq(answers_problem(puzzles, out), "", "the answers")
    return a, b, err


def summary(err, name):
    """The -v line of a server: (answers, lost, reconnects)."""
    m = re.search(r"^sudokuc: %s: (\d+) answers?, (\d+) connections? lost, "
                  r"(\d+) reconnects?$" % re.escape(name), err, re.M)
    check(m, "no summary for %s in:\n%s" % (name, err))
    return tuple(int(x) for x in m.groups())


def sigkill(d):
    d.kill()


def sigterm(d):
    d.stopped = True
    d.terminate(10)


@T.case("-H a -H b, kill -9 of a mid-batch: exit 0, every answer of the "
        "17-clue set present, valid, in order", transports=(None,),
        own=True, timeout=90)
def _(c):
    a, b, err = mid_batch(c, sigkill, lambda a, b: ["-H", tcp(a), "-H",
                                                     tcp(b)])
    na, lost, _ = summary(err, "tcp:" + tcp(a))
    nb, _, _ = summary(err, "tcp:" + tcp(b))
    # One, and another if a reconnect beat the dying daemon's listener.
    check(lost >= 1, "connections to a lost: %d" % lost)
    eq(na + nb >= 49158, True, "answers from a and b")
    check(re.search(r"^sudokuc: tcp:%s: (connection reset by the server|the "
                    r"server closed the connection)" % re.escape(tcp(a)),
                    err, re.M), "the loss reported with -v")


@T.case("-H a -H b, SIGTERM of a mid-batch: exit 0, every answer of the "
        "17-clue set present, valid, in order", transports=(None,),
        own=True, timeout=90)
def _(c):
    a, b, err = mid_batch(c, sigterm, lambda a, b: ["-H", tcp(a), "-H",
                                                     tcp(b)])
    _, lost, _ = summary(err, "tcp:" + tcp(a))
    check(lost >= 1, "connections to a lost: %d" % lost)
    check(re.search(r"^sudokuc: tcp:%s: the server closed the connection "
                    % re.escape(tcp(a)), err, re.M),
          "the graceful close reported with -v")


@T.case("SUDOKUD_SERVERS=unix:a,b (TCP), -C 4, kill -9 of a mid-batch: "
        "exit 0, every answer", transports=(None,), own=True, timeout=90)
def _(c):
    puzzles = h.load_puzzles("puzzles2_17_clue")
    a, b = daemon(), daemon()
    batch = Batch(["-v", "-t", "10", "-C", "4", SET17], {
        "SUDOKUD_SERVERS": "unix:%s, %s," % (a.path, tcp(b))})
    at = batch.wait_lines(5000)
    a.kill()
    rc, out, err = batch.finish()
    eq(rc, 0, "exit status (stderr: %s)" % err)
    check(at < len(puzzles), "stopped mid-batch: at %d" % at)
    eq(answers_problem(puzzles, out), "", "the answers")
    _, lost, _ = summary(err, "unix:" + a.path)
    check(lost >= 2, "connections to a lost (two of the four): %d" % lost)


@T.case("kill -9 of a, restarted mid-batch on its port: reconnected, it "
        "answers again; every answer", transports=(None,), own=True,
        timeout=90)
def _(c):
    puzzles = h.load_puzzles("puzzles2_17_clue")
    port = h.free_port()
    conf = "[server]\nworkers = 2\n[listen]\ntcp = 127.0.0.1:%d\n" % port
    a = h.Daemon(config=conf, port=port).start()
    b = daemon()
    # A slow reader stretches the batch (about 8 s) over the restart.
    batch = Batch(["-v", "-t", "10", "-H", "127.0.0.1:%d" % port, "-H",
                   tcp(b), SET17], pace=(4096, 0.008))
    at = batch.wait_lines(3000)
    a.kill()
    batch.wait_lines(8000)
    a.spawn()
    check(a.wait_ready(5) == "ready", "restart: " + a.log_tail())
    rc, out, err = batch.finish()
    eq(rc, 0, "exit status (stderr: %s)" % err)
    check(at < len(puzzles), "stopped mid-batch: at %d" % at)
    eq(answers_problem(puzzles, out), "", "the answers")
    na, lost, again = summary(err, "tcp:127.0.0.1:%d" % port)
    check(lost >= 1 and again >= 1, "lost %d, reconnects %d" % (lost, again))
    check("tcp:127.0.0.1:%d: connected again" % port in err,
          "the reconnection reported with -v")
    stats = h.stats_ints(a.stats("tcp"))
    check(stats["cmd_solve"] > 0, "the restarted a answered %d"
          % stats["cmd_solve"])
    c.note("a answered %d in all, %d after its restart" % (na,
                                                          stats["cmd_solve"]))


class Silent:
    """A server that accepts connections, reads, and never answers."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.conns = []
        self.done = False
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while not self.done:
            try:
                conn, _ = self.sock.accept()
                conn.setblocking(False)
                self.conns.append(conn)
            except OSError:
                pass
            for conn in self.conns:
                try:
                    conn.recv(65536)
                except OSError:
                    pass

    def close(self):
        self.done = True
        self.thread.join(5)
        for conn in self.conns:
            conn.close()
        self.sock.close()


@T.case("a server that never answers, and a daemon: after -t 1 its "
        "requests go to the daemon, never to it again; exit 0",
        transports=(None,), own=True, timeout=60)
def _(c):
    puzzles = h.load_puzzles("puzzles3_magictour_top1465")
    s, d = Silent(), daemon()
    try:
        t0 = time.monotonic()
        # Read slowly (about 3 s for the set), so that the batch outlasts
        # the timeout, the reconnection and the probe, on any machine.
        batch = Batch(["-v", "-t", "1", "-H", "127.0.0.1:%d" % s.port,
                       "-H", tcp(d), os.path.join(
                           h.PUZZLE_DIR, "puzzles3_magictour_top1465")],
                      pace=(4096, 0.1))
        rc, out, err = batch.finish()
        took = time.monotonic() - t0
    finally:
        s.close()
    eq(rc, 0, "exit status (stderr: %s)" % err)
    eq(answers_problem(puzzles, out), "", "the answers")
    held = re.findall(r"^sudokuc: tcp:127.0.0.1:%d: no reply for 1 s with "
                      r"\d+ requests? unanswered; sending" % s.port, err,
                      re.M)
    # Probed with PING after its timeout, it never holds requests again:
    # one timeout with requests, however long the batch goes on.
    eq(len(held), 1, "timeouts with requests on the silent server "
       "(stderr: %s)" % err)
    check(took >= 1, "done in %.1f s, before the -t 1 timeout" % took)
    eq(summary(err, "tcp:127.0.0.1:%d" % s.port)[0], 0, "silent answers")


@T.case("only a server that never answers: -t 1, then exit 2 saying so and "
        "where the answers stop", transports=(None,), own=True)
def _(c):
    s = Silent()
    f = os.path.join(TMP, "three.txt")
    with open(f, "w") as fh:
        fh.write("# three\n%s\n%s\n%s\n" % ((h.CLASSIC,) * 3))
    try:
        t0 = time.monotonic()
        rc, out, err = run("-t", "1", "-C", "1", "-H", "127.0.0.1:%d" %
                           s.port, f)
        took = time.monotonic() - t0
    finally:
        s.close()
    eq((rc, out), (2, ""), "exit status and output")
    eq(err, "sudokuc: tcp:127.0.0.1:%d: no reply for 1 s with 3 requests "
       "unanswered\nsudokuc: no server answered for 1 s: giving up with 3 "
       "requests unanswered; the answers stop before %s:2\n" % (s.port, f),
       "messages")
    check(1 <= took < 10, "took %.1f s" % took)


@T.case("ERR busy (max_connections 1, -C 3): the other connections retry; "
        "every answer, exit 0", transports=(None,), own=True)
def _(c):
    puzzles = h.load_puzzles("puzzles3_magictour_top1465")
    d = daemon(max_connections=1)
    rc, out, err = run("-v", "-t", "5", "-C", "3", "-s", d.path,
                       os.path.join(h.PUZZLE_DIR,
                                    "puzzles3_magictour_top1465"))
    eq(rc, 0, "exit status (stderr: %s)" % err)
    eq(answers_problem(puzzles, out), "", "the answers")
    check("server busy: too many connections" in err, "busy reported: " +
          err)


@T.case("no server reachable at the start: each one's reason, exit 2 at "
        "once", transports=(None,), own=True)
def _(c):
    missing = os.path.join(TMP, "nobody.sock")
    port = h.free_port()
    t0 = time.monotonic()
    rc, out, err = run("-t", "30", "-s", missing, "-H", "127.0.0.1:%d" % port,
                       h.CLASSIC)
    took = time.monotonic() - t0
    eq((rc, out), (2, ""), "exit status and output")
    lines = err.splitlines()
    eq(len(lines), 3, "a message per server, then the hint once: " + err)
    eq(lines[0], "sudokuc: cannot connect to unix:%s: No such file or "
       "directory" % missing, "the socket's reason")
    eq(lines[1], "sudokuc: cannot connect to tcp:127.0.0.1:%d: Connection "
       "refused" % port, "the port's reason")
    # Where to point sudokuc instead, said once (issue 23.1).
    eq(lines[2], "sudokuc: is sudokud running? -s PATH, -H HOST[:PORT] or "
       "SUDOKUD_SERVERS say where it listens; -L solves without a daemon",
       "the hint")
    # At once: no waiting for the -t 30 timeout.
    check(took < 15, "took %.1f s with -t 30" % took)


@T.case("one server refused, one up: every answer from the other, exit 0; "
        "-C 1 still connects to both", transports=(None,), own=True)
def _(c):
    puzzles = h.load_puzzles("puzzles3_magictour_top1465")
    path = os.path.join(h.PUZZLE_DIR, "puzzles3_magictour_top1465")
    port = h.free_port()
    d = daemon()
    rc, out, err = run("-v", "-t", "5", "-H", "127.0.0.1:%d" % port, "-s",
                       d.path, path)
    eq(rc, 0, "exit status (stderr: %s)" % err)
    eq(answers_problem(puzzles, out), "", "the answers")
    eq(summary(err, "tcp:127.0.0.1:%d" % port)[0], 0, "refused answers")
    eq(summary(err, "unix:" + d.path)[0], len(puzzles), "answers")
    e = daemon()
    rc, out, err = run("-v", "-C", "1", "-s", d.path, "-H", tcp(e), path)
    eq(rc, 0, "-C 1: exit status (stderr: %s)" % err)
    eq(answers_problem(puzzles, out), "", "-C 1: the answers")
    check(summary(err, "unix:" + d.path)[0] > 0 and
          summary(err, "tcp:" + tcp(e))[0] > 0, "-C 1: both answered")


@T.case("SUDOKUD_SERVERS and SUDOKUD_SOCKET lists; -s, -H and -p replace "
        "them; a bad entry is a usage error", transports=(None,), own=True)
def _(c):
    d, e = daemon(), daemon()
    missing = os.path.join(TMP, "nobody.sock")
    want = h.CLASSIC_SOLUTION + "\n"
    ok = []
    for extra, args in (
            ({"SUDOKUD_SERVERS": "unix:%s,tcp:%s" % (d.path, tcp(e))}, []),
            ({"SUDOKUD_SERVERS": " %s , 127.0.0.1:%d" % (d.path, e.port)},
             []),
            ({"SUDOKUD_SOCKET": "%s,%s" % (d.path, e.path)}, []),
            ({"SUDOKUD_SERVERS": "unix:" + missing,
              "SUDOKUD_SOCKET": missing}, ["-s", d.path]),
            ({"SUDOKUD_SERVERS": "unix:" + missing}, ["-p", str(e.port)]),
            ({"SUDOKUD_SERVERS": "", "SUDOKUD_SOCKET": d.path}, [])):
        rc, out, err = run(*(["-v"] + args + [h.CLASSIC]), extra_env=extra)
        ok.append((rc, out) == (0, want) and "unix:" + missing not in err)
    eq(ok, [True] * 6, "answered by the servers named")
    rc, out, err = run("-v", h.CLASSIC, "-C", "1", extra_env={
        "SUDOKUD_SERVERS": "%s,tcp:%s" % (d.path, tcp(e))})
    check("unix:%s: 1 answer" % d.path in err or
          "tcp:%s: 1 answer" % tcp(e) in err, "both servers listed: " + err)
    bad = [run(h.CLASSIC, extra_env={"SUDOKUD_SERVERS": v}) for v in
           ("[::1", "tcp:", "host:0", "a:b:c:[x]:7")]
    check(all(r[0] == 2 and r[1] == "" and
              r[2].startswith("sudokuc: SUDOKUD_SERVERS: ") for r in bad[:3]),
          bad)


@T.case("-t: a number of seconds from 1 to 86400; not with -L",
        transports=(None,), own=True)
def _(c):
    res = [run(*a) for a in (["-t", "0", h.CLASSIC],
                             ["-t", "86401", h.CLASSIC],
                             ["-t", "x", h.CLASSIC],
                             ["-L", "-t", "5", h.CLASSIC])]
    check(all(r[0] == 2 and r[1] == "" for r in res) and
          all("timeout must be a number from 1 to 86400" in r[2]
              for r in res[:3]) and "-t" in res[3][2], res)


if __name__ == "__main__":
    try:
        sys.exit(T.run())
    finally:
        subprocess.run(["rm", "-rf", TMP])
