"""Copy a whole database into another, of either back end: how a deployment moves from its SQLite
file to PostgreSQL (``python -m bot.storage copy SOURCE TARGET``).

Both are opened as the bot opens them, so both are migrated to the latest schema first. The
target must hold no games, challenges, ratings or settings yet. Every row of every table is
copied, ids included (a button on an old message still names its game), in one transaction of
the target: a copy that fails leaves it as it was. The counts of every table are then compared.
Stop the bot first: a game played during the copy could be missed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .database import Database, StorageError
from .schema import TABLES

#: Rows read and written at a time.
BATCH = 2000


async def _count(database: Database, table: str) -> int:
    (row,) = await database.read(f"SELECT COUNT(*) AS n FROM {table}")
    return row["n"]


async def copy_all(
    source_url: str | Path, target_url: str | Path, *, say: Callable[[str], None] = print
) -> dict[str, int]:
    """Copy every row of ``source_url`` into ``target_url``; the rows copied, by table.

    :raises StorageError: if either cannot be opened, the target is not empty, or the counts differ.
    """
    from . import Store  # the queries' class, which imports this package's modules

    source = await Store.open(source_url)
    try:
        target = await Store.open(target_url)
        try:
            return await _copy(source.database, target.database, say)
        finally:
            await target.close()
    finally:
        await source.close()


async def _copy(source: Database, target: Database, say: Callable[[str], None]) -> dict[str, int]:
    filled = [table for table, _ in TABLES if table != "meta" and await _count(target, table)]
    if filled:
        raise StorageError(
            f"the target {target.label} is not empty ({', '.join(filled)} have rows): copy into a new database"
        )
    copied: dict[str, int] = {}
    async with target.writing() as session:
        for table, order in TABLES:
            columns = sorted(await session.columns(table))
            names = ", ".join(columns)
            marks = ", ".join("?" for _ in columns)
            insert = f"INSERT INTO {table} ({names}) VALUES ({marks})"
            if table == "meta":  # the target's own marks of life and sync make way for the source's
                insert += " ON CONFLICT (key) DO UPDATE SET value = excluded.value"
            copied[table] = 0
            while rows := await source.read(
                f"SELECT {names} FROM {table} ORDER BY {order} LIMIT ? OFFSET ?", (BATCH, copied[table])
            ):
                await session.executemany(insert, [tuple(row[name] for name in columns) for row in rows])
                copied[table] += len(rows)
            say(f"{table}: {copied[table]} rows")
        await session.after_copy()
    for table, _ in TABLES:
        expected, found = await _count(source, table), await _count(target, table)
        if table != "meta" and expected != found:
            raise StorageError(f"the copy of {table} has {found} rows, the source {expected}")
    return copied
