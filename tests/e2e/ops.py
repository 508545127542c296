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
- where messages go: stderr with -d; syslog(3) at the configured
  facility otherwise (a test /dev/log, as root when no logger owns the
  path); the journal's "<N>" prefixes when JOURNAL_STREAM names stderr;
  connection-level messages only at the debug level;
- -v raising the level one step each time, also after a reload, and -d
  forcing debug;
- usage() equal to the SYNOPSIS of the built sudokud.8 (mandoc);
- SIGTERM under a big pipelined workload from several clients: every
  request the daemon read is answered, in order, then exit 0.

-n is covered by tests/e2e/config.py, a single client at SIGTERM by
tests/e2e/lifecycle.py, "<2>" for a fatal error by tests/e2e/listener.py.
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
import struct
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq, Fail                     # noqa: E402

ONE = (None,)
NOUSER = "sudokud-no-such-user"
NOGROUP = "sudokud-no-such-group"
LOG_LOCAL3 = 19                     # syslog.h: LOG_LOCAL3 >> 3
SEV_CRIT, SEV_WARNING, SEV_INFO, SEV_DEBUG = 2, 4, 6, 7


class Skip(Exception):
    """Raised by a case that cannot run here; the reason goes to TAP."""


class OpsTap(h.Tap):
    """h.Tap plus "# SKIP reason" for cases that raise Skip."""

    skip_reason = None

    def run_one(self, label, fn, tr, dopts, timeout, own):
        def wrapped(ctx):
            try:
                fn(ctx)
            except Skip as e:
                self.skip_reason = str(e)
        self.skip_reason = None
        super().run_one(label, wrapped, tr, dopts, timeout, own)

    def emit(self, ok, label, diag=None, skip=None):
        if ok and skip is None and self.skip_reason:
            skip, diag = self.skip_reason, None
        self.skip_reason = None
        super().emit(ok, label, diag, skip)


T = OpsTap({"workers": 1})


def need_root():
    if os.geteuid() != 0:
        raise Skip("not running as root")


# ---- a daemon with chosen flags, environment and user ---------------------

class OpsDaemon(h.Daemon):
    """
    h.Daemon with argv flags of our choosing (default "-d"), a clean
    environment (no JOURNAL_STREAM, NOTIFY_SOCKET or LISTEN_* from the
    caller), journal=True to point JOURNAL_STREAM at the log file (the
    daemon's stdout and stderr), and run_as=(uid, gid) to start it as
    that user with no supplementary groups.
    """

    def __init__(self, flags=("-d",), journal=False, run_as=None, **kw):
        kw.setdefault("tcp", False)
        super().__init__(**kw)
        self.flags = list(flags)
        self.journal = journal
        self.run_as = run_as

    def spawn(self):
        self.write_conf()
        logf = open(self.log, "ab")
        env = {k: v for k, v in os.environ.items()
               if k not in ("JOURNAL_STREAM", "NOTIFY_SOCKET", "LISTEN_PID",
                            "LISTEN_FDS", "LISTEN_FDNAMES")}
        if self.journal:
            st = os.fstat(logf.fileno())
            env["JOURNAL_STREAM"] = "%d:%d" % (st.st_dev, st.st_ino)
        env.update(self.env or {})
        extra = {}
        if self.run_as is not None:
            extra = {"user": self.run_as[0], "group": self.run_as[1],
                     "extra_groups": []}
        self.proc = subprocess.Popen(
            [h.DAEMON] + self.flags + ["-f", self.conf],
            stdin=subprocess.DEVNULL, stdout=logf, stderr=logf,
            close_fds=True, env=env, **extra)
        logf.close()
        return self.proc

    def raw_lines(self):
        with open(self.log, "rb") as f:
            text = f.read().decode("ascii", "replace")
        return [ln for ln in text.splitlines() if not is_sanitizer_noise(ln)]

    def lines(self):
        """The log lines, without -d's time stamps."""
        return [h.unstamp(ln) for ln in self.raw_lines()]

    def wait_exit(self, timeout=5.0):
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self, timeout=5.0):
        """SIGTERM; the exit status (None after a SIGKILL)."""
        return self.terminate(timeout)


def reset_log(d):
    """Empty the daemon's stderr file (made if missing) between runs."""
    d.findings += d.scan_log()
    with open(d.log, "wb"):
        pass
    d.log_seen = 0


