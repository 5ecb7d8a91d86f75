"""Storage: open challenges, live games keyed by channel, the archive, ratings, settings.

Everything needed to resume after a restart lives here; the bot keeps no game state in memory.
A game is stored as its engine record (``bot.engine.notation``), so the stored moves are the
truth, with its position beside it so that reading it needs no replay.

Two back ends run the same queries (:mod:`.backend`): SQLite (one file, the default) and
PostgreSQL (one database several bot processes share). The schema is versioned;
:data:`MIGRATIONS` are applied in order at start-up, each in its own transaction, under a lock.
"""

from __future__ import annotations

from .analyses import AnalysisQueries, AnalysisRow, Queued
from .clocks import ClockQueries
from .database import Conflict, ShardScope, StorageError, Written, time_text
from .games import GameQueries
from .puzzles import PuzzleQueries
from .ratings import RatingChange, Record, Standing
from .rows import ANYONE, ChallengeRow, GameRow, SeekRow, shown_name
from .schema import MIGRATIONS
from .seeks import SeekQueries
from .settings import BOARD_STYLES, SettingsQueries
from .tournaments import EntrantRow, PairingRow, TournamentQueries, TournamentRow

__all__ = [
    "ANYONE",
    "AnalysisRow",
    "Queued",
    "BOARD_STYLES",
    "MIGRATIONS",
    "ChallengeRow",
    "Conflict",
    "EntrantRow",
    "PairingRow",
    "TournamentRow",
    "GameRow",
    "SeekRow",
    "ShardScope",
    "RatingChange",
    "Record",
    "Standing",
    "StorageError",
    "Store",
    "shown_name",
    "Written",
    "time_text",
]


class Store(PuzzleQueries, AnalysisQueries, TournamentQueries, SettingsQueries, ClockQueries, SeekQueries, GameQueries):
    """The bot's database. Open it with :meth:`open`; every method is one transaction."""
