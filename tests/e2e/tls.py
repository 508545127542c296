#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
tls.py -- the tls and tls_proxy listeners, end to end (TAP): the line
protocol over TLS with Python's ssl module and openssl s_client as
clients, certificates made at test time with openssl req and x509 (a
CA, a server, a client, an expired server, a client of another CA);
every answer checked by the harness's grid checker.  What is refused:
plaintext and garbage on a TLS port, a handshake sent a byte a second
(handshake_timeout), TLS 1.1, a client certificate that is missing or of
another CA under verify_client = require.  SIGHUP reloads the
certificate for new connections while open ones go on; a bad key keeps
the old one.  sudokud -n checks the files.
"""

import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from certs import certs, certs_cleanup                  # noqa: E402
from tls_common import context, tls_client, tls_daemon  # noqa: E402
from harness import check, eq, Fail                     # noqa: E402

T = h.Tap()
ONE = (None,)


def refused(d, ctx=None, name="localhost"):
    """The handshake's failure (an ssl.SSLError text), or None."""
    try:
        k = tls_client(d, ctx, name)
    except (ssl.SSLError, ConnectionError, OSError) as e:
        return str(e) or repr(e)
    try:
        # TLS 1.3: a client certificate is judged after the client's
        # Finished; the server's alert comes with the first read.
        k.req("PING")
    except (ssl.SSLError, ConnectionError, OSError, Fail) as e:
        return str(e) or repr(e)
    finally:
        k.close()
    return None


def tls_errors(d):
    return int(d.stats("unix")["tls_handshake_errors"])


@T.case("TLS: PING, a puzzle pipelined 2000 times, HELLO, CLIENT LIST "
        "(transport=tls) over a verified connection; openssl s_client too",
        transports=ONE, own=True)
def _(c):
    d = tls_daemon()
    try:
        k = tls_client(d)
        eq(k.req("PING"), "PONG", "PING over TLS")
        puzzles = h.load_puzzles("puzzles2_17_clue", 2000)
        k.send("".join(p + "\n" for p in puzzles))
        for p, sol in zip(puzzles, k.lines(len(puzzles), 60)):
            why = h.solution_problem(p, sol)
            check(why is None, "answer to %s: %s" % (p, why))
        check(k.req("HELLO").startswith("HELLO server=sudokud "), "HELLO")
        mine = [ln for ln in k.block("CLIENT LIST")
                if "transport=tls " in ln]
        eq(len(mine), 1, "CLIENT LIST lines of transport tls")
        p = subprocess.run(
            ["openssl", "s_client", "-quiet", "-verify_return_error",
             "-CAfile", certs().path("ca.pem"), "-servername", "localhost",
             "-connect", "127.0.0.1:%d" % d.tls_port],
            input="PING\n%s\nQUIT\n" % h.CLASSIC, capture_output=True,
            text=True, timeout=30)
        eq(p.stdout.splitlines()[-3:], ["PONG", h.CLASSIC_SOLUTION, "BYE"],
           "openssl s_client's session\n" + p.stderr)
    finally:
        d.cleanup()


@T.case("TLS: plaintext, garbage and a handshake a byte a second are "
        "closed without a reply, the first logged as plaintext, the last "
        "at handshake_timeout (2 s: within 1-4.5 s); counted in "
        "tls_handshake_errors", transports=ONE, own=True)
