#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
http_doc.py -- what doc/http.md and README.md tell a reader to type with
curl, run as written against a daemon listening on the address they
name (its port replaced by a free one), each output compared, as JSON,
with the line the document shows after it (TAP).
"""

import json
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402
import http_common as hc                                # noqa: E402

T = h.Tap()
ONE = (None,)
PORT = 8080


def examples(name):
    """[(command, expected output)] of "$ curl" lines in a document."""
    lines = open(os.path.join(h.TOP_SRCDIR, name)).read().splitlines()
    out = []
    for i, ln in enumerate(lines):
        m = re.match(r"^ {4}\$ (curl .*:%d/.*)$" % PORT, ln)
        if m and i + 1 < len(lines):
            out.append((m.group(1), lines[i + 1].strip()))
    return out


@T.case("doc/http.md's and README.md's curl examples give the output "
        "they show", transports=ONE, own=True)
def _(c):
    d = hc.HttpDaemon(workers=1).start()
    try:
        n = 0
        for doc in ("doc/http.md", "README.md"):
            for cmd, want in examples(doc):
                run = cmd.replace(":%d/" % PORT, ":%d/" % d.http_port)
                p = subprocess.run(["sh", "-c", run], capture_output=True,
                                   text=True, timeout=30)
                eq(p.returncode, 0, "%s: %s" % (doc, cmd))
                eq(json.loads(p.stdout), json.loads(want), "%s: %s"
                   % (doc, cmd))
                n += 1
        check(n >= 6, "only %d examples" % n)
        c.note("%d examples" % n)
    finally:
        d.cleanup()


if __name__ == "__main__":
    sys.exit(T.run())
