#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""client.py -- sudokuc end to end, locally (-L) and against a real sudokud.

Prints TAP.  The -L tests run first; the daemon tests start
$top_builddir/src/sudokud on a Unix socket and a TCP port chosen at run
time (skipped if the daemon is not built) and always stop it.  Answers
are checked by an independent checker written here, never against output
captured from sudokuc.

Environment: top_builddir, PUZZLE_DIR (set by make check; data/ of the
source tree otherwise).
SUDOKUC_TEST_SOCKET=PATH uses a daemon already running there instead;
SUDOKUC=PATH tests another sudokuc binary (an older one, to see which
tests catch what it gets wrong).
"""

import grp
import os
import pty
import re
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as tap  # noqa: E402

BUILD = os.environ.get("top_builddir",
                       os.path.join(os.path.dirname(__file__), ".."))
SUDOKUC = os.environ.get("SUDOKUC") or os.path.join(BUILD, "src", "sudokuc")
SUDOKUD = os.path.join(BUILD, "src", "sudokud")
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


# ---- TAP ------------------------------------------------------------------

TAP = tap.Tap(diag_lines=30)


def case(name):
    """Decorator: runs the test at once; an exception is a failure."""
    def wrap(fn):
        try:
            fn(name)
        except Exception as e:  # noqa: BLE001 -- report, go on
            TAP.ok(False, name, "%s: %s" % (type(e).__name__, e))
        return fn
    return wrap


# ---- independent checker --------------------------------------------------

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
    """Does sol (81 ints) solve puzzle (81 ints): every unit 1-9, givens kept."""
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


def run(*args, stdin="", env=None, timeout=120, argv0=None, preexec=None):
    e = dict(os.environ)
    e.pop("SUDOKUD_SOCKET", None)
    e.update(env or {})
    p = subprocess.run([argv0 or SUDOKUC] + list(args), input=stdin, env=e,
                       capture_output=True, text=True, timeout=timeout,
                       executable=SUDOKUC, preexec_fn=preexec)
    return p.returncode, p.stdout, p.stderr


def grid_rows(text):
    return [r for r in text.split("\n") if r]


# ---- the daemon ------------------------------------------------------------

def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Daemon:
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
        if not os.access(SUDOKUD, os.X_OK):
            cls.why = "src/sudokud not built"
            return False
        cls.sock = os.path.join(Tmp.dir, "sudokud.sock")
        cls.port = free_port()
        conf = Tmp.file("sudokud.conf", "[server]\nworkers = 2\n"
                        "[listen]\nunix = %s\ntcp = 127.0.0.1:%d\n"
                        "[log]\nlevel = warning\n" % (cls.sock, cls.port))
        log = open(os.path.join(Tmp.dir, "sudokud.log"), "w")
        cls.proc = subprocess.Popen([SUDOKUD, "-d", "-f", conf],
                                    stdout=log, stderr=log)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if cls.proc.poll() is not None:
                cls.why = "sudokud exited with %d" % cls.proc.returncode
                return False
            try:
                s = socket.socket(socket.AF_UNIX)
                s.connect(cls.sock)
                s.close()
                return True
            except OSError:
                time.sleep(0.05)
        cls.why = "sudokud did not listen within 10 s"
        return False

    @classmethod
    def stop(cls):
        if cls.proc is None:
            return
        if cls.proc.poll() is None:
            cls.proc.send_signal(signal.SIGTERM)
            try:
                cls.proc.wait(10)
            except subprocess.TimeoutExpired:
                cls.proc.kill()
                cls.proc.wait()
        cls.proc = None


# ---- tests that need no daemon ------------------------------------------------

def local_tests():
    L = "-L"

    @case("usage: -V, -h, a bad option exits 2")
    def _(name):
        rc, out, _ = run("-V")
        rc2, out2, _ = run("-h")
        rc3, _, err3 = run("-Z")
        rc4, _, err4 = run("-w", "0", EASY)
        rc5, _, err5 = run("-f", "fancy", EASY)
        TAP.ok(rc == 0 and re.fullmatch(r"sudokuc \S+\n", out) and
               rc2 == 0 and out2.startswith("usage: sudokuc") and
               rc3 == 2 and "usage: sudokuc" in err3 and
               rc4 == 2 and "window" in err4 and
               rc5 == 2 and "fancy" in err5, name,
               (rc, out, rc2, out2, rc3, err3, rc4, err4, rc5, err5))

    @case("usage: -C 0, 65 and x exit 2 naming the option; -L ignores -C")
    def _(name):
        bad = [run("-C", v, EASY) for v in ("0", "65", "x")]
        bad.append(run("--connections=0", EASY))
        rc, out, err = run(L, "-C", "64", EASY)
        rc2, out2, _ = run(L, "--connections", "1", "-c", "3", EASY)
        TAP.ok(all(r[0] == 2 and r[1] == "" and "connections" in r[2]
                   for r in bad) and
               rc == 0 and err == "" and check_lines([EASY], out) == "" and
               (rc2, out2) == (0, "1\n"), name, (bad, rc, out, err, rc2, out2))

    @case("-L: a line puzzle as an argument is answered with a line")
    def _(name):
        rc, out, err = run(L, EASY)
        TAP.ok(rc == 0 and err == "" and check_lines([EASY], out) == "",
               name, (rc, out, err))

    @case("-L --lexmin: the BOJ 2239 sample prints exactly the expected answer")
    def _(name):
        rc, out, err = run(L, "--lexmin", stdin=BOJ2239_IN)
        TAP.ok(rc == 0 and out == BOJ2239_OUT and err == "", name,
               (rc, out, err))

    @case("-L: the BOJ 2580 sample gets a valid answer, spaced")
    def _(name):
        rc, out, err = run(L, stdin=BOJ2580_IN)
        TAP.ok(rc == 0 and err == "" and spaced_ok(BOJ2580_IN, out), name,
               (rc, out, err))

    @case("-L: a 9x9 digit grid (CRLF, comments) is answered with a grid")
    def _(name):
        text = "# BOJ 2239\r\n" + BOJ2239_IN.replace("\n", " \r\n")
        rc, out, err = run(L, stdin=text)
        rows = grid_rows(out)
        TAP.ok(rc == 0 and len(rows) == 9 and
               all(re.fullmatch(r"[1-9]{9}", r) for r in rows) and
               is_solution(cells(BOJ2239_IN), cells(out)), name,
               (rc, out, err))

    @case("-L --lexmin: the empty grid gives the smallest grid")
    def _(name):
        rc, out, err = run(L, "--lexmin", EMPTY)
        TAP.ok(rc == 0 and out == EMPTY_LEXMIN + "\n", name, (rc, out, err))

    @case("-L --lexmin: several solutions, smallest one (reference search)")
    def _(name):
        p = "." * 40 + "5" + "." * 40
        ref = "".join(map(str, lexmin(cells(p))))
        rc, out, err = run(L, "--lexmin", p)
        rc2, out2, _ = run(L, "-c", p)
        TAP.ok(rc == 0 and out == ref + "\n" and (rc2, out2) == (0, "2\n"),
               name, (rc, out, ref, err, rc2, out2))

    @case("-L -f: line, grid, spaced and pretty")
    def _(name):
        res = {f: run(L, "-f", f, EASY) for f in
               ("line", "grid", "spaced", "pretty")}
        sol = res["line"][1].strip()
        good = (all(r[0] == 0 for r in res.values()) and
                check_lines([EASY], res["line"][1]) == "" and
                res["grid"][1] == "".join(sol[i:i + 9] + "\n"
                                          for i in range(0, 81, 9)) and
                res["spaced"][1] == "".join(" ".join(sol[i:i + 9]) + "\n"
                                            for i in range(0, 81, 9)))
        pretty = res["pretty"][1].splitlines()
        good = good and len(pretty) == 13 and \
            pretty[0] == "+-------+-------+-------+" and \
            pretty[1] == "| %s %s %s | %s %s %s | %s %s %s |" % \
            tuple(sol[:9]) and cells(res["pretty"][1]) == \
            [int(c) for c in sol]
        TAP.ok(good, name, res)

    @case("-L --count: limits, separate or attached, and count 0")
    def _(name):
        r1 = run(L, "--count", EASY)
        r2 = run(L, "--count=10", EMPTY)
        r3 = run(L, "-c", "5", EMPTY, EASY)
        r4 = run(L, "-c", NOSOL)
        TAP.ok(r1[:2] == (0, "1\n") and r2[:2] == (0, "10\n") and
               r3[:2] == (0, "5\n1\n") and r4[:2] == (0, "0\n"), name,
               (r1, r2, r3, r4))

    @case("-L: no solution is an ERR answer in place, a note with its "
          "position, exit 1")
    def _(name):
        f = Tmp.file("nosol.txt", "# x\n%s\n%s\n" % (EASY, NOSOL))
        rc, out, err = run(L, f)
        lines = out.splitlines()
        TAP.ok(rc == 1 and len(lines) == 2 and
               check_lines([EASY], lines[0]) == "" and
               lines[1] == "ERR nosolution the puzzle has no solution" and
               re.search(re.escape(f) + r":3: .*no solution", err), name,
               (rc, out, err))

    @case("-L: mixed shapes and malformed puzzles, positions, order, exit 1")
    def _(name):
        mixed_test(name, [L])

    @case("-L: a malformed argument is reported as 'argument N'")
    def _(name):
        rc, out, err = run(L, EASY, EASY[:80], EASY)
        lines = out.splitlines()
        TAP.ok(rc == 1 and len(lines) == 3 and
               check_lines([EASY, EASY], lines[0] + "\n" + lines[2]) == ""
               and lines[1] == "ERR length expected 81 cells, found 80" and
               "argument 2: expected 81 cells, found 80" in err, name,
               (rc, out, err))

    @case("-L: a missing file is reported, the rest answered, exit 2")
    def _(name):
        missing = os.path.join(Tmp.dir, "no-such-file")
        rc, out, err = run(L, missing, EASY)
        TAP.ok(rc == 2 and check_lines([EASY], out) == "" and
               missing + ": No such file or directory" in err, name,
               (rc, out, err))

    @case("-L: ping and version answer locally; stats needs a daemon")
    def _(name):
        rc, out, err = run(L, "ping", "version")
        rc2, _, err2 = run(L, "stats")
        TAP.ok(rc == 0 and out.startswith("pong") and "sudokuc " in out and
               rc2 == 2 and "stats" in err2, name, (rc, out, err, rc2, err2))

    @case("-L -q: no notes, still exit 1; -v: a summary")
    def _(name):
        rc, out, err = run(L, "-q", EASY, NOSOL)
        rc2, out2, err2 = run(L, "-v", EASY, NOSOL, "12")
        TAP.ok(rc == 1 and err == "" and
               check_lines([EASY], out.splitlines()[0]) == "" and
               out.splitlines()[1:] == [
                   "ERR nosolution the puzzle has no solution"] and
               rc2 == 1 and re.search(r"3 puzzles in .* 1 solved, "
                                      r"1 unsolvable, 1 invalid", err2),
               name, (rc, out, err, rc2, out2, err2))

    @case("-L: a progress line on a terminal stderr, none otherwise")
    def _(name):
        progress_test(name)

    @case("man page SYNOPSIS equals usage()")
    def _(name):
        synopsis_test(name)

    for s in SETS:
        set_local(s)


def spaced_ok(puzzle_text, out):
    rows = grid_rows(out)
    return (len(rows) == 9 and
            all(re.fullmatch(r"[1-9]( [1-9]){8}", r) for r in rows) and
            is_solution(cells(puzzle_text), cells(out)))


MIXED = (
    "# mixed shapes\n" +                                 # 1
    EASY + " \n" +                                       # 2
    "\n" +                                               # 3
    BOJ2239_IN +                                         # 4-12
    "\n" +                                               # 13
    EASY[:80] + "\n" +                                   # 14 length
    EASY[:80] + "x\r\n" +                                # 15 char
    "55" + EASY[2:] + "\n" +                             # 16 conflict
    BOJ2580_IN +                                         # 17-25
    "103000509\n002109400\n" +                           # 26-27 short grid
    "\n" +                                               # 28
    BOJ2580_IN.replace("7 6 0\n", "7 6 x\n") +           # 29-37 char r9c9
    EASY.replace(".", "0") + "\n")                       # 38


MIXED_ERRS = [
    (14, "length", "expected 81 cells, found 80"),
    (15, "char", "bad character 'x' (0x78) at position 81"),
    (16, "conflict", "digit 5 twice in row 1: r1c1 and r1c2"),
    (26, "length", "incomplete grid: 2 rows, expected 9"),
    (37, "char", "bad character 'x' (0x78) at position 81 (r9c9)")]


def mixed_test(name, args):
    """One answer record per puzzle, in order; a grid's ERR line is set
    apart by blank lines as the grid would be; notes give positions."""
    f = Tmp.file("mixed.txt", MIXED)
    rc, out, err = run(*(args + [f]))
    blocks = out.split("\n\n")
    errs = ["ERR %s %s" % (code, text) for _, code, text in MIXED_ERRS]
    good = (rc == 1 and len(blocks) == 7 and
            check_lines([EASY], blocks[0] + "\n") == "" and
            blocks[1] + "\n" == BOJ2239_OUT and
            blocks[2].split("\n") == errs[:3] and
            spaced_ok(BOJ2580_IN, blocks[3] + "\n") and
            blocks[4] == errs[3] and blocks[5] == errs[4] and
            check_lines([EASY], blocks[6]) == "")
    lines = err.splitlines()
    good = good and len(lines) == len(MIXED_ERRS) and all(
        ln == "sudokuc: %s:%d: %s" % (f, n, text) for (n, _, text), ln in
        zip(MIXED_ERRS, lines))
    TAP.ok(good, name, (rc, out, err))


def progress_test(name):
    """stderr on a pty: a progress line appears for a slow batch."""
    master, slave = pty.openpty()
    p = subprocess.Popen([SUDOKUC, "-L"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=slave, text=True)
    os.close(slave)
    for _ in range(15):
        p.stdin.write(EASY + "\n")
        p.stdin.flush()
        time.sleep(0.1)
    out, _ = p.communicate(timeout=30)
    tty = b""
    while select.select([master], [], [], 0.2)[0]:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        tty += chunk
    os.close(master)
    rc, _, err = run("-L", stdin=(EASY + "\n") * 15)
    TAP.ok(p.returncode == 0 and len(out.splitlines()) == 15 and
           re.search(rb"\r\d+ puzzles, \d+/s", tty) and rc == 0 and
           err == "", name, (p.returncode, out, tty, rc, err))


def synopsis_test(name):
    page = os.path.join(BUILD, "man", "sudokuc.1")
    if not shutil.which("mandoc") or not os.path.exists(page):
        TAP.skip(name, "mandoc or man/sudokuc.1 missing")
        return
    text = subprocess.run(["mandoc", "-Tascii", page], capture_output=True,
                          text=True, timeout=30).stdout
    text = re.sub(r".\x08", "", text)
    syn = text.split("SYNOPSIS", 1)[1].split("DESCRIPTION", 1)[0]
    _, out, _ = run("-h")
    out = out.split("\n\n")[0]        # the usage, before the option list
    want = " ".join(out.replace("usage:", "", 1).split())
    TAP.ok(" ".join(syn.split()) == want, name, (syn, out))


def set_local(s):
    name = "-L: every answer to %s checked" % s

    @case(name)
    def _(name):
        path = os.path.join(PUZZLE_DIR, s)
        rc, out, err = run("-L", path, timeout=600)
        LOCAL_OUT[s] = out if rc == 0 else None
        bad = check_lines(set_puzzles(s), out)
        TAP.ok(rc == 0 and err == "" and bad == "", name, (rc, bad, err))


LOCAL_OUT = {}


# ---- tests against a real daemon ----------------------------------------------

def connect_fail_tests():
    @case("no daemon: path, errno text and the -L hint, exit 2")
    def _(name):
        missing = os.path.join(Tmp.dir, "nobody.sock")
        rc, out, err = run("-s", missing, EASY)
        rc2, _, err2 = run(EASY, env={"SUDOKUD_SOCKET": missing})
        port = free_port()
        rc3, _, err3 = run("-p", str(port), EASY)
        TAP.ok(rc == 2 and out == "" and missing in err and
               "No such file or directory" in err and "-L" in err and
               rc2 == 2 and missing in err2 and
               rc3 == 2 and "127.0.0.1:%d" % port in err3 and
               "Connection refused" in err3, name,
               (rc, err, rc2, err2, rc3, err3))


def daemon_tests():
    S = ["-s", Daemon.sock]

    @case("daemon: ping, version and stats are printed readably")
    def _(name):
        rc, out, err = run(*(S + ["ping", "version", "stats"]))
        lines = out.splitlines()
        stats = dict(ln.split(None, 1) for ln in lines[3:] if ln)
        TAP.ok(rc == 0 and err == "" and
               lines[0].startswith("pong from unix:" + Daemon.sock) and
               re.fullmatch(r"sudokud \S+ at .*", lines[1]) and
               lines[2] == "" and re.fullmatch(r"\d+", stats.get("pid", "")) and
               int(stats.get("cmd_ping", "0")) >= 1, name, (rc, out, err))

    @case("daemon --lexmin: the BOJ 2239 sample prints exactly the expected answer")
    def _(name):
        rc, out, err = run(*(S + ["--lexmin"]), stdin=BOJ2239_IN)
        TAP.ok(rc == 0 and out == BOJ2239_OUT and err == "", name,
               (rc, out, err))

    @case("daemon: the BOJ 2580 sample gets a valid answer, spaced")
    def _(name):
        rc, out, err = run(*S, stdin=BOJ2580_IN)
        TAP.ok(rc == 0 and err == "" and spaced_ok(BOJ2580_IN, out), name,
               (rc, out, err))

    @case("daemon: mixed shapes and malformed puzzles, positions, order")
    def _(name):
        mixed_test(name, S)

    @case("daemon: no solution and a refused count limit: ERR in place, "
          "file:line, exit 1")
    def _(name):
        f = Tmp.file("nosol2.txt", "%s\n\n%s\n%s\n" % (NOSOL, EASY, NOSOL))
        rc, out, err = run(*(S + [f]))
        rc2, out2, err2 = run(*(S + ["-c", "999999", EASY]))
        rc3, out3, _ = run(*(S + ["-c", "3", f]))
        lines = out.splitlines()
        nosol = "ERR nosolution the puzzle has no solution"
        TAP.ok(rc == 1 and len(lines) == 3 and lines[0] == lines[2] == nosol
               and check_lines([EASY], lines[1]) == "" and
               re.search(re.escape(f) + r":1: .*no solution", err) and
               re.search(re.escape(f) + r":4: .*no solution", err) and
               rc2 == 1 and out2.startswith("ERR syntax ") and
               out2.count("\n") == 1 and "argument 1: " in err2 and
               (rc3, out3) == (0, "0\n1\n0\n"), name,
               (rc, out, err, rc2, out2, err2, rc3, out3))

    @case("daemon: SUDOKUD_SOCKET is used, and -s overrides it")
    def _(name):
        rc, out, err = run(EASY, env={"SUDOKUD_SOCKET": Daemon.sock})
        missing = os.path.join(Tmp.dir, "nobody.sock")
        rc2, out2, err2 = run(*(S + [EASY]), env={"SUDOKUD_SOCKET": missing})
        TAP.ok(rc == 0 and check_lines([EASY], out) == "" and
               rc2 == 0 and check_lines([EASY], out2) == "", name,
               (rc, out, err, rc2, out2, err2))

    @case("daemon: TCP with -H and -p, and -p alone")
    def _(name):
        if Daemon.port is None:
            TAP.skip(name, "external daemon: no TCP port known")
            return
        rc, out, err = run("-H", "127.0.0.1", "-p", str(Daemon.port),
                           "--lexmin", stdin=BOJ2239_IN)
        rc2, out2, err2 = run("-p", str(Daemon.port), EASY, EMPTY)
        TAP.ok(rc == 0 and out == BOJ2239_OUT and rc2 == 0 and
               check_lines([EASY, EMPTY], out2) == "", name,
               (rc, out, err, rc2, out2, err2))

    @case("daemon: answers flow while standard input stays open")
    def _(name):
        p = subprocess.Popen([SUDOKUC] + S, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
        got = []
        for _ in range(3):
            p.stdin.write(EASY + "\n")
            p.stdin.flush()
            if select.select([p.stdout], [], [], 10)[0]:
                got.append(p.stdout.readline())
        p.stdin.close()
        rc = p.wait(10)
        TAP.ok(rc == 0 and check_lines([EASY] * 3, "".join(got)) == "",
               name, (rc, got))

    for s in SETS:
        set_daemon(s, S)

    @case("daemon -C 1, 2, 7 with -w 1, 3, 256: output identical to -L")
    def _(name):
        if LOCAL_OUT.get(SETS[1]) is None:
            TAP.ok(False, name, "no -L output for %s to compare with (its "
                   "case failed)" % SETS[1])
            return
        path = os.path.join(PUZZLE_DIR, SETS[1])
        bad = []
        for conns in ("1", "2", "7"):
            for window in ("1", "3", "256"):
                rc, out, err = run(*(S + ["-C", conns, "-w", window, path]))
                if rc != 0 or err != "" or out != LOCAL_OUT[SETS[1]]:
                    bad.append((conns, window, rc, err[:200]))
        TAP.ok(bad == [], name, bad)

    @case("daemon -C 7 -w 3: mixed shapes and malformed puzzles, positions, order")
    def _(name):
        mixed_test(name, S + ["-C", "7", "-w", "3"])

    @case("daemon -C 3: ping, stats and version between puzzles keep order")
    def _(name):
        rc, out, err = run(*(S + ["-C", "3", "-w", "2", EASY, EMPTY, "ping",
                                  EASY, "stats", EMPTY, "version", EASY]))
        # The stats block, several lines, is set apart by blank lines.
        blocks = [b.splitlines() for b in out.split("\n\n")]
        head, tail = (blocks[0], blocks[-1]) if len(blocks) == 3 else ([], [])
        TAP.ok(rc == 0 and err == "" and len(head) == 4 and len(tail) == 3 and
               check_lines([EASY, EMPTY], "\n".join(head[:2])) == "" and
               head[2].startswith("pong from ") and
               check_lines([EASY], head[3]) == "" and
               any(ln.startswith("pid ") for ln in blocks[1]) and
               check_lines([EMPTY], tail[0]) == "" and
               check_lines([EASY], tail[2]) == "" and
               re.fullmatch(r"sudokud \S+ at .*", tail[1]), name,
               (rc, out, err))

    @case("daemon: window 1 and window 4096 keep input order")
    def _(name):
        puzzles = set_puzzles(SETS[1])[:300]
        f = Tmp.file("w.txt", "\n".join(puzzles) + "\n")
        r1 = run(*(S + ["-w", "1", f]))
        r2 = run(*(S + ["-w", "4096", f]))
        TAP.ok(r1[0] == 0 and r2[0] == 0 and
               check_lines(puzzles, r1[1]) == "" and
               check_lines(puzzles, r2[1]) == "", name,
               (r1[0], r1[2], r2[0], r2[2]))


def set_daemon(s, S):
    name = "daemon: every answer to %s checked, same as -L" % s

    @case(name)
    def _(name):
        rc, out, err = run(*(S + ["-v", os.path.join(PUZZLE_DIR, s)]),
                           timeout=600)
        bad = check_lines(set_puzzles(s), out)
        TAP.ok(rc == 0 and bad == "" and out == LOCAL_OUT.get(s), name,
               (rc, bad, err, "differs from -L" if out != LOCAL_OUT.get(s)
                else ""))
        rate = re.search(r"\((\d+)/s\)", err)
        if rate:
            print("# %s via %s: %s puzzles/s" % (s, Daemon.sock,
                                                 rate.group(1)))


def daemon_gone_test():
    @case("daemon stopped in mid-batch: a message and exit 2")
    def _(name):
        if Daemon.proc is None:
            TAP.skip(name, "SUDOKUD points at a daemon not started here")
            return
        p = subprocess.Popen([SUDOKUC, "-s", Daemon.sock, "-w", "1", "-t",
                              "1", os.path.join(PUZZLE_DIR, SETS[0])],
                             stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
        time.sleep(0.3)
        Daemon.stop()
        _, err = p.communicate(timeout=30)
        TAP.ok(p.returncode == 2 and re.fullmatch(
            r"sudokuc: unix:%s: (the server closed the connection .*\(it "
            r"may be shutting down\)|connection reset by the server .*)\n"
            r"sudokuc: no server answered for 1 s: giving up with 1 request "
            r"unanswered; the answers stop before %s:\d+\n"
            % (re.escape(Daemon.sock), re.escape(os.path.join(
                PUZZLE_DIR, SETS[0]))), err), name, (p.returncode, err))


# ---- one answer record per puzzle (issue 9.8) -------------------------------

def record_tests(args, where):
    """Four puzzles with two errors give four records, in order; -e moves
    the error answers to stderr, with their positions."""
    @case("%s: one answer per puzzle, ERR lines in place, in input order"
          % where)
    def _(name):
        rc, out, err = run(*(args + [EASY, NOSOL, EASY[:80], EMPTY]))
        lines = out.splitlines()
        TAP.ok(rc == 1 and len(lines) == 4 and
               check_lines([EASY], lines[0]) == "" and
               lines[1] == NOSOL_ERR and
               lines[2] == "ERR length expected 81 cells, found 80" and
               check_lines([EMPTY], lines[3]) == "" and
               err.splitlines() == [
                   "sudokuc: argument 2: the puzzle has no solution",
                   "sudokuc: argument 3: expected 81 cells, found 80"],
               name, (rc, out, err))

    @case("%s -e, --errors=stderr: error answers on stderr with positions, "
          "kept by -q; --errors=stdout: in place" % where)
    def _(name):
        f = Tmp.file("errs.txt", "%s\n%s\n\n%s\n%s\n" % (
            EASY, NOSOL, EASY.replace(".", "x", 1), EMPTY))
        res = [run(*(args + opt + [f])) for opt in
               (["-e"], ["--errors=stderr", "-q"], ["--errors"])]
        rc4, out4, _ = run(*(args + ["-e", "--errors=stdout", f]))
        want_err = ["sudokuc: %s:2: %s" % (f, NOSOL_ERR),
                    "sudokuc: %s:4: ERR char bad character 'x' (0x78) at "
                    "position 3" % f]
        TAP.ok(all(rc == 1 and err.splitlines() == want_err and
                   check_lines([EASY, EMPTY], out) == "" for rc, out, err
                   in res) and rc4 == 1 and
               out4.splitlines()[1] == NOSOL_ERR, name, (res, rc4, out4))

    @case("%s -c: an error answer in place of the count" % where)
    def _(name):
        rc, out, _ = run(*(args + ["-c", EASY, "1" * 81, EMPTY]))
        TAP.ok(rc == 1 and out.splitlines()[0] == "1" and
               out.splitlines()[1].startswith("ERR conflict digit 1 twice") and
               out.splitlines()[2] == "2", name, (rc, out))


# ---- options (issue 9.9) ----------------------------------------------------

HELP_OPTIONS = {"b": "budget", "C": "connections", "c": "count",
                "e": "errors", "f": "format", "H": "host", "h": "help",
                "j": "jobs", "L": "local", "l": "lexmin", "p": "port",
                "q": "quiet", "s": "socket", "t": "timeout", "V": "version",
                "v": "verbose", "w": "window"}
GENERATE_OPTIONS = {"l": "level", "n": "number", " ": "seed"}


def option_tests():
    L = "-L"

    @case("--help: every option, short and long, with a line each; "
          "-h is the same")
    def _(name):
        rc, out, err = run("--help")
        rc2, out2, _ = run("-h")
        main, gen = (out.split("Options of generate") + [""])[:2]
        opts = re.findall(r"^  -(\w), --([\w-]+)\S* +\S.*$", main, re.M)
        gopts = re.findall(r"^  (?:-(\w),|   ) --([\w-]+)\S* +\S.*$", gen,
                           re.M)
        usage = out.split("\n\n")[0]
        letters = set(re.findall(r"-(\w)", usage.split("[puzzle")[0]))
        letters |= set("".join(re.findall(r"\[-(\w+)\]", usage)))
        gusage = usage.split("generate")[-1]
        TAP.ok(rc == 0 and err == "" and out == out2 and rc2 == 0 and
               dict(opts) == HELP_OPTIONS and letters == set(HELP_OPTIONS)
               and {(k or " "): v for k, v in gopts} == GENERATE_OPTIONS
               and all("-" + k in gusage for k in "ln") and
               "--seed" in gusage and
               all(len(ln) < 80 for ln in out.splitlines()
                   if "sudokud.sock" not in ln), name,
               (rc, out, err, opts, gopts, letters))

    @case("long options for every short one")
    def _(name):
        r = [run("--version"), run("--local", "--lexmin", "--quiet",
                                   "--format=grid", "--jobs=2",
                                   "--budget=1000", "--verbose", EMPTY),
             run("--local", "--count=3", "--connections=1", "--window=1",
                 EASY)]
        TAP.ok(r[0][0] == 0 and r[0][1].startswith("sudokuc ") and
               r[1][0] == 0 and r[1][1] == "".join(
                   EMPTY_LEXMIN[i:i + 9] + "\n" for i in range(0, 81, 9)) and
               "budget 1000 " in r[1][2] and r[2][:2] == (0, "1\n"),
               name, r)

    @case("one 'sudokuc: ' prefix on every message, whatever argv[0]")
    def _(name):
        argv0 = os.path.join(Tmp.dir, "renamed")
        missing = os.path.join(Tmp.dir, "no-such-file")
        res = [run(*a, argv0=argv0) for a in
               (["-Z"], ["-w"], ["--bogus"], ["-w", "0", EASY],
                ["-L", missing], ["-L", EASY[:5]], ["-f"])]
        bad = [(r, ln) for r in res for ln in r[2].splitlines()
               if not ln.startswith(("sudokuc: ", "usage: sudokuc",
                                     "       sudokuc ", "               "))]
        TAP.ok(bad == [] and all(r[0] == 2 for r in res[:5]) and
               all(r[2].startswith("sudokuc: ") for r in res), name,
               (bad, res))

    @case("-p is a port from 1 to 65535, said so; in -H too")
    def _(name):
        res = [run(*a) for a in (["-p", "0", EASY], ["-p", "65536", EASY],
                                 ["-p", "http", EASY],
                                 ["-H", "localhost:0", EASY],
                                 ["-H", "[::1]:99999", EASY])]
        both = run("-H", "localhost:1", "-p", "2", EASY)
        TAP.ok(all(r[0] == 2 and r[1] == "" and
                   "port must be a number from 1 to 65535" in r[2]
                   for r in res) and both[0] == 2 and
               "both give a port" in both[2], name, (res, both))

    @case("-H without a port connects to port 7999; a bad -H is refused")
    def _(name):
        rc, out, err = run("-H", "127.0.0.1", "ping")
        res = [run("-H", h, EASY) for h in ("[::1", "[::1]x", ":7999")]
        TAP.ok((rc == 0 and out.startswith("pong from tcp:127.0.0.1:7999:")
                or rc == 2 and "cannot connect to tcp:127.0.0.1:7999: " in
                err) and all(r[0] == 2 and "-H" in r[2] for r in res),
               name, (rc, out, err, res))

    @case("an operand like a puzzle but malformed gets its parse error, "
          "not 'No such file'")
    def _(name):
        odd = [EASY + "x", EASY[:40] + "-" + EASY[41:], "1234.x"]
        rc, out, err = run(L, *odd)
        TAP.ok(rc == 1 and "No such file" not in err and out.splitlines() == [
            "ERR length expected 81 cells, found 82",
            "ERR char bad character '-' (0x2d) at position 41",
            "ERR length expected 81 cells, found 6"], name,
            (rc, out, err))

    @case("-f pretty output reads back: from a pipe, a file, an argument")
    def _(name):
        rc, pretty, _ = run(L, "-f", "pretty", EASY, EMPTY)
        f = Tmp.file("pretty.txt", pretty)
        rc2, again, err2 = run(L, stdin=pretty)
        rc3, lines, err3 = run(L, "-f", "line", f)
        one = pretty.split("\n\n")[0]
        rc4, arg, err4 = run(L, "-f", "line", one)
        blanks = one.replace("4", ".")     # a puzzle in the pretty shape
        rc5, sol, err5 = run(L, "-f", "line", blanks)
        TAP.ok(rc == 0 and pretty.count("+-------+-------+-------+") == 8 and
               (rc2, again, err2) == (0, pretty, "") and
               rc3 == 0 and err3 == "" and
               check_lines([EASY, EMPTY], lines) == "" and
               (rc4, err4) == (0, "") and check_lines([EASY], arg) == "" and
               (rc5, err5) == (0, "") and check_lines([EASY], sol) == "",
               name, (rc, pretty, rc2, again, err2, rc3, lines, err3, rc4,
                      arg, err4, rc5, sol, err5))

    @case("-L: the search budget is the daemon's 100000 guesses; -b sets "
          "it; -v says which")
    def _(name):
        # Counting the empty grid's solutions takes about a guess each.
        rc, out, err = run(L, "-v", "-c", "150000", EMPTY, timeout=300)
        rc2, out2, err2 = run(L, "-v", "-b", "200000", "-c", "150000",
                              EMPTY, timeout=300)
        TAP.ok(rc == 1 and out == "ERR budget search budget of 100000 "
               "guesses exceeded\n" and
               "1 thread, search budget 100000 guesses" in err and
               (rc2, out2) == (0, "150000\n") and
               "search budget 200000 guesses" in err2, name,
               (rc, out, err, rc2, out2, err2))

    @case("-b and -j: ranges, and only with -L")
    def _(name):
        res = [run(*a) for a in (["-L", "-b", "0", EASY],
                                 ["-L", "-b", "100000001", EASY],
                                 ["-L", "-j", "0", EASY],
                                 ["-L", "-j", "65", EASY],
                                 ["-b", "10", EASY], ["-j", "2", EASY])]
        TAP.ok(all(r[0] == 2 and r[1] == "" and r[2].startswith("sudokuc: ")
                   for r in res) and "-L" in res[4][2] and
               "-L" in res[5][2], name, res)


# ---- -L -j N (issue 12) -----------------------------------------------------

def jobs_tests():
    @case("-L -j 2: mixed shapes and malformed puzzles, positions, order")
    def _(name):
        mixed_test(name, ["-L", "-j", "2"])

    @case("-L -j 1, 3, 8: output identical to -L on a shared set")
    def _(name):
        if LOCAL_OUT.get(SETS[1]) is None:
            TAP.ok(False, name, "no -L output for %s to compare with (its "
                   "case failed)" % SETS[1])
            return
        path = os.path.join(PUZZLE_DIR, SETS[1])
        bad = []
        for j in ("1", "3", "8"):
            rc, out, err = run("-L", "-j", j, path)
            if rc != 0 or err != "" or out != LOCAL_OUT[SETS[1]]:
                bad.append((j, rc, err[:200]))
        TAP.ok(bad == [], name, bad)

    @case("-L -j 2: answers flow while standard input stays open")
    def _(name):
        p = subprocess.Popen([SUDOKUC, "-L", "-j", "2"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
        got = []
        for _ in range(3):
            p.stdin.write(EASY + "\n")
            p.stdin.flush()
            if select.select([p.stdout], [], [], 10)[0]:
                got.append(p.stdout.readline())
        p.stdin.close()
        rc = p.wait(10)
        TAP.ok(rc == 0 and check_lines([EASY] * 3, "".join(got)) == "",
               name, (rc, got))


# ---- the manual -------------------------------------------------------------

def manual_tests():
    @case("man page: groff -ww renders it without a warning")
    def _(name):
        # The source with the usual paths: a long --prefix (make
        # distcheck) makes paths no line can hold, whatever the text.
        src = os.path.join(os.environ.get("top_srcdir", os.path.join(
            os.path.dirname(__file__), "..", "..")), "man", "sudokuc.1.in")
        if not shutil.which("groff") or not os.path.exists(src):
            TAP.skip(name, "groff or man/sudokuc.1.in missing")
            return
        with open(src) as f:
            page = f.read().replace("@runstatedir@", "/run")
        p = subprocess.run(["groff", "-man", "-Tutf8", "-ww"], input=page,
                           capture_output=True, text=True, timeout=60)
        TAP.ok(p.returncode == 0 and p.stderr == "", name, p.stderr)


# ---- connections: refused, lost (issues 9.6, 8.7) ---------------------------

class FakeServer:
    """
    A stand-in for sudokud on a Unix socket or TCP, for what a client
    sees when the daemon goes away.  It accepts one connection, reads
    until `wait` request lines have come, answers the first `answer` with
    reply(line), then ends: "eof" shuts down its sending side and reads
    on until the client closes (what sudokud does when stopped), "reset"
    closes with requests unread (a reset).
    """

    def __init__(self, family, wait, answer, end, reply=None):
        self.wait, self.answer, self.end = wait, answer, end
        self.reply = reply or (lambda line: EASY_SOL)
        self.error = None
        if family == "unix":
            self.addr = os.path.join(Tmp.dir, "fake-%s.sock" % end)
            if os.path.exists(self.addr):
                os.unlink(self.addr)
            self.sock = socket.socket(socket.AF_UNIX)
            self.sock.bind(self.addr)
        else:
            fam = socket.AF_INET6 if family == "tcp6" else socket.AF_INET
            self.sock = socket.socket(fam)
            self.sock.bind(("::1" if family == "tcp6" else "127.0.0.1", 0))
            self.addr = self.sock.getsockname()[1]
        self.sock.listen(1)
        self.sock.settimeout(20)
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        try:
            conn, _ = self.sock.accept()
            conn.settimeout(20)
            buf = b""
            while buf.count(b"\n") < self.wait:
                data = conn.recv(65536)
                if not data:
                    break
                buf += data
            lines = buf.decode().split("\n")[:self.answer]
            conn.sendall("".join(self.reply(ln) + "\n"
                                 for ln in lines).encode())
            if self.end == "eof":
                conn.shutdown(socket.SHUT_WR)
                while conn.recv(65536):
                    pass
            else:
                time.sleep(0.3)     # what the client sends next: unread
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                struct.pack("ii", 1, 0))
            conn.close()
        except OSError as e:
            self.error = e
        finally:
            self.sock.close()

    def join(self):
        self.thread.join(20)
        return self.error


def lost_tests():
    f = Tmp.file("twenty.txt", (EASY + "\n") * 20)

    def lost(name, family, end, want):
        """One server, gone for good: after -t seconds without it, the
        message of old and what was left unanswered."""
        srv = FakeServer(family, 8, 3, end)
        where = (["-s", srv.addr] if family == "unix" else
                 ["-p", str(srv.addr)])
        t0 = time.monotonic()
        rc, out, err = run(*(where + ["-C", "1", "-w", "8", "-t", "1", f]),
                           timeout=60)
        took = time.monotonic() - t0
        peer = ("unix:%s" % srv.addr if family == "unix" else
                "tcp:127.0.0.1:%d" % srv.addr)
        TAP.ok(rc == 2 and out == (EASY_SOL + "\n") * 3 and
               err == "sudokuc: %s: %s\nsudokuc: no server answered for 1 "
               "s: giving up with 8 requests unanswered; the answers stop "
               "before %s:4\n" % (peer, want, f) and 1 <= took < 10 and
               srv.join() is None, name, (rc, out, err, took, srv.error))

    @case("server shuts down its side mid-batch: it closed the connection, "
          "N unanswered, exit 2")
    def _(name):
        lost(name, "unix", "eof", "the server closed the connection with 8 "
             "requests unanswered (it may be shutting down)")

    @case("server resets the connection mid-batch (unix): reset by the "
          "server, N unanswered, exit 2")
    def _(name):
        lost(name, "unix", "reset", "connection reset by the server with 8 "
             "requests unanswered")

    @case("server resets the connection mid-batch (tcp): reset by the "
          "server, N unanswered, exit 2")
    def _(name):
        lost(name, "tcp", "reset", "connection reset by the server with 8 "
             "requests unanswered")

    @case("-H [::1]:PORT reaches a server on IPv6")
    def _(name):
        try:
            srv = FakeServer("tcp6", 1, 1, "eof", reply=lambda ln: "PONG")
        except OSError as e:
            TAP.skip(name, "no IPv6: %s" % e)
            return
        rc, out, err = run("-H", "[::1]:%d" % srv.addr, "ping")
        TAP.ok(rc == 0 and err == "" and out.startswith(
            "pong from tcp:[::1]:%d: time=" % srv.addr), name, (rc, out, err))

    @case("socket without access: Permission denied names the socket's "
          "group, exit 2")
    def _(name):
        eacces_test(name)


def as_nobody():
    os.setgroups([])
    os.setgid(65534)
    os.setuid(65534)


def eacces_test(name):
    """Connect needs write access to the socket: run as nobody if root."""
    d = tempfile.mkdtemp(dir=Tmp.dir)
    os.chmod(Tmp.dir, 0o755)
    os.chmod(d, 0o755)
    path = os.path.join(d, "private.sock")
    srv = socket.socket(socket.AF_UNIX)
    srv.bind(path)
    srv.listen(1)
    os.chmod(path, 0o660 if os.geteuid() == 0 else 0o000)
    group = grp.getgrgid(os.stat(path).st_gid).gr_name
    preexec = as_nobody if os.geteuid() == 0 else None
    rc, out, err = run("-s", path, EASY, preexec=preexec)
    srv.close()
    TAP.ok(rc == 2 and out == "" and err == (
        "sudokuc: cannot connect to unix:%s: Permission denied (you must be "
        "in the socket's group, '%s', to connect; -L solves without a "
        "daemon)\n" % (path, group)), name, (rc, out, err))


def main():
    try:
        local_tests()
        record_tests(["-L"], "-L")
        option_tests()
        jobs_tests()
        manual_tests()
        connect_fail_tests()
        lost_tests()
        if Daemon.start():
            daemon_tests()
            record_tests(["-s", Daemon.sock], "daemon")
            daemon_gone_test()
        else:
            TAP.skip("daemon tests", Daemon.why)
    finally:
        Daemon.stop()
        shutil.rmtree(Tmp.dir, ignore_errors=True)
    TAP.done()
    return 0


if __name__ == "__main__":
    sys.exit(main())
