"""``python -m bot.storage``: check, back up and restore the bot's database by hand.

    python -m bot.storage check [--full]      # the start-up integrity check (exit 1 if damaged)
    python -m bot.storage backup [PATH]       # a consistent copy, also while the bot runs
    python -m bot.storage restore BACKUP      # stop the bot first; the current file is kept aside
    python -m bot.storage copy SOURCE TARGET  # the whole database into another (SQLite to PostgreSQL)

The database is ``DATABASE_URL`` or ``DATABASE_PATH`` (from the environment or ``.env``, as the
bot reads them) unless ``--database`` names another. check, backup and restore are for a SQLite
file; a PostgreSQL database has its own tools (``pg_dump``, ``pg_restore``). SOURCE and TARGET
are SQLite paths or ``sqlite:///`` URLs, or ``postgresql://`` URLs. Exit codes: 0 done, 1 failed
(the reason on standard error), 2 wrong usage.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from datetime import UTC, datetime
from pathlib import Path

from ..config import load_database
from .backup import copy_database, restore
from .database import StorageError
from .integrity import backup_folder, backup_path, inspect, recovery_advice, summary
from .transfer import copy_all

PROGRAM = "python -m bot.storage"


def megabytes(size: int) -> str:
    return f"{size / 1e6:.1f} MB"


def check(database: Path, full: bool) -> int:
    """Run the integrity check read-only and say what it found."""
    if not database.is_file():
        raise StorageError(f"there is no database at {database}")
    try:
        health = inspect(database, full=full)
    except sqlite3.Error as exc:
        raise StorageError(f"{database} is not a usable database ({exc}): {recovery_advice(database)}") from exc
    pragma = "integrity_check" if full else "quick_check"
    if not health.ok:
        print(f"damaged: {database} fails {pragma}: {summary(health)}", file=sys.stderr)
        print(recovery_advice(database), file=sys.stderr)
        return 1
    size = megabytes(database.stat().st_size)
    print(f"ok: {database} ({size}, schema version {health.schema_version}) passed {pragma} in {health.seconds:.2f} s")
    return 0


def backup(database: Path, target: Path | None) -> int:
    """Copy the database (running bot or not) to ``target``, by default a new file in its backup folder."""
    if not database.is_file():
        raise StorageError(f"there is no database at {database}")
    made = copy_database(database, target or backup_path(database, datetime.now(UTC)))
    print(f"backed up {database} to {made.path} ({megabytes(made.size)}, checked) in {made.seconds:.2f} s")
    return 0


def restore_backup(database: Path, backup: Path) -> int:
    aside = restore(backup, database)
    kept = f"; the database it replaced is kept as {aside}" if aside else ""
    print(f"restored {database} from {backup}{kept}")
    return 0


def copy(source: str, target: str) -> int:
    copied = asyncio.run(copy_all(source, target))
    print(f"copied {sum(copied.values())} rows of {len(copied)} tables; every table's count matches")
    return 0


def parser() -> argparse.ArgumentParser:
    parse = argparse.ArgumentParser(prog=PROGRAM, description="Check, back up and restore the Wari bot's database.")
    parse.add_argument("--database", type=Path, help="the database (default: DATABASE_PATH, else data/wari.sqlite3)")
    commands = parse.add_subparsers(dest="command", required=True)
    checking = commands.add_parser("check", help="run the integrity check (read-only; the bot may be running)")
    checking.add_argument("--full", action="store_true", help="integrity_check, slower: also matches indexes to tables")
    backing = commands.add_parser("backup", help="write a checked copy of the database (the bot may be running)")
    backing.add_argument(
        "path", nargs="?", type=Path, help="where (default: a new timestamped file in the backups folder)"
    )
    restoring = commands.add_parser("restore", help="replace the database by a backup: STOP THE BOT FIRST")
    restoring.add_argument("backup", type=Path, help="the backup file to restore")
    copying = commands.add_parser(
        "copy", help="copy a whole database into a new one, e.g. SQLite to PostgreSQL: STOP THE BOT FIRST"
    )
    copying.add_argument("source", help="the database to copy: a SQLite path or sqlite:/// URL, or a postgresql:// URL")
    copying.add_argument("target", help="the database to fill (migrated first; it must hold no games yet)")
    parse.epilog = "Backups go by default to the folder 'backups' beside the database, e.g. " + str(
        backup_folder(Path("data/wari.sqlite3"))
    )
    return parse


def main(argv: list[str] | None = None) -> int:
    arguments = parser().parse_args(argv)
    try:
        if arguments.command == "copy":
            return copy(arguments.source, arguments.target)
        database = arguments.database or load_database()
        if not isinstance(database, Path):
            raise StorageError(f"{arguments.command} is for a SQLite file: back up a PostgreSQL database with pg_dump")
        if arguments.command == "check":
            return check(database, arguments.full)
        if arguments.command == "backup":
            return backup(database, arguments.path)
        return restore_backup(database, arguments.backup)
    except StorageError as exc:
        print(f"{PROGRAM}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
