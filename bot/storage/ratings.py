"""Queries of ratings, standings and a player's archive.

A rated game changes both ratings in the transaction that archives it
(:meth:`bot.storage.games.GameQueries.update_game`), so a restart or a race never counts a game
twice or not at all; every change is kept (``rating_changes``) for the history chart.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.ratings import SCORES, Rating, family, rate_game

from .database import Database, time_text, when
from .rows import GameRow


@dataclass(frozen=True)
class RatingChange:
    """What one rated game did to one player's rating."""

    game_id: int
    user_id: int
    variant: str
    before: Rating
    after: Rating
    changed_at: datetime

    @property
    def delta(self) -> float:
        return self.after.rating - self.before.rating


@dataclass(frozen=True)
class Standing:
    """A player's place in a leaderboard."""

    place: int
    user_id: int
    rating: Rating


@dataclass(frozen=True)
class Record:
    """A player's results: games, wins, draws, losses (aborted games count as games only)."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0


def _rating(row) -> Rating:
    return Rating(row["rating"], row["rd"], row["volatility"], row["games"])


def _scope(guild_id: int | None) -> tuple[str, tuple]:
    """The condition that keeps a leaderboard to one server's players (``None``: everyone)."""
    if guild_id is None:
        return "", ()
    return " AND user_id IN (SELECT user_id FROM guild_players WHERE guild_id = ?)", (guild_id,)


