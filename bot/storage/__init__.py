"""SQLite storage (aiosqlite): open challenges, live games keyed by channel, the archive.

Everything needed to resume after a restart lives here; the bot keeps no game state in memory.
A game is stored as its engine record (``bot.engine.notation``), so the stored moves are the
truth and the board is derived from them.

The schema is versioned with ``PRAGMA user_version``; :data:`MIGRATIONS` are applied in order
at start-up, each in its own transaction.
"""

from __future__ import annotations

from .clocks import ClockQueries
from .database import Conflict, StorageError, Written, time_text
from .games import GameQueries
from .ratings import RatingChange, Record, Standing
from .rows import ChallengeRow, GameRow, shown_name
from .schema import MIGRATIONS
from .settings import BOARD_STYLES, SettingsQueries

__all__ = [
    "BOARD_STYLES", "MIGRATIONS", "ChallengeRow", "Conflict", "GameRow", "RatingChange", "Record", "Standing", "StorageError", "Store", "shown_name",
    "Written", "time_text",
]


class Store(SettingsQueries, ClockQueries, GameQueries):
    """The bot's database. Open it with :meth:`open`; every method is one transaction."""
