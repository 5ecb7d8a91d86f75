"""Puzzles as players live them: each player's puzzle rating and streak, each try at a puzzle (the
solver's moves so far, so that a try's board can be drawn again after a restart), each server's
daily puzzle and where and when it is posted.

A try moves on by compare-and-set on its moves (two presses at once play one move), and a try
that ends changes the player's rating and streak in the same transaction, so nothing is counted
twice or lost. A daily puzzle is posted by whoever claims its row first (once a day a server,
whatever the processes).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from .backend import Row
from .database import Queries, time_text
from .rows import row_as


@dataclass(frozen=True)
class PuzzleStanding:
    """A player's puzzle rating (Glicko-2), their tries' results and their streak of solved ones."""

    user_id: int
    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06
    solved: int = 0
    failed: int = 0
    streak: int = 0
    best_streak: int = 0
    updated_at: datetime | None = None

    @classmethod
    def from_row(cls, row: Row) -> PuzzleStanding:
        return row_as(cls, row)

    @property
    def tries(self) -> int:
        return self.solved + self.failed


@dataclass(frozen=True)
class AttemptRow:
    """One try at a puzzle: the solver's moves so far (houses, comma-separated), open or over."""

    id: int
    user_id: int
    guild_id: int | None
    puzzle_id: str
    #: The solver's name as the server showed it when they began (``None``: unknown).
    name: str | None
    #: The UTC day (``2026-05-01``) of a server's daily puzzle; ``None`` for a puzzle of one's own.
    daily: str | None
    moves: str
    status: str
    rating_before: float | None
    rating_after: float | None
    created_at: datetime
    finished_at: datetime | None

    @classmethod
    def from_row(cls, row: Row) -> AttemptRow:
        return row_as(cls, row)

    @property
    def played(self) -> tuple[int, ...]:
        return tuple(int(house) for house in self.moves.split(",") if house)

    @property
    def open(self) -> bool:
        return self.status == "open"


@dataclass(frozen=True)
class DailyPuzzleRow:
    """A server's puzzle of one day, and its message once posted."""

    guild_id: int
    day: str
    puzzle_id: str
    channel_id: int | None
    message_id: int | None
    posted_at: datetime | None

    @classmethod
    def from_row(cls, row: Row) -> DailyPuzzleRow:
        return row_as(cls, row)


@dataclass(frozen=True)
class DailySetting:
    """Where a server's daily puzzle is posted, and from which UTC hour (``None``: not posted)."""

    guild_id: int
    channel_id: int | None
    hour: int | None


def moves_text(played: tuple[int, ...]) -> str:
    return ",".join(map(str, played))