class RatingQueries(Database):
    """Ratings, their history, leaderboards, a player's results and archive."""

    async def _rate(self, game: GameRow, moment: datetime) -> None:
        """Rate the finished game ``game`` (inside the write that archives it)."""
        variant = family(game.variant)
        rows = await self._rows(
            "SELECT * FROM ratings WHERE variant = ? AND user_id IN (?, ?)", (variant, game.player_a, game.player_b)
        )
        known = {row["user_id"]: _rating(row) for row in rows}
        before = known.get(game.player_a, Rating()), known.get(game.player_b, Rating())
        after = rate_game(*before, SCORES[game.result])
        for user, old, new in zip(game.players, before, after, strict=True):
            await self._step("INSERT OR IGNORE INTO guild_players VALUES (?, ?)", (game.guild_id, user))
            await self._step(
                """
                INSERT INTO ratings (user_id, variant, rating, rd, volatility, games, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (user_id, variant) DO UPDATE SET rating = excluded.rating, rd = excluded.rd,
                    volatility = excluded.volatility, games = excluded.games, updated_at = excluded.updated_at
                """,
                (user, variant, new.rating, new.rd, new.volatility, new.games, time_text(moment)),
            )
            await self._step(
                "INSERT INTO rating_changes VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game.id, user, variant, old.rating, old.rd, new.rating, new.rd, time_text(moment)),
            )

    async def after_migration(self, number: int) -> None:
        await super().after_migration(number)
        if number == 4:  # the games archived before ratings existed count, in the order they finished
            rows = await self._rows(
                "SELECT * FROM games WHERE status = 'finished' AND level_a IS NULL AND level_b IS NULL "
                "AND result IS NOT NULL ORDER BY finished_at, id"
            )
            for row in rows:
                game = GameRow.from_row(row)
                await self._rate(game, game.finished_at)

    async def rating_changes(self, game_id: int) -> list[RatingChange]:
        """What game ``game_id`` did to its players' ratings (empty if unrated), A first."""
        rows = await self._read(
            """
            SELECT c.*, g.player_a FROM rating_changes c JOIN games g ON g.id = c.game_id
            WHERE c.game_id = ? ORDER BY c.user_id = g.player_a DESC
            """,
            (game_id,),
        )
        return [
            RatingChange(
                row["game_id"], row["user_id"], row["variant"],
                Rating(row["rating_before"], row["rd_before"]), Rating(row["rating_after"], row["rd_after"]),
                when(row["changed_at"]),
            )
            for row in rows
        ]

    async def ratings_of(self, user_id: int) -> dict[str, Rating]:
        """A player's rating in each rule set they were rated in."""
        rows = await self._read("SELECT * FROM ratings WHERE user_id = ? ORDER BY games DESC, variant", (user_id,))
        return {row["variant"]: _rating(row) for row in rows}

    async def rating_history(self, user_id: int, variant: str) -> list[tuple[datetime, float]]:
        """Every rating a player had in ``variant``, oldest first (the first is before any game)."""
        rows = await self._read(
            "SELECT changed_at, rating_before, rating_after FROM rating_changes WHERE user_id = ? AND variant = ? ORDER BY changed_at, game_id",
            (user_id, variant),
        )
        if not rows:
            return []
        return [(when(rows[0]["changed_at"]), rows[0]["rating_before"])] + [(when(r["changed_at"]), r["rating_after"]) for r in rows]

    async def leaderboard(self, variant: str, *, guild_id: int | None, offset: int, limit: int) -> list[Standing]:
        """Players by rating in ``variant``, best first (of one server's players, or everyone)."""
        where, params = _scope(guild_id)
        rows = await self._read(
            f"SELECT * FROM ratings WHERE variant = ?{where} ORDER BY rating DESC, user_id LIMIT ? OFFSET ?",
            (variant, *params, limit, offset),
        )
        return [Standing(offset + number, row["user_id"], _rating(row)) for number, row in enumerate(rows, start=1)]

    async def place_of(self, user_id: int, variant: str, *, guild_id: int | None) -> tuple[Standing | None, int]:
        """``user_id``'s standing in a leaderboard (``None`` if not rated there) and its size."""
        where, params = _scope(guild_id)
        (size,) = await self._read(f"SELECT COUNT(*) AS n FROM ratings WHERE variant = ?{where}", (variant, *params))
        own = await self._read("SELECT * FROM ratings WHERE variant = ? AND user_id = ?", (variant, user_id))
        if not own or (guild_id is not None and not await self._read(
            "SELECT 1 FROM guild_players WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )):
            return None, size["n"]
        mine = _rating(own[0])
        (ahead,) = await self._read(
            f"SELECT COUNT(*) AS n FROM ratings WHERE variant = ?{where} AND (rating > ? OR (rating = ? AND user_id < ?))",
            (variant, *params, mine.rating, mine.rating, user_id),
        )
        return Standing(ahead["n"] + 1, user_id, mine), size["n"]

    async def archive_of(self, user_id: int, *, offset: int, limit: int) -> list[GameRow]:
        """A player's archived games, newest first."""
        rows = await self._read(
            """
            SELECT * FROM (
                SELECT * FROM games WHERE player_a = ? AND status != 'live'
                UNION ALL SELECT * FROM games WHERE player_b = ? AND status != 'live'
            ) ORDER BY id DESC LIMIT ? OFFSET ?
            """,
            (user_id, user_id, limit, offset),
        )
        return [GameRow.from_row(row) for row in rows]

    async def results_of(self, user_id: int, variant: str | None = None) -> dict[str | None, Record]:
        """A player's results by opponent: ``None`` for people, else the computer level."""
        rows = await self._read(
            """
            SELECT opponent_level, COUNT(*) AS games,
                   SUM(result = side) AS wins, SUM(result = 'draw') AS draws,
                   SUM(result IS NOT NULL AND result != 'draw' AND result != side) AS losses
            FROM (
                SELECT 'A' AS side, level_b AS opponent_level, result, variant FROM games
                WHERE player_a = ? AND status != 'live' AND level_a IS NULL
                UNION ALL
                SELECT 'B', level_a, result, variant FROM games
                WHERE player_b = ? AND status != 'live' AND level_b IS NULL
            ) WHERE ? IS NULL OR variant = ? OR variant LIKE ? || '/%'
            GROUP BY opponent_level
            """,
            (user_id, user_id, variant, variant, variant),
        )
        return {row["opponent_level"]: Record(row["games"], row["wins"] or 0, row["draws"] or 0, row["losses"] or 0) for row in rows}

    async def results_in_order(self, user_id: int, variant: str | None = None) -> list[str]:
        """A player's results, oldest first: ``win``, ``draw`` or ``loss`` (for streaks)."""
        rows = await self._read(
            """
            SELECT CASE WHEN result = 'draw' THEN 'draw' WHEN result = side THEN 'win' ELSE 'loss' END AS outcome FROM (
                SELECT 'A' AS side, id, result, variant FROM games WHERE player_a = ? AND status = 'finished' AND level_a IS NULL
                UNION ALL
                SELECT 'B', id, result, variant FROM games WHERE player_b = ? AND status = 'finished' AND level_b IS NULL
            ) WHERE ? IS NULL OR variant = ? OR variant LIKE ? || '/%'
            ORDER BY id
            """,
            (user_id, user_id, variant, variant, variant),
        )
        return [row["outcome"] for row in rows]
