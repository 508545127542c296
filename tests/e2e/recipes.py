#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
recipes.py -- the commands the documentation tells a newcomer to paste,
run as written (issue 23.1, 23.2, 23.12):

- README.md's Quick start: the daemon started with the shipped
  etc/sudokud.conf logs what the README shows, in that order, and every
  "$ command" of the session block prints what the README says it does;
- doc/scaling.md's "Try it on one machine": three daemons behind HAProxy
  with the shipped example configuration, 1465 and 375 puzzles through
  it, a node that hangs and dies mid-batch, whose requests sudokuc sends
  again (-v says how many); every answer checked here.

Each runs in a scratch directory that looks like the top of a built
source tree (src/ is the build's, etc/, contrib/ and data/ the
source's), with the fixed ports of the text replaced by free ones: 7999
in the README; 8000-8003 and 9701-9703 in the recipe and in the HAProxy
example it reads.
"""

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from harness import check, eq                           # noqa: E402

T = h.Tap()
ONE = (None,)
README = os.path.join(h.TOP_SRCDIR, "README.md")
SCALING = os.path.join(h.TOP_SRCDIR, "doc", "scaling.md")
NEEDS = "scripts/install-deps test installs it"


def block(path, marker):
    """The code between <!-- marker --> and the next <!-- /... -->: its
    indented lines, unindented, and None for each line of prose."""
    with open(path) as f:
        text = f.read()
    m = re.search(r"^<!-- %s -->\n(.*?)^<!-- /" % re.escape(marker), text,
                  re.M | re.S)
    if m is None:
        raise h.Fail("%s has no <!-- %s --> block" % (path, marker))
    return [ln[4:] if ln.startswith("    ") else None
            for ln in m.group(1).rstrip("\n").split("\n")]


def need(program):
    if shutil.which(program) is None:
        raise h.Fail("%s is not installed (%s)" % (program, NEEDS))


def port_free(port):
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port))
        return True
    except OSError:
        return False
    finally:
        s.close()


def free_base(offsets):
    """A multiple of 10 such that base + each offset is a free port."""
    for _ in range(200):
        base = h.free_port() // 10 * 10
        if base > 10000 and all(port_free(base + o) for o in offsets):
            return base
    raise h.Fail("no run of free ports found")


def scratch_top(tmp, conf_edit=None, haproxy_edit=None):
    """A directory like the top of a built tree: src/ the build's; etc/
    and contrib/haproxy copies, edited; data/ the tree's."""
    top = os.path.join(tmp, "top")
    os.makedirs(os.path.join(top, "etc"))
    os.makedirs(os.path.join(top, "contrib", "haproxy"))
    os.symlink(os.path.join(h.TOP_BUILDDIR, "src"), os.path.join(top, "src"))
    os.symlink(h.PUZZLE_DIR, os.path.join(top, "data"))
    for rel, edit in (("etc/sudokud.conf", conf_edit),
                      ("contrib/haproxy/sudokud.cfg", haproxy_edit)):
        with open(os.path.join(h.TOP_SRCDIR, rel)) as f:
            text = f.read()
        with open(os.path.join(top, rel), "w") as f:
            f.write(edit(text) if edit else text)
    return top


def sub(text, old, new, what):
    """text with old replaced by new; the doc must still say old."""
    if old not in text:
        raise h.Fail("%s no longer says %r: keep it and %s in step"
                     % (what, old, os.path.basename(__file__)))
    return text.replace(old, new)


def answers_right(puzzle_file, answer_file):
    """'' if answer_file holds a solution of each puzzle, in order."""
    puzzles = h.load_puzzles(os.path.basename(puzzle_file))
    with open(answer_file) as f:
        answers = f.read().split()
    if len(answers) != len(puzzles):
        return "%d answers to %d puzzles" % (len(answers), len(puzzles))
    for i, (p, a) in enumerate(zip(puzzles, answers)):
        why = h.solution_problem(p, a)
        if why:
            return "answer %d: %s" % (i + 1, why)
    return ""


@T.case("README Quick start: the daemon logs what the README shows, in "
        "order; each command of the session prints what it says",
        transports=ONE, own=True)
def _(c):
    need("nc")
    port = h.free_port()
    tmp = tempfile.mkdtemp(prefix="recipes.")
    d = None
    try:
        top = scratch_top(tmp, conf_edit=lambda t: sub(
            t, "tcp = 127.0.0.1:7999", "tcp = 127.0.0.1:%d" % port,
            "etc/sudokud.conf"))
        # The README's command line, after the build.
        start = [ln for ln in open(README).read().split("\n")
                 if "./src/sudokud -d -f etc/sudokud.conf" in ln]
        eq(len(start), 1, "one Quick start command line")
        log = open(os.path.join(tmp, "sudokud.log"), "wb")
        d = h.spawn(["./src/sudokud", "-d", "-f", "etc/sudokud.conf"],
                    cwd=top, stdin=subprocess.DEVNULL, stdout=log,
                    stderr=log, env=h.child_env(None))
        sock = os.path.join(top, "sudokud.sock")
        check(h.wait_for(lambda: h.can_connect(sock), 10),
              "the daemon did not listen on %s" % sock)
        want = [sub(ln, "7999", str(port), "README.md")
                if "7999" in ln else ln for ln in block(README, "readme-log")]
        check(h.wait_for(lambda: len(open(log.name).read().splitlines()) >=
                         len(want), 5), "the start-up log")
        got = [h.unstamp(ln) for ln in open(log.name).read().splitlines()]
        eq(got, want, "the start-up log, as the README shows it")
        session = block(README, "readme-session")
        steps, cur = [], None
        for ln in session:
            if ln is not None and ln.startswith("$ "):
                cur = [ln[2:], []]
                steps.append(cur)
            elif ln is not None and cur is not None:
                cur[1].append(ln)
            else:
                cur = None          # prose between the code blocks
        exports = ""
        for cmd, out in steps:
            cmd = cmd.replace("7999", str(port))
            if cmd.startswith("export "):
                exports += cmd + "; "
                continue
            r = h.run_child(["bash", "-c", exports + cmd], cwd=top,
                            timeout=60, text=True, env=h.child_env(
                                {"SUDOKUD_SOCKET": None,
                                 "SUDOKUD_SERVERS": None}))
            eq((r.returncode, r.stdout.splitlines()), (0, out),
               "$ %s (stderr %r)" % (cmd[:60], r.stderr[-300:]))
        c.note("%d commands of the README run" % len(steps))
    finally:
        if d is not None and d.poll() is None:
            d.terminate()
            d.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)


