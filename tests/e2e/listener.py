#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""sudokud listening sockets: stale, live and foreign paths, as TAP.

Starts $top_builddir/src/sudokud (or $SUDOKUD) with -d on sockets in a
temporary directory and TCP ports picked free by the test, as checks in
sequence of tests/e2e/harness.py.  Every daemon started is stopped with
SIGTERM (SIGKILL after a deadline).
"""
import os
import socket
import stat
import sys
import tempfile

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402

START_DEADLINE = 10.0	# seconds for the socket to accept
STOP_DEADLINE = 20.0	# seconds for SIGTERM to end the daemon

T = h.Tap()


def check(name, ok, diag=""):
    T.ok(ok, name, diag)


def write_conf(tmp, text):
    path = os.path.join(tmp, "sudokud.conf")
    with open(path, "w") as f:
        f.write(text)
    return path


def run_fail(conf, debug=True, env=None, stderr=None):
    """Run a daemon that must refuse to start; (rc, last stderr line)."""
    args = ("-d", "-f", conf) if debug else ("-f", conf)
    rc, _, err = h.run_daemon_cmd(*args, env=env, stderr=stderr,
                                  timeout=30)
    lines = err.splitlines()
    return rc, h.unstamp(lines[-1]) if lines else ""


def serve(sock, extra_conf=""):
    """A daemon on the Unix socket sock; (it, whether it serves)."""
    d = h.Daemon(sock_path=sock, tcp=False, extra_conf=extra_conf)
    ready = d.started(START_DEADLINE) and h.ping(sock)
    return d, ready


def stop(d):
    """SIGTERM: the exit status (None after a SIGKILL), and the log."""
    rc = d.terminate(STOP_DEADLINE)
    return rc, d.log_tail()


def test_not_a_socket(tmp):
    sock = os.path.join(tmp, "file.sock")
    with open(sock, "w") as f:
        f.write("precious\n")
    conf = write_conf(tmp, "[listen]\nunix = %s\n" % sock)
    rc, last = run_fail(conf)
    with open(sock) as f:
        kept = f.read() == "precious\n"
    want = "%s: exists and is not a socket" % sock
    check("a file at the socket path: refused, left alone",
          rc == 1 and last == want and kept,
          "rc=%d last=%r want %r" % (rc, last, want))
    # Without -d the log is syslog, but a fatal error shows on stderr too.
    rc, last = run_fail(conf, debug=False, env={"JOURNAL_STREAM": None})
    check("without -d a fatal error is also on stderr",
          rc == 1 and last == "sudokud: " + want, "rc=%d last=%r" % (rc, last))
    # stderr is the journal: lines carry a <N> priority (2: LOG_CRIT).
    with tempfile.TemporaryFile() as err:
        st = os.fstat(err.fileno())
        env = {"JOURNAL_STREAM": "%d:%d" % (st.st_dev, st.st_ino)}
        rc, last = run_fail(conf, debug=False, env=env, stderr=err)
    check("JOURNAL_STREAM: stderr with syslog priority prefixes",
          rc == 1 and last == "<2>" + want, "rc=%d last=%r" % (rc, last))
    os.unlink(sock)


def test_live_socket(tmp):
    sock = os.path.join(tmp, "live.sock")
    other = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    other.bind(sock)
    other.listen(8)
    conf = write_conf(tmp, "[listen]\nunix = %s\n" % sock)
    rc, last = run_fail(conf)
    want = "%s: a process is already listening there" % sock
    check("a live socket at the path: refused", rc == 1 and last == want,
          "rc=%d last=%r want %r" % (rc, last, want))
    check("the live socket is left alone", h.can_connect(sock))
    other.close()
    os.unlink(sock)


def test_stale_socket(tmp):
    sock = os.path.join(tmp, "stale.sock")
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(sock)
    dead.close()		# bound, never listened: refuses connections
    d, ready = serve(sock, "[listen]\nunix_mode = 0640\n")
    check("a stale socket is replaced", ready, d.why or d.log_tail())
    mode = stat.S_IMODE(os.lstat(sock).st_mode) if ready else None
    check("unix_mode is applied", mode == 0o640, "mode=%r" % mode)
    rc, last = run_fail(d.conf)
    want = "%s: a process is already listening there" % sock
    check("a second sudokud is refused", ready and rc == 1 and last == want,
          "ready=%r rc=%d last=%r" % (ready, rc, last))
    check("the first one still answers", h.ping(sock))
    rc, log = stop(d)
    check("SIGTERM: exit 0", rc == 0, "rc=%r %s" % (rc, log))
    check("its socket is removed at exit", not os.path.exists(sock))
    d.cleanup()


def test_replaced_socket(tmp):
    sock = os.path.join(tmp, "replaced.sock")
    d, ready = serve(sock)
    check("starts on a fresh path", ready, d.why or d.log_tail())
    if os.path.exists(sock):
        os.unlink(sock)		# someone else takes the path over
    other = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    other.bind(sock)
    other.listen(8)
    rc, log = stop(d)
    check("a socket that is no longer ours is not unlinked at exit",
          rc == 0 and os.path.exists(sock) and h.can_connect(sock),
          "rc=%r %s" % (rc, log))
    other.close()
    os.unlink(sock)
    d.cleanup()


def test_tcp_in_use(tmp):
    busy = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    busy.bind(("127.0.0.1", 0))
    busy.listen(8)
    port = busy.getsockname()[1]
    conf = write_conf(tmp, "[listen]\ntcp = %d\n" % port)
    rc, last = run_fail(conf)
    want = "127.0.0.1 port %d: bind: Address already in use" % port
    check("a TCP port in use: refused", rc == 1 and last == want,
          "rc=%d last=%r want %r" % (rc, last, want))
    busy.close()


def test_tcp(tmp):
    port = h.free_port()
    sock = os.path.join(tmp, "tcp.sock")
    # "tcp = PORT" as written: raw text, not the harness's keywords.
    d = h.Daemon(config="[listen]\nunix = %s\ntcp = %d\n" % (sock, port),
                 sock_path=sock)
    ready = d.started(START_DEADLINE) and h.ping(sock)
    ok = ready and h.can_connect(("127.0.0.1", port))
    rc, log = stop(d)
    check("listens on TCP 127.0.0.1 for 'tcp = PORT'", ok and rc == 0,
          "ready=%r rc=%r %s %s" % (ready, rc, d.why or "", log))
    d.cleanup()


def test_missing_dir(tmp):
    sock = os.path.join(tmp, "no", "such", "dir.sock")
    conf = write_conf(tmp, "[listen]\nunix = %s\n" % sock)
    rc, last = run_fail(conf)
    want = "%s: bind: No such file or directory" % sock
    check("a socket in a missing directory: refused",
          rc == 1 and last == want, "rc=%d last=%r" % (rc, last))


def checks():
    with tempfile.TemporaryDirectory(prefix="sudokud-listen.") as tmp:
        test_not_a_socket(tmp)
        test_live_socket(tmp)
        test_stale_socket(tmp)
        test_replaced_socket(tmp)
        test_tcp_in_use(tmp)
        test_tcp(tmp)
        test_missing_dir(tmp)


if __name__ == "__main__":
    if not h.have_daemon():
        sys.exit(h.skip_all("%s not built" % h.DAEMON))
    sys.exit(T.main(checks))
