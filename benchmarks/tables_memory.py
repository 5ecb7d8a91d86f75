"""The memory of a process with every endgame table loaded: mapped, not copied.

    .venv/bin/python -m benchmarks.tables_memory --games 4 --time 0.2

In a fresh process: its resident memory at start, after opening every variant's largest table
in the tables folder (``WARI_TABLES``, else ``data/tables``), and after the expert played
endgames that probe them, ``--games`` a variant from random positions of a few more seeds than
the table holds. Resident memory is split as ``/proc/self/status`` splits it: file-backed pages
(the tables' pages read so far; the page cache holds one copy for every process that maps the
files) and anonymous ones (this process's own). Tables read into memory instead of mapped would
show as anonymous memory the size of the files.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai.expert import ExpertPlayer  # noqa: E402
from bot.ai.tables import VARIANTS, Table, tables_dir  # noqa: E402
from bot.engine import Game  # noqa: E402
from bot.engine.notation import from_position  # noqa: E402


def resident() -> dict[str, int]:
    """This process's resident memory in kB: ``RssFile``, ``RssAnon`` and their sum ``VmRSS``."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "RssFile", "RssAnon"):
            fields[name] = int(value.split()[0])
    return fields


def endgame(variant: str, seeds: int, rng: random.Random) -> Game:
    """A random position of ``variant`` with ``seeds`` seeds on board, the rest split evenly."""
    while True:
        board = [0] * 12
        for _ in range(seeds):
            board[rng.randrange(12)] += 1
        captured = 48 - seeds
        a = captured // 2
        try:
            game = from_position(f"w1 {variant} {','.join(map(str, board))} {a}:{captured - a} A")
        except ValueError:
            continue
        if not game.is_over:
            return game


def play_out(game: Game, seconds: float) -> int:
    """Play ``game`` to its end, the expert on both sides; the number of moves."""
    expert = ExpertPlayer(seed=1)
    moves = 0
    while not game.is_over and moves < 200:
        game.play(expert.choose(game, seconds).house)
        moves += 1
    return moves


def line(label: str, memory: dict[str, int]) -> str:
    return (
        f"{label:<34} resident {memory['VmRSS'] / 1024:7.1f} MiB = file-backed {memory['RssFile'] / 1024:7.1f} MiB"
        f" + anonymous {memory['RssAnon'] / 1024:6.1f} MiB"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="endgames played a variant")
    parser.add_argument("--time", type=float, default=0.2, help="seconds a move")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    start = resident()
    print(line("at start", start))
    tables = [table for variant in VARIANTS if (table := Table.for_variant(variant)) is not None]
    if not tables:
        print(f"no tables in {tables_dir()}: python -m bot.ai.tables build --seeds 14 makes them")
        return 1
    size = sum(len(table.data) for table in tables)
    listed = ", ".join(f"{table.variant} {table.seeds} seeds" for table in tables)
    print(f"tables: {listed}; {size / 2**20:.1f} MiB on disk in all")
    opened = resident()
    print(line("every table opened", opened))
    rng = random.Random(args.seed)
    moves = sum(
        play_out(endgame(table.variant, table.seeds + 4, rng), args.time) for table in tables for _ in range(args.games)
    )
    played = resident()
    print(line(f"after {moves} moves of endgames", played))
    grown = (played["RssAnon"] - start["RssAnon"]) / 1024
    print(f"anonymous growth {grown:.1f} MiB for {size / 2**20:.1f} MiB of tables: mapped, not copied")
    return 0


if __name__ == "__main__":
    sys.exit(main())
