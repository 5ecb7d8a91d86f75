"""Endgame tables: the exact value of every position with few seeds left, and the move that keeps it.

``python -m bot.ai.tables build --seeds N`` solves every position of each capture variant
(:data:`VARIANTS`: wari, oware, awari, ouril) with at most ``N`` seeds on the board (any split of
the captured seeds that leaves the game going) by retrograde analysis in the compiled core, and
writes one file a variant under ``data/tables/`` (``oware-14.bin``: one signed byte a position).
The expert looks a position up before it searches; without the files (or without the compiled
core) it simply searches.

What a value is: the final margin, the mover's seeds minus the opponent's when the game ends,
under best play by both (best result, then best margin). Kalah has no tables here.

Repetitions: the rules end a game at a repeated position, each player taking their own row, so
a position's value can depend on the positions played before it. The tables keep a value only
where it does not: where the player to move can force it without ever counting on a repetition,
and so can the opponent (the two bounds of ``_core.c``'s ``build_tables`` meet). Other positions
are searched; the table keeps what their bounds say of the result (a win by at least so many
seeds, a loss, at least or at most a draw), which cuts the search off where that is enough
(:meth:`Table.bounds`). Of the positions with 14 seeds on board in oware, 44.5% are exact.

>>> Table.for_variant("chess") is None
True
"""

from __future__ import annotations

import mmap
import os
import sys
import time
from functools import lru_cache
from pathlib import Path
from typing import TextIO

from bot.engine import VARIANTS as ALL_VARIANTS
from bot.engine import Game, rules_for
from bot.engine.core import _core, compiled_code, machine_for

from ..base import Decision
from ..search import WIN

#: The variants with tables: the registry's capture games, on the traditional board (Kalah's stores
#: on the path make it a different problem).
VARIANTS = tuple(name for name in ALL_VARIANTS if not rules_for(name).stores_on_path)
#: Where tables are looked for and written; ``WARI_TABLES`` overrides it.
DEFAULT_DIR = Path(__file__).resolve().parents[3] / "data" / "tables"


def tables_dir() -> Path:
    return Path(os.environ.get("WARI_TABLES") or DEFAULT_DIR)


class Table:
    """One variant's table, mapped from its file (shared between processes by the page cache)."""

    def __init__(self, variant: str, seeds: int, data: bytes | mmap.mmap) -> None:
        self.variant = variant
        self.seeds = seeds
        self.code = compiled_code(rules_for(variant).mechanics)
        self.data = data

    @classmethod
    def for_variant(cls, variant: str) -> Table | None:
        """The largest table on disk for ``variant``, or ``None`` (no file, no compiled core).

        The folder is looked at on every call, so a table built while the bot runs (see
        :mod:`.background`) is used from the next search on; opening it happens once.
        """
        if _core is None or variant not in VARIANTS:
            return None
        folder = tables_dir()
        return _load(variant, str(folder), _files(variant, folder))

    def value(self, state: tuple[int, ...]) -> int | None:
        """The exact final margin for the player to move at ``state``, or ``None`` if unknown."""
        if _core is None:  # tables are loaded only where it was built (see _load)
            raise RuntimeError("the endgame tables are read by the compiled core, which was not built")
        return _core.probe(self.code, self.seeds, self.data, state)

    def bounds(self, state: tuple[int, ...]) -> tuple[int | None, int | None]:
        """What the table knows of ``state``'s final margin for the player to move: at least
        ``lo``, at most ``hi`` (``None``: no bound; equal: the exact value). Where a repetition
        could change the value, the table keeps only its sign: a win by at least ``lo`` seeds, a
        loss by at least ``-hi``, at least (``lo == 0``) or at most (``hi == 0``) a draw."""
        if _core is None:
            raise RuntimeError("the endgame tables are read by the compiled core, which was not built")
        return _core.probe(self.code, self.seeds, self.data, state, True)


def _files(variant: str, folder: Path) -> tuple[str, ...]:
    """The names of ``variant``'s table files in ``folder``, largest table first."""
    paths = [path for path in folder.glob(f"{variant}-*.bin") if _seeds_of(path) is not None]
    return tuple(path.name for path in sorted(paths, key=lambda path: _seeds_of(path) or 0, reverse=True))


