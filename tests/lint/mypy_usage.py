# SPDX-License-Identifier: ISC
"""
mypy_usage.py -- what a type checker sees of the Python client's
calls (tests/lint/mypy.sh runs mypy --strict on it; never run): each
assert_type holds only if the overloads give that type, so a method
whose return type with effort=, info= or deadline= went back to Any
(or to a union where the flags fix it) fails the check; the same for
the Pool, and awaited for the asyncio Client and Pool.
"""

from typing import Any, List, Optional, Tuple, Union, assert_type

import sudokud
import sudokud.asyncio
from sudokud import Analysis, Effort, Generated, Hint, Rating, Seeded


def usage(k: sudokud.Client, p: str, flag: bool) -> None:
    assert_type(k.solve(p), str)
    assert_type(k.solve(p, effort=True), Effort[str])
    assert_type(k.solve(p, effort=flag), Union[str, Effort[str]])
    assert_type(k.lexmin(p, budget=10), str)
    assert_type(k.count(p, 5, effort=True), Effort[int])
    assert_type(k.analyze(p), Analysis)
    assert_type(k.solutions(p, 3), List[str])
    assert_type(k.rate(p, effort=True).value, Rating)
    assert_type(k.hint(p), Optional[Hint])
    assert_type(k.generate("hard", 7), str)
    assert_type(k.generate("hard", deadline=0.5), Generated)
    assert_type(k.generate(info=True), Generated)
    assert_type(k.generate(info=True, effort=True), Effort[Generated])
    assert_type(k.shuffle(p), str)
    assert_type(k.shuffle(p, info=True), Seeded)
    assert_type(k.minimize(p, 1, info=True, effort=True), Effort[Seeded])
    assert_type(k.constrain(p), str)
    assert_type(k.canon(p), Tuple[str, int])
    assert_type(k.hello()["budget"], int)
    assert_type(k.hello()["version"], str)
    assert_type(k.stats()["cmd_solve"], Union[int, float, str])


def pool_usage(pool: sudokud.Pool, p: str) -> None:
    assert_type(pool.solve(p), str)
    assert_type(pool.count(p, effort=True), Effort[int])
    assert_type(pool.generate(info=True), Generated)
    for s in pool.solve_many([p]):
        assert_type(s, Any)


async def async_usage(k: sudokud.asyncio.Client, pool: sudokud.asyncio.Pool,
                      p: str, flag: bool) -> None:
    assert_type(await k.solve(p), str)
    assert_type(await k.solve(p, effort=True), Effort[str])
    assert_type(await k.solve(p, effort=flag), Union[str, Effort[str]])
    assert_type(await k.analyze(p), Analysis)
    assert_type(await k.solutions(p, 3), List[str])
    assert_type(await k.hint(p), Optional[Hint])
    assert_type(await k.generate("hard", deadline=0.5), Generated)
    assert_type(await k.shuffle(p, info=True), Seeded)
    assert_type(await k.minimize(p, 1, info=True, effort=True),
                Effort[Seeded])
    assert_type(await k.canon(p), Tuple[str, int])
    assert_type((await k.hello())["budget"], int)
    assert_type(await k.ping(), None)
    assert_type(await pool.rate(p), Rating)
    async for s in pool.solve_many([p]):
        assert_type(s, Any)
