#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
client_tls.py -- sudokuc over TLS and with AUTH (issue 30 item 4), end to
end (TAP).  TLS against the real daemon's tls listener, with certificates
made at test time (certs.py): a verified batch (every answer checked by
the harness's grid checker), by name and by address, tls:// beside a
plain server, a client certificate under verify_client = require; and
each failure with its exact message and exit status: an unknown CA, a
name or an address not in the certificate, an expired certificate, no
client certificate or one of another CA, --tls against a plain port, a
plain connection to a TLS port.  AUTH against fake_server.py: the right
secret (sent first on every connection), a wrong one, a server with
none, a refusal whose text is escaped; --auth-file files that are no
secret.  Usage errors: --cert without --key, files that cannot be read,
--tls with only a Unix socket, -L with --tls.
"""

import os
import shutil
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from certs import certs, certs_cleanup                  # noqa: E402
from client_common import Tmp, run as client_run        # noqa: E402
from harness import check, eq                           # noqa: E402
from fake_server import FakeServer, puzzle_of, solution  # noqa: E402
from reference import right_answers                     # noqa: E402
from tls_common import tls_daemon                       # noqa: E402

T = h.Tap()
ONE = (None,)
TMP = Tmp.dir
ASIDE = "; setting this server aside; no other server is left\n"
def pem(name):
    return certs().path(name + ".pem")


def run(*args):
    """sudokuc run to its exit (client_common.run), no server from the
    environment: (status, stdout, stderr)."""
    return client_run(*[str(a) for a in args],
                      env={"SUDOKUD_SERVERS": ""})


def tmpfile(name, data):
    path = os.path.join(TMP, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def expect(name, got, rc, err, out=None):
    """got (rc, out, err) is exit status rc with stderr err exactly."""
    check(got[0] == rc and got[2] == err and (out is None or
                                               got[1] == out),
          "%s: rc=%d stderr %r, want rc=%d %r" % (name, got[0], got[2], rc,
                                                  err))


@T.case("--tls: a batch verified against --ca, by name and by address "
        "(-C 4), every answer checked; tls:// beside a plain server: both "
        "answer (-v)", transports=ONE, own=True)
def _(c):
    d = tls_daemon(tcp=True)
    try:
        puzzles = h.load_puzzles("puzzles2_17_clue", 500)
        f = tmpfile("batch.txt", "".join(p + "\n" for p in puzzles)
                    .encode())
        for host in ("localhost", "127.0.0.1"):
            rc, out, err = run("--tls", "--ca", pem("ca"), "-C", "4", "-H",
                               "%s:%d" % (host, d.tls_port), f)
            eq((rc, err), (0, ""), "exit and stderr by %s" % host)
            why = right_answers(puzzles, out)
            check(why == "", "by %s: %s" % (host, why))
        tls = "tls://localhost:%d" % d.tls_port
        rc, out, err = run("-v", "--ca", pem("ca"), "-w", "1", "-H", tls,
                           "-H", "127.0.0.1:%d" % d.port, f)
        eq(rc, 0, "exit status, tls:// beside tcp:\n" + err)
        why = right_answers(puzzles, out)
        check(why == "", "tls:// beside tcp: %s" % why)
        for name in (tls, "tcp:127.0.0.1:%d" % d.port):
            check(any(ln.startswith("sudokuc: %s: " % name) and
                      not ln.startswith("sudokuc: %s: 0 answers" % name)
                      for ln in err.splitlines()),
                  "%s answered nothing:\n%s" % (name, err))
    finally:
        d.cleanup()


def refusal_rows(d, plain):
    """(name, args, stderr) against d's TLS port (plain: its TCP port)."""
    tls = "tls://localhost:%d" % d.tls_port
    return [
        ("an unknown CA (--ca of another)", ["--ca", pem("other"), "-H",
                                             tls],
         "sudokuc: %s: TLS: unknown CA: the server's certificate is signed "
         "by no CA of %s" % (tls, pem("other"))),
        ("--tls against a plain port", ["--tls", "--ca", pem("ca"), "-H",
                                        "127.0.0.1:%d" % plain],
         "sudokuc: tls://127.0.0.1:%d: TLS: the server does not speak TLS "
         "(is it a plain port? try without --tls or tls://)" % plain),
        ("plain against a TLS port", ["-H", "127.0.0.1:%d" % d.tls_port],
         "sudokuc: tcp:127.0.0.1:%d: closed by the server during the "
         "first request, before any reply (is it a TLS port? try --tls)"
         % d.tls_port),
    ]


@T.case("TLS failures against a sound server: unknown CA, --tls to a "
        "plain port, plain to a TLS port: one line naming the server and "
        "what failed, set aside, exit 2", transports=ONE, own=True)
def _(c):
    d = tls_daemon(tcp=True)
    try:
        for name, args, err in refusal_rows(d, d.port):
            expect(name, run("-C", "2", *(args + [h.CLASSIC])), 2,
                   err + ASIDE, "")
    finally:
        d.cleanup()


@T.case("TLS: the server's certificate for another name (by name and by "
        "address: name mismatch), expired: what failed, exit 2",
        transports=ONE, own=True)
def _(c):
    for server, hosts, what in (
            ("elsewhere", ("localhost", "127.0.0.1"), "name mismatch: the "
             "server's certificate is not for %s"),
            ("expired", ("localhost",), "expired: the server's certificate "
             "has expired")):
        d = tls_daemon(server)
        try:
            for host in hosts:
                tls = "tls://%s:%d" % (host, d.tls_port)
                want = "sudokuc: %s: TLS: %s" % (tls, what.replace(
                    "%s", host) if "%s" in what else what) + ASIDE
                expect("%s by %s" % (server, host), run(
                    "--ca", pem("ca"), "-H", tls, h.CLASSIC), 2, want, "")
        finally:
            d.cleanup()


@T.case("TLS: verify_client = require: --cert/--key of the CA served; "
        "none, or one of another CA, refused in words, exit 2",
        transports=ONE, own=True)
def _(c):
    d = tls_daemon(extra="ca = %s\nverify_client = require\n" % pem("ca"))
    try:
        tls = "tls://127.0.0.1:%d" % d.tls_port
        base = ["--ca", pem("ca"), "-H", tls]
        got = run(*(base + ["--cert", pem("client"), "--key",
                            certs().path("client.key"), h.CLASSIC]))
        expect("with a client certificate", got, 0, "",
               h.CLASSIC_SOLUTION + "\n")
        expect("without", run(*(base + [h.CLASSIC])), 2,
               "sudokuc: %s: TLS: refused by the server: it requires a "
               "client certificate (--cert FILE --key FILE)" % tls + ASIDE,
               "")
        expect("another CA's", run(*(base + [
            "--cert", pem("stranger"), "--key",
            certs().path("stranger.key"), h.CLASSIC])), 2,
            "sudokuc: %s: TLS: refused by the server: it does not know the "
            "CA of the client certificate" % tls + ASIDE, "")
    finally:
        d.cleanup()


def answer(line):
    return solution(puzzle_of(line))


def liar(text):
    """A server without a secret that says text instead of sudokud's."""
    srv = FakeServer(answer)
    srv.NOSECRET = text
    return srv


@T.case("--auth-file: AUTH SECRET first on every connection (-C 3; a "
        "CR LF line too), served; a wrong secret, a server without one, a "
        "refusal of bytes not text: authentication refused, escaped, set "
        "aside, exit 2", transports=ONE, own=True)
def _(c):
    good = tmpfile("secret", b"s3cr3t-!~\n")
    crlf = tmpfile("secret.crlf", b"s3cr3t-!~\r\nsecond line\n")
    srv = FakeServer(answer, secret="s3cr3t-!~")
    try:
        for f in (good, crlf):
            expect("the right secret (%s)" % f, run(
                "--auth-file", f, "-C", "3", "-p", srv.port, h.CLASSIC), 0,
                "", h.CLASSIC_SOLUTION + "\n")
    finally:
        srv.close()
    # Each connection that sent anything sent AUTH first (one that was
    # still connecting when the answer came may have sent nothing).
    check(len(srv.firsts) >= 2 and set(srv.firsts) == {"AUTH s3cr3t-!~"},
          "the first lines: %r" % srv.firsts)
    wrong = tmpfile("wrong", b"not-it\n")
    for name, server, f, text in (
            ("a wrong secret", FakeServer(answer, secret="s3cr3t-!~"),
             wrong, "wrong secret"),
            ("a server without one", FakeServer(answer), good,
             "no secret is set on this server (auth_file)"),
            ("bytes", liar("ERR noauth \x1b[2Jno"), good, "0x1b '[2Jno'")):
        try:
            expect(name, run("--auth-file", f, "-p", server.port,
                             h.CLASSIC), 2,
                   "sudokuc: %s: authentication refused: %s" % (
                       server.name, text) + ASIDE, "")
        finally:
            server.close()


@T.case("usage errors, exit 2: --auth-file of no secret (empty, a blank, "
        "a control byte, 257 bytes, missing); --cert without --key and "
        "--key without --cert; --ca, --cert unreadable; --tls with only a "
        "Unix socket; --ca with no TLS server; -L --tls", transports=ONE,
        own=True)
def _(c):
    bad = ("the first line must be a secret of 1 to 256 printable ASCII "
           "bytes without blanks")
    missing = os.path.join(TMP, "missing")
    rows = [("--auth-file %s: %s" % (tmpfile(name, data), bad),
             ["--auth-file", os.path.join(TMP, name)])
            for name, data in (("empty", b""), ("emptyline", b"\nx\n"),
                               ("blank", b"two words\n"),
                               ("tab", b"a\tb\n"), ("long", b"x" * 257))]
    rows += [
        ("--auth-file %s: No such file or directory" % missing,
         ["--auth-file", missing]),
        ("--cert and --key go together: a client certificate and its key",
         ["--tls", "--cert", pem("client")]),
        ("--cert and --key go together: a client certificate and its key",
         ["--tls", "--key", certs().path("client.key")]),
        ("--ca %s: No such file or directory" % missing,
         ["--tls", "-H", "localhost", "--ca", missing]),
        ("--cert %s: No such file or directory" % missing,
         ["--tls", "-H", "localhost", "--cert", missing, "--key",
          certs().path("client.key")]),
        ("--tls is for servers over TCP (-H, -p): a Unix socket is never "
         "TLS", ["--tls", "-s", os.path.join(TMP, "sock")]),
        ("--ca, --cert and --key are for TLS servers (--tls, or -H "
         "tls://HOST[:PORT])", ["--ca", pem("ca"), "-H", "localhost"]),
        ("-L solves in-process: --tls, --ca, --cert, --key and --auth-file "
         "are for servers", ["-L", "--tls"]),
    ]
    for err, args in rows:
        expect(" ".join(args), run(*(args + [h.CLASSIC])), 2,
               "sudokuc: %s\n" % err, "")
    check(len(open(tmpfile("long256", b"y" * 256 + b"\n"), "rb").read())
          == 257, "the 256-byte secret file")
    srv = FakeServer(answer, secret="y" * 256)
    try:
        expect("a secret of 256 bytes", run(
            "--auth-file", os.path.join(TMP, "long256"), "-p", srv.port,
            h.CLASSIC), 0, "", h.CLASSIC_SOLUTION + "\n")
    finally:
        srv.close()


if __name__ == "__main__":
    try:
        sys.exit(T.run())
    finally:
        certs_cleanup()
        shutil.rmtree(TMP, ignore_errors=True)
