"""The database the queries run on: opening it, migrating it, one transaction at a time.

:class:`Database` is the same above both back ends (:mod:`.backend`); each feature's queries
(:class:`Queries`) hold it, and :class:`bot.storage.Store` holds it and them.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

from .backend import (
    MIGRATION_LOCK,
    Conflict,
    Row,
    Session,
    Step,
    StorageError,
    Written,
    closed_on_failure,
    is_postgres,
    newer_schema,
    sqlite_path,
)
from .schema import MIGRATIONS
from .sqlite import SQLiteBackend

log = logging.getLogger("bot.storage")

__all__ = [
    "AfterMigration",
    "Conflict",
    "Database",
    "Queries",
    "ShardScope",
    "StorageError",
    "Written",
    "time_text",
    "when",
]


def time_text(moment: datetime) -> str:
    """How a time is stored: UTC ISO text to the microsecond, so that stored times compare as text
    and a clock loses nothing to rounding (rows of schema 1 and 2 hold whole seconds, which
    compare right with these)."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def when(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def scheme_of(url: str) -> str | None:
    """The scheme ``url`` starts with (``mysql`` of ``mysql://...``), if it has one: ``None`` for
    text before ``://`` that is no scheme name, which may be anything, a password included."""
    scheme, separator, _rest = url.partition("://")
    return scheme if separator and re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]{0,31}", scheme) else None


async def open_backend(target: str | Path, **options: Any) -> Any:
    """The back end ``target`` names: a ``postgresql://`` URL, else a SQLite file or URL.

    Here, above both back ends, which import the protocol they share from :mod:`.backend`."""
    if is_postgres(target):
        from .postgres import PostgresBackend  # asyncpg is needed only by those who use it

        return await PostgresBackend.open(target, **options)
    if isinstance(target, str) and "://" in target and not target.startswith("sqlite:"):
        scheme = scheme_of(target)
        named = f" {scheme}://" if scheme else ""
        raise StorageError(f"unknown database URL scheme{named}: use postgresql:// or sqlite:///")
    return await SQLiteBackend.open(sqlite_path(target))


@dataclass(frozen=True)
class ShardScope:
    """The shards a bot process runs: its sweeps touch only the games of their servers."""

    count: int
    ids: tuple[int, ...]

    def condition(self) -> tuple[str, tuple]:
        """The SQL condition (and its parameters) that keeps rows of servers on these shards:
        Discord puts a server on shard ``(guild_id >> 22) % shard_count``."""
        marks = ", ".join("?" for _ in self.ids)
        return f" AND (guild_id >> 22) % ? IN ({marks})", (self.count, *self.ids)

    def __str__(self) -> str:
        return f"shards {','.join(map(str, self.ids))} of {self.count}"


