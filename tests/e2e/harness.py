# SPDX-License-Identifier: ISC
"""
harness.py -- end-to-end test harness for sudokud (Python 3 stdlib only).

Starts a private daemon on a temporary Unix socket and a free TCP port,
talks the line protocol with a timeout on every socket operation, reads
the daemon's RSS, fds and CPU time from /proc, checks solutions with an
independent reference solver, and prints TAP, one line per case.  Every
Python test of the tree uses it (memcached's t/lib/MemcachedTest.pm is
the model):

  T = Tap(opts)             one TAP printer per file, in one of two styles:
    @T.case(name, ...)      a case per function, run by T.run(), each with
                            its daemon (shared, private or its own), a
                            timeout and a sanitizer scan; the plan first
    T.ok(cond, name, diag)  checks in sequence (memcached's ok()), run by
    T.skip(name, reason)    T.main(fn); the plan last, after one more line
                            if this file's daemons left a sanitizer report
  skip_all(reason)          the whole file skipped
  Daemon(**opts)            a sudokud from keyword options (config keys,
                            unix/tcp, extra_conf) or raw config= text, with
                            env, flags, wrapper, inherit_fd, listen_fds;
                            start()/started(), terminate(), wait_exit(),
                            connect(transport), stats(), cleanup()
  free_port()               a TCP port nobody listens on
  ask(addr, line), ping(addr), can_connect(addr)
                            one request on a new connection; addr is a
                            Unix socket path, a port or (host, port)
  run_daemon_cmd(*args)     sudokud run to its exit (-n, -V, bad flags,
                            configs it must refuse): (status, out, err)
  NotifySocket(path)        a NOTIFY_SOCKET standing in for systemd

Environment: top_builddir (where src/sudokud lives), top_srcdir (for
doc/protocol.md), PUZZLE_DIR (puzzle sets), SUDOKUD (another binary,
e.g. an ASan/UBSan or TSan build: sanitizer reports in its log fail the
case, and memory bounds become notes), E2E_ONLY (run only the cases whose
name contains this string).
"""

import fcntl
import os
import re
import signal
import socket
import subprocess
import tempfile
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
TOP_BUILDDIR = os.environ.get("top_builddir") or os.getcwd()
TOP_SRCDIR = os.environ.get("top_srcdir") or os.path.dirname(
    os.path.dirname(HERE))
PUZZLE_DIR = os.environ.get("PUZZLE_DIR") or os.path.join(TOP_SRCDIR, "data")
DAEMON = os.environ.get("SUDOKUD") or os.path.join(TOP_BUILDDIR, "src",
                                                   "sudokud")

