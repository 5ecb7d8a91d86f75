"""What a press leaves behind in memory: the bot through SimCord against the two bare bots of
``python -m benchmarks.bench`` (``benchmarks/echo.py``), in one run.

    .venv/bin/python benchmarks/memory.py --games 30

Each runs in a fresh process of its own (memory one run frees, the next would reuse, hiding its
growth). For each, after a warm-up, the growth of the process's resident memory over a stretch
of presses (after ``gc.collect()`` at both ends), per 1,000 presses; for the bot, the
``discord.Interaction`` objects still alive after its presses, before and after a collection.
The two echoes make the simulator's own share visible: SimCord logs every REST call with its
payload and keeps every message posted, so a bot that posts a message a press grows with it.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing
import random
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import discord
import simcord

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench import open_games, play_all  # noqa: E402
from benchmarks.echo import Echo  # noqa: E402
from bot.client import create_bot  # noqa: E402

WARM_UP_GAMES = 10


def resident_mib() -> float:
    """The process's resident memory (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def interactions() -> int:
    return sum(isinstance(thing, discord.Interaction) for thing in gc.get_objects())


async def bot_growth(games: int) -> tuple[int, float, int, int]:
    """Presses, MiB grown, Interactions alive before and after ``gc.collect()``."""
    with tempfile.TemporaryDirectory(prefix="wari-memory-") as folder:
        bot = create_bot(Path(folder) / "wari.sqlite3", rng=random.Random(1))
        try:
            async with simcord.run(bot) as env:
                await play_all(await open_games(env, WARM_UP_GAMES, "wari"), random.Random(1))
                live = await open_games(env, games, "wari")
                gc.collect()
                before = resident_mib()
                presses = await play_all(live, random.Random(2))
                alive = interactions()
                gc.collect()
                return len(presses), resident_mib() - before, alive, interactions()
        finally:
            await bot.store.close()


def echo_growth(presses: int, pings: bool) -> float:
    """MiB an echo grows over ``presses`` presses, after a warm-up."""
    echo = Echo(pings=pings)
    try:
        for _ in range(WARM_UP_GAMES * 90):  # about as many presses as the bot's warm-up
            echo.press()
        gc.collect()
        before = resident_mib()
        for _ in range(presses):
            echo.press()
        gc.collect()
        return resident_mib() - before
    finally:
        echo.close()


def in_own_process(function, *args):
    """``function(*args)`` in a fresh process; its result."""
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(function, *args).result()


def bot_figures(games: int) -> tuple[int, float, int, int]:
    return asyncio.run(bot_growth(games))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30, help="games the bot plays to the end (default 30)")
    args = parser.parse_args(argv)
    presses, grown, alive, kept = in_own_process(bot_figures, args.games)
    print(f"{'':<10} {'presses':>8} {'MiB grown':>10} {'MiB per 1,000':>14}")
    print(f"{'bot':<10} {presses:>8} {grown:>10.1f} {1000 * grown / presses:>14.1f}")
    for name, pings in (("echo", False), ("echo+ping", True)):
        echo = in_own_process(echo_growth, presses, pings)
        print(f"{name:<10} {presses:>8} {echo:>10.1f} {1000 * echo / presses:>14.1f}")
    print(f"discord.Interaction alive after the bot's presses: {alive}; after gc.collect(): {kept}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
