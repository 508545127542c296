#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
ops.py -- sudokud operations, end to end (TAP, Python 3 stdlib only).

What sudokud(8) and sudokud.conf(5) promise an operator, checked against
the real daemon over real sockets:

- privilege drop (as root only, else SKIP): "user" and "group" as seen
  by the kernel in /proc for every thread, the Unix socket made with
  unix_mode before the drop, SIGHUP still working after it, and the
  refusals: unknown user or group, uid 0, group without user, another
  user when not started as root;
- usage() equal to the SYNOPSIS of the built sudokud.8 (mandoc);
- SIGTERM under a big pipelined workload from several clients: every
  request the daemon read is answered, in order, then exit 0.

Where messages go and -v are in tests/e2e/ops_log.py; -n is covered by
tests/e2e/config.py, a single client at SIGTERM by
tests/e2e/lifecycle.py.
Environment: as tests/e2e/harness.py (top_builddir, top_srcdir,
PUZZLE_DIR, SUDOKUD, E2E_ONLY).
"""

import grp
import os
import pwd
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq, Fail                     # noqa: E402
from ops_common import (ONE, OpsDaemon, OpsTap, Skip,  # noqa: E402
                        need_root, ping_once, wait_pong)

NOUSER = "sudokud-no-such-user"
NOGROUP = "sudokud-no-such-group"

T = OpsTap({"workers": 1})


# ---- privilege drop ---------------------------------------------------------

def proc_ids(pid):
    """{tid: (uids, gids, groups)} from /proc/PID/task/*/status."""
    out = {}
    for tid in os.listdir("/proc/%d/task" % pid):
        f = {}
        try:
            with open("/proc/%d/task/%s/status" % (pid, tid)) as st:
                for line in st:
                    k, _, v = line.partition(":")
                    f[k] = v.split()
        except OSError:
            continue                    # the thread just ended
        out[int(tid)] = ([int(x) for x in f["Uid"]],
                         [int(x) for x in f["Gid"]],
                         sorted(int(x) for x in f.get("Groups", [])))
    return out


def check_ids(d, uid, gid, what):
    """Every thread: real, effective, saved, fs ids; groups only gid."""
    ids = proc_ids(d.pid)
    check(len(ids) >= 2, "only %d thread(s) in /proc: no workers?"
          % len(ids))
    for tid, (uids, gids, groups) in sorted(ids.items()):
        eq(uids, [uid] * 4, "%s: Uid of thread %d (real, effective, saved, "
           "fs)" % (what, tid))
        eq(gids, [gid] * 4, "%s: Gid of thread %d" % (what, tid))
        eq(groups, [gid], "%s: Groups of thread %d" % (what, tid))
    return len(ids)


def other_group(pw):
    """A group that is not pw's primary one, to see "group" applied."""
    for name in ("nogroup", "users", "daemon", "staff", "adm"):
        try:
            g = grp.getgrnam(name)
        except KeyError:
            continue
        if g.gr_gid != pw.pw_gid and g.gr_gid != 0:
            return g
    return None


def nobody():
    try:
        return pwd.getpwnam("nobody")
    except KeyError:
        raise Skip("no user nobody")


def refused(d, timeout=10.0):
    """
    Run a daemon that must refuse to start: PING it all the while (it
    must never answer) and return (exit status, its log lines).
    """
    d.spawn()
    deadline = time.monotonic() + timeout
    while d.alive() and time.monotonic() < deadline:
        got = ping_once(d.path, 0.2)
        check(got is None, "a daemon that must not start answered %r\n%s"
              % (got, d.log_tail()))
        time.sleep(0.005)
    rc = d.wait_exit(0.5)
    check(rc is not None, "still running after %.0f s\n%s"
          % (timeout, d.log_tail()))
    return rc, d.lines()


@T.case("user = nobody: serves; every thread has nobody's uid and gid "
        "(real, effective, saved, fs) and only its group; socket made "
        "as root with unix_mode", transports=ONE, own=True)
def _(c):
    need_root()
    pw = nobody()
    d = OpsDaemon(extra_conf="[server]\nuser = nobody\n"
                  "[listen]\nunix_mode = 0606\n")
    try:
        d.start()
        wait_pong(d)
        n = check_ids(d, pw.pw_uid, pw.pw_gid, "user = nobody")
        st = os.lstat(d.path)
        check(stat.S_ISSOCK(st.st_mode), "not a socket at %s" % d.path)
        eq(st.st_uid, 0, "socket owner (made before the drop, as root)")
        eq(st.st_gid, 0, "socket group")
        eq(oct(stat.S_IMODE(st.st_mode)), oct(0o606), "socket mode")
        k = d.connect("unix")
        eq(int(k.stats()["pid"]), d.pid, "STAT pid")
        eq(k.req("COUNT %s" % h.CLASSIC), "1", "COUNT after the drop")
        k.close()
        eq(d.stop(), 0, "exit status after SIGTERM")
        c.note("%d threads checked" % n)
    finally:
        d.cleanup()


@T.case("user = nobody, group = another group: every thread has that gid "
        "and only that group; unix_group applied before the drop",
        transports=ONE, own=True)
def _(c):
    need_root()
    pw = nobody()
    g = other_group(pw)
    if g is None:
        raise Skip("no group other than nobody's primary one")
    d = OpsDaemon(extra_conf="[server]\nuser = nobody\ngroup = %s\n"
                  "[listen]\nunix_mode = 0660\nunix_group = %s\n"
                  % (g.gr_name, g.gr_name))
    try:
        d.start()
        wait_pong(d)
        check_ids(d, pw.pw_uid, g.gr_gid, "group = %s" % g.gr_name)
        st = os.lstat(d.path)
        eq((st.st_uid, st.st_gid), (0, g.gr_gid), "socket owner and group")
        eq(oct(stat.S_IMODE(st.st_mode)), oct(0o660), "socket mode")
        eq(d.stop(), 0, "exit status after SIGTERM")
        c.note("group %s (gid %d), nobody's primary gid %d"
               % (g.gr_name, g.gr_gid, pw.pw_gid))
    finally:
        d.cleanup()


@T.case("after the drop, SIGHUP re-reads a readable file and applies it",
        transports=ONE, own=True)
def _(c):
    need_root()
    nobody()
    d = OpsDaemon(max_line=1024, extra_conf="[server]\nuser = nobody\n")
    try:
        os.chmod(d.tmp, 0o755)          # as /etc: readable by the user
        d.start()
        wait_pong(d)
        k = d.connect("unix")
        got = k.req("PING " + "x" * 300)
        check(got.startswith("ERR syntax "), "a 300-byte line under "
              "max_line 1024: %r" % got[:80])
        d.opts["max_line"] = 256
        d.write_conf()
        os.chmod(d.conf, 0o644)
        d.proc.send_signal(signal.SIGHUP)
        got = h.wait_for(lambda: any("configuration reloaded" in ln
                                     for ln in d.lines()), 5)
        check(got, "no reload logged\n" + d.log_tail())
        check(not any("reload failed" in ln for ln in d.lines()),
              "reload failed as nobody\n" + d.log_tail())
        eq(k.req("PING " + "x" * 300)[:11], "ERR toolong",
           "the same line under the reloaded max_line 256")
        k.close()
        eq(d.stop(), 0, "exit status after SIGTERM")
    finally:
        d.cleanup()


@T.case("user that does not exist -> exit 1 with a clear message, "
        "never served, socket removed", transports=ONE, own=True)
def _(c):
    need_root()
    d = OpsDaemon(extra_conf="[server]\nuser = %s\n" % NOUSER)
    try:
        rc, lines = refused(d)
        eq(rc, 1, "exit status")
        eq(lines[-1:], ["no such user '%s'" % NOUSER],
           "last line on stderr")
        check(not os.path.exists(d.path), "socket left at %s" % d.path)
    finally:
        d.cleanup()


@T.case("group that does not exist -> exit 1 with a clear message, "
        "never served", transports=ONE, own=True)
def _(c):
    need_root()
    nobody()
    d = OpsDaemon(extra_conf="[server]\nuser = nobody\ngroup = %s\n"
                  % NOGROUP)
    try:
        rc, lines = refused(d)
        eq(rc, 1, "exit status")
        eq(lines[-1:], ["no such group '%s'" % NOGROUP],
           "last line on stderr")
        check(not os.path.exists(d.path), "socket left at %s" % d.path)
    finally:
        d.cleanup()


@T.case("user = root (uid 0) -> refused as dropping nothing; group without "
        "user -> refused; neither set -> stays root", transports=ONE,
        own=True)
def _(c):
    need_root()
    d = OpsDaemon(extra_conf="[server]\nuser = root\n")
    try:
        rc, lines = refused(d)
        eq(rc, 1, "user = root: exit status")
        eq(lines[-1:], ["user root has uid 0: that drops nothing (leave "
                        "user unset to stay root)"], "user = root: message")
        d.extra_conf = "[server]\ngroup = %s\n" % grp.getgrgid(0).gr_name
        rc, lines = refused(d)
        eq(rc, 1, "group alone: exit status")
        eq(lines[-1:], ["group %s set without user"
                        % grp.getgrgid(0).gr_name], "group alone: message")
        d.extra_conf = ""
        d.start()
        wait_pong(d)
        uids, gids, _ = proc_ids(d.pid)[d.pid]
        eq((uids, gids), ([0] * 4, [0] * 4), "ids with no user set")
        eq(d.stop(), 0, "exit status after SIGTERM")
    finally:
        d.cleanup()


@T.case("started as nobody: user = nobody is fine; user = daemon -> "
        "refused, not running as root", transports=ONE, own=True)
def _(c):
    need_root()
    pw = nobody()
    d = OpsDaemon(run_as=(pw.pw_uid, pw.pw_gid),
                  extra_conf="[server]\nuser = nobody\n")
    try:
        os.chown(d.tmp, pw.pw_uid, pw.pw_gid)
        d.start()
        wait_pong(d)
        uids, gids, groups = proc_ids(d.pid)[d.pid]
        eq((uids, gids), ([pw.pw_uid] * 4, [pw.pw_gid] * 4), "ids")
        eq(os.lstat(d.path).st_uid, pw.pw_uid, "socket owner")
        eq(d.stop(), 0, "exit status after SIGTERM")
        check(not os.path.exists(d.path), "socket not removed at exit")
        try:
            pwd.getpwnam("daemon")
        except KeyError:
            raise Skip("no user daemon")
        d.extra_conf = "[server]\nuser = daemon\n"
        rc, lines = refused(d)
        eq(rc, 1, "user = daemon: exit status")
        eq(lines[-1:], ["cannot switch to user daemon: not running as "
                        "root"], "user = daemon: message")
    finally:
        d.cleanup()


# ---- usage() and the man page -----------------------------------------------

def synopsis(text):
    """The SYNOPSIS section of mandoc's text output, whitespace squeezed."""
    text = re.sub(r".\x08", "", text)           # bold and underline
    out, inside = [], False
    for line in text.splitlines():
        if line.strip() == "SYNOPSIS" and not line.startswith(" "):
            inside = True
        elif inside and line and not line.startswith(" "):
            break
        elif inside:
            out.append(line)
    return " ".join(" ".join(out).split())


@T.case("usage() equals the SYNOPSIS of sudokud.8", transports=ONE,
        own=True, daemonless=True)
def _(c):
    if shutil.which("mandoc") is None:
        raise Skip("no mandoc")
    page = os.path.join(h.TOP_BUILDDIR, "man", "sudokud.8")
    if not os.path.exists(page):
        page = os.path.join(h.TOP_SRCDIR, "man", "sudokud.8.in")
        c.note("no built man/sudokud.8: used " + page)
    r = subprocess.run(["mandoc", "-Tascii", "-O", "width=400", page],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=10)
    eq(r.returncode, 0, "mandoc exit status (%r)" % r.stderr[:200])
    syn = synopsis(r.stdout.decode("ascii", "replace"))
    check(syn, "no SYNOPSIS in %s" % page)
    if not os.access(h.DAEMON, os.X_OK):
        raise Skip("no daemon at " + h.DAEMON)
    r = subprocess.run([h.DAEMON, "-Z"], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=10)
    eq(r.returncode, 2, "exit status for a bad flag")
    usage = [ln for ln in r.stderr.decode("ascii", "replace").splitlines()
             if ln.startswith("usage: ")]
    eq(len(usage), 1, "usage lines in %r" % r.stderr)
    eq(" ".join(usage[0][len("usage: "):].split()), syn,
       "usage() vs SYNOPSIS of %s" % page)


# ---- a reload re-arms every connection's timer ------------------------------
#
# A connection has one timer, at its earliest deadline (doc/architecture.md,
# Timeouts); a reload recomputes it (conn_retime()).  For each kind of
# deadline, a connection in that state when SIGHUP comes is still closed
# at its deadline -- the new timeout's, when the reload shortens it --
# not at the old one, nor never.  Windows as for any timeout of 2 s:
# closed at most 4.5 s after the reload (or the moment it counts from).

def timer_daemon(**opts):
    """A daemon with a NOTIFY_SOCKET, started and READY: (d, notify)."""
    d = OpsDaemon(workers=1, **opts)
    n = h.NotifySocket(os.path.join(d.tmp, "notify"))
    d.env = {"NOTIFY_SOCKET": n.path}
    d.start()
    check(n.wait("READY=1")[0], "no READY=1 at start")
    return d, n


def reload_to(d, n, **opts):
    """The config rewritten with opts, SIGHUP, READY=1: when it was."""
    d.opts.update(opts)
    d.write_conf()
    d.proc.send_signal(signal.SIGHUP)
    msg, seen = n.wait("READY=1", 10)
    check(msg, "no READY=1 after SIGHUP: %r\n%s" % (seen, d.log_tail()))
    return time.monotonic()


@T.case("SIGHUP, idle_timeout 60 -> 2: an idle connection and one in the "
        "middle of a line are closed 2 s after their last line or first "
        "byte, not 60 s", transports=ONE, own=True)
def _(c):
    d, n = timer_daemon(idle_timeout=60)
    try:
        idle = d.connect("unix")
        eq(idle.req("PING"), "PONG", "PING")
        part = d.connect("unix")
        part.send("PIN")
        t0 = time.monotonic()
        r = reload_to(d, n, idle_timeout=2)
        for k, what in ((idle, "idle"), (part, "half a line")):
            k.expect_eof(8, "the close of the %s connection" % what)
            took = time.monotonic() - t0
            check(1 <= took <= max(2, r - t0) + 2.5, "%s connection closed "
                  "%.1f s after its last bytes, idle_timeout 2 from %.1f s"
                  % (what, took, r - t0))
        eq(int(d.stats("unix")["idle_kicks"]), 2, "idle_kicks")
    finally:
        n.close()
        d.cleanup()


@T.case("SIGHUP, write_timeout 60 -> 2: a client that never reads is "
        "closed 2 s after its replies stopped going, not 60 s",
        transports=ONE, own=True)
def _(c):
    d, n = timer_daemon(write_timeout=60, output_high=4096, output_low=0)
    stuck = d.raw_socket("unix")
    try:
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        t, res = h.sender(stuck, b"HELP\n" * 100000, stop_on_block=20)
        last = None
        while res["sent"] != last and not res["done"]:
            last = res["sent"]          # until the daemon stops reading
            time.sleep(0.5)
        check(not res["done"], "the client's sending never blocked")
        r = reload_to(d, n, write_timeout=2)
        kicked = h.wait_for(lambda: int(d.stats("unix")["output_kicks"])
                            >= 1, 10, 0.05)
        took = time.monotonic() - r
        check(kicked, "not closed 10 s after the reload to write_timeout 2")
        check(took <= 4.5, "closed %.1f s after the reload to write_timeout "
              "2" % took)
    finally:
        stuck.close()
        n.close()
        d.cleanup()


@T.case("SIGHUP while a connection lingers after QUIT (the client keeps "
        "sending) -> still closed by the 5 s linger cap", transports=ONE,
        own=True)
def _(c):
    d, n = timer_daemon()
    try:
        for attempt in range(3):
            k = d.connect("unix")
            eq(k.req("QUIT"), "BYE", "QUIT")
            k.expect_eof(what="the end of the replies (LINGER)")
            t0 = time.monotonic()
            # Bytes every 20 ms keep the 250 ms quiet deadline away:
            # only the cap, 5 s after QUIT, can end it.
            ends = []

            def trickle():
                try:
                    while len(ends) == 0:
                        k.sock.send(b"x")
                        time.sleep(0.02)
                except OSError as e:
                    ends.append((time.monotonic(), e))
            t = threading.Thread(target=trickle, daemon=True)
            t.start()
            r = reload_to(d, n, idle_timeout=299)
            lingering = not ends
            if lingering:
                break           # still lingering at the reload: the test
            k.close()           # closed before it (a stalled client): again
        check(lingering, "closed before the reload three times over")
        t.join(15)
        check(ends, "still lingering %.0f s after QUIT and %.0f s after the "
              "reload: the 5 s cap was lost" % (time.monotonic() - t0,
                                                 time.monotonic() - r))
        took = ends[0][0] - t0
        check(took <= 10.5, "closed %.1f s after QUIT (%r), linger cap 5 s"
              % (took, ends[0][1]))
        k.close()
    finally:
        n.close()
        d.cleanup()


# ---- SIGTERM under load -----------------------------------------------------

# COUNT on the empty grid up to this: a few ms each (the hardest puzzles
# take ~0.1 ms), so that a batch takes long enough to be cut by SIGTERM.
HEAVY_LIMIT = 20000


def workload(i, n, hard):
    """n requests for client i and the expected replies (or checkers)."""
    reqs, want = [], []
    for j in range(n):
        p = hard[(i * 131 + j) % len(hard)]
        if j % 8 == 7:
            reqs.append("COUNT %s %d" % (h.EMPTY, HEAVY_LIMIT))
            want.append(str(HEAVY_LIMIT))
        elif j % 4 == 0:
            reqs.append("SOLVE " + p)
            want.append(("sol", p))
        elif j % 4 == 1:
            reqs.append("COUNT %s" % p)
            want.append("1")            # every puzzle of the set is proper
        elif j % 4 == 2:
            reqs.append("LEXMIN %s" % p)
            want.append(("sol", p))
        else:
            reqs.append("PING")
            want.append("PONG")
    return ("".join(r + "\n" for r in reqs)).encode(), want


class Reader:
    """Reads one connection to EOF in a thread, keeping every line."""

    def __init__(self, sock):
        self.sock = sock.dup()
        self.sock.settimeout(40)
        self.lines = []
        self.rest = b""
        self.error = None
        self.t = threading.Thread(target=self.run, daemon=True)
        self.t.start()

    def run(self):
        try:
            while True:
                data = self.sock.recv(262144)
                if not data:
                    break
                buf = self.rest + data
                *done, self.rest = buf.split(b"\n")
                self.lines.extend(x.decode("ascii", "replace")
                                  for x in done)
        except OSError as e:
            self.error = e
        finally:
            self.sock.close()


def check_replies(name, want, r):
    check(r.error is None, "%s: %s after %d replies"
          % (name, r.error, len(r.lines)))
    eq(r.rest, b"", "%s: bytes after the last LF" % name)
    eq(len(r.lines), len(want), "%s: number of replies" % name)
    for j, (w, got) in enumerate(zip(want, r.lines)):
        if isinstance(w, tuple):
            try:
                h.check_solution(w[1], got)
            except Fail as e:
                raise Fail("%s: reply %d: %s" % (name, j + 1, e))
        elif got != w:
            raise Fail("%s: reply %d: expected %r, got %r"
                       % (name, j + 1, w, got[:100]))


@T.case("SIGTERM while 6 clients have thousands of pipelined hard "
        "requests in flight -> each gets all its replies, in order; exit 0",
        transports=ONE, own=True, timeout=60)
def _(c):
    # Each batch is one write small enough (~47 KB) to sit whole in the
    # socket buffers once sent: on SIGTERM the daemon reads what the
    # kernel holds (conn.c, conn_drain), so a write completed before the
    # signal has been "read" and every request in it must be answered.
    n = 600
    hard = h.load_puzzles("puzzles6_forum_hardest_1106")
    d = OpsDaemon(workers=2, tcp=True, shutdown_timeout=40,
                  budget=100000000, count_max=HEAVY_LIMIT,
                  write_timeout=40, idle_timeout=60)
    socks = []
    try:
        d.start()
        # A-D write their batches and are being answered at the signal;
        # E and F write theirs just before it and have no reply yet.
        names = ["A-unix", "B-unix", "C-tcp", "D-tcp", "E-unix", "F-unix"]
        for name in names:
            s = d.raw_socket("tcp" if "tcp" in name else "unix", 10)
            k = h.Client(s)
            eq(k.req("PING"), "PONG", "%s: PING (accepted)" % name)
            socks.append(s)
        data, want = zip(*[workload(i, n, hard) for i in range(6)])
        readers = [Reader(s) for s in socks]
        for i in range(4):
            socks[i].sendall(data[i])
        check(h.wait_for(lambda: all(len(r.lines) >= 8
                                     for r in readers[:4]), 10, 0.005),
              "A-D not being answered: %s" % [len(r.lines) for r in readers])
        for i in (4, 5):
            socks[i].sendall(data[i])
        d.proc.send_signal(signal.SIGTERM)
        t0 = time.monotonic()
        at_signal = [len(r.lines) for r in readers]
        for r in readers:
            r.t.join(45)
            check(not r.t.is_alive(), "a reader got no EOF")
        rc = d.wait_exit(45)
        took = time.monotonic() - t0
        eq(rc, 0, "exit status\n" + d.log_tail())
        pending = 6 * n - sum(at_signal)
        check(sum(at_signal[:4]) < 4 * n and sum(at_signal[4:]) < 2 * n,
              "replies had arrived before the signal (%s): the workload "
              "is too small to test anything" % at_signal)
        for name, w, r in zip(names, want, readers):
            check_replies(name, w, r)
        check(not os.path.exists(d.path), "socket file left behind")
        c.note("%d of %d requests in flight at SIGTERM (replies then: %s); "
               "exit after %.2f s" % (pending, 6 * n, at_signal, took))
    finally:
        for s in socks:
            s.close()
        d.cleanup()


if __name__ == "__main__":
    sys.exit(T.run())
