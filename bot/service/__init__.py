"""What may happen to challenges and games, and in what order: the bot's game logic.

This layer knows users only by id and never touches Discord, so the cog stays a thin
translation between interactions and these calls. Every refusal is a :class:`Refusal` whose
message can be shown to the user as it is.

Moves in one channel are serialised by a per-channel lock, and every write also checks the
stored version (:meth:`bot.storage.Store.update_game`), so two presses at once never play two
moves, even across processes sharing the database. A press plays on the live game as this
process last saw it (:mod:`.live`), with no read: that version check makes the database decide.
"""

from __future__ import annotations

from .base import HEARTBEAT, OUTAGE
from .computer import Computer
from .pings import DuePing
from .players import LeaderboardPage, PlayerService, PlayerStats
from .seeks import SeekService
from .table import (
    CHALLENGE_CLOSED,
    CHANNEL_BUSY,
    EARLY_ABORT,
    FIRST_CHOICES,
    MODERATOR_ABORT,
    NO_GAME,
    Closed,
    Refusal,
    StaleBoard,
    Table,
    TimeUp,
)
from .wari import WariService

__all__ = [
    "CHALLENGE_CLOSED",
    "CHANNEL_BUSY",
    "Closed",
    "Computer",
    "DuePing",
    "EARLY_ABORT",
    "FIRST_CHOICES",
    "HEARTBEAT",
    "LeaderboardPage",
    "MODERATOR_ABORT",
    "NO_GAME",
    "OUTAGE",
    "PlayerService",
    "PlayerStats",
    "Refusal",
    "SeekService",
    "StaleBoard",
    "Table",
    "TimeUp",
    "WariService",
]
