"""The opening book: the expert's move in every position of a game's first plies, searched deeply.

A book holds, for each position that can arise in the first few plies from the usual start,
the move a long search chose there, its depth and its score. The expert plays a book move at
once instead of searching, so its openings are as deep as the book's searches, whatever its
time. One text file a variant beside this module, ``bot/ai/book/oware.txt`` (kept in the repository: a few hundred
lines); the ``#`` lines say how it was built, every other line is one position::

    4,4,4,4,4,4,4,4,4,4,4,4 0:0 A  6  d19 +3

(the houses, the stores, the player to move; then the house to play, the search's depth and
its score, in quarter seeds). Rebuild one with::

    python -m bot.ai.book build --variant oware --plies 3 --nodes 12000000 --jobs 2

which searches every position of the first ``plies`` plies (each once, however it was reached)
for ``nodes`` nodes with the expert's own search, deterministic for a node budget: the same
command writes the same file. The search is the compiled one, so the build needs the core.

>>> Book.for_variant("oware") is not None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bot.engine import Game
from bot.engine.notation import position, rules_code

#: Where the books live, one ``<variant>.txt`` each (beside this file).
BOOKS_DIR = Path(__file__).parent


@dataclass(frozen=True)
class BookMove:
    """What the book says about one position."""

    house: int
    depth: int
    score: int


def key(game: Game) -> str:
    """A position as the book writes it: houses, stores and the player to move."""
    return position(game).split(" ", 2)[2]


class Book:
    """One variant's book: a position's key to its :class:`BookMove`."""

    def __init__(self, variant: str, moves: dict[str, BookMove]) -> None:
        self.variant = variant
        self.moves = moves

    def __len__(self) -> int:
        return len(self.moves)

    @classmethod
    def for_variant(cls, variant: str) -> Book | None:
        """The book of ``variant`` (its standard size), or ``None`` if it has none."""
        return _load(BOOKS_DIR / f"{variant}.txt", variant)

    @classmethod
    def read(cls, path: Path, variant: str) -> Book:
        moves = {}
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            try:
                houses, stores, mover, house, depth, score = line.split()
                moves[f"{houses} {stores} {mover}"] = BookMove(int(house), int(depth.removeprefix("d")), int(score))
            except ValueError:
                raise ValueError(f"{path}:{number}: not a book line: {line!r}") from None
        return cls(variant, moves)

    def move(self, game: Game) -> BookMove | None:
        """The book's move for ``game``'s position, if the book has it and it is legal there."""
        if rules_code(game.rules) != self.variant or game.is_over:
            return None
        found = self.moves.get(key(game))
        return found if found is not None and game.is_legal(found.house) else None


@cache
def _load(path: Path, variant: str) -> Book | None:
    return Book.read(path, variant) if path.exists() else None
