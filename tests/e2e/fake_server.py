# SPDX-License-Identifier: ISC
"""
fake_server.py -- a server that speaks sudokud's line protocol and lies,
for testing what sudokuc does with wrong answers (client_checks.py).

FakeServer(answer) listens on a loopback TCP port (or a Unix socket with
path=), reads request lines on every connection it accepts, and replies
to each with answer(line): a str is one reply line (bytes too, sent as
they are: a server's bytes that are no text), a list several, None
nothing, a Cut some lines and then the connection closed (a server that
dies in the middle of a reply), a Slow its lines one at a time, a Raw
its bytes as they are, a piece at a time (a server trickling a line, or
sending one without end).  It keeps count of the requests it got, and
of the connections it accepted after sudokuc first closed one and still
open then (late): sudokuc closes its connections to a server it sets
aside, all opened at its start, and never opens another.  PING gets PONG (unless pong=False:
then answer's), so that sudokuc's probe of a server after a failure goes
through.  It needs no daemon: the lies are made from the tests' own
reference solver (reference.py).

With secret= it speaks AUTH as sudokud does with [auth] (client_tls.py):
None (the default) is a server without a secret, which refuses AUTH
and serves the rest; a string is the secret every connection must send
first (AUTH SECRET gets OK, a wrong one ERR noauth, any other request
before it ERR noauth too, but PING, HELLO and QUIT); firsts keeps the
first line of each connection, auths counts the AUTH lines.  auth= is
the same as secret= (the Python client's tests name it so; "" is a
server without a secret).
"""

import select
import socket
import threading
import time

from reference import ref_search


def solution(puzzle):
    """The puzzle's first solution in lexicographic order, as text."""
    _, first, _ = ref_search(puzzle, limit=1)
    return "".join(str(d) for d in first) if first else None


def swapped(puzzle):
    """A correct solution with two blanks of a row swapped: givens kept,
    every digit 1-9, but two columns break."""
    sol = list(solution(puzzle))
    for r in range(9):
        blanks = [r * 9 + c for c in range(9) if puzzle[r * 9 + c] in ".0"]
        for i in blanks:
            for j in blanks:
                if sol[i] != sol[j]:
                    sol[i], sol[j] = sol[j], sol[i]
                    return "".join(sol)
    raise ValueError("no two blanks to swap in " + puzzle)


def ones(puzzle):
    """Every blank filled with 1: 81 digits keeping the givens."""
    return "".join("1" if ch in ".0" else ch for ch in puzzle)


def wire(lines):
    """The lines as the server sends them, each ended by LF."""
    return b"".join((s if isinstance(s, bytes) else s.encode()) + b"\n"
                    for s in lines)


def puzzle_of(line):
    """The puzzle of a request line (bare or after its verb)."""
    words = line.split()
    return words[0] if len(words[0]) == 81 else words[1]


class Cut:
    """An answer: these lines, then the connection closed."""

    def __init__(self, lines):
        self.lines = lines


class Slow:
    """An answer: these lines, one every gap seconds (a server streaming
    a long list)."""

    def __init__(self, lines, gap):
        self.lines = lines
        self.gap = gap


class Raw:
    """An answer: these pieces of bytes, no LF added, one every gap
    seconds (pieces may be an endless iterator)."""

    def __init__(self, pieces, gap=0.0):
        self.lines = pieces
        self.gap = gap


def hung_up(conn):
    """Has the client closed conn already?  A connection sudokuc opened
    at its start can be accepted here only after one that opened with
    it was answered and closed (this thread was slow to run): closed by
    then, it is none opened later."""
    rdhup = getattr(select, "POLLRDHUP", 0x2000)     # Linux's
    p = select.poll()
    p.register(conn, rdhup)
    return any(ev & (rdhup | select.POLLHUP) for _, ev in p.poll(0))


class FakeServer:
    NOSECRET = "ERR noauth no secret is set on this server (auth_file)"
    WRONG = "ERR noauth wrong secret"
    REQUIRED = "ERR noauth authentication required: AUTH <secret> first"

    def __init__(self, answer, path=None, pong=True, secret=None, auth=None):
        self.answer = answer
        self.secret = secret if auth is None else auth or None
        self.auths = 0
        self.firsts = []        # the first line of each connection
        self.pong = pong
        self.closed = 0         # connections sudokuc closed
        self.late = 0           # connections accepted after one closed
        if path is None:
            self.sock = socket.socket()
            self.sock.bind(("127.0.0.1", 0))
            self.port = self.sock.getsockname()[1]
            self.name = "tcp:127.0.0.1:%d" % self.port
        else:
            self.sock = socket.socket(socket.AF_UNIX)
            self.sock.bind(path)
            self.name = "unix:" + path
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.requests = 0
        self.lock = threading.Lock()
        self.done = False
        self.threads = []
        self.thread = threading.Thread(target=self.accept, daemon=True)
        self.thread.start()

    def accept(self):
        while not self.done:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            with self.lock:
                self.late += self.closed > 0 and not hung_up(conn)
            t = threading.Thread(target=self.serve, args=(conn,),
                                 daemon=True)
            self.threads.append(t)
            t.start()

    def auth(self, line, conn):
        """AUTH, or a request before it: the reply, or None to serve."""
        if line.startswith("AUTH "):
            with self.lock:
                self.auths += 1
            if self.secret is None:
                return self.NOSECRET
            if line[5:] != self.secret:
                return self.WRONG
            conn["authed"] = True
            return "OK"
        if conn["authed"] or line.split(" ")[0] in ("PING", "HELLO",
                                                    "QUIT"):
            return None
        return self.REQUIRED

    def reply(self, line, conn=None):
        if conn is not None:
            if conn["first"]:
                conn["first"] = False
                with self.lock:
                    self.firsts.append(line)
            got = self.auth(line, conn)
            if got is not None:
                return got
        if line == "PING" and self.pong:
            return "PONG"
        with self.lock:
            self.requests += 1
        return self.answer(line)

    def serve(self, conn):
        conn.settimeout(0.2)
        state = {"first": True, "authed": self.secret is None}
        buf = b""
        while not self.done:
            try:
                data = conn.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                data = b""
            if not data:
                with self.lock:
                    self.closed += 1
                break
            buf += data
            out, cut = [], False
            while b"\n" in buf and not cut:
                raw, buf = buf.split(b"\n", 1)
                got = self.reply(raw.decode().rstrip("\r"), state)
                if isinstance(got, (Slow, Raw)):
                    if not self.trickle(conn, out, got):
                        break
                    out, got = [], None
                cut = isinstance(got, Cut)
                if isinstance(got, (str, bytes)):
                    got = [got]
                out += (got.lines if cut else got) or []
            try:
                conn.sendall(wire(out))
            except OSError:
                break
            if cut:
                break
        conn.close()

    def trickle(self, conn, before, slow):
        """The replies before, then slow's lines one by one; False if
        the connection went."""
        try:
            conn.sendall(wire(before))
            for line in slow.lines:
                time.sleep(slow.gap)
                conn.sendall(line if isinstance(slow, Raw) else
                             wire([line]))
        except OSError:
            return False
        return True

    def close(self):
        self.done = True
        self.thread.join(5)
        for t in self.threads:
            t.join(5)
        self.sock.close()
