"""The SQLite back end (aiosqlite): one file; one connection for the writes, one transaction at a
time, and one for the reads made outside a write, which see only what is committed.

SQLite serialises writers itself: every transaction here is ``BEGIN IMMEDIATE``, which takes the
file's one write lock before its first read, so the reads a write depends on cannot change under
it, in this process or any other sharing the file. That is why :meth:`SQLiteSession.lock` has
nothing to do. A write of one statement (:meth:`SQLiteBackend.write_one`) runs without ``BEGIN``:
SQLite commits it by itself, holding the write lock for that statement.

Durability: WAL with ``synchronous = NORMAL``. A commit returns once it is in the write-ahead log,
without waiting for the disk; a killed process (``kill -9``, a crash) loses nothing committed. A
power cut or an operating-system crash may lose the last commits since the log was last synced
(a checkpoint), but never leaves the file damaged.

Checkpoints: SQLite copies the log into the file itself, by default at the commit that finds the
log past 1,000 pages, which then takes some milliseconds longer (the copy and its sync): every
few hundred presses, one waited for it. Here the sweep does it instead (:meth:`SQLiteBackend.checkpoint`,
every :data:`cogs.wari.clocks.SWEEP_SECONDS`), from a connection of its own, without the write
lock (``PASSIVE``): no read or write waits for a checkpoint. The writing connection still copies
the log itself past :data:`LOG_PAGES_AT_MOST` pages, only so that a sweep that stopped cannot let
the log grow without end.

A full disk: a write that finds no room fails inside SQLite (``SQLITE_FULL``, "database or disk
is full"), which undoes it (its transaction is rolled back here), so the file stays whole and
nothing of the write is kept. It is raised as :class:`StorageFull`, a :class:`StorageError` the
bot's answers can tell apart. The connections need nothing afterwards: the next write, once space
is freed, simply works. A start on a full disk is refused with the advice to free space (not to
restore a backup: nothing is wrong with the file).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from pathlib import Path
from typing import Self, cast

import aiosqlite

from .backend import Step, StorageError, Written, closed_on_failure, newer_schema
from .integrity import inspect, recovery_advice, summary
from .schema import MIGRATIONS

log = logging.getLogger("bot.storage")
#: Seconds between tries of the switch to WAL while another connection switches the same file.
WAL_SWITCH_PAUSES = (0.01, 0.05, 0.1, 0.2, 0.5, 1.0)
#: Every connection's settings (see the module's note on durability).
CONNECTION_PRAGMAS = ("synchronous = NORMAL", "foreign_keys = ON")
#: The log's length, in pages of 4 KiB, past which the writing connection copies it into the
#: file itself (a sweep that stopped; see the module's note on checkpoints).
LOG_PAGES_AT_MOST = 16_384
#: Less free space than this on a database's disk is a full disk (when an I/O error asks why).
ROOM_NEEDED = 1 << 20
#: What to do when the database cannot be opened for want of space.
MAKE_ROOM = "its disk is full: free some space, then start the bot again"


class StorageFull(StorageError):
    """A write found no room left on the disk: nothing of it was written, and writes work again as
    soon as space is freed."""


def out_of_space(exc: BaseException) -> bool:
    """Whether ``exc`` is a write that found no room: SQLite's ``SQLITE_FULL`` ("database or disk is
    full"), or the system's ``ENOSPC`` (no space left on the device) or ``EDQUOT`` (a quota)."""
    if isinstance(exc, sqlite3.Error):
        return _primary_code(exc) == sqlite3.SQLITE_FULL
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)