class PuzzleQueries(Queries):
    """Puzzle ratings, tries, daily puzzles and their setting."""

    # -- ratings --------------------------------------------------------------------------------

    async def puzzle_standing(self, user_id: int) -> PuzzleStanding | None:
        """A player's puzzle rating and streak (``None``: no try has ended yet)."""
        return await self._db.one(PuzzleStanding, "SELECT * FROM puzzle_ratings WHERE user_id = ?", (user_id,))

    # -- tries ----------------------------------------------------------------------------------

    async def start_attempt(
        self,
        *,
        user_id: int,
        guild_id: int | None,
        puzzle_id: str,
        daily: str | None,
        now: datetime,
        name: str | None = None,
    ) -> AttemptRow:
        (row,) = await self._db.write_one(
            "INSERT INTO puzzle_attempts (user_id, name, guild_id, puzzle_id, daily, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?) RETURNING *",
            (user_id, name, guild_id, puzzle_id, daily, time_text(now)),
        )
        return AttemptRow.from_row(row)

    async def attempt(self, attempt_id: int) -> AttemptRow | None:
        return await self._db.one(AttemptRow, "SELECT * FROM puzzle_attempts WHERE id = ?", (attempt_id,))

    async def open_attempt(self, user_id: int) -> AttemptRow | None:
        """The player's latest try of their own (not a daily one) still open, if any."""
        return await self._db.one(
            AttemptRow,
            "SELECT * FROM puzzle_attempts WHERE user_id = ? AND daily IS NULL AND status = 'open' ORDER BY id DESC",
            (user_id,),
        )

    async def daily_attempt(self, guild_id: int, day: str, user_id: int) -> AttemptRow | None:
        """The player's try at a server's daily puzzle of ``day``, if any."""
        return await self._db.one(
            AttemptRow,
            "SELECT * FROM puzzle_attempts WHERE guild_id = ? AND daily = ? AND user_id = ? ORDER BY id",
            (guild_id, day, user_id),
        )

    async def tried_puzzles(self, user_id: int) -> set[str]:
        """Every puzzle the player has tried, daily or not."""
        rows = await self._db.read("SELECT DISTINCT puzzle_id FROM puzzle_attempts WHERE user_id = ?", (user_id,))
        return {row["puzzle_id"] for row in rows}

    async def record_move(self, attempt: AttemptRow, played: tuple[int, ...]) -> AttemptRow | None:
        """The try with ``played`` as its moves, still open; ``None`` if it moved on meanwhile."""
        rows = await self._db.write_one(
            "UPDATE puzzle_attempts SET moves = ? WHERE id = ? AND moves = ? AND status = 'open' RETURNING *",
            (moves_text(played), attempt.id, attempt.moves),
        )
        return AttemptRow.from_row(rows[0]) if rows else None

    async def finish_attempt(
        self,
        attempt: AttemptRow,
        played: tuple[int, ...],
        *,
        solved: bool,
        now: datetime,
        rerate: Callable[[PuzzleStanding], PuzzleStanding],
        rated: bool,
    ) -> tuple[AttemptRow, PuzzleStanding, PuzzleStanding] | None:
        """End the try (solved or failed) with ``played`` as its last moves, and change the player's
        standing by ``rerate`` (its rating too when ``rated``), in one transaction. Returns the try
        and the standing before and after; ``None`` if the try moved on meanwhile."""
        async with self._db.writing():
            await self._db.lock(attempt.user_id)
            current = await self._db.rows("SELECT * FROM puzzle_ratings WHERE user_id = ?", (attempt.user_id,))
            before = PuzzleStanding.from_row(current[0]) if current else PuzzleStanding(attempt.user_id)
            after = replace(rerate(before), updated_at=now)
            rows = await self._db.rows(
                "UPDATE puzzle_attempts SET moves = ?, status = ?, finished_at = ?, rating_before = ?, "
                "rating_after = ? WHERE id = ? AND moves = ? AND status = 'open' RETURNING *",
                (
                    moves_text(played),
                    "solved" if solved else "failed",
                    time_text(now),
                    before.rating if rated else None,
                    after.rating if rated else None,
                    attempt.id,
                    attempt.moves,
                ),
            )
            if not rows:
                return None
            await self._db.step(
                "INSERT INTO puzzle_ratings (user_id, rating, rd, volatility, solved, failed, streak, best_streak, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                "rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility, "
                "solved = excluded.solved, failed = excluded.failed, streak = excluded.streak, "
                "best_streak = excluded.best_streak, updated_at = excluded.updated_at",
                (
                    after.user_id,
                    after.rating,
                    after.rd,
                    after.volatility,
                    after.solved,
                    after.failed,
                    after.streak,
                    after.best_streak,
                    time_text(now),
                ),
            )
        return AttemptRow.from_row(rows[0]), before, after

    # -- daily puzzles --------------------------------------------------------------------------

    async def daily_puzzle(self, guild_id: int, day: str, puzzle_id: str) -> DailyPuzzleRow:
        """A server's puzzle of ``day``: the one stored, else ``puzzle_id``, stored now."""
        await self._db.write_one(
            "INSERT INTO daily_puzzles (guild_id, day, puzzle_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            (guild_id, day, puzzle_id),
        )
        row = await self._db.one(
            DailyPuzzleRow, "SELECT * FROM daily_puzzles WHERE guild_id = ? AND day = ?", (guild_id, day)
        )
        assert row is not None  # stored just now, or before
        return row

    async def claim_daily_post(
        self, guild_id: int, day: str, puzzle_id: str, channel_id: int, now: datetime
    ) -> DailyPuzzleRow | None:
        """Claim the posting of a server's puzzle of ``day`` (``puzzle_id`` unless one is stored);
        ``None`` if it was posted (or claimed) already."""
        rows = await self._db.write_one(
            "INSERT INTO daily_puzzles (guild_id, day, puzzle_id, channel_id, posted_at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, day) DO UPDATE SET channel_id = excluded.channel_id, "
            "posted_at = excluded.posted_at WHERE daily_puzzles.posted_at IS NULL RETURNING *",
            (guild_id, day, puzzle_id, channel_id, time_text(now)),
        )
        return DailyPuzzleRow.from_row(rows[0]) if rows else None

    async def set_daily_message(self, guild_id: int, day: str, message_id: int | None) -> None:
        """The posted message of a server's daily puzzle; ``None`` gives up the claim (the post
        failed: the next sweep tries again)."""
        if message_id is None:
            sql = "UPDATE daily_puzzles SET posted_at = NULL, message_id = NULL WHERE guild_id = ? AND day = ?"
            await self._db.write((sql, (guild_id, day)))
            return
        sql = "UPDATE daily_puzzles SET message_id = ? WHERE guild_id = ? AND day = ?"
        await self._db.write((sql, (message_id, guild_id, day)))

    async def daily_results(self, guild_id: int, day: str) -> tuple[list[tuple[int, str | None]], int]:
        """Who solved a server's puzzle of ``day`` (their one try; id and name), in the order they
        did, and how many tries at it have ended."""
        rows = await self._db.read(
            "SELECT user_id, name, status FROM puzzle_attempts WHERE guild_id = ? AND daily = ? "
            "AND status != 'open' ORDER BY finished_at, id",
            (guild_id, day),
        )
        return [(row["user_id"], row["name"]) for row in rows if row["status"] == "solved"], len(rows)

    async def daily_setting(self, guild_id: int) -> DailySetting:
        rows = await self._db.read(
            "SELECT puzzle_channel, puzzle_hour FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        if not rows:
            return DailySetting(guild_id, None, None)
        return DailySetting(guild_id, rows[0]["puzzle_channel"], rows[0]["puzzle_hour"])

    async def set_daily_setting(self, guild_id: int, channel_id: int | None, hour: int | None) -> None:
        await self._db.write(
            (
                "INSERT INTO guild_settings (guild_id, puzzle_channel, puzzle_hour) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET puzzle_channel = excluded.puzzle_channel, "
                "puzzle_hour = excluded.puzzle_hour",
                (guild_id, channel_id, hour),
            )
        )

    async def dailies_due(self, day: str, hour: int) -> list[DailySetting]:
        """The servers (of this process's shards) whose puzzle of ``day`` is due by ``hour`` and
        not posted yet."""
        shards, params = self._db.own_shards()
        rows = await self._db.read(
            "SELECT guild_id, puzzle_channel, puzzle_hour FROM guild_settings AS s "
            "WHERE puzzle_channel IS NOT NULL AND puzzle_hour <= ? AND NOT EXISTS ("
            "SELECT 1 FROM daily_puzzles AS d WHERE d.guild_id = s.guild_id AND d.day = ? AND d.posted_at IS NOT NULL)"
            f"{shards} ORDER BY guild_id",
            (hour, day, *params),
        )
        return [DailySetting(row["guild_id"], row["puzzle_channel"], row["puzzle_hour"]) for row in rows]
