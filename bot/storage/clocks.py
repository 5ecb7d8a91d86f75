"""Queries of clocks and pings. The sweeps read only due rows, through the
partial indexes of schema version 3."""

from __future__ import annotations

from datetime import datetime, timedelta

from .backend import ALIVE_LOCK
from .database import Queries, time_text, when
from .rows import GAME_WITH_PINGS, GameRow, game_and_muted, to_column


class ClockQueries(Queries):
    """Deadlines, due pings, and the heartbeat that pauses clocks after an outage."""

    async def games_past_deadline(self, now: datetime) -> list[GameRow]:
        """Live games whose player to move has run out of time, oldest deadline first; not those
        where the bot only answers interactions (``venue`` ``interaction``): it cannot say there
        that a game ended, so their next press or ``/wari board`` applies the time-out."""
        mine, params = self._db.own_shards()
        rows = await self._db.read(
            "SELECT * FROM games WHERE status = 'live' AND deadline IS NOT NULL AND deadline <= ? "
            f"AND venue <> 'interaction'{mine} "
            "ORDER BY deadline",
            (time_text(now), *params),
        )
        return [GameRow.from_row(row) for row in rows]

    async def games_due_a_ping(self, now: datetime) -> list[GameRow]:
        """Live games whose player to move is due a ping (their turn, or a reminder); not those
        where the bot only answers interactions: their turn is called in a follow-up of the move."""
        mine, params = self._db.own_shards()
        rows = await self._db.read(
            "SELECT * FROM games WHERE status = 'live' AND ping_at IS NOT NULL AND ping_at <= ? "
            f"AND venue <> 'interaction'{mine} "
            "ORDER BY ping_at",
            (time_text(now), *params),
        )
        return [GameRow.from_row(row) for row in rows]

    async def game_to_ping(self, game_id: int) -> tuple[GameRow, frozenset[int]] | None:
        """A game about to ping its player to move, and those of its players who turned pings
        off: one read (``None`` if there is no such game)."""
        rows = await self._db.read(f"SELECT {GAME_WITH_PINGS} FROM games WHERE games.id = ?", (game_id,))
        return game_and_muted(rows[0]) if rows else None

    async def record_ping(
        self, game: GameRow, *, message_id: int | None, next_at: datetime | None, next_kind: str | None
    ) -> GameRow | None:
        """The ping ``game`` was due (as read) was posted as ``message_id`` (``None``: not posted);
        the next one falls due at ``next_at``. The game as it is now.

        Compare-and-set on the game's version and due time: ``None`` if the game moved on, ended
        or had this ping recorded meanwhile (by another process): nothing is written, and the
        caller takes its message back. A ping is not a change of the game: the version stays, so
        it never makes a press lose its race.
        """
        if game.ping_at is None:
            raise ValueError(f"game {game.id} is due no ping")
        recorded = await self._db.write_one(
            """
            UPDATE games SET ping_message_id = ?, ping_kind = ?, ping_at = ?
            WHERE id = ? AND status = 'live' AND version = ? AND ping_at = ? RETURNING *
            """,
            (message_id, next_kind, to_column(next_at), game.id, game.version, time_text(game.ping_at)),
        )
        return GameRow.from_row(recorded[0]) if recorded else None

    async def forget_ping(self, game_id: int, message_id: int) -> bool:
        """Forget the ping message ``message_id`` of a live game (its turn has passed); ``False``
        if another ping replaced it meanwhile."""
        forgotten = await self._db.write_one(
            "UPDATE games SET ping_message_id = NULL WHERE id = ? AND status = 'live' "
            "AND ping_message_id = ? RETURNING id",
            (game_id, message_id),
        )
        return bool(forgotten)

    async def credit_downtime(
        self, now: datetime, *, longer_than: timedelta, note_every: timedelta
    ) -> tuple[timedelta, list[GameRow]]:
        """Note that the bot is alive at ``now`` (at most every ``note_every``); if it was silent
        for longer than ``longer_than``, pause every running clock of its servers for that long, once.

        The last sign of life (meta ``alive_at``, one per set of shards) and the deadlines move in
        one transaction under a lock, so a crash halfway never credits twice or not at all, nor
        do two processes of the same shards. Returns the gap credited (zero if none) and the live
        games whose deadlines moved.
        """
        key = "alive_at" if self._db.shards is None else f"alive_at {self._db.shards}"
        shifted: list[GameRow] = []
        gap = timedelta(0)
        last = when(await self._db.get_meta(key))
        if last is not None and now - last < note_every:
            return gap, shifted  # noted recently: no write (a commit costs a disk flush)
        async with self._db.writing():
            await self._db.lock(ALIVE_LOCK)
            rows = await self._db.rows("SELECT value FROM meta WHERE key = ?", (key,))
            last = when(rows[0]["value"]) if rows else None
            if last is not None and now - last > longer_than:
                gap = now - last
                shifted = await self._pause_clocks(gap)
            await self._db.step(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, time_text(now)),
            )
        return gap, shifted

    async def _pause_clocks(self, gap: timedelta) -> list[GameRow]:
        """Move the running clocks of this process's games on by ``gap`` (inside a write); a
        reminder moves with them, a turn ping stays due."""
        gap = timedelta(seconds=int(gap.total_seconds()))
        mine, params = self._db.own_shards()
        running = await self._db.rows(
            f"SELECT * FROM games WHERE status = 'live' AND deadline IS NOT NULL{mine}", params
        )
        shifted: list[GameRow] = []
        for game in map(GameRow.from_row, running):
            assert game.deadline is not None  # the query reads only games with a deadline
            ping_at = game.ping_at + gap if game.ping_kind == "reminder" and game.ping_at else game.ping_at
            # The version guards against a press of another process that moved this clock meanwhile.
            rows = await self._db.rows(
                """
                UPDATE games SET deadline = ?, ping_at = ?, clock_paused = clock_paused + ?, version = version + 1
                WHERE id = ? AND version = ? RETURNING *
                """,
                (time_text(game.deadline + gap), to_column(ping_at), int(gap.total_seconds()), game.id, game.version),
            )
            shifted.extend(map(GameRow.from_row, rows))
        return shifted
