# SPDX-License-Identifier: ISC
"""
harness.py -- end-to-end test harness for sudokud (Python 3 stdlib only).

Starts a private daemon on a temporary Unix socket and a free TCP port,
talks the line protocol with a timeout on every socket operation, reads
the daemon's RSS, fds and CPU time from /proc, checks solutions with an
independent reference solver, and prints TAP, one line per case.  Every
Python test of the tree uses it (memcached's t/lib/MemcachedTest.pm is
the model):

  T = Tap(opts)             one TAP printer per file, in one of two styles:
    @T.case(name, ...)      a case per function, run by T.run(), each with
                            its daemon (shared, private or its own), a
                            timeout and a sanitizer scan; the plan first
    T.ok(cond, name, diag)  checks in sequence (memcached's ok()), run by
    T.skip(name, reason)    T.main(fn), each within CASE_TIMEOUT of the one
                            before; the plan last, after one more line
                            if this file's daemons left a sanitizer report
    T.bounded(name, fn)     fn(name), a case of checks in sequence that
                            prints its own result, within a timeout
    T.problems(texts, fn, plants)
                            a documents' lint: fn's checks, then each
                            again on a copy with a planted mismatch
  skip_all(reason)          the whole file skipped
  Daemon(**opts)            a sudokud from keyword options (config keys,
                            unix/tcp, extra_conf) or raw config= text, with
                            env, flags, wrapper, inherit_fd, listen_fds;
                            start()/started(), terminate(), wait_exit(),
                            connect(transport), stats(), cleanup()
  free_port()               a TCP port nobody listens on
  ask(addr, line), ping(addr), can_connect(addr)
                            one request on a new connection; addr is a
                            Unix socket path, a port or (host, port)
  run_daemon_cmd(*args)     sudokud run to its exit (-n, -V, bad flags,
                            configs it must refuse): (status, out, err)
  spawn(argv), run_child(argv)
                            another program (sudokuc, HAProxy): Popen, or
                            run to its exit; stopped when its case ends
  deep_budget(seconds), DEEP
                            heavy work sized at run time: the budget that
                            makes "SOLVE DEEP" last that long here
  NotifySocket(path)        a NOTIFY_SOCKET standing in for systemd

A case that runs out of time fails saying where it waited (its lines of
code, the programs still running), and what it started is stopped.  No
case asserts how fast the machine is: durations are bounded only where
the daemon is configured to take them (a 2 s timeout closes between 1
and 4.5 s), "served meanwhile" is order and counts, and heavy work is
sized by deep_budget().

These names come from three files, and a test imports this one only:
harness_conn.py (the environment, the puzzles, Fail/check/eq, Client,
ask/ping/can_connect, NotifySocket, wait_for, sender), harness_daemon.py
(Daemon, run_daemon_cmd, free_port, have_daemon, the /proc probes) and
this one (the TAP runner: Tap, Ctx, skip_all).

Environment: top_builddir (where src/sudokud lives), top_srcdir (for
doc/protocol.md), PUZZLE_DIR (puzzle sets), SUDOKUD (another binary,
e.g. an ASan/UBSan or TSan build: sanitizer reports in its log fail the
case, and memory bounds become notes), E2E_ONLY (run only the cases whose
name contains this string), E2E_SLOWDOWN (N: the daemon runs N times
slower, as under valgrind; a case, a file and a daemon's start get N
times as long before they fail).
"""

import os
import signal
import time
import traceback

# The names of the two lower layers, for the tests (h.Daemon, h.eq, ...).
from harness_conn import (  # noqa: F401
    CASE_TIMEOUT, CLASSIC, CLASSIC_SOLUTION, DAEMON, EMPTY, EMPTY_LEXMIN,
    FILE_TIMEOUT, HERE, IO_TIMEOUT, PUZZLE_DIR, SANITIZED, SLOWDOWN,
    STAMP_RE,
    SUDOKUC, TOP_BUILDDIR, TOP_SRCDIR, UNITS_OF, CaseTimeout,
    Client,
    Fail, NotifySocket, ask, can_connect, check, check_mem, check_solution,
    eq, givens_consistent, load_puzzles, package_version, parse_grid, ping,
    ref_search, ref_solutions, sender, short, solution_problem, unstamp, wait_for)
