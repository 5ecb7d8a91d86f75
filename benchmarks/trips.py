"""Counting the database's round trips, as the drivers make them: every statement a connection
sends and waits for (its ``BEGIN`` and ``COMMIT`` too), on SQLite (:mod:`aiosqlite`) and on
PostgreSQL (:mod:`asyncpg`), whichever part of the bot sends it.

:func:`install` wraps, for the whole process, the methods of the two drivers' connections that
send SQL (:data:`SQLITE_CALLS`, :data:`POSTGRES_CALLS`); each call is one trip (:func:`count`). A
transaction of ``asyncpg`` sends its ``BEGIN`` and ``COMMIT`` through the connection's
``execute``, so they count as the trips they are; each call of ``aiosqlite``'s is a trip to the
connection's thread and back. Read by the trip test (``tests/cogs/test_press_trips.py``) and by
the benchmarks' press timing (:mod:`benchmarks.press_timing`), which notes the count at a press's
answer.
"""

from __future__ import annotations

import functools
from typing import Any

import aiosqlite
import asyncpg

#: The methods of an ``aiosqlite`` connection that run SQL.
SQLITE_CALLS = ("execute", "execute_fetchall", "executemany", "executescript")
#: The methods of an ``asyncpg`` connection that send SQL and wait for its answer (none of them
#: calls another of them: ``fetchval`` and ``fetchrow`` go to the protocol directly).
POSTGRES_CALLS = ("execute", "executemany", "fetch", "fetchval", "fetchrow", "fetchmany")

#: The trips made since :func:`install` (one cell, so that the wrappers add to it).
_made = [0]


def _counted(call: Any) -> Any:
    @functools.wraps(call)
    async def counting(*args: Any, **kwargs: Any) -> Any:
        _made[0] += 1
        return await call(*args, **kwargs)

    counting.wari_counted = True  # type: ignore[attr-defined]
    return counting


def install() -> None:
    """Count every statement the two drivers send from now on (idempotent)."""
    for cls, names in ((aiosqlite.Connection, SQLITE_CALLS), (asyncpg.connection.Connection, POSTGRES_CALLS)):
        for name in names:
            call = getattr(cls, name)
            if not getattr(call, "wari_counted", False):
                setattr(cls, name, _counted(call))


def count() -> int:
    """The trips made so far in this process (after :func:`install`): take differences."""
    return _made[0]
