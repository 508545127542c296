#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
python_readme.py -- every example of python/README.md (and the Python
one of README.md, and the package's docstring) run as it is written,
against the real daemon: the
```pycon blocks as one doctest session (each output compared), each
```python block as a script, from the top of the source tree (where
data/ is), with $SUDOKUD_SOCKET naming the test's daemon, as a user's
environment would.  The TLS block runs in a directory holding the files
it names (ca.pem, client.pem, client.key, secret; certs.py's) against a
daemon whose tls listener requires a client certificate and a secret,
its port put in the place of the example's 9443.  A README whose
example no longer runs, or prints what the text does not say, fails.
"""

import contextlib
import doctest
import io
import os
import re
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from certs import certs, certs_cleanup                  # noqa: E402
from harness import check, eq                           # noqa: E402

sys.path.insert(0, os.path.join(h.TOP_SRCDIR, "python"))

T = h.Tap({"workers": 2})
ONE = (None,)
README = os.path.join(h.TOP_SRCDIR, "python", "README.md")
TOP_README = os.path.join(h.TOP_SRCDIR, "README.md")
FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.M | re.S)


def blocks(path, kind):
    with open(path, encoding="utf-8") as f:
        return [body for k, body in FENCE.findall(f.read()) if k == kind]


@contextlib.contextmanager
def user_env(socket_path, cwd):
    """$SUDOKUD_SOCKET the daemon's, no $SUDOKUD_SERVERS, in cwd."""
    old = {k: os.environ.get(k) for k in ("SUDOKUD_SOCKET",
                                          "SUDOKUD_SERVERS")}
    here = os.getcwd()
    os.environ["SUDOKUD_SOCKET"] = socket_path
    os.environ.pop("SUDOKUD_SERVERS", None)
    os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(here)
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def run_script(name, text):
    """exec() of a block in a fresh namespace: what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(text, name, "exec"), {"__name__": "__main__"})
    return out.getvalue()


@T.case("python/README.md: the pycon examples as one doctest session, "
        "each output as the text shows it; the package's docstring's",
        transports=("unix",),
        timeout=120)
def _(c):
    text = "\n".join(blocks(README, "pycon"))
    check(text.count(">>>") >= 25, "the examples found: %d" %
          text.count(">>>"))
    test = doctest.DocTestParser().get_doctest(text, {}, "README.md",
                                               README, 0)
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    with user_env(c.d.path, h.TOP_SRCDIR):
        runner.run(test, out=out.write)
    eq(runner.failures, 0, "the doctest's failures:\n" + out.getvalue())
    c.note("%d examples" % runner.tries)
    import sudokud
    for test in doctest.DocTestFinder().find(sudokud):
        with user_env(c.d.path, h.TOP_SRCDIR):
            runner.run(test, out=out.write)
    eq(runner.failures, 0, "the package's doctests:\n" + out.getvalue())


@T.case("python/README.md and README.md: each python block runs as a "
        "script (the TLS one against a TLS listener that wants a client "
        "certificate and a secret)", transports=ONE, own=True,
        timeout=180)
def _(c):
    scripts = blocks(README, "python")
    check(len(scripts) >= 5, "python blocks: %d" % len(scripts))
    tls = [s for s in scripts if "sudokuds://" in s]
    eq(len(tls), 1, "one TLS block")
    top = blocks(TOP_README, "python")
    check(any("sudokud.read_puzzles" in s for s in top),
          "README.md's Python example")
    d = h.Daemon(workers=2, tcp=False).start()
    try:
        with user_env(d.path, h.TOP_SRCDIR):
            for i, s in enumerate(scripts + top):
                if s not in tls:
                    run_script("block %d" % (i + 1), s)
    finally:
        d.cleanup()
    run_tls(c, tls[0])


def run_tls(c, script):
    port = h.free_port()
    work = tempfile.mkdtemp(prefix="sudokud-readme.")
    try:
        for name in ("ca.pem", "client.pem", "client.key"):
            shutil.copy(certs().path(name), os.path.join(work, name))
        with open(os.path.join(work, "secret"), "w") as f:
            f.write("readme-secret\n")
        d = h.Daemon(tcp=False, extra_conf=(
            "[listen]\ntls = 127.0.0.1:%d\n[tls]\ncert = %s\nkey = %s\n"
            "ca = %s\nverify_client = require\n[server]\nauth_file = %s\n"
            % (port, certs().path("server.pem"), certs().path("server.key"),
               certs().path("ca.pem"), os.path.join(work, "secret"))))
        d.start()
        try:
            with user_env(d.path, work):
                out = run_script("the TLS block", script.replace(
                    ":9443", ":%d" % port))
        finally:
            d.cleanup()
        eq(out.split(), [h.CLASSIC_SOLUTION, "1"], "what it printed")
    finally:
        shutil.rmtree(work)
        certs_cleanup()


if __name__ == "__main__":
    sys.exit(T.run())
