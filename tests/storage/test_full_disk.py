"""A full disk: the bot's database on a small tmpfs that a filler file fills up.

Every write then fails inside SQLite (``SQLITE_FULL``, "database or disk is full"): a press and
the commands that write get a clear private answer and change nothing, the file stays whole
(``PRAGMA integrity_check``), and once the filler is deleted the next press plays, without a
restart. The automatic backups into a full folder say so once in the log, not at every turn.

The tmpfs is mounted for the test and unmounted after it, even when it fails. Mounting needs
root: elsewhere these tests are skipped, except in CI (``CI`` set), which runs as root.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.storage import StorageError, Store
from bot.storage.backup import AutomaticBackups
from bot.storage.integrity import backup_folder, backup_path, backups_of, inspect
from bot.storage.sqlite import StorageFull
from cogs.wari.clocks import SWEEP_SECONDS
from tests.conftest import _BOTS, close_bot, make_bot
from tests.helpers import (
    board_code,
    board_footer,
    buttons,
    enabled_houses,
    press,
    shown,
    start_game,
    status_line,
    stored,
    told,
)

from .databases import database_with_games

#: The size of the disk: room for the database, its -wal and -shm, and a few backups.
DISK_SIZE = "4m"


@contextlib.contextmanager
def tmpfs(folder: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``folder`` while the block runs, unmounted after it whatever
    happened. Skips the test where mounting is not allowed (not root); in CI, fails it."""
    folder.mkdir(parents=True, exist_ok=True)
    command = ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(folder)]
    done = subprocess.run(command, capture_output=True, text=True) if shutil.which("mount") else None
    if done is None or done.returncode != 0:
        why = done.stderr.strip() if done is not None else "no mount command"
        reason = f"cannot mount a small disk (a tmpfs) here, which needs root: {why}"
        if os.environ.get("CI"):  # CI runs as root: the full disk must be tried there
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    try:
        yield folder
    finally:
        # Lazily if something still holds a file there: it is gone from the tree at once, freed when released.
        if subprocess.run(["umount", str(folder)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "--lazy", str(folder)], check=True)
        folder.rmdir()


@pytest.fixture
async def disk(tmp_path):
    """The bot's disk: a small tmpfs of its own, for the database."""
    with tmpfs(tmp_path / "disk", DISK_SIZE) as folder:
        try:
            yield folder
        finally:
            while _BOTS:  # their database connections hold files on the disk: close them first
                await close_bot(_BOTS[-1])


def fill(folder: Path, name: str = "filler") -> Path:
    """Write a filler file in ``folder`` until its disk has not one byte left."""
    filler = folder / name
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        for chunk in (1 << 20, 1 << 16, 1 << 12, 1 << 8, 1):
            block = bytes(chunk)
            while True:
                try:
                    os.write(fd, block)
                except OSError as exc:
                    if exc.errno != errno.ENOSPC:
                        raise
                    break
    finally:
        os.close(fd)
    assert os.statvfs(folder).f_bavail == 0
    return filler


def empty_the_log(path: Path) -> None:
    """Copy the database's write-ahead log into its file and empty it, from a connection of its own:
    the next write then needs room on the disk. (A log already copied by the sweep's checkpoint is
    written over from its start, in room it already has: a full disk would not stop a small write.)"""
    with contextlib.closing(sqlite3.connect(path)) as db:
        busy, _pages, _copied = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    assert busy == 0 and path.with_name(path.name + "-wal").stat().st_size == 0