from harness_daemon import (  # noqa: F401
    DEEP, Daemon, child_env, children_running, deep_budget, deep_reply,
    file_tail, free_port, guess_seconds, have_daemon, proc_cpu_seconds,
    proc_fd_count, proc_rss_kb, proc_status_kb, reap_children, run_child,
    run_daemon_cmd, spawn)


# ---- TAP runner -------------------------------------------------------------

class Ctx:
    """What a case function receives."""

    def __init__(self, daemon, transport, runner):
        self.d = daemon
        self.transport = transport
        self.runner = runner
        self.clients = []
        self.notes = []

    def note(self, text):
        """A measurement, printed as a TAP comment after the result."""
        self.notes.append(text)

    def connect(self, timeout=IO_TIMEOUT, transport=None):
        c = self.d.connect(transport or self.transport or "unix", timeout)
        self.clients.append(c)
        return c

    def stats(self):
        return stats_ints(self.d.stats(self.transport or "unix"))

    def close_all(self):
        for c in self.clients:
            c.close()


def stats_ints(st):
    out = {}
    for k, v in st.items():
        out[k] = v if k == "version" else int(v)
    return out


def skip_all(reason):
    """The plan of a file that runs nothing; its exit status."""
    print("1..0 # SKIP %s" % reason, flush=True)
    return 0


