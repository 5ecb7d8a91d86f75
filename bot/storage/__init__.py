"""Storage: open challenges, live games keyed by channel, the archive, ratings, settings.

Everything needed to resume after a restart lives here; the bot keeps no game state in memory.
:class:`Store` holds one :class:`Database` (the back end, its transactions, locks and shards) and
each feature's queries over it (``store.games``, ``store.ratings``, ``store.clocks``,
``store.seeks``, ``store.settings``, ``store.tournaments``, ``store.schedules``, ``store.puzzles``,
``store.analyses``, ``store.seasons``): a feature adds a module of queries and an attribute here, not a base class.
A game is stored as its engine record (``bot.engine.notation``), so the stored moves are the
truth, with its position beside it so that reading it needs no replay.

Two back ends run the same queries (:mod:`.backend`): SQLite (one file, the default) and
PostgreSQL (one database several bot processes share). The schema is versioned;
:data:`MIGRATIONS` are applied in order at start-up, each in its own transaction, under a lock.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .analyses import AnalysisQueries, AnalysisRow, Queued
from .clocks import ClockQueries
from .database import Conflict, Database, ShardScope, StorageError, Written, time_text
from .games import GameQueries
from .puzzles import PuzzleQueries
from .ratings import RatingChange, RatingQueries, Record, SavedGame, Standing, after_migration
from .rows import (
    ANYONE,
    DM,
    INTERACTION,
    NO_SERVER,
    SERVER,
    ChallengeRow,
    GameRow,
    NumberScope,
    SeekRow,
    message_url,
    shown_name,
)
from .schedules import ScheduleQueries, ScheduleRow, TitleRow
from .schema import MIGRATIONS
from .seasons import BadgeRow, SeasonQueries, SeasonRow, SeasonStanding
from .seeks import SeekQueries, Unfit
from .settings import BOARD_STYLES, SettingsQueries
from .tournaments import EntrantRow, PairingRow, TournamentQueries, TournamentRow

__all__ = [
    "ANYONE",
    "DM",
    "INTERACTION",
    "NO_SERVER",
    "NumberScope",
    "SERVER",
    "AnalysisRow",
    "BadgeRow",
    "SeasonRow",
    "SeasonStanding",
    "Queued",
    "BOARD_STYLES",
    "MIGRATIONS",
    "ChallengeRow",
    "Database",
    "Conflict",
    "EntrantRow",
    "PairingRow",
    "ScheduleRow",
    "TitleRow",
    "TournamentRow",
    "GameRow",
    "SeekRow",
    "ShardScope",
    "RatingChange",
    "SavedGame",
    "Record",
    "Standing",
    "StorageError",
    "Store",
    "Unfit",
    "shown_name",
    "message_url",
    "Written",
    "time_text",
]


class Store:
    """The bot's database: one handle (:class:`Database`) and each feature's queries over it.

    Open it with :meth:`open`. Each query is one transaction; the queries of one feature are an
    attribute of the store (``store.games.get_game(...)``), and those whose write takes a step of
    another feature's (a game's end is rated with it) are given that feature's queries.
    """

    def __init__(self, database: Database) -> None:
        self.database = database
        self.ratings = RatingQueries(database)
        self.games = GameQueries(database, self.ratings)
        self.clocks = ClockQueries(database)
        self.seeks = SeekQueries(database)
        self.settings = SettingsQueries(database)
        self.tournaments = TournamentQueries(database, self.games)
        self.schedules = ScheduleQueries(database)
        self.puzzles = PuzzleQueries(database)
        self.analyses = AnalysisQueries(database)
        self.seasons = SeasonQueries(database)

    @classmethod
    async def open(cls, target: str | Path, *, shards: ShardScope | None = None, **options: Any) -> Store:
        """Open the database ``target`` names (a SQLite file or ``sqlite:///`` URL, or a
        ``postgresql://`` URL) and bring its schema up to date (:meth:`Database.open`).

        :raises StorageError: if it cannot be opened or is not a usable database.
        """
        return cls(await Database.open(target, shards=shards, after_migration=after_migration, **options))

    # What the bot asks of the handle itself.

    @property
    def path(self) -> Path | None:
        """The SQLite file (``None`` on PostgreSQL)."""
        return self.database.path

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.database.dialect

    @property
    def label(self) -> str:
        """The database as a log line may name it (a path, or a URL without its password)."""
        return self.database.label

    @property
    def shards(self) -> ShardScope | None:
        """The shards whose servers this process's sweeps touch (``None``: all)."""
        return self.database.shards

    async def schema_version(self) -> int:
        return await self.database.schema_version()

    async def get_meta(self, key: str) -> str | None:
        return await self.database.get_meta(key)

    async def set_meta(self, key: str, value: str) -> None:
        await self.database.set_meta(key, value)

    async def close(self) -> None:
        await self.database.close()
