"""``python -m benchmarks.search_speed``: how fast the expert's compiled search runs with each
evaluation, the same positions for each.

Positions are drawn from random games (6 to 30 random plies, ``--seed``), each searched for
``--nodes`` nodes by the compiled search (with the endgame tables installed, if any, for every
evaluation alike: only the evaluation differs). Each evaluation is measured ``--rounds`` times,
the rounds interleaved so that a machine busy for a moment weighs on all of them alike. The
baseline is the hand-set evaluation; each weights file's set is printed with its ratio to it:

    python -m benchmarks.search_speed                               # the project's weights
    python -m benchmarks.search_speed before.json bot/ai/weights.json

A node budget makes every search the same whatever the speed, so the figure is nodes over
seconds of the same work.

>>> positions("oware", 2, seed=1)[0].ply >= 6
True
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from bot.ai.expert import WEIGHTS_PATH, Weights, compiled_search, weights_for
from bot.engine import Game
from bot.engine.core import CompiledMachine, machine_for


def positions(variant: str, count: int, seed: int) -> list[Game]:
    """``count`` games of ``variant`` after 6 to 30 random plies, none of them over."""
    rng = random.Random(seed)
    found: list[Game] = []
    while len(found) < count:
        game = Game(variant)
        for _ in range(rng.randrange(6, 31)):
            if game.outcome is not None:
                break
            game.play(rng.choice(game.legal_moves))
        if game.outcome is None and len(game.legal_moves) > 1:
            found.append(game)
    return found


def speed(games: list[Game], weights: Weights, nodes: int) -> tuple[int, float]:
    """The nodes searched and the seconds it took, over every game."""
    searched, seconds = 0, 0.0
    for game in games:
        machine = machine_for(game.rules)
        assert isinstance(machine, CompiledMachine), "the benchmark measures the compiled search: build the core"
        began = time.perf_counter()
        decision = compiled_search(machine, game, 60.0, nodes, 64, None, weights)
        seconds += time.perf_counter() - began
        searched += decision.nodes
    return searched, seconds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("weights_files", nargs="*", type=Path, help="weights files (default: the project's)")
    parser.add_argument("--variant", default="oware", choices=("oware", "wari"))
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--nodes", type=int, default=1_000_000, help="nodes a search")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    files = args.weights_files or [WEIGHTS_PATH]
    games = positions(args.variant, args.positions, args.seed)
    sides: dict[str, Weights] = {"hand-set": None}
    sides |= {str(path): weights_for(args.variant, "tuned", path) for path in files}
    totals = dict.fromkeys(sides, (0, 0.0))
    for _ in range(args.rounds):
        for name, weights in sides.items():
            nodes, seconds = speed(games, weights, args.nodes)
            totals[name] = (totals[name][0] + nodes, totals[name][1] + seconds)
    print(f"{args.variant}: {args.positions} positions, {args.nodes:,} nodes each, {args.rounds} rounds")
    base = totals["hand-set"][0] / totals["hand-set"][1]
    for name, (nodes, seconds) in totals.items():
        rate = nodes / seconds
        print(
            f"{name}: {rate / 1e6:.2f} million nodes a second ({nodes:,} nodes in {seconds:.1f}s), "
            f"{rate / base:.2f} x the hand-set"
        )


if __name__ == "__main__":
    main()
