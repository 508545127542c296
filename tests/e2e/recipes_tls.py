#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
recipes_tls.py -- the TLS recipes of doc/scaling.md run as written
(issue 30 item 5): each example file with its addresses and paths
replaced by free ones (the test fails if a line it replaces is gone),
HAProxy from Debian, certificates made at test time (certs.py), every
answer through HAProxy checked by the test's own grid checker.

- contrib/haproxy/sudokud-tls.cfg: HAProxy ends TLS and sends PROXY v2
  to the nodes' tcp_proxy listeners; a node's CLIENT LIST names the
  client; one address holds at most 256 connections at the frontend.
- contrib/haproxy/sudokud-reencrypt.cfg: HAProxy opens TLS again to
  nodes configured as its comment says (tls_proxy, verify_client =
  require, allow_names): its checks pass through TLS; a node whose
  certificate is of another CA, or for another name, is DOWN and gets
  nothing (verify required verifies); the nodes' plain tls listeners
  with send-proxy-v2 dropped, as the file says.
- contrib/kubernetes/sudokud.yaml: the ConfigMap's sudokud.conf run as
  the pod's user with the Secret's files laid out as the kubelet mounts
  them, and a renewed Secret taken on SIGHUP.
"""

import http.client
import os
import re
import select
import shutil
import signal
import socket
import sys
import tempfile

sys.dont_write_bytecode = True      # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h                                     # noqa: E402
from balancer import Farm, HAProxy                      # noqa: E402
from certs import certs, certs_cleanup                  # noqa: E402
from harness import check, eq                           # noqa: E402
from reference import right_answers                     # noqa: E402
from tls_common import context                          # noqa: E402

T = h.Tap()
ONE = (None,)
HAPROXY_DIR = os.path.join(h.TOP_SRCDIR, "contrib", "haproxy")
TERMINATE = os.path.join(HAPROXY_DIR, "sudokud-tls.cfg")
REENCRYPT = os.path.join(HAPROXY_DIR, "sudokud-reencrypt.cfg")
KUBERNETES = os.path.join(h.TOP_SRCDIR, "contrib", "kubernetes",
                          "sudokud.yaml")
SET = "puzzles3_magictour_top1465"


def edit(text, pairs, what):
    """text with each (old, new) of pairs replaced; what must still say
    each old."""
    for old, new in pairs:
        if old not in text:
            raise h.Fail("%s no longer says %r: keep it and %s in step"
                         % (what, old, os.path.basename(__file__)))
        text = text.replace(old, new)
    return text


def node_conf():
    """The sudokud.conf sudokud-reencrypt.cfg's comment gives a node:
    its lines from '#   [listen]' on that start with '#   '."""
    with open(REENCRYPT) as f:
        lines = f.read().split("\n")
    out = []
    for ln in lines[lines.index("#   [listen]"):]:
        if not ln.startswith("#   "):
            break
        out.append(ln[4:])
    return "\n".join(out) + "\n"


def conf_value(text, key):
    m = re.search(r"^\s*%s\s*=\s*(\S+)" % key, text, re.M)
    if m is None:
        raise h.Fail("no %s in %r" % (key, text))
    return m.group(1)


def verifyhost():
    """The name sudokud-reencrypt.cfg wants the nodes' certificates to
    have."""
    with open(REENCRYPT) as f:
        return re.search(r"^\s*default-server .*\bverifyhost (\S+)",
                         f.read(), re.M).group(1)


def recipe_certs():
    """certs(), and for the re-encrypting recipe: nodes for the name
    HAProxy checks (verifyhost), of the CA and of another; HAProxy's own
    for the name the nodes let in (allow_names)."""
    c = certs()
    if not os.path.exists(c.path("node.pem")):
        node = verifyhost()
        c.sign("node", node, c.ca, "DNS:" + node)
        c.sign("node_other_ca", node, c.other_ca, "DNS:" + node)
        c.sign("haproxy", conf_value(node_conf(), "allow_names"), c.ca)
    return c


class Terminate(HAProxy):
    """sudokud-tls.cfg, its frontend's certificate certs()' server (for
    localhost and 127.0.0.1); its servers as sudokud.cfg's."""
    EXAMPLE = TERMINATE

    def bind_subs(self):
        return [(r"^(\s*bind) :7443 ssl crt \S+$", r"\1 127.0.0.1:%d ssl "
                 "crt %s" % (self.port, certs().bundle("server")), 1)]


