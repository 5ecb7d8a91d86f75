"""How much one clock sweep costs with many live games, against a full scan of the same table.

The bot sweeps every 30 seconds: it notes it is alive, closes expired challenges, ends games
whose deadline passed and posts due pings. With N live games whose deadlines and pings are
spread over the coming days (a few due now), this times the sweep's reads through the real
:class:`bot.storage.Store` on a real SQLite file, and, in the same run, the same reads made to
scan the whole table (``NOT INDEXED``), the cost without the partial indexes::

    .venv/bin/python benchmarks/sweep.py --games 10000
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

from bot.engine import Game  # noqa: E402
from bot.engine.notation import record  # noqa: E402
from bot.service import HEARTBEAT, OUTAGE  # noqa: E402
from bot.storage import Store, time_text  # noqa: E402

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
DUE_NOW = 5  # games past their deadline, and as many due a ping, at the moment of the sweep


def fill(path: Path, games: int, rng: random.Random) -> None:
    """``games`` live games, one per channel, with running clocks (plus a few due now)."""
    text = record(Game("wari"), "1", "2")
    rows = []
    for number in range(games):
        due = number < DUE_NOW
        deadline = NOW - timedelta(minutes=1) if due else NOW + timedelta(seconds=rng.randrange(60, 3 * 86400))
        ping_at = (
            NOW - timedelta(seconds=10)
            if number >= games - DUE_NOW
            else max(deadline - timedelta(hours=6), NOW + timedelta(minutes=1))
        )
        rows.append(
            (
                1,
                1000 + number,
                1,
                2,
                "wari",
                text,
                0,
                "live",
                time_text(NOW),
                time_text(NOW),
                "1d/move",
                time_text(deadline),
                time_text(ping_at),
                "reminder",
            )
        )
    with sqlite3.connect(path) as db:
        db.executemany(
            """INSERT INTO games (guild_id, channel_id, player_a, player_b, variant, record, version, status,
                                  created_at, updated_at, clock, deadline, ping_at, ping_kind)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            rows,
        )
        db.execute("INSERT INTO meta (key, value) VALUES ('alive_at', ?)", (time_text(NOW),))


async def create(path: Path) -> None:
    """The database with the bot's schema, as ``Store.open`` makes it."""
    await (await Store.open(path)).close()


async def sweep_reads(store: Store, *, scan: bool) -> int:
    """The reads of one sweep; with ``scan``, the same queries forced to read every row."""
    if not scan:
        await store.clocks.credit_downtime(NOW, longer_than=OUTAGE, note_every=HEARTBEAT)
        await store.games.due_challenges(NOW)
        return len(await store.clocks.games_past_deadline(NOW)) + len(await store.clocks.games_due_a_ping(NOW))
    moment = (time_text(NOW),)
    await store.get_meta("alive_at")
    await store.database.read("SELECT * FROM challenges WHERE expires_at <= ?", moment)
    late = await store.database.read(
        "SELECT * FROM games NOT INDEXED WHERE status = 'live' AND deadline IS NOT NULL AND deadline <= ?", moment
    )
    pings = await store.database.read(
        "SELECT * FROM games NOT INDEXED WHERE status = 'live' AND ping_at IS NOT NULL AND ping_at <= ?", moment
    )
    return len(late) + len(pings)


async def measure(path: Path, rounds: int) -> dict[str, list[float]]:
    store = await Store.open(path)
    timings: dict[str, list[float]] = {"indexed": [], "scan": []}
    try:
        for _ in range(rounds):
            for kind in timings:  # interleaved, so both see the same machine load
                began = time.perf_counter()
                found = await sweep_reads(store, scan=kind == "scan")
                timings[kind].append(time.perf_counter() - began)
                assert found == 2 * DUE_NOW, found
    finally:
        await store.close()
    return timings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="live games (default 10000)")
    parser.add_argument("--rounds", type=int, default=200, help="sweeps timed (default 200)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sweep.sqlite3"
        asyncio.run(create(path))
        fill(path, args.games, random.Random(1))
        timings = asyncio.run(measure(path, args.rounds))
    indexed, scan = (statistics.median(timings[kind]) * 1000 for kind in ("indexed", "scan"))
    p99 = sorted(timings["indexed"])[int(0.99 * (len(timings["indexed"]) - 1))] * 1000
    print(f"live games: {args.games}, due now: {DUE_NOW} past their deadline and {DUE_NOW} pings, {args.rounds} sweeps")
    print(f"one sweep's reads, indexed: median {indexed:.2f} ms, p99 {p99:.2f} ms")
    print(f"the same reads scanning the table: median {scan:.2f} ms ({scan / indexed:.0f}x the indexed sweep)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
