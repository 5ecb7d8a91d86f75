"""A database as an older bot left it, for the stories of a migration."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage import Store

#: An INSERT statement and its parameters.
Row = tuple[str, tuple]


async def database_at(database, monkeypatch, version: int, rows: Sequence[Row]) -> None:
    """``database`` at schema ``version`` (the migrations up to it applied, no later one),
    holding ``rows``: the next ``Store.open`` migrates it as a newer bot would."""
    import bot.storage.database

    monkeypatch.setattr(bot.storage.database, "MIGRATIONS", bot.storage.database.MIGRATIONS[:version])
    store = await Store.open(database)
    try:
        assert await store.schema_version() == version
        async with store.database.writing():
            for sql, params in rows:
                await store.database.step(sql, params)
    finally:
        await store.close()
    monkeypatch.undo()
