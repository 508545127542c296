#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
docexamples.py -- every example of the documents that shows a reply, run
as written against real daemons, so that none can drift (issue 34.8):

- doc/protocol.md: each indented block that begins with a request, read
  as requests and their replies (several lines up to END for the verbs
  its Framing section names);
- sudokud(8): the same for the literal displays of PROTOCOL, and the
  shell commands of EXAMPLES that show what they print (paths and the
  port replaced by the test daemon's, $puzzle set);
- README.md: "The protocol in one screen" (an nc session), and the
  Monitoring example, curl on /metrics after the 1,200 SOLVEs it shows.

Elsewhere: - doc/rating.md: the step texts shown are strings test_techniques.c
  checks word for word (a check of the document against the test).

README's Quick start session and doc/scaling.md's recipe are
recipes.py's, README's lines for a container tests/pkg/debian.sh's,
sudoku(3)'s program tests/pkg/install.sh's.  sudokuc(1)'s examples show
no output.

Only what varies from run to run is matched loosely: us= (time); a
GENERATE with deadline= (which puzzle comes first: its form and level);
STATS' pid, uptime and time; in SLOWLOG GET and CLIENT LIST the digits
of id=, time=, us=, guesses=, age=, idle=, requests=, pending=, client=,
addr= and via= (pids, uids, ports), and CLIENT LIST's state= (a card is
updated as its worker gets to it); a line "..." stands for any lines.
An example needing a setting gets a daemon with it: AUTH a secret,
SLOWLOG a slow log and a count_max for its COUNT, CLIENT LIST a
tcp_proxy listener and the client its PROXY header names.
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
import protodoc                                         # noqa: E402
from harness import check, eq                           # noqa: E402

T = h.Tap()
ONE = (None,)


def read(*path):
    with open(os.path.join(h.TOP_SRCDIR, *path), encoding="utf-8") as f:
        return f.read()


PROTOCOL = read("doc", "protocol.md")
MAN = read("man", "sudokud.8.in").replace("@VERSION@", h.package_version())
README = read("README.md")
VERBS = {v for v, _ in protodoc.md_requests(PROTOCOL)}
MULTI = set(protodoc.framing(PROTOCOL, "md")[0])
LOOSE = ("id", "time", "us", "guesses", "age", "idle", "requests",
         "pending", "client", "addr", "via")


# ---- the examples -----------------------------------------------------------

def is_request(line):
    """A verb of the protocol first, or a puzzle alone (spaced or not)."""
    words = line.split()
    return bool(words) and (words[0].upper() in VERBS or
                            re.fullmatch(r"[0-9. ]+", line) is not None)


def md_blocks(text):
    """[(where, lines)] of the indented blocks that begin with a request."""
    out, block, start = [], [], 0
    for n, ln in enumerate(text.split("\n") + [""], 1):
        if ln.startswith("    "):
            if not block:
                start = n
            block.append(ln[4:])
            continue
        if block and is_request(block[0]):
            out.append(("line %d" % start, block))
        block = []
    return out


def man_blocks(text):
    """The same for the literal displays of sudokud(8)'s PROTOCOL."""
    out = []
    body = protodoc.man_protocol(text)
    for m in re.finditer(r"\n\.Bd -literal[^\n]*\n(.*?)\n\.Ed", body, re.S):
        lines = [ln.replace("\\&", "").replace("\\e", "\\")
                 for ln in m.group(1).split("\n")]
        if is_request(lines[0]):
            out.append(("PROTOCOL, %s" % lines[0][:30], lines))
    return out


def exchanges(lines):
    """[(request, reply lines)]: one line, or up to END for the verbs
    that reply so (an ERR line alone instead)."""
    out, i = [], 0
    while i < len(lines):
        req, i = lines[i], i + 1
        words = req.upper().split()
        multi = words[0] in MULTI and not (words[0] == "SLOWLOG" and
                                           words[1:2] != ["GET"])
        reply = [lines[i]]
        i += 1
        while multi and not reply[0].startswith("ERR") and \
                reply[-1] != "END":
            reply.append(lines[i])
            i += 1
        out.append((req, reply))
    return out


