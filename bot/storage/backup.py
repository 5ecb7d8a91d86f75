"""Online backups of the database, their rotation, and restoring one.

A backup is a consistent copy made with SQLite's backup API from a read-only connection of its
own, in one step: in WAL mode a reader never blocks the bot's writers, so the copy runs while
games are played, and being one read transaction it is one moment of the database. (A copy in
small steps from another connection starts over whenever the bot commits, and might never end
on a busy bot.) It runs in a worker thread, never on the event loop. The copy is written beside
its final name, checked with quick_check, and only then renamed into place, so a file named as
a backup is always a whole, checked database in rollback-journal mode (one file, no ``-wal``).

A copy that finds no room on its disk is a :class:`~.sqlite.StorageFull` (its partial file
deleted). The bot's automatic backups (:class:`AutomaticBackups`) say so once in the log for a
run of such failures, not at every turn, and once again when a backup works.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from .database import StorageError, newer_schema
from .integrity import backup_path, backup_time, backups_of, health_of, inspect, read_only, summary
from .schema import MIGRATIONS
from .sqlite import StorageFull, out_of_space

log = logging.getLogger("bot.storage")

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
        is then left as it was); :class:`~.sqlite.StorageFull` if the copy found no room.
    """
    started = time.perf_counter()
    partial = target.with_name(target.name + ".partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial.unlink(missing_ok=True)
        _copy_and_check(source, partial)
        os.replace(partial, target)
    except (OSError, sqlite3.Error) as exc:
        if out_of_space(exc):
            raise StorageFull(f"cannot copy the database {source} to {target}: no space left there ({exc})") from exc
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


class AutomaticBackups:
    """The bot's automatic backups of ``database``, a turn at a time (every ``check``): at each, a
    backup if the newest is ``every`` old (less half a turn), then the oldest beyond ``keep`` deleted.

    A turn never raises: whatever fails, the bot plays on and the next turn tries again. A failure
    is a warning in the log; but a disk with no room left stays full until someone frees space, so
    a run of turns failing for lack of space is said once, at its first, and the first backup that
    works after failures says so (an info line).
    """

    def __init__(self, database: Path, *, every: timedelta, keep: int, check: timedelta) -> None:
        self.database = database
        self.every = every
        self.keep = keep
        self.check = check
        #: When the turns started failing (``None``: the last one that tried worked), and how many have.
        self.failing_since: datetime | None = None
        self.failures = 0
        #: Whether the last failure was for lack of space: a next one is not said again.
        self.full = False

    async def turn(self, now: datetime) -> Copy | None:
        """One turn at ``now``: the backup it made, or ``None`` (none was due, or it failed)."""
        try:
            if not backup_due(self.database, now, self.every, slack=self.check / 2):
                return None
            made, removed = await back_up(self.database, now, keep=self.keep)
        except Exception as exc:  # whatever it was, the bot plays on and the next turn tries again
            self._failed(exc, now)
            return None
        if self.failing_since is not None:
            log.info(
                "the automatic backups work again (%d failed since %s)",
                self.failures,
                self.failing_since.isoformat(timespec="seconds"),
            )
            self.failing_since, self.failures, self.full = None, 0, False
        log.info(
            "backed up the database to %s (%d bytes, %.2f s); %d old backups deleted",
            made.path,
            made.size,
            made.seconds,
            len(removed),
        )
        return made

    def _failed(self, exc: Exception, now: datetime) -> None:
        if self.failing_since is None:
            self.failing_since = now
        self.failures += 1
        full = isinstance(exc, StorageFull)
        if full and self.full:
            log.debug("the automatic backup failed again for lack of space (%s)", exc)
        elif full:
            log.warning(
                "the automatic backup failed for lack of space (%s); trying again every %s, "
                "without a word until one works",
                exc,
                self.check,
            )
        else:
            log.warning("the automatic backup failed (%s: %s); trying again in %s", type(exc).__name__, exc, self.check)
        self.full = full


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
