#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
client_messages.py -- sudokuc's messages, word for word, where a
newcomer read them wrong (issue 23.8): the place of a meta request in
"the answers stop before ...", a wrong answer to one, the note under a
hint whose grid disagrees with the solution, an error shown once when
standard output and standard error are one terminal (a pty here), and a
malformed SUDOKUD_SERVERS entry as the usage error sudokuc(1) promises.
The daemon's own messages are in config.py and lifecycle.py.
"""

import os
import pty
import select
import subprocess
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
from fake_server import FakeServer                      # noqa: E402

T = h.Tap()
ONE = (None,)
CLASSIC_WRONG = "55" + h.CLASSIC[2:]        # r1c2 is 3 in the solution


def run(*args, env=None):
    r = h.run_child([h.SUDOKUC] + list(args), text=True, timeout=60,
                    stdin=subprocess.DEVNULL, env=h.child_env(
                        dict({"SUDOKUD_SOCKET": None,
                              "SUDOKUD_SERVERS": None}, **(env or {}))))
    return r.returncode, r.stdout, r.stderr


def on_a_terminal(*args):
    """sudokuc with stdout and stderr on one pty: (status, what it showed)."""
    master, slave = pty.openpty()
    p = h.spawn([h.SUDOKUC] + list(args), stdin=subprocess.DEVNULL,
                stdout=slave, stderr=slave, env=h.child_env(
                    {"SUDOKUD_SOCKET": None, "SUDOKUD_SERVERS": None}))
    os.close(slave)
    shown = b""
    while True:
        ready, _, _ = select.select([master], [], [], 30)
        if not ready:
            break
        try:
            data = os.read(master, 4096)
        except OSError:         # EIO: the last writer closed the pty
            break
        if not data:
            break
        shown += data
    os.close(master)
    return p.wait(30), shown.decode().replace("\r\n", "\n")


@T.case("a server that never answers version: the answers stop before "
        "'argument 1 (version)', not before 'version'", transports=ONE,
        own=True)
def _(c):
    s = FakeServer(lambda line: None)
    try:
        rc, out, err = run("-t", "1", "-H", "127.0.0.1:%d" % s.port,
                           "version")
    finally:
        s.close()
    eq(rc, 2, "exit status (stderr %r)" % err)
    check(err.rstrip("\n").endswith(
        "giving up with 1 request unanswered; the answers stop before "
        "argument 1 (version)"), "the last message: %r" % err)


@T.case("a wrong answer to version names it 'argument 2 (version)'",
        transports=ONE, own=True)
def _(c):
    s = FakeServer(lambda line: "VERSIONS 1" if line == "VERSION" else None)
    try:
        rc, out, err = run("-t", "5", "-H", "127.0.0.1:%d" % s.port,
                           "ping", "version")
    finally:
        s.close()
    eq(rc, 2, "exit status (stderr %r)" % err)
    check("%s: wrong answer to argument 2 (version): " % s.name in err and
          ":0" not in err, "the warning: %r" % err)


@T.case("hint with a wrong grid: ERR wrong on stdout, a note that says the "
        "grid's digits are not the solution's", transports=ONE)
def _(c):
    for args in (["-L"], ["-s", c.d.path]):
        rc, out, err = run(*(args + ["hint", h.CLASSIC, CLASSIC_WRONG]))
        eq((rc, out), (1, "ERR wrong r1c2\n"), "%s: the answer" % args)
        eq(err, "sudokuc: hint: the grid, argument 2, has digits the "
           "solution of argument 1 does not: r1c2\n", "%s: the note" % args)


@T.case("stdout and stderr one terminal: an error answer shown once, with "
        "where it is; -e stdout keeps it in place", transports=ONE)
def _(c):
    for args in (["-L"], ["-s", c.d.path]):
        rc, shown = on_a_terminal(*(args + [h.CLASSIC, "11"]))
        eq(rc, 1, "%s: exit status" % args)
        lines = shown.splitlines()
        eq(len(lines), 2, "%s: two lines: %r" % (args, shown))
        eq(lines[1], "sudokuc: argument 2: ERR length expected 81 cells, "
           "found 2", "%s: the error, once" % args)
        check(not h.solution_problem(h.CLASSIC, lines[0]),
              "%s: the solution first: %r" % (args, lines[0]))
    rc, shown = on_a_terminal("-L", "--errors=stdout", "-q", "11")
    eq((rc, shown), (1, "ERR length expected 81 cells, found 2\n"),
       "-e stdout -q: in place only")


@T.case("SUDOKUD_SERVERS='bogus:::' and -H 'bogus:::': a usage error, not "
        "a DNS lookup", transports=ONE, own=True)
def _(c):
    rc, out, err = run("ping", env={"SUDOKUD_SERVERS": "bogus:::"})
    eq((rc, out, err), (2, "", "sudokuc: SUDOKUD_SERVERS: 'bogus:::' is not "
       "HOST[:PORT] (an IPv6 address goes in brackets: [::1]:7999)\n"),
       "SUDOKUD_SERVERS")
    rc, out, err = run("-H", "bogus:::", "ping")
    eq((rc, out), (2, ""), "-H: exit status")
    check(err.startswith("sudokuc: -H 'bogus:::' is not HOST[:PORT]"), err)


if __name__ == "__main__":
    sys.exit(T.run())