def integrity(path: Path) -> list[str]:
    """What ``PRAGMA integrity_check`` says of the database at ``path``, read from a connection of its own."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return [row[0] for row in db.execute("PRAGMA integrity_check")]


@pytest.fixture
def database_path(disk):
    return disk / "wari.sqlite3"


@pytest.fixture
def database(database_path):
    """A full disk is a SQLite story (a PostgreSQL server's disk is its own)."""
    return database_path


#: The answer to a write that found the disk full.
FULL = "My storage is full, so nothing was changed. Please try again later."


async def test_a_full_disk_refuses_writes_clearly_keeps_the_file_whole_and_recovers_once_space_is_freed(
    world, disk, caplog
):
    board = await start_game(world)
    await press(world.alice, board, 3)
    await press(world.bob, board, 9)
    before, houses, record = board_code(board), enabled_houses(board), await stored(world, "record")
    other = world.guild.create_text_channel("more-games")
    challenge = (await world.carol.slash(other, "wari challenge", opponent=world.mod, first="me")).response
    empty_the_log(world.database)
    filler = fill(disk)

    pressed = await press(world.alice, board, houses[0])
    assert pressed.acknowledged and [(m.content, m.ephemeral) for m in told(pressed)] == [(FULL, True)]
    assert board_code(board) == before and board_footer(board) == "Move 2"
    assert await stored(world, "record") == record  # nothing of the move was kept
    accepted = await world.mod.click(challenge, label="Accept")
    assert [(m.content, m.ephemeral) for m in told(accepted)] == [(FULL, True)]
    assert "Accept" in [button["label"] for button in buttons(challenge)]  # still open, to accept later
    elsewhere = world.guild.create_text_channel("elsewhere")
    challenged = await world.carol.slash(elsewhere, "wari challenge", opponent=world.bob)
    assert (challenged.response.content, challenged.ephemeral) == (FULL, True)
    assert [m for m in elsewhere.history() if not m.flags.ephemeral] == []
    chosen = await world.carol.slash(world.channel, "wari settings", language="fr")
    assert (chosen.response.content, chosen.ephemeral) == (FULL, True)
    logged = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert logged and all("its disk is full (database or disk is full)" in r.getMessage() for r in logged)
    assert not any(r.exc_info for r in caplog.records)  # a full disk is no bug: no traceback
    assert integrity(world.database) == ["ok"]

    filler.unlink()  # space is freed: no restart, the next press plays
    played = await press(world.alice, board, houses[0])
    assert told(played) == [] and board_footer(board) == "Move 3" and board_code(board) != before
    await world.mod.click(challenge, label="Accept")
    assert status_line(challenge).startswith(f"**{shown(world.carol)}**, your move")
    chosen = await world.carol.slash(world.channel, "wari settings", language="fr")
    assert chosen.response.content != FULL
    assert integrity(world.database) == ["ok"]


async def test_each_kind_of_write_on_a_full_disk_is_storage_full_and_the_same_connection_writes_once_space_is_freed(
    disk,
):
    store = await Store.open(disk / "wari.sqlite3")
    try:
        await store.set_meta("before", "kept")
        filler = fill(disk)
        full = rf"cannot write to the database {disk}/wari.sqlite3: its disk is full \(database or disk is full\)"
        with pytest.raises(StorageFull, match=full):
            await store.set_meta("in a transaction", "x" * 5000)  # it is the commit that finds no room
        with pytest.raises(StorageFull, match=full):
            await store.database.write_one("INSERT INTO meta (key, value) VALUES ('alone', ?)", ("x" * 5000,))
        assert integrity(disk / "wari.sqlite3") == ["ok"]
        filler.unlink()
        await store.set_meta("in a transaction", "yes")
        await store.database.write_one("INSERT INTO meta (key, value) VALUES ('alone', 'yes')")
        assert [await store.get_meta(key) for key in ("before", "in a transaction", "alone")] == ["kept", "yes", "yes"]
    finally:
        await store.close()
    assert integrity(disk / "wari.sqlite3") == ["ok"]


async def test_a_start_on_a_full_disk_says_to_free_space_and_the_file_opens_whole_once_there_is_some(disk):
    path = disk / "wari.sqlite3"
    store = await Store.open(path)
    await store.set_meta("before", "kept")
    await store.close()  # a stop: the -wal and -shm files go, and the next start must make them
    before = path.read_bytes()
    filler = fill(disk)
    with pytest.raises(StorageError) as refused:
        await Store.open(path)
    assert str(refused.value).startswith(f"cannot use the database {path}: ")
    assert str(refused.value).endswith("(its disk is full: free some space, then start the bot again)")
    assert "backup" not in str(refused.value) and "move the file away" not in str(refused.value)
    assert path.read_bytes() == before  # untouched (nothing can read it until there is room for its -shm)
    filler.unlink()
    assert integrity(path) == ["ok"]
    store = await Store.open(path)
    try:
        assert await store.get_meta("before") == "kept"
        await store.set_meta("after", "yes")
    finally:
        await store.close()
    assert integrity(path) == ["ok"]


# -- the automatic backups -------------------------------------------------------------------

T0 = datetime(2026, 11, 23, 21, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


@pytest.fixture
async def backups(tmp_path):
    """A database of 50 games on the ordinary disk, its backup folder a small tmpfs of its own."""
    database = await database_with_games(tmp_path / "wari.sqlite3", games=50)
    with tmpfs(backup_folder(database), "1m") as folder:
        yield AutomaticBackups(database, every=HOUR, keep=3, check=HOUR), folder


def said(caplog) -> list[tuple[str, str]]:
    """What the automatic backups logged, at info and above: (level, line)."""
    return [
        (r.levelname, r.getMessage()) for r in caplog.records if r.name == "bot.storage" and r.levelno >= logging.INFO
    ]


async def test_backups_failing_for_lack_of_space_say_so_once_and_once_more_when_they_work_again(backups, caplog):
    automatic, folder = backups
    filler = fill(folder)
    with caplog.at_level(logging.INFO, logger="bot.storage"):
        for turn in range(4):  # four hours of a full folder: the bot plays on
            assert await automatic.turn(T0 + turn * HOUR) is None
        assert sorted(path.name for path in folder.iterdir()) == ["filler"]  # no partial copy left behind
        ((level, line),) = said(caplog)
        assert level == "WARNING" and line.startswith("the automatic backup failed for lack of space (cannot copy")
        assert "database or disk is full" in line and "trying again every 1:00:00" in line
        caplog.clear()

        filler.unlink()
        made = await automatic.turn(T0 + 4 * HOUR)
        assert made is not None and backups_of(automatic.database) == [made.path] and inspect(made.path).ok
        again, backed_up = said(caplog)
        assert again == ("INFO", "the automatic backups work again (4 failed since 2026-11-23T21:00:00+00:00)")
        assert backed_up[0] == "INFO" and backed_up[1].startswith(f"backed up the database to {made.path} (")
        caplog.clear()

        fill(folder, "another filler")  # full again later: a new run of failures, said again, once
        for turn in range(5, 8):
            assert await automatic.turn(T0 + turn * HOUR) is None
        assert [level for level, _ in said(caplog)] == ["WARNING"]
        assert backups_of(automatic.database) == [made.path]  # the backup made meanwhile is kept


async def test_other_failures_of_the_backups_are_still_said_at_every_turn(backups, caplog):
    automatic, folder = backups
    for turn in range(2):  # a folder in the way of each copy: a failure, but not for lack of space
        backup_path(automatic.database, T0 + turn * HOUR).with_suffix(".sqlite3.partial").mkdir()
    with caplog.at_level(logging.INFO, logger="bot.storage"):
        for turn in range(2):
            assert await automatic.turn(T0 + turn * HOUR) is None
    assert [level for level, _ in said(caplog)] == ["WARNING", "WARNING"]
    assert all(line.startswith("the automatic backup failed (StorageError: cannot copy") for _, line in said(caplog))


async def test_the_bots_backups_into_a_full_folder_say_so_once_and_the_bot_plays_on(world, caplog):
    every = timedelta(minutes=2)
    with tmpfs(backup_folder(world.database), "1m") as folder, caplog.at_level(logging.INFO, logger="bot.storage"):
        filler = fill(folder)
        await world.env.restart_bot(make_bot(world.database, backup_every=every, backup_keep=2))
        for _ in range(3):  # four turns of a full folder, the first at the start
            await world.env.advance_time(every.total_seconds())
        warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(warnings) == 1 and warnings[0].startswith("the automatic backup failed for lack of space")
        board = await start_game(world)  # the bot plays on
        await press(world.alice, board, 3)
        assert board_footer(board) == "Move 1"
        filler.unlink()
        await world.env.advance_time(every.total_seconds())
        assert any(
            r.getMessage().startswith("the automatic backups work again (4 failed since") for r in caplog.records
        )
        (made,) = backups_of(world.database)
        assert inspect(made).ok
        await close_bot(world.env.bot)  # before its backup folder is unmounted


async def test_a_board_shown_again_on_a_full_disk_is_taken_back_and_the_game_keeps_its_board(world, disk):
    board = await start_game(world)
    await press(world.alice, board, 3)
    before = [message.id for message in world.channel.history()]
    empty_the_log(world.database)
    filler = fill(disk)

    result = await world.carol.slash(world.channel, "wari board")
    assert [(m.content, m.ephemeral) for m in told(result)] == [(FULL, True)]
    assert [message.id for message in world.channel.history()] == before  # nothing was changed, truly
    assert await stored(world, "message_id") == board.id

    filler.unlink()
    await press(world.bob, board, 9)  # the game's board is the one it had, and it plays
    assert board_footer(board) == "Move 2"


async def test_the_sweeps_checkpoint_on_a_full_disk_is_said_once_without_a_traceback_and_works_once_space_is_freed(
    world, disk, caplog
):
    board = await start_game(world)
    store = world.env.bot.store
    for key in range(150):  # written since the last checkpoint: the file must grow to take them in
        await store.set_meta(f"note-{key}", "x" * 6000)
    filler = fill(disk)
    with caplog.at_level(logging.INFO, logger="cogs.wari"):
        for _ in range(3):
            await world.env.advance_time(SWEEP_SECONDS)
        failed = [r for r in caplog.records if "could not copy the database's log" in r.getMessage()]
        assert len(failed) == 1 and failed[0].levelno == logging.WARNING and "disk is full" in failed[0].getMessage()
        assert not any(r.exc_info for r in caplog.records)

        filler.unlink()
        await world.env.advance_time(SWEEP_SECONDS)
        assert any(r.getMessage() == "the database's log is copied into its file again" for r in caplog.records)
    await press(world.alice, board, 3)  # nothing was lost meanwhile
    assert board_footer(board) == "Move 1"
    assert await store.get_meta("note-149") == "x" * 6000
    assert integrity(world.database) == ["ok"]
