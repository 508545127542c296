# SPDX-License-Identifier: ISC
"""
sudokud for asyncio: :class:`Client`, one connection that any number
of tasks share, and :class:`Pool`, connections to one server or
several, with reconnection and failover.  Their methods are those of
sudokud.Client, each a coroutine; each ``*_many`` an async iterator.

    import asyncio, sudokud.asyncio

    async def main():
        async with sudokud.asyncio.Client("unix:/run/sudokud.sock") as c:
            print(await c.solve(puzzle))
            async for s in c.solve_many(puzzles):
                ...
"""

from .aioclient import Client
from .aiopool import Pool

__all__ = ["Client", "Pool"]