def pattern(line, verb):
    """The regex a shown reply line stands for (see the header)."""
    if line.startswith("STAT "):
        name = line.split()[1]
        return re.escape("STAT %s " % name) + (
            r"\S+" if name in ("pid", "uptime", "time") else
            re.escape(line.split(" ", 2)[2]))
    out = []
    for tok in line.split(" "):
        key = tok.split("=", 1)[0]
        if "=" in tok and key == "state" and verb == "CLIENT":
            out.append(r"state=\S+")
        elif "=" in tok and (key == "us" or key in LOOSE and
                             verb in ("SLOWLOG", "CLIENT")):
            out.append(re.sub(r"\\?\d+", r"\\d+", re.escape(tok)))
        else:
            out.append(re.escape(tok))
    return " ".join(out)


def matches(want, got, verb=""):
    """got against the shown lines, "..." standing for any lines."""
    if not want:
        return not got
    if want[0] == "...":
        return any(matches(want[1:], got[k:], verb)
                   for k in range(len(got) + 1))
    return bool(got) and re.fullmatch(pattern(want[0], verb),
                                      got[0]) is not None and \
        matches(want[1:], got[1:], verb)


def ask(k, req, reply):
    """The daemon's reply to req, as many lines as reply has (a list up
    to END)."""
    k.send(req + "\n")
    got = [k.line(60)]
    while len(reply) > 1 and not got[0].startswith("ERR") and \
            got[-1] != "END":
        got.append(k.line(60))
    return got


def check_generated(where, k, req, line):
    """What a document says of the puzzle GENERATE shows holds too: one
    solution (the reference solver), the level asked or said."""
    puzzle = line.split()[0]
    level = re.search(r"level=(\w+)", line) or \
        re.match(r"GENERATE ([a-z]+)", req) or re.match("()", "")
    n, _, done = h.ref_search(puzzle, limit=2, lexmin=False)
    eq((n, done), (1, True), "%s: solutions of %s" % (where, puzzle))
    eq(k.req("RATE " + puzzle).split()[0], level.group(1) or "medium",
       "%s: RATE of %s" % (where, puzzle))


def check_block(where, k, lines):
    for req, reply in exchanges(lines):
        got = ask(k, req, reply)
        if req.startswith("GENERATE") and "deadline=" in req:
            # Which puzzle comes first depends on the machine: its form.
            check(len(got) == 1 and re.fullmatch(
                r"[1-9.]{81}( level=(easy|medium|hard|expert|extreme))?",
                got[0]), "%s: %s: %r" % (where, req[:40], got))
        else:
            check(matches(reply, got, req.split()[0].upper()),
                  "%s: %s\n  shown: %s\n  got:   %s"
                  % (where, req[:60], " | ".join(reply)[:600],
                     " | ".join(got)[:600]))
        if req.startswith("GENERATE"):
            check_generated(where, k, req, got[0])


# ---- the daemons an example needs -------------------------------------------

SECRET = "correct-horse-battery-staple"


def need_of(lines):
    verbs = {req.split()[0].upper() for req, _ in exchanges(lines)}
    for v in ("AUTH", "SLOWLOG", "CLIENT"):
        if v in verbs:
            return v
    return ""


def daemon_for(need, tmp):
    if need == "AUTH":
        path = os.path.join(tmp, "secret")
        with open(path, "w") as f:
            f.write(SECRET + "\n")
        os.chmod(path, 0o600)
        return h.Daemon(extra_conf="[server]\nauth_file = %s\n" % path)
    if need == "SLOWLOG":
        # 10 ms: the COUNTs of a million solutions take more anywhere,
        # SLOWLOG itself far less.
        return h.Daemon(count_max=1000000, budget=10000000,
                        extra_conf="[server]\nslowlog_slower_than = "
                        "10000\n")
    if need == "CLIENT":
        return h.Daemon(extra_conf="[listen]\ntcp_proxy = 127.0.0.1:%d\n"
                        % h.free_port())
    return h.Daemon()


