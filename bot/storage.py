"""SQLite storage (aiosqlite): open challenges, live games keyed by channel, the archive.

Everything needed to resume after a restart lives here; the bot keeps no game state in memory.
A game is stored as its engine record (``bot.engine.notation``), so the stored moves are the
truth and the board is derived from them.

The schema is versioned with ``PRAGMA user_version``; :data:`MIGRATIONS` are applied in order
at start-up, each in its own transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import NamedTuple

import aiosqlite

log = logging.getLogger(__name__)

MIGRATIONS: tuple[str, ...] = (
    # 1: the first schema. AUTOINCREMENT: an id is never reused, so a button left on an old
    # message can never name a newer challenge or game.
    """
    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE challenges (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id      INTEGER NOT NULL,
        channel_id    INTEGER NOT NULL UNIQUE,
        challenger_id INTEGER NOT NULL,
        opponent_id   INTEGER NOT NULL,
        variant       TEXT NOT NULL,
        first         TEXT NOT NULL CHECK (first IN ('me', 'opponent', 'random')),
        message_id    INTEGER,
        created_at    TEXT NOT NULL,
        expires_at    TEXT NOT NULL
    );
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id    INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        player_a    INTEGER NOT NULL,
        player_b    INTEGER NOT NULL,
        variant     TEXT NOT NULL,
        record      TEXT NOT NULL,
        version     INTEGER NOT NULL DEFAULT 0,
        message_id  INTEGER,
        status      TEXT NOT NULL DEFAULT 'live' CHECK (status IN ('live', 'finished', 'aborted')),
        result      TEXT CHECK (result IN ('A', 'B', 'draw')),
        reason      TEXT,
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL,
        finished_at TEXT
    );
    CREATE UNIQUE INDEX one_live_game_per_channel ON games (channel_id) WHERE status = 'live';
    CREATE INDEX games_by_player_a ON games (player_a);
    CREATE INDEX games_by_player_b ON games (player_b);
    """,
    # 2: the bot as a player: the computer level of each side it plays (NULL: a person).
    """
    ALTER TABLE games ADD COLUMN level_a TEXT;
    ALTER TABLE games ADD COLUMN level_b TEXT;
    ALTER TABLE games ADD COLUMN autoplay INTEGER NOT NULL DEFAULT 0;
    """,
)


_INSERT_GAME = """
    INSERT INTO games (guild_id, channel_id, player_a, player_b, variant, record, message_id, created_at, updated_at,
                       level_a, level_b, autoplay)
    SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
