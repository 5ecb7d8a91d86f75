"""The entry point a worker process runs: one computer move for a stored game.

Everything crosses the process boundary as text (the game record), so the worker needs
nothing from the parent but this module.
"""

from __future__ import annotations

from bot.engine.notation import from_record

from . import make_player
from .expert import ExpertPlayer

#: Nodes the expert searches to judge a position: a fixed amount, so the same position always
#: gets the same answer (about half a second).
JUDGING_NODES = 20_000


def choose_move(level: str, record_text: str, seconds: float, seed: int) -> int:
    """The house ``level`` plays in the game ``record_text`` describes."""
    game, _ = from_record(record_text)
    return make_player(level, seed).choose(game, seconds).house


def evaluate(record_text: str, seed: int) -> float:
    """The expert's evaluation of the game ``record_text`` describes, for the player to move
    (about 4 per seed ahead), from a search of :data:`JUDGING_NODES` nodes."""
    game, _ = from_record(record_text)
    return ExpertPlayer(seed, max_nodes=JUDGING_NODES).choose(game, seconds=60).score
