"""The start-up integrity check on real files: a database with a damaged page (its header intact)
is refused before anything is written to it, with one line saying how to restore a backup."""

import contextlib
import os
import random
import sqlite3
import subprocess
import sys
from datetime import UTC
from pathlib import Path

import pytest

from bot.storage import MIGRATIONS, StorageError, Store
from bot.storage.__main__ import main as storage_cli
from bot.storage.integrity import backup_path, inspect

ROOT = Path(__file__).resolve().parents[2]
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


def run_bot(database: Path, *prefix: str) -> subprocess.CompletedProcess:
    """``python -m bot`` with a fake token on ``database`` (behind ``prefix``, a command to run it with)."""
    environ = {
        **os.environ,
        "DISCORD_TOKEN": "MTIz.not-a-real-token",
        "DATABASE_PATH": str(database),
        "BACKUP_INTERVAL_HOURS": "0",
    }
    return subprocess.run(
        [*prefix, sys.executable, "-m", "bot"], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60
    )


def the_one_error_line(done: subprocess.CompletedProcess) -> str:
    """The bot stopped with exit code 1 and exactly one line on standard error, no traceback, no token."""
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "not-a-real-token" not in done.stderr + done.stdout
    (line,) = done.stderr.strip().splitlines()
    assert "ERROR" in line
    return line


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