def _(c):
    d = tls_daemon(extra="handshake_timeout = 2\n", idle_timeout=300)
    try:
        for what, data in (("plaintext", b"PING\n"),
                           ("garbage", bytes(range(256)) * 4)):
            s = h.Client(socket.create_connection(
                ("127.0.0.1", d.tls_port), 5))
            s.send(data)
            got = s.read_to_eof(5)
            check(b"PONG" not in got and b"ERR" not in got,
                  "%s got %r" % (what, got[:80]))
            s.close()
        check(h.wait_for(lambda: any(
            "not a TLS handshake (a client speaking plaintext?)" in ln
            for ln in open(d.log, errors="replace")), 5),
            "no log line for the plaintext client\n" + d.log_tail())
        hello = []
        probe = ssl.MemoryBIO(), ssl.MemoryBIO()
        obj = context().wrap_bio(probe[0], probe[1],
                                 server_hostname="localhost")
        try:
            obj.do_handshake()
        except ssl.SSLWantReadError:
            hello = probe[1].read()
        s = socket.create_connection(("127.0.0.1", d.tls_port), 5)
        t0 = time.monotonic()
        closed = None
        for b in hello:
            try:
                s.sendall(bytes([b]))
            except OSError:
                closed = time.monotonic() - t0
                break
            s.settimeout(1)
            try:
                if s.recv(1) == b"":
                    closed = time.monotonic() - t0
                    break
            except socket.timeout:
                pass
            except OSError:
                closed = time.monotonic() - t0
                break
        s.close()
        check(closed is not None and 1 <= closed <= 4.5, "a hello sent a "
              "byte a second closed after %r s, handshake_timeout 2"
              % closed)
        eq(tls_errors(d), 3, "tls_handshake_errors")
        eq(tls_client(d).req("PING"), "PONG", "a client after them")
    finally:
        d.cleanup()


@T.case("TLS: TLS 1.1 refused, TLS 1.2 and 1.3 served; min_protocol "
        "TLSv1.3 refuses 1.2; the server's name is what the certificate "
        "says (a wrong name, an unknown CA, an expired certificate fail "
        "at the client)", transports=ONE, own=True)
def _(c):
    d = tls_daemon()
    try:
        old = subprocess.run(
            ["openssl", "s_client", "-tls1_1", "-connect",
             "127.0.0.1:%d" % d.tls_port], input="", capture_output=True,
            text=True, timeout=30)
        check(old.returncode != 0, "TLS 1.1 was accepted:\n" + old.stdout)
        for v in (ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_3):
            k = tls_client(d, context(minimum_version=v, maximum_version=v))
            eq(k.req("PING"), "PONG", "PING over %s" % v.name)
            eq(k.sock.version(), v.name.replace("_", "."), "version")
            k.close()
        check(refused(d, name="sudokud.example") is not None,
              "a wrong server name was accepted")
        check(refused(d, context(ca="other")) is not None,
              "a server certificate of an unknown CA was accepted")
    finally:
        d.cleanup()
    d = tls_daemon(server="expired")
    try:
        why = refused(d)
        check(why is not None and "expired" in why, "an expired server "
              "certificate: %r" % why)
    finally:
        d.cleanup()
    d = tls_daemon(extra="min_protocol = TLSv1.3\n")
    try:
        v = ssl.TLSVersion.TLSv1_2
        check(refused(d, context(maximum_version=v)) is not None,
              "TLS 1.2 accepted under min_protocol TLSv1.3")
        eq(tls_client(d).req("PING"), "PONG", "TLS 1.3")
    finally:
        d.cleanup()


@T.case("TLS: verify_client = require: no client certificate, or one of "
        "another CA, refused; one of the CA served; allow_names lets in "
        "CN=alice and refuses CN=bob after the handshake", transports=ONE,
        own=True)
def _(c):
    d = tls_daemon(extra="ca = %s\nverify_client = require\n"
                   % certs().path("ca.pem"))
    try:
        check(refused(d) is not None, "no client certificate was accepted")
        check(refused(d, context(cert="stranger")) is not None,
              "a client certificate of another CA was accepted")
        k = tls_client(d, context(cert="client"))
        eq(k.req("PING"), "PONG", "a client certificate of the CA")
        me = [ln for ln in k.block("CLIENT LIST") if "transport=tls" in ln]
        check(len(me) == 1 and me[0].endswith(" auth=none cert=CN=alice"),
              "CLIENT LIST of a client with a certificate: %r" % me)
        check(tls_errors(d) >= 2, "refusals not counted")
    finally:
        d.cleanup()
    d = tls_daemon(extra="ca = %s\nverify_client = require\n"
                   "allow_names = alice, carol@example.org\n"
                   % certs().path("ca.pem"))
    try:
        eq(tls_client(d, context(cert="client")).req("PING"), "PONG",
           "a certificate of CN=alice, in allow_names")
        k = tls_client(d, context(cert="bob"))
        eq(k.line(), "ERR noauth certificate CN=bob is not allowed here "
           "(allow_names)", "CN=bob, not in allow_names")
    finally:
        d.cleanup()