class Database:
    """The handle every feature's queries share: the back end, its transactions, its locks, the
    shards a process runs, and the migrations.

    A write of several steps is one transaction (:meth:`writing`); the steps of it, whichever
    feature's queries run them (a game's end rates it), find it through this handle, as the
    transaction under way in their task: so every query object of a :class:`bot.storage.Store`
    is built over the same :class:`Database`.
    """

    def __init__(self, backend: Any, *, shards: ShardScope | None = None) -> None:
        self._backend = backend
        #: The transaction under way in this task (a write of several steps), if any.
        self._session: ContextVar[Session | None] = ContextVar(f"session-{id(self)}", default=None)
        self.shards = shards

    @classmethod
    async def open(
        cls,
        target: str | Path,
        *,
        shards: ShardScope | None = None,
        after_migration: AfterMigration | None = None,
        **options: Any,
    ) -> Self:
        """Open the database ``target`` names (a SQLite file or ``sqlite:///`` URL, or a
        ``postgresql://`` URL) and bring its schema up to date; ``after_migration`` does the work
        a migration needs beyond its SQL, in its transaction.

        :raises StorageError: if it cannot be opened or is not a usable database.
        """
        backend = await open_backend(target, **options)
        database = cls(backend, shards=shards)
        async with closed_on_failure(
            backend.close, backend.errors, lambda exc: f"cannot use the database {backend.label}: {exc}"
        ):
            await database._migrate(after_migration)
        return database

    @property
    def path(self) -> Path | None:
        """The SQLite file (``None`` on PostgreSQL)."""
        return self._backend.path

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self._backend.dialect

    @property
    def label(self) -> str:
        """The database as a log line may name it (a path, or a URL without its password)."""
        return self._backend.label

    async def close(self) -> None:
        await self._backend.close()

    async def _migrate(self, after_migration: AfterMigration | None) -> None:
        while True:
            async with self._transaction() as session:
                # Under the lock: another process may be migrating the same database right now.
                await session.lock(MIGRATION_LOCK)
                version = await session.schema_version()
                if version > len(MIGRATIONS):
                    raise StorageError(
                        f"cannot use the database {self.label}: {newer_schema(version)}; upgrade the bot"
                    )
                if version == len(MIGRATIONS):
                    return
                number = version + 1
                for statement in self._backend.statements(MIGRATIONS[number - 1]):
                    await session.execute(statement)
                if after_migration is not None:
                    await after_migration(self, number)
                await session.set_schema_version(number)
            log.info("database %s migrated to schema version %d", self.label, number)

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Session]:
        async with self._backend.transaction() as session:
            token = self._session.set(session)
            try:
                yield session
            finally:
                self._session.reset(token)

    async def schema_version(self) -> int:
        async with self._transaction() as session:
            return await session.schema_version()

    # -- writes ---------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def writing(self) -> AsyncIterator[Session]:
        """One transaction for a write of several steps; failures translated."""
        with self._write_failures():
            async with self._transaction() as session:
                yield session

    async def write_one(self, sql: str, params: Sequence = ()) -> list[Row]:
        """A write of one statement, atomic by itself, as the back end runs it (alone, one trip;
        on PostgreSQL one that returns no rows in a transaction of its own, see :mod:`.backend`);
        its rows (``RETURNING``). Inside a write under way, a step of it."""
        session = self._session.get()
        if session is not None:
            return await session.fetch(sql, params)
        with self._write_failures():
            return await self._backend.write_one(sql, params)

    @contextlib.contextmanager
    def _write_failures(self) -> Iterator[None]:
        """Translate the engine's failures of a write: a broken rule (a unique index, a check)
        is a :class:`Conflict`, anything else a :class:`StorageError`."""
        try:
            yield
        except self._backend.integrity_errors as exc:
            raise Conflict(str(exc)) from exc
        except self._backend.errors as exc:
            raise StorageError(f"cannot write to the database {self.label}: {exc}") from exc

    def current(self) -> Session:
        """The write under way (inside :meth:`writing`)."""
        session = self._session.get()
        if session is None:
            raise RuntimeError("a step of a write runs inside writing()")
        return session

    async def step(self, sql: str, params: Sequence = ()) -> Written:
        """One statement of a write under way (inside :meth:`writing`)."""
        return await self.current().execute(sql, params)

    async def rows(self, sql: str, params: Sequence = ()) -> list[Row]:
        """The rows of a query inside a write under way (inside :meth:`writing`)."""
        return await self.current().fetch(sql, params)

    async def many(self, sql: str, rows: Iterable[Sequence]) -> None:
        """One statement for each of ``rows``, inside a write under way."""
        await self.current().executemany(sql, rows)

    async def read_together(self, *queries: Step) -> list[list[Row]]:
        """Several queries of a write under way, none waiting for another's result, sent together
        (one trip on SQLite): each one's rows. The first may write, no other (see
        :meth:`Session.read_together`)."""
        return await self.current().read_together(queries)

    async def steps(self, *steps: Step) -> list[list[Row]]:
        """Statements of a write under way, one after the other, each one's rows (none for a
        ``many``). Writes are never sent together: see :meth:`Session.read_together`."""
        session = self.current()
        done: list[list[Row]] = []
        for step in steps:
            if step.many:
                await session.executemany(step.sql, step.params)
                done.append([])
            else:
                done.append(await session.fetch(step.sql, step.params))
        return done

    async def lock(self, *keys: int) -> None:
        """Hold ``keys`` (channels, players) until the write under way ends (see :mod:`.backend`)."""
        await self.current().lock(*keys)

    async def write(self, *statements: tuple[str, tuple]) -> list[Written]:
        """Run ``statements`` in one transaction; translate failures."""
        async with self.writing() as session:
            return [await session.execute(sql, params) for sql, params in statements]

    # -- reads ----------------------------------------------------------------------------

    async def read(self, sql: str, params: Sequence = ()) -> list[Row]:
        session = self._session.get()
        try:
            if session is not None:  # inside a write: read what it sees
                return await session.fetch(sql, params)
            return await self._backend.fetch(sql, params)
        except self._backend.errors as exc:
            raise StorageError(f"cannot read the database {self.label}: {exc}") from exc

    async def one(self, kind: Any, sql: str, params: Sequence) -> Any:
        """The first row of a query as a ``kind`` (a row class with ``from_row``), or ``None``."""
        rows = await self.read(sql, params)
        return kind.from_row(rows[0]) if rows else None

    def own_shards(self) -> tuple[str, tuple]:
        """The condition (and parameters) that keeps a sweep to this process's servers."""
        return self.shards.condition() if self.shards else ("", ())

    async def checkpoint(self) -> tuple[int, int]:
        """Copy the write-ahead log into the database file, without holding up any write (the
        sweep's; see :mod:`.sqlite`; nothing to do on PostgreSQL): the log's pages, and how many
        are in the file now."""
        try:
            return await self._backend.checkpoint()
        except self._backend.errors as exc:
            raise StorageError(f"cannot checkpoint the database {self.label}: {exc}") from exc

    # -- meta -----------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        rows = await self.read("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0]["value"] if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        await self.write(
            (
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
        )


#: The work a migration needs beyond its SQL, in its transaction: given the database and the
#: migration's number (see :func:`bot.storage.ratings.after_migration`).
AfterMigration = Callable[[Database, int], Awaitable[None]]


class Queries:
    """A feature's queries (games, ratings, seeks...): built over the one :class:`Database` a
    :class:`bot.storage.Store` holds, so that they share its transactions. A feature whose write
    needs another's step in the same transaction is given that feature's queries when built."""

    def __init__(self, database: Database) -> None:
        self._db = database
