"""Presses per second and per-press latency of the real bot on each database set-up, in one run:
one process on SQLite, one process on PostgreSQL, and two processes sharing one PostgreSQL database.

    .venv/bin/python benchmarks/backends.py --games 20
    # on an existing (empty) database:
    .venv/bin/python benchmarks/backends.py --games 20 --postgres postgresql://user@host/db

The database's round trips of a press are counted (:mod:`benchmarks.trips`): on average, before
its answer ("answer") and in all ("all").

Each process is the bot as production builds it, driven through SimCord exactly as
``python -m benchmarks.bench`` drives it (``open_games``, ``play_all``): ``--games`` games per process, in
their own channels, played to the end by random presses, one press at a time in each process.
With two processes the presses of the two run at the same time against one database, as two
shards' processes would: each is a sharded bot running one shard of two, with its server on its
shard, so that its sweeps keep to its own games; throughput is all their presses over the longer
of the two play phases.

Without ``--postgres``, a throwaway PostgreSQL server is started from Debian's binaries (as the
tests do, ``tests/postgres.py``) with PostgreSQL's own durability settings (each commit waits for
its WAL to reach the disk), and removed afterwards. SQLite runs as the bot runs it: WAL with
``synchronous=NORMAL`` (a commit does not wait for the disk).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import sys
import tempfile
import time
from pathlib import Path

import simcord

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench import Spread, open_games, play_all  # noqa: E402
from benchmarks.press_timing import Press  # noqa: E402
from bot.client import create_bot  # noqa: E402
from bot.storage import Store  # noqa: E402


async def play(
    database: str | Path, games: int, seed: int, shard: int, processes: int
) -> tuple[list[Press], float, float]:
    """One bot process's session: its timed presses, its play phase's wall time and CPU time.
    With several processes, each runs one shard of as many (its sweeps keep to its servers) and
    only the first syncs the commands, as in production."""
    sharded = processes > 1
    bot = create_bot(
        database,
        rng=random.Random(seed),
        shard_count=processes if sharded else None,
        shard_ids=(shard,) if sharded else None,
    )
    minutes_ahead = shard
    try:
        async with simcord.run(bot, strict_sync=shard == 0) as env:
            # Another process's simulated Discord makes ids from the same (frozen) clock: start this
            # one's minutes later, so that no two servers, channels or members share an id.
            if minutes_ahead:
                await env.advance_time(minutes_ahead * 60)
            live = await open_games(env, games, "wari", shard_id=shard if sharded else None)
            started, cpu = time.perf_counter(), time.process_time()
            presses = await play_all(live, random.Random(seed))
            return presses, time.perf_counter() - started, time.process_time() - cpu
    finally:
        if hasattr(bot, "store"):
            await bot.store.close()


def process_main(database: str, games: int, seed: int, shard: int, processes: int, barrier, results) -> None:
    barrier.wait()
    try:
        results.put(asyncio.run(play(database, games, seed, shard, processes)))
    except BaseException as exc:
        results.put(exc)
        raise


def in_processes(database: str | Path, games: int, processes: int) -> list[tuple[list[Press], float, float]]:
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(processes), context.Queue()
    workers = [
        context.Process(
            target=process_main, args=(str(database), games, 1 + number, number, processes, barrier, results)
        )
        for number in range(processes)
    ]
    for worker in workers:
        worker.start()
    sessions = [results.get(timeout=1800) for _ in workers]
    for worker in workers:
        worker.join()
    for session in sessions:
        if isinstance(session, BaseException):
            raise RuntimeError(f"a bot process failed: {session!r}")
    return sessions


async def finished_games(database: str | Path) -> tuple[int, int]:
    store = await Store.open(database)
    try:
        (row,) = await store.database.read(
            "SELECT COUNT(*) AS n, SUM(CASE WHEN status = 'finished' THEN 1 ELSE 0 END) AS done FROM games"
        )
        return row["n"], row["done"] or 0
    finally:
        await store.close()


def line(
    label: str, sessions: list[tuple[list[Press], float, float]], expected_games: int, counted: tuple[int, int]
) -> str:
    presses = [press for session in sessions for press in session[0]]
    done, answered = Spread.of(press.done for press in presses), Spread.of(press.answered for press in presses)
    wall = max(session[1] for session in sessions)
    cpu = sum(session[2] for session in sessions)
    check = (
        "ok" if counted == (expected_games, expected_games) else f"FAILED: {counted[1]} of {counted[0]} games finished"
    )
    trips_before = sum(press.trips_answered for press in presses) / len(presses)
    trips = sum(press.trips for press in presses) / len(presses)
    return (
        f"{label:<26} {len(presses):>7} {len(presses) / wall:>10.1f} {done.p50:>8.2f} {done.p99:>8.2f} "
        f"{answered.p50:>8.2f} {answered.p99:>8.2f} {cpu * 1000 / len(presses):>7.2f} "
        f"{trips_before:>7.2f} {trips:>6.2f}   {check}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per process (default 20)")
    parser.add_argument("--postgres", help="an empty PostgreSQL database to use (default: a throwaway server)")
    args = parser.parse_args(argv)
    server = None
    if args.postgres is None:
        from tests.postgres import PostgresServer, server_binaries

        server = PostgresServer(server_binaries(), durable=True)
        server.start()
    try:

        def postgres(name: str) -> str:
            return args.postgres if server is None else server.url(server.new_database())

        print(f"{'':<26} {'':>7} {'':>10} {'done':^17} {'answered':^17} {'':>7} {'DB trips':^14}")
        print(
            f"{'set-up':<26} {'presses':>7} {'presses/s':>10} {'p50 ms':>8} {'p99 ms':>8} "
            f"{'p50 ms':>8} {'p99 ms':>8} {'CPU ms':>7} {'answer':>7} {'all':>6}   games"
        )
        failed = False
        with tempfile.TemporaryDirectory(prefix="wari-backends-") as folder:
            runs: list[tuple[str, str | Path | None, int]] = [
                ("SQLite, 1 process", Path(folder) / "wari.sqlite3", 1),
                ("PostgreSQL, 1 process", postgres("one"), 1),
                ("PostgreSQL, 2 processes", postgres("two") if server else None, 2),
            ]
            for label, database, processes in runs:
                if database is None:
                    print(f"{label:<26} skipped: give a second empty database or no --postgres")
                    continue
                sessions = in_processes(database, args.games, processes)
                counted = asyncio.run(finished_games(database))
                text = line(label, sessions, args.games * processes, counted)
                failed |= "FAILED" in text
                print(text, flush=True)
        return 1 if failed else 0
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    sys.exit(main())
