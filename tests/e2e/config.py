#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""sudokud -n, -V and usage: configuration checking, as TAP.

Runs $top_builddir/src/sudokud (or $SUDOKUD) on small files and checks
the exact "FILE:LINE: reason" line and the exit status, as checks in
sequence of tests/e2e/harness.py.  The expected reasons and values are
written here from the specification of sudokud.conf(5), not captured
from the program.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402

SHIPPED = os.path.join(h.TOP_SRCDIR, "etc", "sudokud.conf")
SYSTEM = os.path.join(h.TOP_BUILDDIR, "etc", "sudokud.conf.system")
USAGE = "usage: sudokud [-DdhnVv] [-f file]\n"

T = h.Tap()


def check(name, ok, diag=""):
    T.ok(ok, name, diag)


run = h.run_daemon_cmd


def run_file(tmp, name, text, *args, binary=False):
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(text if binary else text.encode())
    return path, run("-n", *args, "-f", path)


def expect_error(tmp, name, text, line, reason):
    """The file must be refused with exactly PATH:LINE: REASON."""
    path, (rc, out, err) = run_file(tmp, name + ".conf", text,
                                    binary=isinstance(text, bytes))
    want = "sudokud: %s:%d: %s\n" % (path, line, reason)
    check("refuses %s" % name, rc == 1 and err == want and out == "",
          "rc=%d stderr=%r want %r" % (rc, err, want))


def expect_ok(tmp, name, text, values=None):
    """The file must be accepted; values are checked in the -n -v dump."""
    path, (rc, out, err) = run_file(tmp, name + ".conf", text, "-v",
                                    binary=isinstance(text, bytes))
    ok = rc == 0 and err == "configuration OK\n"
    got = dump_values(out)
    for key, want in (values or {}).items():
        if got.get(key) != want:
            ok = False
            err += " %s=%r want %r" % (key, got.get(key), want)
    check("accepts %s" % name, ok, "rc=%d stderr=%r" % (rc, err))


def dump_values(out):
    """section.key -> value, or a list for repeated keys."""
    values, section = {}, ""
    for line in out.splitlines():
        m = re.fullmatch(r"\[(\w+)\]", line)
        if m:
            section = m.group(1)
            continue
        m = re.fullmatch(r"(\w+) = (.*)", line)
        if m:
            key = section + "." + m.group(1)
            if key in ("listen.unix", "listen.tcp"):
                values.setdefault(key, []).append(m.group(2))
            else:
                values[key] = m.group(2)
    return values


# The defaults of sudokud.conf(5).
DEFAULTS = {
    "server.workers": "0", "server.max_connections": "1024",
    "server.idle_timeout": "300", "server.write_timeout": "30",
    "server.shutdown_timeout": "10", "server.max_line": "1k",
    "server.output_high": "256k", "server.output_low": "64k",
    "solver.budget": "100000", "solver.count_max": "1000",
    "listen.unix_mode": "0660", "log.level": "info",
    "log.facility": "daemon",
}


def version_from_configure():
    with open(os.path.join(h.TOP_SRCDIR, "configure.ac")) as f:
        m = re.search(r"AC_INIT\(\[sudokud\], \[([^]]+)\]", f.read())
    return m.group(1) if m else None


