"""What every computer player offers: given a game and a time budget, a :class:`Decision`."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.engine import Game

#: Called by searching players once per root move examined (the terminal prints a dot).
Progress = Callable[[], None]


@dataclass(frozen=True)
class Decision:
    """The chosen house and, for searching players, what the search found."""

    house: int
    #: Deepest completed search depth (plies), or playouts for MCTS.
    depth: int = 0
    #: From the mover's point of view: the evaluation (about 4 per seed ahead); beyond ±1000 a
    #: proven win or loss (1000 + the final margin in seeds).
    score: float = 0.0
    #: Principal variation: the expected line, starting with ``house``.
    pv: tuple[int, ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    #: The search proved the result (every line to the end, or a forced win or loss).
    exact: bool = False
    notes: dict = field(default_factory=dict, compare=False)


class Strategy(ABC):
    """A computer player. ``seed`` makes every random choice reproducible."""

    #: The level's name, as users type it (``random``, ``greedy``, ``expert``...).
    name: str = ""
    #: One line for help texts.
    summary: str = ""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, game: Game, seconds: float = 1.0, progress: Progress | None = None) -> Decision:
        """Pick a legal move for the player to move in ``game`` (which must not be over).

        ``seconds`` is the time budget (searching players use it; the others answer at once).
        The game is left as it was.
        """
