#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
prometheus.py -- contrib/prometheus/sudokud-rules.yml (TAP): promtool
checks it (and prometheus.yml, which loads it) and runs its unit tests (tests/lint/sudokud-rules.test.yml);
the unit tests bite (a copy with a threshold changed fails them); and
every sudokud_ metric the rules name is one a running sudokud serves.
"""

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

SRCDIR = os.environ.get("top_srcdir") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..")
BUILDDIR = os.environ.get("top_builddir") or "."
RULES = os.path.join(SRCDIR, "contrib", "prometheus", "sudokud-rules.yml")
SCRAPE = os.path.join(SRCDIR, "contrib", "prometheus", "prometheus.yml")
TESTS = os.path.join(SRCDIR, "tests", "lint", "sudokud-rules.test.yml")
DAEMON = os.path.join(BUILDDIR, "src", "sudokud")

n = 0


def ok(cond, name, diag=""):
    global n
    n += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, name))
    if not cond:
        for line in str(diag).splitlines():
            print("# " + line)


def promtool(*args, cwd=None):
    p = subprocess.run(["promtool"] + list(args), capture_output=True,
                       text=True, timeout=60, cwd=cwd)
    return p.returncode, p.stdout + p.stderr


def scraped_names():
    """The metric names a fresh sudokud serves on /metrics."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    tmp = tempfile.mkdtemp(prefix="promlint.")
    conf = os.path.join(tmp, "c.conf")
    with open(conf, "w") as f:
        f.write("[listen]\nunix = %s/s\nmetrics = 127.0.0.1:%d\n"
                % (tmp, port))
    d = subprocess.Popen([DAEMON, "-f", conf, "-d"],
                         stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                body = urllib.request.urlopen(
                    "http://127.0.0.1:%d/metrics" % port, timeout=2).read()
                break
            except OSError:
                time.sleep(0.05)
        else:
            return set()
    finally:
        d.terminate()
        d.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)
    return set(re.findall(r"^(sudokud_\w+)", body.decode(), re.M))


def main():
    if shutil.which("promtool") is None:
        ok(False, "promtool is installed",
           "scripts/install-deps installs prometheus (Debian), which has it")
        return
    rc, out = promtool("check", "rules", RULES)
    ok(rc == 0, "promtool check rules " + os.path.basename(RULES), out)
    rc, out = promtool("check", "config", SCRAPE)
    ok(rc == 0 and "1 rule files found" in out,
       "promtool check config prometheus.yml, which loads the rules", out)
    here = os.path.dirname(TESTS)
    rc, out = promtool("test", "rules", os.path.basename(TESTS), cwd=here)
    ok(rc == 0, "promtool test rules " + os.path.basename(TESTS), out)
    # The tests must catch a rule that changed: 0.9 made 0.99.
    tmp = tempfile.mkdtemp(prefix="promlint.")
    try:
        with open(RULES) as f:
            rules = f.read()
        bad = rules.replace("sudokud_config_max_connections > 0.9",
                            "sudokud_config_max_connections > 0.99")
        os.makedirs(os.path.join(tmp, "contrib", "prometheus"))
        os.makedirs(os.path.join(tmp, "tests", "lint"))
        with open(os.path.join(tmp, "contrib", "prometheus",
                               "sudokud-rules.yml"), "w") as f:
            f.write(bad)
        shutil.copy(TESTS, os.path.join(tmp, "tests", "lint"))
        rc, out = promtool("test", "rules", os.path.basename(TESTS),
                           cwd=os.path.join(tmp, "tests", "lint"))
        ok(bad != rules and rc != 0, "the unit tests fail for a threshold "
           "changed (0.9 -> 0.99)", out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    used = set(re.findall(r"\b(sudokud_\w+?)(?:_bucket)?\b", rules))
    served = scraped_names()
    missing = sorted(m for m in used if m not in served and
                     m + "_bucket" not in served)
    ok(served and not missing, "every sudokud_ metric the rules name is "
       "served by sudokud", "missing: %r" % missing)


if not os.access(DAEMON, os.X_OK):
    print("1..0 # SKIP sudokud not built at " + DAEMON)
    sys.exit(0)
main()
print("1..%d" % n)
sys.exit(0)