class Tap:
    """
    One TAP printer; automake's tap-driver.sh counts each "ok"/"not ok"
    line as one test case.  A file uses one of two styles:

    Cases: @T.case(name, transports=..., daemon=opts), then
    sys.exit(T.run()).  A case without daemon options shares one default
    daemon per file (restarted if it dies); with options it gets a
    private one; own=True cases start their daemons themselves.

    Checks in sequence (memcached's ok()): T.ok(cond, name, diag) and
    T.skip(name, reason), called by a function fn, then
    sys.exit(T.main(fn)); the plan comes last, which TAP allows.
    diag_lines caps the "# " lines of a failed check.

    Either way the exit status is 0: failures are the "not ok" lines.
    """

    def __init__(self, default_opts=None, diag_lines=None):
        self.cases = []
        self.default_opts = default_opts or {}
        self.shared = None
        self.n = 0
        self.failed = 0
        self.current_notes = []
        self.start = time.monotonic()
        self.diag_lines = diag_lines
        self.sequence = False           # in main(): a timeout per check
        self.last_label = None

    def case(self, name, transports=("unix", "tcp"), daemon=None,
             timeout=CASE_TIMEOUT, own=False, daemonless=False):
        """own: the case starts its daemons itself; daemonless: needs none."""
        def deco(fn):
            fn.daemonless = daemonless
            for tr in transports:
                label = name if tr is None else "%s [%s]" % (name, tr)
                self.cases.append((label, fn, tr, daemon, timeout, own))
            return fn
        return deco

    def _shared_daemon(self):
        if self.shared is None or not self.shared.alive():
            if self.shared is not None:
                self.shared.cleanup()
            self.shared = Daemon(**self.default_opts).start()
        return self.shared

    def _alarm(self, signum, frame):
        raise CaseTimeout(frame)

    @staticmethod
    def _timeout_diag(what, e):
        """What a case that ran out of time waited for; stops children."""
        diag = "%s, waiting in:\n%s" % (what, e)
        running = children_running()
        if running:
            diag += "\nstill running (now killed):\n" + "\n".join(running)
        reap_children()
        return diag

    def emit(self, ok, label, diag=None, skip=None):
        self.n += 1
        self.last_label = label
        if self.sequence:
            self._arm()
        line = "%s %d - %s" % ("ok" if ok else "not ok", self.n, label)
        if skip:
            line += " # SKIP " + skip
        print(line, flush=True)
        if not ok:
            self.failed += 1
        if not ok and self.current_notes:
            diag = "\n".join(self.current_notes) + "\n" + (diag or "")
        if diag:
            for ln in diag.rstrip("\n").splitlines():
                print("# " + ln, flush=True)

    def run_one(self, label, fn, tr, dopts, timeout, own):
        d = None
        ctx = None
        ok, diag = False, None
        first = len(Daemon.instances)
        timeout *= SLOWDOWN
        signal.signal(signal.SIGALRM, self._alarm)
        signal.alarm(timeout)
        try:
            if callable(dopts):         # options sized at run time
                dopts = dopts()
            if dopts is not None and not own:
                d = Daemon(**dopts).start()
            elif not own:
                d = self._shared_daemon()
            ctx = Ctx(d, tr, self)
            self.current_notes = ctx.notes
            fn(ctx)
            if d is not None and not d.alive() and not d.stopped:
                raise Fail("daemon died, status %s\n%s"
                           % (d.proc.returncode, d.log_tail()))
            ok, diag = True, "\n".join(ctx.notes) or None
        except CaseTimeout as e:
            diag = self._timeout_diag("case exceeded %d s" % timeout, e)
            if d is not None:
                diag += "\n" + d.log_tail()
        except Fail as e:
            diag = str(e)
            if d is not None and not d.alive() and not d.stopped:
                diag += "\ndaemon died, status %s\n%s" % (
                    d.proc.returncode, d.log_tail())
        except Exception:
            diag = traceback.format_exc()
        finally:
            signal.alarm(0)
        try:
            reap_children()
            if ctx is not None:
                ctx.close_all()
            # stop this case's daemons (SIGTERM first, so that leak
            # checkers run) and look for sanitizer reports in their logs
            found = []
            for dd in Daemon.instances[first:]:
                if dd is not self.shared:
                    dd.cleanup()
                found += dd.findings
            if self.shared is not None:
                found += self.shared.scan_log()
            if found:
                ok = False
                diag = (diag or "") + "\nsanitizer report:\n" + "\n".join(
                    found[:40])
        except Exception:
            ok, diag = False, (diag or "") + traceback.format_exc()
        self.emit(ok, label, diag)
        self.current_notes = []

    # ---- checks in sequence ---------------------------------------------

    def ok(self, cond, name, diag=""):
        """One result now; diag (any value) is shown if cond is false."""
        text = None
        if not cond and diag is not None and str(diag) != "":
            lines = str(diag).splitlines()
            text = "\n".join(lines[:self.diag_lines])
        self.emit(bool(cond), name, text)
        return cond

    def skip(self, name, reason):
        self.emit(True, name, skip=reason)

    def problems(self, texts, problems, plants):
        """The documents' lint: problems(texts) gives [(name, errors)],
        a check each; then each (file, old, new, start of a name) of
        plants is put in a copy of texts, and the check whose name
        starts so must report it, so that a parser that stops finding
        anything cannot pass unnoticed."""
        for name, errs in problems(texts):
            self.ok(not errs, name, "\n".join(errs))
        for doc, old, new, which in plants:
            planted = dict(texts)
            planted[doc] = texts[doc].replace(old, new, 1)
            found = [errs for name, errs in problems(planted)
                     if name.startswith(which)]
            self.ok(old in texts[doc] and found and found[0],
                    "self-check: %r planted in %s is reported by \"%s...\""
                    % (new, doc, which),
                    "the text to change is not in %s" % doc
                    if old not in texts[doc] else "not reported")

    def _arm(self):
        """The next check's alarm: CASE_TIMEOUT, or what is left of the
        file's FILE_TIMEOUT if that is less."""
        left = self.start + FILE_TIMEOUT * SLOWDOWN - time.monotonic()
        signal.alarm(max(1, int(min(CASE_TIMEOUT * SLOWDOWN, left) + 0.5)))

    def main(self, fn):
        """
        Run fn() with each of its checks within CASE_TIMEOUT of the one
        before and all within FILE_TIMEOUT (an exception or a timeout is
        one more "not ok" line, saying where it waited), then done().
        """
        signal.signal(signal.SIGALRM, self._alarm)
        self.sequence = True
        self._arm()
        try:
            fn()
        except CaseTimeout as e:
            if time.monotonic() - self.start >= \
                    FILE_TIMEOUT * SLOWDOWN - 1:
                what = "file time budget of %d s spent" % (
                    FILE_TIMEOUT * SLOWDOWN)
            else:
                what = "no result for %d s after %s" % (
                    CASE_TIMEOUT * SLOWDOWN, "check %d (%s)" % (self.n, self.last_label)
                    if self.n else "the start")
            self.sequence = False
            signal.alarm(0)
            self.emit(False, "%s ran to its end" % fn.__name__,
                      self._timeout_diag(what, e))
        except Exception:
            self.sequence = False
            signal.alarm(0)
            self.emit(False, "%s ran to its end" % fn.__name__,
                      traceback.format_exc())
        finally:
            self.sequence = False
            signal.alarm(0)
            reap_children()
        return self.done()

    def bounded(self, name, fn, timeout=CASE_TIMEOUT):
        """
        fn(name): one case of checks in sequence that prints its own
        result (T.ok, T.skip), within timeout seconds; a timeout or an
        exception is a "not ok" for name instead, and whatever the case
        started with spawn() or run_child() is stopped after it.
        """
        timeout *= SLOWDOWN
        signal.signal(signal.SIGALRM, self._alarm)
        signal.alarm(timeout)
        try:
            fn(name)
        except CaseTimeout as e:
            signal.alarm(0)
            self.emit(False, name, self._timeout_diag(
                "case exceeded %d s" % timeout, e))
        except Exception as e:      # noqa: BLE001 -- report, go on
            signal.alarm(0)
            self.emit(False, name, "%s: %s\n%s" % (
                type(e).__name__, e, traceback.format_exc(limit=-3)))
        finally:
            signal.alarm(0)
            reap_children()

    def done(self):
        """
        The end of checks in sequence: stop the daemons still running;
        if this file made any, one more line says whether their logs hold
        a sanitizer report; then the plan.  Returns the exit status, 0.
        """
        found = []
        for d in Daemon.instances:
            try:
                d.cleanup()
            except Exception:
                found.append(traceback.format_exc())
            found += d.findings
        if Daemon.instances:
            self.ok(not found, "no sanitizer report from the %d daemon "
                    "run(s) of this file" % len(Daemon.instances),
                    "\n".join(found[:40]))
        print("1..%d" % self.n, flush=True)
        return 0

    # ---- cases -------------------------------------------------------------

    def _shared_exit(self, c):
        """The shared daemon stops cleanly; its leak report is clean."""
        if self.shared is None:
            return
        d, self.shared = self.shared, None
        rc = d.terminate(5)
        found = d.scan_log()
        d.cleanup()
        check(not found, "sanitizer report:\n" + "\n".join(found[:40]))
        eq(rc, 0, "exit status of the shared daemon after SIGTERM\n"
           + d.log_tail())

    def run(self):
        only = os.environ.get("E2E_ONLY")      # debugging: a name substring
        if only:
            self.cases = [cs for cs in self.cases if only in cs[0]]
        if any(not own and dopts is None
               for _, _, _, dopts, _, own in self.cases):
            self.cases.append(("shared daemon: SIGTERM -> exit 0, no "
                               "sanitizer report", self._shared_exit, None,
                               None, CASE_TIMEOUT, True))
        print("1..%d" % len(self.cases), flush=True)
        have = os.access(DAEMON, os.X_OK)
        try:
            for label, fn, tr, dopts, timeout, own in self.cases:
                if not have and not getattr(fn, "daemonless", False):
                    self.emit(True, label, skip="no daemon at " + DAEMON)
                elif time.monotonic() - self.start > \
                        FILE_TIMEOUT * SLOWDOWN:
                    self.emit(False, label, "file time budget of %d s spent"
                              % (FILE_TIMEOUT * SLOWDOWN))
                else:
                    self.run_one(label, fn, tr, dopts, timeout, own)
        finally:
            if self.shared is not None:
                self.shared.cleanup()
        # failures are in the "not ok" lines; a non-zero status would be
        # counted again by the TAP driver as an ERROR
        return 0
