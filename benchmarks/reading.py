"""What reading a stored game costs as it grows: ``Table.of`` (what every press does first) with the
stored snapshot, against replaying the record (what it did before, and still does for a game
stored without one).

    .venv/bin/python benchmarks/reading.py
"""

from __future__ import annotations

import dataclasses
import random
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import Game, rules_for  # noqa: E402
from bot.engine.notation import record, snapshot  # noqa: E402
from bot.service.table import Table  # noqa: E402
from bot.storage import GameRow  # noqa: E402

PLIES = (1, 50, 100, 200)


def long_game(plies: int) -> Game:
    """A random game of Kalah 10x10 (long enough to reach ``plies`` moves)."""
    for seed in range(1000):
        rng, game = random.Random(seed), Game(rules_for("kalah", 10, 10))
        while not game.is_over and game.ply < plies:
            game.play(rng.choice(game.legal_moves))
        if game.ply == plies:
            return game
    raise RuntimeError(f"no random game of {plies} moves")


def row_of(game: Game, position: str | None) -> GameRow:
    moment = datetime(2026, 11, 24, tzinfo=UTC)
    return GameRow(
        1,
        1,
        1,
        100,
        200,
        "kalah/10x10",
        record(game, "100", "200"),
        game.ply,
        5,
        "live",
        None,
        None,
        moment,
        moment,
        None,
        position=position,
    )


def median_ms(row: GameRow, rounds: int = 200) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        Table.of(row)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main() -> None:
    print(f"{'moves':>6} {'snapshot ms':>12} {'replay ms':>10} {'snapshot bytes':>15} {'record bytes':>13}")
    for plies in PLIES:
        game = long_game(plies)
        stored = snapshot(game)
        with_snapshot = row_of(game, stored)
        replayed = dataclasses.replace(with_snapshot, position=None)
        print(
            f"{plies:>6} {median_ms(with_snapshot):>12.3f} {median_ms(replayed):>10.3f} "
            f"{len(stored):>15} {len(with_snapshot.record):>13}"
        )


if __name__ == "__main__":
    main()
