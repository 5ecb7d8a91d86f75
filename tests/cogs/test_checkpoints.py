"""SQLite's write-ahead log is copied into the database file by the sweep, never by a press: no
press waits for a checkpoint (every few hundred presses one did, some milliseconds longer)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from bot.storage import Store
from bot.storage.sqlite import LOG_PAGES_AT_MOST
from cogs.wari.clocks import SWEEP_SECONDS
from tests.helpers import press, start_game, status_line


@pytest.fixture
def database(database_path):
    """SQLite only: PostgreSQL checkpoints by itself."""
    return database_path


def file_digest(path: Path) -> str:
    """The database file's own bytes (not its log's)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def test_presses_leave_their_moves_in_the_log_and_the_sweep_copies_them_into_the_file(world):
    board = await start_game(world)
    await world.env.advance_time(SWEEP_SECONDS)  # whatever starting the game left in the log
    before = file_digest(world.database)

    for member, house in ((world.alice, 5), (world.bob, 8), (world.alice, 3), (world.bob, 10)):
        await press(member, board, house)
    assert "alice" in status_line(board)  # the moves were played and shown, from the log

    await world.env.advance_time(SWEEP_SECONDS)
    assert file_digest(world.database) != before  # the sweep did

    await press(world.alice, board, 2)  # and the game plays on
    assert "bob" in status_line(board)


async def test_writes_past_a_thousand_pages_leave_the_file_alone_and_a_checkpoint_copies_the_whole_log(database_path):
    store = await Store.open(database_path)
    try:
        (row,) = await store.database.write_one("PRAGMA wal_autocheckpoint")
        assert row[0] == LOG_PAGES_AT_MOST  # only past this does a write copy the log itself
        await store.database.checkpoint()
        before = file_digest(database_path)
        for key in range(600):  # some 1,200 pages: SQLite's own threshold is 1,000
            await store.database.set_meta(f"key-{key}", "x" * 6000)
        assert file_digest(database_path) == before  # no write copied the log into the file

        pages, copied = await store.database.checkpoint()
        assert pages > 1000 and copied == pages
        assert file_digest(database_path) != before
        assert await store.get_meta("key-599") == "x" * 6000
    finally:
        await store.close()
