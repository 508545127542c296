# SPDX-License-Identifier: ISC
"""
tls_common.py -- what the tests over TLS share (not a test program): a
daemon with a tls or tls_proxy listener serving certs()' certificates,
a client context trusting their CA, and a verified connection.
"""

import socket
import ssl

import harness as h
from certs import certs


def tls_daemon(server="server", extra="", proxy=False, tcp=False, **opts):
    """A daemon with a tls (or tls_proxy) listener beside its Unix one
    (and a plain TCP one with tcp)."""
    c = certs()
    port = h.free_port()
    kind = "tls_proxy" if proxy else "tls"
    d = h.Daemon(tcp=tcp, extra_conf="[listen]\n%s = 127.0.0.1:%d\n"
                 "[tls]\ncert = %s\nkey = %s\n%s" % (
                     kind, port, c.path(server + ".pem"),
                     c.path(server + ".key"), extra), **opts)
    d.tls_port = port
    d.start()
    return d


def context(cert=None, ca="ca", **kw):
    ctx = ssl.create_default_context(cafile=certs().path(ca + ".pem"))
    if cert is not None:
        ctx.load_cert_chain(certs().path(cert + ".pem"),
                            certs().path(cert + ".key"))
    for k, v in kw.items():
        setattr(ctx, k, v)
    return ctx


def tls_client(d, ctx=None, name="localhost", timeout=5, prefix=b""):
    """A TLS connection to d's TLS port, handshake done (raises if not)."""
    s = socket.create_connection(("127.0.0.1", d.tls_port), timeout)
    if prefix:
        s.sendall(prefix)
    try:
        t = (ctx or context()).wrap_socket(s, server_hostname=name)
    except BaseException:
        s.close()
        raise
    return h.Client(t, timeout)
