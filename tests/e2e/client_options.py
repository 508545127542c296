#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""client_options.py -- sudokuc's command line, end to end: usage and
exit status 2 for bad options, --help and the long options, one
'sudokuc: ' prefix on every message, ports and hosts, the search budget
and -j, and the manual (SYNOPSIS equals usage(); groff renders it
without a warning).

Prints TAP; needs no daemon.  Environment: as client.py.
"""

import os
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as tap  # noqa: E402
from client_common import (EASY, EMPTY, EMPTY_LEXMIN, Tmp,  # noqa: E402
                           case_runner, check_lines, run,
                           run_groups)


# ---- TAP ------------------------------------------------------------------

TAP = tap.Tap(diag_lines=30)

case = case_runner(TAP)


# ---- usage and the man page -------------------------------------------------

def usage_tests():
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

    @case("an option of a command before its word (issue 34): where it "
          "goes and that command's usage line, not the whole usage")
    def _(name):
        sol = ("usage: sudokuc [options] solutions [-n number] "
               "[puzzle | file | -] ...\n")
        shuf = ("usage: sudokuc [options] shuffle [--seed seed] "
                "[puzzle | file | -] ...\n")
        gen = ("       sudokuc [options] generate [-n number] [-l level] "
               "[--seed seed]\n                [--symmetry symmetry] "
               "[--clues lo-hi] [--pattern pattern]\n")
        want = [
            (["-L", "-n", "3", "solutions", EASY],
             "sudokuc: option -n goes after the command word\n" + sol),
            (["-L", "-n3", "solutions", EASY],
             "sudokuc: option -n goes after the command word\n" + sol),
            (["--seed=4", "-L", "shuffle", EASY],
             "sudokuc: option --seed goes after the command word\n" + shuf),
            (["-L", "-n", "3", EASY], "sudokuc: option -n goes after the "
             "word of solutions or generate\n" + sol + gen),
            (["-L", "rate", "-n", "3", EASY], "sudokuc: option -n goes "
             "after the word of solutions or generate, not rate\n" + sol +
             gen)]
        got = [run(*a) for a, _ in want]
        ok = run(L, "solutions", "-n", "3", EASY)
        # Not an option of any command: the whole usage, as before.
        rc, out, err = run("-L", "-Z", "solutions", EASY)
        TAP.ok(all(g == (2, "", w) for (_, w), g in zip(want, got)) and
               ok[0] == 0 and check_lines([EASY], ok[1]) == "" and
               rc == 2 and err.startswith("sudokuc: unknown option -Z\n"
                                          "usage: sudokuc [-ehLlPqVv]") and
               "generate [-n number]" in err, name,
               (list(zip(want, got)), ok, rc, out, err))

    @case("man page SYNOPSIS equals usage()")
    def _(name):
        synopsis_test(name)


def synopsis_test(name):
    page = os.path.join(tap.TOP_BUILDDIR, "man", "sudokuc.1")
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


# ---- options (issue 9.9) ----------------------------------------------------

HELP_OPTIONS = {"b": "budget", "C": "connections", "c": "count",
                "D": "deadline", "e": "errors", "f": "format", "H": "host", "h": "help",
                "j": "jobs", "L": "local", "l": "lexmin", "P": "with-puzzle",
                "p": "port",
                "q": "quiet", "s": "socket", "t": "timeout", "V": "version",
                "v": "verbose", "w": "window"}
# The options after the command word, long name to short ('' for none).
GENERATE_OPTIONS = {"level": "l", "number": "n", "seed": "", "symmetry": "",
                    "clues": "", "pattern": ""}


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
        # Short options: -x, not the x of a long one (--tls).
        letters = set(re.findall(r"(?<!-)-(\w)",
                                 usage.split("[puzzle")[0]))
        letters |= set("".join(re.findall(r"\[-(\w+)\]", usage)))
        gusage = usage.split("generate")[-1]
        TAP.ok(rc == 0 and err == "" and out == out2 and rc2 == 0 and
               dict(opts) == HELP_OPTIONS and letters == set(HELP_OPTIONS)
               and {v: k for k, v in gopts} == GENERATE_OPTIONS
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
            "ERR char bad character '-' (0x2d) at position 41 (r5c5)",
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

    @case("-b and -j: ranges; -j only with -L, -D only without")
    def _(name):
        res = [run(*a) for a in (["-L", "-b", "0", EASY],
                                 ["-L", "-b", "100000001", EASY],
                                 ["-L", "-j", "0", EASY],
                                 ["-L", "-j", "65", EASY],
                                 ["-L", "-D", "10", EASY], ["-j", "2", EASY])]
        TAP.ok(all(r[0] == 2 and r[1] == "" and r[2].startswith("sudokuc: ")
                   for r in res) and "-L" in res[4][2] and
               "-L" in res[5][2], name, res)


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


if __name__ == "__main__":
    sys.exit(run_groups(TAP, usage_tests, option_tests, manual_tests))