def _sanitized(path):
    """Is the daemon an ASan/MSan/TSan build?  Their RSS means nothing."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return False
    return b"__asan_init" in data or b"__tsan_init" in data or \
        b"__msan_init" in data


SANITIZED = _sanitized(DAEMON)

IO_TIMEOUT = 5.0        # seconds, default for one socket operation
CASE_TIMEOUT = 30       # seconds, hard bound for one case
FILE_TIMEOUT = 110      # seconds, hard bound for one test file

CLASSIC = ("53..7....6..195....98....6.8...6...34..8.3..17...2...6"
           ".6....28....419..5....8..79")
CLASSIC_SOLUTION = ("534678912672195348198342567859761423426853791713924856"
                    "961537284287419635345286179")
EMPTY = "0" * 81
EMPTY_LEXMIN = ("123456789456789123789123456214365897365897214897214365"
                "531642978642978531978531642")

STAT_NAMES = (
    "pid uptime time version workers curr_connections total_connections "
    "rejected_connections cmd_solve cmd_lexmin cmd_count cmd_rate "
    "cmd_hint cmd_generate cmd_ping cmd_version cmd_help cmd_stats "
    "cmd_quit err_syntax err_length err_char err_conflict err_nosolution "
    "err_multiple err_budget err_wrong err_nostep err_toolong err_busy "
    "solved unsolvable guesses solve_usec bytes_read bytes_written "
    "idle_kicks output_kicks toolong_lines proxy_headers "
    "proxy_errors").split()


# The time stamp sudokud -d puts on each line: ISO 8601, in ms, local.
STAMP_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d ")


def unstamp(line):
    """A -d log line without its time stamp (unchanged if it has none)."""
    return STAMP_RE.sub("", line, count=1)


class Fail(Exception):
    """A failed expectation; the message becomes TAP diagnostics."""


class CaseTimeout(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Fail(msg)


def check_mem(cond, msg):
    """check() for memory bounds; only a note under a sanitizer."""
    if not cond and not SANITIZED:
        raise Fail(msg)


def short(v, n=300):
    r = repr(v)
    return r if len(r) <= n else r[:n] + "... (%d chars)" % len(r)


def eq(got, want, what="value"):
    if got != want:
        raise Fail("%s:\n  expected %s\n  got      %s"
                   % (what, short(want), short(got)))


def package_version():
    """PACKAGE_VERSION as configure wrote it into autoconf.h."""
    path = os.path.join(TOP_BUILDDIR, "autoconf.h")
    with open(path) as f:
        for line in f:
            m = re.match(r'#define PACKAGE_VERSION "(.*)"', line)
            if m:
                return m.group(1)
    raise Fail("no PACKAGE_VERSION in " + path)


def load_puzzles(name, n=None):
    out = []
    path = os.path.join(PUZZLE_DIR, name)
    if not os.path.isfile(path):
        raise Fail("puzzle set %s is missing: it ships with the source in "
                   "data/, is the checkout complete?" % path)
    with open(path, "rb") as f:
        for raw in f:
            line = raw.decode("ascii").strip()
            if not line or line.startswith("#"):
                continue
            out.append(line)
            if n is not None and len(out) >= n:
                break
    return out


# ---- reference solver and grid checker: reference.py ---------------------

from reference import (UNITS_OF, givens_consistent,  # noqa: F401
                       parse_grid, ref_search, solution_problem)


def check_solution(puzzle, sol):
    why = solution_problem(puzzle, sol)
    if why:
        raise Fail("bad solution for %s: %s" % (puzzle, why))

# ---- /proc probes ---------------------------------------------------------

def proc_rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def proc_fd_count(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def proc_cpu_seconds(pid):
    """utime + stime of the whole process (all threads), in seconds."""
    with open("/proc/%d/stat" % pid) as f:
        data = f.read()
    fields = data[data.rindex(")") + 2:].split()
    ticks = int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


# ---- client ---------------------------------------------------------------

class Client:
    """One connection; every operation has a timeout."""

    def __init__(self, sock, timeout=IO_TIMEOUT):
        self.sock = sock
        self.sock.settimeout(timeout)
        self.buf = b""
        self.eof = False

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def send(self, data):
        if isinstance(data, str):
            data = data.encode()
        self.sock.sendall(data)

    def shut_wr(self):
        self.sock.shutdown(socket.SHUT_WR)

    def _fill(self, deadline):
        left = deadline - time.monotonic()
        if left <= 0:
            raise Fail("timeout waiting for a reply (have %r)"
                       % self.buf[:200])
        self.sock.settimeout(left)
        try:
            data = self.sock.recv(262144)
        except socket.timeout:
            raise Fail("timeout waiting for a reply (have %r)"
                       % self.buf[:200])
        except ConnectionResetError:
            data = b""
        if not data:
            self.eof = True
        self.buf += data
        return data

    def line(self, timeout=IO_TIMEOUT):
        """The next reply line as str without LF; checks it is ASCII, no CR."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            if self.eof or not self._fill(deadline):
                raise Fail("connection closed before a full line (have %r)"
                           % self.buf[:200])
        raw, self.buf = self.buf.split(b"\n", 1)
        bad = [b for b in raw if b >= 0x80]
        check(not bad, "reply is not 7-bit ASCII: %r" % raw[:200])
        check(b"\r" not in raw, "reply contains CR: %r" % raw[:200])
        return raw.decode("ascii")

    def lines(self, n, timeout=IO_TIMEOUT):
        deadline = time.monotonic() + timeout
        return [self.line(max(0.01, deadline - time.monotonic()))
                for _ in range(n)]

    def req(self, text, timeout=IO_TIMEOUT):
        self.send(text + "\n")
        return self.line(timeout)

    def block(self, text, timeout=IO_TIMEOUT):
        """Send one request whose reply ends with END; return the lines."""
        self.send(text + "\n")
        deadline = time.monotonic() + timeout
        out = []
        while True:
            ln = self.line(max(0.01, deadline - time.monotonic()))
            if ln == "END":
                return out
            out.append(ln)
            check(len(out) < 1000, "no END after 1000 lines")

    def stats(self):
        out = {}
        for ln in self.block("STATS"):
            parts = ln.split(" ")
            check(len(parts) == 3 and parts[0] == "STAT",
                  "bad STATS line %r" % ln)
            out[parts[1]] = parts[2]
        return out

    def read_to_eof(self, timeout=IO_TIMEOUT):
        """Everything until EOF; Fail on timeout."""
        deadline = time.monotonic() + timeout
        while not self.eof:
            self._fill(deadline)
        data, self.buf = self.buf, b""
        return data

    def expect_eof(self, timeout=IO_TIMEOUT, what="close"):
        data = self.read_to_eof(timeout)
        eq(data, b"", "bytes before %s" % what)

    def quiet(self, wait=0.3):
        """True if nothing arrives within wait seconds (and no EOF)."""
        if self.buf:
            return False
        self.sock.settimeout(wait)
        try:
            data = self.sock.recv(4096)
        except socket.timeout:
            return True
        self.buf += data
        if not data:
            self.eof = True
        return False


