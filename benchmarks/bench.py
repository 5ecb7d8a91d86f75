"""``python -m benchmarks.bench``: benchmark the real bot end to end, through SimCord's simulated Discord.

What is measured
----------------
The bot is built exactly as production builds it (:func:`bot.client.create_bot`, a real SQLite
file) and attached to SimCord, which simulates the Discord gateway and REST API in-process. One
server gets ``N`` text channels and ``2N`` members; in each channel one member challenges
another (``/wari challenge``, challenger first) and the other presses *Accept*. Then the ``N``
games are played to their end, interleaved round-robin: each step, in the next live game, the
player to move presses a random legal cup on the board message (the legal cups are the enabled
cup buttons, the player to move is the one named on the board's first line, its status line).

Each press is timed with :func:`time.perf_counter` around ``member.click(...)``. That one call
covers the whole path of a real press: SimCord builds the ``INTERACTION_CREATE`` event,
discord.py dispatches it to the cup button's :class:`~discord.ui.DynamicItem`, the service reads
the game (its stored position, not a replay), checks the move and writes it to SQLite (one
statement, committed by itself), the redrawn board is the press's answer (one REST call), the
player to move is pinged in a new message and the previous ping deleted, and SimCord waits until
the bot has gone idle.

Baselines, measured in the same run (:mod:`benchmarks.echo`): after each press of the bot, one press of
a bare bot that only edits a board-sized message (``echo``), one of a bare bot that also
posts and deletes a ping, the same three REST calls as the bot's press (``echo+ping``), one
of a bare bot that saves one row to SQLite before it edits (``echo+write``), and two whose answer
is the bot's own board, a Components V2 layout of the same shape and size, instead of the echo's
small embed: one that only edits (``echo+v2``: what SimCord's handling of the bot's answer costs),
one that saves a row first (``echo+v2+write``: the floor of the bot's press, the same answer after
the same one write, in this simulator). The ratios bot / baseline are printed for latency (p50,
p99) and CPU, then a table of the ratios that place the bot against its floor (:data:`RATIOS`).

The database's round trips of each press are counted where the drivers send them
(:mod:`benchmarks.trips`), in all and before the press's answer.

The bot's figure is *per-press latency*, not the capacity of a deployed bot: SimCord forbids
overlapping actor calls (``asyncio.gather`` of clicks raises ``SetupError``), so the presses of
the ``N`` games are interleaved one after another, never concurrent, and "presses/s" is simply
presses divided by the wall time of the play phase (which also includes reading the board
between presses). Network latency and Discord rate limits are not modelled.

At the end every row of the ``games`` table must have status ``finished``; otherwise the exit
status is 1.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import re
import sqlite3
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import simcord

from benchmarks.cooldowns import cooldowns_lifted
from benchmarks.echo import Echo
from benchmarks.press_timing import Press, timed
from bot.client import WariBot, create_bot
from bot.engine import VARIANTS

CUP_PREFIX = "wari:cup:"
#: A board's status line starts with the name of the player to move: ``**alice**, your move ...``.
MOVER = re.compile(r"\*\*(?P<name>.+?)\*\*, your move")
#: Discord's component types: a button, a text display.
BUTTON, TEXT_DISPLAY = 2, 10
#: The ratios of the closing table, numerator and denominator: the bot against the echo and against
#: the echo answering with the bot's board, and what that board alone costs the echo.
RATIOS = (
    ("bot", "echo"),
    ("bot", "echo+v2"),
    ("echo+v2", "echo"),
    ("bot", "echo+v2+write"),
    ("echo+v2+write", "echo"),
)


@dataclass
class LiveGame:
    """One channel's game as the benchmark sees it: the board message and the two players."""

    channel: simcord.ChannelHandle
    board: simcord.ResponseMessage  # live: every read shows the board as it is now
    #: The players by the name the board calls them.
    players: dict[str, simcord.MemberActor]
    game_id: int


@dataclass
class Figures:
    games: int
    setup_seconds: float
    play_seconds: float
    presses: list[Press] = field(default_factory=list)
    #: The baselines' (:mod:`benchmarks.echo`), each pressed once after each press of the bot.
    baselines: list[Baseline] = field(default_factory=list)


