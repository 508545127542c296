#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""help.py -- the HELP reply is written in three places: proto.c makes it
from its request table, and doc/protocol.md and sudokud(8) show it.  The
daemon's reply is compared with doc/protocol.md by tests/e2e/protocol.py
and tests/unit/test_proto; here doc/protocol.md and sudokud(8) are
compared with each other, and with the request table's usage column.
"""
import os
import re
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "e2e"))
import harness as h  # noqa: E402

T = h.Tap()


def read(*path):
    with open(os.path.join(h.TOP_SRCDIR, *path), encoding="utf-8") as f:
        return f.read()


def doc_help():
    sec = read("doc", "protocol.md").split("### `HELP`", 1)[1]
    sec = sec.split("###", 1)[0]
    return [ln[4:] for ln in sec.splitlines() if ln.startswith("    ")]


def man_help():
    text = read("man", "sudokud.8.in")
    sec = text.split(".It Cm HELP\n", 1)[1].split(".Bd -literal", 1)[1]
    block = sec.split("\n", 1)[1].split("\n.Ed\n", 1)[0]
    return ["HELP"] + [ln.replace("\\&", "") for ln in block.splitlines()]


def table_usages():
    text = read("src", "daemon", "proto.c")
    return re.findall(r'\.usage = "([^"]*)"', text)


def checks():
    doc, man = doc_help(), man_help()
    T.ok(doc[:1] == ["HELP"] and doc[-1:] == ["END"],
         "doc/protocol.md shows a HELP request and its reply", doc[:3])
    T.ok(man == doc, "sudokud(8) shows the HELP reply doc/protocol.md shows",
         "man: %r\ndoc: %r" % (man, doc))
    usages = table_usages()
    shown = [ln.split("  ")[1] if ln.startswith("  ") else None
             for ln in doc]
    T.ok(len(usages) >= 8 and all(any(s is not None and s.startswith(u)
                                      for s in shown) for u in usages),
         "every request of proto.c's table is in the HELP reply shown",
         "table: %r" % usages)


if __name__ == "__main__":
    sys.exit(T.main(checks))