def is_sanitizer_noise(ln):
    """Lines a sanitizer runtime may add that are not sudokud's own."""
    return ln.startswith("==") and "Sanitizer" not in ln


def ping_once(path, timeout=2.0):
    """PONG if a daemon serves path, else None; never raises."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    try:
        s.connect(path)
        s.sendall(b"PING\n")
        buf = b""
        while not buf.endswith(b"\n"):
            data = s.recv(64)
            if not data:
                break
            buf += data
        return buf.decode("ascii", "replace").strip() or None
    except OSError:
        return None
    finally:
        s.close()


def wait_pong(d, timeout=5.0):
    """Until the daemon answers PING (its server runs); Fail otherwise."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ping_once(d.path, 1.0) == "PONG":
            return
        if not d.alive():
            raise Fail("daemon exited with %s\n%s"
                       % (d.proc.returncode, d.log_tail()))
        time.sleep(0.02)
    raise Fail("no PONG within %.0f s\n%s" % (timeout, d.log_tail()))


def journal_lines(d):
    """(priority, text) for each "<N>text" line; Fail on any other line."""
    out = []
    for ln in d.lines():
        m = re.match(r"<([0-7])>(.*)$", ln)
        check(m is not None, "journal line without a <N> prefix: %r\n%s"
              % (ln, d.log_tail()))
        out.append((int(m.group(1)), m.group(2)))
    return out


def has(lines, pri, pattern):
    return any(p == pri and re.search(pattern, t) for p, t in lines)


def show(lines):
    return "\n".join("<%d>%s" % pl for pl in lines) or "(no lines)"


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