@dataclass
class Baseline:
    """The presses of one echo bot, measured beside the bot's."""

    echo: Echo
    presses: list[Press] = field(default_factory=list)

    def press(self) -> None:
        self.presses.append(self.echo.press())


def components(board: simcord.ResponseMessage) -> Iterator[dict]:
    """Every component of a board, in order, the nested ones too: a board is one container
    (Discord's components V2) holding its text displays and its rows of buttons."""
    return _walk(board.components)


def _walk(items: Iterable[dict]) -> Iterator[dict]:
    for component in items:
        yield component
        yield from _walk(component.get("components", ()))


def status_line(board: simcord.ResponseMessage) -> str:
    """The board's first line: whose move it is, or how the game ended ("" on a message with no text display)."""
    return next((component["content"] for component in components(board) if component["type"] == TEXT_DISPLAY), "")


def to_move(board: simcord.ResponseMessage) -> str | None:
    """The name of the person the board asks to move (``None``: the computer is thinking, or the game is over)."""
    match = MOVER.match(status_line(board))
    return match["name"] if match else None


def cup_buttons(board: simcord.ResponseMessage) -> list[dict]:
    """The cup buttons on a board (none once the game is over)."""
    return [
        button
        for button in components(board)
        if button["type"] == BUTTON and str(button.get("custom_id", "")).startswith(CUP_PREFIX)
    ]


def legal_cups(board: simcord.ResponseMessage) -> list[str]:
    """Custom ids (``wari:cup:<game>:<ply>:<house>``) of the cups that may be pressed now."""
    return [button["custom_id"] for button in cup_buttons(board) if not button.get("disabled")]


def mover(game: LiveGame) -> simcord.MemberActor:
    name = to_move(game.board)
    if name is None or name not in game.players:
        raise RuntimeError(f"game #{game.game_id}: cannot tell whose move it is from {status_line(game.board)!r}")
    return game.players[name]


async def open_games(
    env: simcord.Env, count: int, variant: str, board: str = "text", shard_id: int | None = None
) -> list[LiveGame]:
    """One server (drawing its boards as ``board``: text or image; on ``shard_id`` for a sharded
    bot), ``count`` channels, two members per channel: challenge and accept in each."""
    with cooldowns_lifted():
        return await _open_games(env, count, variant, board, shard_id)


async def _open_games(
    env: simcord.Env, count: int, variant: str, board: str = "text", shard_id: int | None = None
) -> list[LiveGame]:
    guild = env.create_guild("Wari bench", shard_id=shard_id)
    bot = env.bot
    if not isinstance(bot, WariBot):
        raise TypeError(f"the benchmark plays against the Wari bot, not {bot!r}")
    await bot.store.settings.set_board_style(guild.id, board)
    games: list[LiveGame] = []
    for index in range(1, count + 1):
        channel = guild.create_text_channel(f"game-{index}")
        challenger = guild.add_member(env.create_user(f"player{2 * index - 1}"))
        opponent = guild.add_member(env.create_user(f"player{2 * index}"))
        sent = await challenger.slash(channel, "wari challenge", opponent=opponent, first="me", variant=variant)
        if sent.response is None or sent.ephemeral:
            raise RuntimeError(f"challenge in #{channel.name} was refused: {sent.response and sent.response.content!r}")
        message = sent.response
        accepted = await opponent.click(message, label="Accept")
        cups = legal_cups(message)
        if not accepted.acknowledged or not cups:
            raise RuntimeError(
                f"accepting the challenge in #{channel.name} did not start a game: {status_line(message)!r}"
            )
        game_id = int(cups[0].split(":")[2])
        games.append(LiveGame(channel, message, {challenger.name: challenger, opponent.name: opponent}, game_id))
    return games


async def play_all(games: Sequence[LiveGame], rng: random.Random, figures: Figures | None = None) -> list[Press]:
    """Round-robin over the live games, one press each, until every board has no buttons left,
    and after each, one press of each of the ``figures``' baselines. The latencies (and CPU
    times) go to ``figures``."""
    figures = figures or Figures(len(games), 0, 0)
    live = list(games)
    while live:
        still_live: list[LiveGame] = []
        for game in live:
            cups = legal_cups(game.board)
            if not cups:
                continue  # over: a finished board has no components
            player, cup = mover(game), rng.choice(cups)
            result, press = await timed(player.click(game.board, custom_id=cup))
            figures.presses.append(press)
            for baseline in figures.baselines:
                baseline.press()
            said = ([result.response] if result.ephemeral else []) + result.followups  # a refusal, or a failure
            if not result.acknowledged or said:
                first = said[0] if said else None
                answer = first.content if first is not None else "no answer"
                raise RuntimeError(f"game #{game.game_id}: press {cup} by {player.name} failed ({answer})")
            still_live.append(game)
        live = still_live
    return figures.presses