def _primary_code(exc: sqlite3.Error) -> int | None:
    """SQLite's result code of ``exc`` without its extension (``None`` for an error Python raised)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def no_room(folder: Path) -> bool:
    """Whether the disk of ``folder`` has less than :data:`ROOM_NEEDED` free (for this process)."""
    try:
        disk = os.statvfs(folder)
    except OSError:
        return False
    return disk.f_bavail * disk.f_frsize < ROOM_NEEDED


def unusable_advice(path: Path, exc: BaseException) -> str:
    """What to do with the database at ``path`` that failed to open with ``exc``: make room on a
    full disk (at start it fails as an I/O error, making the ``-shm`` file), else restore a backup."""
    io_error = isinstance(exc, sqlite3.Error) and _primary_code(exc) == sqlite3.SQLITE_IOERR
    if out_of_space(exc) or (io_error and no_room(path.parent)):
        return MAKE_ROOM
    return recovery_advice(path)


class SQLiteSession:
    """The statements of one transaction on the connection.

    Every call to the connection is a trip to its thread and back (some 55 µs): a query is one
    (``execute_fetchall``), not three (execute, fetch, close the cursor).
    """

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection

    async def execute(self, sql: str, params: Sequence = ()) -> Written:
        cursor = await self._db.execute(sql, params)
        try:
            return Written(cursor.rowcount)
        finally:
            await cursor.close()

    async def fetch(self, sql: str, params: Sequence = ()) -> list[sqlite3.Row]:
        return list(await self._db.execute_fetchall(sql, params))

    async def executemany(self, sql: str, rows: Iterable[Sequence]) -> None:
        await self._db.executemany(sql, rows)

    async def read_together(self, queries: Sequence[Step]) -> list[list[sqlite3.Row]]:
        """``queries`` queued on the connection's thread at once, in order (tasks start in the order
        they are made, and each queues its statement before it first waits): one trip to the
        thread for them all instead of one each. All are waited for before a failure is raised."""
        if any(query.many for query in queries):
            raise ValueError("only queries are read together")
        done = await asyncio.gather(*(self.fetch(query.sql, query.params) for query in queries), return_exceptions=True)
        for outcome in done:
            if isinstance(outcome, BaseException):
                raise outcome
        return cast(list[list[sqlite3.Row]], done)

    async def lock(self, *keys: int) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` already holds the file's write lock."""

    async def schema_version(self) -> int:
        (row,) = await self.fetch("PRAGMA user_version")
        return row[0]

    async def set_schema_version(self, number: int) -> None:
        await self.execute(f"PRAGMA user_version = {int(number)}")

    async def columns(self, table: str) -> set[str]:
        return {row["name"] for row in await self.fetch(f"PRAGMA table_info({table})")}

    async def after_copy(self) -> None:
        """Nothing to do: AUTOINCREMENT follows the largest id inserted."""


