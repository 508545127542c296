#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
python_client.py -- the Python client (python/sudokud), sudokud.Client,
against the real daemon, over the Unix socket and TCP: the cases of
python_cases.py (every method and its parsed value checked against the
reference solver, errors, options, pencil marks, pipelined batches);
every address form; and "pip install ./python" into a fresh venv
without a network, then the installed package used.
"""

import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
import python_cases                                     # noqa: E402
from harness import check, eq                           # noqa: E402

sys.path.insert(0, os.path.join(h.TOP_SRCDIR, "python"))
import sudokud                                          # noqa: E402

T = h.Tap({"workers": 2})


def client(c, timeout=10):
    if c.transport == "unix":
        return sudokud.Client("unix:" + c.d.path, timeout=timeout)
    return sudokud.Client("127.0.0.1:%d" % c.d.port, timeout=timeout)


python_cases.register(T, "", client,
                      lambda addr, timeout: sudokud.Client(addr, timeout))


@T.case("addresses: unix:PATH, unix:///PATH, a path, HOST:PORT, "
        "tcp:HOST:PORT, sudokud://HOST:PORT, (host, port), $SUDOKUD_SOCKET; "
        "a bad one is InputError (a ValueError)", transports=(None,))
def _(c):
    for addr in ("unix:" + c.d.path, "unix://" + c.d.path, c.d.path,
                 "127.0.0.1:%d" % c.d.port, "tcp:127.0.0.1:%d" % c.d.port,
                 "sudokud://127.0.0.1:%d/" % c.d.port,
                 ("127.0.0.1", c.d.port)):
        with sudokud.Client(addr, timeout=5) as k:
            k.ping()
    old = os.environ.get("SUDOKUD_SOCKET")
    os.environ["SUDOKUD_SOCKET"] = c.d.path
    try:
        with sudokud.Client(timeout=5) as k:
            k.ping()
    finally:
        if old is None:
            del os.environ["SUDOKUD_SOCKET"]
        else:
            os.environ["SUDOKUD_SOCKET"] = old
    for bad in ("", "host:0", "host:x", "host:70000", "unix:", "a:b:c",
                "[::1", "[::1]x", "tls://", "sudokud://:7999"):
        try:
            sudokud.parse_address(bad)
        except sudokud.InputError as e:
            check(isinstance(e, ValueError) and e.code == "syntax",
                  "%r: %r" % (bad, e))
            continue
        raise h.Fail("%r accepted" % bad)
    A = sudokud.parse_address
    eq([A(a).name for a in ("db1.example", "[::1]", "tls://db1.example",
                            "sudokuds://h:9443", "tls:h:1", "unix:///r/s",
                            "./rel.sock")],
       ["tcp:db1.example:7999", "tcp:[::1]:7999", "tls://db1.example:7999",
        "tls://h:9443", "tls://h:1", "unix:/r/s", "unix:./rel.sock"],
       "the forms without a port take 7999, as sudokuc's")


@T.case("pip install ./python into a fresh venv, no network: the "
        "installed package solves", transports=("unix",), timeout=120)
def _(c):
    tmp = tempfile.mkdtemp(prefix="sudokud-venv.")
    venv = os.path.join(tmp, "venv")
    r = subprocess.run([sys.executable, "-m", "venv", venv],
                       capture_output=True, text=True, timeout=60)
    eq(r.returncode, 0, "python3 -m venv (Debian: python3-venv): "
       + r.stderr[-300:])
    py = os.path.join(venv, "bin", "python")
    env = dict(os.environ, PIP_NO_INDEX="1", PIP_NO_CACHE_DIR="1",
               PIP_DISABLE_PIP_VERSION_CHECK="1", HOME=tmp)
    env.pop("PYTHONPATH", None)
    r = subprocess.run([py, "-m", "pip", "install", "-q",
                        os.path.join(h.TOP_SRCDIR, "python")],
                       capture_output=True, text=True, timeout=90, env=env,
                       cwd=tmp)
    eq(r.returncode, 0, "pip install ./python: " + r.stderr[-500:])
    r = subprocess.run([py, "-c", "import sudokud, sys; "
                        "c = sudokud.Client(sys.argv[1]); "
                        "print(c.solve(sys.argv[2]), sudokud.__file__)",
                        c.d.path, h.CLASSIC], capture_output=True,
                       text=True, timeout=30, env=env, cwd=tmp)
    eq(r.returncode, 0, "the installed package: " + r.stderr[-300:])
    sol, where = r.stdout.split()
    eq(sol, h.CLASSIC_SOLUTION, "its answer")
    check(where.startswith(venv), "imported from the venv: " + where)


if __name__ == "__main__":
    sys.exit(T.run())
