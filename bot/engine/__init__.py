"""The Wari rules engine: every variant of ``docs/RULES.md``, with no Discord in sight.

>>> from bot.engine import Game
>>> game = Game("oware")
>>> game.legal_moves
[1, 2, 3, 4, 5, 6]
>>> print(game.play(5))
A(5,4)
"""

from .game import Game, IllegalMoveError, MoveRecord, Outcome, Player, Termination
from .rules import DEFAULT_VARIANT, REGISTRY, VARIANTS, GrandSlam, Mechanics, Rules, Variant, rules_for

__all__ = [
    "DEFAULT_VARIANT",
    "REGISTRY",
    "VARIANTS",
    "Game",
    "GrandSlam",
    "IllegalMoveError",
    "Mechanics",
    "MoveRecord",
    "Outcome",
    "Player",
    "Rules",
    "Termination",
    "Variant",
    "rules_for",
]
