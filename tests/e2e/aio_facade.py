# SPDX-License-Identifier: ISC
"""
aio_facade.py -- a sync face on an asyncio client of python/sudokud, so
that python_cases.py runs its cases on sudokud.asyncio.Client and Pool
as they are: Facade(make) runs make() (the async client) on an event
loop of its own; each method call runs the coroutine to its end, each
*_many gives a generator that takes one value of the async iterator at
a time (and closes it, aclose(), when it is closed: an abandoned
batch); with, close() as the sync client's.
"""

import asyncio


class Facade:
    def __init__(self, make):
        self.loop = asyncio.new_event_loop()
        self.k = self.run(self._make(make))

    async def _make(self, make):
        return make()

    def run(self, coro):
        return self.loop.run_until_complete(coro)

    def __getattr__(self, name):
        attr = getattr(self.k, name)
        if name.endswith("_many"):
            return lambda *a, **kw: self._iterate(attr(*a, **kw))
        if callable(attr):
            return lambda *a, **kw: self.run(attr(*a, **kw))
        return attr

    def _iterate(self, agen):
        try:
            while True:
                try:
                    yield self.run(agen.__anext__())
                except StopAsyncIteration:
                    return
        finally:
            self.run(agen.aclose())

    def close(self):
        if not self.loop.is_closed():
            self.run(self.k.close())
            self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
