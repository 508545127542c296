# SPDX-License-Identifier: ISC
"""
Where a client connects: the address forms sudokuc takes (sudokuc(1),
-H, -s and SUDOKUD_SERVERS), and the URL forms of the Python world.

- ``unix:/path``, ``unix:///path``, or any string with a ``/`` and no
  scheme: a Unix socket;
- ``host:port``, ``host`` (port 7999), ``[v6]:port``, ``tcp:host[:port]``,
  ``sudokud://host[:port]`` or a ``(host, port)`` pair: TCP;
- ``sudokuds://host[:port]``, ``tls://host[:port]`` (sudokuc's) or
  ``tls:host[:port]``: TCP with TLS.
"""

from __future__ import annotations

import os
import socket
from typing import Any, List, NamedTuple, Optional, Sequence, Tuple, Union

from .errors import InputError

#: Where a client connects when given no address: $SUDOKUD_SOCKET (its
#: first entry), else the socket a system install listens on.
DEFAULT_SOCKET = "/run/sudokud.sock"

#: The port of a TCP address that names none (sudokuc's, and that of
#: the examples of sudokud.conf(5)).
DEFAULT_PORT = 7999

#: What an address may be given as.
AddressLike = Union[str, Tuple[str, int]]

# Prefixes: (prefix, TLS or not).
_SCHEMES = (("sudokuds://", True), ("tls://", True), ("tls:", True),
            ("sudokud://", False), ("tcp:", False))


class Address(NamedTuple):
    """A parsed address: the socket family, what connect() takes, TLS
    (True: the address says so; None: it says nothing; False: it says
    plaintext), and the address as messages show it."""
    family: int
    target: Any
    tls: Optional[bool]
    name: str


def _tcp(rest: str, tls: Optional[bool], given: str) -> Address:
    host, port = rest, str(DEFAULT_PORT)
    if rest.startswith("["):
        end = rest.find("]")
        host, tail = rest[1:end], rest[end + 1:]
        if end < 0 or (tail and not tail.startswith(":")):
            raise InputError("syntax", "%r: no ']' after the IPv6 address"
                             % given)
        port = tail[1:] if tail else port
    elif rest.count(":") == 1:
        host, port = rest.split(":")
    elif ":" in rest:
        raise InputError("syntax", "%r: an IPv6 address goes in brackets, "
                         "[::1]:7999" % given)
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise InputError("syntax", "%r is not unix:PATH, a path, HOST[:PORT]"
                         " or one of sudokud://, sudokuds://, tls://" % given)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    name = "[%s]:%s" % (host, port) if ":" in host else "%s:%s" % (host, port)
    return Address(family, (host, int(port)), tls,
                   ("tls://" if tls else "tcp:") + name)


def parse_address(address: Optional[AddressLike]) -> Address:
    """The :class:`Address` of one of the forms above; None is the first
    entry of $SUDOKUD_SOCKET, else DEFAULT_SOCKET.  A bad one raises
    :class:`InputError` (a ValueError), code ``syntax``."""
    if address is None:
        env = os.environ.get("SUDOKUD_SOCKET", "")
        address = env.split(",")[0].strip() or DEFAULT_SOCKET
    if isinstance(address, tuple):
        host, port = address
        return _tcp("[%s]:%d" % (host, port) if ":" in host else
                    "%s:%d" % (host, port), None, str(address))
    if not isinstance(address, str):
        raise InputError("syntax", "an address is a str or a (host, port) "
                         "pair, not %s" % type(address).__name__)
    given = address
    if address.startswith("unix:"):
        path = address[5:]
        if path.startswith("//"):           # unix:///path, a URL
            path = path[2:]
        if not path:
            raise InputError("syntax", "%r: no path" % given)
        return Address(socket.AF_UNIX, path, None, "unix:" + path)
    for prefix, tls in _SCHEMES:
        if address.startswith(prefix):
            return _tcp(address[len(prefix):].rstrip("/"), tls, given)
    if "/" in address:
        return Address(socket.AF_UNIX, address, None, "unix:" + address)
    return _tcp(address, None, given)


def server_list(servers: Union[None, str, Sequence[AddressLike]]) -> \
        List[Address]:
    """The servers of a pool: a list of addresses, or a str of them
    separated by commas (blanks around them and empty entries left
    out), as SUDOKUD_SERVERS; None: $SUDOKUD_SERVERS, else each entry
    of $SUDOKUD_SOCKET, else DEFAULT_SOCKET, as sudokuc looks."""
    if servers is None:
        servers = os.environ.get("SUDOKUD_SERVERS", "").strip()
        if not servers:
            socks = os.environ.get("SUDOKUD_SOCKET", "")
            servers = ["unix:" + s.strip() for s in socks.split(",")
                       if s.strip()] or ["unix:" + DEFAULT_SOCKET]
    if isinstance(servers, str):
        servers = [s.strip() for s in servers.split(",") if s.strip()]
    out = [parse_address(a) for a in servers]
    if not out:
        raise InputError("syntax", "no server")
    return out
