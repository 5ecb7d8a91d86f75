"""Seasons and badges (:mod:`bot.seasons`): a server's season leaderboard, the close of each
season with its podiums, its length and podium channel, and the badges a player's profile shows.

Badges come from what the database keeps: a season's podium and the first win against the Expert
are kept as badges when they happen; a tournament win is read from the standings of the
finished events a player entered, and a puzzle streak from the player's best puzzle streak
(both kept already, so never a copy to keep in step).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from bot.seasons import period_of
from bot.storage import SeasonRow, SeasonStanding, Store

from .tournaments import TournamentService

#: The puzzle streaks that earn a badge: the longest reached is shown.
PUZZLE_STREAKS = (5, 10, 25, 50, 100)


@dataclass(frozen=True)
class SeasonPage:
    """A page of a server's season leaderboard in one rule set."""

    starts_at: datetime
    ends_at: datetime
    rows: list[SeasonStanding]
    #: Whether a next page exists.
    more: bool
    #: The asker's own standing (``None``: no rated game here this season), and how many played.
    mine: SeasonStanding | None
    size: int


@dataclass(frozen=True)
class Badges:
    """What a player's profile shows of their badges."""

    #: How many season podiums at each place (1 to 3).
    podiums: dict[int, int] = field(default_factory=dict)
    tournament_wins: int = 0
    #: The longest puzzle streak of :data:`PUZZLE_STREAKS` reached (``None``: none).
    puzzle_streak: int | None = None
    beat_the_expert: bool = False

    def __bool__(self) -> bool:
        return bool(self.podiums or self.tournament_wins or self.puzzle_streak or self.beat_the_expert)


@dataclass(frozen=True)
class ClosedSeason:
    """A season just closed: its podium in each rule set played in it, and where to post them."""

    season: SeasonRow
    podiums: dict[str, list[SeasonStanding]]
    #: The channel the server chose for podiums, else the season's latest rated game's (``None``: nowhere).
    channel_id: int | None


class SeasonService:
    """Each server's seasons and their leaderboards; players' badges."""

    def __init__(self, store: Store, tournaments: TournamentService) -> None:
        self._store = store
        self._tournaments = tournaments

    async def settings(self, guild_id: int) -> tuple[str, int | None]:
        """A server's season length and the channel of its podiums (``None``: the season's latest game's)."""
        return await self._store.seasons.season_settings(guild_id)

    async def change_settings(
        self, guild_id: int, *, length: str | None, channel_id: int | None
    ) -> tuple[str, int | None]:
        """Change a server's season length and podium channel where given (``channel_id`` 0:
        back to the latest game's channel); the settings as they are now."""
        await self._store.seasons.set_season_settings(guild_id, length=length, channel_id=channel_id)
        return await self.settings(guild_id)

    async def current_bounds(self, guild_id: int, moment: datetime) -> tuple[datetime, datetime]:
        """The bounds of the server's season under way at ``moment``: those of its season row, or
        (no rated game in it yet) the calendar period of its length."""
        season = await self._store.seasons.season_at(guild_id, moment)
        if season is not None:
            return season.starts_at, season.ends_at
        length, _channel = await self.settings(guild_id)
        return period_of(moment, length)

    async def board_page(
        self, guild_id: int, variant: str, *, moment: datetime, asker: int, page: int, size: int
    ) -> SeasonPage:
        """Page ``page`` (from 0) of the server's season under way at ``moment``, in ``variant``."""
        start, end = await self.current_bounds(guild_id, moment)
        board = await self._store.seasons.season_board(guild_id, variant, start, end)
        rows = board[page * size : (page + 1) * size]
        mine = next((row for row in board if row.user_id == asker), None)
        return SeasonPage(start, end, rows, len(board) > (page + 1) * size, mine, len(board))

    async def due(self, moment: datetime) -> list[SeasonRow]:
        """The seasons of this process's servers that ended and are not closed yet."""
        return await self._store.seasons.seasons_due(moment)

    async def close(self, season: SeasonRow, moment: datetime) -> ClosedSeason | None:
        """Close ``season`` once, keeping its podiums' badges (``None``: closed already)."""
        podiums = await self._store.seasons.close_season(season, moment)
        if podiums is None:
            return None
        _length, chosen = await self.settings(season.guild_id)
        return ClosedSeason(season, podiums, chosen or season.channel_id)

    async def note_post(self, season: SeasonRow, message_id: int) -> None:
        await self._store.seasons.set_season_message(season, message_id)

    async def badges(self, user_id: int) -> Badges:
        """A player's badges, from everywhere (numbers only: no server's name or date)."""
        podiums: dict[int, int] = {}
        expert = False
        for badge in await self._store.seasons.badges_of(user_id):
            if badge.kind == "season" and badge.place is not None:
                podiums[badge.place] = podiums.get(badge.place, 0) + 1
            expert = expert or badge.kind == "expert"
        puzzles = await self._store.puzzles.puzzle_standing(user_id)
        best = puzzles.best_streak if puzzles is not None else 0
        streak = max((length for length in PUZZLE_STREAKS if best >= length), default=None)
        return Badges(dict(sorted(podiums.items())), await self._tournament_wins(user_id), streak, expert)

    async def _tournament_wins(self, user_id: int) -> int:
        """The finished tournaments the player won (first, alone or tied, in the final standings)."""
        wins = 0
        for tournament_id in await self._store.seasons.events_finished_by(user_id):
            standings = (await self._tournaments.event(tournament_id)).standings()
            wins += any(row.user_id == user_id and row.rank == 1 for row in standings)
        return wins
