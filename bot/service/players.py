"""What players and servers choose (pings, languages, board style) and what they have done
(results, ratings, standings, archived games)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.ratings import Rating
from bot.storage import GameRow, Record, Standing, Store
from bot.storage.puzzles import PuzzleStanding


@dataclass(frozen=True)
class PlayerStats:
    """A player's record: against people (``None``) and against each computer level."""

    results: dict[str | None, Record]
    ratings: dict[str, Rating]
    longest_streak: int
    #: The first rated variant's rating after each of its games (at most the points asked for), and their count.
    history: tuple[list[float], int] | None
    #: The player's puzzle rating and streak (``None``: no puzzle tried to its end yet).
    puzzles: PuzzleStanding | None = None


@dataclass(frozen=True)
class LeaderboardPage:
    rows: list[Standing]
    #: Whether a next page exists.
    more: bool
    #: The asker's own standing (``None``: not rated here), and how many are rated here.
    mine: Standing | None
    size: int


class PlayerService:
    """Players' and servers' settings; standings and archives. Nothing here changes a game, so
    it needs none of the channel locks of :class:`bot.service.WariService`."""

    def __init__(self, store: Store) -> None:
        self._store = store
        #: Each server's settings as read from the database: the process of its shard is the only
        #: one that changes them, so they are read once.
        self._server_settings: dict[int, tuple[str | None, str]] = {}

    async def pings_enabled(self, user_id: int) -> bool:
        return await self._store.settings.pings_enabled(user_id)

    async def set_pings(self, user_id: int, enabled: bool) -> None:
        await self._store.settings.set_pings(user_id, enabled)

    async def user_language(self, user_id: int) -> str | None:
        """The language a player chose for what only they read (``None``: their Discord's)."""
        return await self._store.settings.user_language(user_id)

    async def set_user_language(self, user_id: int, language: str | None) -> None:
        await self._store.settings.set_user_language(user_id, language)

    async def server_settings(self, guild_id: int) -> tuple[str | None, str]:
        """A server's chosen language (``None``: its Discord locale's) and board style."""
        if guild_id not in self._server_settings:
            self._server_settings[guild_id] = await self._store.settings.server_settings(guild_id)
        return self._server_settings[guild_id]

    async def set_server_settings(
        self, guild_id: int, *, language: str | None = None, board: str | None = None
    ) -> None:
        """Change a server's language (``"auto"``: its Discord locale's) and board style, if given."""
        if language is not None:
            await self._store.settings.set_server_language(guild_id, None if language == "auto" else language)
        if board is not None:
            await self._store.settings.set_board_style(guild_id, board)
        self._server_settings.pop(guild_id, None)

    async def player_stats(self, user_id: int, variant: str | None, *, chart_points: int) -> PlayerStats:
        """A player's results, ratings and longest streak (in ``variant`` only, if given), and the
        rating history of the first rated variant, for its chart. They count the player's games in
        every server, as their one rating does (README, "Ratings and standings"): numbers only, no
        game, opponent, date or link of any server."""
        ratings = await self._store.ratings.ratings_of(user_id)
        if variant is not None:
            ratings = {name: rating for name, rating in ratings.items() if name == variant}
        history = None
        if ratings:
            history = await self._store.ratings.rating_history(user_id, next(iter(ratings)), points=chart_points)
        return PlayerStats(
            results=await self._store.ratings.results_of(user_id, variant),
            ratings=ratings,
            longest_streak=await self._store.ratings.longest_streak(user_id, variant),
            history=history,
            puzzles=await self.puzzle_standing(user_id),
        )

    async def puzzle_standing(self, user_id: int) -> PuzzleStanding | None:
        """A player's puzzle rating and streak, if they have ended a try."""
        return await self._store.puzzles.puzzle_standing(user_id)

    async def computer_stats(self, variant: str | None) -> PlayerStats:
        """The bot's own record: each level's games against people (it has no rating)."""
        by_level = await self._store.ratings.computer_results(variant)
        results: dict[str | None, Record] = dict(by_level.items())
        return PlayerStats(results=results, ratings={}, longest_streak=0, history=None)

    async def leaderboard_page(
        self, variant: str, *, guild_id: int | None, asker: int, page: int, size: int
    ) -> LeaderboardPage:
        """Page ``page`` (from 0) of ``variant``'s ratings, in a server or everywhere, with the asker's place."""
        rows = await self._store.ratings.leaderboard(variant, guild_id=guild_id, offset=page * size, limit=size + 1)
        mine, rated = await self._store.ratings.place_of(asker, variant, guild_id=guild_id)
        return LeaderboardPage(rows[:size], len(rows) > size, mine, rated)

    async def archive_page(
        self, user_id: int, *, guild_id: int | None, page: int, size: int, channel_id: int | None = None
    ) -> tuple[list[GameRow], bool]:
        """Page ``page`` (from 0) of a player's finished games in server ``guild_id`` (``None``:
        all of them, for the player alone; with ``channel_id``, those played in that channel),
        newest first, and whether more follow."""
        rows = await self._store.ratings.archive_of(
            user_id, guild_id=guild_id, channel_id=channel_id, offset=page * size, limit=size + 1
        )
        return rows[:size], len(rows) > size
