#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
kubernetes.py -- what can be checked of contrib/kubernetes/sudokud.yaml
without a cluster (TAP): it parses as YAML, its ConfigMap's sudokud.conf
passes "sudokud -n" (as the pod's user and group, when run as root,
with a certificate and key made here where the Secret is mounted, the
key readable by the pod's group only, as the kubelet makes it), and the
Deployment's ports, probes, grace period and the Secret's mount agree
with that configuration.  tests/e2e/recipes_tls.py runs it.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

SRCDIR = os.environ.get("top_srcdir") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..")
BUILDDIR = os.environ.get("top_builddir") or "."
MANIFEST = os.path.join(SRCDIR, "contrib", "kubernetes", "sudokud.yaml")
DAEMON = os.path.join(BUILDDIR, "src", "sudokud")

n = 0
failed = 0


def ok(cond, name, diag=""):
    global n, failed
    n += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, name))
    if not cond:
        failed += 1
        for line in str(diag).splitlines():
            print("# " + line)


def main():
    try:
        import yaml
    except ImportError:
        ok(False, "python3-yaml is installed",
           "scripts/install-deps installs python3-yaml")
        return
    with open(MANIFEST) as f:
        docs = [d for d in yaml.safe_load_all(f) if d]
    kinds = {d["kind"]: d for d in docs}
    ok(set(kinds) == {"ConfigMap", "Deployment", "Service",
                      "PodDisruptionBudget"},
       "the manifest holds a ConfigMap, Deployment, Service and PDB",
       sorted(kinds))
    conf = kinds["ConfigMap"]["data"]["sudokud.conf"]

    def key(name):
        m = re.search(r"^\s*%s\s*=\s*(\S+)" % name, conf, re.M)
        return m.group(1) if m else None
    pod = kinds["Deployment"]["spec"]["template"]
    c = pod["spec"]["containers"][0]
    secret_mount(pod, c, key("cert"), key("key"))
    tmp = tempfile.mkdtemp(prefix="kubernetes-lint.")
    try:
        p = check_conf(tmp, conf, pod["spec"]["securityContext"],
                       os.path.dirname(key("key")))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    ok(p.returncode == 0, "its sudokud.conf passes sudokud -n%s" % (
        " as the pod's user" if os.geteuid() == 0 else ""),
       p.stdout + p.stderr)
    port = int(key("tls").rsplit(":", 1)[1])
    mport = int(key("metrics").rsplit(":", 1)[1])
    hport = int(key("http").rsplit(":", 1)[1])
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    ok(ports == {"sudoku": port, "metrics": mport, "http": hport},
       "container ports are the configuration's listeners", ports)
    ok(pod["metadata"]["annotations"]["prometheus.io/port"] == str(mport),
       "the scrape annotation names the metrics port")
    ready, live = c["readinessProbe"]["httpGet"], c["livenessProbe"]["httpGet"]
    ok((ready["path"], ready["port"], live["path"], live["port"]) ==
       ("/healthz", "metrics", "/livez", "metrics"),
       "readiness asks /healthz, liveness /livez, on the metrics port",
       (ready, live))
    stop = int(c["lifecycle"]["preStop"]["exec"]["command"][1])
    grace = pod["spec"]["terminationGracePeriodSeconds"]
    ok(grace > stop + int(key("shutdown_timeout")),
       "the grace period covers preStop and shutdown_timeout",
       "%d <= %d + %s" % (grace, stop, key("shutdown_timeout")))
    svc = kinds["Service"]["spec"]["ports"]
    ok(svc[0]["targetPort"] == "sudoku" and svc[0]["port"] == port,
       "the Service forwards to the sudoku port")
    ok([(p["name"], p["targetPort"]) for p in svc[1:]] == [("http", "http")],
       "the Service exposes the http port (doc/http.md)", svc)
    cpu = c["resources"]["limits"]["cpu"]
    ok(str(cpu) == key("workers"), "workers = the pod's CPU limit",
       "cpu %s, workers %s" % (cpu, key("workers")))


def secret_mount(pod, c, cert, key):
    """The [tls] files are those of a Secret volume mounted read-only,
    the key readable by the owner (root) and the group fsGroup only."""
    vols = {v["name"]: v for v in pod["spec"]["volumes"]}
    mounts = [m for m in c["volumeMounts"]
              if m["mountPath"] == os.path.dirname(key)]
    ok(len(mounts) == 1 and mounts[0].get("readOnly") is True and
       "secret" in vols.get(mounts[0]["name"], {}),
       "[tls] key is in a Secret mounted read-only", mounts)
    secret = vols[mounts[0]["name"]]["secret"] if mounts else {}
    ok(os.path.dirname(cert) == os.path.dirname(key) and
       (os.path.basename(cert), os.path.basename(key)) ==
       ("tls.crt", "tls.key"),
       "[tls] cert and key are the Secret's tls.crt and tls.key "
       "(kubernetes.io/tls)", (cert, key))
    ctx = pod["spec"]["securityContext"]
    ok(secret.get("defaultMode") == 0o440 and
       ctx.get("fsGroup") == ctx.get("runAsGroup") and
       ctx.get("runAsUser") != 0,
       "the Secret's files are 0440, of the pod's group (fsGroup)",
       (secret, ctx))


def check_conf(tmp, conf, ctx, mount):
    """sudokud -n on conf, its Secret's files at tmp/tls as the kubelet
    makes them (root's, of fsGroup, 0440) and, as root, run as the pod's
    runAsUser and runAsGroup."""
    sec = os.path.join(tmp, "tls")
    os.mkdir(sec)
    os.chmod(tmp, 0o755)
    p = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
         "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj",
         "/CN=sudokud.default.svc", "-keyout", os.path.join(sec, "tls.key"),
         "-out", os.path.join(sec, "tls.crt")],
        capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        return p
    preexec = None
    if os.geteuid() == 0:
        uid, gid = ctx["runAsUser"], ctx["runAsGroup"]
        for f in ("tls.crt", "tls.key"):
            os.chown(os.path.join(sec, f), 0, ctx["fsGroup"])
            os.chmod(os.path.join(sec, f), 0o440)

        def preexec():
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid)
    path = os.path.join(tmp, "sudokud.conf")
    with open(path, "w") as f:
        # The page's files are the package's in the image; here, the
        # source tree's.
        f.write(conf.replace(mount + "/", sec + "/") + "[http]\npage_dir = "
                "%s\n" % os.path.abspath(os.path.join(SRCDIR, "www")))
    os.chmod(path, 0o644)
    return subprocess.run([os.path.abspath(DAEMON), "-n", "-f", path],
                          capture_output=True, text=True, timeout=30,
                          preexec_fn=preexec)


if not os.access(DAEMON, os.X_OK):
    print("1..0 # SKIP sudokud not built at " + DAEMON)
    sys.exit(0)
try:
    main()
except Exception as e:      # a broken manifest is a failure, not a crash
    ok(False, "the manifest has the expected shape", repr(e))
print("1..%d" % n)
sys.exit(0)