"""


class Written(NamedTuple):
    """What one write statement did."""

    rowcount: int
    lastrowid: int | None


class StorageError(RuntimeError):
    """The database cannot be opened, read or written. The message is fit for a log line."""


class Conflict(Exception):
    """A write lost a race or met a rule of the schema (a busy channel, a stale version)."""


def _now_text(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def _when(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


@dataclass(frozen=True)
class ChallengeRow:
    id: int
    guild_id: int
    channel_id: int
    challenger_id: int
    opponent_id: int
    variant: str
    first: str
    message_id: int | None
    created_at: datetime
    expires_at: datetime

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> ChallengeRow:
        data = dict(row)
        data["created_at"], data["expires_at"] = _when(data["created_at"]), _when(data["expires_at"])
        return cls(**data)


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    player_a: int
    player_b: int
    variant: str
    record: str
    version: int
    message_id: int | None
    status: str
    result: str | None
    reason: str | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    #: The computer level playing side A / B, or ``None`` for a person.
    level_a: str | None = None
    level_b: str | None = None
    #: An exhibition that plays on its own (else one move per "Next move" press).
    autoplay: int = 0

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> GameRow:
        data = dict(row)
        for key in ("created_at", "updated_at", "finished_at"):
            data[key] = _when(data[key])
        return cls(**data)

    @property
    def players(self) -> tuple[int, int]:
        return self.player_a, self.player_b

    @property
    def live(self) -> bool:
        return self.status == "live"


class Store:
    """The bot's database. Open it with :meth:`open`; every method is one transaction."""

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self._db = connection
        self.path = path
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date.

        :raises StorageError: if the file cannot be opened or is not a usable database.
        """
        path = Path(path)
        if path.exists() and not path.is_file():
            # Checked here rather than left to SQLite: a failed aiosqlite connect leaves its
            # worker thread posting to the event loop after the caller has moved on.
            raise StorageError(f"cannot open the database {path}: it is not a file")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            connection = await aiosqlite.connect(path, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise StorageError(f"cannot open the database {path}: {exc}") from exc
        connection.row_factory = sqlite3.Row
        store = cls(connection, path)
        try:
            for pragma in ("journal_mode = WAL", "foreign_keys = ON", "busy_timeout = 5000"):
                await store._run(f"PRAGMA {pragma}")
            await store._migrate()
        except sqlite3.Error as exc:
            await connection.close()
            raise StorageError(f"cannot use the database {path}: {exc} (restore a backup or move the file away)") from exc
        return store

    async def close(self) -> None:
        await self._db.close()

    async def _migrate(self) -> None:
        while True:
            async with self._transaction():
                # Read inside the transaction: another process may be migrating the same file.
                version = await self.schema_version()
                if version > len(MIGRATIONS):
                    raise sqlite3.DatabaseError(f"schema version {version} is newer than this bot knows ({len(MIGRATIONS)})")
                if version == len(MIGRATIONS):
                    return
                number = version + 1
                for statement in (part.strip() for part in MIGRATIONS[number - 1].split(";")):
                    if statement:
                        await self._run(statement)
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

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            (version,) = await cursor.fetchone()
        return version

    # -- plumbing -------------------------------------------------------------------------

    async def _run(self, sql: str) -> None:
        """Execute one statement and close its cursor (an open cursor blocks COMMIT)."""
        async with self._db.execute(sql):
            pass

    async def _write(self, *statements: tuple[str, tuple]) -> list[Written]:
        """Run ``statements`` in one immediate transaction; translate failures."""
        written = []
        try:
            async with self._transaction():
                for sql, params in statements:
                    async with self._db.execute(sql, params) as cursor:
                        written.append(Written(cursor.rowcount, cursor.lastrowid))
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from exc
        except sqlite3.Error as exc:
            raise StorageError(f"cannot write to the database {self.path}: {exc}") from exc
        return written

    async def _read(self, sql: str, params: tuple = ()) -> list[sqlite3.Row]:
        try:
            async with self._db.execute(sql, params) as cursor:
                return await cursor.fetchall()
        except sqlite3.Error as exc:
            raise StorageError(f"cannot read the database {self.path}: {exc}") from exc

    async def _one(self, kind, sql: str, params: tuple):
        """The first row of a query as a ``kind`` (:class:`ChallengeRow`, :class:`GameRow`), or ``None``."""
        rows = await self._read(sql, params)
        return kind.from_row(rows[0]) if rows else None

    # -- meta -----------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        rows = await self._read("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0]["value"] if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        await self._write(("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value)))

    # -- challenges -----------------------------------------------------------------------

    async def add_challenge(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int,
        variant: str,
        first: str,
        created_at: datetime,
        expires_at: datetime,
    ) -> ChallengeRow:
        """Store a new open challenge.

        :raises Conflict: if the channel already has an open challenge or a live game.
        """
        (cursor,) = await self._write(
            (
                """
                INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, variant, first, created_at, expires_at)
                SELECT ?, ?, ?, ?, ?, ?, ?, ?
                WHERE NOT EXISTS (SELECT 1 FROM games WHERE channel_id = ? AND status = 'live')
                """,
                (guild_id, channel_id, challenger_id, opponent_id, variant, first,
                 _now_text(created_at), _now_text(expires_at), channel_id),
            ),
        )
        if cursor.rowcount != 1:
            raise Conflict("the channel has a live game")
        return await self.get_challenge(cursor.lastrowid)

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        return await self._one(ChallengeRow, "SELECT * FROM challenges WHERE id = ?", (challenge_id,))

    async def challenge_in(self, channel_id: int) -> ChallengeRow | None:
        return await self._one(ChallengeRow, "SELECT * FROM challenges WHERE channel_id = ?", (channel_id,))

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        await self._write(("UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)))

    async def delete_challenge(self, challenge_id: int) -> bool:
        """Remove an open challenge; ``False`` if it was already gone (answered, expired)."""
        (cursor,) = await self._write(("DELETE FROM challenges WHERE id = ?", (challenge_id,)))
        return cursor.rowcount == 1

    async def due_challenges(self, now: datetime) -> list[ChallengeRow]:
        rows = await self._read("SELECT * FROM challenges WHERE expires_at <= ? ORDER BY id", (_now_text(now),))
        return [ChallengeRow.from_row(row) for row in rows]

    # -- games ----------------------------------------------------------------------------

    async def start_game(
        self, challenge: ChallengeRow, *, player_a: int, player_b: int, record: str, now: datetime
    ) -> GameRow:
        """Turn an open challenge into a live game, in one transaction.

        :raises Conflict: if the challenge was already answered or the channel is busy.
        """
        written = await self._write(
            ("DELETE FROM challenges WHERE id = ?", (challenge.id,)),
            (
                _INSERT_GAME + " WHERE changes() = 1",
                (challenge.guild_id, challenge.channel_id, player_a, player_b, challenge.variant, record,
                 challenge.message_id, _now_text(now), _now_text(now), None, None, 0),
            ),
        )
        if written[1].rowcount != 1:
            raise Conflict("the challenge was already answered")
        return await self.get_game(written[1].lastrowid)

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        player_a: int,
        player_b: int,
        variant: str,
        record: str,
        now: datetime,
        levels: tuple[str | None, str | None] = (None, None),
        autoplay: bool = False,
    ) -> GameRow:
        """Start a live game at once (the computer plays ``levels``: no challenge to accept).

        :raises Conflict: if the channel has a live game or an open challenge.
        """
        (written,) = await self._write(
            (
                _INSERT_GAME + " WHERE NOT EXISTS (SELECT 1 FROM challenges WHERE channel_id = ?)",
                (guild_id, channel_id, player_a, player_b, variant, record, None, _now_text(now), _now_text(now),
                 *levels, int(autoplay), channel_id),
            ),
        )
        if written.rowcount != 1:
            raise Conflict("the channel has an open challenge")
        return await self.get_game(written.lastrowid)

    async def live_computer_games(self) -> list[GameRow]:
        """Every live game the bot plays in, to resume its thinking after a restart."""
        rows = await self._read("SELECT * FROM games WHERE status = 'live' AND (level_a IS NOT NULL OR level_b IS NOT NULL) ORDER BY id")
        return [GameRow.from_row(row) for row in rows]

    async def get_game(self, game_id: int) -> GameRow | None:
        return await self._one(GameRow, "SELECT * FROM games WHERE id = ?", (game_id,))

    async def live_game(self, channel_id: int) -> GameRow | None:
        return await self._one(GameRow, "SELECT * FROM games WHERE channel_id = ? AND status = 'live'", (channel_id,))

    async def update_game(
        self,
        game: GameRow,
        *,
        now: datetime,
        record: str | None = None,
        message_id: int | None = None,
        status: str = "live",
        result: str | None = None,
        reason: str | None = None,
    ) -> GameRow:
        """Save a new state of ``game`` if nobody changed it since it was read.

        The version goes up by one, so buttons drawn for the old version stop working.

        :raises Conflict: if the stored version is no longer ``game.version``.
        """
        finished = _now_text(now) if status != "live" else None
        (cursor,) = await self._write(
            (
                """
                UPDATE games SET record = ?, message_id = ?, status = ?, result = ?, reason = ?,
                       version = version + 1, updated_at = ?, finished_at = ?
                WHERE id = ? AND version = ? AND status = 'live'
                """,
                (record if record is not None else game.record,
                 message_id if message_id is not None else game.message_id,
                 status, result, reason, _now_text(now), finished, game.id, game.version),
            ),
        )
        if cursor.rowcount != 1:
            raise Conflict("the game changed meanwhile")
        return await self.get_game(game.id)

    async def archived_games(self, channel_id: int | None = None) -> list[GameRow]:
        """Finished and aborted games, newest first (of one channel, or all)."""
        where, params = ("AND channel_id = ?", (channel_id,)) if channel_id is not None else ("", ())
        rows = await self._read(f"SELECT * FROM games WHERE status != 'live' {where} ORDER BY id DESC", params)
        return [GameRow.from_row(row) for row in rows]
