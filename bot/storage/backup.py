"""Online backups of the database, their rotation, and restoring one.

A backup is a consistent copy made with SQLite's backup API from a read-only connection of its
own, in one step: in WAL mode a reader never blocks the bot's writers, so the copy runs while
games are played, and being one read transaction it is one moment of the database. (A copy in
small steps from another connection starts over whenever the bot commits, and might never end
on a busy bot.) It runs in a worker thread, never on the event loop. The copy is written beside
its final name, checked with quick_check, and only then renamed into place, so a file named as
a backup is always a whole, checked database in rollback-journal mode (one file, no ``-wal``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from .database import StorageError, newer_schema
from .integrity import backup_path, backup_time, backups_of, health_of, inspect, read_only, summary
from .schema import MIGRATIONS

#: What a restore does with the database it replaces: keeps it beside, named so.
ASIDE_SUFFIX = ".before-restore"
#: The files SQLite keeps beside a database in WAL mode, which belong to it.
WAL_FILES = ("-wal", "-shm")


@dataclass(frozen=True)
class Copy:
    """A database copied and checked: where, how big, how long it took."""

    path: Path
    size: int
    seconds: float


def copy_database(source: Path, target: Path) -> Copy:
    """Copy ``source`` (open or not, in WAL mode or not) to ``target`` consistently, check the
    copy and rename it into place. Blocking: run it in a thread from async code.

    :raises StorageError: if ``source`` cannot be read or the copy fails its check (``target``
        is then left as it was).
    """
    started = time.perf_counter()
    partial = target.with_name(target.name + ".partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial.unlink(missing_ok=True)
        _copy_and_check(source, partial)
        os.replace(partial, target)
    except (OSError, sqlite3.Error) as exc:
        raise StorageError(f"cannot copy the database {source} to {target}: {exc}") from exc
    finally:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
    return Copy(target, target.stat().st_size, time.perf_counter() - started)


def _copy_and_check(source: Path, partial: Path) -> None:
    src = read_only(source)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)  # one step: one read transaction, one moment of the database
            dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
            health = health_of(dst)
        finally:
            dst.close()
    finally:
        src.close()
    if not health.ok:
        raise sqlite3.DatabaseError(f"the copy fails quick_check: {summary(health)}")


def rotate(database: Path, keep: int) -> list[Path]:
    """Delete the oldest backups of ``database`` beyond the newest ``keep``; the deleted, oldest first."""
    backups = backups_of(database)
    old = backups[: max(len(backups) - keep, 0)]
    for path in old:
        path.unlink(missing_ok=True)
    return old


def backup_due(database: Path, now: datetime, every: timedelta, *, slack: timedelta = timedelta(0)) -> bool:
    """Whether the newest backup of ``database`` is ``every`` old (less ``slack``), or there is none.

    Read from the backups' names, so a restart neither repeats nor delays a backup.
    """
    backups = backups_of(database)
    newest = backup_time(database, backups[-1]) if backups else None
    return newest is None or now - newest >= every - slack


async def back_up(database: Path, now: datetime, *, keep: int) -> tuple[Copy, list[Path]]:
    """Make the backup of ``now`` in the backup folder and keep only the newest ``keep``.

    The copy and the deletions run in a worker thread: the event loop is never stalled.
    """
    made = await asyncio.to_thread(copy_database, database, backup_path(database, now))
    return made, await asyncio.to_thread(rotate, database, keep)


def restore(backup: Path, database: Path) -> Path | None:
    """Replace ``database`` by a checked copy of ``backup``. The bot must be stopped.

    The backup is checked (quick_check, schema version) and copied beside the database first;
    only then is the current database (with its ``-wal`` and ``-shm``, which belong to it) moved
    aside as ``<name>.before-restore`` and the copy renamed into place. A stale ``-wal`` left
    beside the restored file would be applied to it, so none is. Returns where the replaced
    database went (``None`` if there was none).

    :raises StorageError: if the backup is unusable or a file from an earlier restore is in the way.
    """
    _check_backup(backup)
    aside = database.with_name(database.name + ASIDE_SUFFIX)
    if aside.exists():
        raise StorageError(f"{aside} is left from an earlier restore: move it away first")
    incoming = copy_database(backup, database.with_name(database.name + ".restoring")).path
    moved = None
    if database.exists():
        for suffix in ("", *WAL_FILES):
            current = database.with_name(database.name + suffix)
            if current.exists():
                os.replace(current, aside.with_name(aside.name + suffix))
        moved = aside
    os.replace(incoming, database)
    return moved


def _check_backup(backup: Path) -> None:
    if not backup.is_file():
        raise StorageError(f"there is no backup file {backup}")
    try:
        health = inspect(backup)
    except sqlite3.Error as exc:
        raise StorageError(f"cannot use the backup {backup}: {exc}") from exc
    if not health.ok:
        raise StorageError(f"the backup {backup} is damaged ({summary(health)}): pick another")
    if health.schema_version > len(MIGRATIONS):
        raise StorageError(f"cannot restore {backup}: {newer_schema(health.schema_version)}; upgrade the bot")
