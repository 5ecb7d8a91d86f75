"""Queries of seasons and badges (:mod:`bot.seasons`).

A server's season is opened by its first rated game, in the write that rates it
(:meth:`SeasonQueries.season_steps`, steps of :meth:`bot.storage.ratings.RatingQueries.archive`),
and closed once by the sweep: :meth:`SeasonQueries.close_season` marks it closed where it was
not and keeps its podiums' badges in the same write, so two processes (or a restart) never close
it twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.ratings import outcome_for
from bot.seasons import DEFAULT_SEASON_LENGTH, MEDALS, SEASON_LENGTHS, season_bounds

from .backend import Row, Step
from .database import Queries, time_text, when
from .rows import SERVER, GameRow, row_as


@dataclass(frozen=True)
class SeasonRow:
    """A server's season: its bounds, its length, where its podium goes and whether it closed."""

    guild_id: int
    starts_at: datetime
    ends_at: datetime
    length: str
    #: The channel of its latest rated game outside a thread (``None``: none yet).
    channel_id: int | None
    closed_at: datetime | None
    message_id: int | None

    @classmethod
    def from_row(cls, row: Row) -> SeasonRow:
        return cls(
            row["guild_id"],
            datetime.fromisoformat(row["starts_at"]),
            datetime.fromisoformat(row["ends_at"]),
            row["length"],
            row["channel_id"],
            when(row["closed_at"]),
            row["message_id"],
        )


@dataclass(frozen=True)
class SeasonStanding:
    """A player's place in a season: the rating points gained in the server's rated games of the
    season (in one rule set), and how many they played."""

    place: int
    user_id: int
    gained: float
    games: int
    #: The name the player's latest game in the server knew them by (``None``: none kept).
    name: str | None = None

    @property
    def points(self) -> str:
        """The points gained as shown: whole points with their sign (``+86``, ``-12``, ``+0``)."""
        return f"{round(self.gained):+d}"


@dataclass(frozen=True)
class BadgeRow:
    """A badge kept on a player's profile: a season's podium (``season``, its place and points)
    or the first win against the Expert (``expert``)."""

    kind: str
    key: str
    place: int | None
    figure: int | None
    earned_at: datetime


@dataclass(frozen=True)
class SeasonGame:
    """A player's rated game in a server's season, as their recap reads it."""

    game_id: int
    #: The rating's rule set (a family: ``kalah``, whatever its size).
    variant: str
    #: The player's side, ``A`` or ``B``, and the game's result (``A``, ``B`` or ``draw``).
    side: str
    result: str
    rating_before: float
    rating_after: float
    opponent_id: int
    #: The name the game knew the opponent by (``None``: none kept).
    opponent_name: str | None
    #: The opponent's rating when the game began.
    opponent_rating: float
    #: The game's analysis as stored (:mod:`bot.ai.analysis` JSON), the deeper one if both are
    #: done (``None``: not analysed).
    analysis: str | None

    @property
    def outcome(self) -> str | None:
        """``win``, ``draw`` or ``loss`` for the player (a rated game is finished, with a result)."""
        return outcome_for("finished", self.result, self.side)


@dataclass(frozen=True)
class PuzzleSeason:
    """A player's puzzles in a season's dates (every try of theirs, wherever it was)."""

    #: The puzzle rating at the season's end, or now if it is under way (``None``: never rated).
    rating: float | None
    solved: int
    failed: int
    #: The longest run of puzzles solved in a row among the season's tries.
    best_streak: int


def longest_run(statuses: list[str]) -> int:
    """The longest run of ``solved`` in ``statuses``.

    >>> longest_run(["solved", "solved", "failed", "solved"]), longest_run([])
    (2, 0)
    """
    best = run = 0
    for status in statuses:
        run = run + 1 if status == "solved" else 0
        best = max(best, run)
    return best


def _ranked(rows: list[Row]) -> list[SeasonStanding]:
    """A season's rows, best first: the most points gained, then the most games, then the
    earliest Discord id (so that a tie always reads the same)."""
    ordered = sorted(rows, key=lambda row: (-row["gained"], -row["games"], row["user_id"]))
    return [
        SeasonStanding(place, row["user_id"], row["gained"], row["games"], row["name"])
        for place, row in enumerate(ordered, start=1)
    ]


