"""Databases for the storage tests: one holding many archived games, and the damage a disk can do."""

from __future__ import annotations

import contextlib
import random
import sqlite3
from pathlib import Path

from bot.storage import Store

#: Server ids on shards 0 and 1 of 2 (Discord puts a server on shard ``(id >> 22) % count``).
SHARD_0, SHARD_1 = 2 << 22, 3 << 22
#: A record of the length of a real game's (about 60 moves), so the games span many pages.
RECORD = "[Format wari-record/1]\n" + " ".join(f"A({1 + n % 6},{n % 9})" for n in range(60))


async def database_with_games(path: Path, games: int = 200) -> Path:
    """A database as the bot leaves it (WAL mode, latest schema, closed) holding ``games`` archived games."""
    store = await Store.open(path)
    await store.close()
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.executemany(
            "INSERT INTO games (guild_id, channel_id, player_a, player_b, variant, record, status, result, created_at,"
            " updated_at, finished_at) VALUES (1, ?, 100, 200, 'wari', ?, 'finished', 'A',"
            " '2026-01-01', '2026-01-01', '2026-01-01')",
            [(n, RECORD) for n in range(games)],
        )
    return path


def damage(path: Path, table: str = "games") -> None:
    """Overwrite the root page of ``table``'s b-tree with garbage, in the middle of the file:
    the header (page 1) stays intact, so SQLite opens the file without complaint."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()
        (page_size,) = db.execute("PRAGMA page_size").fetchone()
    assert root > 1 and path.stat().st_size > root * page_size  # neither the header nor the last page
    with path.open("r+b") as file:
        file.seek((root - 1) * page_size)
        file.write(random.Random(root).randbytes(page_size))
