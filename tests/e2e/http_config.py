#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
http_config.py -- the configuration of the HTTP listeners (TAP): what
sudokud -n and a start refuse, each with its file:line or page_dir
reason (an https listener without [tls], trusted_proxies that are not
addresses, a page directory that is missing or has no index.html, a Unix
path for https); what -nv prints back and reads again; and a reload
(SIGHUP) that reads the page's files again, leaving a page directory
gone wrong to the files it had.
"""

import os
import signal
import sys
import tempfile

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
import http_common as hc                                # noqa: E402

T = h.Tap()
ONE = (None,)


def check_conf(text):
    """sudokud -n of text: (status, stderr)."""
    with tempfile.NamedTemporaryFile("w", suffix=".conf") as f:
        f.write(text)
        f.flush()
        rc, _, err = h.run_daemon_cmd("-n", "-f", f.name)
    return rc, err


@T.case("sudokud -n refuses what an HTTP listener cannot serve with, "
        "saying where and why", transports=ONE, daemonless=True)
def _(c):
    tmp = tempfile.mkdtemp(prefix="sudokud-httpconf.")
    empty = os.path.join(tmp, "empty")
    os.mkdir(empty)
    base = "[listen]\nhttp = 127.0.0.1:18080\n"
    cases = [
        ("trusted_proxies not addresses",
         base + "[http]\npage = 0\ntrusted_proxies = 10.0.0.0/8, proxy\n",
         ":5: trusted_proxies: 'proxy' is not an address or a network"),
        ("a network with host bits",
         base + "[http]\npage = 0\ntrusted_proxies = 10.0.0.1/8\n",
         ":5: trusted_proxies: '10.0.0.1/8' is not an address"),
        ("max_body out of range", base + "[http]\nmax_body = 100\n",
         ":4: max_body: 100 is out of range (1024..67108864)"),
        ("page_dir missing", base + "[http]\npage_dir = %s/nope\n" % tmp,
         "[http] page_dir %s/nope: No such file or directory (page = 0 "
         "serves no page)" % tmp),
        ("page_dir without index.html",
         base + "[http]\npage_dir = %s\n" % empty,
         "[http] page_dir %s: no index.html" % empty),
        ("https without [tls]", "[listen]\nhttps = 127.0.0.1:18443\n"
         "[http]\npage = 0\n", "cert"),
        ("https on a Unix path", "[listen]\nhttps = /tmp/x.sock\n",
         ":2: https:"),
        ("the same address twice", base + "http = 127.0.0.1:18080\n",
         ":3: http: 127.0.0.1:18080 is already listed"),
    ]
    for what, text, words in cases:
        rc, err = check_conf(text)
        eq(rc, 1, what)
        check(words in err, "%s: %r lacks %r" % (what, err, words))
    rc, err = check_conf(base + "http = %s/http.sock\n[http]\npage_dir = "
                         "%s\n" % (tmp, hc.WWW))
    eq((rc, err), (0, "configuration OK\n"), "a good one")
    # page = 0: no directory is read, none is needed.
    rc, err = check_conf(base + "[http]\npage = 0\npage_dir = %s/nope\n"
                         % tmp)
    eq(rc, 0, "page = 0 reads no directory: %s" % err)


@T.case("-nv prints the HTTP listeners and [http] as the file gives them, "
        "and the print reads back the same", transports=ONE,
        daemonless=True)
def _(c):
    text = ("[listen]\nhttp = 127.0.0.1:18080\nhttp = /tmp/h.sock\n"
            "http_proxy = [::1]:18081\n[http]\npage = 0\nmax_body = 2m\n"
            "request_timeout = 5\ntrusted_proxies = 10.0.0.0/8 ::1\n")
    with tempfile.NamedTemporaryFile("w", suffix=".conf") as f:
        f.write(text)
        f.flush()
        rc, out, err = h.run_daemon_cmd("-n", "-v", "-f", f.name)
    eq(rc, 0, err)
    for ln in ("http = 127.0.0.1:18080", "http = /tmp/h.sock",
               "http_proxy = [::1]:18081", "page = 0", "max_body = 2m",
               "request_timeout = 5", "trusted_proxies = 10.0.0.0/8 ::1"):
        check(ln in out.splitlines(), "-nv lacks %r:\n%s" % (ln, out))
    with tempfile.NamedTemporaryFile("w", suffix=".conf") as f:
        f.write(out)
        f.flush()
        rc2, out2, err2 = h.run_daemon_cmd("-n", "-v", "-f", f.name)
    eq((rc2, out2), (0, out), "the print read back")


@T.case("SIGHUP reads the page's files again; a page_dir gone wrong is "
        "logged and the files it had are served on", transports=ONE,
        own=True)
def _(c):
    www = tempfile.mkdtemp(prefix="sudokud-www.")
    with open(os.path.join(www, "index.html"), "w") as f:
        f.write("<p>one</p>\n")
    d = hc.HttpDaemon(workers=1)
    d.extra_conf = d.extra_conf.replace("page_dir = %s" % hc.WWW,
                                        "page_dir = %s" % www)
    d.start()
    try:
        api = d.api()
        eq(api.get("/").body, b"<p>one</p>\n", "the page")
        with open(os.path.join(www, "index.html"), "w") as f:
            f.write("<p>two</p>\n")
        with open(os.path.join(www, "app.js"), "w") as f:
            f.write("x = 1;\n")
        n = open(d.log, "rb").read().count(b"configuration reloaded")
        d.proc.send_signal(signal.SIGHUP)
        check(h.wait_for(lambda: open(d.log, "rb").read().count(
            b"configuration reloaded") > n, 5), "no reload")
        eq(api.get("/").body, b"<p>two</p>\n", "the page after a reload")
        r = api.get("/app.js")
        eq((r.status, r.type), (200, "text/javascript"), "a new file")
        os.unlink(os.path.join(www, "index.html"))
        d.proc.send_signal(signal.SIGHUP)
        check(h.wait_for(lambda: b"no index.html" in open(
            d.log, "rb").read(), 5), "the failed reload is logged")
        eq(api.get("/").body, b"<p>two</p>\n", "the files it had")
    finally:
        d.cleanup()


if __name__ == "__main__":
    sys.exit(T.run())
