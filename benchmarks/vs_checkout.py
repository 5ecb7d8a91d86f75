"""This checkout's computer player against the same level of another checkout of the project.

A change to the engine or the evaluation is measured against the expert as it was: check the
older commit out beside this one (``git worktree add /tmp/before <commit>``, with its compiled
core built: ``pip install -e /tmp/before`` into a scratch environment, or the same ``gcc`` line
the build runs) and play them::

    python benchmarks/vs_checkout.py --other /tmp/before --variant wari --games 40 --time 1

Each side answers from a process of its own that imports its own checkout, so the two never
share a module, a book, a weights file or a kept search table. The endgame tables are those of
``$WARI_TABLES`` for both (``--tables`` sets it; an empty folder plays without them). Each pair
of games starts from the same opening of ``--opening-plies`` random plies, played once with each
colour; the summary gives the score, the Elo difference with its 95% interval, and how each side
kept its time (the clock of a move includes the round trip to its process).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bot.ai.arena import GameResult, play_game, report  # noqa: E402
from bot.engine import Game  # noqa: E402

#: What a side's process runs: one line in (variant, seconds, the houses played so far), one
#: house out. The player lives as long as the game, as in the bot (its kept table included).
#: It uses only what every checkout has had: ``make_player``, ``Game`` and ``choose``.
ANSWERER = """
import sys
sys.path.insert(0, sys.argv[1])
from bot.ai import make_player
from bot.engine import Game
player = make_player(sys.argv[2], int(sys.argv[3]))
for line in sys.stdin:
    variant, seconds, houses = line.split("|")
    game = Game(variant)
    for house in houses.split():
        game.play(int(house))
    print(player.choose(game, float(seconds)).house, flush=True)
"""


class Side:
    """A player of ``level`` from the checkout at ``root``, in a process of its own."""

    def __init__(self, root: Path, level: str, seed: int) -> None:
        self.root = root
        self.process = subprocess.Popen(
            [sys.executable, "-c", ANSWERER, str(root), level, str(seed)],
            cwd=root,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def choose(self, game: Game, seconds: float) -> int:
        """The house this side plays in ``game`` (sent as the houses played from the start)."""
        assert self.process.stdin and self.process.stdout
        houses = " ".join(str(move.house) for move in game.moves)
        self.process.stdin.write(f"{game.rules.name}|{seconds}|{houses}\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise RuntimeError(f"the player of {self.root} stopped answering")
        return int(answer)

    def close(self) -> None:
        assert self.process.stdin
        self.process.stdin.close()
        self.process.wait()


def play_one(args: argparse.Namespace, game_index: int) -> GameResult:
    """Game ``game_index``: this checkout moves first in the even ones, from the pair's opening."""
    seed = args.seed * 7919 + game_index
    ours, theirs = Side(HERE, args.level, seed), Side(args.other.resolve(), args.level, seed + 1)
    opening_seed = args.seed * 1000 + game_index // 2
    try:
        return play_game(
            args.variant, opening_seed, args.opening_plies, game_index % 2 == 0, ours.choose, theirs.choose, args.time
        )
    finally:
        ours.close()
        theirs.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--other", type=Path, required=True, help="the other checkout (its core built)")
    parser.add_argument("--level", default="expert")
    parser.add_argument("--variant", default="oware")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--time", type=float, default=1.0, help="seconds a move")
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1, help="which openings")
    parser.add_argument("--jobs", type=int, default=2, help="games at once (each needs one core)")
    parser.add_argument("--tables", type=Path, default=None, help="the endgame tables' folder for both sides")
    args = parser.parse_args(argv)
    if args.tables is not None:
        os.environ["WARI_TABLES"] = str(args.tables.resolve())
    ours, theirs = f"{args.level} (here)", f"{args.level} ({args.other})"
    results = []
    with ThreadPoolExecutor(args.jobs) as pool:
        for index, result in enumerate(pool.map(lambda g: play_one(args, g), range(args.games)), start=1):
            results.append(result)
            side = "A" if result.a_moved_first else "B"
            print(f"game {index:3}: here as {side} scored {result.points_a:g} ({result.plies} plies, {result.reason})")
    print(report(ours, theirs, results, args.time))


if __name__ == "__main__":
    main()
