# SPDX-License-Identifier: ISC
"""
client_common.py -- what the sudokuc tests client.py, client_options.py
and client_conn.py share (not a test program): the paths and samples,
an independent checker of answers, sudokuc run to its exit, and a
sudokud of their own.  Environment: as client.py.
"""

import os
import re
import shutil
import socket
import subprocess
import tempfile
import time

import harness as tap


SUDOKUC = tap.SUDOKUC
PUZZLE_DIR = tap.PUZZLE_DIR        # the tree's data/ unless set
SETS = ["puzzles2_17_clue", "puzzles3_magictour_top1465",
        "puzzles6_forum_hardest_1106"]

BOJ2239_IN = """103000509
002109400
000704000
300502006
060000050
700803004
000401000
009205800
804000107
"""
BOJ2239_OUT = """143628579
572139468
986754231
391542786
468917352
725863914
237481695
619275843
854396127
"""
BOJ2580_IN = """0 3 5 4 6 9 2 7 8
7 8 2 1 0 5 6 0 9
0 6 0 2 7 8 1 3 5
3 2 1 0 4 6 8 9 7
8 0 4 9 1 3 5 0 6
5 9 6 8 2 0 4 1 3
9 1 7 6 5 2 0 8 0
6 0 3 7 0 1 9 5 2
2 5 8 3 9 4 7 6 0
"""
# Norvig's example: one solution.
EASY = ("53..7....6..195....98....6.8...6...34..8.3..17...2...6."
        "6....28....419..5....8..79")
EMPTY = "0" * 81
# The lexicographically smallest Sudoku grid (rows 123456789, 456789123, ...).
EMPTY_LEXMIN = ("123456789456789123789123456214365897365897214897214365"
                "531642978642978531978531642")
EASY_SOL = ("534678912672195348198342567859761423426853791713924856"
            "961537284287419635345286179")
# Givens agree, yet r1c9 has no candidate: 1-8 in row 1, 9 in column 9.
NOSOL = "12345678." + "........9" + "." * 63
NOSOL_ERR = "ERR nosolution the puzzle has no solution"


# ---- independent checker --------------------------------------------------

def case_runner(tap_):
    """
    A decorator for tap_'s cases: it runs the test at once, within
    tap.CASE_TIMEOUT seconds or @case(name, timeout=S); a timeout fails
    it, saying where it waited and which sudokuc was still running (then
    killed), an exception is a failure too, and the rest go on
    (tap_.bounded()).
    """
    def case(name, timeout=tap.CASE_TIMEOUT):
        def wrap(fn):
            tap_.bounded(name, fn, timeout)
            return fn
        return wrap
    return case


def cells(text):
    """The 81 cells of a puzzle written in any shape (0 = blank)."""
    out = [0 if ch in "0." else int(ch) for ch in text if ch in "0123456789."]
    if len(out) != 81:
        raise ValueError("not 81 cells: %r" % text[:100])
    return out


UNITS = ([[r * 9 + c for c in range(9)] for r in range(9)] +
         [[r * 9 + c for r in range(9)] for c in range(9)] +
         [[(br + i // 3) * 9 + bc + i % 3 for i in range(9)]
          for br in (0, 3, 6) for bc in (0, 3, 6)])


def is_solution(puzzle, sol):
    """Does sol (81 ints) solve puzzle (81 ints): every unit 1-9, givens
    kept."""
    if len(sol) != 81 or any(not 1 <= v <= 9 for v in sol):
        return False
    if any(p and p != s for p, s in zip(puzzle, sol)):
        return False
    return all(sorted(sol[i] for i in u) == list(range(1, 10)) for u in UNITS)


def lexmin(puzzle):
    """The seeds' backtracker: blanks in order, digits ascending."""
    g = list(puzzle)
    blanks = [i for i in range(81) if g[i] == 0]

    def free(i, d):
        return all(g[j] != d for u in UNITS if i in u for j in u)

    def go(k):
        if k == len(blanks):
            return True
        i = blanks[k]
        for d in range(1, 10):
            if free(i, d):
                g[i] = d
                if go(k + 1):
                    return True
        g[i] = 0
        return False
    return g if go(0) else None


def set_puzzles(name):
    """The puzzles of a set in data/, one string each (the harness's
    loader: a missing set fails, naming the file)."""
    return tap.load_puzzles(name)


def check_lines(puzzles, out):
    """Every output line solves its puzzle; returns a complaint or ''."""
    lines = out.splitlines()
    if len(lines) != len(puzzles):
        return "%d answers for %d puzzles" % (len(lines), len(puzzles))
    for k, (p, a) in enumerate(zip(puzzles, lines)):
        if not re.fullmatch(r"[1-9]{81}", a) or \
           not is_solution(cells(p), [int(c) for c in a]):
            return "answer %d wrong: %s for %s" % (k + 1, a, p)
    return ""


# ---- running sudokuc -------------------------------------------------------

class Tmp:
    dir = tempfile.mkdtemp(prefix="e2e_client.")

    @classmethod
    def file(cls, name, text):
        path = os.path.join(cls.dir, name)
        with open(path, "w", newline="") as f:
            f.write(text)
        return path


def run_groups(tap_, *groups):
    """main() of a client test file: each group of cases in turn, the
    temporary files removed whatever happens; the exit status."""
    try:
        for group in groups:
            group()
    finally:
        shutil.rmtree(Tmp.dir, ignore_errors=True)
    tap_.done()
    return 0


def run(*args, stdin="", env=None, timeout=None, argv0=None, preexec=None):
    """sudokuc run to its exit: (status, stdout, stderr).  No timeout of
    its own by default: its case's bounds it, and kills it."""
    e = dict(os.environ)
    e.pop("SUDOKUD_SOCKET", None)
    e.update(env or {})
    p = tap.run_child([argv0 or SUDOKUC] + list(args), input=stdin, env=e,
                      text=True, timeout=timeout, executable=SUDOKUC,
                      preexec_fn=preexec)
    return p.returncode, p.stdout, p.stderr


def grid_rows(text):
    return [r for r in text.split("\n") if r]

# ---- the daemon ------------------------------------------------------------

free_port = tap.free_port


class Daemon:
    """
    The sudokud these tests share, started once by harness.Daemon (the one
    launcher of the e2e tests): its socket and port, or the socket of one
    already running (SUDOKUC_TEST_SOCKET).  proc is None when there is no
    daemon of ours to stop.
    """
    d = None
    proc = None
    sock = None
    port = None
    why = ""

    @classmethod
    def start(cls):
        ext = os.environ.get("SUDOKUC_TEST_SOCKET")
        if ext:
            cls.sock = ext
            return True
        if not os.access(tap.DAEMON, os.X_OK):
            cls.why = "src/sudokud not built"
            return False
        cls.d = tap.Daemon(workers=2, extra_conf="[log]\nlevel = warning\n")
        if not cls.d.started(timeout=10):
            cls.why = cls.d.why
            return False
        cls.proc, cls.sock, cls.port = cls.d.proc, cls.d.path, cls.d.port
        return True

    @classmethod
    def stop(cls):
        if cls.d is not None:
            cls.d.cleanup()
        cls.d = cls.proc = None
