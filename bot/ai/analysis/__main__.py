"""``python -m bot.ai.analysis``: analyse a game record, or fit the expected-score model.

python -m bot.ai.analysis game wari-game-12.txt [--quick]
python -m bot.ai.analysis fit [--games 40] [--seed 1] [--depth quick]
python -m bot.ai.analysis accuracy [--games 6] [--seed 0] [--depth quick]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from bot.engine import Game
from bot.engine.notation import from_record

from .fit import CALIBRATION_LEVELS, accuracy_figures, collect
from .judge import DEPTHS
from .model import MARKS, K, fit_k, log_loss
from .verdicts import GameAnalysis, MoveVerdict, analyse_game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.analysis", description="Computer analysis of games.")
    commands = parser.add_subparsers(dest="command", required=True)
    g = commands.add_parser("game", help="print the analysis of a game record")
    g.add_argument("record", type=Path, help="a wari-record/1 file ('-' for standard input)")
    g.add_argument("--quick", action="store_true", help="the quick depth")
    f = commands.add_parser("fit", help="fit the model's constant K on self-play games")
    f.add_argument("--games", type=int, default=40)
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--depth", choices=DEPTHS, default="default", help="the budget positions are judged at")
    f.add_argument("--variant", default="wari")
    a = commands.add_parser("accuracy", help="the accuracies of the computer's levels against its expert")
    a.add_argument("--games", type=int, default=6, help="games for each level")
    a.add_argument("--seed", type=int, default=0)
    a.add_argument("--depth", choices=DEPTHS, default="quick")
    args = parser.parse_args(argv)
    if args.command == "game":
        text = sys.stdin.read() if str(args.record) == "-" else args.record.read_text(encoding="utf-8")
        return print_game(text, "quick" if args.quick else "default")
    if args.command == "accuracy":
        return print_accuracy(args.games, args.seed, args.depth)
    return print_fit(args.games, args.seed, args.depth, args.variant)


def print_game(text: str, depth: str) -> int:
    game, tags = from_record(text)
    names = (tags.get("PlayerA", "A"), tags.get("PlayerB", "B"))
    began = time.perf_counter()

    def progress(done: int, total: int) -> None:
        print(f"\r{done}/{total} positions", end="", file=sys.stderr, flush=True)

    analysis = analyse_game(game, depth, progress)
    print(f"\r{len(analysis.advantage)} positions in {time.perf_counter() - began:.1f}s", file=sys.stderr)
    print(describe(analysis, game, names))
    return 0


def describe(analysis: GameAnalysis, game: Game, names: tuple[str, str]) -> str:
    """The analysis as text: every move with its mark, then each player's summary."""
    lines = [f"{analysis.variant}, {analysis.depth} depth: {len(analysis.moves)} moves"]
    for verdict in analysis.moves:
        lines.append(_move_line(verdict, analysis.advantage[verdict.ply]))
    for player in (0, 1):
        counts = analysis.counts(player)
        said = ", ".join(f"{MARKS[mark]} {mark} {counts[mark]}" for mark in ("??", "?", "?!"))
        lines.append(f"{'AB'[player]} {names[player]}: accuracy {analysis.accuracy(player):.0f}; {said}")
        for verdict in analysis.worst(player):
            lines.append(
                f"    move {verdict.ply}: house {verdict.house}{verdict.mark}, "
                f"house {verdict.best} was {verdict.seeds_lost:g} seeds better"
            )
    if game.outcome:
        lines.append(f"result: {game.outcome.result} ({game.outcome.termination.value}), {game.outcome.scores}")
    return "\n".join(lines)


def _move_line(verdict: MoveVerdict, a_after: float) -> str:
    played = f"{'AB'[verdict.player]}{verdict.house}{verdict.mark}"
    better = "" if verdict.best == verdict.house else f"  best {verdict.best} (+{verdict.seeds_lost:g} seeds)"
    exact = " exact" if verdict.exact else ""
    return (
        f"{verdict.ply:4}. {played:8} {verdict.value_played:6} / {verdict.value_best:6}"
        f"  {verdict.expected_before:.2f} -> {verdict.expected_after:.2f}  A {a_after:.2f}{exact}{better}"
    )


def print_fit(games: int, seed: int, depth: str, variant: str) -> int:
    began = time.perf_counter()

    def report(number: int, game: Game, samples: int) -> None:
        outcome = game.outcome
        assert outcome is not None
        print(
            f"  game {number}/{games}: {game.ply} plies, {outcome.result} {outcome.scores}; "
            f"{samples} samples ({time.perf_counter() - began:.0f}s)",
            file=sys.stderr,
            flush=True,
        )

    samples = collect(games, seed, depth, variant, report)
    fit = fit_k(samples)
    wins = sum(sample.result for sample in samples) / len(samples)
    print(f"{variant}, {games} games (seed {seed}), positions judged at {depth} ({DEPTHS[depth]:,} nodes)")
    print(f"samples: {fit.samples} (mean result for the mover {wins:.3f})")
    print(f"K = {fit.k:.4f}, log-loss {fit.log_loss:.4f}")
    print(f"  (the shipped K = {K}: {log_loss(samples, K):.4f}; a coin, K = 0: {log_loss(samples, 0.0):.4f})")
    print(f"{time.perf_counter() - began:.0f}s")
    return 0


def print_accuracy(games: int, seed: int, depth: str) -> int:
    """Each level's accuracies against the expert, and the expert's, game by game and their medians."""
    began = time.perf_counter()
    print(f"wari, {games} games a level against the expert (seeds {seed} on), judged at {depth}")
    for level in CALIBRATION_LEVELS:
        figures = accuracy_figures(level, games, seed, depth)
        mine = ", ".join(f"{level_accuracy:.0f}" for level_accuracy, _expert in figures)
        theirs = ", ".join(f"{expert:.0f}" for _level, expert in figures)
        print(
            f"{level:>7}: {mine} (median {statistics.median(f[0] for f in figures):.0f});"
            f" the expert: {theirs} (median {statistics.median(f[1] for f in figures):.0f})"
        )
    print(f"{time.perf_counter() - began:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
