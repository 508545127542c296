# SPDX-License-Identifier: ISC
"""
What every client is given, checked once, shared by the sync and asyncio
kinds: where one connection goes and how (:class:`Endpoint`: the
address, the timeouts, TLS and its server name, the AUTH secret), the
same for a pool of them (:class:`PoolSettings`), and the deadlines
calls keep.
"""

from __future__ import annotations

import socket
import ssl
import time
from typing import Optional, Sequence, Union

from .address import AddressLike, parse_address
from .checks import check_size
from .errors import InputError, TimeoutError
from .secure import TLS, context, secret_of
from .servers import Servers


def deadline_in(seconds: Optional[float]) -> Optional[float]:
    """The time.monotonic() seconds from now (None: never)."""
    return None if seconds is None else time.monotonic() + seconds


def seconds_left(deadline: Optional[float], what: str) -> Optional[float]:
    """The seconds left to deadline; TimeoutError(what) when none are."""
    if deadline is None:
        return None
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError(what)
    return left


class Endpoint:
    """Where a client connects, and how: ``where`` (the parsed address),
    ``timeout``, ``connect_timeout``, ``tls`` (the SSLContext, or None),
    ``server_hostname``, and the secret of AUTH."""

    def __init__(self, address: Optional[AddressLike],
                 timeout: Optional[float], connect_timeout: Optional[float],
                 tls: TLS, server_hostname: Optional[str],
                 auth: Optional[str], auth_file: Optional[str]):
        where = parse_address(address)
        if where.tls and tls is False:
            tls = True
        self.where = where
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self.tls = context(tls)
        if server_hostname is None and where.family != socket.AF_UNIX:
            server_hostname = where.target[0]
        if self.tls is not None and self.tls.check_hostname and \
                server_hostname is None:
            raise InputError("syntax", "TLS over a Unix socket needs a "
                             "server_hostname to check")
        self.server_hostname = server_hostname
        self._secret = secret_of(auth, auth_file)

    def _label(self) -> str:
        """The address as repr() shows it: TLS and AUTH said."""
        name = self.where.name
        if self.tls is not None and not self.where.tls:
            name = "tls+" + name
        return name + ("" if self._secret is None else " auth")


class PoolSettings:
    """What a pool is given: its servers (servers.py), size, timeouts,
    and the TLS and AUTH of every connection."""

    def __init__(self, servers: Union[None, str, Sequence[AddressLike]],
                 size: int, timeout: Optional[float],
                 connect_timeout: Optional[float], tls: TLS,
                 server_hostname: Optional[str], auth: Optional[str],
                 auth_file: Optional[str]):
        self.servers = Servers(servers)
        self.size = check_size(size)
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self._context = context(tls)
        self._auto: Optional[ssl.SSLContext] = None     # for sudokuds://
        self._hostname = server_hostname
        self._secret = secret_of(auth, auth_file)

    def _tls_of(self, tls: Optional[bool]) -> TLS:
        """The tls= of a connection to an address that says tls (True:
        sudokuds://, tls://)."""
        if self._context is not None:
            return self._context
        if not tls:
            return False
        if self._auto is None:
            self._auto = context(True)
        return True if self._auto is None else self._auto

    def _label(self) -> str:
        return ", ".join(map(repr, self.servers.all))
