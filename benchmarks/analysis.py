"""How long the computer analysis of a 120-ply game takes, at each depth, on one core.

The game is played here, deterministically: two experts on 3,000 nodes a move after four random
plies (seed 0 gives a long, balanced game of wari), cut at 120 plies. Every one of its 121
positions is judged in this process, one after the other, as a worker of the bot judges them; the
figures are the time, the positions judged a second, and the time against the budget each depth
is chosen for (30 s at default, 10 s quick)::

    .venv/bin/python -m benchmarks.analysis [--plies 120] [--depth quick]
"""

from __future__ import annotations

import argparse
import os
import random
import time

from bot.ai.analysis import DEPTHS, analyse_game
from bot.ai.expert import ExpertPlayer
from bot.engine import Game, Player

#: What each depth is chosen to stay within for a 120-ply game, in seconds (see bot.ai.analysis.judge).
BUDGETS = {"default": 30.0, "quick": 10.0}


def long_game(plies: int = 120, seed: int = 0) -> Game:
    """A game of wari between two experts, cut at ``plies`` (fewer only if it ends before)."""
    rng, game = random.Random(seed), Game("wari")
    players = {Player.A: ExpertPlayer(1, max_nodes=3_000), Player.B: ExpertPlayer(2, max_nodes=3_000)}
    while (mover := game.to_move) is not None and game.ply < plies:
        game.play(rng.choice(game.legal_moves) if game.ply < 4 else players[mover].choose(game, 60).house)
    return game


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=120)
    parser.add_argument("--depth", choices=DEPTHS, action="append", help="one depth (repeatable); both by default")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, as one worker has
    game = long_game(args.plies)
    print(f"wari, {game.ply} plies ({game.ply + 1} positions), one core")
    for depth in args.depth or DEPTHS:
        began = time.perf_counter()
        analysis = analyse_game(game, depth)
        seconds = time.perf_counter() - began
        positions = len(analysis.advantage)
        marks = sum(1 for verdict in analysis.moves if verdict.mark)
        print(
            f"{depth:>8} ({DEPTHS[depth]:,} nodes): {seconds:5.1f} s, {positions / seconds:5.1f} positions/s, "
            f"{seconds / BUDGETS[depth]:.2f} of its {BUDGETS[depth]:.0f} s budget; {marks} moves marked"
        )


if __name__ == "__main__":
    main()
