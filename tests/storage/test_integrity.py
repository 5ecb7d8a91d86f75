"""The start-up integrity check on real files: a database with a damaged page (its header intact)
is refused before anything is written to it, with one line saying how to restore a backup."""

import contextlib
import sqlite3
from datetime import UTC
from pathlib import Path

import pytest

from bot.storage import MIGRATIONS, StorageError, Store
from bot.storage.__main__ import main as storage_cli
from bot.storage.integrity import backup_path, inspect
from tests.processes import run_bot, the_one_error_line

from .databases import damage, database_with_games


def beside(path: Path) -> set[str]:
    """The files in the database's folder (a -wal or -shm would show a write or a WAL switch)."""
    return {entry.name for entry in path.parent.iterdir()}


@pytest.fixture
async def damaged(tmp_path) -> Path:
    path = await database_with_games(tmp_path / "wari.sqlite3")
    damage(path)
    return path


async def test_a_healthy_database_passes_the_check(tmp_path):
    health = inspect(await database_with_games(tmp_path / "wari.sqlite3"))
    assert health.ok and health.problems == () and health.schema_version == len(MIGRATIONS)


async def test_a_damaged_page_is_found_by_the_check(damaged):
    with contextlib.closing(sqlite3.connect(damaged)) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS),)  # the header reads fine
    health = inspect(damaged)
    assert not health.ok and health.problems == ("database disk image is malformed",)


async def test_a_damaged_database_is_refused_before_anything_is_written(damaged):
    before, files = damaged.read_bytes(), beside(damaged)
    with pytest.raises(
        StorageError,
        match=rf"the database {damaged} is damaged \(quick_check: database disk image is malformed\); "
        r"nothing was written to it: ",
    ):
        await Store.open(damaged)
    assert damaged.read_bytes() == before  # not even the switch to WAL (bytes 18-19 of the header)
    assert beside(damaged) == files == {"wari.sqlite3"}


async def test_the_refusal_names_the_latest_backup_and_the_command_that_restores_it(damaged):
    from datetime import datetime

    older, newer = (backup_path(damaged, datetime(2026, 11, day, tzinfo=UTC)) for day in (20, 21))
    older.parent.mkdir()
    for backup in (newer, older):
        backup.write_bytes(b"")
    with pytest.raises(StorageError) as refused:
        await Store.open(damaged)
    assert str(refused.value).endswith(
        f"stop the bot and restore the latest backup from {damaged.parent / 'backups'}: "
        f"python -m bot.storage restore {newer}"
    )


async def test_without_a_backup_the_refusal_says_so(damaged):
    with pytest.raises(
        StorageError, match=rf"there is no backup in {damaged.parent / 'backups'}: .*move the file away"
    ):
        await Store.open(damaged)


async def test_python_m_bot_stops_on_a_damaged_database_with_one_line(damaged):
    line = the_one_error_line(run_bot(damaged))
    assert f"the database {damaged} is damaged" in line and "python -m bot.storage restore" in line


async def test_the_check_by_hand(damaged, capsys):
    assert storage_cli(["--database", str(damaged), "check"]) == 1
    err = capsys.readouterr().err
    assert f"damaged: {damaged} fails quick_check: " in err and "there is no backup in" in err
    healthy = await database_with_games(damaged.parent / "healthy.sqlite3")
    assert storage_cli(["--database", str(healthy), "check", "--full"]) == 0
    assert capsys.readouterr().out.startswith(f"ok: {healthy} (")
    assert storage_cli(["--database", str(damaged.parent / "missing.sqlite3"), "check"]) == 1
    assert "there is no database at" in capsys.readouterr().err
