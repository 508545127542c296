#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
ops_log.py -- where sudokud's messages go, and at which level, end to
end (TAP, Python 3 stdlib only), as sudokud(8) and sudokud.conf(5)
promise an operator:

- where messages go: stderr with -d; syslog(3) at the configured
  facility otherwise (a test /dev/log, as root when no logger owns the
  path); the journal's "<N>" prefixes when JOURNAL_STREAM names stderr;
  connection-level messages only at the debug level;
- -v raising the level one step each time, also after a reload, and -d
  forcing debug;
- a reload that changes the level logged, and READY=1 sent, once every
  worker serves with the new file.

Privilege drop, usage() and SIGTERM under load are in tests/e2e/ops.py;
"<2>" for a fatal error is covered by tests/e2e/listener.py.
Environment: as tests/e2e/harness.py (top_builddir, top_srcdir,
PUZZLE_DIR, SUDOKUD, E2E_ONLY).
"""

import os
import re
import signal
import socket
import struct
import sys
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq, Fail                     # noqa: E402
from ops_common import (ONE, OpsDaemon, OpsTap, Skip,  # noqa: E402
                        need_root, wait_pong)

LOG_LOCAL3 = 19                     # syslog.h: LOG_LOCAL3 >> 3
SEV_CRIT, SEV_WARNING, SEV_INFO, SEV_DEBUG = 2, 4, 6, 7

T = OpsTap({"workers": 1})


def reset_log(d):
    """Empty the daemon's stderr file (made if missing) between runs."""
    d.findings += d.scan_log()
    with open(d.log, "wb"):
        pass
    d.log_seen = 0


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


# ---- where messages go ------------------------------------------------------

START_RE = r"^sudokud \S+ starting, "


@T.case("-D: messages on stderr without <N> prefixes, debug ones too",
        transports=ONE, own=True)
def _(c):
    d = OpsDaemon(flags=("-D",), workers=2)
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
              "-D lines without an ISO 8601 time stamp:\n" + "\n".join(raw))
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


@T.case("connection events: at level = info nothing is logged, on the "
        "journal or with -d; with -D accept, close and the write-timeout "
        "close are", transports=ONE, own=True)
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
        # -d: the foreground, stderr, the level configured (info).
        reset_log(d)
        d.flags, d.journal = ["-d"], False
        d.start()
        noisy_clients(d)
        eq(d.stop(), 0, "exit status")
        extra = [t for t in d.lines()
                 if not any(re.search(pat, t) for pat in lifecycle) and
                 not re.search(r"^sudokud .* starting|^listening on ", t)]
        eq(extra, [], "lines beyond start and stop with -d at level = info")
        reset_log(d)
        d.flags, d.journal = ["-D"], False
        d.start()
        noisy_clients(d)
        eq(d.stop(), 0, "exit status")
        lines = d.lines()
        # Unix peers are named by their credentials: this process.
        who = r"^fd \d+, unix pid %d uid %d: " % (os.getpid(), os.getuid())
        for pat in (who + "connection accepted$", who + "connection closed$",
                    who + "closing a connection that does not read$"):
            check(any(re.search(pat, t) for t in lines),
                  "no debug line %r with -D:\n%s" % (pat, "\n".join(lines)))
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


@T.case("-D means debug whatever the level; -D -v and -d -vvv are the "
        "same; -d keeps the level", transports=ONE, own=True)
def _(c):
    d = OpsDaemon(journal=True, workers=1,
                  extra_conf="[log]\nlevel = error\n")
    try:
        got = {}
        for flags in (("-D",), ("-D", "-v"), ("-d", "-vvv")):
            reset_log(d)
            d.flags = list(flags)
            d.start()
            eq(d.stop(), 0, "exit status with %s" % " ".join(flags))
            lines = journal_lines(d)
            got[flags] = sorted(set(p for p, _ in lines))
            check(has(lines, SEV_DEBUG, "^worker 0 started$"),
                  "no debug line with %s and level = error:\n%s"
                  % (" ".join(flags), show(lines)))
        eq(got[("-D", "-v")], got[("-D",)], "priorities of -D -v vs -D")
        eq(got[("-d", "-vvv")], got[("-D",)], "priorities of -d -vvv vs -D")
        reset_log(d)
        d.flags = ["-d"]
        d.start()
        eq(d.stop(), 0, "exit status with -d")
        lines = journal_lines(d)
        check(not any(p in (SEV_DEBUG, SEV_INFO) for p, _ in lines),
              "info or debug lines with -d and level = error:\n%s"
              % show(lines))
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
    d = OpsDaemon(journal=True, workers=3, flags=("-D",), max_line=1024)
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


def reload_refused(d, n, why):
    """SIGHUP; READY=1 again, the refusal logged as file: why."""
    d.proc.send_signal(signal.SIGHUP)
    msg, seen = n.wait("READY=1", 10)
    check(msg, "no READY=1 within 10 s of SIGHUP (%s): %r\n%s"
          % (why, seen, d.log_tail()))
    want = "reload failed, configuration kept: %s: %s" % (d.conf, why)
    check(h.wait_for(lambda: any(want in ln for ln in d.lines()), 5),
          "no %r in the log\n%s" % (want, d.log_tail()))


@T.case("SIGHUP with the file now a symlink to /dev/zero, then a file of "
        "2 MiB: each refused at once (file: reason), the old configuration "
        "serves, SIGTERM still ends it", transports=ONE, own=True)
def _(c):
    d = OpsDaemon(workers=1)
    n = h.NotifySocket(os.path.join(d.tmp, "notify"))
    d.env = {"NOTIFY_SOCKET": n.path}
    d.start()
    try:
        check(n.wait("READY=1")[0], "no READY=1 at start")
        os.unlink(d.conf)
        os.symlink("/dev/zero", d.conf)
        reload_refused(d, n, "not a regular file")
        k = d.connect("unix")
        eq(k.req("PING"), "PONG", "PING after the refused reload")
        os.unlink(d.conf)
        with open(d.conf, "w") as f:
            f.write("[server]\n" + ("#" * 99 + "\n") * 20972)
        reload_refused(d, n, "file too large (%d bytes, at most 1048576)"
                       % os.path.getsize(d.conf))
        eq(k.req("PING"), "PONG", "PING after the second refused reload")
        k.close()
        eq(d.stop(), 0, "exit status after SIGTERM")
    finally:
        n.close()
        d.cleanup()


if __name__ == "__main__":
    sys.exit(T.run())
