#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
python_push.py -- what the Python client's sync batch does while it
sends (python/sudokud/client.py, _push): sudokud reads a connection only
as it works through what it has read, and not at all while its replies
wait unsent (output_high), so a batch whose requests outgrow the socket
buffers reads the replies as it sends.  Against fake servers, no daemon:
what comes meanwhile is bounded (the replies the requests in flight may
have, a reply's longest line: else ProtocolError), and the batch's
timeout runs from the last bytes that went or came.  The same batches
against the real daemon: python_cases.py ("requests outgrow").
"""

import os
import socket
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
from fake_server import FakeServer, Raw                 # noqa: E402
from python_untrusted import endless, fails             # noqa: E402

sys.path.insert(0, os.path.join(h.TOP_SRCDIR, "python"))
import sudokud                                          # noqa: E402

T = h.Tap()
ONE = (None,)
SOLUTION = h.CLASSIC_SOLUTION


@T.case("a batch to a server that reads no more but sends on while 750 KB "
        "of requests wait to go: solutions, ProtocolError once more came "
        "than the requests in flight may have; a line without end, "
        "ProtocolError once it is longer than a reply's line -- not a wait "
        "or a buffer without bound", transports=ONE, daemonless=True)
def _(c):
    marks = "123456789" * 81
    for what, flood, call, why in (
            ("solutions", (SOLUTION + "\n").encode() * 1000,
             lambda k: k.solve_many([marks] * 1024, window=1024),
             "more reply bytes than the requests in flight"),
            ("a line without end", b"1" * 65536,
             lambda k: k.solutions_many([marks] * 1024, 50, window=1024),
             "a reply line longer than")):
        with tempfile.TemporaryDirectory() as d:
            s = FakeServer(lambda line, f=flood: Raw(endless(f)),
                           path=os.path.join(d, "s"))
            k = sudokud.Client(s.name, timeout=10)
            try:
                e = fails(sudokud.ProtocolError, what,
                          lambda: list(call(k)))
                check(why in str(e), "%s: why: %s" % (what, e))
                check(k.sock is None, what + ": the connection closed")
            finally:
                k.close()
                s.close()


def slow_reader(path, gap, mode):
    """A server on path that reads request lines one every gap seconds
    and answers each with the open grid's first solution as it reads it
    (as sudokud works through what it has read); first, mode "quiet":
    300 read one every gap, answered once all are read; "ahead": 300
    read at once, answered one every gap without reading on."""
    lsock = socket.socket(socket.AF_UNIX)
    lsock.bind(path)
    lsock.listen(1)
    answer = h.EMPTY_LEXMIN.encode() + b"\n"

    def serve():
        conn, _ = lsock.accept()
        with conn, conn.makefile("rb", buffering=1024) as f:
            for _ in range(300 if mode != "each" else 0):
                time.sleep(gap if mode == "quiet" else 0)
                f.readline()
            for _ in range(300 if mode != "each" else 0):
                time.sleep(gap if mode == "ahead" else 0)
                conn.sendall(answer)
            for _ in f:
                time.sleep(gap)
                conn.sendall(answer)
    threading.Thread(target=serve, daemon=True).start()
    return lsock


@T.case("a batch's timeout runs from the last bytes that went or came: "
        "512 requests of pencil marks (375 KB), timeout 1 s, to a server "
        "that takes one every 5 ms and answers it, that answers its first "
        "300 once it has read them all, that answers 300 before it reads on "
        "-- every answer, where the whole send once had to fit in one "
        "timeout",
        transports=ONE, daemonless=True)
def _(c):
    for mode in ("each", "quiet", "ahead"):
        with tempfile.TemporaryDirectory() as d:
            lsock = slow_reader(os.path.join(d, "s"), 0.005, mode)
            try:
                with sudokud.Client("unix:" + os.path.join(d, "s"),
                                    timeout=1) as k:
                    # A send buffer of 16 KiB: a Unix socket is writable
                    # again once 3/4 of its buffer has gone, so bytes that
                    # went show every 16 requests, not every 200.
                    k.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF,
                                      16384)
                    got = list(k.solve_many(["123456789" * 81] * 512,
                                            window=512))
                eq(len(got), 512, mode + ": answers")
                eq(set(got), {h.EMPTY_LEXMIN}, mode + ": each the open "
                   "grid's")
            finally:
                lsock.close()


if __name__ == "__main__":
    sys.exit(T.run())