def proxy_port(d):
    with open(d.conf) as f:
        return int(re.search(r"tcp_proxy = 127.0.0.1:(\d+)",
                             f.read()).group(1))


def prepare(need, d, lines):
    """What the example's reply shows has happened before it."""
    keep = []
    if need == "SLOWLOG":
        # As many slow requests as SLOWLOG LEN says, each the one GET
        # shows.
        shown = [ln for ln in lines if ln.startswith("id=")]
        n = int(lines[lines.index("SLOWLOG LEN") + 1])
        k = d.connect(timeout=60)
        for _ in range(n):
            k.req(shown[0].split(" request=", 1)[1], 60)
        keep.append(k)
    if need == "CLIENT":
        # The client a PROXY header names, on a connection newer than
        # the one that asks (the list is oldest first).
        m = re.search(r"transport=tcp_proxy addr=tcp:([\d.]+):(\d+)",
                      "\n".join(lines))
        s = socket.create_connection(("127.0.0.1", proxy_port(d)), 10)
        s.sendall(("PROXY TCP4 %s 127.0.0.1 %s 8000\r\nPING\n"
                   % m.groups()).encode())
        pk = h.Client(s)
        eq(pk.line(), "PONG", "the proxied client")
        keep.append(pk)
    return keep


def run_blocks(blocks):
    tmp = tempfile.mkdtemp(prefix="sudokud-docex.")
    try:
        for need in ("", "AUTH", "SLOWLOG", "CLIENT"):
            mine = [(w, b) for w, b in blocks if need_of(b) == need]
            if not mine:
                continue
            with daemon_for(need, tmp) as d:
                for where, lines in mine:
                    k = d.connect(timeout=60)  # asks first: the oldest
                    eq(k.req("PING"), "PONG", "connected")
                    keep = prepare(need, d, lines)
                    check_block(where, k, lines)
                    for c in keep + [k]:
                        c.close()
    finally:
        shutil.rmtree(tmp)
    return len(blocks)


# ---- cases ------------------------------------------------------------------

@T.case("doc/protocol.md: every block of requests gets the replies shown",
        transports=ONE, own=True, timeout=300)
def _(c):
    blocks = md_blocks(PROTOCOL)
    check(len(blocks) >= 25, "found %d blocks" % len(blocks))
    c.note("%d blocks" % run_blocks(blocks))


@T.case("self-check: a reply changed in a copy of doc/protocol.md (ANALYZE "
        "of the empty grid, guesses=44 as it read before) is caught",
        transports=ONE, own=True)
def _(c):
    planted = PROTOCOL.replace("status=multiple clues=0 guesses=43",
                               "status=multiple clues=0 guesses=44")
    check(planted != PROTOCOL, "the line to change is not there")
    blocks = [b for b in md_blocks(planted) if "guesses=44" in b[1][-1]]
    eq(len(blocks), 1, "the ANALYZE block")
    try:
        run_blocks(blocks)
    except h.Fail as e:
        check("guesses=44" in str(e), "caught, but: %s" % e)
        return
    raise h.Fail("not caught")


@T.case("sudokud(8) PROTOCOL: every literal display of requests gets the "
        "replies shown", transports=ONE, own=True, timeout=300)
def _(c):
    blocks = man_blocks(MAN)
    check(len(blocks) >= 15, "found %d blocks" % len(blocks))
    c.note("%d blocks" % run_blocks(blocks))


@T.case("README.md, the protocol in one screen: the nc session as shown",
        transports=ONE)
def _(c):
    sec = protodoc.md_section(README, "The protocol in one screen")
    lines = [ln[4:] for ln in sec.split("\n") if ln.startswith("    ")]
    eq(lines[0], "$ nc -U sudokud.sock", "the session's command")
    check_block("README.md", c.connect(), lines[1:])


@T.case("README.md, Monitoring: curl on /metrics after 1,200 SOLVEs prints "
        "what the README shows", transports=ONE, own=True)
