"""The SQLite connection (aiosqlite): opening, migrating, one transaction at a time."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator
from datetime import datetime, timezone
from pathlib import Path
from typing import NamedTuple, Self

import aiosqlite

from .integrity import inspect, recovery_advice, summary
from .schema import MIGRATIONS

log = logging.getLogger("bot.storage")
#: Seconds between tries of the switch to WAL while another connection switches the same file.
WAL_SWITCH_PAUSES = (0.01, 0.05, 0.1, 0.2, 0.5, 1.0)


class Written(NamedTuple):
    """What one write statement did."""

    rowcount: int
    lastrowid: int | None


class StorageError(RuntimeError):
    """The database cannot be opened, read or written. The message is fit for a log line."""


class Conflict(Exception):
    """A write lost a race or met a rule of the schema (a busy channel, a stale version)."""


def time_text(moment: datetime) -> str:
    """How a time is stored: UTC ISO text to the microsecond, so that stored times compare as text
    and a clock loses nothing to rounding (rows of schema 1 and 2 hold whole seconds, which
    compare right with these)."""
    return moment.astimezone(timezone.utc).isoformat(timespec="microseconds")


def newer_schema(version: int) -> str:
    return f"schema version {version} is newer than this bot knows ({len(MIGRATIONS)})"


def when(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


class Database:
    """The connection, its transactions and the migrations; the queries build on it (:class:`Store`)."""

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self._db = connection
        self.path = path
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Self:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date.

        An existing file is judged read-only first (:func:`~.integrity.inspect`): a damaged file
        or one of a newer schema is refused before anything is written to it, not even the
        switch to WAL. Every failure closes what was opened, so no connection thread outlives it.

        :raises StorageError: if the file cannot be opened or is not a usable database.
        """
        path = Path(path)
        if path.exists():
            await cls._check_before_writing(path)
        raw = await cls._connect(path)
        connection = aiosqlite.Connection(lambda: raw, iter_chunk_size=64)
        await connection  # starts its thread, handing it the connection made above: cannot fail
        connection.row_factory = sqlite3.Row
        store = cls(connection, path)
        try:
            await store._prepare()
        except sqlite3.Error as exc:
            await connection.close()
            raise StorageError(f"cannot use the database {path}: {exc} ({recovery_advice(path)})") from exc
        except BaseException:
            await connection.close()
            raise
        return store

    @staticmethod
    async def _check_before_writing(path: Path) -> None:
        """Refuse a file that is not a regular file, not a database, damaged, or too new."""
        if not path.is_file():
            raise StorageError(f"cannot open the database {path}: it is not a file")
        try:
            health = await asyncio.to_thread(inspect, path)
        except sqlite3.Error as exc:
            raise StorageError(f"cannot use the database {path}: {exc} ({recovery_advice(path)})") from exc
        if not health.ok:
            raise StorageError(
                f"the database {path} is damaged (quick_check: {summary(health)}); nothing was written to it: "
                f"{recovery_advice(path)}"
            )
        if health.schema_version > len(MIGRATIONS):
            raise StorageError(f"cannot use the database {path}: {newer_schema(health.schema_version)}; upgrade the bot")
        log.info("database %s passed its integrity check in %.2f s", path, health.seconds)

    @staticmethod
    async def _connect(path: Path) -> sqlite3.Connection:
        """The read-write connection, made in a thread; aiosqlite's own connect, when it fails,
        leaves its worker thread posting to an event loop that may be closed by then."""

        def connect() -> sqlite3.Connection:
            path.parent.mkdir(parents=True, exist_ok=True)
            return sqlite3.connect(path, isolation_level=None, check_same_thread=False)

        try:
            return await asyncio.to_thread(connect)
        except (OSError, sqlite3.Error) as exc:
            raise StorageError(f"cannot open the database {path}: {exc} (is its folder writable?)") from exc

    async def _prepare(self) -> None:
        """Settings of the connection, then the migrations."""
        # The busy timeout first: another process may be opening the same file right now.
        # WAL with synchronous=NORMAL: a commit does not wait for the disk; a killed process
        # loses nothing, a power cut may lose the last commits but never breaks the file.
        await self._run("PRAGMA busy_timeout = 5000")
        await self._switch_to_wal()
        for pragma in ("synchronous = NORMAL", "foreign_keys = ON"):
            await self._run(f"PRAGMA {pragma}")
        await self._migrate()

    async def _switch_to_wal(self) -> None:
        """``PRAGMA journal_mode = WAL``, tried again while another connection is switching too.

        Two processes opening a new file at once both read it, then both want to change it:
        SQLite refuses one of them at once ("database is locked"), since waiting could deadlock,
        so no busy timeout helps; by the next try the other has switched.
        """
        for pause in WAL_SWITCH_PAUSES:
            try:
                await self._run("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc):
                    raise
            await asyncio.sleep(pause)
        await self._run("PRAGMA journal_mode = WAL")

    async def close(self) -> None:
        await self._db.close()

    async def _migrate(self) -> None:
        while True:
            async with self._transaction():
                # Read inside the transaction: another process may be migrating the same file.
                version = await self.schema_version()
                if version > len(MIGRATIONS):
                    raise StorageError(f"cannot use the database {self.path}: {newer_schema(version)}; upgrade the bot")
                if version == len(MIGRATIONS):
                    return
                number = version + 1
                for statement in (part.strip() for part in MIGRATIONS[number - 1].split(";")):
                    if statement:
                        await self._run(statement)
                await self.after_migration(number)
                await self._run(f"PRAGMA user_version = {number}")
            log.info("database %s migrated to schema version %d", self.path, number)

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        """One immediate transaction at a time on this connection, rolled back on any failure.

        Every channel shares the connection, and SQLite has one transaction per connection, so
        writers queue here. The rollback runs even when the writer is cancelled meanwhile.
        """
        async with self._write_lock:
            try:
                await self._run("BEGIN IMMEDIATE")
                yield
                await self._run("COMMIT")
            except BaseException:
                # The connection runs statements in order, so this ROLLBACK also undoes a BEGIN
                # still queued when the writer was cancelled; "no transaction" means nothing to undo.
                with contextlib.suppress(sqlite3.OperationalError):
                    await asyncio.shield(self._run("ROLLBACK"))
                raise

    async def after_migration(self, number: int) -> None:
        """Work a migration needs beyond its SQL, in its transaction (the queries override it)."""

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            (version,) = await cursor.fetchone()
        return version

    # -- plumbing -------------------------------------------------------------------------

    async def _run(self, sql: str, params: tuple = ()) -> None:
        """Execute one statement and close its cursor (an open cursor blocks COMMIT)."""
        async with self._db.execute(sql, params):
            pass

    @contextlib.asynccontextmanager
    async def _writing(self) -> AsyncIterator[None]:
        """One immediate transaction for a write of several steps; failures translated."""
        try:
            async with self._transaction():
                yield
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from exc
        except sqlite3.Error as exc:
            raise StorageError(f"cannot write to the database {self.path}: {exc}") from exc

    async def _step(self, sql: str, params: tuple = ()) -> Written:
        """One statement of a write under way (inside :meth:`_writing`)."""
        async with self._db.execute(sql, params) as cursor:
            return Written(cursor.rowcount, cursor.lastrowid)

    async def _rows(self, sql: str, params: tuple = ()) -> list[sqlite3.Row]:
        """The rows of a query inside a write under way (inside :meth:`_writing`)."""
        async with self._db.execute(sql, params) as cursor:
            return await cursor.fetchall()

    async def _write(self, *statements: tuple[str, tuple]) -> list[Written]:
        """Run ``statements`` in one immediate transaction; translate failures."""
        async with self._writing():
            return [await self._step(sql, params) for sql, params in statements]

    async def _read(self, sql: str, params: tuple = ()) -> list[sqlite3.Row]:
        try:
            async with self._db.execute(sql, params) as cursor:
                return await cursor.fetchall()
        except sqlite3.Error as exc:
            raise StorageError(f"cannot read the database {self.path}: {exc}") from exc

    async def _one(self, kind, sql: str, params: tuple):
        """The first row of a query as a ``kind`` (a row class with ``from_row``), or ``None``."""
        rows = await self._read(sql, params)
        return kind.from_row(rows[0]) if rows else None

    # -- meta -----------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        rows = await self._read("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0]["value"] if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        await self._write(("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value)))
