"""Queries of ratings, standings and a player's archive.

A rated game changes both ratings in the transaction that archives it
(:meth:`bot.storage.games.GameQueries.update_game` calls :meth:`RatingQueries.archive`
inside its write), so a restart or a race never counts a game
twice or not at all; every change is kept (``rating_changes``) for the history chart.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from bot.engine import Player
from bot.ratings import (
    OVER_THE_DAILY_LIMIT,
    RATED_GAMES_PER_PAIR_PER_DAY,
    SCORES,
    Rating,
    family,
    is_rated,
    outcome_for,
    rate_game,
)

from .backend import Row, Step
from .database import Conflict, Database, Queries, time_text
from .rows import GAME_COLUMNS, SERVER, GameRow, saved_game
from .seasons import SeasonQueries


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
    def delta(self) -> int:
        """The change as shown: whole points, so that ``before.points + delta == after.points``."""
        return self.after.points - self.before.points


def _latest_name(guild_id: int | None) -> tuple[str, tuple]:
    """The name a rated player's latest finished game knew them by (``ratings.user_id``), through
    the indexes of each side's archived games: of a game in server ``guild_id`` (a server's
    leaderboard shows the names its own members knew), or anywhere (``None``: everyone's)."""
    where, params = ("", ()) if guild_id is None else (" AND guild_id = ?", (guild_id,))
    sql = f"""(
        SELECT name FROM (
            SELECT id, name_a AS name FROM games WHERE player_a = ratings.user_id AND status != 'live'{where}
            UNION ALL SELECT id, name_b FROM games WHERE player_b = ratings.user_id AND status != 'live'{where}
        ) AS named ORDER BY id DESC LIMIT 1
    )"""
    return sql, params * 2


class SavedGame(NamedTuple):
    """What a save of a game (:meth:`bot.storage.games.GameQueries.save_game`) stored and read with it."""

    row: GameRow
    #: Those of its players who turned pings off.
    muted: frozenset[int]
    #: What the game did to the ratings, A first, if the save archived it rated (else none).
    rating_changes: tuple[RatingChange, ...] = ()


@dataclass(frozen=True)
class Standing:
    """A player's place in a leaderboard."""

    place: int
    user_id: int
    rating: Rating
    #: The name the player's latest finished game knew them by (``None``: none kept).
    name: str | None = None


@dataclass(frozen=True)
class Record:
    """A player's results: games, wins, draws, losses (aborted games count as games only)."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0


def _rating(row: Row) -> Rating:
    return Rating(row["rating"], row["rd"], row["volatility"], row["games"])


def _change(row: tuple) -> RatingChange:
    """A row of ``rating_changes`` as :func:`_rate_one` makes it (then the server), as read back."""
    game_id, user_id, variant, rating_before, rd_before, rating_after, rd_after, changed_at = row[:8]
    before, after = Rating(rating_before, rd_before), Rating(rating_after, rd_after)
    return RatingChange(game_id, user_id, variant, before, after, datetime.fromisoformat(changed_at))


def _rate_one(ratings: dict[tuple[int, str], Rating], game: GameRow, moment: datetime) -> list[tuple]:
    """Rate ``game`` against ``ratings`` (updated in place); the rows of ``rating_changes`` it adds,
    each followed by the server whose leaderboard now counts the player (``None``: the game was
    played outside a server that added the bot, and counts in the global pool only)."""
    server = game.guild_id if game.venue == SERVER else None
    variant = family(game.variant)
    keys = (game.player_a, variant), (game.player_b, variant)
    before = ratings.get(keys[0], Rating()), ratings.get(keys[1], Rating())
    assert game.result is not None  # only a finished game is rated, and a finished game has a result
    after = rate_game(*before, SCORES[game.result])
    rows = []
    for key, old, new in zip(keys, before, after, strict=True):
        ratings[key] = new
        rows.append((game.id, key[0], variant, old.rating, old.rd, new.rating, new.rd, time_text(moment), server))
    return rows


#: The ``variant`` of a player's results in every rule set together.
ALL_VARIANTS = "*"
_OUTCOME_INDEX = {"win": 1, "draw": 2, "loss": 3}


def _outcomes(game: GameRow) -> list[tuple[tuple[int, str, str], str | None]]:
    """Each person's result rows to count ``game`` in: ``(user, variant, opponent)`` and the
    outcome (``win``, ``draw``, ``loss``; ``None`` for an aborted game, which counts as a game only)."""
    rows = []
    variant = family(game.variant)
    sides = (
        (Player.A, game.player_a, game.level_a, game.level_b),
        (Player.B, game.player_b, game.level_b, game.level_a),
    )
    for side, user, own, other in sides:
        if own is not None:
            continue  # the computer keeps no statistics
        outcome = outcome_for(game.status, game.result, side.name)
        for scope in (variant, ALL_VARIANTS):
            rows.append(((user, scope, other or ""), outcome))
    return rows


def _tally_of(row: Row) -> list[int]:
    return [row["games"], row["wins"], row["draws"], row["losses"], row["streak"], row["best_streak"]]


def _count(tallies: dict[tuple[int, str, str], list[int]], game: GameRow) -> None:
    """Add ``game`` to ``tallies`` (games, wins, draws, losses, streak, best streak), in place."""
    for key, outcome in _outcomes(game):
        tally = tallies.setdefault(key, [0, 0, 0, 0, 0, 0])
        tally[0] += 1
        if outcome is None:
            continue
        tally[_OUTCOME_INDEX[outcome]] += 1
        tally[4] = tally[4] + 1 if outcome == "win" else 0
        tally[5] = max(tally[5], tally[4])


def _scope(guild_id: int | None, variant: str) -> tuple[str, tuple]:
    """The condition that keeps a leaderboard to the players rated in ``variant`` in one server
    (``None``: everyone)."""
    if guild_id is None:
        return "", ()
    return " AND user_id IN (SELECT user_id FROM guild_players WHERE guild_id = ? AND variant = ?)", (guild_id, variant)


def _tallies_step(tallies: dict[tuple[int, str, str], list[int]]) -> Step:
    """The write of players' results (:func:`_count`)."""
    return Step(
        """
        INSERT INTO player_stats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (user_id, variant, opponent) DO UPDATE SET games = excluded.games, wins = excluded.wins,
            draws = excluded.draws, losses = excluded.losses, streak = excluded.streak,
            best_streak = excluded.best_streak
        """,
        [(*key, *tally) for key, tally in tallies.items()],
        many=True,
    )


def _ratings_steps(ratings: dict[tuple[int, str], Rating], changes: list[list[tuple]], now: datetime) -> list[Step]:
    """The writes of ``ratings`` (as they are ``now``) and of the rows of ``changes`` (from :func:`_rate_one`)."""
    moment = time_text(now)
    rows = [row for game in changes for row in game]
    return [
        Step(
            """
            INSERT INTO ratings (user_id, variant, rating, rd, volatility, games, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id, variant) DO UPDATE SET rating = excluded.rating, rd = excluded.rd,
                volatility = excluded.volatility, games = excluded.games, updated_at = excluded.updated_at
            """,
            [(user, variant, r.rating, r.rd, r.volatility, r.games, moment) for (user, variant), r in ratings.items()],
            many=True,
        ),
        Step("INSERT INTO rating_changes VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [row[:8] for row in rows], many=True),
        Step(
            "INSERT INTO guild_players VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            [(row[8], row[2], row[1]) for row in rows if row[8] is not None],
            many=True,
        ),
    ]


class RatingQueries(Queries):
    """Ratings, their history, leaderboards, a player's results and archive."""

    def __init__(self, database: Database) -> None:
        super().__init__(database)
        #: A rated game counts in its server's season, a win against the Expert as a badge, in
        #: the write that archives it.
        self._seasons = SeasonQueries(database)

    async def archive(self, ending: GameRow, moment: datetime, save: Step) -> SavedGame:
        """End a game and count it, in the write under way: ``save`` stores ``ending`` (the game
        as it ends: its statement is a compare-and-set returning the game with its players'
        pings, :data:`~.rows.GAME_WITH_PINGS`), then each person's results are counted, and both
        ratings if it is rated. Returns the game as archived (marked
        :data:`bot.ratings.OVER_THE_DAILY_LIMIT` if its players reached it), and what it did to
        the ratings, A first, as :meth:`rating_changes` would read them (none if unrated): the
        final board shows them without a read after the write. :class:`Conflict` if the game
        changed meanwhile.

        The save and what the count reads go to the database together (one trip on SQLite,
        however many queries: the press that ends a game waits for them): the reads are of
        other tables and need nothing the save returns but what ``ending`` already says, and
        nothing queued behind the save writes."""
        keys = [key for key, _ in _outcomes(ending)]
        people = sorted({user for user, _, _ in keys})
        if people:
            # Another process may be archiving another game of the same people: their results and
            # ratings are read, then written, under their locks (the computer keeps neither).
            await self._db.lock(*people)
        rated = is_rated(ending.status, (ending.level_a, ending.level_b), ending.rated)
        found = await self._read_together({"save": save, **self._reads(ending, people, moment, rated=rated)})
        game, muted = saved_game(found["save"])
        if [key for key, _ in _outcomes(game)] != keys:  # the save compared the version: never
            raise Conflict("the game changed meanwhile")
        archived, changes = await self._write_count(game, moment, found, keys, rated=rated)
        return SavedGame(archived, muted, changes)

    async def _write_count(
        self, game: GameRow, moment: datetime, found: dict[str, list[Row]], keys: list, *, rated: bool
    ) -> tuple[GameRow, tuple[RatingChange, ...]]:
        """Write the count of ``game``, just saved, from what :meth:`archive` read."""
        people = {user for user, _, _ in keys}
        writes: list[Step] = []
        changes: list[tuple] = []
        if people:
            tallies = {
                key: _tally_of(row)
                for row in found["stats"]
                if (key := (row["user_id"], row["variant"], row["opponent"])) in keys
            }
            _count(tallies, game)
            writes += [_tallies_step(tallies), *self._seasons.expert_win_steps(game, moment)]
        over_the_limit = rated and found["rated_in_a_day"][0]["n"] >= RATED_GAMES_PER_PAIR_PER_DAY
        if over_the_limit:
            writes.append(Step("UPDATE games SET rated = ? WHERE id = ? RETURNING *", (OVER_THE_DAILY_LIMIT, game.id)))
        elif rated:
            known = {(row["user_id"], row["variant"]): _rating(row) for row in found["ratings"]}
            changes = _rate_one(known, game, moment)
            writes += _ratings_steps(known, [changes], moment)
            if "season" in found:
                writes += await self._seasons.season_steps(game, moment, found["season"])
        written = await self._db.steps(*writes)
        return (GameRow.from_row(written[-1][0]) if over_the_limit else game), tuple(map(_change, changes))

    def _reads(self, game: GameRow, people: list[int], moment: datetime, *, rated: bool) -> dict[str, Step]:
        """What counting ``game`` reads: its people's results, and for a rated game how many rated
        games its players finished together in the day before ``moment``, their ratings and the
        server's season under way."""
        reads = {}
        if people:
            marks = ", ".join("?" for _ in people)
            reads["stats"] = Step(f"SELECT * FROM player_stats WHERE user_id IN ({marks})", tuple(people))
        if rated:
            reads["rated_in_a_day"] = Step(
                """
                SELECT COUNT(*) AS n FROM rating_changes
                WHERE user_id = ? AND changed_at > ? AND game_id IN (
                    SELECT id FROM games WHERE (player_a = ? AND player_b = ?) OR (player_a = ? AND player_b = ?)
                )
                """,
                (
                    game.player_a,
                    time_text(moment - timedelta(days=1)),
                    game.player_a,
                    game.player_b,
                    game.player_b,
                    game.player_a,
                ),
            )
            reads["ratings"] = Step(
                "SELECT * FROM ratings WHERE variant = ? AND user_id IN (?, ?)",
                (family(game.variant), game.player_a, game.player_b),
            )
            if (season := self._seasons.season_query(game, moment)) is not None:
                reads["season"] = season
        return reads

    async def _read_together(self, reads: dict[str, Step]) -> dict[str, list[Row]]:
        return dict(zip(reads, await self._db.read_together(*reads.values()), strict=True))

    async def count_the_archive(self) -> None:
        """Count the games archived before schema 4, in the order they finished (a step of its
        migration): each person's results, and the ratings of the rated ones."""
        # Every column of schema 4 but the record (not needed to count a game, and most of a
        # row's size); the columns later migrations add take their defaults.
        existing = await self._db.current().columns("games")
        columns = ", ".join("'' AS record" if name == "record" else name for name in GAME_COLUMNS if name in existing)
        rows = await self._db.rows(f"SELECT {columns} FROM games WHERE status != 'live' ORDER BY finished_at, id")
        known: dict[tuple[int, str], Rating] = {}
        tallies: dict[tuple[int, str, str], list[int]] = {}
        changes = []
        for row in rows:
            game = GameRow.from_row(row)
            _count(tallies, game)
            if is_rated(game.status, (game.level_a, game.level_b), game.rated):
                assert game.finished_at is not None  # set whenever a game leaves "live"
                changes.append(_rate_one(known, game, game.finished_at))
        await self._db.steps(*_ratings_steps(known, changes, datetime.now(UTC)), _tallies_step(tallies))

    async def rating_changes(self, game_id: int) -> list[RatingChange]:
        """What game ``game_id`` did to its players' ratings (empty if unrated), A first."""
        rows = await self._db.read(
            """
            SELECT c.*, g.player_a FROM rating_changes c JOIN games g ON g.id = c.game_id
            WHERE c.game_id = ? ORDER BY c.user_id = g.player_a DESC
            """,
            (game_id,),
        )
        return [
            RatingChange(
                row["game_id"],
                row["user_id"],
                row["variant"],
                Rating(row["rating_before"], row["rd_before"]),
                Rating(row["rating_after"], row["rd_after"]),
                datetime.fromisoformat(row["changed_at"]),  # NOT NULL
            )
            for row in rows
        ]

    async def rating_in(self, user_id: int, variant: str) -> Rating:
        """A player's rating in the rule set of ``variant`` (a new player's if not rated in it)."""
        rows = await self._db.read(
            "SELECT * FROM ratings WHERE user_id = ? AND variant = ?", (user_id, family(variant))
        )
        return _rating(rows[0]) if rows else Rating()

    async def ratings_of(self, user_id: int) -> dict[str, Rating]:
        """A player's rating in each rule set they were rated in."""
        rows = await self._db.read("SELECT * FROM ratings WHERE user_id = ? ORDER BY games DESC, variant", (user_id,))
        return {row["variant"]: _rating(row) for row in rows}

    async def rating_history(self, user_id: int, variant: str, *, points: int = 600) -> tuple[list[float], int]:
        """A player's ratings in ``variant`` (the first before any game), oldest first, thinned in the
        database to at most about ``points`` evenly spread (first and last kept); and the number of
        rated games."""
        rows = await self._db.read(
            """
            WITH changes AS (
                SELECT rating_before, rating_after, ROW_NUMBER() OVER (ORDER BY changed_at, game_id) AS n,
                       COUNT(*) OVER () AS total
                FROM rating_changes WHERE user_id = ? AND variant = ?
            )
            SELECT n, total, rating_before, rating_after FROM changes
            WHERE n = 1 OR n = total OR n % ((total + ? - 1) / ?) = 0 ORDER BY n
            """,
            (user_id, variant, points, points),
        )
        if not rows:
            return [], 0
        return [rows[0]["rating_before"]] + [row["rating_after"] for row in rows], rows[0]["total"]

    async def leaderboard(self, variant: str, *, guild_id: int | None, offset: int, limit: int) -> list[Standing]:
        """Players by rating in ``variant``, best first (of one server's players, or everyone)."""
        where, params = _scope(guild_id, variant)
        name, named = _latest_name(guild_id)
        rows = await self._db.read(
            f"SELECT *, {name} AS name FROM ratings WHERE variant = ?{where} "
            "ORDER BY rating DESC, user_id LIMIT ? OFFSET ?",
            (*named, variant, *params, limit, offset),
        )
        return [
            Standing(offset + number, row["user_id"], _rating(row), row["name"])
            for number, row in enumerate(rows, start=1)
        ]

    async def place_of(self, user_id: int, variant: str, *, guild_id: int | None) -> tuple[Standing | None, int]:
        """``user_id``'s standing in a leaderboard (``None`` if not rated there) and its size."""
        where, params = _scope(guild_id, variant)
        (size,) = await self._db.read(f"SELECT COUNT(*) AS n FROM ratings WHERE variant = ?{where}", (variant, *params))
        own = await self._db.read(
            f"SELECT * FROM ratings WHERE variant = ? AND user_id = ?{where}", (variant, user_id, *params)
        )
        if not own:
            return None, size["n"]
        mine = _rating(own[0])
        (ahead,) = await self._db.read(
            f"SELECT COUNT(*) AS n FROM ratings WHERE variant = ?{where} "
            "AND (rating > ? OR (rating = ? AND user_id < ?))",
            (variant, *params, mine.rating, mine.rating, user_id),
        )
        return Standing(ahead["n"] + 1, user_id, mine), size["n"]

    async def archive_of(
        self, user_id: int, *, guild_id: int | None, offset: int, limit: int, channel_id: int | None = None
    ) -> list[GameRow]:
        """A player's archived games, newest first: those played in server ``guild_id`` that
        added the bot (a server never lists another's games: their numbers, names and links are
        that server's, nor those played there without the bot), or those of ``guild_id`` played in
        channel ``channel_id`` (a place where the bot only answers interactions), or (``None``) all
        of them, for the player's own eyes."""
        where: str
        params: tuple[int, ...]
        if guild_id is None:
            where, params = "", ()
        elif channel_id is None:
            where, params = " AND guild_id = ? AND venue = 'server'", (guild_id,)
        else:
            where, params = " AND guild_id = ? AND channel_id = ?", (guild_id, channel_id)
        rows = await self._db.read(
            f"""
            SELECT * FROM (
                SELECT * FROM games WHERE player_a = ? AND status != 'live'{where}
                UNION ALL SELECT * FROM games WHERE player_b = ? AND player_a != ? AND status != 'live'{where}
            ) AS mine ORDER BY id DESC LIMIT ? OFFSET ?
            """,
            (user_id, *params, user_id, user_id, *params, limit, offset),
        )
        return [GameRow.from_row(row) for row in rows]

    async def results_of(self, user_id: int, variant: str | None = None) -> dict[str | None, Record]:
        """A player's results by opponent (``None`` for people, else the computer level), in one
        rule set or all."""
        rows = await self._db.read(
            "SELECT * FROM player_stats WHERE user_id = ? AND variant = ?", (user_id, variant or ALL_VARIANTS)
        )
        return {row["opponent"] or None: Record(row["games"], row["wins"], row["draws"], row["losses"]) for row in rows}

    async def computer_results(self, variant: str | None = None) -> dict[str, Record]:
        """Every level's results against people, as the computer played them (its wins are their
        losses), in one rule set or all."""
        rows = await self._db.read(
            """
            SELECT opponent, SUM(games) AS games, SUM(losses) AS wins, SUM(draws) AS draws, SUM(wins) AS losses
            FROM player_stats WHERE variant = ? AND opponent != '' GROUP BY opponent
            """,
            (variant or ALL_VARIANTS,),
        )
        return {row["opponent"]: Record(row["games"], row["wins"], row["draws"], row["losses"]) for row in rows}

    async def longest_streak(self, user_id: int, variant: str | None = None) -> int:
        """The most games against people a player won in a row (a draw or a loss ends a run)."""
        rows = await self._db.read(
            "SELECT best_streak FROM player_stats WHERE user_id = ? AND variant = ? AND opponent = ''",
            (user_id, variant or ALL_VARIANTS),
        )
        return rows[0]["best_streak"] if rows else 0


async def after_migration(database: Database, number: int) -> None:
    """The work a migration needs beyond its SQL (:data:`bot.storage.database.AfterMigration`):
    schema 4 counts the games archived before it."""
    if number == 4:
        await RatingQueries(database).count_the_archive()
