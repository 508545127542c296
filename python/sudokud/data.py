# SPDX-License-Identifier: ISC
"""
Puzzles from a file, as sudokud's data/ files hold them (data/README.md):
one puzzle a line, comment lines starting with ``#``, CRLF or LF line
ends, maybe an empty last line.
"""

import os
from typing import List, Union


def read_puzzles(path: Union[str, "os.PathLike[str]"]) -> List[str]:
    """The puzzles of the file at path, in order: each line without its
    line end and the blanks around it, but the empty ones and those
    starting with ``#``.  A line is not checked here: the client checks
    each puzzle before it sends it (InputError)."""
    with open(path, encoding="ascii", errors="replace", newline="") as f:
        return [s for s in (ln.strip() for ln in f)
                if s and not s.startswith("#")]
