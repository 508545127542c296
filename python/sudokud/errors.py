# SPDX-License-Identifier: ISC
"""
The exceptions of the client, one tree under :class:`SudokudError`:

- :class:`ConnectionError` (also the built-in ``ConnectionError``): no
  connection, or the connection went (refused, reset, closed); and
  under it :class:`TLSError`: the TLS handshake failed (the server's
  certificate refused, with OpenSSL's ``verify_code`` and
  ``verify_message``; no TLS on that port; the server refused ours);
- :class:`TimeoutError` (also the built-in ``TimeoutError``): a call
  took longer than the client's ``timeout``;
- :class:`ProtocolError`: the server said something a version 2
  sudokud cannot say (a reply of the wrong shape, a wrong answer, a
  line too long, bytes that are no 7-bit text);
- :class:`Error`: an ``ERR <code> <text>`` reply; and under it
  :class:`InputError` (also the built-in ``ValueError``): an argument
  the client refused before anything was sent, with the code the
  server would have given (``length``, ``char``, ``syntax``); and
  :class:`AuthError`: ``ERR noauth``, a secret refused by AUTH (a wrong
  one, or a server that has none) or a request sent without one to a
  server that needs it.

After a ConnectionError, a TimeoutError or a ProtocolError the
connection is closed (no reply can be read out of step); the next call
connects again.  After an Error the connection stays as it was.
"""

import builtins
from typing import List, Optional


class SudokudError(Exception):
    """Everything the client raises of its own."""


class ConnectionError(SudokudError, builtins.ConnectionError):
    """The connection could not be made, or it went."""


class TLSError(ConnectionError):
    """The TLS handshake failed, or TLS failed after it.  For a server
    certificate the client refused, ``verify_code`` and
    ``verify_message`` are OpenSSL's verify result (10: ``certificate
    has expired``; 20: ``unable to get local issuer certificate``, a CA
    the context does not trust; 62: ``Hostname mismatch``, a name the
    certificate does not name), else None."""

    def __init__(self, message: str, verify_code: Optional[int] = None,
                 verify_message: Optional[str] = None):
        super().__init__(message)
        self.verify_code = verify_code
        self.verify_message = verify_message


class TimeoutError(SudokudError, builtins.TimeoutError):
    """A call took longer than the client's timeout."""


class ProtocolError(SudokudError):
    """The server sent what a version 2 sudokud would not: not a
    sudokud, or a server that lies."""


class Error(SudokudError):
    """An ``ERR <code> <text>`` reply: ``code`` is the stable word
    (``length``, ``nosolution``, ``budget``, ``deadline``, ...),
    ``text`` the words for people, ``request`` the line it answered,
    ``partial`` the lines that came before it in a reply cut short
    (SOLUTIONS: the solutions found before the budget or the deadline
    ran out), else empty."""

    def __init__(self, code: str, text: str, request: str = "",
                 partial: Optional[List[str]] = None):
        super().__init__("%s: %s" % (code, text) if text else code)
        self.code = code
        self.text = text
        self.request = request
        self.partial = partial or []


class InputError(Error, ValueError):
    """An argument refused by the client, nothing sent: ``code`` as the
    server would say it (``length``, ``char`` for a puzzle or grid,
    ``syntax`` for any other argument), ``request`` empty."""

    def __init__(self, code: str, text: str):
        super().__init__(code, text)


class AuthError(Error):
    """``ERR noauth``: AUTH refused the secret (a wrong one, or the
    server has none: its ``auth_file`` is not set), or a request came
    before AUTH to a server that needs it.  ``code`` is ``noauth``; a
    refused AUTH has closed the connection, ``request`` is ``AUTH``
    (never the secret)."""


# Shown as sudokud.Error (not sudokud.errors.Error) in tracebacks: the
# package's names are the ones to catch.
for _cls in (SudokudError, ConnectionError, TLSError, TimeoutError,
             ProtocolError, Error, InputError, AuthError):
    _cls.__module__ = "sudokud"
