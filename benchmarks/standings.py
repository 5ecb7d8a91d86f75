"""How fast ``/wari leaderboard`` and ``/wari stats`` answer with a large archive.

An archive of N finished games (default 100,000) between P players of one server is written
at schema version 3, as a bot of the previous release would have left it; opening it with the
current :class:`bot.storage.Store` runs migration 4, which rates every game in the order they
finished (timed). Then the real bot runs on it in SimCord's simulated Discord and answers, one
after another, ``/wari leaderboard`` (this server, then everyone) and ``/wari stats`` for the
busiest player, each timed around the member's slash command (the whole path: SimCord's
interaction, discord.py, the queries, the chart, the answer). ``/wari rules``, which reads no
archive, is timed in the same run as the baseline. The cooldowns (:mod:`bot.limits`) are lifted:
one member asking four commands a round for many rounds is what they refuse::

    .venv/bin/python benchmarks/standings.py --games 100000 --players 2000
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simcord  # noqa: E402

from benchmarks.cooldowns import cooldowns_lifted  # noqa: E402
from bot.client import create_bot  # noqa: E402
from bot.storage import MIGRATIONS, Store, time_text  # noqa: E402

START = datetime(2026, 1, 1, tzinfo=UTC)
HERO, GUILD = 1, 7  # placeholder ids, replaced by SimCord's once its server and members exist


def write_archive(path: Path, games: int, players: int, rng: random.Random) -> None:
    """``games`` finished games at schema 3; player 1 plays one game in ten, a tenth are against the computer."""
    with sqlite3.connect(path) as db:
        for script in MIGRATIONS[:3]:
            db.executescript(script)
        db.execute("PRAGMA user_version = 3")
        rows = []
        for number in range(1, games + 1):
            a = HERO if number % 10 == 0 else rng.randrange(2, players + 1)
            b = rng.choice(
                [x for x in (rng.randrange(2, players + 1), rng.randrange(2, players + 1)) if x != a] or [players + 1]
            )
            level = "mcts" if number % 10 == 5 else None
            at = time_text(START + timedelta(minutes=number))
            result = rng.choice(("A", "B", "A", "B", "draw"))
            rows.append(
                (
                    GUILD,
                    number,
                    a,
                    b,
                    rng.choice(("wari", "wari", "oware", "kalah/4x3")),
                    "R",
                    "finished",
                    result,
                    "majority",
                    at,
                    at,
                    at,
                    level,
                )
            )
        db.executemany(
            "INSERT INTO games (guild_id, channel_id, player_a, player_b, variant, record, status, result, reason,"
            " created_at, updated_at, finished_at, level_b) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )


async def migrate(path: Path) -> float:
    began = time.perf_counter()
    await (await Store.open(path)).close()
    return time.perf_counter() - began


async def time_commands(path: Path, rounds: int) -> dict[str, list[float]]:
    bot = create_bot(path)
    timings: dict[str, list[float]] = {
        "rules (baseline)": [],
        "leaderboard (server)": [],
        "leaderboard (everyone)": [],
        "stats": [],
    }
    try:
        async with simcord.run(bot) as env:
            guild = env.create_guild("Standings bench")
            channel = guild.create_text_channel("games")
            hero = guild.add_member(env.create_user("hero"))
            with sqlite3.connect(path) as db:  # SimCord's ids in place of the placeholders
                for table, column in (
                    ("games", "player_a"),
                    ("games", "player_b"),
                    ("ratings", "user_id"),
                    ("rating_changes", "user_id"),
                    ("guild_players", "user_id"),
                ):
                    db.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (hero.id, HERO))
                db.execute("UPDATE guild_players SET guild_id = ?", (guild.id,))
            commands = {
                "rules (baseline)": ("wari rules", {}),
                "leaderboard (server)": ("wari leaderboard", {}),
                "leaderboard (everyone)": ("wari leaderboard", {"scope": "everyone"}),
                "stats": ("wari stats", {}),
            }
            with cooldowns_lifted():
                for _ in range(rounds):
                    for name, (command, options) in commands.items():  # interleaved: the same load for each
                        began = time.perf_counter()
                        result = await hero.slash(channel, command, **options)
                        timings[name].append(time.perf_counter() - began)
                        assert result.response is not None and result.response.embeds, name
    finally:
        if hasattr(bot, "store"):
            await bot.store.close()
    return timings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "standings.sqlite3"
        write_archive(path, args.games, args.players, random.Random(1))
        seconds = asyncio.run(migrate(path))
        timings = asyncio.run(time_commands(path, args.rounds))
    print(f"archive: {args.games} finished games, {args.players} players; migration 4 rated them in {seconds:.1f} s")
    baseline = statistics.median(timings["rules (baseline)"])
    for name, values in timings.items():
        ordered = sorted(values)
        p50, p99 = statistics.median(ordered) * 1000, ordered[int(0.99 * (len(ordered) - 1))] * 1000
        print(f"{name:24} p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  ({p50 / (baseline * 1000):.1f}x the baseline)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