#: The season under way at a moment in a server (guild, moment, moment).
SEASON_AT = "SELECT * FROM seasons WHERE guild_id = ? AND starts_at <= ? AND ends_at > ?"
#: A server's season length and podium channel.
SEASON_SETTINGS = "SELECT season_length, season_channel FROM guild_settings WHERE guild_id = ?"

#: The rated changes of a server's games in a season, by rule set and player, with the name the
#: player's latest game there knew them by.
_SEASON_ROWS = """
    SELECT board.*, (
        SELECT name FROM (
            SELECT id, name_a AS name FROM games WHERE player_a = board.user_id AND guild_id = ? AND status != 'live'
            UNION ALL SELECT id, name_b FROM games WHERE player_b = board.user_id AND guild_id = ? AND status != 'live'
        ) AS named ORDER BY id DESC LIMIT 1
    ) AS name FROM (
        SELECT c.variant AS variant, c.user_id AS user_id, SUM(c.rating_after - c.rating_before) AS gained,
               COUNT(*) AS games
        FROM rating_changes c JOIN games g ON g.id = c.game_id
        WHERE c.changed_at >= ? AND c.changed_at < ? AND g.guild_id = ? AND g.venue = 'server'{variant}
        GROUP BY c.variant, c.user_id
    ) AS board
"""

#: A player's rated games of a server's season, oldest first, each with the opponent's rating
#: before it (their own change's) and the deeper analysis done, if any: one read for a recap.
_PLAYER_GAMES = """
    SELECT g.id AS game_id, c.variant AS variant, g.result AS result,
           CASE WHEN g.player_a = c.user_id THEN 'A' ELSE 'B' END AS side,
           c.rating_before AS rating_before, c.rating_after AS rating_after,
           o.user_id AS opponent_id, o.rating_before AS opponent_rating,
           CASE WHEN g.player_a = c.user_id THEN g.name_b ELSE g.name_a END AS opponent_name,
           (SELECT a.result FROM analyses a WHERE a.game_id = g.id AND a.status = 'done'
            ORDER BY a.depth = 'default' DESC LIMIT 1) AS analysis
    FROM rating_changes c
    JOIN games g ON g.id = c.game_id
    JOIN rating_changes o ON o.game_id = c.game_id AND o.user_id != c.user_id
    WHERE c.user_id = ? AND c.variant = ? AND c.changed_at >= ? AND c.changed_at < ? AND g.guild_id = ?
          AND g.venue = 'server'
    ORDER BY c.changed_at, g.id
"""

#: How many rated games a player played in each rule set in a server's season, and when the
#: first of them was rated: a cheap read (of an index) that says which recap there is to show.
_PLAYER_VARIANTS = """
    SELECT c.variant AS variant, COUNT(*) AS games, MIN(c.changed_at) AS first
    FROM rating_changes c JOIN games g ON g.id = c.game_id
    WHERE c.user_id = ? AND c.changed_at >= ? AND c.changed_at < ? AND g.guild_id = ? AND g.venue = 'server'
    GROUP BY c.variant
"""


