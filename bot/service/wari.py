"""The game service: its four parts composed over one :class:`~.base.Tables`.

Each part is its own class over the shared tables (the store, the per-channel locks, reading
and saving games), not a base class of this one: a reader following a call finds it in the
part its attribute names, and a new family of operations adds a part (a file and an
attribute), not a base class."""

from __future__ import annotations

import random

from bot.storage import Store

from .base import Tables
from .challenges import ChallengeService
from .games import GameService
from .pings import PingService
from .starts import StartService


class WariService:
    """Challenges, the start of games, games and their pings, stored in a :class:`bot.storage.Store`.

    One way to each operation: ``service.challenges.accept(…)``, ``service.starts.play_computer(…)``,
    ``service.games.play(…)``, ``service.pings.due_ping(…)``; reading a game or holding a channel,
    ``service.tables.table(…)``, ``service.tables.lock(…)``. Every part shares :attr:`tables`, so
    one channel has one lock whichever part changes it."""

    def __init__(self, store: Store, *, challenge_timeout: int = 600, rng: random.Random | None = None) -> None:
        #: The store, the channel locks, reading and saving games: shared by every part.
        self.tables = Tables(store, challenge_timeout=challenge_timeout, rng=rng)
        #: Challenges made, answered, withdrawn and expired.
        self.challenges = ChallengeService(self.tables)
        #: Games that start at once: against the bot, exhibitions, seeks' pairs, tournaments' pairings.
        self.starts = StartService(self.tables)
        #: Changes to live games: moves, endings, takebacks, draw offers, boards and clocks.
        self.games = GameService(self.tables)
        #: Turn pings and reminders, and the due rows the sweeps read.
        self.pings = PingService(self.tables)

    async def checkpoint(self) -> None:
        """Copy the database's write-ahead log into its file, so that no press waits for it (the
        sweep's: see :mod:`bot.storage.sqlite`)."""
        await self.tables.store.database.checkpoint()
