# SPDX-License-Identifier: ISC
"""
harness_conn.py -- the lower layer of the end-to-end harness: the
settings from the environment, the known puzzles, the expectations
(Fail, check, eq), the puzzle sets, and the client side of a
connection: Client, one request on a new connection by address (ask,
ping, can_connect), a stand-in for systemd's NOTIFY_SOCKET, wait_for()
and a sending thread.  Tests import harness.py, which has these names.
"""

import os
import re
import socket
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
SUDOKUC = os.environ.get("SUDOKUC") or os.path.join(TOP_BUILDDIR, "src",
                                                    "sudokuc")

def _sanitized(path):
    """Is the daemon an ASan/MSan/TSan build, or valgrind's wrapper
    (scripts/valgrind-sudokud)?  Their RSS means nothing."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return False
    return b"__asan_init" in data or b"__tsan_init" in data or \
        b"__msan_init" in data or (data.startswith(b"#!") and
                                   b"exec valgrind" in data)


SANITIZED = _sanitized(DAEMON)

IO_TIMEOUT = 5.0        # seconds, default for one socket operation
CASE_TIMEOUT = 30       # seconds, hard bound for one case
FILE_TIMEOUT = 110      # seconds, hard bound for one test file
# E2E_SLOWDOWN=N: the daemon runs about N times slower than natively
# (scripts/check's valgrind run sets it): the bounds on failing, a
# case's time, a file's and a daemon's start, are N times as long.  No
# bound a test asserts changes.
SLOWDOWN = max(1, int(os.environ.get("E2E_SLOWDOWN") or "1"))

CLASSIC = ("53..7....6..195....98....6.8...6...34..8.3..17...2...6"
           ".6....28....419..5....8..79")
CLASSIC_SOLUTION = ("534678912672195348198342567859761423426853791713924856"
                    "961537284287419635345286179")
EMPTY = "0" * 81
EMPTY_LEXMIN = ("123456789456789123789123456214365897365897214897214365"
                "531642978642978531978531642")

# The time stamp sudokud -d puts on each line: ISO 8601, in ms, local.
STAMP_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d ")


def unstamp(line):
    """A -d log line without its time stamp (unchanged if it has none)."""
    return STAMP_RE.sub("", line, count=1)


class Fail(Exception):
    """A failed expectation; the message becomes TAP diagnostics."""


class CaseTimeout(Exception):
    """A case's (or a check's) time is up; str() says where it waited."""

    def __init__(self, frame=None):
        super().__init__(waiting_in(frame))


def waiting_in(frame, depth=4):
    """
    Where the code running in frame (the one a signal interrupted) was:
    its innermost calls in the tests' own files (not the library's), one
    line each, outermost first, e.g. "client.py:210 in _: rc, out, err =
    run(...)" -- what it waited for.
    """
    if frame is None:
        return "(no frame)"
    tests = os.path.dirname(HERE)
    calls = [f for f in traceback.extract_stack(frame)
             if os.path.abspath(f.filename).startswith(tests + os.sep)]
    return "\n".join("%s:%d in %s: %s" % (os.path.basename(f.filename),
                                          f.lineno, f.name,
                                          (f.line or "").strip())
                     for f in calls[-depth:]) or "(outside the tests)"


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
                       parse_grid, ref_search, ref_solutions,
                       solution_problem)


def check_solution(puzzle, sol):
    why = solution_problem(puzzle, sol)
    if why:
        raise Fail("bad solution for %s: %s" % (puzzle, why))


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

    def replies(self, n, stall=IO_TIMEOUT * 2):
        """
        n reply lines, however long they take in all: a Fail only when
        stall seconds pass without one (the case's timeout bounds the
        whole).  For batches whose length depends on the machine's speed.
        """
        out = []
        for _ in range(n):
            try:
                out.append(self.line(stall))
            except Fail as e:
                raise Fail("reply %d of %d: %s" % (len(out) + 1, n, e))
        return out

    def req(self, text, timeout=IO_TIMEOUT):
        self.send(text + "\n")
        return self.line(timeout)

    def block(self, text, timeout=IO_TIMEOUT, most=1000):
        """Send one request (None: it was sent) whose reply ends with END;
        return the lines, fewer than most (None: any number)."""
        if text is not None:
            self.send(text + "\n")
        deadline = time.monotonic() + timeout
        out = []
        while True:
            ln = self.line(max(0.01, deadline - time.monotonic()))
            if ln == "END":
                return out
            out.append(ln)
            check(most is None or len(out) < most, "no END after %d lines"
                  % len(out))

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
        try:
            data = self.read_to_eof(timeout)
        except Fail as e:
            raise Fail("no %s within %g s: %s" % (what, timeout, e))
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


# ---- one request by address, and NOTIFY_SOCKET -----------------------------

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


def wait_for(pred, timeout=10.0, step=0.05):
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
    counts bytes sent, result['error'] is the error that stopped it and
    result['end'] when it ended (time.monotonic()).
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
        result["end"] = time.monotonic()
        result["done"] = True

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t, result