class SeasonQueries(Queries):
    """Each server's seasons, their boards and podiums; players' badges."""

    # -- a server's choice ----------------------------------------------------------------------

    async def season_settings(self, guild_id: int) -> tuple[str, int | None]:
        """A server's season length and the channel it chose for their podiums (``None``: the
        channel of each season's latest rated game)."""
        rows = await self._db.read(SEASON_SETTINGS, (guild_id,))
        return (rows[0]["season_length"], rows[0]["season_channel"]) if rows else (DEFAULT_SEASON_LENGTH, None)

    async def set_season_settings(self, guild_id: int, *, length: str | None, channel_id: int | None) -> None:
        """Change a server's season length and podium channel, where given (``channel_id`` 0:
        back to the channel of the season's latest rated game)."""
        if length is not None and length not in SEASON_LENGTHS:
            raise ValueError(f"a season is one of {SEASON_LENGTHS}, not {length!r}")
        current_length, current_channel = await self.season_settings(guild_id)
        channel = current_channel if channel_id is None else (channel_id or None)
        await self._db.write(
            (
                "INSERT INTO guild_settings (guild_id, season_length, season_channel) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET season_length = excluded.season_length, "
                "season_channel = excluded.season_channel",
                (guild_id, length or current_length, channel),
            )
        )

    # -- opening, reading -----------------------------------------------------------------------

    @staticmethod
    def season_query(game: GameRow, moment: datetime) -> Step | None:
        """The query of the season under way at ``moment`` in the server of ``game`` (a rated game
        just finished), to send with the other reads of the write that rates it
        (:meth:`season_steps`); ``None`` outside a server that added the bot: it has no season."""
        if game.venue != SERVER:
            return None
        return Step(SEASON_AT, (game.guild_id, time_text(moment), time_text(moment)))

    async def season_steps(self, game: GameRow, moment: datetime, found: list[Row]) -> list[Step]:
        """The writes that count the rated game ``game`` (finished at ``moment``) in its server's
        season, given what :meth:`season_query` found: the season's channel follows the game,
        and a server's first rated game of a season opens it (reading the server's settings
        first: once a season)."""
        channel = game.channel_id if not game.thread and game.tournament_id is None else None
        if found:
            if channel is None:
                return []
            return [
                Step(
                    "UPDATE seasons SET channel_id = ? WHERE guild_id = ? AND starts_at = ?",
                    (channel, game.guild_id, found[0]["starts_at"]),
                )
            ]
        settings, latest = await self._db.read_together(
            Step(SEASON_SETTINGS, (game.guild_id,)),
            Step("SELECT MAX(ends_at) AS last FROM seasons WHERE guild_id = ?", (game.guild_id,)),
        )
        length = settings[0]["season_length"] if settings else DEFAULT_SEASON_LENGTH
        start, end = season_bounds(moment, length, when(latest[0]["last"]))
        return [
            Step(
                "INSERT INTO seasons (guild_id, starts_at, ends_at, length, channel_id) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id, starts_at) DO NOTHING",
                (game.guild_id, time_text(start), time_text(end), length, channel),
            )
        ]

    async def season_at(self, guild_id: int, moment: datetime) -> SeasonRow | None:
        """The server's season under way at ``moment`` (``None``: no rated game in it yet)."""
        return await self._db.one(SeasonRow, SEASON_AT, (guild_id, time_text(moment), time_text(moment)))

    async def last_season(self, guild_id: int, moment: datetime) -> SeasonRow | None:
        """The server's latest season that ended by ``moment`` (closed by the sweep or not yet)."""
        return await self._db.one(
            SeasonRow,
            "SELECT * FROM seasons WHERE guild_id = ? AND ends_at <= ? ORDER BY ends_at DESC LIMIT 1",
            (guild_id, time_text(moment)),
        )

    async def season_variants(self, user_id: int, season: SeasonRow) -> list[str]:
        """The rule sets of a player's rated games in a server's season, the most played first
        (the first played first on a tie)."""
        rows = await self._db.read(
            _PLAYER_VARIANTS, (user_id, time_text(season.starts_at), time_text(season.ends_at), season.guild_id)
        )
        return [row["variant"] for row in sorted(rows, key=lambda row: (-row["games"], row["first"]))]

    async def season_games(self, user_id: int, variant: str, season: SeasonRow) -> list[SeasonGame]:
        """A player's rated games of a server's season in ``variant``, oldest first."""
        start, end = time_text(season.starts_at), time_text(season.ends_at)
        rows = await self._db.read(_PLAYER_GAMES, (user_id, variant, start, end, season.guild_id))
        return [row_as(SeasonGame, row) for row in rows]

    async def season_puzzles(self, user_id: int, starts_at: datetime, ends_at: datetime) -> PuzzleSeason:
        """A player's puzzle tries ended in a season's dates, and their puzzle rating at its end."""
        start, end = time_text(starts_at), time_text(ends_at)
        tries = await self._db.read(
            "SELECT status FROM puzzle_attempts WHERE user_id = ? AND status != 'open' "
            "AND finished_at >= ? AND finished_at < ? ORDER BY finished_at, id",
            (user_id, start, end),
        )
        rated = await self._db.read(
            "SELECT rating_after FROM puzzle_attempts WHERE user_id = ? AND rating_after IS NOT NULL "
            "AND finished_at < ? ORDER BY finished_at DESC, id DESC LIMIT 1",
            (user_id, end),
        )
        statuses = [row["status"] for row in tries]
        return PuzzleSeason(
            rated[0]["rating_after"] if rated else None,
            statuses.count("solved"),
            statuses.count("failed"),
            longest_run(statuses),
        )

    async def season_board(
        self, guild_id: int, variant: str, starts_at: datetime, ends_at: datetime
    ) -> list[SeasonStanding]:
        """Every player of a server's season in ``variant``, best first."""
        rows = await self._db.read(
            _SEASON_ROWS.format(variant=" AND c.variant = ?"),
            (guild_id, guild_id, time_text(starts_at), time_text(ends_at), guild_id, variant),
        )
        return _ranked(rows)

    # -- closing --------------------------------------------------------------------------------

    async def seasons_due(self, moment: datetime) -> list[SeasonRow]:
        """The seasons (of this process's servers) that ended by ``moment`` and are not closed."""
        shards, params = self._db.own_shards()
        rows = await self._db.read(
            f"SELECT * FROM seasons WHERE closed_at IS NULL AND ends_at <= ?{shards} ORDER BY ends_at, guild_id",
            (time_text(moment), *params),
        )
        return [SeasonRow.from_row(row) for row in rows]

    async def close_season(self, season: SeasonRow, moment: datetime) -> dict[str, list[SeasonStanding]] | None:
        """Close ``season``: its podium in each rule set played in it (the three best), each
        podium's badges kept, in one write; ``None`` if it was closed already (by another
        process, or before a restart)."""
        async with self._db.writing():
            claimed = await self._db.rows(
                "UPDATE seasons SET closed_at = ? WHERE guild_id = ? AND starts_at = ? AND closed_at IS NULL "
                "RETURNING guild_id",
                (time_text(moment), season.guild_id, time_text(season.starts_at)),
            )
            if not claimed:
                return None
            start, end = time_text(season.starts_at), time_text(season.ends_at)
            rows = await self._db.rows(
                _SEASON_ROWS.format(variant=""), (season.guild_id, season.guild_id, start, end, season.guild_id)
            )
            podiums = {
                variant: _ranked([row for row in rows if row["variant"] == variant])[: len(MEDALS)]
                for variant in sorted({row["variant"] for row in rows})
            }
            await self._db.many(
                "INSERT INTO badges (user_id, kind, key, place, figure, earned_at) VALUES (?, 'season', ?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                [
                    (row.user_id, f"{season.guild_id}:{start}:{variant}", row.place, round(row.gained), end)
                    for variant, podium in podiums.items()
                    for row in podium
                ],
            )
        return podiums

    async def set_season_message(self, season: SeasonRow, message_id: int) -> None:
        await self._db.write(
            (
                "UPDATE seasons SET message_id = ? WHERE guild_id = ? AND starts_at = ?",
                (message_id, season.guild_id, time_text(season.starts_at)),
            )
        )

    # -- badges ---------------------------------------------------------------------------------

    @staticmethod
    def expert_win_steps(game: GameRow, moment: datetime) -> list[Step]:
        """The write that keeps the badge of a first win against the Expert, if a person just won
        ``game`` against it (a step of the write that archives it; a later win keeps the first)."""
        if game.status != "finished" or game.result not in ("A", "B"):
            return []
        winner, loser = (game.level_a, game.level_b) if game.result == "A" else (game.level_b, game.level_a)
        if winner is not None or loser != "expert":
            return []
        person = game.player_a if game.result == "A" else game.player_b
        return [
            Step(
                "INSERT INTO badges (user_id, kind, key, earned_at) VALUES (?, 'expert', '', ?) ON CONFLICT DO NOTHING",
                (person, time_text(moment)),
            )
        ]

    async def badges_of(self, user_id: int) -> list[BadgeRow]:
        """A player's kept badges, oldest first."""
        rows = await self._db.read("SELECT * FROM badges WHERE user_id = ? ORDER BY earned_at, kind, key", (user_id,))
        return [
            BadgeRow(row["kind"], row["key"], row["place"], row["figure"], datetime.fromisoformat(row["earned_at"]))
            for row in rows
        ]
