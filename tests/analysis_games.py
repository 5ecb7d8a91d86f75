"""A finished game with a blunder the endgame tables prove, for the analysis's tests and stories.

The game starts from a position with 8 seeds left (its record's ``Position`` tag): Ama (A) can
win by 2 seeds with house 2 at her second move, but plays house 4 and loses by 5. With the wari
tables up to 8 seeds (:func:`build_small_tables`, a quarter of a second) every position of it
is exact, so the analysis marks exactly that move, whatever the node budget::

    tables = build_small_tables(tmp_path / "tables")
    monkeypatch.setenv("WARI_TABLES", str(tables))   # the worker processes read it too
    analysis = analyse_game(blundering_record(), "quick")
    [(v.ply, v.mark, v.best) for v in analysis.moves if v.mark] == PROVEN_BLUNDERS
"""

from __future__ import annotations

import io
from pathlib import Path

from bot.ai.tables import build
from bot.engine.notation import from_position, record

#: The position the game starts from: 8 seeds on board, 17 captured by A and 23 by B, A to move.
START = "w1 wari 0,1,0,2,0,1,2,0,0,0,1,1 17:23 A"
#: The houses played: A(6,1)+3 B(11,1) A(4,2) B(12,2)+2.
HOUSES = (6, 11, 4, 12)
#: The seeds on board the tables must cover, and the one variant they are built for.
TABLE_SEEDS = 8
TABLE_VARIANT = "wari"
#: (ply, mark, the better house) of every move the analysis marks: A's house 4 at ply 3, where
#: house 2 wins by 2 seeds and house 4 loses by 5 (7 seeds of final margin given away).
PROVEN_BLUNDERS = [(3, "??", 2)]
SEEDS_LOST = 7


def blundering_record(player_a: str = "Ama", player_b: str = "Kofi") -> str:
    """The text of the finished game's record (``wari-record/1``): B wins by majority, 25 to 20."""
    game = from_position(START)
    for house in HOUSES:
        game.play(house)
    return record(game, player_a, player_b)


def build_small_tables(folder: Path) -> Path:
    """Build the tables :func:`blundering_record` needs (wari, up to 8 seeds) in ``folder``; returns it.

    Point ``WARI_TABLES`` at it before the first game reads the tables (they are cached per folder).
    """
    build(TABLE_VARIANT, TABLE_SEEDS, folder, out=io.StringIO())
    return folder