class SQLiteBackend:
    """A database file. Open it with :meth:`open`."""

    dialect = "sqlite"
    #: Failures of a statement that a write meets when it breaks a rule of the schema.
    integrity_errors: tuple[type[Exception], ...] = (sqlite3.IntegrityError,)
    #: aiosqlite says ``ValueError("Connection closed")`` for a connection closed (at shutdown).
    errors: tuple[type[Exception], ...] = (sqlite3.Error, ValueError)

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self._db = connection
        #: The reads outside a write go to a connection of their own, which sees only what was
        #: committed: on the shared one they would also see a transaction still under way (of
        #: another channel's write, which may yet roll back).
        self._reader: aiosqlite.Connection | None = None
        self.path = path
        self.label = str(path)
        self._write_lock = asyncio.Lock()

    @staticmethod
    def statements(migration: str) -> list[str]:
        return [part.strip() for part in migration.split(";") if part.strip()]

    @classmethod
    async def open(cls, path: str | Path) -> Self:
        """Open (creating if needed) the file at ``path``, set up for WAL.

        An existing file is judged read-only first (:func:`~.integrity.inspect`): a damaged file
        or one of a newer schema is refused before anything is written to it, not even the
        switch to WAL. Every failure closes what was opened, so no connection thread outlives it.

        :raises StorageError: if the file cannot be opened or is not a usable database.
        """
        path = Path(path)
        if path.exists():
            await cls._check_before_writing(path)
        backend = cls(await cls._connection(path), path)
        async with closed_on_failure(
            backend.close,
            cls.errors,
            lambda exc: f"cannot use the database {path}: {exc} ({unusable_advice(path, exc)})",
        ):
            await backend._prepare()
            backend._reader = await cls._connection(path)
            for pragma in ("query_only = ON", "busy_timeout = 5000", *CONNECTION_PRAGMAS):  # it never writes
                await backend._reader.execute_fetchall(f"PRAGMA {pragma}")
        return backend

    @classmethod
    async def _connection(cls, path: Path) -> aiosqlite.Connection:
        """A connection to the file at ``path``, in a thread of its own, giving rows by name."""
        raw = await cls._connect(path)
        connection = aiosqlite.Connection(lambda: raw, iter_chunk_size=64)
        await connection  # starts its thread, handing it the connection made above: cannot fail
        connection.row_factory = sqlite3.Row
        return connection

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
            raise StorageError(
                f"cannot use the database {path}: {newer_schema(health.schema_version)}; upgrade the bot"
            )
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
            advice = MAKE_ROOM if out_of_space(exc) else "is its folder writable?"
            raise StorageError(f"cannot open the database {path}: {exc} ({advice})") from exc

    async def _prepare(self) -> None:
        """Settings of the connection (see the module's note on durability)."""
        # The busy timeout first: another process may be opening the same file right now.
        await self._run("PRAGMA busy_timeout = 5000")
        await self._switch_to_wal()
        for pragma in CONNECTION_PRAGMAS:
            await self._run(f"PRAGMA {pragma}")
        await self._run(f"PRAGMA wal_autocheckpoint = {LOG_PAGES_AT_MOST}")

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

    async def _run(self, sql: str) -> None:
        """Execute one statement, its cursor closed at once (an open cursor blocks COMMIT)."""
        await self._db.execute_fetchall(sql)

    async def fetch(self, sql: str, params: Sequence = ()) -> list[sqlite3.Row]:
        """A read outside any write: what is committed (see ``_reader``)."""
        assert self._reader is not None  # open() sets it before it hands the backend out
        return list(await self._reader.execute_fetchall(sql, params))

    async def write_one(self, sql: str, params: Sequence = ()) -> list[sqlite3.Row]:
        """One statement that writes, committed by itself (the connection is in autocommit mode);
        its rows (``RETURNING``). It waits its turn behind a transaction under way, which it
        would otherwise join."""
        async with self._write_lock:
            try:
                return list(await self._db.execute_fetchall(sql, params))
            except sqlite3.Error as exc:
                if out_of_space(exc):  # SQLite undid the statement: it never happened
                    raise self._full(exc) from exc
                raise

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[SQLiteSession]:
        """One immediate transaction at a time on this connection, rolled back on any failure.

        Every channel shares the connection, and SQLite has one transaction per connection, so
        writers queue here. The rollback runs even when the writer is cancelled meanwhile.
        A full disk (a statement or the commit finding no room) is a :class:`StorageFull`.
        """
        async with self._write_lock:
            try:
                await self._run("BEGIN IMMEDIATE")
                yield SQLiteSession(self._db)
                await self._run("COMMIT")
            except BaseException as exc:
                # The connection runs statements in order, so this ROLLBACK also undoes a BEGIN
                # still queued when the writer was cancelled; "no transaction" means nothing to undo
                # (SQLite may have rolled back itself, as after a commit that found the disk full).
                with contextlib.suppress(sqlite3.OperationalError):
                    await asyncio.shield(self._run("ROLLBACK"))
                if out_of_space(exc):
                    raise self._full(exc) from exc
                raise

    async def checkpoint(self) -> tuple[int, int]:
        """Copy what the log holds into the file (``PASSIVE``: no writer waits for it, and it leaves
        what a read under way still needs), from a connection of its own, opened for it in a
        thread: no read or write of the bot's connections queues behind the copy and its sync.
        The log's pages, and how many of them are in the file now. A full disk is
        :class:`StorageFull`: nothing is lost, the log waits."""

        def copy() -> tuple[int, int]:
            with contextlib.closing(sqlite3.connect(self.path, isolation_level=None)) as connection:
                connection.execute("PRAGMA busy_timeout = 5000")
                _busy, pages, copied = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                return pages, copied

        try:
            return await asyncio.to_thread(copy)
        except sqlite3.Error as exc:
            if out_of_space(exc):
                raise self._full(exc) from exc
            raise

    def _full(self, exc: BaseException) -> StorageFull:
        """The failure of a write that found the disk full, and SQLite undid."""
        return StorageFull(
            f"cannot write to the database {self.path}: its disk is full ({exc}); nothing was written, "
            "and writes work again as soon as space is freed"
        )

    async def close(self) -> None:
        if self._reader is not None:
            await self._reader.close()
        await self._db.close()
