"""How long the image board takes to draw, and how big it is, against the text board.

For wari and Kalah 10x10, a position from the middle of a game is drawn N times (default 300)
as a PNG (:func:`bot.pictures.board.board_png`, with its last move highlighted) and as text
(:func:`bot.render.board_text`) in the same run; prints p50/p99 of each, their ratio and the
PNG's size in bytes::

    .venv/bin/python benchmarks/board_image.py --draws 300
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import Game, rules_for  # noqa: E402
from bot.pictures.board import board_png  # noqa: E402
from bot.render import board_text  # noqa: E402


def midgame(rules, plies: int = 12, seed: int = 1) -> Game:
    game, rng = Game(rules), random.Random(seed)
    for _ in range(plies):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves))
    return game


def timings(draw, draws: int) -> tuple[float, float]:
    """p50 and p99 in milliseconds."""
    times = []
    for _ in range(draws):
        start = time.perf_counter()
        draw()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=300)
    args = parser.parse_args()
    print(
        f"{'board':<12} {'png p50':>9} {'png p99':>9} {'text p50':>9} {'text p99':>9} "
        f"{'ratio p50':>10} {'png bytes':>10}"
    )
    for label, rules in (("wari", rules_for("wari")), ("kalah 10x10", rules_for("kalah", 10, 10))):
        game = midgame(rules)
        last = game.moves[-1] if game.moves else None
        board_png(game, last_move=last)  # warm the font cache
        png50, png99 = timings(lambda game=game, last=last: board_png(game, last_move=last), args.draws)
        text50, text99 = timings(lambda game=game: board_text(game), args.draws)
        size = len(board_png(game, last_move=last))
        print(
            f"{label:<12} {png50:8.2f}ms {png99:8.2f}ms {text50 * 1000:7.1f}us {text99 * 1000:7.1f}us "
            f"{png50 / text50:9.0f}x {size:>10}"
        )


if __name__ == "__main__":
    main()