def refused(d, timeout=5.0):
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
        eq(lines[-1:], ["user %s: no such entry" % NOUSER],
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
        eq(lines[-1:], ["group %s: no such entry" % NOGROUP],
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


# ---- where messages go ------------------------------------------------------

START_RE = r"^sudokud \S+ starting, "


@T.case("-d: messages on stderr without <N> prefixes, debug ones too",
        transports=ONE, own=True)
def _(c):
    d = OpsDaemon(flags=("-d",), workers=2)
    try:
        d.start()
        eq(d.stop(), 0, "exit status")
        lines = d.lines()
        for pat in (START_RE, r"^listening on unix:" + re.escape(d.path) + "$",
                    r"^serving with 2 worker threads$",
                    r"^worker [01] started$", r"^signal 15: shutting down",
                    r"^all connections closed, exiting$"):
            check(any(re.search(pat, ln) for ln in lines),
                  "no line matching %r in\n%s" % (pat, "\n".join(lines)))
        check(not any(ln.startswith("<") for ln in lines),
              "a <N> prefix without the journal:\n" + "\n".join(lines))
        raw = d.raw_lines()
        check(raw and all(h.STAMP_RE.match(ln) for ln in raw),
              "-d lines without an ISO 8601 time stamp:\n" + "\n".join(raw))
    finally:
        d.cleanup()


class DevLog:
    """A datagram socket bound at /dev/log for the test: syslog(3) target."""

    PATH = "/dev/log"

    def __init__(self):
        self.sock = None
        self.ino = None

    def __enter__(self):
        need_root()
        if os.path.lexists(self.PATH):
            raise Skip("%s exists (a system logger, or another test)"
                       % self.PATH)
        s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            s.bind(self.PATH)
        except OSError as e:
            s.close()
            raise Skip("cannot bind %s: %s" % (self.PATH, e))
        self.sock = s
        self.ino = os.lstat(self.PATH).st_ino
        os.chmod(self.PATH, 0o666)
        return self

    def __exit__(self, *exc):
        # Always remove it, but only if it is still ours.
        try:
            if os.lstat(self.PATH).st_ino == self.ino:
                os.unlink(self.PATH)
        except OSError:
            pass
        self.sock.close()
        return False

    def messages(self, pid, want, timeout=5.0):
        """
        (pri, ident, text) of the messages from pid, until one satisfies
        want(list) or timeout.  glibc sends "<PRI>Mmm dd hh:mm:ss
        ident[pid]: text".
        """
        got = []
        deadline = time.monotonic() + timeout
        while not want(got) and time.monotonic() < deadline:
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                break
            m = re.match(r"<(\d+)>[A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d "
                         r"([^\[ ]+)\[(\d+)\]: (.*?)\n?$",
                         data.decode("ascii", "replace"), re.S)
            check(m is not None, "not a syslog(3) message: %r" % data[:200])
            if int(m.group(3)) == pid:
                got.append((int(m.group(1)), m.group(2), m.group(4)))
        return got


@T.case("no -d: messages go to syslog at facility local3 (<158> info, "
        "<159> debug) as sudokud[PID], not to stderr", transports=ONE,
        own=True)
def _(c):
    with DevLog() as dl:
        d = OpsDaemon(flags=(), workers=1,
                      extra_conf="[log]\nfacility = local3\nlevel = debug\n")
        try:
            d.start()
            wait_pong(d)
            eq(d.stop(), 0, "exit status")
            msgs = dl.messages(d.pid, lambda g: any(
                "all connections closed" in t for _, _, t in g))
            text = "\n".join("<%d>%s: %s" % m for m in msgs)
            info = LOG_LOCAL3 * 8 + SEV_INFO
            debug = LOG_LOCAL3 * 8 + SEV_DEBUG
            eq(info, 158, "local3.info")
            check(any(p == info and re.search(START_RE, t)
                      for p, _, t in msgs),
                  "no <158> start-up message from sudokud[%d]:\n%s"
                  % (d.pid, text))
            check(any(p == debug and t == "worker 0 started"
                      for p, _, t in msgs),
                  "no <159> debug message:\n" + text)
            check(all(ident == "sudokud" for _, ident, _ in msgs),
                  "program name not sudokud:\n" + text)
            eq(d.lines(), [], "stderr without -d and without the journal")
        finally:
            d.cleanup()


@T.case("no -d: a fatal start-up error goes to syslog at local3.crit "
        "(<154>) and to stderr as 'sudokud: reason'", transports=ONE,
        own=True)
def _(c):
    with DevLog() as dl:
        d = OpsDaemon(flags=(), workers=1,
                      extra_conf="[log]\nfacility = local3\n")
        try:
            d.path = os.path.join(d.tmp, "nodir", "sock")
            d.spawn()
            eq(d.wait_exit(5), 1, "exit status")
            reason = "%s: bind: No such file or directory" % d.path
            msgs = dl.messages(d.pid, lambda g: len(g) > 0)
            eq([(p, t) for p, _, t in msgs], [(154, reason)],
               "syslog messages")
            eq(d.lines(), ["sudokud: " + reason], "stderr")
        finally:
            d.cleanup()


@T.case("JOURNAL_STREAM = stderr: <6> info, <7> debug with level = debug, "
        "<4> warning; none of <7> with level = info", transports=ONE,
        own=True)
def _(c):
    d = OpsDaemon(flags=(), journal=True, workers=1,
                  env={"NOTIFY_SOCKET": "relative-name"},
                  extra_conf="[log]\nlevel = debug\n")
    try:
        d.start()
        eq(d.stop(), 0, "exit status")
        lines = journal_lines(d)
        for pri, pat in ((SEV_INFO, START_RE),
                         (SEV_DEBUG, "^worker 0 started$"),
                         (SEV_WARNING, "^NOTIFY_SOCKET=relative-name: not an "
                          "absolute path"),
                         (SEV_INFO, "^all connections closed, exiting$")):
            check(has(lines, pri, pat), "no <%d> line matching %r:\n%s"
                  % (pri, pat, show(lines)))
        reset_log(d)
        d.extra_conf = "[log]\nlevel = info\n"
        d.start()
        eq(d.stop(), 0, "exit status")
        lines = journal_lines(d)
        check(has(lines, SEV_INFO, START_RE), "no <6> start-up line:\n"
              + show(lines))
        check(not any(p == SEV_DEBUG for p, _ in lines),
              "<7> lines at level = info:\n" + show(lines))
    finally:
        d.cleanup()


@T.case("JOURNAL_STREAM naming another file -> not the journal: nothing "
        "on stderr", transports=ONE, own=True)
def _(c):
    with DevLog():
        d = OpsDaemon(flags=(), workers=1)
        try:
            st = os.stat(d.tmp)
            d.env = {"JOURNAL_STREAM": "%d:%d" % (st.st_dev, st.st_ino)}
            d.start()
            wait_pong(d)
            eq(d.stop(), 0, "exit status")
            eq(d.lines(), [], "stderr")
        finally:
            d.cleanup()


@T.case("no -d and nothing at /dev/log -> stderr, saying so once",
        transports=ONE, own=True)
def _(c):
    if os.path.lexists(DevLog.PATH):
        raise Skip("%s exists: a system logger answers there" % DevLog.PATH)
    d = OpsDaemon(flags=(), workers=1)
    try:
        d.start()
        wait_pong(d)
        eq(d.stop(), 0, "exit status")
        lines = d.lines()
        notice = "sudokud: syslog does not answer at /dev/log: logging to " \
                 "standard error"
        eq(lines[:1], [notice], "first line")
        eq(lines.count(notice), 1, "notices")
        check(all(ln.startswith("sudokud: ") for ln in lines) and
              any(re.search(START_RE, ln[9:]) for ln in lines),
              "stderr lines not 'sudokud: ...', or no start-up line:\n"
              + "\n".join(lines))
    finally:
        d.cleanup()


def noisy_clients(d):
    """
    Connection-level events: a client connects, is served, leaves; one
    resets; one never reads and is closed by write_timeout (1 s).
    """
    k = d.connect("unix")
    eq(k.req("PING"), "PONG", "PING")
    k.close()
    s = d.raw_socket("unix")
    s.sendall(b"COUNT %s\n" % h.CLASSIC.encode())
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()
    stuck = d.raw_socket("unix")
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    t, res = h.sender(stuck, b"HELP\n" * 100000, stop_on_block=4)
    ok = h.wait_for(lambda: int(d.stats("unix")["output_kicks"]) >= 1, 8,
                    0.1)
    stuck.close()
    t.join(5)
    check(ok, "the client that never reads was not closed")


@T.case("connection events: at level = info nothing is logged; with -d "
        "accept, close and the write-timeout close are", transports=ONE,
        own=True)
def _(c):
    lifecycle = (START_RE, r"^listening on ", r"^serving with \d+ worker",
                 r"^signal 15: shutting down, \d+ connections open$",
                 r"^all connections closed, exiting$")
    d = OpsDaemon(flags=(), journal=True, workers=1, write_timeout=1,
                  output_high=4096, output_low=0,
                  extra_conf="[log]\nlevel = info\n")
    try:
        d.start()
        noisy_clients(d)
        eq(d.stop(), 0, "exit status")
        lines = journal_lines(d)
        extra = [(p, t) for p, t in lines
                 if not any(re.search(pat, t) for pat in lifecycle)]
        eq(extra, [], "lines beyond start and stop at level = info")
        reset_log(d)
        d.flags, d.journal = ["-d"], False
        d.start()
        noisy_clients(d)
        eq(d.stop(), 0, "exit status")
        lines = d.lines()
        # Unix peers are named by their credentials: this process.
        who = r"^fd \d+, unix pid %d uid %d: " % (os.getpid(), os.getuid())
        for pat in (who + "connection accepted$", who + "connection closed$",
                    who + "closing a connection that does not read$"):
            check(any(re.search(pat, t) for t in lines),
                  "no debug line %r with -d:\n%s" % (pat, "\n".join(lines)))
    finally:
        d.cleanup()


# ---- -v ---------------------------------------------------------------------

@T.case("-v raises level = error one step each: -v warnings, -vv info, "
        "-vvv debug; more is debug too", transports=ONE, own=True)
def _(c):
    d = OpsDaemon(journal=True, workers=1,
                  env={"NOTIFY_SOCKET": "relative-name"},
                  extra_conf="[log]\nlevel = error\n")
    try:
        want = {(): (), ("-v",): (SEV_WARNING,),
                ("-vv",): (SEV_WARNING, SEV_INFO),
                ("-v", "-v", "-v"): (SEV_WARNING, SEV_INFO, SEV_DEBUG),
                ("-vvvvvvvvv",): (SEV_WARNING, SEV_INFO, SEV_DEBUG)}
        for flags, pris in want.items():
            reset_log(d)
            d.flags = list(flags)
            d.start()
            eq(d.stop(), 0, "exit status with %s" % " ".join(flags))
            lines = journal_lines(d)
            eq(sorted(set(p for p, _ in lines)), sorted(pris),
               "priorities logged with %r\n%s"
               % (" ".join(flags), show(lines)))
    finally:
        d.cleanup()


@T.case("-d means debug whatever the level; -d -v is the same",
        transports=ONE, own=True)
def _(c):
    d = OpsDaemon(journal=True, workers=1,
                  extra_conf="[log]\nlevel = error\n")
    try:
        got = {}
        for flags in (("-d",), ("-d", "-v")):
            reset_log(d)
            d.flags = list(flags)
            d.start()
            eq(d.stop(), 0, "exit status with %s" % " ".join(flags))
            lines = journal_lines(d)
            got[flags] = sorted(set(p for p, _ in lines))
            check(has(lines, SEV_DEBUG, "^worker 0 started$"),
                  "no debug line with %s and level = error:\n%s"
                  % (" ".join(flags), show(lines)))
        eq(got[("-d", "-v")], got[("-d",)], "priorities of -d -v vs -d")
    finally:
        d.cleanup()


class Notify:
    """A NOTIFY_SOCKET: to know when a reload is done."""

    def __init__(self, tmp):
        self.path = os.path.join(tmp, "notify")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)

    def wait(self, word, timeout=5.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                msg = self.sock.recv(4096).decode()
            except socket.timeout:
                break
            if word in msg.split("\n"):
                return
        raise Fail("no %s from the daemon" % word)

    def close(self):
        self.sock.close()


@T.case("-v still applies after a reload changes level: error -> warning "
        "with -v gives info", transports=ONE, own=True)
def _(c):
    counts = {}
    for flags in ((), ("-v",)):
        d = OpsDaemon(journal=True, workers=1, flags=flags,
                      extra_conf="[log]\nlevel = error\n")
        n = Notify(d.tmp)
        try:
            d.env = {"NOTIFY_SOCKET": n.path}
            d.start()
            n.wait("READY=1")
            d.extra_conf = "[log]\nlevel = warning\n"
            d.write_conf()
            # A reload's own message is logged once every worker has
            # switched, at the level it set: info with -v, nothing
            # without (warning).  Had -v been lost, neither would show.
            for _ in range(2):
                d.proc.send_signal(signal.SIGHUP)
                n.wait("READY=1")
            eq(d.stop(), 0, "exit status")
            lines = journal_lines(d)
            counts[flags] = sum(1 for p, t in lines
                                if p == SEV_INFO and
                                t.startswith("configuration reloaded"))
            check(not any(p == SEV_DEBUG for p, _ in lines),
                  "<7> lines:\n" + show(lines))
        finally:
            n.close()
            d.cleanup()
    eq(counts, {(): 0, ("-v",): 2}, "'configuration reloaded' lines "
       "(without -v, with -v)")


@T.case("SIGHUP: 'configuration reloaded' and READY=1 come once every "
        "worker serves with the new file, and a connection made then gets "
        "its limits", transports=ONE, own=True)
def _(c):
    d = OpsDaemon(journal=True, workers=3, flags=("-d",), max_line=1024)
    n = Notify(d.tmp)
    try:
        d.env = {"NOTIFY_SOCKET": n.path}
        d.start()
        n.wait("READY=1")
        d.opts["max_line"] = 256
        d.write_conf()
        d.proc.send_signal(signal.SIGHUP)
        n.wait("RELOADING=1")
        n.wait("READY=1")
        # Every worker at once, so whichever gets the connection.
        ks = [d.connect("unix") for _ in range(6)]
        got = [k.req("PING " + "x" * 300)[:11] for k in ks]
        eq(got, ["ERR toolong"] * 6, "a 300-byte line on connections "
           "made after READY=1, under the reloaded max_line 256")
        for k in ks:
            k.close()
        eq(d.stop(), 0, "exit status")
        texts = [t for _, t in journal_lines(d)]
        done = [i for i, t in enumerate(texts)
                if t.startswith("configuration reloaded")]
        switched = [i for i, t in enumerate(texts)
                    if re.match(r"worker \d+: serving with the new "
                                r"configuration", t)]
        eq(len(switched), 3, "workers that logged their switch")
        check(len(done) == 1 and done[0] > max(switched),
              "'configuration reloaded' after every worker's switch:\n"
              + "\n".join(texts[-40:]))
    finally:
        n.close()
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
    eq(r.returncode, 1, "exit status for a bad flag")
    usage = [ln for ln in r.stderr.decode("ascii", "replace").splitlines()
             if ln.startswith("usage: ")]
    eq(len(usage), 1, "usage lines in %r" % r.stderr)
    eq(" ".join(usage[0][len("usage: "):].split()), syn,
       "usage() vs SYNOPSIS of %s" % page)


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