def test_flags():
    rc, out, err = run("-V")
    want = "sudokud %s\n" % version_from_configure()
    check("-V prints the version", rc == 0 and out == want,
          "rc=%d out=%r want %r" % (rc, out, want))
    # One wording and one exit status (2) for a usage error, in both
    # programs (issue 23.8): the message, then the usage.
    for args, cargs, msg in (
            (["-Z"], None, "unknown option -Z"),
            (["--no-such-flag=1"], None, "unknown option --no-such-flag"),
            (["-f"], None, "option -f needs an argument"),
            (["--file"], ["--format"], "option --%s needs an argument")):
        cargs = cargs or args
        rc, out, err = run(*args)
        said = msg.replace("%s", "file")
        check("%s: '%s', the usage, exit 2" % (" ".join(args), said),
              (rc, out, err) == (2, "", "sudokud: %s\n%s" % (said, USAGE)),
              "rc=%d err=%r" % (rc, err))
        r = subprocess.run([h.SUDOKUC] + cargs, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=10)
        said = msg.replace("%s", "format")
        check("sudokuc %s: the same words, exit 2" % " ".join(cargs),
              r.returncode == 2 and
              r.stderr.startswith("sudokuc: %s\nusage: sudokuc " % said),
              "rc=%d err=%r" % (r.returncode, r.stderr))
    rc, out, err = run("-n", "extra")
    check("an operand prints why and the usage, exits 2",
          rc == 2 and err == "sudokud: unexpected operand 'extra' (the file "
          "is -f FILE)\n" + USAGE, "rc=%d err=%r" % (rc, err))
    rc, out, err = run("--version")
    check("--version prints the version", rc == 0 and out == want,
          "rc=%d out=%r want %r" % (rc, out, want))
    for flag in ("-h", "--help"):
        rc, out, err = run(flag)
        lines = out.splitlines()
        opts = ("-D, --debug", "-d, --foreground", "-f, --file=FILE",
                "-h, --help",
                "-n, --check", "-V, --version", "-v, --verbose")
        check("%s prints usage and a line per option, exits 0" % flag,
              rc == 0 and err == "" and out.startswith(USAGE) and
              all(any(ln.strip().startswith(o) for ln in lines)
                  for o in opts), "rc=%d out=%r err=%r" % (rc, out, err))
    rc, out, err = run("--check", "--file", "/nonexistent/sudokud.conf")
    check("long forms --check --file work like -n -f, and say who speaks",
          rc == 1 and err == "sudokud: /nonexistent/sudokud.conf: No such "
          "file or directory\n", "rc=%d err=%r" % (rc, err))


def test_defaults():
    rc, out, err = run("-n", "-v")
    got = dump_values(out)
    ok = rc == 0 and err == "configuration OK\n"
    ok = ok and all(got.get(k) == v for k, v in DEFAULTS.items())
    unix = got.get("listen.unix", [])
    ok = ok and len(unix) == 1 and unix[0].endswith("/sudokud.sock")
    ok = ok and "listen.tcp" not in got and "server.user" not in got
    check("no -f: built-in defaults, one Unix socket, no TCP", ok,
          "rc=%d err=%r out=%r" % (rc, err, out))
    # Every key of sudokud.conf(5), the unset ones as comments (23.9).
    with open(os.path.join(h.TOP_BUILDDIR, "man", "sudokud.conf.5")) as f:
        keys = re.findall(r"^\.It Cm (\w+) No = ", f.read(), re.M)
    shown = re.findall(r"^(?:; )?(\w+)(?: = | is not set$)", out, re.M)
    check("-nv shows every key of sudokud.conf(5)",
          len(keys) > 20 and sorted(shown) == sorted(keys),
          "shown %r, documented %r" % (sorted(shown), sorted(keys)))
    unset = ("user", "group", "unix_group", "tcp", "tcp_proxy", "metrics")
    check("-nv says which keys are not set",
          all("; %s is not set" % k in out.splitlines() for k in unset), out)


def test_dump_reads_back(tmp):
    """What -nv prints is a configuration file that means the same."""
    path, (rc, first, err) = run_file(
        tmp, "dump0.conf", "[server]\nmax_line = 2048\noutput_high = 3m\n"
        "output_low = 1000\n[listen]\ntcp = 127.0.0.1:7999\n", "-v")
    _, (rc2, again, err2) = run_file(tmp, "dump1.conf", first, "-v")
    check("the dump of -nv reads back as the same configuration",
          (rc, rc2) == (0, 0) and again == first and
          "max_line = 2k\n" in first and "output_high = 3m\n" in first and
          "output_low = 1000\n" in first,
          "rc=%d,%d err=%r out=%r" % (rc, rc2, err + err2, first))


def test_default_listener(tmp):
    """The default Unix socket stands in for the request listeners: a
    metrics listener alone does not take its place, tcp_proxy does."""
    got = {}
    for name, text in (("metrics", "metrics = 127.0.0.1:9799"),
                       ("proxy", "tcp_proxy = 127.0.0.1:8999"),
                       ("both", "tcp_proxy = 127.0.0.1:8999\n"
                                "metrics = 127.0.0.1:9799")):
        _, (rc, out, err) = run_file(tmp, name + ".conf",
                                     "[listen]\n%s\n" % text, "-v")
        got[name] = (rc, dump_values(out).get("listen.unix", []))
    unix = got["metrics"][1]
    check("metrics alone: sudokud still listens on the default socket",
          got["metrics"][0] == 0 and len(unix) == 1 and
          unix[0].endswith("/sudokud.sock"), repr(got))
    check("tcp_proxy (with or without metrics): no default socket",
          got["proxy"] == (0, []) and got["both"] == (0, []), repr(got))


