# SPDX-License-Identifier: ISC
"""
TLS and AUTH for the client: the context ``tls=`` stands for, a secret
checked before it is sent (``auth=``, ``auth_file=``), and a failed
handshake said as :class:`TLSError`: which check failed (an unknown CA,
a name the certificate does not name, an expiry) from OpenSSL's verify
result, or that the port speaks no TLS.
"""

import ssl
from typing import Optional, Union

from .errors import (AuthError, Error, InputError, ProtocolError,
                     TLSError)

#: What ``tls=`` takes: False (plaintext), True (a verifying default
#: context), or a context of the caller's, used as it is.
TLS = Union[bool, ssl.SSLContext]

def context(tls: TLS) -> Optional[ssl.SSLContext]:
    """The context of ``tls=``: None for False; for True
    ssl.create_default_context() (the system's CAs, the certificate and
    its name checked), TLS 1.2 at least; a context as it is."""
    if isinstance(tls, ssl.SSLContext):
        return tls
    if tls is True:
        ctx = ssl.create_default_context()
        ctx.minimum_version = ssl.TLSVersion.TLSv1_2
        return ctx
    if tls is False:
        return None
    raise InputError("syntax", "tls is True, False or an ssl.SSLContext, "
                     "not %s" % type(tls).__name__)


def check_secret(secret: object) -> str:
    """A secret AUTH can send: a str of 1 to 256 printable ASCII
    characters, no blank; else InputError (nothing is sent)."""
    if not isinstance(secret, str):
        raise InputError("syntax", "a secret is a str, not %s"
                         % type(secret).__name__)
    if not 1 <= len(secret) <= 256:
        raise InputError("length", "a secret is 1 to 256 characters, "
                         "not %d" % len(secret))
    for i, ch in enumerate(secret):
        if not "!" <= ch <= "~":
            raise InputError("char", "a secret is printable ASCII without "
                             "blanks: character %d is not" % (i + 1))
    return secret


def read_secret(path: str) -> str:
    """The secret in the file at path (one line; its LF, or CR LF, at
    the end is not part of it), checked."""
    try:
        with open(path, "rb") as f:
            data = f.read(1024)
    except OSError as e:
        raise InputError("syntax", "auth_file %s: %s"
                         % (path, e.strerror or e)) from e
    if data.endswith(b"\n"):
        data = data[:-2] if data.endswith(b"\r\n") else data[:-1]
    try:
        return check_secret(data.decode("ascii"))
    except UnicodeDecodeError:
        raise InputError("char", "auth_file %s: not ASCII" % path) from None
    except InputError as e:
        raise InputError(e.code, "auth_file %s: %s" % (path, e.text)) \
            from None


def secret_of(auth: Optional[str], auth_file: Optional[str]) -> \
        Optional[str]:
    """The secret of ``auth=`` or ``auth_file=`` (not both), or None."""
    if auth is not None and auth_file is not None:
        raise InputError("syntax", "auth and auth_file: one, not both")
    if auth_file is not None:
        return read_secret(auth_file)
    return None if auth is None else check_secret(auth)


def handshake_error(what: str, where: str, e: OSError) -> TLSError:
    """The TLSError of e, in the handshake (what: "TLS handshake
    with") or later, with where (the address)."""
    if isinstance(e, ssl.SSLCertVerificationError):
        return TLSError("%s %s: the server's certificate was refused: %s "
                        "(verify code %d)" % (what, where, e.verify_message,
                                              e.verify_code),
                        e.verify_code, e.verify_message)
    reason = getattr(e, "reason", None) or e.strerror or str(e) or \
        type(e).__name__
    if reason == "WRONG_VERSION_NUMBER":
        reason = "no TLS answer (a plaintext port?)"
    elif isinstance(e, ssl.SSLEOFError) or "EOF" in reason:
        reason = "the server closed the connection (it refused our " \
            "certificate, or its absence?)"
    elif "_ALERT_" in reason:
        reason = "the server refused: %s" % reason.lower().replace("_", " ")
    return TLSError("%s %s: %s" % (what, where, reason))


def auth_line(secret: str) -> str:
    """The AUTH request of a secret checked by secret_of()."""
    return "AUTH " + secret


def auth_reply(reply: str) -> None:
    """AUTH's reply: OK, else the AuthError of ERR noauth (the request
    AUTH, never the secret), an Error of ERR syntax (a server without
    AUTH), a ProtocolError of anything else."""
    if reply == "OK":
        return
    code, _, text = reply[4:].partition(" ")
    if reply.startswith("ERR ") and code == "noauth":
        raise AuthError(code, text, "AUTH")
    if reply.startswith("ERR ") and code == "syntax":
        raise Error(code, text, "AUTH")
    raise ProtocolError("unexpected reply to AUTH: %r" % reply[:100])
