"""The health of a database file, judged without writing to it, and what to do when it is bad.

A file whose pages are damaged (its header intact) opens without complaint: SQLite only finds
out when a query reaches a bad page, and by then the bot has switched the file to WAL, migrated
it and written into it. So before any of that, :func:`inspect` opens the file read-only and
runs ``PRAGMA quick_check`` (every page and b-tree, without matching indexes to their tables:
a fraction of ``integrity_check``'s time) and reads the schema version. A damaged file is then
refused with one line that names the backups (:func:`backup_folder`) and the command that
restores the latest.

Backups live in a folder beside the database (``data/backups`` for ``data/wari.sqlite3``),
named after the database and the UTC time they were made, so that their names sort by age.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

#: The folder of a database's backups, beside it.
BACKUP_FOLDER = "backups"
#: How the time of a backup is written in its name: UTC, to the second, sorting as text.
STAMP_FORMAT = "%Y%m%dT%H%M%SZ"
#: The problems quick_check reports are listed up to this many in a log line.
PROBLEMS_SHOWN = 1


@dataclass(frozen=True)
class Health:
    """What :func:`inspect` found: the schema version and the check's problems (none: healthy)."""

    schema_version: int
    problems: tuple[str, ...]
    seconds: float

    @property
    def ok(self) -> bool:
        return not self.problems


def read_only(path: Path) -> sqlite3.Connection:
    """A connection that cannot write to ``path`` (nor create it): ``mode=ro``, and leaving no
    file beside it.

    With no ``-wal`` file beside it, nobody has the database open (the last connection to close
    deletes it) and all of it is in the file: it is opened ``immutable``, or SQLite would create
    empty ``-wal`` and ``-shm`` files for a database in WAL mode, owned by whoever ran the check,
    which a bot running as another user could not open. With a ``-wal`` (a bot running, or one
    that was killed), its commits are read too.
    """
    wal = path.with_name(path.name + "-wal")
    options = "mode=ro" if wal.exists() else "mode=ro&immutable=1"
    return sqlite3.connect(f"{path.resolve().as_uri()}?{options}", uri=True, timeout=5)


def inspect(path: Path, *, full: bool = False) -> Health:
    """Check ``path`` read-only (see :func:`health_of`). Blocking: run it in a thread from async code.

    :raises sqlite3.Error: if the file is not a database at all (a bad header) or cannot be read.
    """
    db = read_only(path)
    try:
        return health_of(db, full=full)
    finally:
        db.close()


def health_of(db: sqlite3.Connection, *, full: bool = False) -> Health:
    """The schema version of ``db``, then quick_check (``full``: integrity_check, which also
    matches every index to its table). A page so broken that SQLite raises while checking counts
    as a problem, not an error.

    :raises sqlite3.Error: if ``db`` is not a database at all (a bad header) or cannot be read.
    """
    started = time.perf_counter()
    (version,) = db.execute("PRAGMA user_version").fetchone()
    pragma = "integrity_check" if full else "quick_check"
    try:
        problems = tuple(row for (row,) in db.execute(f"PRAGMA {pragma}") if row != "ok")
    except sqlite3.DatabaseError as exc:
        problems = (str(exc),)
    return Health(version, problems, time.perf_counter() - started)


def summary(health: Health) -> str:
    """The first problem of a damaged file and how many more, fit for one log line."""
    shown = "; ".join(" ".join(problem.split()) for problem in health.problems[:PROBLEMS_SHOWN])
    more = len(health.problems) - PROBLEMS_SHOWN
    return f"{shown} (and {more} more)" if more > 0 else shown


# -- backups --------------------------------------------------------------------------------


def backup_folder(database: Path) -> Path:
    return database.parent / BACKUP_FOLDER


def backup_path(database: Path, moment: datetime) -> Path:
    """Where a backup of ``database`` made at ``moment`` goes by default."""
    stamp = moment.astimezone(UTC).strftime(STAMP_FORMAT)
    return backup_folder(database) / f"{database.stem}-{stamp}{database.suffix}"


def backup_time(database: Path, backup: Path) -> datetime | None:
    """When ``backup`` was made, read from its name; ``None`` if it is not named as one of ``database``'s."""
    prefix, suffix = f"{database.stem}-", database.suffix
    name = backup.name
    if not (name.startswith(prefix) and name.endswith(suffix)):
        return None
    try:
        return datetime.strptime(name[len(prefix) : len(name) - len(suffix)], STAMP_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        return None


def backups_of(database: Path) -> list[Path]:
    """The backups of ``database`` in its backup folder, oldest first (other files are ignored)."""
    folder = backup_folder(database)
    if not folder.is_dir():
        return []
    dated = [(moment, path) for path in folder.iterdir() if (moment := backup_time(database, path)) and path.is_file()]
    return [path for _, path in sorted(dated)]


def recovery_advice(database: Path) -> str:
    """What to do with a database that cannot be used: the restore command of its latest backup."""
    backups = backups_of(database)
    if backups:
        return (
            f"stop the bot and restore the latest backup from {backup_folder(database)}: "
            f"python -m bot.storage restore {backups[-1]}"
        )
    return (
        f"there is no backup in {backup_folder(database)}: restore one from elsewhere with "
        f"python -m bot.storage restore BACKUP, or move the file away to start with an empty database"
    )
