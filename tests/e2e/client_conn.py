#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""client_conn.py -- sudokuc when the connection fails, end to end:
no daemon at the socket or port, a server that shuts its side or resets
the connection in mid-batch (a stand-in server here), a server on IPv6,
a socket without access.  sudokuc against a real sudokud, and stopped
in mid-batch, is tested by client.py.

Prints TAP; needs no daemon.  Environment: as client.py.
"""

import grp
import os
import socket
import struct
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as tap  # noqa: E402
from client_common import (EASY, EASY_SOL, Tmp, case_runner,  # noqa: E402
                           free_port, run, run_groups)


# ---- TAP ------------------------------------------------------------------

TAP = tap.Tap(diag_lines=30)

case = case_runner(TAP)


# ---- connections: refused, lost (issues 9.6, 8.7) ---------------------------

def connect_fail_tests():
    @case("no daemon: path, errno text and the -L hint, exit 2")
    def _(name):
        missing = os.path.join(Tmp.dir, "nobody.sock")
        rc, out, err = run("-s", missing, EASY)
        rc2, _, err2 = run(EASY, env={"SUDOKUD_SOCKET": missing})
        port = free_port()
        rc3, _, err3 = run("-p", str(port), EASY)
        TAP.ok(rc == 2 and out == "" and missing in err and
               "No such file or directory" in err and "-L" in err and
               rc2 == 2 and missing in err2 and
               rc3 == 2 and "127.0.0.1:%d" % port in err3 and
               "Connection refused" in err3, name,
               (rc, err, rc2, err2, rc3, err3))


class FakeServer:
    """
    A stand-in for sudokud on a Unix socket or TCP, for what a client
    sees when the daemon goes away.  It accepts one connection, reads
    until `wait` request lines have come, answers the first `answer` with
    reply(line), then ends: "eof" shuts down its sending side and reads
    on until the client closes (what sudokud does when stopped), "reset"
    closes with requests unread (a reset).
    """

    def __init__(self, family, wait, answer, end, reply=None):
        self.wait, self.answer, self.end = wait, answer, end
        self.reply = reply or (lambda line: EASY_SOL)
        self.error = None
        if family == "unix":
            self.addr = os.path.join(Tmp.dir, "fake-%s.sock" % end)
            if os.path.exists(self.addr):
                os.unlink(self.addr)
            self.sock = socket.socket(socket.AF_UNIX)
            self.sock.bind(self.addr)
        else:
            fam = socket.AF_INET6 if family == "tcp6" else socket.AF_INET
            self.sock = socket.socket(fam)
            self.sock.bind(("::1" if family == "tcp6" else "127.0.0.1", 0))
            self.addr = self.sock.getsockname()[1]
        self.sock.listen(1)
        self.sock.settimeout(20)
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        try:
            conn, _ = self.sock.accept()
            conn.settimeout(20)
            buf = b""
            while buf.count(b"\n") < self.wait:
                data = conn.recv(65536)
                if not data:
                    break
                buf += data
            lines = buf.decode().split("\n")[:self.answer]
            conn.sendall("".join(self.reply(ln) + "\n"
                                 for ln in lines).encode())
            if self.end == "eof":
                conn.shutdown(socket.SHUT_WR)
                while conn.recv(65536):
                    pass
            else:
                # What the client sends next, once it has the answers
                # (its window refilled): there, unread, so the close is a
                # reset -- waited for by peeking, not by a pause.
                deadline = time.monotonic() + 10
                while conn.recv(65536, socket.MSG_PEEK).count(b"\n") < \
                        self.answer and time.monotonic() < deadline:
                    time.sleep(0.01)
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                struct.pack("ii", 1, 0))
            conn.close()
        except OSError as e:
            self.error = e
        finally:
            self.sock.close()

    def join(self):
        self.thread.join(20)
        return self.error


def lost_tests():
    f = Tmp.file("twenty.txt", (EASY + "\n") * 20)

    def lost(name, family, end, want):
        """One server, gone for good: after -t seconds without it, the
        message of old and what was left unanswered."""
        srv = FakeServer(family, 8, 3, end)
        where = (["-s", srv.addr] if family == "unix" else
                 ["-p", str(srv.addr)])
        t0 = time.monotonic()
        rc, out, err = run(*(where + ["-C", "1", "-w", "8", "-t", "1", f]),
                           timeout=60)
        took = time.monotonic() - t0
        peer = ("unix:%s" % srv.addr if family == "unix" else
                "tcp:127.0.0.1:%d" % srv.addr)
        TAP.ok(rc == 2 and out == (EASY_SOL + "\n") * 3 and
               err == "sudokuc: %s: %s\nsudokuc: no server answered for 1 "
               "s: giving up with 8 requests unanswered; the answers stop "
               "before %s:4\n" % (peer, want, f) and 1 <= took < 10 and
               srv.join() is None, name, (rc, out, err, took, srv.error))

    @case("server shuts down its side mid-batch: it closed the connection, "
          "N unanswered, exit 2")
    def _(name):
        lost(name, "unix", "eof", "the server closed the connection with 8 "
             "requests unanswered (it may be shutting down)")

    @case("server resets the connection mid-batch (unix): reset by the "
          "server, N unanswered, exit 2")
    def _(name):
        lost(name, "unix", "reset", "connection reset by the server with 8 "
             "requests unanswered")

    @case("server resets the connection mid-batch (tcp): reset by the "
          "server, N unanswered, exit 2")
    def _(name):
        lost(name, "tcp", "reset", "connection reset by the server with 8 "
             "requests unanswered")

    @case("-H [::1]:PORT reaches a server on IPv6")
    def _(name):
        try:
            srv = FakeServer("tcp6", 1, 1, "eof", reply=lambda ln: "PONG")
        except OSError as e:
            TAP.skip(name, "no IPv6: %s" % e)
            return
        rc, out, err = run("-H", "[::1]:%d" % srv.addr, "ping")
        TAP.ok(rc == 0 and err == "" and out.startswith(
            "pong from tcp:[::1]:%d: time=" % srv.addr), name, (rc, out, err))

    @case("socket without access: Permission denied names the socket's "
          "group, exit 2")
    def _(name):
        eacces_test(name)


def as_nobody():
    os.setgroups([])
    os.setgid(65534)
    os.setuid(65534)


def eacces_test(name):
    """Connect needs write access to the socket: run as nobody if root."""
    d = tempfile.mkdtemp(dir=Tmp.dir)
    os.chmod(Tmp.dir, 0o755)
    os.chmod(d, 0o755)
    path = os.path.join(d, "private.sock")
    srv = socket.socket(socket.AF_UNIX)
    srv.bind(path)
    srv.listen(1)
    os.chmod(path, 0o660 if os.geteuid() == 0 else 0o000)
    group = grp.getgrgid(os.stat(path).st_gid).gr_name
    preexec = as_nobody if os.geteuid() == 0 else None
    rc, out, err = run("-s", path, EASY, preexec=preexec)
    srv.close()
    TAP.ok(rc == 2 and out == "" and err == (
        "sudokuc: cannot connect to unix:%s: Permission denied (you must be "
        "in the socket's group, '%s', to connect; -L solves without a "
        "daemon)\n" % (path, group)), name, (rc, out, err))


if __name__ == "__main__":
    sys.exit(run_groups(TAP, connect_fail_tests, lost_tests))
