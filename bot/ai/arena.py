"""``python -m bot.ai.arena``: a match between two computer players, with its Elo difference.

Colours alternate and each pair of games starts from the same varied opening (a few random
plies), so neither side profits from the first move or a lucky start. Games run in parallel
on every core; each player gets ``--time`` seconds per move.

    python -m bot.ai.arena --a expert --b mcts --games 20 --time 1
    python -m bot.ai.arena --ladder random low greedy mcts expert --games 20 --time 0.1

Each match prints the score, the Elo difference with its 95% interval, and how each player
kept its time budget.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from bot.engine import Game, Player, rules_for
from bot.engine.rules import VARIANTS

from . import LEVELS, make_player
from .base import Strategy

OPENING_PLIES = 2


@dataclass(frozen=True)
class GameResult:
    points_a: float  # 1 win, 0.5 draw, 0 loss, for player --a
    plies: int
    reason: str
    a_moved_first: bool
    #: Seconds each move of --a, then of --b, took (budgets are kept to within 10%).
    seconds: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())


#: One side's move: the house a player chooses in a game with so many seconds.
Chooser = Callable[[Game, float], int]


def moves_of(player: Strategy) -> Chooser:
    """``player`` as a :data:`Chooser`."""
    return lambda game, seconds: player.choose(game, seconds).house


def play_game(
    variant: str, opening_seed: int, plies: int, a_first: bool, a: Chooser, b: Chooser, seconds: float
) -> GameResult:
    """One game of ``a`` against ``b`` from an opening of ``plies`` random plies (the same for the
    same ``opening_seed``); ``a`` is player A when ``a_first``."""
    game = Game(rules_for(variant), Player.A)
    opening = random.Random(opening_seed)
    for _ in range(plies):
        if not game.is_over:
            game.play(opening.choice(game.legal_moves))
    side_a = Player.A if a_first else Player.B
    choosers = {side_a: a, side_a.other: b}
    times: dict[Player, list[float]] = {Player.A: [], Player.B: []}
    while (mover := game.to_move) is not None:  # None once the game is over
        began = time.perf_counter()
        house = choosers[mover](game, seconds)
        times[mover].append(time.perf_counter() - began)
        game.play(house)
    outcome = game.outcome
    assert outcome is not None  # the loop above ran until the game was over
    winner = outcome.winner
    points = 0.5 if winner is None else 1.0 if winner == side_a else 0.0
    spent = (tuple(times[side_a]), tuple(times[side_a.other]))
    return GameResult(points, game.ply, outcome.termination.value, a_first, spent)


def play_one(a: str, b: str, variant: str, seconds: float, opening_seed: int, a_first: bool, seed: int) -> GameResult:
    """One game of level ``a`` against level ``b``; ``a`` is player A when ``a_first``."""
    first, second = make_player(a if a_first else b, seed), make_player(b if a_first else a, seed + 1)
    player_a, player_b = (first, second) if a_first else (second, first)
    return play_game(variant, opening_seed, OPENING_PLIES, a_first, moves_of(player_a), moves_of(player_b), seconds)


def elo(score: float) -> float:
    """The Elo difference that predicts an expected ``score`` (0..1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return 400 * math.log10(score / (1 - score))


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95% interval for a score fraction over ``n`` games (sane at 0% and 100%)."""
    middle = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(middle - half, 0.0), min(middle + half, 1.0)


def timing(name: str, moves: list[float], budget: float) -> str:
    """How one player kept its time: the slowest move and the moves over budget + 10%."""
    if not moves:
        return f"{name}: no moves"
    over = sum(seconds > 1.1 * budget for seconds in moves)
    return f"{name}: {len(moves)} moves, slowest {max(moves):.3f}s for {budget:g}s, {over} over budget + 10%"


def summary(a: str, b: str, results: list[GameResult]) -> str:
    n = len(results)
    wins = sum(r.points_a == 1 for r in results)
    draws = sum(r.points_a == 0.5 for r in results)
    losses = n - wins - draws
    score = sum(r.points_a for r in results) / n
    low, high = wilson(score, n)
    return (
        f"{a} vs {b}: {n} games, +{wins} ={draws} -{losses}, {a} scored {100 * score:.1f}% of points "
        f"(95% Wilson interval [{100 * low:.1f}%, {100 * high:.1f}%])\n"
        f"Elo difference {elo(score):+.0f} (95% interval [{elo(low):+.0f}, {elo(high):+.0f}])"
    )


def report(a: str, b: str, results: list[GameResult], budget: float) -> str:
    """A match's summary, then how each side kept its time."""
    lines = [summary(a, b, results)]
    for side, name in enumerate((a, b)):
        lines.append(timing(name, [s for result in results for s in result.seconds[side]], budget))
    return "\n".join(lines)


def match(a: str, b: str, args: argparse.Namespace, pool: ProcessPoolExecutor) -> list[GameResult]:
    """``args.games`` games of ``a`` against ``b``, printed as they finish."""
    jobs = [
        (a, b, args.variant, args.time, args.seed * 1000 + g // 2, g % 2 == 0, args.seed * 7919 + g)
        for g in range(args.games)
    ]
    results = []
    for index, result in enumerate(pool.map(play_one, *zip(*jobs, strict=True)), start=1):
        results.append(result)
        side = "A" if result.a_moved_first else "B"
        print(
            f"game {index:3}: {a} as {side} scored {result.points_a:g} ({result.plies} plies, {result.reason})",
            flush=True,
        )
    print(report(a, b, results, args.time))
    return results


def ladder(levels: list[str], args: argparse.Namespace, pool: ProcessPoolExecutor) -> None:
    """Each level against the one before it; ratings add up the Elo differences from the first.

    A clean sweep has no finite Elo difference, so each step's rating counts one extra drawn game
    (it stays within the 95% interval printed with the match).
    """
    ratings = {levels[0]: 0.0}
    for weaker, stronger in itertools.pairwise(levels):
        results = match(stronger, weaker, args, pool)
        points = sum(result.points_a for result in results)
        ratings[stronger] = ratings[weaker] + elo((points + 0.5) / (len(results) + 1))
    print(f"ratings ({args.variant}, {args.time:g}s a move, {args.games} games a step, {levels[0]} = 0):")
    for level, rating in ratings.items():
        print(f"  {level:8} {rating:+6.0f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.ai.arena", description="A match between two computer players, or a ladder of them."
    )
    parser.add_argument("--a", choices=list(LEVELS))
    parser.add_argument("--b", choices=list(LEVELS))
    parser.add_argument(
        "--ladder", nargs="+", choices=list(LEVELS), help="levels, weakest first: each plays the one before it"
    )
    parser.add_argument("--games", type=int, default=20, help="number of games (even: colours alternate)")
    parser.add_argument("--time", type=float, default=1.0, help="seconds per move for each player")
    parser.add_argument("--variant", default="oware", choices=VARIANTS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="games played at once")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if not args.ladder and not (args.a and args.b):
        parser.error("give --a and --b, or --ladder")
    began = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        if args.ladder:
            ladder(args.ladder, args, pool)
        else:
            match(args.a, args.b, args, pool)
    print(f"variant {args.variant}, {args.time:g}s per move, {time.perf_counter() - began:.0f}s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