@T.case("tls_proxy: a PROXY v1 header in the clear, then TLS (HAProxy's "
        "send-proxy ssl): CLIENT LIST names the client the header gave",
        transports=ONE, own=True)
def _(c):
    d = tls_daemon(proxy=True)
    try:
        k = tls_client(d, prefix=b"PROXY TCP4 203.0.113.9 127.0.0.1 "
                       b"40000 7999\r\n")
        eq(k.req("PING"), "PONG", "PING after the header, over TLS")
        me = [ln for ln in k.block("CLIENT LIST") if "tls_proxy" in ln]
        eq(len(me), 1, "CLIENT LIST line of transport tls_proxy")
        check("addr=tcp:203.0.113.9:40000 " in me[0], me[0])
    finally:
        d.cleanup()


class Glued:
    """
    A TLS client whose first write is prefix and its hello together, and
    whose send() puts each piece in a TLS record of its own, all in one
    write: as HAProxy's "send-proxy-v2 ssl" and a pipelining client send
    them (ssl.SSLSocket writes the hello alone).
    """

    def __init__(self, port, prefix, name="localhost"):
        self.sock = socket.create_connection(("127.0.0.1", port), 5)
        self.inc, self.out = ssl.MemoryBIO(), ssl.MemoryBIO()
        self.tls = context().wrap_bio(self.inc, self.out,
                                      server_hostname=name)
        self.buf = b""
        while True:
            try:
                self.tls.do_handshake()
                break
            except ssl.SSLWantReadError:
                self.sock.sendall(prefix + self.out.read())
                prefix = b""
                self.feed()
        self.sock.sendall(self.out.read())

    def feed(self):
        try:
            data = self.sock.recv(65536)
        except socket.timeout:
            raise Fail("no reply within 5 s (have %r)" % self.buf)
        if not data:
            raise Fail("closed (have %r)" % self.buf)
        self.inc.write(data)

    def send(self, *pieces):
        for p in pieces:
            self.tls.write(p.encode())
        self.sock.sendall(self.out.read())

    def line(self):
        while b"\n" not in self.buf:
            try:
                self.buf += self.tls.read(65536)
            except ssl.SSLWantReadError:
                self.feed()
        ln, self.buf = self.buf.split(b"\n", 1)
        return ln.decode()


@T.case("tls_proxy: the header and the hello in one packet, as HAProxy "
        "sends them, then three requests in TLS records of their own, in "
        "one packet: each answered, in order (the records past the first "
        "were left in the buffer under TLS: no reply)", transports=ONE,
        own=True)
def _(c):
    d = tls_daemon(proxy=True)
    try:
        k = Glued(d.tls_port, b"PROXY TCP4 203.0.113.9 127.0.0.1 40000 "
                  b"7999\r\n")
        k.send("PING\n", h.CLASSIC + "\n", "PING\n")
        eq([k.line() for _ in range(3)], ["PONG", h.CLASSIC_SOLUTION,
                                          "PONG"], "the three replies")
        k.sock.close()
    finally:
        d.cleanup()


@T.case("TLS: SIGHUP with a new certificate: new connections get it, an "
        "open one goes on; a reload with a key that is not the "
        "certificate's keeps the old one, logged as file: reason",
        transports=ONE, own=True)
def _(c):
    cs = certs()
    d = tls_daemon()
    try:
        def serial(k):
            return k.sock.getpeercert()["serialNumber"]
        old = tls_client(d)
        before = serial(old)
        with open(d.conf) as f:
            text = f.read()
        with open(d.conf, "w") as f:
            f.write(text.replace(cs.path("server."), cs.path("server2.")))
        n = open(d.log, "rb").read().count(b"configuration reloaded")
        d.proc.send_signal(signal.SIGHUP)
        check(h.wait_for(lambda: open(d.log, "rb").read().count(
            b"configuration reloaded") > n, 10), "no reload\n" + d.log_tail())
        new = tls_client(d)
        check(serial(new) != before, "a new connection got the old "
              "certificate")
        eq(old.req(h.CLASSIC), h.CLASSIC_SOLUTION, "the open connection")
        with open(d.conf, "w") as f:
            f.write(text.replace(cs.path("server.key"),
                                 cs.path("client.key")))
        d.proc.send_signal(signal.SIGHUP)
        want = "reload failed, configuration kept: %s: not the key of %s" % (
            cs.path("client.key"), cs.path("server.pem"))
        check(h.wait_for(lambda: want in open(d.log, errors="replace")
                         .read(), 10), "no %r\n%s" % (want, d.log_tail()))
        eq(serial(tls_client(d)), serial(new), "the certificate kept")
    finally:
        d.cleanup()


