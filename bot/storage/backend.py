"""What the queries ask of a database engine, and which engine a database setting names.

Two back ends implement it: :mod:`.sqlite` (one file, the default) and :mod:`.postgres` (a
server that several bot processes share). The queries are written once, in the SQL both
understand, with ``?`` for parameters; a back end runs them in transactions (:class:`Session`).

What each back end must guarantee for the queries to be right between processes: inside a
transaction, :meth:`Session.lock` holds the named keys until it ends, so two transactions that
lock the same key (a channel, a player) never interleave. SQLite gets this from ``BEGIN
IMMEDIATE`` (one writer at a time), PostgreSQL from transaction-level advisory locks.

A write of a single statement is atomic by itself in both engines, so it needs no guard beyond
its own ``WHERE`` (a version check), as inside a transaction. Both back ends' ``write_one`` run
it alone, in one trip instead of three (begin, the statement, commit). On PostgreSQL a statement
a hung server got but never answered must not be carried out late: one that returns its rows
carries the time by which it may be (see :mod:`.postgres`), any other runs in a transaction all
the same.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple, Protocol, TypeGuard

from .schema import MIGRATIONS

#: The key of the migrations' lock (a Discord id, which a lock key usually is, is far larger).
MIGRATION_LOCK = 1
#: The key of the lock taken to note that the bot is alive (and credit an outage once).
ALIVE_LOCK = 2


class Written(NamedTuple):
    """What one write statement did."""

    rowcount: int


class Step(NamedTuple):
    """One statement of several (:meth:`Session.read_together`, ``Database.steps``): a query whose
    rows are wanted, a write, or with ``many`` one statement for each row of ``params``."""

    sql: str
    params: Sequence = ()
    many: bool = False


class StorageError(RuntimeError):
    """The database cannot be opened, read or written. The message is fit for a log line."""


class Conflict(Exception):
    """A write lost a race or met a rule of the schema (a busy channel, a stale version)."""


@contextlib.asynccontextmanager
async def closed_on_failure(
    close: Callable[[], Awaitable[None]], errors: tuple[type[Exception], ...], describe: Callable[[Exception], str]
) -> AsyncIterator[None]:
    """Set up what was just opened: on any failure, ``close`` it (no connection outlives a failed
    start), and turn ``errors`` into a :class:`StorageError` that ``describe`` words."""
    try:
        yield
    except errors as exc:
        await close()
        raise StorageError(describe(exc)) from exc
    except BaseException:
        await close()
        raise


def newer_schema(version: int) -> str:
    return f"schema version {version} is newer than this bot knows ({len(MIGRATIONS)})"


Row = Mapping[str, Any]  # a row of any table: its columns hold what the schema says (see rows.py)


class Session(Protocol):
    """The statements of one transaction."""

    async def execute(self, sql: str, params: Sequence = ()) -> Written: ...

    async def fetch(self, sql: str, params: Sequence = ()) -> list[Row]: ...

    async def executemany(self, sql: str, rows: Iterable[Sequence]) -> None: ...

    async def read_together(self, queries: Sequence[Step]) -> list[list[Row]]:
        """The rows of ``queries`` (none waiting for another's result), in order: sent at once
        where the driver queues them (SQLite), one after the other where it cannot. Reads, but
        for the first, which may write: SQLite may roll a whole transaction back by itself when a
        statement fails (a full disk, an I/O error), and a write queued behind it would then
        commit alone."""
        ...

    async def lock(self, *keys: int) -> None:
        """Hold ``keys`` until the transaction ends (in a fixed order: no deadlock)."""

    async def schema_version(self) -> int: ...

    async def set_schema_version(self, number: int) -> None: ...

    async def columns(self, table: str) -> set[str]: ...

    async def after_copy(self) -> None:
        """Bring id generators past the ids a copy inserted."""


def is_postgres(target: str | Path) -> TypeGuard[str]:
    return isinstance(target, str) and target.startswith(("postgres://", "postgresql://"))


def sqlite_path(target: str | Path) -> Path:
    """The file a SQLite setting names: a path, or ``sqlite:///relative`` / ``sqlite:////absolute``."""
    if isinstance(target, str) and target.startswith("sqlite:"):
        if not target.startswith("sqlite:///"):
            # Not quoted: a URL written wrong may hold a password.
            raise StorageError("a SQLite URL is sqlite:///relative/path or sqlite:////absolute/path")
        return Path(target.removeprefix("sqlite:///"))
    return Path(target)
