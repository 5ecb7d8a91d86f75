"""Every service of the bot in one value, built once: the composition root's one call.

:func:`build_services` builds them over one opened store, in the order they need each other (the
analyses need the computer, which needs the games); the bot calls it in its ``setup_hook`` and
hands the :class:`Services` to the cog, whose features each receive the services they use. Any
other front end (a web page, a command-line tool) would take the same value. Each service keeps
the store to itself: what a front end wants of the database is a service's method.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from bot.storage import Store

from .analyses import AnalysisService
from .computer import Computer
from .players import PlayerService
from .puzzles import PuzzleService
from .roles import RoleService
from .seasons import SeasonService
from .seeks import SeekService
from .tournaments import TournamentService
from .wari import WariService


@dataclass(frozen=True)
class Services:
    """The bot's services, each built once over the same store."""

    #: Challenges, the start of games, the games themselves and their pings (one part each,
    #: over one shared :class:`~bot.service.base.Tables`: ``games.challenges``, ``games.starts``,
    #: ``games.games``, ``games.pings``, ``games.tables``).
    games: WariService
    #: Players' settings and languages, servers' settings, stats, leaderboards and histories.
    players: PlayerService
    #: Each server's queue of players looking for a game.
    seeks: SeekService
    #: The bot as a player: its searches, in worker processes (closed by :meth:`close`).
    computer: Computer
    tournaments: TournamentService
    puzzles: PuzzleService
    analyses: AnalysisService
    #: Each server's seasons and their podiums; players' badges.
    seasons: SeasonService
    #: Each server's roles that call players and its rating-tier roles.
    roles: RoleService

    def close(self) -> None:
        """End what runs on its own: the computer's searches and its worker processes. The
        store is not the services' to close: whoever opened it closes it."""
        self.computer.close()


def build_services(
    store: Store,
    *,
    clock: Callable[[], datetime],
    challenge_timeout: int = 600,
    rng: random.Random | None = None,
    workers: int | None = None,
) -> Services:
    """Every service over ``store``. ``clock`` is the time of the computer's moves and of the
    analyses (the bot's: Discord's, which a simulated Discord runs); ``challenge_timeout``, the
    seconds a challenge waits for its answer; ``rng`` settles random first players and picks
    puzzles (a seeded one makes them repeatable); ``workers``, the computer's worker processes
    (``None``: one per core)."""
    games = WariService(store, challenge_timeout=challenge_timeout, rng=rng)
    computer = Computer(games, workers, clock=clock)
    tournaments = TournamentService(store)
    return Services(
        games=games,
        players=PlayerService(store),
        seeks=SeekService(store),
        computer=computer,
        tournaments=tournaments,
        puzzles=PuzzleService(store.puzzles, rng=rng),
        analyses=AnalysisService(store, computer, clock=clock),
        seasons=SeasonService(store),
        roles=RoleService(store),
    )
