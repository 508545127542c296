# SPDX-License-Identifier: ISC
"""
balancer.py -- HAProxy from Debian in front of sudokud nodes, for the
tests that run the examples of contrib/haproxy (scaleout.py,
recipes_tls.py, http_haproxy.py; not a test program): HAProxy started
with an example file whose addresses and paths are replaced by free
ones, and asked through its stats socket; Backend, a node as
sudokud.cfg wants it.
"""

import http.client
import os
import re
import shutil
import socket
import subprocess
import tempfile

import harness as h


def haproxy_bin():
    path = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not os.access(path, os.X_OK):
        raise h.Fail("haproxy is not installed: scripts/install-deps "
                     "installs it (Debian package haproxy)")
    return path


class Backend(h.Daemon):
    """One node: a daemon with tcp_proxy and metrics listeners beside its
    own."""

    def __init__(self, **kw):
        self.proxy_port = h.free_port()
        self.metrics_port = h.free_port()
        super().__init__(extra_conf="[listen]\ntcp_proxy = 127.0.0.1:%d\n"
                         "metrics = 127.0.0.1:%d\n[log]\nlevel = debug\n"
                         % (self.proxy_port, self.metrics_port), **kw)

    def solved(self):
        """requests_total{verb="solve"}, from its metrics listener (which
        stays open while it drains, unlike its client sockets)."""
        c = http.client.HTTPConnection("127.0.0.1", self.metrics_port,
                                       timeout=5)
        try:
            c.request("GET", "/metrics")
            body = c.getresponse().read().decode()
        finally:
            c.close()
        m = re.search(r'^sudokud_requests_total\{verb="solve"\} (\d+)$',
                      body, re.M)
        return int(m.group(1))

    def log_text(self):
        with open(self.log, "rb") as f:
            return f.read().decode("ascii", "replace")


class HAProxy:
    """
    HAProxy running an example configuration with free addresses: its
    log on standard error, its stats socket in a temporary directory,
    and what subs() gives.  The test fails if the file no longer has a
    line it replaces.
    """
    EXAMPLE = os.path.join(h.TOP_SRCDIR, "contrib", "haproxy",
                           "sudokud.cfg")
    SERVER_PORT = "proxy_port"

    def __init__(self, backends):
        self.tmp = tempfile.mkdtemp(prefix="haproxy-e2e.")
        self.port = h.free_port()
        self.stats_path = os.path.join(self.tmp, "stats.sock")
        self.conf = os.path.join(self.tmp, "haproxy.cfg")
        self.log = os.path.join(self.tmp, "haproxy.log")
        self.proc = None
        self.nodes = len(backends)
        with open(self.EXAMPLE) as f:
            text = f.read()
        subs = self.global_subs() + self.subs(backends)
        for pat, rep, want in subs:
            text, n = re.subn(pat, rep, text, flags=re.M)
            if n != want:
                raise h.Fail("%s: %d lines match %r, the test expects %d: "
                             "keep the example and this test in step"
                             % (self.EXAMPLE, n, pat, want))
        with open(self.conf, "w") as f:
            f.write(text)

    def global_subs(self):
        """The global section's log (to standard error) and stats
        socket."""
        return [(r"^(\s*log) /dev/log (.*)$", r"\1 stderr format raw \2", 1),
                (r"^(\s*stats socket) \S+ (.*)$",
                 r"\1 %s \2" % self.stats_path, 1)]

    def subs(self, backends):
        """(pattern, replacement, how many lines it must match): the
        frontend's and the servers' lines."""
        return self.bind_subs() + self.server_subs(backends)

    def bind_subs(self):
        """sudokud.cfg's frontend address."""
        return [(r"^(\s*bind) 127\.0\.0\.1:\d+$",
                 r"\1 127.0.0.1:%d" % self.port, 1)]

    def server_subs(self, backends):
        """sudokud.cfg's servers: their addresses (each backend's
        attribute SERVER_PORT) and check ports (metrics_port)."""
        ports = iter((getattr(b, self.SERVER_PORT), b.metrics_port)
                     for b in backends)
        return [(r"^(\s*server node\d+) 127\.0\.0\.1:\d+ check port \d+$",
                 lambda m: "%s 127.0.0.1:%d check port %d" % (
                     (m.group(1),) + next(ports)), len(backends))]

    def start(self, up=None):
        """Started, once a check has passed on up nodes (all unless
        told)."""
        exe = haproxy_bin()
        p = subprocess.run([exe, "-c", "-q", "-f", self.conf],
                           capture_output=True, text=True, timeout=30)
        if p.returncode != 0:
            raise h.Fail("haproxy -c rejects the example:\n%s%s"
                         % (p.stdout, p.stderr))
        with open(self.log, "ab") as logf:
            self.proc = subprocess.Popen(
                [exe, "-db", "-f", self.conf], stdin=subprocess.DEVNULL,
                stdout=logf, stderr=logf)
        self.wait_up(up)
        return self

    def wait_up(self, up):
        """The servers start "up": wait for a real check of up of them
        (all unless told) to pass."""
        up = self.nodes if up is None else up
        if not h.wait_for(lambda: self.checked() == up, 15, 0.1):
            raise h.Fail("HAProxy's checks did not pass on %d nodes: "
                         "%r\n%s" % (up, self.states(), self.log_tail()))

    def checked(self):
        """How many nodes are up with a check that passed."""
        return sum(s.get("status") == "UP" and s.get("check_status") ==
                   "L7OK" for s in self.servers().values())

    def command(self, line):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(5)
        try:
            s.connect(self.stats_path)
            s.sendall(line.encode() + b"\n")
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        except OSError:
            return ""
        finally:
            s.close()
        return data.decode("ascii", "replace")

    def states(self):
        """{node: (status, check_status, last_chk)}: why each is up or
        down, in short."""
        return {n: (s.get("status"), s.get("check_status"),
                    s.get("last_chk")) for n, s in self.servers().items()}

    def servers(self):
        """{node: {column: value}} from "show stat"."""
        rows = self.command("show stat").splitlines()
        if not rows or not rows[0].startswith("# "):
            return {}
        head = rows[0][2:].split(",")
        out = {}
        for row in rows[1:]:
            rec = dict(zip(head, row.split(",")))
            if rec.get("pxname") == "sudokud" and \
                    rec.get("svname", "").startswith("node"):
                out[rec["svname"]] = rec
        return out

    def log_tail(self, n=15):
        return "haproxy log:\n" + "\n".join(h.file_tail(self.log, n))

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        shutil.rmtree(self.tmp, ignore_errors=True)


class Farm:
    """
    Nodes and HAProxy in front; with: stopped, whatever happened.  node(i)
    makes node i (not started), of 3 unless told; hap is the HAProxy class;
    up is how many nodes must pass a check first (all unless told).
    """

    def __init__(self, node=lambda i: Backend(workers=1), hap=HAProxy, n=3,
                 up=None):
        self.make, self.hap_class, self.n, self.up = node, hap, n, up

    def __enter__(self):
        self.nodes = []
        self.hap = None
        try:
            for i in range(self.n):
                self.nodes.append(self.make(i).start())
            # Kept before it starts: stopped if its checks never pass.
            self.hap = self.hap_class(self.nodes)
            self.hap.start(self.up)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc):
        if self.hap is not None:
            self.hap.stop()
        for d in self.nodes:
            d.cleanup()