async def run_games(
    database: Path, count: int, variant: str, seed: int, board: str = "text", echoes: Sequence[Echo] = ()
) -> Figures:
    bot = create_bot(database, rng=random.Random(seed))
    figures = Figures(count, 0, 0, baselines=[Baseline(echo) for echo in echoes])
    try:
        async with simcord.run(bot) as env:
            started = time.perf_counter()
            games = await open_games(env, count, variant, board)
            opened = time.perf_counter()
            await play_all(games, random.Random(seed), figures)
            finished = time.perf_counter()
    finally:
        if hasattr(bot, "store"):
            await bot.store.close()  # SimCord detaches the bot but does not close it; this checkpoints the WAL
    figures.setup_seconds, figures.play_seconds = opened - started, finished - opened
    return figures


def percentile(ordered: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile of already sorted values."""
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def stored_statuses(database: Path) -> dict[int, str]:
    with sqlite3.connect(database) as db:
        return dict(db.execute("SELECT id, status FROM games ORDER BY id"))


def database_bytes(database: Path) -> int:
    """The database with its write-ahead log, if one is left."""
    return sum(path.stat().st_size for path in (database, Path(f"{database}-wal")) if path.exists())


class Spread(NamedTuple):
    """The p50, p99 and maximum of some durations, in milliseconds."""

    p50: float
    p99: float
    max: float

    @classmethod
    def of(cls, seconds: Iterable[float]) -> Spread:
        ms = sorted(value * 1000 for value in seconds)
        return cls(percentile(ms, 0.50), percentile(ms, 0.99), ms[-1])

    def __str__(self) -> str:
        return f"p50 {self.p50:.2f} ms, p99 {self.p99:.2f} ms, max {self.max:.2f} ms"


def cpu_ms(presses: Sequence[Press]) -> float:
    return 1000 * sum(press.cpu for press in presses) / len(presses)


def trips_text(presses: Sequence[Press]) -> str:
    """The database's round trips of the presses, counted (:mod:`benchmarks.trips`): a press's
    on average, before its answer and in all, and the most any press made."""
    before = sum(press.trips_answered for press in presses) / len(presses)
    in_all = sum(press.trips for press in presses) / len(presses)
    most = max(press.trips for press in presses)
    return f"{before:.2f} a press before its answer, {in_all:.2f} in all, at most {most} (counted statements)"


def report(figures: Figures, database: Path, statuses: dict[int, str]) -> bool:
    """Print the figures; ``True`` if every stored game is finished."""
    presses = figures.presses
    print(f"games:            {figures.games}")
    print(f"setup:            {figures.setup_seconds:.2f} s (channels, members, challenges, accepts)")
    print(f"presses:          {len(presses)}")
    print(f"wall time:        {figures.play_seconds:.2f} s (play phase)")
    if presses:
        print(f"throughput:       {len(presses) / figures.play_seconds:.1f} presses/s (serialised by the simulator)")
        print(f"per press:        {Spread.of(press.done for press in presses)} (until the bot is done)")
        print(f"answered in:      {Spread.of(press.answered for press in presses)} (until the presser has the board)")
        print(f"CPU per press:    {cpu_ms(presses):.2f} ms (the whole process: simulator and bot)")
        print(f"database trips:   {trips_text(presses)}")
        for baseline in figures.baselines:
            report_baseline(baseline, presses)
        report_ratios(figures)
    print(f"sqlite file:      {database_bytes(database) / 1024:.1f} KiB ({database})")
    unfinished = {game_id: status for game_id, status in statuses.items() if status != "finished"}
    if len(statuses) == figures.games and not unfinished:
        print(f"check:            all {figures.games} stored games have status 'finished'")
        return True
    print(
        f"check:            FAILED: {len(statuses)} stored games, {figures.games} expected; not finished: {unfinished}"
    )
    return False


def report_baseline(baseline: Baseline, bot: Sequence[Press]) -> None:
    """An echo's figures, and the bot's against them."""
    name, echo = baseline.echo.name, baseline.presses
    echo_done, bot_done = Spread.of(press.done for press in echo), Spread.of(press.done for press in bot)
    echo_answered, bot_answered = (
        Spread.of(press.answered for press in echo),
        Spread.of(press.answered for press in bot),
    )
    print(f"{name}: {baseline.echo.does}")
    print(
        f"  per press:      {echo_done} ({len(echo)} presses, one after each of the bot's; "
        f"{len(echo) / sum(press.done for press in echo):.0f} presses/s)"
    )
    print(f"  answered in:    {echo_answered}")
    print(f"  CPU per press:  {cpu_ms(echo):.2f} ms")
    print(
        f"  bot / {name}: done p50 {bot_done.p50 / echo_done.p50:.2f}x, p99 {bot_done.p99 / echo_done.p99:.2f}x; "
        f"answered p50 {bot_answered.p50 / echo_answered.p50:.2f}x, p99 {bot_answered.p99 / echo_answered.p99:.2f}x; "
        f"CPU {cpu_ms(bot) / cpu_ms(echo):.2f}x"
    )


def report_ratios(figures: Figures) -> None:
    """The :data:`RATIOS` of this run whose two sides were measured, as a Markdown table."""
    series = {"bot": figures.presses} | {baseline.echo.name: baseline.presses for baseline in figures.baselines}
    rows = [(top, bottom) for top, bottom in RATIOS if series.get(top) and series.get(bottom)]
    if not rows:
        return
    print("ratios (one interleaved run):")
    print("| ratio | done p50 | done p99 | answered p50 | answered p99 | CPU |")
    print("| --- | --- | --- | --- | --- | --- |")
    for top, bottom in rows:
        print(f"| {top} / {bottom} | {ratio_cells(series[top], series[bottom])} |")


def ratio_cells(top: Sequence[Press], bottom: Sequence[Press]) -> str:
    """``top``'s latencies (p50, p99: until done, until answered) and CPU over ``bottom``'s."""
    cells = []
    for moment in ("done", "answered"):
        over = Spread.of(getattr(press, moment) for press in top)
        under = Spread.of(getattr(press, moment) for press in bottom)
        cells += [f"{over.p50 / under.p50:.2f}x", f"{over.p99 / under.p99:.2f}x"]
    return " | ".join([*cells, f"{cpu_ms(top) / cpu_ms(bottom):.2f}x"])


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench", description=__doc__.split("\n\n")[0] if __doc__ else None
    )
    parser.add_argument("--games", type=int, default=50, help="games played at once, one channel each (default 50)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random presses (default 1)")
    parser.add_argument("--variant", choices=list(VARIANTS), default="wari", help="rule set (default wari)")
    parser.add_argument(
        "--board", choices=["text", "image"], default="text", help="how the server draws its boards (default text)"
    )
    parser.add_argument(
        "--database", type=Path, help="SQLite file to create (default: a temporary file, deleted afterwards)"
    )
    parser.add_argument(
        "--no-echo",
        dest="echo",
        action="store_false",
        help="leave out the baselines: bare bots that only edit (and ping, or write; with an embed or the bot's "
        "V2 board) (benchmarks.echo)",
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.database is not None and args.database.exists():
        parser.error(
            f"--database {args.database} already exists: give a new path, so that only this run's games are in it"
        )
    return args


def bench(args: argparse.Namespace, database: Path) -> int:
    echoes = (
        [Echo(), Echo(pings=True), Echo(writes=True), Echo(v2=True), Echo(v2=True, writes=True)] if args.echo else []
    )
    try:
        figures = asyncio.run(run_games(database, args.games, args.variant, args.seed, args.board, echoes))
    finally:
        for echo in echoes:
            echo.close()
    return 0 if report(figures, database, stored_statuses(database)) else 1


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.database is not None:
        return bench(args, args.database)
    with tempfile.TemporaryDirectory(prefix="wari-bench-") as directory:
        return bench(args, Path(directory) / "wari.sqlite3")


if __name__ == "__main__":
    sys.exit(main())
