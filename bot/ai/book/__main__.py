"""``python -m bot.ai.book build``: search the first plies' positions and write a book (see
:mod:`bot.ai.book`)."""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bot.engine import Game, rules_for
from bot.engine.rules import VARIANTS

from ..expert import ExpertPlayer
from . import BOOKS_DIR, BookMove, key


def opening_positions(variant: str, plies: int) -> list[Game]:
    """Every position of the first ``plies`` plies from the start in which there is a choice,
    each once (the first way it is reached), in a fixed order."""
    layer, found = [Game(rules_for(variant))], {}
    for _ in range(plies + 1):
        following = []
        for game in layer:
            if game.is_over or key(game) in found:
                continue
            found[key(game)] = game
            for house in game.legal_moves:
                child = game.copy()
                child.play(house)
                following.append(child)
        layer = following
    return [game for game in found.values() if len(game.legal_moves) > 1]


def search(game: Game, nodes: int) -> BookMove:
    decision = ExpertPlayer(max_nodes=nodes, without=frozenset({"book"})).choose(game)
    return BookMove(decision.house, decision.depth, int(decision.score))


def build(variant: str, plies: int, nodes: int, jobs: int, out: Path) -> int:
    games = opening_positions(variant, plies)
    began = time.perf_counter()
    lines = []
    with ProcessPoolExecutor(jobs) as pool:
        for done, (game, found) in enumerate(zip(games, pool.map(search, games, [nodes] * len(games)), strict=True), 1):
            lines.append(f"{key(game)}  {found.house}  d{found.depth} {found.score:+d}")
            if done % 20 == 0 or done == len(games):
                print(f"{done}/{len(games)} positions, {time.perf_counter() - began:.0f}s", flush=True)
    header = [
        f"# {variant} opening book: every position of the first {plies} plies with a choice, {len(lines)} in all,",
        f"# each searched for {nodes:,} nodes by the expert.",
        f"# Built by: python -m bot.ai.book build --variant {variant} --plies {plies} --nodes {nodes}",
    ]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(header + lines) + "\n")
    print(f"wrote {len(lines)} positions to {out} in {time.perf_counter() - began:.0f}s")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.book", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="search the first plies' positions and write the book")
    b.add_argument("--variant", default="oware", choices=VARIANTS)
    b.add_argument("--plies", type=int, default=3)
    b.add_argument("--nodes", type=int, default=12_000_000)
    b.add_argument("--jobs", type=int, default=1, help="positions searched at once (one core each)")
    b.add_argument("--out", type=Path, help="default: the book the expert reads, bot/ai/book/<variant>.txt")
    args = parser.parse_args(argv)
    return build(args.variant, args.plies, args.nodes, args.jobs, args.out or BOOKS_DIR / f"{args.variant}.txt")


if __name__ == "__main__":
    sys.exit(main())