def test_shipped(tmp):
    rc, out, err = run("-n", "-f", SHIPPED)
    check("shipped etc/sudokud.conf is OK", rc == 0 and
          err == "configuration OK\n", "rc=%d err=%r" % (rc, err))
    # Its only active lines: the source-tree listeners of README.md's
    # Quick start, a socket in the current directory and TCP 7999.
    rc, out, err = run("-n", "-v", "-f", SHIPPED)
    got = dump_values(out)
    want = dict(DEFAULTS)
    want["listen.unix"] = ["sudokud.sock"]
    want["listen.tcp"] = ["127.0.0.1:7999"]
    bad = {k: got.get(k) for k in want if got.get(k) != want[k]}
    check("shipped file: defaults plus the source-tree listeners",
          rc == 0 and not bad, "rc=%d differ: %r" % (rc, bad))
    # Drop those and uncomment every key: each documented default must
    # be the real one.
    # The TLS listener examples are left out: they need certificates;
    # and the HTTP ones: they need the page's directory installed.
    with open(SHIPPED) as f:
        text = re.sub(r"(?m)^(unix|tcp) = .*\n|^;(tls|http)(_proxy)? = .*\n"
                      r"|^;https(_proxy)? = .*\n", "", f.read())
    text = re.sub(r"(?m)^;(\w+ = )", r"\1", text)
    values = dict(DEFAULTS)
    values["listen.tcp"] = ["127.0.0.1:7999", "[::1]:7999"]
    expect_ok(tmp, "shipped file uncommented, documented defaults", text,
              values)


def test_system():
    """The file "make install" puts in $(sysconfdir), built by make."""
    rc, out, err = run("-n", "-v")
    default_unix = dump_values(out).get("listen.unix")
    rc, out, err = run("-n", "-v", "-f", SYSTEM)
    got = dump_values(out)
    ok = rc == 0 and err == "configuration OK\n"
    ok = ok and all(got.get(k) == v for k, v in DEFAULTS.items())
    ok = ok and "listen.tcp" not in got
    ok = ok and default_unix is not None and \
        got.get("listen.unix") == default_unix
    check("installed configuration: no TCP, the default Unix socket", ok,
          "%s: rc=%d err=%r default unix=%r out=%r"
          % (SYSTEM, rc, err, default_unix, out))


def test_good(tmp):
    expect_ok(tmp, "sizes with k and m suffixes",
              "[server]\nmax_line = 1k\noutput_high = 1M\n"
              "output_low = 512k\n",
              {"server.max_line": "1k", "server.output_high": "1m",
               "server.output_low": "512k"})
    expect_ok(tmp, "range limits",
              "[server]\nworkers = 256\nmax_connections = 1\n"
              "idle_timeout = 0\nshutdown_timeout = 3600\n"
              "max_line = 128\n[solver]\nbudget = 100000000\n",
              {"server.workers": "256", "server.max_connections": "1",
               "server.idle_timeout": "0",
               "server.shutdown_timeout": "3600",
               "server.max_line": "128", "solver.budget": "100000000"})
    # -0 is 0 for every key, the one where a negative is off too.
    expect_ok(tmp, "-0 and leading zeros",
              "[server]\nworkers = -0\nidle_timeout = 007\n"
              "output_low = -0k\nslowlog_slower_than = -00\n",
              {"server.workers": "0", "server.idle_timeout": "7",
               "server.output_low": "0", "server.slowlog_slower_than": "0"})
    expect_ok(tmp, "a negative number where negative is off",
              "[server]\nslowlog_slower_than = -99999999999999999999999\n",
              {"server.slowlog_slower_than": "-1"})
    expect_ok(tmp, "listen addresses",
              "[listen]\ntcp = 7999\ntcp = [::1]:8000\n"
              "tcp = 0.0.0.0:8001\ntcp = localhost:8002\n"
              "unix = /tmp/a.sock\nunix = /tmp/b.sock\nunix_mode = 0600\n",
              {"listen.tcp": ["127.0.0.1:7999", "[::1]:8000",
                              "0.0.0.0:8001", "localhost:8002"],
               "listen.unix": ["/tmp/a.sock", "/tmp/b.sock"],
               "listen.unix_mode": "0600"})
    expect_ok(tmp, "tcp only: no default Unix socket",
              "[listen]\ntcp = 7999\n", {"listen.tcp": ["127.0.0.1:7999"]})
    expect_ok(tmp, "CRLF, comments, indentation, inline comment",
              "; comment\r\n# comment\r\n\r\n[server]\r\n"
              "  workers = 3 ; three\r\n\tidle_timeout: 5\r\n",
              {"server.workers": "3", "server.idle_timeout": "5"})
    expect_ok(tmp, "a 199-byte line",
              "[log]\n;" + "x" * 198 + "\nlevel = debug\n",
              {"log.level": "debug"})
    expect_ok(tmp, "a 199-byte line ending in CRLF",
              "[log]\r\n;" + "x" * 198 + "\r\nlevel = debug\r\n",
              {"log.level": "debug"})
    expect_ok(tmp, "log names",
              "[log]\nlevel = warning\nfacility = local7\n",
              {"log.level": "warning", "log.facility": "local7"})