# ---- daemon ---------------------------------------------------------------

def free_port():
    """A TCP port on 127.0.0.1 nobody listens on (for now)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def have_daemon():
    """Is there a daemon binary to test?"""
    return os.access(DAEMON, os.X_OK)


def child_env(env=None):
    """os.environ with env applied; a None value removes that variable."""
    out = dict(os.environ)
    for k, v in (env or {}).items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = v
    return out


def run_daemon_cmd(*args, env=None, stderr=None, timeout=20):
    """
    Run the daemon with args to its exit (-n, -V, a bad flag, a file it
    must refuse): (exit status, stdout, stderr), bytes decoded as they
    are (no newline translation).  env as for Daemon.  stderr, a file
    object, gets the daemon's standard error instead of a pipe (so that
    JOURNAL_STREAM can name it); what it holds then is returned.
    """
    argv = [DAEMON] + [str(a) for a in args]
    err_to = subprocess.PIPE if stderr is None else stderr
    p = subprocess.run(argv, stdin=subprocess.DEVNULL, env=child_env(env),
                       stdout=subprocess.PIPE, stderr=err_to,
                       timeout=timeout)
    if stderr is None:
        err = p.stderr
    else:
        stderr.seek(0)
        err = stderr.read()
    return (p.returncode, p.stdout.decode("utf-8", "replace"),
            err.decode("utf-8", "replace"))


def _addr_socket(addr, timeout):
    """A stream socket connected to addr: a path, a port or (host, port)."""
    if isinstance(addr, str):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    else:
        if isinstance(addr, int):
            addr = ("127.0.0.1", addr)
        family = socket.AF_INET6 if ":" in addr[0] else socket.AF_INET
        s = socket.socket(family, socket.SOCK_STREAM)
    s.settimeout(timeout)
    try:
        s.connect(addr)
    except OSError:
        s.close()
        raise
    return s


def can_connect(addr, timeout=2.0):
    """Does something accept connections at addr?"""
    try:
        _addr_socket(addr, timeout).close()
        return True
    except OSError:
        return False


def ask(addr, line, timeout=2.0):
    """
    One request on a new connection to addr, whose sending side is then
    shut: the first reply line without its LF, or None if there is no
    whole line (refused, closed, timed out).  Never raises.
    """
    try:
        s = _addr_socket(addr, timeout)
    except OSError:
        return None
    try:
        s.sendall(line.encode("latin-1") + b"\n")
        s.shutdown(socket.SHUT_WR)
        data = b""
        while b"\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                return None
            data += chunk
        return data.split(b"\n", 1)[0].decode("ascii", "replace")
    except OSError:
        return None
    finally:
        s.close()


def ping(addr, timeout=2.0):
    """Does a sudokud serve addr (answer PING with PONG)?"""
    return ask(addr, "PING", timeout) == "PONG"


class NotifySocket:
    """A datagram socket at path standing in for systemd's NOTIFY_SOCKET."""

    def __init__(self, path):
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(path)

    def recv(self, timeout=IO_TIMEOUT):
        """The next message as text, or None after timeout seconds."""
        self.sock.settimeout(max(0.01, timeout))
        try:
            return self.sock.recv(4096).decode("ascii", "replace")
        except socket.timeout:
            return None

    def wait(self, word, timeout=IO_TIMEOUT):
        """Messages until one has the line word: (it or None, all seen)."""
        seen = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            msg = self.recv(deadline - time.monotonic())
            if msg is None:
                break
            seen.append(msg)
            if word in msg.split("\n"):
                return msg, seen
        return None, seen

    def close(self):
        self.sock.close()