def _(c):
    if shutil.which("curl") is None:
        raise h.Fail("curl is not installed: scripts/install-deps test "
                     "installs it")
    sec = protodoc.md_section(README, "Monitoring")
    block = [ln[4:] for ln in sec.split("\n") if ln.startswith("    ")]
    listen = [ln for ln in block if ln.startswith("metrics = ")]
    cmd = [ln[2:] for ln in block if ln.startswith("$ ")]
    shown = block[block.index("$ " + cmd[0]) + 1:]
    port = h.free_port()
    eq(len(listen), 1, "the README's metrics line")
    with h.Daemon(extra_conf="[listen]\n%s\n" % listen[0].replace(
            "9799", str(port))) as d:
        m = re.search(r"\} (\d+)$", shown[0])
        k = d.connect()
        k.send(("SOLVE %s\n" % h.CLASSIC) * int(m.group(1)))
        eq(set(k.replies(int(m.group(1)))), {h.CLASSIC_SOLUTION}, "SOLVEs")
        out = h.run_child(["sh", "-c", cmd[0].replace(
            "9799", str(port))], timeout=30).stdout.decode()
        check(matches(shown, out.splitlines()),
              "%s\n  shown: %s\n  got: %s" % (cmd[0], shown, out))


@T.case("doc/rating.md: every step text shown is one that "
        "tests/unit/test_techniques.c checks word for word ('...' for the "
        "actions left out)", transports=ONE, own=True, daemonless=True)
def _(c):
    text = read("doc", "rating.md")
    sec = text.split("checked word for word in tests/unit/test_techniques.c",
                     1)[1].split("\n## ", 1)[0]
    shown = [ln[4:] for ln in sec.split("\n") if ln.startswith("    ")]
    src = read("tests", "unit", "test_techniques.c")
    # Adjacent C string literals are one string.
    checked = ["".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(0)))
               for m in re.finditer(r'"(?:[^"\\]|\\.)*"(?:\s*"(?:[^"\\]|'
                                    r'\\.)*")*', src)]
    check(len(shown) >= 11, "found %d step texts" % len(shown))
    for line in shown:
        rx = ".*".join(re.escape(part) for part in line.split("..."))
        check(any(re.fullmatch(rx, t) for t in checked),
              "rating.md's %r is no string of test_techniques.c" % line)


def man_examples(text):
    """[(commands, output lines)] of EXAMPLES' displays that show output."""
    sec = text.split("\n.Sh EXAMPLES\n", 1)[1].split("\n.Sh ", 1)[0]
    out = []
    for m in re.finditer(r"\.Bd -literal[^\n]*\n(.*?)\n\.Ed", sec, re.S):
        lines = [ln.replace("\\e", "\\") for ln in m.group(1).split("\n")]
        i = 0
        while i < len(lines):
            cmd = lines[i][2:] if lines[i].startswith("$ ") else None
            j = i + 1
            while j < len(lines) and not lines[j].startswith(("$ ", "# ")):
                j += 1
            if cmd is not None and j > i + 1:
                out.append((cmd, lines[i + 1:j]))
            i = j
    return out


@T.case("sudokud(8) EXAMPLES: the commands that show what they print "
        "print it", transports=ONE, own=True)
def _(c):
    shown = man_examples(MAN)
    check(len(shown) >= 3, "found %r" % shown)
    conf = os.path.join(h.TOP_SRCDIR, "etc", "sudokud.conf")
    with h.Daemon() as d:
        env = dict(os.environ, puzzle=h.CLASSIC,
                   PATH=os.path.join(h.TOP_BUILDDIR, "src") + ":" +
                   os.environ["PATH"])
        for cmd, lines in shown:
            run = (cmd.replace("@sysconfdir@/sudokud.conf", conf)
                   .replace("@runstatedir@/sudokud.sock", d.path)
                   .replace("7999", str(d.port)))
            # What a terminal shows: standard output and error.
            p = subprocess.run(["sh", "-c", run], env=env, timeout=30,
                               stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
            eq(p.stdout.splitlines(), lines, "%s (exit %d)"
               % (cmd, p.returncode))


if __name__ == "__main__":
    T.run()