def largest_on_disk(variant: str, folder: Path) -> int | None:
    """The seeds of ``variant``'s largest table file in ``folder`` (``None``: there is none)."""
    names = _files(variant, folder)
    return _seeds_of(Path(names[0])) if names else None


@lru_cache(maxsize=64)
def _load(variant: str, folder: str, names: tuple[str, ...]) -> Table | None:
    """The first usable table of ``names`` (cached by the files present: a new one is seen)."""
    for name in names:
        path = Path(folder) / name
        seeds = _seeds_of(path)
        assert seeds is not None  # _files keeps only names with a seed count
        try:
            with open(path, "rb") as handle:
                data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
            # Read it all in now, in the background: a search's first probes would wait on the disk.
            if hasattr(mmap, "MADV_WILLNEED"):
                data.madvise(mmap.MADV_WILLNEED)
        except (OSError, ValueError):
            continue  # gone meanwhile, or empty
        try:
            table = Table(variant, seeds, data)
            table.value(machine_for(rules_for(variant)).start())  # checks the size
            return table
        except ValueError:
            continue  # a file of the wrong size: ignore it
    return None


def _seeds_of(path: Path) -> int | None:
    tail = path.stem.rpartition("-")[2]
    return int(tail) if tail.isdigit() else None


def best_move(game: Game, table: Table | None = None) -> Decision | None:
    """A move that keeps the exact value, from the tables; ``None`` when they cannot tell.

    Every legal move is tried: a move that ends the game is scored by the rules (a repetition
    included, since the game knows its history), any other by the table's value of the position
    it leads to. When the position itself has a value, a move that keeps it is played (one
    always leads to a position of known value: the bounds of the one that gives the lower bound
    meet); otherwise every move must have a known value, and the best is played.
    """
    table = table or Table.for_variant(game.rules.name)
    mover = game.to_move  # None once the game is over
    if table is None or mover is None or sum(game.board) > table.seeds:
        return None
    margins = {house: _margin_after(game, house, mover, table) for house in game.legal_moves}
    value = table.value(game.state)  # None too while Ouril's extra move is owed
    if value is None:
        known = [margin for margin in margins.values() if margin is not None]
        if len(known) < len(margins):
            return None
        value = max(known)
    keeping = [house for house, margin in margins.items() if margin == value]
    if not keeping:
        return None  # the game's history takes the line away: let the search decide
    score = 0 if value == 0 else WIN + value if value > 0 else -WIN + value
    return Decision(keeping[0], 0, score, (keeping[0],), exact=True, notes={"tables": table.seeds})


def _margin_after(game: Game, house: int, mover: int, table: Table) -> int | None:
    """The exact final margin for ``mover`` after ``house`` is played, or ``None``."""
    trial = game.copy()
    trial.play(house)
    outcome = trial.outcome
    if outcome is not None:
        a, b = outcome.scores
        return a - b if mover == 0 else b - a
    if trial.to_move == mover:  # Ouril's extra move after a grand slam: the best of them
        margins = [_margin_after(trial, again, mover, table) for again in trial.legal_moves]
        known = [margin for margin in margins if margin is not None]
        return None if len(known) < len(margins) else max(known)
    value = table.value(trial.state)
    return None if value is None else -value


# -- building -----------------------------------------------------------------------------------


def build(variant: str, seeds: int, folder: Path, out: TextIO = sys.stdout) -> Path:
    """Solve ``variant`` up to ``seeds`` seeds on board and write ``folder/variant-seeds.bin``."""
    if _core is None:
        raise RuntimeError("the endgame tables are built by the compiled core, which was not built")
    began = time.perf_counter()

    def report(layer: int, positions: int, exact: int, rounds: int, decided: int) -> None:
        print(
            f"  {variant} {layer:2} seeds: {positions:>11,} positions, {100 * exact / positions:5.1f}% exact, "
            f"{100 * decided / positions:5.1f}% of known result ({time.perf_counter() - began:.1f}s)",
            file=out,
            flush=True,
        )

    data = _core.build_tables(compiled_code(rules_for(variant).mechanics), seeds, report)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{variant}-{seeds}.bin"
    partial = path.with_suffix(f".{os.getpid()}.part")  # two processes building at once never mix
    partial.write_bytes(data)
    partial.replace(path)  # whole or not at all
    print(f"{path}: {len(data):,} bytes in {time.perf_counter() - began:.1f}s", file=out, flush=True)
    _load.cache_clear()
    return path