class Reencrypt(Terminate):
    """sudokud-reencrypt.cfg: the nodes' CA and HAProxy's own certificate
    certs()'; with proxy False, send-proxy-v2 dropped (for the nodes'
    plain tls listeners), as the file says."""
    EXAMPLE = REENCRYPT
    proxy = True

    def server_subs(self, backends):
        c = recipe_certs()
        ports = iter(b.proxy_port for b in backends)
        subs = [(r"^(\s*server node\d+) 127\.0\.0\.1:\d+$",
                 lambda m: "%s 127.0.0.1:%d" % (m.group(1), next(ports)),
                 len(backends)),
                (r"\bca-file /etc/haproxy/sudokud-ca\.pem ",
                 "ca-file %s " % c.path("ca.pem"), 1),
                (r"\bcrt /etc/haproxy/certs/haproxy-client\.pem ",
                 "crt %s " % c.bundle("haproxy"), 1)]
        if not self.proxy:
            subs.append((r"^(\s*default-server .*) send-proxy-v2\b", r"\1",
                         1))
        return subs


class PlainReencrypt(Reencrypt):
    proxy = False


class TLSNode(h.Daemon):
    """A node configured as sudokud-reencrypt.cfg's comment says, with
    certs()' cert; with plain, a tls listener in place of tls_proxy."""

    def __init__(self, cert="node", plain=False):
        c = recipe_certs()
        self.proxy_port = h.free_port()
        conf = edit(node_conf(), (
            ("tls_proxy = 127.0.0.1:8001", "%s = 127.0.0.1:%d" % (
                "tls" if plain else "tls_proxy", self.proxy_port)),
            ("/etc/sudokud/node.pem", c.path(cert + ".pem")),
            ("/etc/sudokud/node.key", c.path(cert + ".key")),
            ("/etc/sudokud/ca.pem", c.path("ca.pem"))), REENCRYPT)
        super().__init__(tcp=False, workers=1,
                         extra_conf=conf + "[log]\nlevel = debug\n")


def solved(d):
    return h.stats_ints(d.stats())["cmd_solve"]


def batch(c, farm, serving):
    """SET via sudokuc --tls over 6 connections through farm's HAProxy:
    every answer right, and the nodes in serving (indexes) did them all,
    each some."""
    puzzles = h.load_puzzles(SET)
    r = h.run_child([h.SUDOKUC, "--tls", "--ca", certs().path("ca.pem"),
                     "-C", "6", "-H", "tls://127.0.0.1:%d" % farm.hap.port,
                     os.path.join(h.PUZZLE_DIR, SET)], timeout=120, text=True)
    eq(r.returncode, 0, "sudokuc's exit status (stderr %r)" % r.stderr[-600:])
    eq(right_answers(puzzles, r.stdout), "", "the answers through HAProxy")
    counts = [solved(d) for d in farm.nodes]
    c.note("%d puzzles through HAProxy; SOLVE per node: %s"
           % (len(puzzles), counts))
    eq(sum(counts[i] for i in serving), len(puzzles), "SOLVE of the nodes "
       "serving: %s" % counts)
    check(all(counts[i] > 0 for i in serving), "every node serving solved "
          "some: %s" % counts)


