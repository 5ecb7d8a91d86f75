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
    assert "alice" in status_line(board)  # the moves were played and shown
    assert file_digest(world.database) == before  # ...from the log: no press copied it into the file

    await world.env.advance_time(SWEEP_SECONDS)
    assert file_digest(world.database) != before  # the sweep did

    await press(world.alice, board, 2)  # and the game plays on
    assert "bob" in status_line(board)


async def test_the_writer_leaves_the_log_to_the_sweep_and_a_checkpoint_copies_all_of_it(database_path):
    store = await Store.open(database_path)
    try:
        (row,) = await store.database.write_one("PRAGMA wal_autocheckpoint")
        assert row[0] == LOG_PAGES_AT_MOST  # only past this does a write copy the log itself
        for key in range(50):
            await store.database.set_meta(f"key-{key}", "x" * 2000)
        pages, copied = await store.database.checkpoint()
        assert pages > 50 and copied == pages
    finally:
        await store.close()
