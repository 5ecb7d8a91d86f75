"""Queries of challenges and games."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from .backend import Step
from .database import Conflict, Database, Queries, time_text
from .ratings import RatingQueries, SavedGame
from .rows import GAME_STATE, GAME_WITH_PINGS, SERVER, ChallengeRow, GameRow, saved_game, to_column

#: No ping message: a message id is never 0 (a Discord id is far larger).
NO_PING = 0
#: That a game still names the ping message of a parameter (:data:`NO_PING`: none), in the SQL
#: both back ends read (PostgreSQL has no ``IS ?``, SQLite before 3.39 no ``IS NOT DISTINCT FROM``).
SAME_PING = f"COALESCE(ping_message_id, {NO_PING}) = ?"


class GameQueries(Queries):
    """Open challenges, live games keyed by channel, and the archive. A game's end is counted
    (results, ratings) by ``ratings`` in the transaction that archives it."""

    def __init__(self, database: Database, ratings: RatingQueries) -> None:
        super().__init__(database)
        self._ratings = ratings

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
        challenger_name: str | None = None,
        opponent_name: str | None = None,
        min_rating: int | None = None,
        max_rating: int | None = None,
        rated: bool = True,
        venue: str = SERVER,
    ) -> ChallengeRow:
        """Store a new open challenge.

        :raises Conflict: if the channel already has an open challenge or a live game.
        """
        async with self._db.writing():
            await self._db.lock(channel_id)
            if await self._db.rows("SELECT 1 FROM games WHERE channel_id = ? AND status = 'live'", (channel_id,)):
                raise Conflict("the channel has a live game")
            (row,) = await self._db.rows(
                """
                INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, variant, first, created_at,
                                        expires_at, clock, thread, rematch_of, challenger_name, opponent_name,
                                        min_rating, max_rating, rated, venue)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *
                """,
                (
                    guild_id,
                    channel_id,
                    challenger_id,
                    opponent_id,
                    variant,
                    first,
                    time_text(created_at),
                    time_text(expires_at),
                    clock,
                    int(thread),
                    rematch_of,
                    challenger_name,
                    opponent_name,
                    min_rating,
                    max_rating,
                    int(rated),
                    venue,
                ),
            )
        return ChallengeRow.from_row(row)

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        return await self._db.one(ChallengeRow, "SELECT * FROM challenges WHERE id = ?", (challenge_id,))

    async def challenge_in(self, channel_id: int) -> ChallengeRow | None:
        return await self._db.one(ChallengeRow, "SELECT * FROM challenges WHERE channel_id = ?", (channel_id,))

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        await self._db.write(("UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)))

    async def delete_challenge(self, challenge_id: int) -> bool:
        """Remove an open challenge; ``False`` if it was already gone (answered, expired)."""
        (cursor,) = await self._db.write(("DELETE FROM challenges WHERE id = ?", (challenge_id,)))
        return cursor.rowcount == 1

    async def due_challenges(self, now: datetime) -> list[ChallengeRow]:
        mine, params = self._db.own_shards()
        rows = await self._db.read(
            f"SELECT * FROM challenges WHERE expires_at <= ?{mine} ORDER BY id", (time_text(now), *params)
        )
        return [ChallengeRow.from_row(row) for row in rows]

    # -- games ----------------------------------------------------------------------------

    async def insert_game(self, columns: dict) -> GameRow:
        """Insert a live game (a step of a write that holds its channel's lock)."""
        names = ", ".join(columns)
        marks = ", ".join("?" for _ in columns)
        (row,) = await self._db.rows(
            f"INSERT INTO games ({names}) VALUES ({marks}) RETURNING *",
            tuple(to_column(value) for value in columns.values()),
        )
        return GameRow.from_row(row)

    async def start_game(self, challenge: ChallengeRow, *, now: datetime, **columns: Any) -> GameRow:
        """Turn an open challenge into a live game, in one transaction.

        ``columns`` are the game's (players, record, clock state...); the channel, variant,
        clock, thread and message come from the challenge.

        :raises Conflict: if the challenge was already answered or the channel is busy.
        """
        columns = {
            "guild_id": challenge.guild_id,
            "channel_id": challenge.channel_id,
            "variant": challenge.variant,
            "message_id": challenge.message_id,
            "clock": challenge.clock,
            "thread": challenge.thread,
            "rated": challenge.rated,
            "venue": challenge.venue,
            "created_at": now,
            "updated_at": now,
            **columns,
        }
        async with self._db.writing():
            await self._db.lock(challenge.channel_id)
            if not (await self._db.step("DELETE FROM challenges WHERE id = ?", (challenge.id,))).rowcount:
                raise Conflict("the challenge was already answered")
            return await self.insert_game(columns)

    async def create_game(self, *, now: datetime, **columns: Any) -> GameRow:
        """Start a live game at once (against the computer: no challenge to accept).

        ``columns`` name the game's columns (``guild_id``, ``channel_id``, players, levels...).

        :raises Conflict: if the channel has a live game or an open challenge.
        """
        columns = {"created_at": now, "updated_at": now, **columns}
        async with self._db.writing():
            await self._db.lock(columns["channel_id"])
            if await self._db.rows("SELECT 1 FROM challenges WHERE channel_id = ?", (columns["channel_id"],)):
                raise Conflict("the channel has an open challenge")
            return await self.insert_game(columns)

    async def count_live_games(self) -> int:
        """How many games are live on this process's shards (the metrics' gauge)."""
        mine, params = self._db.own_shards()
        rows = await self._db.read(f"SELECT COUNT(*) AS n FROM games WHERE status = 'live'{mine}", params)
        return int(rows[0]["n"])

    async def live_computer_games(self) -> list[GameRow]:
        """Every live game the bot plays in (on this process's shards), to resume its thinking after a restart."""
        mine, params = self._db.own_shards()
        rows = await self._db.read(
            f"SELECT * FROM games WHERE status = 'live' AND (level_a IS NOT NULL OR level_b IS NOT NULL){mine} "
            "ORDER BY id",
            params,
        )
        return [GameRow.from_row(row) for row in rows]

    async def mark_shown(self, *games: GameRow) -> None:
        """Note that each of ``games``' board message now shows its ``version`` (never going back), in
        one write. No version change: this is about their view, not their state."""
        marks = [(game.version, game.id, game.message_id, game.version) for game in games]
        mark = (
            "UPDATE games SET shown_version = ? WHERE id = ? AND message_id = ? "
            "AND (shown_version IS NULL OR shown_version < ?)"
        )
        if len(marks) == 1:
            await self._db.write_one(mark, marks[0])
        elif marks:
            async with self._db.writing():
                await self._db.many(mark, marks)

    async def boards_behind(self) -> list[GameRow]:
        """The live games (on this process's shards) whose board may show an older state than the
        stored one, the longest unchanged first; not those where the bot only answers interactions
        (it cannot edit their boards by itself: their next press does)."""
        mine, params = self._db.own_shards()
        rows = await self._db.read(
            "SELECT * FROM games WHERE status = 'live' AND message_id IS NOT NULL AND venue <> 'interaction' "
            f"AND (shown_version IS NULL OR shown_version < version){mine} ORDER BY updated_at, id",
            params,
        )
        return [GameRow.from_row(row) for row in rows]

    async def get_game(self, game_id: int) -> GameRow | None:
        return await self._db.one(GameRow, "SELECT * FROM games WHERE id = ?", (game_id,))

    async def live_game(
        self, channel_id: int, *, user_id: int | None = None, game_id: int | None = None
    ) -> GameRow | None:
        """The channel's live game: the one ``user_id`` plays in, or game ``game_id``, if given.
        An event's thread holds several (one per player): without either, the oldest."""
        where, params = "channel_id = ? AND status = 'live'", [channel_id]
        if user_id is not None:
            where, params = f"{where} AND (player_a = ? OR player_b = ?)", [*params, user_id, user_id]
        if game_id is not None:
            where, params = f"{where} AND id = ?", [*params, game_id]
        return await self._db.one(GameRow, f"SELECT * FROM games WHERE {where} ORDER BY id LIMIT 1", tuple(params))

    async def live_games(self, channel_id: int) -> list[GameRow]:
        """Every live game of a channel, oldest first (several only in an event's thread)."""
        rows = await self._db.read(
            "SELECT * FROM games WHERE channel_id = ? AND status = 'live' ORDER BY id", (channel_id,)
        )
        return [GameRow.from_row(row) for row in rows]

    async def update_game(self, game: GameRow, *, now: datetime, **changes: Any) -> GameRow:
        """:meth:`save_game`'s game (:class:`Conflict` if the stored version is no longer ``game.version``)."""
        return (await self.save_game(game, now=now, **changes)).row

    async def save_game(self, game: GameRow, *, now: datetime, **changes: Any) -> SavedGame:
        """Save a new state of ``game`` if nobody changed it since it was read: the game saved,
        those of its players who turned pings off (read by the same statement, for its next ping),
        and for a game this archives, what it did to the ratings.
        ``changes`` name columns of the game's state (record, status, result, reason, message,
        clock state, pings, draw offer); ``finished_at`` is set when ``status`` leaves ``live``.
        The version goes up by one, so a writer that read the old version loses (:class:`Conflict`);
        so does one that finds another ping message recorded than ``game`` names: a ping is
        recorded without a change of version, and the game saved must name the ping of the game
        it was saved over (the one to take back once a turn passes, or the one taken back that
        ``changes`` forget). A game archived as finished between two people is rated in the same
        transaction."""
        if unknown := set(changes) - GAME_STATE:
            raise ValueError(f"update_game cannot change {', '.join(sorted(unknown))}")
        ends = changes.get("status", "live") != "live"
        if ends:
            changes["finished_at"] = now
        assignments = "".join(f"{name} = ?, " for name in changes)
        update = (
            f"UPDATE games SET {assignments}version = version + 1, updated_at = ? "
            f"WHERE id = ? AND version = ? AND status = 'live' AND {SAME_PING} RETURNING {GAME_WITH_PINGS}",
            (*map(to_column, changes.values()), time_text(now), game.id, game.version, game.ping_message_id or NO_PING),
        )
        if not ends:  # a move, a ping, an offer: one statement, no transaction needed
            return SavedGame(*saved_game(await self._db.write_one(*update)))
        async with self._db.writing():
            return await self._ratings.archive(replace(game, **changes), now, Step(*update))

    async def move_final_board(self, game: GameRow, message_id: int) -> GameRow:
        """Record that a finished game's final board now lives in ``message_id`` (its state no
        longer changes, so neither does its version)."""
        async with self._db.writing():
            rows = await self._db.rows(
                "UPDATE games SET message_id = ? WHERE id = ? AND status != 'live' RETURNING *", (message_id, game.id)
            )
        if not rows:
            raise Conflict("the game is still live")
        return GameRow.from_row(rows[0])

    async def archived_games(self, channel_id: int | None = None) -> list[GameRow]:
        """Finished and aborted games, newest first (of one channel, or all)."""
        where, params = ("AND channel_id = ?", (channel_id,)) if channel_id is not None else ("", ())
        rows = await self._db.read(f"SELECT * FROM games WHERE status != 'live' {where} ORDER BY id DESC", params)
        return [GameRow.from_row(row) for row in rows]
