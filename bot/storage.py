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
from dataclasses import dataclass, fields
from datetime import datetime, timedelta, timezone
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
    # 3: games that never stall: clocks, turn pings and reminders, draw offers, a thread per
    # game, per-user settings. Times are UTC ISO text like the other columns, so they compare
    # as text; the sweeps read only the due rows through the partial indexes.
    """
    ALTER TABLE challenges ADD COLUMN clock TEXT NOT NULL DEFAULT '1d/move';
    ALTER TABLE challenges ADD COLUMN thread INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE challenges ADD COLUMN rematch_of INTEGER REFERENCES games (id);
    ALTER TABLE games ADD COLUMN clock TEXT;
    ALTER TABLE games ADD COLUMN deadline TEXT;
    ALTER TABLE games ADD COLUMN time_a REAL;
    ALTER TABLE games ADD COLUMN time_b REAL;
    ALTER TABLE games ADD COLUMN clock_paused INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN ping_at TEXT;
    ALTER TABLE games ADD COLUMN ping_kind TEXT CHECK (ping_kind IN ('turn', 'reminder'));
    ALTER TABLE games ADD COLUMN ping_message_id INTEGER;
    ALTER TABLE games ADD COLUMN draw_by TEXT CHECK (draw_by IN ('A', 'B'));
    ALTER TABLE games ADD COLUMN draw_ply INTEGER;
    ALTER TABLE games ADD COLUMN draw_open INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN draw_message_id INTEGER;
    ALTER TABLE games ADD COLUMN thread INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX live_games_by_deadline ON games (deadline) WHERE status = 'live' AND deadline IS NOT NULL;
    CREATE INDEX live_games_by_ping ON games (ping_at) WHERE status = 'live' AND ping_at IS NOT NULL;
    CREATE TABLE user_settings (
        user_id INTEGER PRIMARY KEY,
        pings   INTEGER NOT NULL DEFAULT 1
    );
    """,
)


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


