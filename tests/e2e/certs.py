# SPDX-License-Identifier: ISC
"""
certs.py -- certificates made at test time with openssl req and x509, in
a temporary directory (not a test program): a CA, a server for localhost
and 127.0.0.1 (two of them, for a reload), an expired one, one for
another name only (sudokud.example), a client of the CA and one of
another CA.  tls.py (the daemon's TLS listeners), client_tls.py
(sudokuc over TLS) and the others over TLS share them: certs() makes
them once, when first asked, and certs_cleanup() removes them; sign()
makes more, bundle() joins a certificate and its key for HAProxy,
serial() reads a serial number with openssl.
"""

import os
import shutil
import subprocess
import tempfile

from harness import Fail


def openssl(*args):
    p = subprocess.run(["openssl"] + list(args), capture_output=True,
                       text=True, timeout=60)
    if p.returncode != 0:
        raise Fail("openssl %s: %s" % (" ".join(args), p.stderr))


class Certs:
    """A CA and what it signs, in a temporary directory."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="sudokud-tls.")
        self.ca = self.make_ca("ca", "sudokud test CA")
        self.other_ca = self.make_ca("other", "another CA")
        self.server = self.sign("server", "localhost", self.ca,
                                "DNS:localhost,IP:127.0.0.1")
        self.server2 = self.sign("server2", "localhost", self.ca,
                                 "DNS:localhost,IP:127.0.0.1")
        self.expired = self.sign("expired", "localhost", self.ca,
                                 "DNS:localhost,IP:127.0.0.1", days=-1)
        self.elsewhere = self.sign("elsewhere", "sudokud.example", self.ca,
                                   "DNS:sudokud.example")
        self.client = self.sign("client", "alice", self.ca)
        self.bob = self.sign("bob", "bob", self.ca)
        self.stranger = self.sign("stranger", "mallory", self.other_ca)

    def path(self, name):
        return os.path.join(self.dir, name)

    def make_ca(self, name, cn):
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt",
                "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", "/CN=" + cn, "-keyout", self.path(name + ".key"),
                "-out", self.path(name + ".pem"))
        return name

    def sign(self, name, cn, ca, san=None, days=2):
        key, csr = self.path(name + ".key"), self.path(name + ".csr")
        openssl("req", "-newkey", "ec", "-pkeyopt",
                "ec_paramgen_curve:prime256v1", "-nodes", "-subj",
                "/CN=" + cn, "-keyout", key, "-out", csr)
        ext = self.path(name + ".ext")
        with open(ext, "w") as f:
            f.write("subjectAltName=%s\n" % san if san else
                    "extendedKeyUsage=clientAuth\n")
        args = ["x509", "-req", "-in", csr, "-CA", self.path(ca + ".pem"),
                "-CAkey", self.path(ca + ".key"), "-CAcreateserial",
                "-extfile", ext, "-out", self.path(name + ".pem")]
        # -days -1: a certificate that ended a day before it began.
        openssl(*(args + ["-days", str(days)]))
        return name

    def bundle(self, name):
        """name's certificate and key in one PEM file, as HAProxy's crt
        reads them."""
        path = self.path(name + ".bundle.pem")
        if not os.path.exists(path):
            with open(path, "w") as out:
                for ext in (".pem", ".key"):
                    with open(self.path(name + ext)) as f:
                        out.write(f.read())
        return path

    def serial(self, name):
        """name's serial number, as openssl x509 prints it (hex digits)."""
        p = subprocess.run(["openssl", "x509", "-noout", "-serial", "-in",
                            self.path(name + ".pem")], capture_output=True,
                           text=True, timeout=60)
        if p.returncode != 0 or not p.stdout.startswith("serial="):
            raise Fail("openssl x509 -serial: %s" % p.stderr)
        return p.stdout.strip()[len("serial="):]

    def cleanup(self):
        shutil.rmtree(self.dir, ignore_errors=True)


_CERTS = []


def certs():
    """The test's certificates, made when first asked."""
    if not _CERTS:
        _CERTS.append(Certs())
    return _CERTS[0]


def certs_cleanup():
    for c in _CERTS:
        c.cleanup()
    del _CERTS[:]
