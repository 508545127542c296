#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
auth.py -- AUTH and auth_file, end to end (TAP): before AUTH only PING,
HELLO, AUTH and QUIT are served and the rest get ERR noauth, in order,
pipelined or not; a wrong secret is refused, counted and logged once a
minute at most; the right one opens every verb for that connection only;
HELLO and CLIENT LIST say who must and who did; the slow log keeps no
secret; SIGHUP reads the secret again (a bad file keeps the old one);
sudokud -n checks the file.  The expected lines are written here from
doc/protocol.md.
"""

import os
import signal
import sys
import tempfile

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
from ops_common import OpsTap, need_root                # noqa: E402

T = OpsTap()
ONE = (None,)
SECRET = "correct-horse-battery-staple"
REQUIRED = "ERR noauth authentication required: AUTH <secret> first"
WRONG = "ERR noauth wrong secret"


def auth_daemon(secret=SECRET, **opts):
    tmp = tempfile.mkdtemp(prefix="sudokud-auth.")
    path = os.path.join(tmp, "secret")
    with open(path, "w") as f:
        f.write(secret + "\n")
    d = h.Daemon(extra_conf="[server]\nauth_file = %s\n" % path
                 if "extra" not in opts else opts.pop("extra") % path,
                 **opts)
    d.secret_path = path
    return d.start()


def cards(k):
    return [dict(f.split("=", 1) for f in ln.split())
            for ln in k.block("CLIENT LIST")]


@T.case("auth_file set: before AUTH, PING, HELLO (auth=required) and QUIT "
        "are served, every other request gets ERR noauth; a pipeline of "
        "requests, AUTH and more is answered in order; then every verb")
def _(c):
    d = auth_daemon(workers=1)
    try:
        k = d.connect(c.transport)
        eq(k.req("PING"), "PONG", "PING before AUTH")
        hello = k.req("HELLO")
        check(hello.startswith("HELLO server=sudokud ") and
              hello.endswith(" auth=required"), "HELLO: %r" % hello)
        for req in ("SOLVE " + h.CLASSIC, h.CLASSIC, "STATS", "HELP",
                    "VERSION", "CLIENT LIST", "SLOWLOG LEN",
                    "GENERATE easy 1", "NOSUCHVERB"):
            got = k.req(req)
            want = REQUIRED if req != "NOSUCHVERB" else got
            eq(got, want, "%s before AUTH" % req.split()[0])
        k.send("%s\nAUTH %s\n%s\nVERSION\n" % (h.CLASSIC, SECRET, h.CLASSIC))
        eq(k.lines(4), [REQUIRED, "OK", h.CLASSIC_SOLUTION,
                        "VERSION " + h.package_version()], "the pipeline, in order")
        other = d.connect(c.transport)
        eq(other.req(h.CLASSIC), REQUIRED, "another connection: not yet")
        by = {e["id"]: e["auth"] for e in cards(k)}
        eq(sorted(by.values()), ["no", "yes"], "CLIENT LIST auth= values")
        q = d.connect(c.transport)
        eq(q.req("QUIT"), "BYE", "QUIT before AUTH")
    finally:
        d.cleanup()


@T.case("AUTH with a wrong secret: ERR noauth wrong secret, the "
        "connection kept, counted in auth_failures and err_noauth, logged "
        "once for three; the slow log shows AUTH ... not the secret",
        transports=ONE, own=True)
def _(c):
    d = auth_daemon(workers=1, extra="[server]\nauth_file = %s\n"
                    "slowlog_slower_than = 0\n")
    try:
        k = d.connect("unix")
        for guess in ("wrong", SECRET + "x", SECRET[:-1]):
            eq(k.req("AUTH " + guess), WRONG, "AUTH %s" % guess)
        eq(k.req("AUTH " + SECRET), "OK", "then the right one")
        st = h.stats_ints(k.stats())
        eq((st["auth_failures"], st["err_noauth"], st["cmd_auth"]),
           (3, 3, 4), "(auth_failures, err_noauth, cmd_auth)")
        logged = [ln for ln in open(d.log, errors="replace")
                  if "AUTH with a wrong secret" in ln]
        eq(len(logged), 1, "log lines for three wrong secrets")
        slow = "\n".join(k.block("SLOWLOG GET 100"))
        check(SECRET not in slow and "request=AUTH ...\n" in slow + "\n",
              "the slow log: %s" % slow)
    finally:
        d.cleanup()


@T.case("no auth_file: every request served, HELLO auth=none, CLIENT LIST "
        "auth=none, AUTH gets ERR noauth saying there is no secret",
        transports=ONE, own=True)
def _(c):
    d = h.Daemon(workers=1).start()
    try:
        k = d.connect("unix")
        check(k.req("HELLO").endswith(" auth=none"), "HELLO auth=none")
        eq(k.req(h.CLASSIC), h.CLASSIC_SOLUTION, "SOLVE with no secret")
        eq(k.req("AUTH x"), "ERR noauth no secret is set on this server "
           "(auth_file)", "AUTH with no secret set")
        eq([e["auth"] for e in cards(k)], ["none"], "CLIENT LIST auth=")
    finally:
        d.cleanup()


@T.case("SIGHUP with a new secret: a connection that sent the old one "
        "stays open and served, a new one needs the new secret; a reload "
        "to a file with a blank keeps the secret it had",
        transports=ONE, own=True)
def _(c):
    d = auth_daemon(workers=1)
    try:
        old = d.connect("unix")
        eq(old.req("AUTH " + SECRET), "OK", "AUTH")

        def hup(secret, want):
            with open(d.secret_path, "w") as f:
                f.write(secret + "\n")
            n = open(d.log, "rb").read().count(want)
            d.proc.send_signal(signal.SIGHUP)
            check(h.wait_for(lambda: open(d.log, "rb").read().count(want)
                             > n, 10), "no %r\n%s" % (want, d.log_tail()))
        hup("new-secret", b"configuration reloaded")
        eq(old.req(h.CLASSIC), h.CLASSIC_SOLUTION, "the open connection")
        k = d.connect("unix")
        eq(k.req("AUTH " + SECRET), WRONG, "the old secret after reload")
        eq(k.req("AUTH new-secret"), "OK", "the new one")
        hup("a b", b"reload failed")
        k = d.connect("unix")
        eq(k.req("AUTH new-secret"), "OK", "the secret kept")
    finally:
        d.cleanup()


@T.case("sudokud -n checks auth_file: missing, empty, a blank, a control "
        "byte, longer than 256 bytes -> file: reason", transports=ONE,
        own=True)
def _(c):
    tmp = tempfile.mkdtemp(prefix="sudokud-auth-n.")
    conf = os.path.join(tmp, "t.conf")
    sec = os.path.join(tmp, "secret")
    cases = [
        (None, "No such file or directory"),
        ("", "no secret on its first line"),
        ("a b", "the secret may hold printable ASCII only, no blanks"),
        ("a\x1bb", "the secret may hold printable ASCII only, no blanks"),
        ("x" * 257, "the secret is longer than 256 bytes"),
    ]
    for text, reason in cases:
        if os.path.exists(sec):
            os.unlink(sec)
        if text is not None:
            with open(sec, "w") as f:
                f.write(text + "\n")
        with open(conf, "w") as f:
            f.write("[server]\nauth_file = %s\n" % sec)
        rc, out, err = h.run_daemon_cmd("-n", "-f", conf)
        want = "sudokud: %s: %s: %s\n" % (conf, sec, reason)
        check(rc == 1 and err == want, "%r: rc=%d %r, want %r"
              % (text, rc, err, want))
    with open(sec, "w") as f:
        f.write("x" * 256 + "\r\n")
    rc, out, err = h.run_daemon_cmd("-n", "-f", conf)
    eq((rc, err), (0, "configuration OK\n"), "a 256-byte secret, CRLF")


@T.case("sudokuc --auth-file against the daemon's auth_file: the right "
        "secret solves a batch, a wrong one is refused (exit 2, the "
        "server's words)", transports=ONE, own=True)
def _(c):
    d = auth_daemon(workers=1, tcp=False)
    try:
        good = os.path.join(os.path.dirname(d.secret_path), "good")
        bad = os.path.join(os.path.dirname(d.secret_path), "bad")
        with open(good, "w") as f:
            f.write(SECRET + "\n")
        with open(bad, "w") as f:
            f.write("not-" + SECRET + "\n")
        puzzles = h.load_puzzles("puzzles2_17_clue", 50)
        p = h.run_child([h.SUDOKUC, "-s", d.path, "--auth-file", good],
                        input="".join(x + "\n" for x in puzzles).encode(),
                        timeout=60)
        out = p.stdout.decode().split()
        eq((p.returncode, len(out)), (0, 50), "exit, answers: %s"
           % p.stderr.decode())
        for x, sol in zip(puzzles, out):
            check(h.solution_problem(x, sol) is None, "answer %s" % sol)
        p = h.run_child([h.SUDOKUC, "-s", d.path, "--auth-file", bad,
                         h.CLASSIC], timeout=60)
        err = p.stderr.decode()
        check(p.returncode == 2 and "authentication refused: wrong secret"
              in err and p.stdout == b"", "a wrong secret: exit %d, %r"
              % (p.returncode, err))
    finally:
        d.cleanup()


def as_nobody(path):
    """PING over the Unix socket at path from a process of user nobody:
    the first reply line, or what went wrong."""
    code = ("import os, socket, sys\n"
            "os.setgid(65534); os.setgroups([]); os.setuid(65534)\n"
            "s = socket.socket(socket.AF_UNIX); s.settimeout(5)\n"
            "s.connect(sys.argv[1])\n"
            "try:\n"
            "    s.sendall(b'PING\\n')\n"
            "except BrokenPipeError:\n"
            "    pass   # refused at once: its reply is there to read\n"
            "print(s.makefile().readline().strip())\n")
    p = h.run_child([sys.executable, "-c", code, path], timeout=20)
    return (p.stdout.decode().strip() or
            p.stderr.decode().strip().splitlines()[-1])


def http_as_nobody(path):
    """GET /v2/ping over the HTTP Unix socket at path from a process of
    user nobody: the whole response, as text."""
    code = ("import os, socket, sys\n"
            "os.setgid(65534); os.setgroups([]); os.setuid(65534)\n"
            "s = socket.socket(socket.AF_UNIX); s.settimeout(5)\n"
            "s.connect(sys.argv[1])\n"
            "try:\n"
            "    s.sendall(b'GET /v2/ping HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n')\n"
            "except BrokenPipeError:\n"
            "    pass   # refused at once: its reply is there to read\n"
            "out = b''\n"
            "while True:\n"
            "    b = s.recv(4096)\n"
            "    if not b:\n"
            "        break\n"
            "    out += b\n"
            "sys.stdout.write(out.decode())\n")
    p = h.run_child([sys.executable, "-c", code, path], timeout=20)
    return p.stdout.decode() or p.stderr.decode()


@T.case("allow_users on an http Unix socket: a client of another user gets "
        "401 noauth with WWW-Authenticate, as every 401 has (as root only)",
        transports=ONE, own=True)
def _(c):
    need_root()         # to connect as another user
    d = h.Daemon(workers=1, tcp=False)
    path = os.path.join(d.tmp, "http.sock")
    d.extra_conf = ("[listen]\nunix_mode = 0666\nallow_users = root\n"
                    "http = %s\n[http]\npage = 0\n" % path)
    d.start()
    try:
        os.chmod(d.tmp, 0o755)          # the sockets' directory
        got = http_as_nobody(path)
        head, _, body = got.partition("\r\n\r\n")
        lines = head.split("\r\n")
        eq(lines[0], "HTTP/1.1 401 Unauthorized", "status line of %r" % got)
        check('WWW-Authenticate: Bearer realm="sudokud"' in lines,
              "no WWW-Authenticate in %r" % head)
        check('"code":"noauth"' in body.replace(" ", "") and "65534" in body,
              "body %r" % body)
    finally:
        d.cleanup()


@T.case("allow_users and allow_groups: a Unix client of another user is "
        "refused with ERR noauth naming its uid, one in either list is "
        "served, root always (as root only)", transports=ONE, own=True)
def _(c):
    need_root()         # to connect as another user
    refused = ("ERR noauth user 65534 may not connect to this socket "
               "(allow_users, allow_groups)")
    for lists, want in (("allow_users = root, daemon\n", refused),
                        ("allow_users = nobody\n", "PONG"),
                        ("allow_groups = nogroup\n", "PONG"),
                        ("allow_users = 65534\n", "PONG")):
        d = h.Daemon(workers=1, tcp=False, extra_conf="[listen]\n"
                     "unix_mode = 0666\n" + lists).start()
        try:
            os.chmod(d.tmp, 0o755)      # the socket's directory
            eq(as_nobody(d.path), want, "nobody, with %s" % lists.strip())
            eq(d.connect("unix").req("PING"), "PONG", "root, with %s"
               % lists.strip())
        finally:
            d.cleanup()


if __name__ == "__main__":
    sys.exit(T.run())
