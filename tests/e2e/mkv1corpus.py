#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
mkv1corpus.py DAEMON DATA-DIR > v1_replies.jsonl -- the corpus of
protocol version 1 that protocol_v2.py holds every later daemon to:
request lines of every verb and every error of version 1 (puzzles of
the data sets, grids, seeds, malformed lines), each sent to DAEMON, a
sudokud that speaks version 1 (v1_replies.jsonl was made with the one
of commit 1056a9e), and its reply, as JSON lines.  Not run by the
tests: it is how the corpus was made, kept so that it can be made again
from an old build.  Requests whose version-1 reply was an error about
name=value tokens (now options) are left out: those lines did not work.
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import time

CLASSIC = ("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28...."
           "419..5....8..79")
SOLUTION = ("5346789126721953481983425678597614234268537917139248569615372842"
            "87419635345286179")
EMPTY = "0" * 81


def load(data, name, n):
    out = []
    with open(os.path.join(data, name)) as f:
        for ln in f:
            ln = ln.strip()
            if len(ln) >= 81 and not ln.startswith("#"):
                out.append(ln[:81])
            if len(out) >= n:
                break
    return out


def puzzle_requests(data):
    reqs = []
    for p in (load(data, "puzzles2_17_clue", 25) +
              load(data, "puzzles3_magictour_top1465", 10) +
              load(data, "puzzles6_forum_hardest_1106", 6)):
        reqs += ["SOLVE " + p, p, "LEXMIN " + p, "COUNT " + p,
                 "COUNT %s 1" % p, "COUNT %s 7" % p, "RATE " + p, "HINT " + p]
    for p in load(data, "puzzles7_many_solutions", 8):
        reqs += ["SOLVE " + p, "LEXMIN " + p, "COUNT %s 1000" % p,
                 "COUNT %s 3" % p, "RATE " + p, "HINT " + p]
    return reqs + ["LEXMIN " + EMPTY, "COUNT %s 1" % EMPTY,
                   "COUNT %s 1000" % EMPTY, "COUNT " + EMPTY,
                   "RATE " + EMPTY, "HINT " + EMPTY]


def hint_requests():
    g81 = "".join(SOLUTION[i] if i < 30 or CLASSIC[i] != "." else "."
                  for i in range(81))
    wrong = SOLUTION[:2] + "9" + SOLUTION[3:]
    cands = "".join("123456789" if ch == "." else
                    "".join(ch if str(d) == ch else "." for d in range(1, 10))
                    for ch in CLASSIC)
    return ["HINT %s %s" % (CLASSIC, g) for g in
            (g81, SOLUTION, wrong, cands, cands[:700], cands[:728] + "x")]


def generate_requests():
    reqs = []
    for lvl in ("", "easy ", "medium ", "hard ", "expert ", "extreme ",
                "EASY ", "Hard "):
        for seed in ("0", "1", "42", "18446744073709551615"):
            reqs.append("GENERATE %s%s" % (lvl, seed))
    return reqs + ["GENERATE nope 1", "GENERATE easy 18446744073709551616",
                   "GENERATE easy 1 2", "GENERATE -1", "GENERATE easy x",
                   "GENERATE 1 easy"]


def error_requests():
    c = CLASSIC
    return [
        "PING", "VERSION", "ping", "Ping", "PING x", "VERSION 1",
        "solve " + c, "Solve " + c, "   SOLVE   %s   " % c,
        "\tSOLVE\t%s\t" % c, "SOLVE " + c + "\r", "SOLVE", "SOLVE a b",
        "SOLVE 12", "SOLVE " + c[:80], "SOLVE " + c + "1", c[:9],
        "SOLVE " + c[:9], "SOLVE x" + c[1:], "SOLVE " + c[:80] + "\xe9",
        "SOLVE " + c[:40] + "\x00" + c[41:], "SOLVE 55" + c[2:],
        "SOLVE 5" + c[1:4] + "5" + c[5:],
        "SOLVE 123456789" + "0" * 63 + "912345678",
        "COUNT " + c + " 0", "COUNT " + c + " 1001", "COUNT " + c + " abc",
        "COUNT " + c + " -1", "COUNT " + c + " 1 2", "COUNT", "RATE",
        "RATE a b", "HINT", "HINT a b c", "LEXMIN", "FOO", "FOO bar",
        "\x01\x02", "5 3 . . 7 . . . .", " ".join(c),
        "SOLVE " + " ".join(c[:10]), "SOLVE a b c d e",
        "SOLVE a b c d e f g", "COUNT a b c d", "x=1", "SOLVE x=1",
        "." * 81, EMPTY, "MULTIPLE", "END", "BYE", "ERR"]


def main():
    daemon, data = sys.argv[1], sys.argv[2]
    reqs = (puzzle_requests(data) + hint_requests() + generate_requests() +
            error_requests())
    tmp = tempfile.mkdtemp()
    conf, sock = os.path.join(tmp, "c.conf"), os.path.join(tmp, "s")
    with open(conf, "w") as f:
        f.write("[server]\nworkers = 1\n[solver]\nbudget = 500\n"
                "[listen]\nunix = %s\n" % sock)
    d = subprocess.Popen([daemon, "-d", "-f", conf],
                         stderr=subprocess.DEVNULL)
    for _ in range(100):
        if os.path.exists(sock):
            break
        time.sleep(0.05)
    s = socket.socket(socket.AF_UNIX)
    s.connect(sock)
    f = s.makefile("rb")
    for r in reqs:
        s.sendall(r.encode("latin-1") + b"\n")
        rep = f.readline()
        print(json.dumps({"req": r, "reply": rep[:-1].decode("ascii")}))
    s.close()
    d.terminate()
    d.wait()


if __name__ == "__main__":
    main()
