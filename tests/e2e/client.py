#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""client.py -- sudokuc end to end, locally (-L) and against a real sudokud.

Prints TAP.  The -L tests run first; the daemon tests start
$top_builddir/src/sudokud on a Unix socket and a TCP port chosen at run
time (skipped if the daemon is not built) and always stop it.  Answers
are checked by an independent checker (client_common.py), never against
output captured from sudokuc.

The command line (usage, options, the manual) is tested by
client_options.py, failed and lost connections by client_conn.py; what
the three share is in client_common.py.

Environment: top_builddir, PUZZLE_DIR (set by make check; data/ of the
source tree otherwise).
SUDOKUC_TEST_SOCKET=PATH uses a daemon already running there instead;
SUDOKUC=PATH tests another sudokuc binary (an older one, to see which
tests catch what it gets wrong).
"""

import os
import pty
import re
import select
import shutil
import subprocess
import sys
import time

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as tap  # noqa: E402
from client_common import (BOJ2239_IN, BOJ2239_OUT, BOJ2580_IN,  # noqa: E402
                           EASY, EMPTY, EMPTY_LEXMIN, NOSOL, NOSOL_ERR,
                           PUZZLE_DIR, SETS, SUDOKUC, Daemon, Tmp, check_lines,
                           case_runner, cells, grid_rows, is_solution,
                           lexmin, run, set_puzzles)


# ---- TAP ------------------------------------------------------------------

TAP = tap.Tap(diag_lines=30)

case = case_runner(TAP)


def answers_flow(name, args):
    """Three puzzles one at a time on a pipe kept open: each answer must
    come before the next puzzle is written."""
    p = tap.spawn([SUDOKUC] + args, stdin=subprocess.PIPE,
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


# ---- tests that need no daemon ----------------------------------------------

def local_tests():
    L = "-L"

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
    (15, "char", "bad character 'x' (0x78) at position 81 (r9c9)"),
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
    p = tap.spawn([SUDOKUC, "-L"], stdin=subprocess.PIPE,
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


def set_local(s):
    name = "-L: every answer to %s checked" % s

    @case(name, timeout=SET_TIMEOUT)
    def _(name):
        path = os.path.join(PUZZLE_DIR, s)
        rc, out, err = run("-L", path)
        LOCAL_OUT[s] = out if rc == 0 else None
        bad = check_lines(set_puzzles(s), out)
        TAP.ok(rc == 0 and err == "" and bad == "", name, (rc, bad, err))


LOCAL_OUT = {}
# A whole puzzle set (the 17-clue one: 49,158 puzzles) in one case: time
# for a sanitizer build, still far below what a hang would take.
SET_TIMEOUT = 240


# ---- tests against a real daemon --------------------------------------------

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
        answers_flow(name, S)

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

    @case(name, timeout=SET_TIMEOUT)
    def _(name):
        rc, out, err = run(*(S + ["-v", os.path.join(PUZZLE_DIR, s)]))
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
        p = tap.spawn([SUDOKUC, "-s", Daemon.sock, "-w", "1", "-t", "1",
                       os.path.join(PUZZLE_DIR, SETS[0])],
                      stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                      text=True)
        # Mid-batch by construction, not by timing: 100 answers are out,
        # and the rest cannot be (stdout is not read meanwhile).
        for _ in range(100):
            p.stdout.readline()
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
                    "position 3 (r1c3)" % f]
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
        answers_flow(name, ["-L", "-j", "2"])


def main():
    try:
        local_tests()
        record_tests(["-L"], "-L")
        jobs_tests()
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