BAD = [
    # name, text, line, reason
    ("unknown key", "[server]\n\nworkerz = 2\n", 3,
     "unknown key 'workerz' in [server]"),
    ("key in the wrong section", "[solver]\nworkers = 2\n", 2,
     "unknown key 'workers' in [solver]"),
    ("unknown section", "; x\n[server]\nworkers = 1\n[sever]\nbudget = 2\n",
     5, "unknown section [sever]"),
    ("key outside of any section", "workers = 2\n", 1,
     "'workers' outside of any section"),
    ("out of range", "[server]\nworkers = 257\n", 2,
     "workers: 257 is out of range (0..256)"),
    ("below range", "[server]\nmax_line = 127\n", 2,
     "max_line: 127 is out of range (128..1048576)"),
    ("zero where 1 is the least", "[solver]\nbudget = 0\n", 2,
     "budget: 0 is out of range (1..100000000)"),
    ("huge number", "[server]\nidle_timeout = 99999999999999999999999\n",
     2, "idle_timeout: 99999999999999999999999 is out of range (0..86400)"),
    # One rule for every number: '-' and digits, read as decimal.
    ("negative number", "[server]\nworkers = -1\n", 2,
     "workers: -1 is out of range (0..256)"),
    ("a negative size", "[server]\nmax_line = -1k\n", 2,
     "max_line: -1k is out of range (128..1048576)"),
    ("a plus sign", "[server]\nworkers = +1\n", 2,
     "workers: '+1' is not a number"),
    ("a plus sign where negative is off",
     "[server]\nslowlog_slower_than = +5\n", 2,
     "slowlog_slower_than: '+5' is not a number"),
    ("a minus alone", "[server]\nslowlog_slower_than = -\n", 2,
     "slowlog_slower_than: '-' is not a number"),
    ("two minus signs", "[server]\nslowlog_slower_than = --1\n", 2,
     "slowlog_slower_than: '--1' is not a number"),
    ("a blank inside a number", "[server]\nworkers = 1 2\n", 2,
     "workers: '1 2' is not a number"),
    ("a hexadecimal number", "[server]\nworkers = 0x10\n", 2,
     "workers: '0x10' is not a number"),
    ("not a number", "[server]\nmax_connections = 10x\n", 2,
     "max_connections: '10x' is not a number"),
    ("bad size suffix", "[server]\nmax_line = 2g\n", 2,
     "max_line: '2g' is not a size (bytes, or a number with a k or m "
     "suffix)"),
    ("empty value", "[server]\nworkers =\n", 2,
     "workers: missing value"),
    # inih reads "=;x" as ";x", the printed "= ;x" as a comment (fuzz)
    ("a value beginning with ';'", "[listen]\nunix =;x.sock\n", 2,
     "unix: a value may not begin with ';' (it would read as a comment)"),
    ("bad octal", "[listen]\nunix_mode = 0968\n", 2,
     "unix_mode: '0968' is not an octal mode (0..0777)"),
    ("octal out of range", "[listen]\nunix_mode = 01777\n", 2,
     "unix_mode: 01777 is out of range (0..0777)"),
    ("tcp port 0", "[listen]\ntcp = 127.0.0.1:0\n", 2,
     "tcp: '0' is not a port (1..65535)"),
    ("tcp host without a port", "[listen]\ntcp = 127.0.0.1\n", 2,
     "tcp: '127.0.0.1' has no port: write HOST:PORT (127.0.0.1:7999) or a "
     "port alone"),
    ("tcp port too large", "[listen]\ntcp = 65536\n", 2,
     "tcp: '65536' is not a port (1..65535)"),
    ("tcp IPv6 without brackets", "[listen]\ntcp = ::1:7999\n", 2,
     "tcp: '::1:7999': put an IPv6 address in brackets, as in "
     "[::1]:7999"),
    ("tcp bad IPv6", "[listen]\ntcp = [1.2.3.4]:7999\n", 2,
     "tcp: '1.2.3.4' is not an IPv6 address"),
    ("tcp bad IPv4", "[listen]\ntcp = 1.2.3.256:7999\n", 2,
     "tcp: '1.2.3.256' is not an IPv4 address or a host name"),
    ("tcp bad host name", "[listen]\ntcp = bad_name:7999\n", 2,
     "tcp: 'bad_name' is not an IPv4 address or a host name"),
    ("tcp without host", "[listen]\ntcp = :7999\n", 2,
     "tcp: missing host before ':'"),
    ("tcp given twice", "[listen]\ntcp = 7999\ntcp = 127.0.0.1:7999\n", 3,
     "tcp: 127.0.0.1:7999 is already listed"),
    ("unix path too long", "[listen]\nunix = /" + "d" * 120 + "\n", 2,
     "unix: path too long (at most 107 bytes)"),
    ("line too long", "[server]\nworkers = 1\n; " + "x" * 250 + "\n", 3,
     "line too long (more than 199 bytes)"),
    ("a 200-byte line", "[server]\n;" + "x" * 199 + "\n", 2,
     "line too long (more than 199 bytes)"),
    ("a 200-byte line ending in CRLF", "[server]\n;" + "x" * 199 + "\r\n", 2,
     "line too long (more than 199 bytes)"),
    ("a last line of 300 bytes without LF", "[server]\n;" + "x" * 299, 2,
     "line too long (more than 199 bytes)"),
    ("syntax error", "[server]\nworkers 2\n", 2,
     "syntax error: not '[section]', 'name = value' or a comment"),
    ("missing ]", "[server\nworkers = 2\n", 1,
     "syntax error: not '[section]', 'name = value' or a comment"),
    ("no name", "[server]\n= 2\n", 2, "syntax error: no name before '='"),
    ("duplicate key", "[server]\nworkers = 1\n\n[log]\n[server]\n"
     "workers = 2\n", 6, "duplicate key 'workers' (first at line 2)"),
    ("output_low not below output_high",
     "[server]\noutput_low = 64k\noutput_high = 64k\n", 3,
     "output_low (65536) must be less than output_high (65536)"),
    ("output_high below default output_low",
     "[server]\noutput_high = 4096\n", 2,
     "output_low (65536) must be less than output_high (4096)"),
    ("bad level", "[log]\nlevel = loud\n", 2,
     "level: 'loud' is not one of error, warning, info, debug"),
    ("bad facility", "[log]\nfacility = local8\n", 2,
     "facility: 'local8' is not one of daemon, user, local0, local1, "
     "local2, local3, local4, local5, local6, local7"),
    ("bad user name", "[server]\nuser = a b\n", 2,
     "user: 'a b' is not a user or group name"),
    ("control character", b"[server]\nworkers = 1\x01\n", 2,
     "control character 0x01"),
    ("error after CRLF lines", "[server]\r\n\r\nworkers = 1\r\nfoo = 2\r\n",
     4, "unknown key 'foo' in [server]"),
    ("error on a last line without LF", "[server]\nworkers = 1\nbar = 1",
     3, "unknown key 'bar' in [server]"),
]


