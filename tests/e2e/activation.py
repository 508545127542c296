#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""activation.py -- sudokud under a pretend systemd (TAP).

RELIABILITY.md case 30 and the systemd half of 26-28: the test plays the
service manager.  It binds the sockets itself and passes them as fds 3
and 4 with LISTEN_PID/LISTEN_FDS/LISTEN_FDNAMES (as systemd and
systemd-socket-activate do), and binds a datagram socket as
NOTIFY_SOCKET.  Then it checks what sd_notify(3) and sd_listen_fds(3)
promise: READY=1 once serving; RELOADING=1 with MONOTONIC_USEC in one
message, then READY=1, on SIGHUP (also when the new file is broken);
STOPPING=1 and exit 0 on SIGTERM; inherited sockets used and never
unlinked; configured ones not inherited opened and removed as usual.

Checks in sequence of tests/e2e/harness.py.  SUDOKUD=/path/to/sudokud
overrides the binary under test.
"""
import os
import shutil
import signal
import socket
import stat
import sys
import tempfile
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402

TIMEOUT = 10.0
T = h.Tap()
tap = T.ok


def ask(addr, line):
    """The reply to one request line, or a note that there was none."""
    reply = h.ask(addr, line, TIMEOUT)
    return "error: no reply" if reply is None else reply


def activated(tmp):
    """sudokud started as systemd starts a socket-activated service."""
    inherited = os.path.join(tmp, "inherited.sock")
    own = os.path.join(tmp, "own.sock")
    notify = h.NotifySocket(os.path.join(tmp, "notify"))
    unix_l = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix_l.bind(inherited)
    unix_l.listen(16)
    ino = os.stat(inherited).st_ino
    tcp_l = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    tcp_l.bind(("127.0.0.1", 0))
    tcp_l.listen(16)
    tcp_addr = tcp_l.getsockname()

    d = h.Daemon(config="[listen]\nunix = %s\nunix = %s\n" % (inherited, own),
                 listen_fds=[unix_l.fileno(), tcp_l.fileno()],
                 env={"NOTIFY_SOCKET": notify.path,
                      "LISTEN_FDNAMES": "local:net"})
    try:
        d.spawn()
        unix_l.close()
        tcp_l.close()
        serving(d, notify, inherited, ino, tcp_addr, own)
        reloads(d, notify, inherited)
        stopping(d, notify, inherited, own)
    finally:
        unix_l.close()
        tcp_l.close()
        d.cleanup()
        notify.close()


def serving(d, notify, inherited, ino, tcp_addr, own):
    msg, seen = notify.wait("READY=1", TIMEOUT)
    tap(msg is not None, "READY=1 once serving", seen)
    reply = ask(inherited, "PING")
    tap(reply == "PONG", "PING on the inherited Unix socket", reply)
    st = os.stat(inherited)
    tap(st.st_ino == ino and stat.S_ISSOCK(st.st_mode),
        "inherited socket path not replaced")
    reply = ask(tcp_addr, "PING")
    tap(reply == "PONG", "PING on the inherited TCP socket "
        "(not configured)", reply)
    reply = ask(own, "PING")
    tap(reply == "PONG", "PING on the configured, not inherited socket",
        reply)


def reloads(d, notify, inherited):
    # A good reload: RELOADING=1 and MONOTONIC_USEC= in one message.
    with open(d.conf, "a") as f:
        f.write("[server]\nidle_timeout = 77\n")
    before = time.monotonic_ns() // 1000
    os.kill(d.pid, signal.SIGHUP)
    msg, seen = notify.wait("RELOADING=1", TIMEOUT)
    after = time.monotonic_ns() // 1000
    usec = None
    if msg:
        for line in msg.split("\n"):
            if line.startswith("MONOTONIC_USEC="):
                usec = int(line.split("=", 1)[1])
    tap(usec is not None and before <= usec <= after,
        "RELOADING=1 with MONOTONIC_USEC in one message",
        "%r before=%d after=%d" % (seen, before, after))
    msg, seen = notify.wait("READY=1", TIMEOUT)
    tap(msg is not None, "READY=1 after the reload", seen)

    # A broken file: the same messages, and still serving.
    with open(d.conf, "a") as f:
        f.write("nonsense\n")
    os.kill(d.pid, signal.SIGHUP)
    m1, s1 = notify.wait("RELOADING=1", TIMEOUT)
    m2, s2 = notify.wait("READY=1", TIMEOUT)
    reply = ask(inherited, "PING")
    tap(m1 is not None and m2 is not None and reply == "PONG",
        "broken file: RELOADING=1, READY=1, still serving",
        "%r %r %r" % (s1, s2, reply))


def stopping(d, notify, inherited, own):
    os.kill(d.pid, signal.SIGTERM)
    msg, seen = notify.wait("STOPPING=1", TIMEOUT)
    tap(msg is not None, "STOPPING=1 on SIGTERM", seen)
    status = d.wait_exit(TIMEOUT)
    tap(status == 0, "exit status 0", "%r\n%s" % (status, d.log_tail()))
    tap(os.path.exists(inherited), "inherited socket never unlinked")
    tap(not os.path.exists(own), "own socket removed at exit")


def socket_activate(tmp):
    """The real launcher: it execs sudokud on the first connection."""
    tool = shutil.which("systemd-socket-activate")
    if tool is None:
        T.skip("systemd-socket-activate", "not installed")
        return
    path = os.path.join(tmp, "s.sock")
    notify = h.NotifySocket(os.path.join(tmp, "notify2"))
    d = h.Daemon(config="[listen]\nunix = %s\n" % path, flags=(),
                 wrapper=[tool, "-l", path, "-E",
                          "NOTIFY_SOCKET=" + notify.path])
    try:
        d.spawn()
        h.wait_for(lambda: os.path.exists(path), TIMEOUT, 0.02)
        reply = ask(path, "PING")
        msg, seen = notify.wait("READY=1", TIMEOUT)
        d.proc.send_signal(signal.SIGTERM)
        status = d.wait_exit(TIMEOUT)
        tap(reply == "PONG" and msg is not None and status == 0 and
            os.path.exists(path), "systemd-socket-activate -l: PONG, "
            "READY=1, exit 0, socket kept", "%r %r %r" % (reply, seen, status))
    finally:
        d.cleanup()
        notify.close()


def checks():
    with tempfile.TemporaryDirectory(prefix="activation.") as tmp:
        activated(tmp)
        socket_activate(tmp)


if __name__ == "__main__":
    if not h.have_daemon():
        sys.exit(h.skip_all("sudokud not built"))
    sys.exit(T.main(checks))
