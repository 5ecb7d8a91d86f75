"""Seasons and badges (:mod:`bot.seasons`): a server's season leaderboard, the close of each
season with its podiums, its length and podium channel, and the badges a player's profile shows.

Badges come from what the database keeps: a season's podium and the first win against the Expert
are kept as badges when they happen; a tournament win is read from the standings of the
finished events a player entered, and a puzzle streak from the player's best puzzle streak
(both kept already, so never a copy to keep in step).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from bot.ai.analysis import GameAnalysis
from bot.i18n import N_
from bot.seasons import period_of
from bot.storage import BadgeRow, EntrantRow, PairingRow, SeasonRow, SeasonStanding, Store, TournamentRow, time_text
from bot.storage.seasons import PuzzleSeason, SeasonGame

from .table import Refusal
from .tournaments import Event

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


@dataclass(frozen=True)
class RecapScope:
    """Which season and rule set a player's recap shows."""

    season: SeasonRow
    variant: str

    @property
    def podium_key(self) -> str:
        """The key of the badge of this season's podium in this rule set."""
        return f"{self.season.guild_id}:{time_text(self.season.starts_at)}:{self.variant}"

    def earned_in(self, badge: BadgeRow) -> bool:
        """Whether ``badge`` was earned in the season: its podium in this rule set (kept once it
        closed), a first win against the Expert in its dates (wherever it was played)."""
        if badge.kind == "season":
            return badge.key == self.podium_key
        return badge.kind == "expert" and self.season.starts_at <= badge.earned_at < self.season.ends_at


@dataclass(frozen=True)
class Recap:
    """A player's season in a server, in one rule set: what ``/wari recap`` shows."""

    season: SeasonRow
    #: Whether the season is over (else it is the one under way).
    over: bool
    variant: str
    games: list[SeasonGame]
    #: The player's row of the season's board (place, points gained) and how many are on it.
    standing: SeasonStanding
    players: int
    #: The game of the season's highest-rated opponent beaten (``None``: no win).
    best_win: SeasonGame | None
    #: The average accuracy over the season's analysed games (``None``: none analysed) and how many.
    accuracy: float | None
    analysed: int
    puzzles: PuzzleSeason
    #: The badges earned in the season: its podium in this rule set, this server's tournaments
    #: that finished in it won, a first win against the Expert in its dates.
    badges: Badges

    def count(self, outcome: str) -> int:
        """How many of the games the player won (``win``), drew (``draw``) or lost (``loss``)."""
        return sum(game.outcome == outcome for game in self.games)

    @property
    def rating_before(self) -> float:
        return self.games[0].rating_before

    @property
    def rating_after(self) -> float:
        return self.games[-1].rating_after


#: A past season's recap asked for where none has ended yet.
NO_SEASON_ENDED = N_("No season has ended in this server yet: `/wari recap` shows the one under way.")


def best_win(games: list[SeasonGame]) -> SeasonGame | None:
    """The win against the highest-rated opponent (rated when the game began), the earliest on a tie."""
    wins = [game for game in games if game.outcome == "win"]
    return max(wins, key=lambda game: game.opponent_rating, default=None)


def average_accuracy(games: list[SeasonGame]) -> tuple[float | None, int]:
    """The player's accuracy averaged over the analysed games (``None``: none), and how many
    there were (a damaged analysis counts as none). Each analysis is read whole: a moment of the
    CPU for a season of them, so it runs in a thread."""
    accuracies = []
    for game in games:
        if game.analysis is None:
            continue
        try:
            analysis = GameAnalysis.from_json(game.analysis)
        except ValueError:
            continue
        accuracies.append(analysis.accuracy(0 if game.side == "A" else 1))
    return (sum(accuracies) / len(accuracies) if accuracies else None), len(accuracies)


def tournaments_won(user_id: int, events: list[tuple[TournamentRow, list[EntrantRow], list[PairingRow]]]) -> int:
    """How many of the finished ``events`` the player won (first, alone or tied, in the final
    standings, computed as the event's own page computes them)."""
    won = 0
    for row, entrants, pairings in events:
        standings = Event(row, entrants, pairings).standings()
        won += any(standing.user_id == user_id and standing.rank == 1 for standing in standings)
    return won


class SeasonService:
    """Each server's seasons and their leaderboards; players' badges."""

    def __init__(self, store: Store) -> None:
        self._store = store

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

    async def recap_scope(
        self, guild_id: int, user_id: int, *, moment: datetime, last: bool, variant: str | None
    ) -> RecapScope | None:
        """Which season a player's recap shows here (``last``: the latest that ended, else the one
        under way) and in which rule set (``variant``, else the one they played most in it);
        ``None``: no rated game of theirs in it. Two short reads, so that a refusal is told
        before the answer is deferred for the recap's longer ones.

        :raises Refusal: ``last``, and no season has ended here yet."""
        seasons = self._store.seasons
        if last:
            season = await seasons.last_season(guild_id, moment)
            if season is None:
                raise Refusal(NO_SEASON_ENDED)
        else:
            season = await seasons.season_at(guild_id, moment)  # none yet: nobody has played in it
            if season is None:
                return None
        played = await seasons.season_variants(user_id, season)
        chosen = variant or (played[0] if played else None)
        return RecapScope(season, chosen) if chosen in played else None

    async def recap(self, scope: RecapScope, user_id: int, *, moment: datetime) -> Recap | None:
        """A player's season (:meth:`recap_scope`); ``None``: no rated game of theirs in it."""
        seasons, season = self._store.seasons, scope.season
        guild_id, variant = season.guild_id, scope.variant
        games = await seasons.season_games(user_id, variant, season)
        board = await seasons.season_board(guild_id, variant, season.starts_at, season.ends_at)
        standing = next((row for row in board if row.user_id == user_id), None)  # its rows are these games'
        if not games or standing is None:
            return None
        accuracy, analysed = await asyncio.to_thread(average_accuracy, games)
        puzzles = await seasons.season_puzzles(user_id, season.starts_at, season.ends_at)
        badges = await self.badges(user_id, scope)
        over = season.ends_at <= moment
        return Recap(
            season, over, variant, games, standing, len(board), best_win(games), accuracy, analysed, puzzles, badges
        )

    async def badges(self, user_id: int, scope: RecapScope | None = None) -> Badges:
        """A player's badges, from everywhere (numbers only: no server's name or date); or those
        earned in a recap's season (:meth:`RecapScope.earned_in`, and the tournaments of its
        server that finished in it won; no puzzle streak: the recap shows the season's puzzles)."""
        kept = await self._store.seasons.badges_of(user_id)
        if scope is not None:
            kept = [badge for badge in kept if scope.earned_in(badge)]
        podiums = Counter(badge.place for badge in kept if badge.kind == "season" and badge.place is not None)
        expert = any(badge.kind == "expert" for badge in kept)
        streak = await self._puzzle_streak(user_id) if scope is None else None
        within = (scope.season.guild_id, scope.season.starts_at, scope.season.ends_at) if scope else None
        events = await self._store.tournaments.finished_entered(user_id, within=within)
        wins = await asyncio.to_thread(tournaments_won, user_id, events) if events else 0
        return Badges(dict(sorted(podiums.items())), wins, streak, expert)

    async def _puzzle_streak(self, user_id: int) -> int | None:
        """The longest puzzle streak of :data:`PUZZLE_STREAKS` the player reached (``None``: none)."""
        puzzles = await self._store.puzzles.puzzle_standing(user_id)
        best = puzzles.best_streak if puzzles is not None else 0
        return max((length for length in PUZZLE_STREAKS if best >= length), default=None)