def test_bad(tmp):
    for i, (name, text, line, reason) in enumerate(BAD):
        expect_error(tmp, "bad%02d %s" % (i, name.replace(" ", "_")), text,
                     line, reason)


# What only starting used to find: -n checks it too, short of binding.
START = [
    ("a user that does not exist", "[server]\nuser = sudokud-no-such-user\n",
     "no such user 'sudokud-no-such-user'"),
    ("a group that does not exist",
     "[server]\nuser = nobody\ngroup = sudokud-no-such-group\n",
     "no such group 'sudokud-no-such-group'"),
    ("a group without a user", "[server]\ngroup = nogroup\n",
     "group nogroup set without user"),
    ("a unix_group that does not exist",
     "[listen]\nunix = /tmp/x.sock\nunix_group = sudokud-no-such-group\n",
     "unix_group: no such group 'sudokud-no-such-group'"),
    ("a TCP host that does not resolve",
     "[listen]\ntcp = no-such-host.invalid:7999\n",
     "no-such-host.invalid port 7999: "),
    ("a socket in a missing directory",
     "[listen]\nunix = /nonexistent-dir/x.sock\n",
     "/nonexistent-dir/x.sock: directory /nonexistent-dir: No such file "
     "or directory"),
]


def test_start_checks(tmp):
    for name, text, reason in START:
        path, (rc, out, err) = run_file(tmp, name.replace(" ", "_") +
                                        ".conf", text)
        want = "sudokud: %s: %s" % (path, reason)
        check("-n refuses %s" % name, rc == 1 and err.startswith(want)
              and err.endswith("\n") and err.count("\n") == 1,
              "rc=%d stderr=%r want %r..." % (rc, err, want))


