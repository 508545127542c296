# SPDX-License-Identifier: ISC
"""
sudokud -- a client for sudokud, the Sudoku-solving service.

    >>> import sudokud
    >>> with sudokud.Client() as c:     # $SUDOKUD_SOCKET, /run/sudokud.sock
    ...     c.solve("53..7....6..195....98....6.8...6...34..8.3..17...2..."
    ...             "6.6....28....419..5....8..79")
    '534678912672195348198342567859761423426853791713924856961537284287419635345286179'

sudokud.Client is one connection, sudokud.Pool many (threads, several
servers, reconnection); sudokud.asyncio has both for asyncio.  See
README.md, and the protocol in sudokud's doc/protocol.md.
"""

from .address import DEFAULT_PORT, DEFAULT_SOCKET, Address, parse_address
from .checks import LEVELS, SYMMETRIES
from .client import Client
from .data import read_puzzles
from .errors import (AuthError, ConnectionError, Error, InputError,
                     ProtocolError, SudokudError, TimeoutError, TLSError)
from .pool import Pool
from .replies import (Action, Analysis, Effort, Generated, Hello, Hint,
                      Path, Rating, Seeded, Value)
from .wire import DEFAULT_WINDOW

__version__ = "0.2.0"
__all__ = ["Action", "Address", "Analysis", "AuthError", "Client",
           "ConnectionError", "DEFAULT_PORT", "DEFAULT_SOCKET",
           "DEFAULT_WINDOW", "Effort", "Error", "Generated", "Hello", "Hint",
           "InputError", "LEVELS", "Path", "Pool", "ProtocolError",
           "Rating", "SYMMETRIES", "Seeded", "SudokudError", "TLSError",
           "TimeoutError", "Value", "parse_address", "read_puzzles"]