class Daemon:
    """
    A private sudokud.  Keyword options become config keys:
    workers, max_connections, idle_timeout, write_timeout, max_line,
    output_high, output_low, shutdown_timeout ([server]); budget,
    count_max ([solver]).  unix=False / tcp=False drop a listener;
    rlimit_nofile sets RLIMIT_NOFILE in the child; extra_conf is added
    to the file.

    config="..." is the whole file instead (extra_conf still added); the
    daemon is then ready when it accepts on sock_path and on port, those
    of them given (neither: as soon as it runs).

    env updates the environment (a None value removes a variable);
    flags are the options before "-f FILE"; wrapper is an argv prefix
    (["sh", "-c", ..., "sh"], a launcher); inherit_fd becomes fd 3;
    listen_fds become fds 3, 4, ... with LISTEN_PID and LISTEN_FDS set
    for the daemon, as systemd passes sockets (LISTEN_FDNAMES: env).
    """
    instances = []          # every daemon made, for the runner's cleanup
    SERVER_KEYS = ("workers", "max_connections", "idle_timeout",
                   "write_timeout", "shutdown_timeout", "max_line",
                   "output_high", "output_low")
    SOLVER_KEYS = ("budget", "count_max")

    def __init__(self, unix=True, tcp=True, rlimit_nofile=None,
                 sock_path=None, env=None, extra_conf="", inherit_fd=None,
                 wrapper=None, config=None, port=None, listen_fds=None,
                 flags=("-d",), **opts):
        self.opts = {"workers": 2}
        self.opts.update(opts)
        self.config = config
        if config is not None:
            unix, tcp = sock_path is not None, port is not None
        self.want_unix = unix
        self.want_tcp = tcp
        self.rlimit_nofile = rlimit_nofile
        self.env = env
        self.extra_conf = extra_conf
        self.inherit_fd = inherit_fd    # becomes fd 3 in the daemon
        self.listen_fds = list(listen_fds or ())    # fds 3, 4, ...
        self.wrapper = wrapper          # argv prefix, e.g. ["sh", "-c", ..]
        self.flags = list(flags)
        self.tmp = tempfile.mkdtemp(prefix="sudokud-e2e.")
        self.path = sock_path or os.path.join(self.tmp, "sock")
        self.port = port
        self.why = None                 # why started() said False
        self.proc = None
        self.conf = os.path.join(self.tmp, "sudokud.conf")
        self.log = os.path.join(self.tmp, "stderr.log")
        self.log_seen = 0
        self.stopped = False            # terminate() was called
        self.findings = []
        Daemon.instances.append(self)

    # config and process
    def write_conf(self):
        if self.config is not None:
            with open(self.conf, "w") as f:
                f.write(self.config + self.extra_conf)
            return
        lines = ["[server]"]
        for k in self.SERVER_KEYS:
            if k in self.opts:
                lines.append("%s = %s" % (k, self.opts[k]))
        lines.append("[solver]")
        for k in self.SOLVER_KEYS:
            if k in self.opts:
                lines.append("%s = %s" % (k, self.opts[k]))
        lines.append("[listen]")
        if self.want_unix:
            lines.append("unix = %s" % self.path)
        if self.want_tcp:
            lines.append("tcp = 127.0.0.1:%d" % self.port)
        with open(self.conf, "w") as f:
            f.write("\n".join(lines) + "\n" + self.extra_conf)

    def _preexec(self):
        if self.inherit_fd is not None:
            os.dup2(self.inherit_fd, 3)
        if self.listen_fds:
            # Out of the way first: one may already sit at 3 or 4.
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 100)
                    for fd in self.listen_fds]
            for i, fd in enumerate(high):
                os.dup2(fd, 3 + i)
        if self.rlimit_nofile:
            import resource
            resource.setrlimit(resource.RLIMIT_NOFILE,
                               (self.rlimit_nofile, self.rlimit_nofile))

    def argv(self):
        """The command line: wrapper, daemon, flags, -f FILE."""
        argv = list(self.wrapper or [])
        if self.listen_fds:
            # The pid is known only in the child: sh exports its own,
            # then execs the daemon in the same process.
            argv += ["sh", "-c", "LISTEN_PID=$$; LISTEN_FDS=%d; export "
                     'LISTEN_PID LISTEN_FDS; exec "$@"'
                     % len(self.listen_fds), "sh"]
        return argv + [DAEMON] + self.flags + ["-f", self.conf]

    def spawn(self):
        """Start the process only (no readiness wait)."""
        self.write_conf()
        logf = open(self.log, "ab")
        keep = ()
        if self.inherit_fd is not None:
            keep = (3,)
        if self.listen_fds:
            keep = tuple(range(3, 3 + len(self.listen_fds)))
        self.proc = subprocess.Popen(
            self.argv(), stdin=subprocess.DEVNULL, stdout=logf,
            stderr=logf, preexec_fn=self._preexec, close_fds=True,
            env=child_env(self.env), pass_fds=keep)
        logf.close()
        return self.proc

    def start(self, timeout=5.0):
        if not os.access(DAEMON, os.X_OK):
            raise Fail("no daemon binary at %s" % DAEMON)
        raw = self.config is not None       # its port is the caller's
        for attempt in range(4):
            if not raw:
                self.port = free_port() if self.want_tcp else None
            self.spawn()
            state = self.wait_ready(timeout)
            if state == "ready":
                self.settle()
                return self
            if state == "exited" and self.want_tcp and not raw and \
                    attempt < 3:
                continue        # lost the port race; try another
            raise Fail("daemon did not start (%s)\n%s"
                       % (state, self.log_tail()))
        raise Fail("daemon did not start")

    def started(self, timeout=5.0):
        """start() for checks in sequence: True, or False and self.why."""
        try:
            self.start(timeout)
            return True
        except Fail as e:
            self.why = str(e)
            return False

    def wait_ready(self, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return "exited"
            if self._probe():
                return "ready"
            time.sleep(0.02)
        self.kill()
        return "timeout"

    def settle(self, timeout=2.0):
        """Wait until worker threads have made their fds (count stable)."""
        deadline = time.monotonic() + timeout
        last, since = -1, time.monotonic()
        while time.monotonic() < deadline:
            n = self.fds()
            if n != last:
                last, since = n, time.monotonic()
            elif time.monotonic() - since >= 0.15:
                return
            time.sleep(0.02)

    def _probe(self):
        try:
            if self.want_unix:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.settimeout(1)
                s.connect(self.path)
                s.close()
            if self.want_tcp:
                s = socket.create_connection(("127.0.0.1", self.port), 1)
                s.close()
            return True
        except OSError:
            return False

    @property
    def pid(self):
        return self.proc.pid

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                pass

    def wait_exit(self, timeout=5.0):
        """The exit status once it ends by itself; None after timeout."""
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def terminate(self, timeout=5.0):
        """SIGTERM; returns the exit status, or None after a SIGKILL."""
        self.stopped = True
        if self.proc.poll() is not None:
            return self.proc.returncode
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return None

    # Sanitizer reports, and valgrind's (scripts/valgrind-sudokud).
    SANITIZER = re.compile(r"(ERROR: \w*Sanitizer|WARNING: \w*Sanitizer|"
                           r"runtime error:|SUMMARY: \w*Sanitizer|"
                           r"^==\d+== \S)", re.M)

    def scan_log(self):
        """New sanitizer lines in the log since the last scan."""
        try:
            with open(self.log, "rb") as f:
                f.seek(self.log_seen)
                data = f.read()
        except OSError:
            return []
        self.log_seen += len(data)
        text = data.decode("ascii", "replace")
        if not self.SANITIZER.search(text):
            return []
        return [ln for ln in text.splitlines()
                if self.SANITIZER.search(ln) or ln.startswith("    #")]

    def cleanup(self):
        if self.tmp is None:
            return
        if self.alive():
            self.terminate(3)
        self.findings += self.scan_log()
        self.kill()
        for name in os.listdir(self.tmp):
            try:
                os.unlink(os.path.join(self.tmp, name))
            except OSError:
                pass
        try:
            os.rmdir(self.tmp)
        except OSError:
            pass
        self.tmp = None

    def log_tail(self, n=15):
        try:
            with open(self.log, "rb") as f:
                lines = f.read().decode("ascii", "replace").splitlines()
        except OSError:
            return ""
        return "\n".join("daemon: " + ln for ln in lines[-n:])

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.cleanup()
        return False

    # connections
    def raw_socket(self, transport, timeout=IO_TIMEOUT):
        if transport == "unix":
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(timeout)
            # With a timeout set, a full listen queue gives EAGAIN at once
            # (TCP would wait): wait for the daemon to accept, bounded.
            deadline = time.monotonic() + timeout
            while True:
                try:
                    s.connect(self.path)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        s.close()
                        raise
                    time.sleep(0.005)
        else:
            s = socket.create_connection(("127.0.0.1", self.port), timeout)
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return s

    def connect(self, transport="unix", timeout=IO_TIMEOUT):
        return Client(self.raw_socket(transport, timeout), timeout)

    def stats(self, transport="unix"):
        c = self.connect(transport)
        try:
            return c.stats()
        finally:
            c.close()

    def rss_kb(self):
        return proc_rss_kb(self.pid)

    def fds(self):
        return proc_fd_count(self.pid)

    def cpu(self):
        return proc_cpu_seconds(self.pid)


def wait_for(pred, timeout=3.0, step=0.05):
    """Poll pred() until true or timeout; returns its last value."""
    deadline = time.monotonic() + timeout
    while True:
        v = pred()
        if v or time.monotonic() >= deadline:
            return v
        time.sleep(step)


def sender(sock, data, chunk=65536, stop_on_block=None):
    """
    Send data from a thread; returns (thread, result) where result['sent']
    counts bytes sent and result['error'] the error that stopped it.
    With stop_on_block, a send blocked that long ends the thread.
    """
    result = {"sent": 0, "error": None, "done": False}

    # A socket object of its own: Python keeps the timeout per object, and
    # the reading thread must not change the sender's.
    own = sock.dup()
    own.settimeout(stop_on_block or IO_TIMEOUT * 4)

    def run():
        try:
            mv = memoryview(data)
            while result["sent"] < len(data):
                n = own.send(mv[result["sent"]:result["sent"] + chunk])
                result["sent"] += n
        except (OSError, ValueError) as e:
            result["error"] = e
        finally:
            own.close()
        result["done"] = True

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t, result


# ---- TAP runner -------------------------------------------------------------

class Ctx:
    """What a case function receives."""

    def __init__(self, daemon, transport, runner):
        self.d = daemon
        self.transport = transport
        self.runner = runner
        self.clients = []
        self.notes = []

    def note(self, text):
        """A measurement, printed as a TAP comment after the result."""
        self.notes.append(text)

    def connect(self, timeout=IO_TIMEOUT, transport=None):
        c = self.d.connect(transport or self.transport or "unix", timeout)
        self.clients.append(c)
        return c

    def stats(self):
        return stats_ints(self.d.stats(self.transport or "unix"))

    def close_all(self):
        for c in self.clients:
            c.close()


def stats_ints(st):
    out = {}
    for k, v in st.items():
        out[k] = v if k == "version" else int(v)
    return out


def skip_all(reason):
    """The plan of a file that runs nothing; its exit status."""
    print("1..0 # SKIP %s" % reason, flush=True)
    return 0


class Tap:
    """
    One TAP printer; automake's tap-driver.sh counts each "ok"/"not ok"
    line as one test case.  A file uses one of two styles:

    Cases: @T.case(name, transports=..., daemon=opts), then
    sys.exit(T.run()).  A case without daemon options shares one default
    daemon per file (restarted if it dies); with options it gets a
    private one; own=True cases start their daemons themselves.

    Checks in sequence (memcached's ok()): T.ok(cond, name, diag) and
    T.skip(name, reason), called by a function fn, then
    sys.exit(T.main(fn)); the plan comes last, which TAP allows.
    diag_lines caps the "# " lines of a failed check.

    Either way the exit status is 0: failures are the "not ok" lines.
    """

    def __init__(self, default_opts=None, diag_lines=None):
        self.cases = []
        self.default_opts = default_opts or {}
        self.shared = None
        self.n = 0
        self.failed = 0
        self.current_notes = []
        self.start = time.monotonic()
        self.diag_lines = diag_lines

    def case(self, name, transports=("unix", "tcp"), daemon=None,
             timeout=CASE_TIMEOUT, own=False, daemonless=False):
        """own: the case starts its daemons itself; daemonless: needs none."""
        def deco(fn):
            fn.daemonless = daemonless
            for tr in transports:
                label = name if tr is None else "%s [%s]" % (name, tr)
                self.cases.append((label, fn, tr, daemon, timeout, own))
            return fn
        return deco

    def _shared_daemon(self):
        if self.shared is None or not self.shared.alive():
            if self.shared is not None:
                self.shared.cleanup()
            self.shared = Daemon(**self.default_opts).start()
        return self.shared

    def _alarm(self, signum, frame):
        raise CaseTimeout()

    def emit(self, ok, label, diag=None, skip=None):
        self.n += 1
        line = "%s %d - %s" % ("ok" if ok else "not ok", self.n, label)
        if skip:
            line += " # SKIP " + skip
        print(line, flush=True)
        if not ok:
            self.failed += 1
        if not ok and self.current_notes:
            diag = "\n".join(self.current_notes) + "\n" + (diag or "")
        if diag:
            for ln in diag.rstrip("\n").splitlines():
                print("# " + ln, flush=True)

    def run_one(self, label, fn, tr, dopts, timeout, own):
        d = None
        ctx = None
        ok, diag = False, None
        first = len(Daemon.instances)
        signal.signal(signal.SIGALRM, self._alarm)
        signal.alarm(timeout)
        try:
            if dopts is not None and not own:
                d = Daemon(**dopts).start()
            elif not own:
                d = self._shared_daemon()
            ctx = Ctx(d, tr, self)
            self.current_notes = ctx.notes
            fn(ctx)
            if d is not None and not d.alive() and not d.stopped:
                raise Fail("daemon died, status %s\n%s"
                           % (d.proc.returncode, d.log_tail()))
            ok, diag = True, "\n".join(ctx.notes) or None
        except CaseTimeout:
            diag = "case exceeded %d s" % timeout
            if d is not None:
                diag += "\n" + d.log_tail()
        except Fail as e:
            diag = str(e)
            if d is not None and not d.alive() and not d.stopped:
                diag += "\ndaemon died, status %s\n%s" % (
                    d.proc.returncode, d.log_tail())
        except Exception:
            diag = traceback.format_exc()
        finally:
            signal.alarm(0)
        try:
            if ctx is not None:
                ctx.close_all()
            # stop this case's daemons (SIGTERM first, so that leak
            # checkers run) and look for sanitizer reports in their logs
            found = []
            for dd in Daemon.instances[first:]:
                if dd is not self.shared:
                    dd.cleanup()
                found += dd.findings
            if self.shared is not None:
                found += self.shared.scan_log()
            if found:
                ok = False
                diag = (diag or "") + "\nsanitizer report:\n" + "\n".join(
                    found[:40])
        except Exception:
            ok, diag = False, (diag or "") + traceback.format_exc()
        self.emit(ok, label, diag)
        self.current_notes = []

    # ---- checks in sequence ---------------------------------------------

    def ok(self, cond, name, diag=""):
        """One result now; diag (any value) is shown if cond is false."""
        text = None
        if not cond and diag is not None and str(diag) != "":
            lines = str(diag).splitlines()
            text = "\n".join(lines[:self.diag_lines])
        self.emit(bool(cond), name, text)
        return cond

    def skip(self, name, reason):
        self.emit(True, name, skip=reason)

    def main(self, fn):
        """
        Run fn() within FILE_TIMEOUT (an exception or the timeout is one
        more "not ok" line), then done().
        """
        signal.signal(signal.SIGALRM, self._alarm)
        signal.alarm(FILE_TIMEOUT)
        try:
            fn()
        except CaseTimeout:
            self.emit(False, "%s ran to its end" % fn.__name__,
                      "file time budget of %d s spent" % FILE_TIMEOUT)
        except Exception:
            self.emit(False, "%s ran to its end" % fn.__name__,
                      traceback.format_exc())
        finally:
            signal.alarm(0)
        return self.done()

    def done(self):
        """
        The end of checks in sequence: stop the daemons still running;
        if this file made any, one more line says whether their logs hold
        a sanitizer report; then the plan.  Returns the exit status, 0.
        """
        found = []
        for d in Daemon.instances:
            try:
                d.cleanup()
            except Exception:
                found.append(traceback.format_exc())
            found += d.findings
        if Daemon.instances:
            self.ok(not found, "no sanitizer report from the %d daemon "
                    "run(s) of this file" % len(Daemon.instances),
                    "\n".join(found[:40]))
        print("1..%d" % self.n, flush=True)
        return 0

    # ---- cases -------------------------------------------------------------

    def _shared_exit(self, c):
        """The shared daemon stops cleanly; its leak report is clean."""
        if self.shared is None:
            return
        d, self.shared = self.shared, None
        rc = d.terminate(5)
        found = d.scan_log()
        d.cleanup()
        check(not found, "sanitizer report:\n" + "\n".join(found[:40]))
        eq(rc, 0, "exit status of the shared daemon after SIGTERM\n"
           + d.log_tail())

    def run(self):
        only = os.environ.get("E2E_ONLY")      # debugging: a name substring
        if only:
            self.cases = [cs for cs in self.cases if only in cs[0]]
        if any(not own and dopts is None
               for _, _, _, dopts, _, own in self.cases):
            self.cases.append(("shared daemon: SIGTERM -> exit 0, no "
                               "sanitizer report", self._shared_exit, None,
                               None, CASE_TIMEOUT, True))
        print("1..%d" % len(self.cases), flush=True)
        have = os.access(DAEMON, os.X_OK)
        try:
            for label, fn, tr, dopts, timeout, own in self.cases:
                if not have and not getattr(fn, "daemonless", False):
                    self.emit(True, label, skip="no daemon at " + DAEMON)
                elif time.monotonic() - self.start > FILE_TIMEOUT:
                    self.emit(False, label, "file time budget of %d s spent"
                              % FILE_TIMEOUT)
                else:
                    self.run_one(label, fn, tr, dopts, timeout, own)
        finally:
            if self.shared is not None:
                self.shared.cleanup()
        # failures are in the "not ok" lines; a non-zero status would be
        # counted again by the TAP driver as an ERROR
        return 0