def client_list(port, pings=3):
    """(the client's address, CLIENT LIST) through HAProxy at port over
    TLS from 127.0.0.2, after pings PINGs."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(5)
    s.bind(("127.0.0.2", 0))
    s.connect(("127.0.0.1", port))
    me = "127.0.0.2:%d" % s.getsockname()[1]
    try:
        k = h.Client(context().wrap_socket(s, server_hostname="localhost"))
    except BaseException:
        s.close()
        raise
    try:
        for _ in range(pings):
            eq(k.req("PING"), "PONG", "PING through HAProxy over TLS")
        return me, k.block("CLIENT LIST")
    finally:
        k.close()


def check_named(me, lines, transport, cert=""):
    """One line of lines names the client me, of transport, through
    127.0.0.1 (HAProxy), with cert."""
    mine = [ln for ln in lines if " addr=tcp:%s " % me in ln]
    check(len(mine) == 1 and re.fullmatch(
        r"id=\d+ transport=%s addr=tcp:%s via=tcp:127\.0\.0\.1:\d+ age=\d+ "
        r"idle=\d+ requests=3 pending=0 state=idle auth=none%s"
        % (transport, re.escape(me), re.escape(cert)), mine[0]),
        "CLIENT LIST names the PROXY header's client %s: %r" % (me, lines))


@T.case("sudokud-tls.cfg: HAProxy ends TLS and sends PROXY v2 to the "
        "nodes' tcp_proxy listeners: the 1465 puzzles via sudokuc --tls, "
        "every answer right, every node used; a node's CLIENT LIST names "
        "the client at 127.0.0.2, transport tcp_proxy",
        transports=ONE, own=True, timeout=180)
def _(c):
    with Farm(hap=Terminate) as f:
        batch(c, f, (0, 1, 2))
        me, lines = client_list(f.hap.port)
        check_named(me, lines, "tcp_proxy")


def closed(socks):
    """Those of socks whose peer has closed them (reset or end; each
    found again at the next call)."""
    r, _, _ = select.select(socks, [], [], 0)
    out = []
    for s in r:
        try:
            if s.recv(1) == b"":
                out.append(s)
        except ConnectionResetError:
            out.append(s)
    return out


@T.case("sudokud-tls.cfg: one address holds at most 256 connections at "
        "the frontend: of 257 stalled handshakes from 127.0.0.3 one is "
        "closed, 256 held; a client at 127.0.0.2 answered over TLS "
        "meanwhile", transports=ONE, own=True, timeout=120)
def _(c):
    with Farm(hap=Terminate) as f:
        held = []
        try:
            for _ in range(257):
                s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                held.append(s)
                s.settimeout(5)
                s.bind(("127.0.0.3", 0))
                s.connect(("127.0.0.1", f.hap.port))
            # (HAProxy's threads accept them in no set order.)
            check(h.wait_for(lambda: closed(held), 10),
                  "none of 257 connections from 127.0.0.3 was closed")
            client_list(f.hap.port)
            eq(len(closed(held)), 1, "connections from 127.0.0.3 closed, "
               "of 257")
        finally:
            for s in held:
                s.close()


def reencrypt_farm(certs_of=("node", "node", "node"), hap=Reencrypt,
                   plain=False, up=None):
    return Farm(node=lambda i: TLSNode(certs_of[i], plain), hap=hap,
                up=up)


@T.case("sudokud-reencrypt.cfg: nodes as its comment says (tls_proxy, "
        "verify_client = require, allow_names): HAProxy's checks pass "
        "through TLS; the 1465 puzzles via sudokuc --tls, every answer "
        "right, every node used; CLIENT LIST names the client at 127.0.0.2 "
        "and HAProxy's certificate; a client of the same CA not in "
        "allow_names, with a PROXY header of its own, is refused",
        transports=ONE, own=True, timeout=180)
def _(c):
    with reencrypt_farm() as f:
        batch(c, f, (0, 1, 2))
        me, lines = client_list(f.hap.port)
        cn = conf_value(node_conf(), "allow_names")
        check_named(me, lines, "tls_proxy", " cert=CN=" + cn)
        s = socket.create_connection(("127.0.0.1", f.nodes[0].proxy_port), 5)
        s.sendall(b"PROXY TCP4 203.0.113.9 127.0.0.1 40000 7999\r\n")
        k = h.Client(context(cert="bob").wrap_socket(
            s, server_hostname=verifyhost()))
        eq(k.line(), "ERR noauth certificate CN=bob is not allowed here "
           "(allow_names)", "a client of the CA but not HAProxy")
        k.close()


@T.case("sudokud-reencrypt.cfg: a node whose certificate is of another "
        "CA and one of the CA for another name are DOWN by their checks "
        "(SSL handshake failure; a certificate different from the "
        "configured one) and get nothing: the 1465 puzzles are answered "
        "by the third, every answer right; the two saw the handshakes "
        "refused", transports=ONE, own=True, timeout=180)
def _(c):
    with reencrypt_farm(("node", "node_other_ca", "server"), up=1) as f:
        def down():
            st = f.hap.servers()
            return all(st.get(n, {}).get("status") == "DOWN"
                       for n in ("node2", "node3"))
        check(h.wait_for(down, 15), "node2 and node3 not DOWN: %r\n%s"
              % (f.hap.states(), f.hap.log_tail()))
        st = f.hap.servers()
        for node, why in (("node2", "SSL handshake failure"),
                          ("node3", "Server presented an SSL certificate "
                           "different from the configured one")):
            check(st[node]["check_status"] == "L6RSP" and
                  why in st[node]["last_chk"], "%s: %s, %r" % (
                      node, st[node]["check_status"], st[node]["last_chk"]))
        batch(c, f, (0,))
        eq([solved(d) for d in f.nodes[1:]], [0, 0], "SOLVE of node2, node3")
        for d in f.nodes[1:]:
            check(h.stats_ints(d.stats())["tls_handshake_errors"] > 0,
                  "a refused node counted no failed handshake")


@T.case("sudokud-reencrypt.cfg, send-proxy-v2 dropped, to the nodes' "
        "plain tls listeners: checks pass, the 1465 puzzles answered "
        "right by every node; CLIENT LIST names HAProxy (transport tls)",
        transports=ONE, own=True, timeout=180)
def _(c):
    with reencrypt_farm(hap=PlainReencrypt, plain=True) as f:
        batch(c, f, (0, 1, 2))
        me, lines = client_list(f.hap.port)
        cn = conf_value(node_conf(), "allow_names")
        check(not any(me.split(":")[0] in ln for ln in lines) and any(
            re.fullmatch(r"id=\d+ transport=tls addr=tcp:127\.0\.0\.1:\d+ "
                         r"age=\d+ idle=\d+ requests=3 pending=0 state=idle "
                         r"auth=none cert=CN=%s" % re.escape(cn), ln)
            for ln in lines), "CLIENT LIST names HAProxy: %r" % lines)


# ---- Kubernetes ------------------------------------------------------------

def kube_pod():
    """(the ConfigMap's sudokud.conf, the pod's securityContext, the
    Secret volume's mount path and defaultMode)."""
    try:
        import yaml
    except ImportError:
        raise h.Fail("python3-yaml is not installed (scripts/install-deps)")
    with open(KUBERNETES) as f:
        kinds = {d["kind"]: d for d in yaml.safe_load_all(f) if d}
    pod = kinds["Deployment"]["spec"]["template"]["spec"]
    vols = {v["name"]: v for v in pod["volumes"]}
    mount = [m for m in pod["containers"][0]["volumeMounts"]
             if "secret" in vols[m["name"]]][0]
    return (kinds["ConfigMap"]["data"]["sudokud.conf"],
            pod["securityContext"], mount["mountPath"],
            vols[mount["name"]]["secret"]["defaultMode"])


def kubelet_write(sec, name, ctx, mode, gen):
    """The Secret's files in sec as the kubelet writes a secret volume: a
    new directory ..gen<gen>, the link ..data swapped to it at once,
    tls.crt and tls.key links through ..data; the files root's, of the
    pod's fsGroup, of mode (when root)."""
    new = "..gen%d" % gen
    os.mkdir(os.path.join(sec, new), 0o755)
    for key, ext in (("tls.crt", ".pem"), ("tls.key", ".key")):
        path = os.path.join(sec, new, key)
        shutil.copyfile(certs().path(name + ext), path)
        if os.geteuid() == 0:
            os.chown(path, 0, ctx["fsGroup"])
        os.chmod(path, mode)
        link = os.path.join(sec, key)
        if not os.path.islink(link):
            os.symlink(os.path.join("..data", key), link)
    os.symlink(new, os.path.join(sec, "..data_tmp"))
    os.replace(os.path.join(sec, "..data_tmp"), os.path.join(sec, "..data"))
    if gen > 1:
        shutil.rmtree(os.path.join(sec, "..gen%d" % (gen - 1)))


@T.case("contrib/kubernetes/sudokud.yaml: its sudokud.conf run as the "
        "pod's user (when root) with the Secret's files as the kubelet "
        "mounts them (0440, of fsGroup: the pod's user without that group "
        "cannot read the key): a puzzle over TLS for the Service's name, "
        "/healthz 200; the Secret renewed as the kubelet does it and "
        "SIGHUP: a new connection gets the new certificate, an open one "
        "goes on", transports=ONE, own=True, timeout=120)
def _(c):
    conf, ctx, mount, mode = kube_pod()
    cs = certs()
    service = "sudokud.default.svc"
    for name in ("pod1", "pod2"):
        cs.sign(name, service, cs.ca, "DNS:%s,DNS:%s.cluster.local"
                % (service, service))
    tmp = tempfile.mkdtemp(prefix="recipes-k8s.")
    os.chmod(tmp, 0o755)
    sec = os.path.join(tmp, "tls")
    os.mkdir(sec, 0o755)
    port, mport = h.free_port(), h.free_port()
    conf = edit(conf, (("tls = 0.0.0.0:7443", "tls = 127.0.0.1:%d" % port),
                       ("http = 0.0.0.0:8080",
                        "http = 127.0.0.1:%d" % h.free_port()),
                       ("metrics = 0.0.0.0:9799",
                        "metrics = 127.0.0.1:%d" % mport),
                       (mount + "/", sec + "/")), KUBERNETES)
    # The page's files are the package's in the image; here the tree's.
    conf += "[http]\npage_dir = %s\n" % os.path.abspath(os.path.join(
        h.TOP_SRCDIR, "www"))
    root = os.geteuid() == 0
    pod_user = ["setpriv", "--reuid=%d" % ctx["runAsUser"], "--regid=%d"
                % ctx["runAsGroup"], "--clear-groups", "--"] if root else []
    d = h.Daemon(config=conf, port=port, wrapper=pod_user)
    try:
        kubelet_write(sec, "pod1", ctx, mode, 1)
        d.write_conf()
        os.chmod(d.tmp, 0o711)
        os.chmod(d.conf, 0o644)
        if root:
            r = h.run_child(["setpriv", "--reuid=%d" % ctx["runAsUser"],
                             "--regid=%d" % (ctx["fsGroup"] - 1),
                             "--clear-groups", "--", h.DAEMON, "-n", "-f",
                             d.conf], timeout=30, text=True)
            check(r.returncode == 1 and re.search(
                r"/tls\.(crt|key): Permission denied$", r.stderr),
                "the Secret's files, read by the pod's user without the "
                "group fsGroup: %r" % r.stderr)
        d.start()
        tls = context()

        def client():
            s = socket.create_connection(("127.0.0.1", port), 5)
            return h.Client(tls.wrap_socket(s, server_hostname=service))
        old = client()
        eq(old.req(h.CLASSIC), h.CLASSIC_SOLUTION, "a puzzle over TLS")
        eq(old.sock.getpeercert()["serialNumber"], cs.serial("pod1"),
           "the Secret's certificate")
        m = http.client.HTTPConnection("127.0.0.1", mport, timeout=5)
        m.request("GET", "/healthz")
        eq(m.getresponse().status, 200, "/healthz, the readiness probe")
        m.close()
        kubelet_write(sec, "pod2", ctx, mode, 2)
        with open(d.log, "rb") as f:
            n = f.read().count(b"configuration reloaded")
        d.proc.send_signal(signal.SIGHUP)
        check(h.wait_for(lambda: open(d.log, "rb").read().count(
            b"configuration reloaded") > n, 10), "no reload\n" + d.log_tail())
        new = client()
        eq(new.sock.getpeercert()["serialNumber"], cs.serial("pod2"),
           "a new connection's certificate, after the Secret's renewal")
        eq(old.req(h.CLASSIC), h.CLASSIC_SOLUTION, "the open connection")
        new.close()
        old.close()
        c.note("run as %s" % ("uid %d gid %d" % (ctx["runAsUser"],
                                                 ctx["runAsGroup"])
                              if root else "this user (not root)"))
    finally:
        d.cleanup()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    try:
        sys.exit(T.run())
    finally:
        certs_cleanup()
