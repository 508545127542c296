# SPDX-License-Identifier: ISC
"""
harness_daemon.py -- the daemons of the end-to-end harness: Daemon, a
private sudokud from keyword options or a config text, with its
listeners, environment, inherited fds and log; sudokud run to its exit
(run_daemon_cmd); a free TCP port; the RSS, fds and CPU time of a
process from /proc.  Tests import harness.py, which has these names.
"""

import contextlib
import fcntl
import os
import re
import signal
import socket
import subprocess
import tempfile
import time

from harness_conn import (DAEMON, IO_TIMEOUT, SLOWDOWN, CaseTimeout,
                          Client, Fail)


# ---- /proc probes ---------------------------------------------------------

def proc_status_kb(pid, key):
    """A kB figure of /proc/PID/status: VmRSS, VmHWM (peak RSS), ..."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def proc_rss_kb(pid):
    return proc_status_kb(pid, "VmRSS")


def proc_fd_count(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def proc_cpu_seconds(pid):
    """utime + stime of the whole process (all threads), in seconds."""
    with open("/proc/%d/stat" % pid) as f:
        data = f.read()
    fields = data[data.rindex(")") + 2:].split()
    ticks = int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


# ---- other programs: sudokuc, HAProxy, mandoc ... --------------------------

class Child:
    """
    The processes a case starts with spawn() or run_child(), so that the
    runner can say which were still running when the case's time ran out
    (what it waited for) and stop them (reap_children()).
    """
    live = []           # (Popen, argv, start)


def spawn(argv, **kw):
    """subprocess.Popen(argv, **kw), stopped by the runner at its case's
    end if it still runs then."""
    argv = [str(a) for a in argv]
    p = subprocess.Popen(argv, **kw)
    Child.live.append((p, argv, time.monotonic()))
    return p


def run_child(argv, input=None, timeout=None, **kw):
    """
    subprocess.run(argv, input=input, capture_output=True, **kw) through
    spawn(): killed at once on timeout (subprocess.TimeoutExpired) or an
    exception, or by the runner on its case's timeout (which names it).
    The CompletedProcess.
    """
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    if input is not None:
        kw["stdin"] = subprocess.PIPE
    p = spawn(argv, **kw)
    try:
        out, err = p.communicate(input, timeout=timeout)
    except CaseTimeout:
        raise           # the runner names it, then kills it
    except BaseException:
        p.kill()
        p.wait()
        raise
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


def children_running():
    """The command lines of spawn()'s processes still running, and for
    how long (for a timeout's diagnostics)."""
    now = time.monotonic()
    return ["%s (pid %d, for %.0f s)" % (" ".join(argv)[:300], p.pid,
                                         now - t0)
            for p, argv, t0 in Child.live if p.poll() is None]


def reap_children():
    """Kill spawn()'s processes still running; forget every one."""
    for p, _, _ in Child.live:
        if p.poll() is None:
            p.kill()
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                pass
    Child.live = []


# ---- daemon ---------------------------------------------------------------

def file_tail(path, n):
    """The last n lines of a log file, as text; [] if it cannot be read."""
    try:
        with open(path, "rb") as f:
            return f.read().decode("ascii", "replace").splitlines()[-n:]
    except OSError:
        return []


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


class Daemon:
    """
    A private sudokud.  Keyword options become config keys:
    workers, max_connections, idle_timeout, write_timeout, max_line,
    output_high, output_low, shutdown_timeout ([server]); budget,
    count_max, generate_pool ([solver]; 0 unless given).  unix=False /
    tcp=False drop a listener; rlimit_nofile sets RLIMIT_NOFILE in the
    child; extra_conf is added to the file.

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
    SERVER_KEYS = ("workers", "max_connections", "max_connections_per_peer",
                   "idle_timeout",
                   "write_timeout", "shutdown_timeout", "max_line",
                   "output_high", "output_low", "slice_us")
    SOLVER_KEYS = ("budget", "count_max", "generate_pool")

    def __init__(self, unix=True, tcp=True, rlimit_nofile=None,
                 sock_path=None, env=None, extra_conf="", inherit_fd=None,
                 wrapper=None, config=None, port=None, listen_fds=None,
                 flags=("-d",), **opts):
        # No puzzles made ahead unless a case asks (generate_pool=N): the
        # cases that measure the daemon's CPU time want it idle when idle.
        # Every test client is one peer (127.0.0.1, or this uid): no
        # per-peer limit unless a case asks (max_connections_per_peer=N).
        self.opts = {"workers": 2, "generate_pool": 0,
                     "max_connections_per_peer": 0}
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
            state = self.wait_ready(timeout * SLOWDOWN)
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
        return "\n".join("daemon: " + ln for ln in file_tail(self.log, n))

    def __enter__(self):
        """with Daemon(...) as d: started, cleaned up at the end."""
        return self.start()

    def __exit__(self, *exc):
        self.cleanup()
        return False

    @contextlib.contextmanager
    def scope(self):
        """with Daemon(...).scope() as d: not started (the case starts it,
        or spawns it to see it fail), cleaned up at the end."""
        try:
            yield self
        finally:
            self.cleanup()

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


# ---- heavy work sized at run time ----------------------------------------

# A puzzle whose search runs past the largest budget (10^8 guesses):
# Norvig's "impossible" puzzle with three givens fewer (r1c8, r2c9,
# r7c2), found by removing givens while the tree grew.  SOLVE DEEP
# therefore ends with ERR budget after exactly the budget's guesses, the
# search being the same on every run: heavy work whose length the budget
# sets, on any machine, by deep_budget().
DEEP = ("000005000000601000000000000010500000000106000300000005"
        "500000061000000004000000000")
DEEP_PROBE = 100000         # guesses of one calibration run
_guess_seconds = []


def deep_reply(budget):
    """What SOLVE DEEP gets from a daemon with this budget."""
    return "ERR budget search budget of %d guesses exceeded" % budget


def guess_seconds():
    """
    Seconds one guess of SOLVE DEEP takes here: the best of three runs of
    DEEP_PROBE guesses, on a daemon of its own (the binary under test,
    sanitizers and all), measured once per process.  The best, because a
    loaded machine only makes a run slower.
    """
    if not _guess_seconds:
        d = Daemon(workers=1, tcp=False, budget=DEEP_PROBE).start()
        try:
            k = d.connect("unix", timeout=60)
            best = None
            for _ in range(3):
                t0 = time.monotonic()
                got = k.req("SOLVE " + DEEP, 60)
                took = time.monotonic() - t0
                if got != deep_reply(DEEP_PROBE):
                    raise Fail("calibration: SOLVE DEEP at budget %d got %r"
                               % (DEEP_PROBE, got))
                best = took if best is None else min(best, took)
            k.close()
        finally:
            d.cleanup()
        _guess_seconds.append(best / DEEP_PROBE)
    return _guess_seconds[0]


def deep_budget(seconds):
    """
    The budget that makes SOLVE DEEP take about seconds of solving on
    this machine (at least that long when it runs alone; longer on a
    loaded machine), within 1000 .. 10^8 guesses.
    """
    return int(min(1e8, max(1000, seconds / guess_seconds())))
