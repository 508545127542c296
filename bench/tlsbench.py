# SPDX-License-Identifier: ISC
"""
tlsbench.py -- what bench/tls-idle.py and bench/flood.py share (and
bench/solve-ir.py its free port): a free port, a self-signed EC P-256 certificate for localhost and 127.0.0.1
made with openssl, and a daemon started on a configuration and waited
for.  Not a program.
"""

import socket
import subprocess
import time


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def certificate(tmp):
    """tmp/c.pem and tmp/k.pem: a certificate its clients trust as CA."""
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                    "-subj", "/CN=localhost", "-addext",
                    "subjectAltName=DNS:localhost,IP:127.0.0.1",
                    "-keyout", tmp + "/k.pem", "-out", tmp + "/c.pem"],
                   check=True, capture_output=True)
    return tmp + "/c.pem", tmp + "/k.pem"


def start(exe, conf, text, port):
    """exe -f conf, conf holding text, once it accepts on TCP port."""
    with open(conf, "w") as f:
        f.write(text)
    p = subprocess.Popen([exe, "-f", conf], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), 1).close()
            break
        except OSError:
            time.sleep(0.05)
    return p
