#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""
kubernetes.py -- what can be checked of contrib/kubernetes/sudokud.yaml
without a cluster (TAP): it parses as YAML, its ConfigMap's sudokud.conf
passes "sudokud -n", and the Deployment's ports, probes and grace period
agree with that configuration.
"""

import os
import re
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
    with tempfile.NamedTemporaryFile("w", suffix=".conf") as f:
        # The page's files are the package's in the image; here, the
        # source tree's.
        f.write(conf + "[http]\npage_dir = %s\n"
                % os.path.join(SRCDIR, "www"))
        f.flush()
        p = subprocess.run([DAEMON, "-n", "-f", f.name],
                           capture_output=True, text=True, timeout=30)
    ok(p.returncode == 0, "its sudokud.conf passes sudokud -n",
       p.stdout + p.stderr)

    def key(name):
        m = re.search(r"^\s*%s\s*=\s*(\S+)" % name, conf, re.M)
        return m.group(1) if m else None
    port = int(key("tcp").rsplit(":", 1)[1])
    mport = int(key("metrics").rsplit(":", 1)[1])
    hport = int(key("http").rsplit(":", 1)[1])
    pod = kinds["Deployment"]["spec"]["template"]
    c = pod["spec"]["containers"][0]
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


if not os.access(DAEMON, os.X_OK):
    print("1..0 # SKIP sudokud not built at " + DAEMON)
    sys.exit(0)
try:
    main()
except Exception as e:      # a broken manifest is a failure, not a crash
    ok(False, "the manifest has the expected shape", repr(e))
print("1..%d" % n)
sys.exit(0)