@T.case("sslscan against the TLS port: SSLv2, SSLv3, TLS 1.0 and 1.1 "
        "disabled, 1.2 and 1.3 enabled, every cipher accepted forward "
        "secret and AEAD of 128 bits or more, no renegotiation",
        transports=ONE, own=True)
def _(c):
    if shutil.which("sslscan") is None:
        raise Fail("sslscan is not installed: scripts/install-deps "
                   "installs it (Debian package sslscan)")
    d = tls_daemon()
    try:
        p = subprocess.run(["sslscan", "--no-colour", "--no-heartbleed",
                            "127.0.0.1:%d" % d.tls_port],
                           capture_output=True, text=True, timeout=120)
        out = p.stdout
        for v, state in (("SSLv2", "disabled"), ("SSLv3", "disabled"),
                         ("TLSv1.0", "disabled"), ("TLSv1.1", "disabled"),
                         ("TLSv1.2", "enabled"), ("TLSv1.3", "enabled")):
            check(re.search(r"(?m)^%s\s+%s$" % (re.escape(v), state), out),
                  "sslscan: %s not %s\n%s" % (v, state, out))
        ciphers = re.findall(r"(?m)^(?:Preferred|Accepted)\s+(TLSv1\.[23])"
                             r"\s+(\d+) bits\s+(\S+)", out)
        check(len(ciphers) >= 3, "sslscan listed %d ciphers\n%s"
              % (len(ciphers), out))
        for ver, bits, name in ciphers:
            strong = int(bits) >= 128 and ("GCM" in name or "CHACHA20" in
                                           name) and (ver == "TLSv1.3" or
                                                      name.startswith("ECDHE"))
            check(strong, "a weak cipher accepted: %s %s %s" % (ver, bits,
                                                                 name))
        check("Session renegotiation not supported" in out,
              "renegotiation:\n" + out)
        c.note("%d ciphers, all ECDHE/TLS 1.3 AEAD" % len(ciphers))
    finally:
        d.cleanup()


@T.case("sudokud -n checks the TLS files: missing, not a key, not the "
        "certificate's key, verify_client without ca, a tls listener "
        "without [tls] cert", transports=ONE, own=True)
def _(c):
    cs = certs()
    tmp = tempfile.mkdtemp(prefix="sudokud-tls-n.")
    try:
        base = "[listen]\ntls = 127.0.0.1:9443\n[tls]\n"
        cases = [
            ("no cert", base + "key = %s\n" % cs.path("server.key"),
             "a tls listener needs [tls] cert and key"),
            ("a missing key", base + "cert = %s\nkey = %s\n" % (
                cs.path("server.pem"), cs.path("nothing.key")),
             "%s: No such file or directory" % cs.path("nothing.key")),
            ("another certificate's key", base + "cert = %s\nkey = %s\n" % (
                cs.path("server.pem"), cs.path("client.key")),
             "%s: not the key of %s" % (cs.path("client.key"),
                                        cs.path("server.pem"))),
            ("verify_client without ca", base + "cert = %s\nkey = %s\n"
             "verify_client = require\n" % (cs.path("server.pem"),
                                            cs.path("server.key")),
             "[tls] verify_client require needs ca"),
        ]
        for name, text, reason in cases:
            path = os.path.join(tmp, "t.conf")
            with open(path, "w") as f:
                f.write(text)
            rc, out, err = h.run_daemon_cmd("-n", "-f", path)
            want = "sudokud: %s: %s\n" % (path, reason)
            check(rc == 1 and err == want, "-n, %s: rc=%d %r, want %r"
                  % (name, rc, err, want))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    try:
        sys.exit(T.run())
    finally:
        certs_cleanup()
