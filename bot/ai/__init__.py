"""Computer players, from the classic toy strategies to a strong searching engine.

>>> from bot.engine import Game
>>> player = make_player("greedy", seed=1)
>>> player.choose(Game("wari")).house in range(1, 7)
True
"""

from __future__ import annotations

from .base import Decision, Progress, Strategy
from .expert import ExpertPlayer
from .mcts import MctsPlayer
from .simple import AgainPlayer, GreedyPlayer, LowPlayer, RandomPlayer

#: Every level by name, weakest first.
LEVELS: dict[str, type[Strategy]] = {
    player.name: player for player in (RandomPlayer, LowPlayer, AgainPlayer, GreedyPlayer, MctsPlayer, ExpertPlayer)
}
DEFAULT_LEVEL = "mcts"


def make_player(level: str, seed: int | None = None) -> Strategy:
    """A player of ``level`` (see :data:`LEVELS`); ``ValueError`` names the levels otherwise."""
    try:
        return LEVELS[level](seed)
    except KeyError:
        raise ValueError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}") from None


__all__ = ["DEFAULT_LEVEL", "LEVELS", "Decision", "Progress", "Strategy", "make_player"]
