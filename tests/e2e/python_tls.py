#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
python_tls.py -- the Python client (python/sudokud) over TLS against
the real daemon's tls listener (issue 30): tls=True and an
ssl.SSLContext, sudokuds:// addresses, the certificate and its name
checked (a CA the client does not trust, a name the certificate does
not name, an expired certificate: sudokud.TLSError with OpenSSL's
verify code), a client certificate under verify_client = require, and
the wrong transport either way (tls=True to a plaintext port, plaintext
to a TLS port).  The certificates are certs.py's, as tls.py's; every
answer is checked by the harness's grid checker.
"""

import os
import ssl
import sys
from unittest import mock

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from certs import certs, certs_cleanup                  # noqa: E402
from harness import check, eq, Fail                     # noqa: E402

sys.path.insert(0, os.path.join(h.TOP_SRCDIR, "python"))
import sudokud                                          # noqa: E402

T = h.Tap()
ONE = (None,)


def pem(name, kind="pem"):
    """A file of the certificates of certs.py (made when first asked)."""
    return certs().path("%s.%s" % (name, kind))


def daemon(cert="server", extra=""):
    """A daemon with a tls listener (d.tls_port) beside its Unix and TCP
    ones, not started (with daemon() as d: started, then cleaned up)."""
    port = h.free_port()
    d = h.Daemon(extra_conf="[listen]\ntls = 127.0.0.1:%d\n[tls]\ncert = "
                 "%s\nkey = %s\n%s" % (port, pem(cert), pem(cert, "key"),
                                       extra))
    d.tls_port = port
    return d


def ctx(ca="ca", cert=None):
    c = ssl.create_default_context(cafile=pem(ca))
    if cert is not None:
        c.load_cert_chain(pem(cert), pem(cert, "key"))
    return c


def refused(what, fn, code=None):
    """fn() raises sudokud.TLSError (with that verify_code); it."""
    try:
        fn()
    except sudokud.TLSError as e:
        if code is not None:
            eq(e.verify_code, code, "%s: the verify code of %s" % (what, e))
        print("# %s: %s" % (what, e))
        return e
    except Exception as e:                      # noqa: BLE001
        raise Fail("%s: %r, not TLSError" % (what, e))
    raise Fail("%s: accepted" % what)


@T.case("tls=ctx, tls=True (a CA from SSL_CERT_FILE) and sudokuds://: "
        "verified, a 17-clue set pipelined and every solution checked, "
        "hello(), CLIENT LIST says transport=tls", transports=ONE, own=True)
def _(c):
    puzzles = h.load_puzzles("puzzles2_17_clue", 1000)
    with daemon() as d:
        with sudokud.Client("127.0.0.1:%d" % d.tls_port, timeout=60,
                            tls=ctx()) as k:
            for p, sol in zip(puzzles, k.solve_many(puzzles)):
                eq(h.solution_problem(p, sol), None, "the answer to " + p)
            eq(k.hello()["server"], "sudokud", "hello()")
            eq(k.sock.version() in ("TLSv1.2", "TLSv1.3"), True, "TLS")
            mine = [ln for ln in k.request("CLIENT LIST").split("\n")
                    if "transport=tls " in ln]
            eq(len(mine), 1, "CLIENT LIST lines of transport tls")
        with mock.patch.dict(os.environ, SSL_CERT_FILE=pem("ca")):
            for addr, kw in (("localhost:%d", {"tls": True}),
                             ("sudokuds://localhost:%d", {}),
                             ("tls:127.0.0.1:%d", {})):
                with sudokud.Client(addr % d.tls_port, timeout=10,
                                    **kw) as k:
                    eq(k.solve(h.CLASSIC), h.CLASSIC_SOLUTION, addr)
        with sudokud.Client(("127.0.0.1", d.tls_port), tls=ctx(),
                            server_hostname="localhost") as k:
            eq(k.solve(h.CLASSIC), h.CLASSIC_SOLUTION, "server_hostname=")


@T.case("what the client refuses: a CA it does not trust (the system's "
        "CAs, another CA), a name the certificate does not name, an "
        "expired certificate: sudokud.TLSError (a ConnectionError) saying "
        "which, with OpenSSL's verify code", transports=ONE, own=True)
def _(c):
    with daemon() as d:
        addr = "127.0.0.1:%d" % d.tls_port
        for what, kw in (("the system's CAs", {"tls": True}),
                         ("another CA", {"tls": ctx("other")})):
            e = refused(what, lambda: sudokud.Client(addr, **kw), 20)
            check(isinstance(e, sudokud.ConnectionError) and
                  "unable to get local issuer certificate" in str(e),
                  "%s: %s" % (what, e))
        e = refused("a wrong name", lambda: sudokud.Client(
            addr, tls=ctx(), server_hostname="sudokud.example"), 62)
        check("Hostname mismatch" in str(e) and "sudokud.example" in str(e),
              "a wrong name: %s" % e)
        with sudokud.Client(addr, tls=ctx(), timeout=5) as k:
            k.ping()
    with daemon("expired") as d:
        e = refused("expired", lambda: sudokud.Client(
            "127.0.0.1:%d" % d.tls_port, tls=ctx()), 10)
        check("certificate has expired" in str(e), "expired: %s" % e)


@T.case("verify_client = require: the client's certificate of the CA "
        "served; none, or one of another CA: TLSError", transports=ONE,
        own=True)
def _(c):
    require = "ca = %s\nverify_client = require\n" % pem("ca")
    with daemon(extra=require) as d:
        addr = "127.0.0.1:%d" % d.tls_port
        with sudokud.Client(addr, tls=ctx(cert="client"), timeout=5) as k:
            eq(k.solve(h.CLASSIC), h.CLASSIC_SOLUTION, "with a certificate")
        for what, cert in (("no certificate", None),
                           ("another CA's", "stranger")):
            # TLS 1.3: the server judges it after the client's Finished;
            # its alert comes with the first reply.
            refused(what, lambda: sudokud.Client(
                addr, tls=ctx(cert=cert), timeout=5).ping())


@T.case("the wrong transport: tls=True to a plaintext port is TLSError "
        "(no TLS answer); plaintext to a TLS port a ConnectionError, not "
        "a hang", transports=ONE, own=True)
def _(c):
    with daemon() as d:
        e = refused("TLS to plaintext", lambda: sudokud.Client(
            "127.0.0.1:%d" % d.port, tls=ctx()))
        check("a plaintext port?" in str(e), "the reason: %s" % e)
        try:
            sudokud.Client("127.0.0.1:%d" % d.tls_port, timeout=10).ping()
        except sudokud.TLSError as e:
            raise Fail("plaintext: TLSError %s" % e)
        except sudokud.ConnectionError:
            pass
        else:
            raise Fail("plaintext to a TLS port answered")


@T.case("auth= against the daemon's auth_file, over TLS: the right "
        "secret serves every call (and again after a reconnection), a "
        "wrong one raises AuthError (noauth), none at all gets AuthError "
        "from the first request", transports=ONE, own=True)
def _(c):
    secret = pem("secret", "txt")
    with open(secret, "w") as f:
        f.write("tls-and-a-secret\n")
    with daemon(extra="[server]\nauth_file = %s\n" % secret) as d:
        addr = "127.0.0.1:%d" % d.tls_port
        k = sudokud.Client(addr, tls=ctx(), server_hostname="localhost",
                           auth="tls-and-a-secret")
        eq(k.solve(h.CLASSIC), h.CLASSIC_SOLUTION, "SOLVE after AUTH")
        eq(k.hello()["auth"], "required", "HELLO auth=")
        k.close()
        eq(k.solve(h.CLASSIC), h.CLASSIC_SOLUTION, "after a reconnection")
        k.close()
        for what, kw in (("a wrong secret", {"auth": "not-it"}),
                         ("no secret", {})):
            try:
                k = sudokud.Client(addr, tls=ctx(),
                                   server_hostname="localhost", **kw)
                k.solve(h.CLASSIC)
            except sudokud.AuthError as e:
                eq(e.code, "noauth", "%s: the code" % what)
            else:
                raise Fail("%s: served" % what)
            finally:
                k.close()


@T.case("the asyncio Client and both pools over TLS with AUTH: answers "
        "checked; a certificate of another CA or a wrong secret: the "
        "server set aside, TLSError or AuthError raised (a pool of one)",
        transports=ONE, own=True)
def _(c):
    import asyncio
    import sudokud.asyncio
    secret = pem("secret", "txt")
    with open(secret, "w") as f:
        f.write("tls-and-a-secret\n")
    with daemon(extra="[server]\nauth_file = %s\n" % secret) as d:
        addr = "sudokuds://localhost:%d" % d.tls_port
        kw = {"tls": ctx(), "auth": "tls-and-a-secret"}

        async def main():
            async with sudokud.asyncio.Client(addr, **kw) as k:
                eq(await k.solve(h.CLASSIC), h.CLASSIC_SOLUTION, "asyncio")
            async with sudokud.asyncio.Pool([addr], 2, **kw) as pool:
                got = await asyncio.gather(*[pool.solve(h.CLASSIC)
                                             for _ in range(20)])
                eq(got, [h.CLASSIC_SOLUTION] * 20, "asyncio Pool")
        asyncio.run(main())
        with sudokud.Pool([addr], 2, **kw) as pool:
            eq(list(pool.solve_many([h.CLASSIC] * 50)),
               [h.CLASSIC_SOLUTION] * 50, "Pool")
        for what, exc, bad in (("another CA", sudokud.TLSError,
                                {"tls": ctx("other")}),
                               ("a wrong secret", sudokud.AuthError,
                                {"auth": "not-it"})):
            pool = sudokud.Pool([addr], 2, **dict(kw, **bad))
            try:
                pool.solve(h.CLASSIC)
            except exc:
                check("set aside" in repr(pool), repr(pool))
            else:
                raise Fail("%s: served" % what)
            finally:
                pool.close()


if __name__ == "__main__":
    try:
        sys.exit(T.run())
    finally:
        certs_cleanup()
