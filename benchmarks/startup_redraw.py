"""``python -m benchmarks.startup_redraw``: a restart with a thousand boards behind their games,
within Discord's rate limits: how long until every board is redrawn, in what order, at what cost
in REST calls and 429s.

The scene
---------
The bot (built as production builds it, on a real SQLite file) runs in SimCord with
:mod:`benchmarks.ratelimit` in front of the REST API (Discord's global and per-channel limits).
``--games`` correspondence games (1d/move, two people each, a channel each, servers of
:data:`~benchmarks.load.PER_SERVER` channels) are opened, and what their opening left waiting on
a rate limit runs out. Then, within the last ``--spread`` simulated seconds before a crash, each
game gets one move that is committed to the database but never drawn: the move goes through the
bot's own service (``WariService.games.play``, as a press would, stamped with its moment), without
the press's answer or anything after it, which is what a process that dies between the commit
and the redraw leaves behind (the same as
``tests/cogs/test_resilience.py::test_boards_a_crash_left_behind_are_redrawn_at_start_up``).
The moves come in a random order of games, so the longest unchanged board is not the first
channel's.

Then a new bot process starts on the same database at once (``env.restart_bot``, no outage to
credit), and SimCord's clock runs in steps of a quarter second until no board is behind, no
request waits out a rate limit and every turn ping is posted. At start-up the bot redraws the
boards behind their games (``cogs/wari/clocks.py``, ``redraw_boards_behind``, one at a time,
the longest unchanged first) while its sweeps post the turn pings those moves made due (each a
new message, and the deletion of the previous ping if there is one).

What is reported (simulated time from the restart unless said)
--------------------------------------------------------------
the time until every board was redrawn (and until half were), the boards redrawn per second
against the least the global limit allows (50 requests a second: ``games / 50`` seconds for the
edits alone), the REST calls by kind, the 429s (global, per channel), the most 401/403/429
answers in 10 minutes, the order of the redraws (the share of pairs of boards redrawn in the
order of their games' last change, oldest first: 100% is exact), the pings posted meanwhile and
when the last was, and the wall time. Network latency is not modelled unless ``--latency``
gives one: SimCord answers a request in no time, so a redraw loop that sends one request after
another meets the global limit at once; with a latency, it meets its round trips first.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import simcord

from benchmarks.bench import percentile
from benchmarks.cooldowns import cooldowns_lifted
from benchmarks.load import (
    MIX,
    PER_SERVER,
    SETTLE_TIMEOUT,
    TURN_PING,
    Slot,
    close,
    make_slots,
    open_game,
)
from benchmarks.ratelimit import GLOBAL_LIMIT, RateLimiter, installed
from bot.client import WariBot, create_bot
from bot.storage import time_text

CORRESPONDENCE = MIX[1]
#: Simulated seconds per step of the clock after the restart, and the most the benchmark waits.
STEP = 0.25
GIVE_UP = 3600.0
NUMBER = re.compile(r"/\d+")
BOARD_EDIT = re.compile(r"^/channels/(?P<channel>\d+)/messages/(?P<message>\d+)$")
BEHIND = (
    "SELECT count(*) FROM games WHERE status = 'live' AND message_id IS NOT NULL "
    "AND (shown_version IS NULL OR shown_version < version)"
)
DUE_PINGS = "SELECT count(*) FROM games WHERE status = 'live' AND ping_at <= ?"
#: Turn pings not posted yet, due or not.
TURN_PINGS = "SELECT count(*) FROM games WHERE status = 'live' AND ping_kind = 'turn' AND ping_at IS NOT NULL"


@dataclass
class Figures:
    games: int
    latency: float = 0.0
    behind_at_restart: int = 0
    due_pings_at_restart: int = 0
    setup_wall: float = 0.0
    restart_wall: float = 0.0
    #: Seconds after the restart at which each stale game's board was redrawn (by game id).
    redrawn_at: dict[int, float] = field(default_factory=dict)
    #: Each stale game's moment of its last change, seconds before the restart (by game id).
    changed: dict[int, float] = field(default_factory=dict)
    calls: Counter[str] = field(default_factory=Counter)
    rest_calls: int = 0
    refusals: Counter[str] = field(default_factory=Counter)
    most_invalid: int = 0
    pings: list[float] = field(default_factory=list)
    settled_after: float = 0.0
    behind_at_end: int = 0
    errors: int = 0

    @property
    def all_redrawn(self) -> float:
        return max(self.redrawn_at.values(), default=0.0)

    def in_order(self) -> float:
        """The share of pairs of redrawn boards redrawn oldest change first (1.0: exactly)."""
        order = [game for game, _ in sorted(self.redrawn_at.items(), key=lambda item: item[1])]
        ages = [self.changed[game] for game in order if game in self.changed]
        pairs = right = 0
        # O(n log n) would do; n is a thousand or so, and n^2 / 2 comparisons take a second at most
        for index, age in enumerate(ages):
            later = ages[index + 1 :]
            pairs += len(later)
            right += sum(1 for other in later if other <= age)  # changed no earlier
        return right / pairs if pairs else 1.0


async def stale_moves(
    env: simcord.Env, slots: Sequence[Slot], spread: float, rng: random.Random, figures: Figures
) -> None:
    """One move per game committed within the last ``spread`` seconds (a random order of games),
    through the service, with no redraw: what a crash right after each commit leaves."""
    bot = env.bot
    assert isinstance(bot, WariBot)
    now = env.now()
    order = list(slots)
    rng.shuffle(order)
    for rank, slot in enumerate(order):
        before = spread * (1 - rank / max(len(order) - 1, 1))
        table = await bot.service.tables.table(slot.channel.id)
        assert table is not None and table.user_to_move is not None
        await bot.service.games.play(
            channel_id=slot.channel.id,
            game_id=table.row.id,
            ply=table.game.ply,
            message_id=table.row.message_id,
            user_id=table.user_to_move,
            house=rng.choice(table.game.legal_moves),
            now=now - timedelta(seconds=before),
        )
        figures.changed[table.row.id] = before


async def run(database: Path, games: int, spread: float, seed: int, per_server: int, latency: float = 0.0) -> Figures:
    figures = Figures(games, latency)
    rng = random.Random(seed)
    bot = create_bot(database, rng=random.Random(seed))
    bots = [bot]
    env = simcord.Env(bot, settle_timeout=SETTLE_TIMEOUT)
    limiter = RateLimiter(lambda: env.now().timestamp(), latency=latency)
    db: sqlite3.Connection | None = None
    try:
        with installed(env, limiter):
            await env.start()
            db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
            with env.time_context():
                began = time.perf_counter()
                slots = make_slots(env, [CORRESPONDENCE] * games, per_server, seed)
                with cooldowns_lifted():
                    for slot in slots:
                        refused = await open_game(slot)
                        if refused is not None:
                            raise RuntimeError(f"could not open a game in #{slot.channel.name}: {refused}")
                await env.advance_time(spread + 60)  # what the opening left waiting runs out
                figures.setup_wall = time.perf_counter() - began
                await stale_moves(env, slots, spread, rng, figures)
                board_of = {slot.board.id: slot.game_id for slot in slots if slot.board is not None}
                (figures.behind_at_restart,) = db.execute(BEHIND).fetchone()
                (figures.due_pings_at_restart,) = db.execute(DUE_PINGS, (time_text(env.now()),)).fetchone()
                first_answer = len(limiter.answers)
                env.backend.http_requests.clear()
                restart = limiter.now()
                began = time.perf_counter()
                bot = create_bot(database, rng=random.Random(seed + 1))
                bots.append(bot)
                await env.restart_bot(bot)
                while limiter.now() - restart < GIVE_UP:
                    (behind,) = db.execute(BEHIND).fetchone()
                    (pings,) = db.execute(TURN_PINGS).fetchone()
                    if not behind and not pings and not limiter.waiting_requests():
                        break
                    await env.advance_time(STEP)
                figures.restart_wall = time.perf_counter() - began
                figures.settled_after = limiter.now() - restart
                (figures.behind_at_end,) = db.execute(BEHIND).fetchone()
                figures.rest_calls = len(env.backend.http_requests)
                answers = limiter.answers[first_answer:]
                for answer in answers:
                    kind = f"{answer.method} {NUMBER.sub('/{id}', answer.path)}"
                    figures.calls[kind if answer.status != 429 else f"{kind} (429)"] += 1
                    edit = BOARD_EDIT.match(answer.path)
                    if answer.method == "PATCH" and answer.status < 300 and edit:
                        game_id = board_of.get(int(edit["message"]))
                        if game_id is not None and game_id not in figures.redrawn_at:
                            figures.redrawn_at[game_id] = answer.at - restart
                    if answer.content and answer.status < 300 and TURN_PING.search(answer.content):
                        figures.pings.append(answer.at - restart)
                figures.refusals = limiter.refusals(first_answer)
                figures.most_invalid = limiter.most_invalid(first_answer)
                figures.errors = len(env.errors)
                await env.shutdown()
    finally:
        if db is not None:
            db.close()
        for each in bots:
            await close(each)
    return figures


def report(figures: Figures, spread: float) -> None:
    redrawn = sorted(figures.redrawn_at.values())
    half = percentile(redrawn, 0.5) if redrawn else 0.0
    ideal = figures.behind_at_restart / GLOBAL_LIMIT
    lines = {
        "live games": f"{figures.games} (setup {figures.setup_wall:.0f} s wall)",
        "boards behind at restart": f"{figures.behind_at_restart} (moves within the last {spread:.0f} s)",
        "turn pings due at restart": f"{figures.due_pings_at_restart}",
        "latency of a limited REST call": f"{figures.latency * 1000:.0f} ms",
        "all boards redrawn after": f"{figures.all_redrawn:.1f} s (half after {half:.1f} s)",
        "boards redrawn per second": f"{len(redrawn) / figures.all_redrawn:.1f}" if figures.all_redrawn else "-",
        "least the global limit allows": f"{ideal:.1f} s ({GLOBAL_LIMIT} requests/s, edits alone)",
        "redrawn oldest change first": f"{100 * figures.in_order():.1f}% of pairs in order",
        "turn pings posted meanwhile": (
            f"{len(figures.pings)}, the last after {max(figures.pings):.1f} s" if figures.pings else "0"
        ),
        "all settled after": f"{figures.settled_after:.1f} s simulated, {figures.restart_wall:.1f} s wall",
        "REST calls (all, interactions too)": f"{figures.rest_calls}",
        "429 global / per channel": f"{figures.refusals['global']} / {figures.refusals['user']}",
        "most 401/403/429 in 10 min": f"{figures.most_invalid}",
        "boards still behind at the end": f"{figures.behind_at_end}",
        "bot errors (SimCord)": f"{figures.errors}",
    }
    width = max(map(len, lines))
    for name, value in lines.items():
        print(f"{name:<{width}}  {value}")
    print("rate-limited REST calls by route:")
    for kind, count in sorted(figures.calls.items(), key=lambda item: -item[1]):
        print(f"  {count:>6}  {kind}")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.startup_redraw", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="live games, each with a board behind (default 1000)")
    parser.add_argument(
        "--spread", type=float, default=120.0, help="the stale moves fall within this many seconds (default 120)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the moves and their order (default 1)")
    parser.add_argument(
        "--latency",
        type=float,
        default=0.0,
        help="simulated seconds a rate-limited REST call takes there and back (default 0: none, as in SimCord)",
    )
    parser.add_argument(
        "--per-server", type=int, default=PER_SERVER, help=f"channels per server (default {PER_SERVER})"
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.spread < 0 or not 1 <= args.per_server <= 500 or args.latency < 0:
        parser.error("--games must be at least 1, --spread and --latency not negative, --per-server from 1 to 500")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="wari-redraw-") as folder:
        database = Path(folder) / "wari.sqlite3"
        figures = asyncio.run(run(database, args.games, args.spread, args.seed, args.per_server, args.latency))
    report(figures, args.spread)
    return 0 if figures.behind_at_end == 0 and figures.errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
