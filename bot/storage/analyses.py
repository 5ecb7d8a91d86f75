"""Computer analyses of finished games: queued, running with their progress, done or failed.

An analysis is kept once done (its result is the engine's JSON, :mod:`bot.ai.analysis`), so asking
again is instant. Asking is one transaction that checks the asker's own analysis under way and
the bot's whole queue, under one lock, so two processes sharing the database cannot both take the
last place in the queue.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .backend import Row
from .database import Queries, time_text
from .rows import message_url, row_as

#: An analysis not over yet.
ACTIVE = ("queued", "running")
#: The key of the lock that serialises requests for analyses (no channel or member id is 1).
QUEUE_LOCK = 1


@dataclass(frozen=True)
class AnalysisRow:
    game_id: int
    depth: str
    status: str
    requested_by: int
    guild_id: int
    channel_id: int | None
    message_id: int | None
    done_plies: int
    total_plies: int
    result: str | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None

    @classmethod
    def from_row(cls, row: Row) -> AnalysisRow:
        return row_as(cls, row)

    @property
    def active(self) -> bool:
        return self.status in ACTIVE

    @property
    def message_url(self) -> str:
        """The address of the message that shows the analysis; nothing if it was never posted."""
        if self.channel_id is None or self.message_id is None:
            return ""
        return message_url(self.guild_id, self.channel_id, self.message_id)


@dataclass(frozen=True)
class Queued:
    """What asking for an analysis did: the analysis, and why it was not queued (if it was not)."""

    row: AnalysisRow | None
    #: ``None``: queued now. ``"done"``/``"active"``: this analysis exists already (``row``).
    #: ``"yours"``: the asker has another under way (``row``). ``"full"``: the queue is full.
    refusal: str | None = None


class AnalysisQueries(Queries):
    """Asking for analyses, their progress and their results."""

    async def request_analysis(
        self, *, game_id: int, depth: str, requested_by: int, guild_id: int, total_plies: int, now: datetime, most: int
    ) -> Queued:
        """Queue an analysis of ``game_id`` at ``depth``, unless it exists (done or under way),
        the asker has one under way, or ``most`` analyses are under way for the whole bot.
        A failed analysis is asked again."""
        async with self._db.writing():
            await self._db.lock(QUEUE_LOCK)
            existing = await self._db.rows("SELECT * FROM analyses WHERE game_id = ? AND depth = ?", (game_id, depth))
            if existing and existing[0]["status"] != "failed":
                found = AnalysisRow.from_row(existing[0])
                return Queued(found, "done" if found.status == "done" else "active")
            mine = await self._db.rows(
                "SELECT * FROM analyses WHERE requested_by = ? AND status IN ('queued', 'running')", (requested_by,)
            )
            if mine:
                return Queued(AnalysisRow.from_row(mine[0]), "yours")
            (count,) = await self._db.rows("SELECT COUNT(*) AS n FROM analyses WHERE status IN ('queued', 'running')")
            if count["n"] >= most:
                return Queued(None, "full")
            if existing:
                await self._db.step("DELETE FROM analyses WHERE game_id = ? AND depth = ?", (game_id, depth))
            (inserted,) = await self._db.rows(
                """
                INSERT INTO analyses (game_id, depth, requested_by, guild_id, total_plies, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *
                """,
                (game_id, depth, requested_by, guild_id, total_plies, time_text(now), time_text(now)),
            )
            return Queued(AnalysisRow.from_row(inserted))

    async def analysis(self, game_id: int, depth: str) -> AnalysisRow | None:
        return await self._db.one(
            AnalysisRow, "SELECT * FROM analyses WHERE game_id = ? AND depth = ?", (game_id, depth)
        )

    async def finished_analysis(self, game_id: int) -> AnalysisRow | None:
        """The game's analysis that is done, the deeper one if both are."""
        return await self._db.one(
            AnalysisRow,
            "SELECT * FROM analyses WHERE game_id = ? AND status = 'done' ORDER BY depth = 'default' DESC LIMIT 1",
            (game_id,),
        )

    async def unfinished_analyses(self) -> list[AnalysisRow]:
        """The analyses queued or running (after a restart: those to start again), oldest first;
        of a sharded bot's process, those of its servers (each process runs its own)."""
        mine, params = self._db.own_shards()
        rows = await self._db.read(
            f"SELECT * FROM analyses WHERE status IN ('queued', 'running'){mine} ORDER BY created_at, game_id",
            params,
        )
        return [AnalysisRow.from_row(row) for row in rows]

    async def set_analysis_message(self, game_id: int, depth: str, channel_id: int, message_id: int | None) -> None:
        await self._db.write(
            (
                "UPDATE analyses SET channel_id = ?, message_id = ? WHERE game_id = ? AND depth = ?",
                (channel_id, message_id, game_id, depth),
            )
        )

    async def analysis_progress(self, game_id: int, depth: str, done_plies: int, now: datetime) -> None:
        """Note how far an analysis got (it is running)."""
        await self._db.write(
            (
                "UPDATE analyses SET status = 'running', done_plies = ?, updated_at = ? "
                "WHERE game_id = ? AND depth = ? AND status IN ('queued', 'running')",
                (done_plies, time_text(now), game_id, depth),
            )
        )

    async def end_analysis(self, game_id: int, depth: str, result: str | None, now: datetime) -> AnalysisRow | None:
        """Store a finished analysis (``result``) or mark it failed (``None``)."""
        status = "done" if result is not None else "failed"
        moment = time_text(now)
        rows = await self._db.write_one(
            "UPDATE analyses SET status = ?, result = ?, done_plies = CASE WHEN ? = 'done' THEN total_plies "
            "ELSE done_plies END, updated_at = ?, finished_at = ? WHERE game_id = ? AND depth = ? RETURNING *",
            (status, result, status, moment, moment, game_id, depth),
        )
        return AnalysisRow.from_row(rows[0]) if rows else None
