#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
tls_reload.py -- certificates reloaded under load with nothing lost
(TAP; issue 30): clients pipeline SOLVE requests over TLS without a
pause while SIGHUP swaps in a new certificate and key, then a bad key,
then the first certificate again.  Every request is answered, each
reply checked by the harness's grid checker against its own puzzle, in
order, none lost or duplicated (a PING at the end must be answered
right after the last one; the daemon's SOLVE count is the clients'); the
open connections keep going (counts of replies after each reload, the
same connection and certificate throughout); connections opened while
it happens get the old certificate, then the new, never back; after the
reload's log line every new one gets the new certificate (its serial,
read with openssl x509); the bad reload keeps the one in force.
Asserted by counts and order, never by time.
"""

import os
import signal
import sys
import threading

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from certs import certs, certs_cleanup                  # noqa: E402
from harness import check, eq, Fail                     # noqa: E402
from tls_common import tls_client, tls_daemon           # noqa: E402

T = h.Tap()
ONE = (None,)
CLIENTS = 4
WINDOW = 64             # requests in flight on each connection
STEP = 300              # replies each client reads between two steps
SET = "puzzles2_17_clue"


def serial(k):
    return k.sock.getpeercert()["serialNumber"]


class Pipeliner(threading.Thread):
    """
    One TLS connection that keeps WINDOW SOLVE requests in flight,
    checks each reply against its own puzzle in order, and on stop()
    sends PING, reads what is owed and then the PONG.  error says what
    went wrong, if anything.
    """

    def __init__(self, d, puzzles, first):
        super().__init__(daemon=True)
        self.k = tls_client(d, timeout=30)
        self.serial = serial(self.k)
        self.puzzles, self.first = puzzles, first
        self.sent = self.answered = 0
        self.stopping = False
        self.error = None

    def puzzle(self, i):
        return self.puzzles[(self.first + i) % len(self.puzzles)]

    def top_up(self):
        n = WINDOW - (self.sent - self.answered)
        if n == 0:
            return
        self.k.send("".join("SOLVE %s\n" % self.puzzle(self.sent + i)
                            for i in range(n)))
        self.sent += n

    def reply(self):
        line = self.k.line(30)
        why = h.solution_problem(self.puzzle(self.answered), line)
        if why:
            raise Fail("reply %d: %s" % (self.answered + 1, why))
        self.answered += 1

    def run(self):
        try:
            self.top_up()
            while not self.stopping:
                self.reply()
                if b"\n" not in self.k.buf:
                    self.top_up()
            self.k.send("PING\n")
            while self.answered < self.sent:
                self.reply()
            eq(self.k.line(30), "PONG", "the line after the last reply")
            eq(serial(self.k), self.serial, "the connection's certificate")
        except BaseException as e:
            self.error = "%s: %s" % (type(e).__name__, e)
        finally:
            self.k.close()


class Opener(threading.Thread):
    """New connections one after another, each one's certificate serial
    noted, until stop."""

    def __init__(self, d):
        super().__init__(daemon=True)
        self.d, self.serials, self.stopping, self.error = d, [], False, None

    def run(self):
        try:
            while not self.stopping:
                k = tls_client(self.d)
                self.serials.append(serial(k))
                k.close()
        except BaseException as e:
            self.error = "%s: %s" % (type(e).__name__, e)


def runs(seq):
    """seq with repeats in a row collapsed: [a, a, b, a] -> [a, b, a]."""
    return [x for i, x in enumerate(seq) if i == 0 or seq[i - 1] != x]


def progress(clients, opener, d):
    """Wait until every client has read STEP more replies and the opener
    has opened two connections more; fail if one stopped."""
    want = [p.answered + STEP for p in clients]
    # Two: the first may have begun before what came last.
    seen = len(opener.serials) + 2

    def done():
        for p in clients + [opener]:
            if p.error is not None or not p.is_alive():
                raise Fail("a client stopped: %s\n%s" % (p.error,
                                                         d.log_tail()))
        return all(p.answered >= w for p, w in zip(clients, want)) and \
            len(opener.serials) >= seen
    check(h.wait_for(done, 120), "the clients did not get %d more replies "
          "each: %r" % (STEP, [p.answered for p in clients]))


def reload(d, conf, text, want):
    """conf rewritten to text, SIGHUP, until the log says want once more."""
    with open(d.log, "rb") as f:
        n = f.read().count(want.encode())
    with open(conf, "w") as f:
        f.write(text)
    d.proc.send_signal(signal.SIGHUP)
    check(h.wait_for(lambda: open(d.log, "rb").read().count(
        want.encode()) > n, 30), "no %r\n%s" % (want, d.log_tail()))


@T.case("TLS: %d clients pipelining %d SOLVE each while SIGHUP swaps the "
        "certificate, then a key not the certificate's, then the first "
        "again: every reply right and in order, none lost or duplicated, "
        "the open connections served throughout; new connections get the "
        "old certificate, then the new, never back; the bad reload keeps "
        "the one in force" % (CLIENTS, WINDOW), transports=ONE, own=True,
        timeout=300)
def _(c):
    cs = certs()
    one, two = cs.serial("server"), cs.serial("server2")
    d = tls_daemon()
    clients, opener = [], Opener(d)
    try:
        puzzles = h.load_puzzles(SET, 5000)
        for i in range(CLIENTS):
            clients.append(Pipeliner(d, puzzles, i * len(puzzles) //
                                     CLIENTS))
        eq({p.serial for p in clients}, {one}, "the clients' certificate")
        for p in clients + [opener]:
            p.start()
        progress(clients, opener, d)
        with open(d.conf) as f:
            first = f.read()
        second = first.replace(cs.path("server."), cs.path("server2."))
        steps = ((second, "configuration reloaded", two),
                 (second.replace(cs.path("server2.key"),
                                 cs.path("client.key")),
                  "reload failed, configuration kept: %s: not the key of %s"
                  % (cs.path("client.key"), cs.path("server2.pem")), two),
                 (first, "configuration reloaded", one))
        for text, logged, want in steps:
            reload(d, d.conf, text, logged)
            k = tls_client(d)
            eq(serial(k), want, "a new connection's certificate after %r"
               % logged)
            k.close()
            progress(clients, opener, d)
        for p in clients + [opener]:
            p.stopping = True
        for p in clients + [opener]:
            p.join(60)
            check(not p.is_alive() and p.error is None, "a client: %s"
                  % (p.error or "still running"))
        sent = sum(p.sent for p in clients)
        c.note("%d requests answered on %d connections; %d connections "
               "opened meanwhile, their certificates in turn: %s" % (
                   sent, CLIENTS, len(opener.serials),
                   runs(opener.serials)))
        eq(sum(p.answered for p in clients), sent, "replies read")
        eq(h.stats_ints(d.stats())["cmd_solve"], sent,
           "SOLVE requests the daemon counted")
        check(runs(opener.serials) == [one, two, one],
              "certificates of the connections opened meanwhile, in turn: "
              "%s (old %s, new %s)" % (runs(opener.serials), one, two))
    finally:
        for p in clients + [opener]:
            p.stopping = True
        d.cleanup()


if __name__ == "__main__":
    try:
        sys.exit(T.run())
    finally:
        certs_cleanup()