@T.case("doc/scaling.md, try it on one machine: three nodes behind HAProxy "
        "UP, 1465 and 375 answers right, the requests of a node that hangs "
        "and dies mid-batch sent again",
        transports=ONE, own=True, timeout=240)
def _(c):
    need("nc")
    need("haproxy")
    front = free_base((0, 1, 2, 3))
    metrics = free_base((1, 2, 3))
    tmp = tempfile.mkdtemp(prefix="recipes.")
    work = os.path.join(tmp, "try")

    def ports(text, what):
        for i in (1, 2, 3):
            text = sub(text, "127.0.0.1:800%d check port 970%d" % (i, i),
                       "127.0.0.1:%d check port %d" % (front + i,
                                                        metrics + i), what)
        return text
    try:
        top = scratch_top(tmp, haproxy_edit=lambda t: ports(
            t, "contrib/haproxy/sudokud.cfg"))
        script = "\n".join(ln for ln in block(SCALING, "recipe: one-machine")
                           if ln is not None)
        for old, new in (("/tmp/sudokud-try", work),
                         ("127.0.0.1:8000", "127.0.0.1:%d" % front),
                         ("127.0.0.1:800%d", "127.0.0.1:%d%%d" %
                          (front // 10)),
                         ("127.0.0.1:970%d", "127.0.0.1:%d%%d" %
                          (metrics // 10)),
                         ("127.0.0.1 9702", "127.0.0.1 %d" % (metrics + 2))):
            script = sub(script, old, new, "doc/scaling.md")
        r = h.run_child(["bash", "-e", "-c", script], cwd=top, timeout=200,
                        text=True, env=h.child_env({"SUDOKUD_SOCKET": None,
                                                    "SUDOKUD_SERVERS": None}))
        eq(r.returncode, 0, "the recipe runs to its end (stderr %r)"
           % r.stderr[-600:])
        lines = r.stdout.splitlines()
        # ("* L7OK": the next check is under way.)
        check(len(lines) > 5 and all(
            re.fullmatch(r"node%d,UP,(\* )?L7OK" % i, lines[i - 1])
            for i in (1, 2, 3)),
            "show stat: every node up, its check passed: %r" % lines[:3])
        eq(lines[3:5], ["1465", "375"], "the two wc -l")
        m = re.fullmatch(r"sudokuc: (\d+) requests? sent again", lines[5])
        check(m and int(m.group(1)) > 0, "the resends node 1 caused: %r"
              % lines[5:6])
        c.note(lines[5])
        check(re.fullmatch(r'sudokud_requests_total\{verb="solve"\} \d+',
                           lines[6]), "node 2's count: %r" % lines[6:])
        eq(answers_right(os.path.join(h.PUZZLE_DIR,
                                      "puzzles3_magictour_top1465"),
                         os.path.join(work, "answers.txt")), "",
           "the 1465 answers")
        eq(answers_right(os.path.join(h.PUZZLE_DIR,
                                      "puzzles6_forum_hardest_1106"),
                         os.path.join(work, "answers2.txt")), "",
           "the 375 answers, node 1 stopped meanwhile")
        for n in (2, 3):
            with open(os.path.join(work, "node%d.log" % n)) as f:
                check("signal 15: shutting down" in f.read(),
                      "node %d drained on SIGTERM" % n)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(T.run())