def _when(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


#: Columns that hold a time (UTC ISO text in the database, aware datetimes in the rows).
_TIME_COLUMNS = frozenset({"created_at", "expires_at", "updated_at", "finished_at", "deadline", "ping_at"})


def _from_row(kind, row: sqlite3.Row):
    return kind(**{key: _when(value) if key in _TIME_COLUMNS else value for key, value in dict(row).items()})


def _to_column(value):
    return time_text(value) if isinstance(value, datetime) else value


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
    #: The clock code the game will be played with (:mod:`bot.clock`).
    clock: str = "1d/move"
    #: The channel is a thread the bot made for this challenge and its game.
    thread: int = 0
    #: The finished game this challenge asks to play again.
    rematch_of: int | None = None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> ChallengeRow:
        return _from_row(cls, row)


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
    #: The clock code (:mod:`bot.clock`), ``None`` for no clock.
    clock: str | None = None
    #: When the player to move runs out of time; ``None`` while no person's time runs.
    deadline: datetime | None = None
    #: Per-player clocks: seconds banked by A and B.
    time_a: float | None = None
    time_b: float | None = None
    #: Seconds the clocks were paused in all because the bot was offline.
    clock_paused: int = 0
    #: When the next ping of the player to move is due, and which: ``turn`` or ``reminder``.
    ping_at: datetime | None = None
    ping_kind: str | None = None
    #: The last ping posted for this game (deleted when the next one is posted).
    ping_message_id: int | None = None
    #: The latest draw offer: by whom, at which move, whether it still stands, its message.
    draw_by: str | None = None
    draw_ply: int | None = None
    draw_open: int = 0
    draw_message_id: int | None = None
    #: The channel is a thread the bot made for this game; it is archived when the game ends.
    thread: int = 0

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> GameRow:
        return _from_row(cls, row)

    @property
    def players(self) -> tuple[int, int]:
        return self.player_a, self.player_b

    @property
    def live(self) -> bool:
        return self.status == "live"


#: What :meth:`Store.update_game` may change: the game's state, never who plays it or where.
_GAME_STATE = frozenset(field.name for field in fields(GameRow)) - {
    "id", "guild_id", "channel_id", "player_a", "player_b", "variant", "version", "created_at", "updated_at",
    "finished_at", "level_a", "level_b", "autoplay", "clock", "thread",
}


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

    async def _run(self, sql: str, params: tuple = ()) -> None:
        """Execute one statement and close its cursor (an open cursor blocks COMMIT)."""
        async with self._db.execute(sql, params):
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
        clock: str = "1d/move",
        thread: bool = False,
        rematch_of: int | None = None,
    ) -> ChallengeRow:
        """Store a new open challenge.

        :raises Conflict: if the channel already has an open challenge or a live game.
        """
        (cursor,) = await self._write(
            (
                """
                INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, variant, first, created_at,
                                        expires_at, clock, thread, rematch_of)
                SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
                WHERE NOT EXISTS (SELECT 1 FROM games WHERE channel_id = ? AND status = 'live')
                """,
                (guild_id, channel_id, challenger_id, opponent_id, variant, first,
                 time_text(created_at), time_text(expires_at), clock, int(thread), rematch_of, channel_id),
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
        rows = await self._read("SELECT * FROM challenges WHERE expires_at <= ? ORDER BY id", (time_text(now),))
        return [ChallengeRow.from_row(row) for row in rows]

    # -- games ----------------------------------------------------------------------------

    @staticmethod
    def _insert_game(columns: dict, condition: str, condition_params: tuple) -> tuple[str, tuple]:
        names = ", ".join(columns)
        marks = ", ".join("?" for _ in columns)
        values = tuple(_to_column(value) for value in columns.values())
        return f"INSERT INTO games ({names}) SELECT {marks} WHERE {condition}", values + condition_params

    async def start_game(self, challenge: ChallengeRow, *, now: datetime, **columns) -> GameRow:
        """Turn an open challenge into a live game, in one transaction.

        ``columns`` are the game's (players, record, clock state...); the channel, variant,
        clock, thread and message come from the challenge.

        :raises Conflict: if the challenge was already answered or the channel is busy.
        """
        columns = {
            "guild_id": challenge.guild_id, "channel_id": challenge.channel_id, "variant": challenge.variant,
            "message_id": challenge.message_id, "clock": challenge.clock, "thread": challenge.thread,
            "created_at": now, "updated_at": now, **columns,
        }
        written = await self._write(
            ("DELETE FROM challenges WHERE id = ?", (challenge.id,)),
            self._insert_game(columns, "changes() = 1", ()),
        )
        if written[1].rowcount != 1:
            raise Conflict("the challenge was already answered")
        return await self.get_game(written[1].lastrowid)

    async def create_game(self, *, now: datetime, **columns) -> GameRow:
        """Start a live game at once (against the computer: no challenge to accept).

        ``columns`` name the game's columns (``guild_id``, ``channel_id``, players, levels...).

        :raises Conflict: if the channel has a live game or an open challenge.
        """
        columns = {"created_at": now, "updated_at": now, **columns}
        (written,) = await self._write(
            self._insert_game(columns, "NOT EXISTS (SELECT 1 FROM challenges WHERE channel_id = ?)", (columns["channel_id"],))
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

    async def update_game(self, game: GameRow, *, now: datetime, **changes) -> GameRow:
        """Save a new state of ``game`` if nobody changed it since it was read.

        ``changes`` name columns of the game's state (record, status, result, reason, message,
        clock state, pings, draw offer); ``finished_at`` is set when ``status`` leaves ``live``.
        The version goes up by one, so a writer that read the old version loses.

        :raises Conflict: if the stored version is no longer ``game.version``.
        """
        unknown = set(changes) - _GAME_STATE
        if unknown:
            raise ValueError(f"update_game cannot change {', '.join(sorted(unknown))}")
        if changes.get("status", "live") != "live":
            changes["finished_at"] = now
        assignments = "".join(f"{name} = ?, " for name in changes)
        (cursor,) = await self._write(
            (
                f"UPDATE games SET {assignments}version = version + 1, updated_at = ? "
                "WHERE id = ? AND version = ? AND status = 'live'",
                (*map(_to_column, changes.values()), time_text(now), game.id, game.version),
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

    # -- clocks and pings -----------------------------------------------------------------
    # The sweeps read only due rows, through the partial indexes of schema version 3.

    async def games_past_deadline(self, now: datetime) -> list[GameRow]:
        """Live games whose player to move has run out of time, oldest deadline first."""
        rows = await self._read(
            "SELECT * FROM games WHERE status = 'live' AND deadline IS NOT NULL AND deadline <= ? ORDER BY deadline",
            (time_text(now),),
        )
        return [GameRow.from_row(row) for row in rows]

    async def games_due_a_ping(self, now: datetime) -> list[GameRow]:
        """Live games whose player to move is due a ping (their turn, or a reminder)."""
        rows = await self._read(
            "SELECT * FROM games WHERE status = 'live' AND ping_at IS NOT NULL AND ping_at <= ? ORDER BY ping_at",
            (time_text(now),),
        )
        return [GameRow.from_row(row) for row in rows]

    async def claim_ping(self, game: GameRow, until: datetime) -> bool:
        """Take the ping ``game`` is due, for this process, until ``until``.

        Compare-and-set on the game's version and due time: of several sweeps (or processes) one
        wins, and a row read before the game moved on wins nothing. A claim whose ping is never
        recorded (the process died) falls due again at ``until``. The version stays: a ping is
        not a change of the game, and must not make a press lose its race.
        """
        (cursor,) = await self._write(
            (
                "UPDATE games SET ping_at = ? WHERE id = ? AND status = 'live' AND version = ? AND ping_at = ?",
                (time_text(until), game.id, game.version, time_text(game.ping_at)),
            ),
        )
        return cursor.rowcount == 1

    async def record_ping(
        self, game: GameRow, claimed_until: datetime, *, message_id: int | None, next_at: datetime | None, next_kind: str | None
    ) -> bool:
        """The ping claimed until ``claimed_until`` was posted as ``message_id`` (``None``: not
        posted); the next one falls due at ``next_at``.

        ``False`` if the claim no longer stands (the game moved on or ended meanwhile): nothing
        is recorded, and the caller takes its message back.
        """
        (cursor,) = await self._write(
            (
                """
                UPDATE games SET ping_message_id = ?, ping_kind = ?, ping_at = ?
                WHERE id = ? AND status = 'live' AND version = ? AND ping_at = ?
                """,
                (message_id, next_kind, _to_column(next_at), game.id, game.version, time_text(claimed_until)),
            ),
        )
        return cursor.rowcount == 1

    async def credit_downtime(
        self, now: datetime, *, longer_than: timedelta, note_every: timedelta
    ) -> tuple[timedelta, list[GameRow]]:
        """Note that the bot is alive at ``now`` (at most every ``note_every``); if it was silent
        for longer than ``longer_than``, pause every running clock for that long, once.

        The last sign of life (meta ``alive_at``) and the deadlines move in one transaction, so a
        crash halfway never credits twice or not at all. Returns the gap credited (zero if none)
        and the live games whose deadlines moved.
        """
        shifted: list[GameRow] = []
        gap = timedelta(0)
        last = _when(await self.get_meta("alive_at"))
        if last is not None and now - last < note_every:
            return gap, shifted  # noted recently: no write (a commit costs a disk flush)
        try:
            async with self._transaction():
                async with self._db.execute("SELECT value FROM meta WHERE key = 'alive_at'") as cursor:
                    row = await cursor.fetchone()
                last = _when(row["value"]) if row else None
                if last is not None and now - last > longer_than:
                    gap = now - last
                    seconds = int(gap.total_seconds())
                    shift = f"+{seconds} seconds"
                    # The same text as time_text(): %f is seconds with milliseconds, padded to micro.
                    async with self._db.execute(
                        """
                        UPDATE games SET
                            deadline = strftime('%Y-%m-%dT%H:%M:%f000+00:00', deadline, ?),
                            ping_at = CASE WHEN ping_kind = 'reminder'
                                           THEN strftime('%Y-%m-%dT%H:%M:%f000+00:00', ping_at, ?) ELSE ping_at END,
                            clock_paused = clock_paused + ?,
                            version = version + 1
                        WHERE status = 'live' AND deadline IS NOT NULL
                        RETURNING *
                        """,
                        (shift, shift, seconds),
                    ) as cursor:
                        shifted = [GameRow.from_row(row) for row in await cursor.fetchall()]
                await self._run(
                    "INSERT INTO meta (key, value) VALUES ('alive_at', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (time_text(now),),
                )
        except sqlite3.Error as exc:
            raise StorageError(f"cannot write to the database {self.path}: {exc}") from exc
        return gap, shifted

    # -- people ---------------------------------------------------------------------------

    async def pings_enabled(self, user_id: int) -> bool:
        rows = await self._read("SELECT pings FROM user_settings WHERE user_id = ?", (user_id,))
        return bool(rows[0]["pings"]) if rows else True

    async def set_pings(self, user_id: int, enabled: bool) -> None:
        await self._write(
            (
                "INSERT INTO user_settings (user_id, pings) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET pings = excluded.pings",
                (user_id, int(enabled)),
            )
        )