def run_bounded(*args):
    """run(*args), or (None, "", why) if it did not end within 10 s."""
    try:
        return run(*args, timeout=10)
    except subprocess.TimeoutExpired:
        return None, "", "did not end within 10 s"


def test_endless(tmp):
    """Files that are not a regular file, or too large, refused up front."""
    link = os.path.join(tmp, "zero.conf")
    os.symlink("/dev/zero", link)
    fifo = os.path.join(tmp, "fifo.conf")
    os.mkfifo(fifo)
    for name, path in (("/dev/zero", "/dev/zero"),
                       ("a symlink to /dev/zero", link),
                       ("a FIFO (without waiting for a writer)", fifo),
                       ("a directory", tmp)):
        rc, out, err = run_bounded("-n", "-f", path)
        want = "sudokud: %s: not a regular file\n" % path
        check("-n refuses %s at once" % name, rc == 1 and err == want,
              "rc=%r stderr=%r want %r" % (rc, err, want))
    # Started without -n: the same, before anything is opened.
    rc, out, err = run_bounded("-d", "-f", link)
    want = " %s: not a regular file\n" % link
    check("start refuses a symlink to /dev/zero (logged, exit 1)",
          rc == 1 and err.endswith(want) and err.count("\n") == 1,
          "rc=%r stderr=%r want ...%r" % (rc, err, want))
    big = os.path.join(tmp, "big.conf")
    with open(big, "w") as f:
        f.write(("; " + "x" * 97 + "\n") * 10486 + "[server]\n")
    size = os.path.getsize(big)
    rc, out, err = run_bounded("-n", "-f", big)
    want = "sudokud: %s: file too large (%d bytes, at most 1048576)\n" % (
        big, size)
    check("-n refuses a file of %d bytes" % size, rc == 1 and err == want,
          "rc=%r stderr=%r want %r" % (rc, err, want))
    # Just under the bound: read to its end.
    with open(big, "w") as f:
        f.write("[server]\n" + ("; " + "x" * 97 + "\n") * 10480 +
                "workers = 3\n")
    expect_ok_path(big, "a file of %d bytes" % os.path.getsize(big),
                   {"server.workers": "3"})


def expect_ok_path(path, name, values):
    rc, out, err = run_bounded("-n", "-v", "-f", path)
    got = dump_values(out)
    bad = {k: got.get(k) for k, v in values.items() if got.get(k) != v}
    check("accepts %s" % name, rc == 0 and not bad,
          "rc=%r stderr=%r wrong %r" % (rc, err, bad))


def test_missing(tmp):
    path = os.path.join(tmp, "does-not-exist.conf")
    rc, out, err = run("-n", "-f", path)
    want = "sudokud: %s: No such file or directory\n" % path
    check("a missing file is an error", rc == 1 and err == want,
          "rc=%d err=%r" % (rc, err))


def checks():
    with tempfile.TemporaryDirectory(prefix="sudokud-config.") as tmp:
        test_flags()
        test_endless(tmp)
        test_defaults()
        test_dump_reads_back(tmp)
        test_shipped(tmp)
        test_default_listener(tmp)
        test_system()
        test_good(tmp)
        test_bad(tmp)
        test_start_checks(tmp)
        test_missing(tmp)


if __name__ == "__main__":
    if not h.have_daemon():
        sys.exit(h.skip_all("%s not built" % h.DAEMON))
    sys.exit(T.main(checks))
