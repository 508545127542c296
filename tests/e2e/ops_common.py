# SPDX-License-Identifier: ISC
"""
ops_common.py -- what ops.py and ops_log.py share (not a test program):
OpsTap, h.Tap with "# SKIP reason" for a case that raises Skip;
OpsDaemon, h.Daemon with argv flags of our choosing, a clean
environment, the journal and a user to run as; PING probes.
"""

import os
import socket
import subprocess
import time

import harness as h
from harness import Fail

ONE = (None,)


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

    def stop(self, timeout=5.0):
        """SIGTERM; the exit status (None after a SIGKILL)."""
        return self.terminate(timeout)


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
