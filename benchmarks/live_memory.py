"""What the live games kept in memory cost (:mod:`bot.service.live`): 10,000 live games in one
process, as a busy shard's process would keep them, measured with :mod:`tracemalloc`.

    .venv/bin/python benchmarks/live_memory.py --games 10000 --moves 40

Each game is a real mid-game row, as a save returns it: a random game of ``--moves`` moves played
by the engine, its record and snapshot (:mod:`bot.engine.notation`), two players of whom one
turned pings off, a clock, a ping due; its engine game taken up from the record, as a press keeps
it (:meth:`LiveGames.table`); its board's mark waits to be written too (the sweep writes them
every 30 s), and its last ping was taken back. Printed: the bytes a game costs, on average
(what the cache holds for it, every object counted once), and the whole for ``--games`` games.
"""

from __future__ import annotations

import argparse
import random
import sys
import tracemalloc
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import Game  # noqa: E402
from bot.engine.notation import record, snapshot  # noqa: E402
from bot.service.live import LiveGames  # noqa: E402
from bot.storage import GameRow  # noqa: E402

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def mid_game(number: int, moves: int, rng: random.Random) -> GameRow:
    """Game ``number`` after ``moves`` random moves (fewer if it ended sooner: then replayed)."""
    while True:
        game = Game("wari")
        for _ in range(moves):
            game.play(rng.choice(list(game.legal_moves)))
            if game.outcome is not None:
                break
        if game.outcome is None:
            break
    a, b = 10**17 + 2 * number, 10**17 + 2 * number + 1
    moment = T0 + timedelta(seconds=number)
    return GameRow(
        id=number,
        guild_id=10**17,
        channel_id=10**17 + 10**6 + number,
        player_a=a,
        player_b=b,
        variant="wari",
        record=record(game, str(a), str(b)),
        version=moves,
        message_id=10**18 + number,
        status="live",
        result=None,
        reason=None,
        created_at=T0,
        updated_at=moment,
        finished_at=None,
        clock="1d/move",
        deadline=moment + timedelta(days=1),
        ping_at=moment + timedelta(minutes=1),
        ping_kind="turn",
        ping_message_id=10**18 + 10**6 + number,
        name_a=f"player{2 * number}",
        name_b=f"player{2 * number + 1}",
        position=snapshot(game),
        shown_version=moves - 1,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="live games kept (default 10,000)")
    parser.add_argument("--moves", type=int, default=40, help="moves played in each (default 40)")
    args = parser.parse_args(argv)
    rng = random.Random(1)
    tracemalloc.start()
    live = LiveGames()
    before = tracemalloc.get_traced_memory()[0]
    for number in range(1, args.games + 1):
        row = mid_game(number, args.moves, rng)
        live.keep(row, frozenset({row.player_b}))
        live.table(row.id)  # a press takes the game up once and keeps it
        live.shown(row)
        live.taken_back(row.id, row.ping_message_id or 0)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert len(live) == args.games
    kept = after - before
    print(f"live games kept:  {len(live):,} (each {args.moves} moves into a wari game, as a save returns it)")
    print(f"memory:           {kept / 2**20:.1f} MiB in all, {kept / len(live):,.0f} bytes a game (tracemalloc)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
