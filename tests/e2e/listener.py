#!/usr/bin/env python3
"""sudokud listening sockets: stale, live and foreign paths, as TAP.

Starts $top_builddir/src/sudokud (or $SUDOKUD) with -d on sockets in a
temporary directory and TCP ports picked free by the test.  Every daemon
started is stopped with SIGTERM (SIGKILL after a deadline).
"""
import os
import signal
import socket
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tap  # noqa: E402
from harness import unstamp  # noqa: E402
import time

TOP_BUILDDIR = os.environ.get("top_builddir", ".")
SUDOKUD = os.environ.get("SUDOKUD", os.path.join(TOP_BUILDDIR, "src", "sudokud"))
START_DEADLINE = 10.0	# seconds for the socket to accept
STOP_DEADLINE = 20.0	# seconds for SIGTERM to end the daemon

TAP = tap.Tap()


def check(name, ok, diag=""):
    TAP.ok(ok, name, diag)


def write_conf(tmp, text):
    path = os.path.join(tmp, "sudokud.conf")
    with open(path, "w") as f:
        f.write(text)
    return path


def run_fail(conf, debug=True, env=None, stderr=None):
    """Run a daemon that must refuse to start; (rc, last stderr line)."""
    args = [SUDOKUD, "-d", "-f", conf] if debug else [SUDOKUD, "-f", conf]
    if stderr is None:
        p = subprocess.run(args, stdin=subprocess.DEVNULL, env=env,
                           capture_output=True, text=True, timeout=30)
        lines = p.stderr.splitlines()
    else:
        p = subprocess.run(args, stdin=subprocess.DEVNULL, env=env,
                           stdout=subprocess.DEVNULL, stderr=stderr,
                           timeout=30)
        stderr.seek(0)
        lines = stderr.read().decode().splitlines()
    return p.returncode, unstamp(lines[-1]) if lines else ""


def ping(path):
    """Does a sudokud answer PING there?  Then its server is running."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(2)
    try:
        s.connect(path)
        s.sendall(b"PING\n")
        reply = b""
        while not reply.endswith(b"\n"):
            data = s.recv(64)
            if not data:
                break
            reply += data
        return reply == b"PONG\n"
    except OSError:
        return False
    finally:
        s.close()


def can_connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(2)
    try:
        s.connect(path)
        return True
    except OSError:
        return False
    finally:
        s.close()


class Daemon:
    """A sudokud that should start; stop() returns its exit status.

    Ready means it answers PING: a socket that accepts is not enough,
    as the signal handlers come later, in server_run().
    """

    def __init__(self, conf, sock):
        self.sock = sock
        self.err = tempfile.TemporaryFile()
        self.p = subprocess.Popen([SUDOKUD, "-d", "-f", conf],
                                  stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=self.err)

    def wait_ready(self):
        end = time.monotonic() + START_DEADLINE
        while time.monotonic() < end:
            if self.p.poll() is not None:
                return False
            if ping(self.sock):
                return True
            time.sleep(0.05)
        return False

    def stop(self):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
        try:
            return self.p.wait(STOP_DEADLINE)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            return None

    def stderr(self):
        self.err.seek(0)
        return self.err.read().decode(errors="replace")


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
    env = {k: v for k, v in os.environ.items() if k != "JOURNAL_STREAM"}
    rc, last = run_fail(conf, debug=False, env=env)
    check("without -d a fatal error is also on stderr",
          rc == 1 and last == "sudokud: " + want, "rc=%d last=%r" % (rc, last))
    # stderr is the journal: lines carry a <N> priority (2: LOG_CRIT).
    with tempfile.TemporaryFile() as err:
        st = os.fstat(err.fileno())
        env["JOURNAL_STREAM"] = "%d:%d" % (st.st_dev, st.st_ino)
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
    check("the live socket is left alone", can_connect(sock))
    other.close()
    os.unlink(sock)


def test_stale_socket(tmp):
    sock = os.path.join(tmp, "stale.sock")
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(sock)
    dead.close()		# bound, never listened: refuses connections
    conf = write_conf(tmp, "[listen]\nunix = %s\nunix_mode = 0640\n" % sock)
    d = Daemon(conf, sock)
    ready = d.wait_ready()
    check("a stale socket is replaced", ready, d.stderr())
    mode = stat.S_IMODE(os.lstat(sock).st_mode) if ready else None
    check("unix_mode is applied", mode == 0o640, "mode=%r" % mode)
    if ready:
        rc, last = run_fail(conf)
        want = "%s: a process is already listening there" % sock
        check("a second sudokud is refused", rc == 1 and last == want,
              "rc=%d last=%r" % (rc, last))
        check("the first one still answers", ping(sock))
    rc = d.stop()
    check("SIGTERM: exit 0", rc == 0, "rc=%r %s" % (rc, d.stderr()))
    check("its socket is removed at exit", not os.path.exists(sock))


def test_replaced_socket(tmp):
    sock = os.path.join(tmp, "replaced.sock")
    conf = write_conf(tmp, "[listen]\nunix = %s\n" % sock)
    d = Daemon(conf, sock)
    ready = d.wait_ready()
    check("starts on a fresh path", ready, d.stderr())
    os.unlink(sock)		# someone else takes the path over
    other = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    other.bind(sock)
    other.listen(8)
    rc = d.stop()
    check("a socket that is no longer ours is not unlinked at exit",
          rc == 0 and os.path.exists(sock) and can_connect(sock),
          "rc=%r" % rc)
    other.close()
    os.unlink(sock)


def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


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
    port = free_port()
    sock = os.path.join(tmp, "tcp.sock")
    conf = write_conf(tmp, "[listen]\nunix = %s\ntcp = %d\n" % (sock, port))
    d = Daemon(conf, sock)
    ready = d.wait_ready()
    ok = False
    if ready:
        c = socket.create_connection(("127.0.0.1", port), timeout=2)
        ok = True
        c.close()
    rc = d.stop()
    check("listens on TCP 127.0.0.1 for 'tcp = PORT'", ok and rc == 0,
          "ready=%r rc=%r %s" % (ready, rc, d.stderr()))


def test_missing_dir(tmp):
    sock = os.path.join(tmp, "no", "such", "dir.sock")
    conf = write_conf(tmp, "[listen]\nunix = %s\n" % sock)
    rc, last = run_fail(conf)
    want = "%s: bind: No such file or directory" % sock
    check("a socket in a missing directory: refused",
          rc == 1 and last == want, "rc=%d last=%r" % (rc, last))


def main():
    if not os.access(SUDOKUD, os.X_OK):
        return tap.skip_all("%s not built" % SUDOKUD)
    with tempfile.TemporaryDirectory(prefix="sudokud-listen.") as tmp:
        test_not_a_socket(tmp)
        test_live_socket(tmp)
        test_stale_socket(tmp)
        test_replaced_socket(tmp)
        test_tcp_in_use(tmp)
        test_tcp(tmp)
        test_missing_dir(tmp)
    return TAP.done()


if __name__ == "__main__":
    sys.exit(main())
