"""Backups on real files: consistent copies of a database in use, their rotation, restoring one,
the commands by hand, the bot's own backups, and a game restored to the position of its backup."""

import asyncio
import contextlib
import logging
import os
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from bot.storage import MIGRATIONS, StorageError, Store
from bot.storage.__main__ import main as storage_cli
from bot.storage.backup import back_up, backup_due, copy_database, restore, rotate
from bot.storage.integrity import backup_path, backups_of, inspect
from tests.conftest import make_bot
from tests.helpers import board_code, board_footer, board_words, press, start_game, told
from tests.processes import ROOT

from .databases import damage, database_with_games

T0 = datetime(2026, 11, 23, 21, 0, tzinfo=UTC)


def scalar(path, sql="SELECT count(*) FROM games"):
    """One value read from the database at ``path`` (by default, how many games it holds)."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        return db.execute(sql).fetchone()[0]


@pytest.fixture
async def filled(tmp_path):
    """A database file of 50 finished games."""
    return await database_with_games(tmp_path / "wari.sqlite3", games=50)


@pytest.fixture
def database(database_path):
    """Backups are of a SQLite file: the stories here run on SQLite only."""
    return database_path


async def test_a_backup_of_a_database_in_use_holds_every_commit_in_one_checked_file(filled, tmp_path):
    store = await Store.open(filled)  # the bot is running: its last commits are still in the -wal
    await store.set_meta("last", "before the backup")
    made = copy_database(filled, tmp_path / "copy.sqlite3")
    await store.set_meta("last", "after the backup")
    await store.close()
    assert made.path == tmp_path / "copy.sqlite3" and made.size == made.path.stat().st_size
    assert scalar(made.path, "SELECT value FROM meta WHERE key = 'last'") == "before the backup"
    assert scalar(made.path) == 50 and inspect(made.path).ok
    with contextlib.closing(sqlite3.connect(made.path)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one file, no -wal to carry along
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.sqlite3", "wari.sqlite3"]


async def test_a_backup_made_while_the_bot_writes_is_one_moment_of_it(filled, tmp_path):
    store = await Store.open(filled)
    writes = asyncio.gather(*(store.set_meta(f"key{n}", "x") for n in range(200)))
    made, _ = await back_up(filled, T0, keep=7)
    await writes
    await store.close()
    with contextlib.closing(sqlite3.connect(made.path)) as db:
        keys = {key for (key,) in db.execute("SELECT key FROM meta WHERE key LIKE 'key%'")}
    assert keys == {f"key{n}" for n in range(len(keys))}  # the commits in order up to one moment, none after
    assert inspect(made.path).ok
    assert made.path == tmp_path / "backups" / "wari-20261123T210000Z.sqlite3"


async def test_a_damaged_database_is_never_passed_off_as_a_backup(filled, tmp_path):
    damage(filled)
    target = tmp_path / "backups" / "copy.sqlite3"
    with pytest.raises(
        StorageError, match=rf"cannot copy the database {filled} to {target}: the copy fails quick_check"
    ):
        copy_database(filled, target)
    assert list(target.parent.iterdir()) == []  # neither the copy nor its partial file


async def test_rotation_keeps_the_newest_backups_and_nothing_else_is_touched(filled):
    for hours in range(5):  # 21:00 to 01:00
        await back_up(filled, T0 + timedelta(hours=hours), keep=3)
    other = backup_path(filled, T0).with_name("notes.txt")
    other.write_text("mine")
    newest = [backup_path(filled, T0 + timedelta(hours=hours)) for hours in (2, 3, 4)]
    assert backups_of(filled) == newest
    assert rotate(filled, 1) == newest[:2]  # the deleted, oldest first
    assert backups_of(filled) == newest[2:] and other.read_text() == "mine"


async def test_a_backup_is_due_when_the_newest_is_an_interval_old(filled):
    day = timedelta(hours=24)
    assert backup_due(filled, T0, day)  # none yet
    await back_up(filled, T0, keep=7)
    assert not backup_due(filled, T0 + timedelta(hours=23), day)  # e.g. after a restart: not again
    assert backup_due(filled, T0 + timedelta(hours=23, minutes=31), day, slack=timedelta(minutes=30))
    assert backup_due(filled, T0 + day, day)


async def test_a_restore_keeps_the_replaced_database_and_its_wal_aside(filled, tmp_path):
    backup = copy_database(filled, tmp_path / "backup.sqlite3").path
    store = await Store.open(filled)
    await store.set_meta("later", "yes")  # in the -wal only, while the store is open
    aside = restore(backup, filled)
    assert aside == tmp_path / "wari.sqlite3.before-restore"
    assert not (tmp_path / "wari.sqlite3-wal").exists()  # a stale -wal would be applied to the restored file
    assert scalar(aside, "SELECT value FROM meta WHERE key = 'later'") == "yes"  # with its -wal, whole
    await store.close()
    restored = await Store.open(filled)
    assert await restored.get_meta("later") is None and scalar(filled) == 50
    await restored.close()


@pytest.mark.parametrize("problem", ["damaged", "newer", "missing"])
async def test_an_unusable_backup_is_refused_and_the_database_left_alone(filled, tmp_path, problem):
    backup = copy_database(filled, tmp_path / "backup.sqlite3").path
    if problem == "damaged":
        damage(backup)
    elif problem == "newer":
        with contextlib.closing(sqlite3.connect(backup)) as db:
            db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    else:
        backup.unlink()
    before = filled.read_bytes()
    message = {
        "damaged": "is damaged .*: pick another",
        "newer": "is newer than this bot knows",
        "missing": "there is no backup file",
    }
    with pytest.raises(StorageError, match=message[problem]):
        restore(backup, filled)
    assert filled.read_bytes() == before and not (tmp_path / "wari.sqlite3.before-restore").exists()


async def test_a_second_restore_does_not_overwrite_the_file_kept_aside(filled, tmp_path):
    backup = copy_database(filled, tmp_path / "backup.sqlite3").path
    restore(backup, filled)
    with pytest.raises(
        StorageError, match="wari.sqlite3.before-restore is left from an earlier restore: move it away first"
    ):
        restore(backup, filled)


async def test_the_commands_by_hand(filled, capsys):
    assert storage_cli(["--database", str(filled), "backup"]) == 0
    (made,) = backups_of(filled)
    assert capsys.readouterr().out.startswith(f"backed up {filled} to {made} (")
    assert storage_cli(["--database", str(filled), "restore", str(made)]) == 0
    assert (
        capsys.readouterr().out
        == f"restored {filled} from {made}; the database it replaced is kept as {filled}.before-restore\n"
    )
    assert storage_cli(["--database", str(filled), "restore", str(made)]) == 1
    assert capsys.readouterr().err.startswith("python -m bot.storage: ")


async def test_python_m_bot_storage_backs_up_a_database_another_process_is_writing(filled, tmp_path):
    store = await Store.open(filled)
    await store.set_meta("in the wal", "yes")
    environ = {**os.environ, "DATABASE_PATH": str(filled)}
    target = tmp_path / "elsewhere" / "copy.sqlite3"
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "bot.storage", "backup", str(target)],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )
    await store.close()
    assert done.returncode == 0 and done.stderr == "" and done.stdout.startswith(f"backed up {filled} to {target} (")
    assert scalar(target, "SELECT value FROM meta WHERE key = 'in the wal'") == "yes"


# -- through the bot -------------------------------------------------------------------------


async def test_the_bot_backs_up_on_its_own_and_keeps_the_newest(world, caplog):
    every = timedelta(minutes=2)
    (world.database.parent / "backups").write_text("a file where the folder should be")
    with caplog.at_level(logging.INFO, logger="bot.client"):
        await world.env.restart_bot(make_bot(world.database, backup_every=every, backup_keep=2))
        (warning,) = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert (
            warning.startswith("the automatic backup failed (StorageError: cannot copy the database")
            and "trying again in 0:02:00" in warning
        )
        (world.database.parent / "backups").unlink()
        started = world.env.now()
        for _ in range(3):
            await world.env.advance_time(every.total_seconds())
    times = [path.name for path in backups_of(world.database)]
    assert times == [backup_path(world.database, started + n * every).name for n in (2, 3)]
    assert all(inspect(path).ok for path in backups_of(world.database))


async def test_a_game_restored_from_a_backup_taken_mid_game_goes_on_from_there(world, tmp_path):
    board = await start_game(world)
    await press(world.alice, board, 5)
    await press(world.bob, board, 7)
    await world.env.advance_time(30)  # the sweep notes which move the board shows (a backup keeps that too)
    at_backup = board_code(board)
    backup = tmp_path / "mid-game.sqlite3"
    assert await asyncio.to_thread(storage_cli, ["--database", str(world.database), "backup", str(backup)]) == 0
    await press(world.alice, board, 2)
    await press(world.bob, board, 12)
    assert board_code(board) != at_backup
    await world.env.bot.store.close()  # the bot stops (its database is closed), then the restore
    assert await asyncio.to_thread(storage_cli, ["--database", str(world.database), "restore", str(backup)]) == 0
    await world.restart()
    stale = await press(world.alice, board, 1)  # the board still shows the moves the backup does not hold
    assert board_code(board) == at_backup and "current position" in told(stale)[0].content
    await press(world.alice, board, 2)  # the buttons work from the backup's position
    assert "**Last move:** `A(2,4)`" in board_words(board) and board_footer(board) == "Move 3"
