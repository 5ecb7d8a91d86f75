"""``python -m benchmarks.load``: thousands of live games at once through SimCord, within Discord's
rate limits: how many 429s, how late the turn pings, and whether a backlog builds up.

What is modelled
----------------
The bot is built as production builds it (:func:`bot.client.create_bot`, a real SQLite file) and
attached to SimCord, with :mod:`benchmarks.ratelimit` in front of the simulated REST API: the
global limit (50 requests a second, interaction answers exempt) and the per-channel ones (5
messages per 5 s...), answered 429 as Discord answers, which discord.py's HTTP client waits out
and retries by itself. Servers of :data:`PER_SERVER` channels hold one live game each (a
channel has one live game at a time), of three kinds (:data:`MIX`):

- **real-time**: a 5+3 game between two people both at the board, a press every ~10 s;
- **correspondence**: a 1d/move game, a press every ~60 s (exponential: a player answers within
  a minute two times in three, else later, when a turn ping has called them);
- **computer**: a game against the computer's cheapest level (Beginner), a press every ~30 s,
  the computer answering each at once.

That is a move every ~31 s per game on average. Each player's wait before pressing is drawn
(1 s plus an exponential); the players press one after another in simulated time (SimCord
forbids overlapping actor calls), each at their moment: the driver advances SimCord's clock to
the next press, presses a random legal cup of the board as it is shown, reads when the game's
next ping is due (the ``games`` row), and goes on. A game that ends is followed by a new one in
its channel (with the same players) ten seconds later. The games are opened before the clock
starts (with the cooldowns lifted for the setup only) and the requests that opening left waiting
run out before measuring; the press times start at random phases.

What is measured (simulated time unless said)
---------------------------------------------
- **429s**, global and per channel (Discord's scope ``user``), and the most 401/403/429
  answers in any 10 minutes (Discord bans a bot's address beyond 10,000);
- **presses** per simulated second and per wall second (the whole process: simulator and bot);
- **REST calls**: all (interaction answers too) per press, and the rate-limited ones: their mean
  rate and the most served in one window of the global limit (in the baseline: the most asked);
- **turn pings**: the delay from the move that made one due to its message being posted, and
  its lateness: from the moment the game said it was due (``ping_at``) to its posting. The bot
  posts a ping at once or, on a correspondence clock, on purpose a minute later (if the player
  has not moved meanwhile); its sweep runs every 30 s, so up to 30 s of lateness is by design;
- **backlog**, sampled every 10 s: pings due but not posted, and requests waiting out a rate
  limit; the means of the first and last third of the run must not grow (a backlog that grows
  with time is a bot that falls behind for good). The verdict is ``steady`` if the last third's
  mean is at most 1.5 times the first third's plus one, both taken after the first
  :data:`WARM_UP` seconds (no ping is due earlier).

The baseline is the same load (same seed: the same players, each with dice of their own) in a
second SimCord run, with the limiter answering everything: what the bot asks of Discord when
nothing holds it back (``would be 429`` counts the requests over a limit).

Presses are deferred (by 0.5 s, counted) in a channel whose request is waiting out a rate
limit, as a player waits for the board to show the last move; SimCord would otherwise make the
press wait for a lock the waiting request holds (see :mod:`benchmarks.ratelimit`). Network
latency is not modelled unless ``--latency`` gives one: SimCord answers a request in no time, so
what takes time is Discord's limits and the bot's own pacing. With a latency each rate-limited
request takes that long there and back, and a loop that sends one request after another (the
sweep's pings) meets its round trips; "requests under way" then counts those on their way too.
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import simcord

from benchmarks.bench import legal_cups, percentile, status_line, to_move
from benchmarks.cooldowns import cooldowns_lifted
from benchmarks.ratelimit import RateLimiter, installed
from bot.client import WariBot, create_bot
from bot.storage import time_text

#: Channels (one live game each) per server; Discord allows 500 channels in a server.
PER_SERVER = 100
#: Seconds between samples of the backlog, and the first seconds left out of its trend: a
#: correspondence ping waits a minute and the sweep comes every 30 s, so the first pings come
#: after a minute and a half; before, there can be no backlog.
SAMPLE_EVERY = 10.0
WARM_UP = 120.0
#: Seconds between the end of a game and the next in its channel.
NEXT_GAME_AFTER = 10.0
#: Seconds a press waits when its channel has a request waiting out a rate limit, or its board
#: is not the player's to press yet (the computer's move not shown).
DEFER = 0.5
#: SimCord's limit on one actor call or step of the clock, in wall seconds (its default is 5).
SETTLE_TIMEOUT = 120.0
TURN_PING = re.compile(r"your move in game #(?P<game>\d+)")


@dataclass(frozen=True)
class Kind:
    """A kind of game in the mix: its share of the channels, its clock, a player's mean wait
    before pressing (seconds), and the computer's level if one side is the computer."""

    name: str
    share: float
    clock: str
    think: float
    level: str | None = None


MIX = (
    Kind("real-time", 0.15, "5+3", 10.0),
    Kind("correspondence", 0.65, "1d/move", 60.0),
    Kind("computer", 0.20, "1d/move", 30.0, level="random"),
)


def kinds_for(games: int, rng: random.Random) -> list[Kind]:
    """``games`` kinds in the shares of :data:`MIX` (rounded), shuffled."""
    counts = [round(kind.share * games) for kind in MIX]
    counts[1] += games - sum(counts)  # the rounding goes to the correspondence games
    chosen = [kind for kind, count in zip(MIX, counts, strict=True) for _ in range(count)]
    rng.shuffle(chosen)
    return chosen


def wait(kind: Kind, rng: random.Random) -> float:
    """A player's wait before pressing: at least a second, exponential beyond."""
    return 1.0 + rng.expovariate(1.0 / (kind.think - 1.0))


@dataclass
class Slot:
    """One channel and its players; its current game and board."""

    index: int
    kind: Kind
    channel: simcord.ChannelHandle
    members: list[simcord.MemberActor]
    #: The players' own dice (their waits, their cups): one game's events do not change another's.
    rng: random.Random
    board: simcord.ResponseMessage | None = None
    game_id: int | None = None

    @property
    def players(self) -> dict[str, simcord.MemberActor]:
        return {member.name: member for member in self.members}


def make_slots(env: simcord.Env, kinds: Sequence[Kind], per_server: int = PER_SERVER, seed: int = 1) -> list[Slot]:
    """Servers of ``per_server`` channels, a channel per game, its players as members."""
    slots: list[Slot] = []
    guild = None
    for index, kind in enumerate(kinds):
        if index % per_server == 0:
            guild = env.create_guild(f"Wari load {index // per_server + 1}")
        assert guild is not None
        channel = guild.create_text_channel(f"game-{index + 1}")
        people = 1 if kind.level else 2
        members = [guild.add_member(env.create_user(f"p{index + 1}{'ab'[side]}")) for side in range(people)]
        slots.append(Slot(index, kind, channel, members, random.Random(f"{seed}:{index}")))
    return slots


def said(result: simcord.InteractionResult) -> str | None:
    """What a refused press or command said (``None``: it was not refused)."""
    if not result.acknowledged:
        return "no answer"
    response = result.response if result.ephemeral else None
    answers = ([response] if response is not None else []) + result.followups
    return (answers[0].content or "?") if answers else None


async def open_game(slot: Slot) -> str | None:
    """A new game in the slot's channel: a challenge its second player accepts (who is then to
    move: no ping), or a game against the computer (the person first). ``None`` if it started,
    else what the bot answered."""
    first = slot.members[0]
    if slot.kind.level is not None:
        sent = await first.slash(slot.channel, "wari play", level=slot.kind.level, clock=slot.kind.clock, first="me")
        board = sent.response
        refused = said(sent) if sent.ephemeral else None
    else:
        sent = await first.slash(
            slot.channel, "wari challenge", opponent=slot.members[1], first="opponent", clock=slot.kind.clock
        )
        board = sent.response
        refused = said(sent) if sent.ephemeral else None
        if refused is None and board is not None:
            accepted = await slot.members[1].click(board, label="Accept")
            refused = said(accepted) if accepted.ephemeral or not accepted.acknowledged else None
    if refused is not None or board is None:
        return refused or "no board"
    cups = legal_cups(board)
    if not cups:
        return f"no cup to press on the new board: {status_line(board)!r}"
    slot.board, slot.game_id = board, int(cups[0].split(":")[2])
    return None


# -- the figures -----------------------------------------------------------------------------


@dataclass
class Pings:
    """The turn pings of a run, matched to the moves that made them due."""

    #: Per game: when its last move was pressed, and when its game says its turn ping is due.
    last_move: dict[int, float] = field(default_factory=dict)
    due: dict[int, float] = field(default_factory=dict)
    delays: list[float] = field(default_factory=list)
    lateness: list[float] = field(default_factory=list)
    #: Due pings a move made unnecessary: before they were due (by design), or after (late).
    dropped_waiting: int = 0
    dropped_overdue: int = 0
    cursor: int = 0

    def moved(self, game_id: int, at: float) -> None:
        due = self.due.pop(game_id, None)
        if due is not None:
            if due <= at:
                self.dropped_overdue += 1
            else:
                self.dropped_waiting += 1
        self.last_move[game_id] = at

    def read(self, limiter: RateLimiter, measuring: bool) -> None:
        """The pings posted since the last read."""
        answers = limiter.answers
        for answer in answers[self.cursor :]:
            if answer.content is None or answer.status >= 300:
                continue
            match = TURN_PING.search(answer.content)
            if match is None or "left for your move" in answer.content:
                continue  # a reminder, not a turn ping
            game_id = int(match["game"])
            moved = self.last_move.get(game_id)
            due = self.due.pop(game_id, None)
            if measuring and moved is not None:
                self.delays.append(answer.at - moved)
                self.lateness.append(max(0.0, answer.at - due) if due is not None else 0.0)
        self.cursor = len(answers)


@dataclass
class Sample:
    at: float
    due_pings: int
    oldest_due: float  # seconds since the oldest due ping was due (0: none)
    waiting_requests: int


@dataclass
class Run:
    """The figures of one run."""

    label: str
    games: int
    minutes: float
    latency: float = 0.0
    kinds: Counter[str] = field(default_factory=Counter)
    setup_wall: float = 0.0
    wall: float = 0.0
    #: Of the wall time: advancing the clock (the bot's timers: sweeps, retries) and pressing.
    clock_wall: float = 0.0
    press_wall: float = 0.0
    simulated: float = 0.0
    presses: int = 0
    deferred: int = 0
    not_ready: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    games_finished: int = 0
    games_opened: int = 0
    press_lateness: list[float] = field(default_factory=list)
    rest_calls: int = 0
    limited_calls: int = 0
    busiest_window: int = 0
    refusals: Counter[str] = field(default_factory=Counter)
    would_refuse: Counter[str] = field(default_factory=Counter)
    most_invalid: int = 0
    pings: Pings = field(default_factory=Pings)
    samples: list[Sample] = field(default_factory=list)
    errors: int = 0


def trend(values: Sequence[float]) -> tuple[float, float]:
    """The means of the first and the last third of ``values``."""
    third = max(1, len(values) // 3)
    return statistics.fmean(values[:third]), statistics.fmean(values[-third:])


def steady(values: Sequence[float]) -> bool:
    """Whether the last third of ``values`` is no higher than the first (1.5 times, plus one)."""
    first, last = trend(values)
    return last <= 1.5 * first + 1


# -- the run ---------------------------------------------------------------------------------


class Driver:
    """Plays the load on one simulated Discord and keeps the figures."""

    def __init__(self, env: simcord.Env, limiter: RateLimiter, database: Path, run: Run) -> None:
        self.env, self.limiter, self.run = env, limiter, run
        self.db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
        self.measuring = False

    def close(self) -> None:
        self.db.close()

    def seconds(self, moment: datetime) -> float:
        """Simulated seconds since the limiter started, of a stored time."""
        return moment.timestamp() - self.limiter.started

    async def until(self, moment: float) -> None:
        """Advance the simulated clock to ``moment`` (seconds since the start), if it is ahead."""
        ahead = moment - self.limiter.now()
        if ahead > 0:
            began = time.perf_counter()
            await self.env.advance_time(ahead)
            self.run.clock_wall += time.perf_counter() - began

    def count_rest(self) -> None:
        """Count SimCord's log of REST calls (interaction answers included), and empty it (and
        the transcript): kept for a long run, they would take gigabytes."""
        backend = self.env.backend
        self.run.rest_calls += len(backend.http_requests) if self.measuring else 0
        backend.http_requests.clear()
        backend.transcript.clear()

    def note_due(self, game_id: int) -> None:
        row = self.db.execute("SELECT ping_at, ping_kind FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is not None and row[0] is not None and row[1] == "turn":
            self.run.pings.due[game_id] = self.seconds(datetime.fromisoformat(row[0]))

    def sample(self) -> None:
        now = self.env.now()
        count, oldest = self.db.execute(
            "SELECT count(*), min(ping_at) FROM games WHERE status = 'live' AND ping_at <= ?", (time_text(now),)
        ).fetchone()
        age = (now - datetime.fromisoformat(oldest)).total_seconds() if oldest else 0.0
        self.run.samples.append(Sample(self.limiter.now(), count, age, self.limiter.waiting_requests()))
        self.count_rest()

    async def open_all(self, slots: Sequence[Slot]) -> None:
        with cooldowns_lifted():
            for slot in slots:
                refused = await open_game(slot)
                if refused is not None:
                    raise RuntimeError(f"could not open a game in #{slot.channel.name}: {refused}")
                self.run.pings.moved(slot.game_id or 0, self.limiter.now())

    async def drain(self, limit: float = 600.0) -> None:
        """Advance the clock until no request waits out a rate limit (at most ``limit`` seconds)."""
        end = self.limiter.now() + limit
        while self.limiter.waiting_requests() and self.limiter.now() < end:
            await self.env.advance_time(1.0)

    async def play(self, slots: Sequence[Slot], seconds: float) -> None:
        run, limiter = self.run, self.limiter
        start = limiter.now()
        first_answer = len(limiter.answers)
        limiter.busiest_window = 0
        self.measuring = True
        self.count_rest()
        run.rest_calls = 0
        self.run.pings.cursor = first_answer
        queue: list[tuple[float, int, int]] = []
        for slot in slots:  # a first wait like the others: the presses start as they go on
            queue.append((start + wait(slot.kind, slot.rng), slot.index, slot.index))
        heapq.heapify(queue)
        sequence = len(slots)
        next_sample, end = start, start + seconds
        began = time.perf_counter()
        while queue and queue[0][0] < end:
            moment, _, index = heapq.heappop(queue)
            while next_sample <= moment:
                await self.until(next_sample)
                self.sample()
                next_sample += SAMPLE_EVERY
                if round(next_sample - start) % 60 == 0:
                    print(
                        f"{run.label}: {(next_sample - start) / 60:.0f} simulated min, {run.presses} presses, "
                        f"{time.perf_counter() - began:.0f} s",
                        file=sys.stderr,
                        flush=True,
                    )
            await self.until(moment)
            run.press_lateness.append(limiter.now() - moment)
            slot = slots[index]
            after = await self.step(slot)
            run.pings.read(limiter, measuring=True)
            sequence += 1
            heapq.heappush(queue, (limiter.now() + after, sequence, index))
        await self.until(end)
        self.sample()
        run.pings.read(limiter, measuring=True)
        run.wall = time.perf_counter() - began
        run.simulated = limiter.now() - start
        run.limited_calls = sum(1 for answer in limiter.answers[first_answer:] if answer.status != 429)
        run.busiest_window = limiter.busiest_window
        run.refusals = limiter.refusals(first_answer)
        run.would_refuse = limiter.would_refuse(first_answer)
        run.most_invalid = limiter.most_invalid(first_answer)

    async def step(self, slot: Slot) -> float:
        """The slot's next action now; seconds until its next one."""
        run = self.run
        if slot.board is None:  # between games
            refused = await open_game(slot)
            if refused is not None:
                run.refused[f"new game: {refused[:60]}"] += 1
                return 60.0
            run.games_opened += 1
            assert slot.game_id is not None
            run.pings.moved(slot.game_id, self.limiter.now())
            self.note_due(slot.game_id)
            return wait(slot.kind, slot.rng)
        if self.limiter.waiting_in(slot.channel.id):
            run.deferred += 1
            return DEFER
        cups = legal_cups(slot.board)
        if not cups:  # the game ended (the last move, or a time-out)
            run.games_finished += 1
            slot.board = slot.game_id = None
            return NEXT_GAME_AFTER
        name = to_move(slot.board)
        player = slot.players.get(name) if name is not None else None
        if player is None:  # the computer's move is not shown yet
            run.not_ready += 1
            return DEFER
        assert slot.game_id is not None
        run.pings.moved(slot.game_id, self.limiter.now())
        began = time.perf_counter()
        result = await player.click(slot.board, custom_id=slot.rng.choice(cups))
        run.press_wall += time.perf_counter() - began
        run.presses += 1
        refused = said(result)
        if refused is not None:
            run.refused[refused[:60]] += 1
        self.note_due(slot.game_id)
        return wait(slot.kind, slot.rng)


async def run_load(
    database: Path,
    games: int,
    minutes: float,
    seed: int,
    *,
    enforce: bool,
    label: str,
    per_server: int = PER_SERVER,
    latency: float = 0.0,
) -> Run:
    """One run: open ``games`` games, let what the opening left waiting run out, then play
    ``minutes`` simulated minutes."""
    run = Run(label, games, minutes, latency)
    bot = create_bot(database, rng=random.Random(seed))
    env = simcord.Env(bot, settle_timeout=SETTLE_TIMEOUT)
    limiter = RateLimiter(lambda: env.now().timestamp(), enforce=enforce, latency=latency)
    driver: Driver | None = None
    try:
        with installed(env, limiter):
            await env.start()
            skip_poll_scans(env)
            with env.time_context():
                began = time.perf_counter()
                kinds = kinds_for(games, random.Random(seed))
                run.kinds = Counter(kind.name for kind in kinds)
                slots = make_slots(env, kinds, per_server, seed)
                driver = Driver(env, limiter, database, run)
                await driver.open_all(slots)
                await driver.drain()
                run.setup_wall = time.perf_counter() - began
                await driver.play(slots, minutes * 60)
                run.errors = len(env.errors)
                check_no_polls(env)
                await env.shutdown()
    finally:
        if driver is not None:
            driver.close()
        await close(bot)
    return run


def skip_poll_scans(env: simcord.Env) -> None:
    """Spare SimCord a scan of every message for polls to close at each step of its clock (its
    ``Backend.expire_due_polls`` and ``next_poll_deadline``): the bot posts no polls, and with
    thousands of channels the scans took a sixth of the run. :func:`check_no_polls` checks it."""
    backend = env.backend
    backend.expire_due_polls = lambda: None  # type: ignore[method-assign]
    backend.next_poll_deadline = lambda: None  # type: ignore[method-assign]


def check_no_polls(env: simcord.Env) -> None:
    """What :func:`skip_poll_scans` takes for granted."""
    messages = (message for channel in env.backend.messages.values() for message in channel.values())
    if any(message.poll is not None for message in messages):
        raise RuntimeError("the bot posted a poll: SimCord's poll scans cannot be skipped")


async def close(bot: WariBot) -> None:
    """What a shutdown closes (SimCord detaches a bot without closing it)."""
    cog = bot.get_cog("Wari")
    computer = getattr(cog, "computer", None)
    if computer is not None:
        computer.close()
    if hasattr(bot, "store"):
        await bot.store.close()


# -- the report ------------------------------------------------------------------------------


def spread(values: Sequence[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{percentile(ordered, 0.5):.1f} / {percentile(ordered, 0.99):.1f} / {ordered[-1]:.1f}"


def backlog_verdict(samples: Sequence[Sample]) -> str:
    """``steady`` if neither the due pings nor the waiting requests grew from the first to the
    last third of the run after :data:`WARM_UP`."""
    settled = [sample for sample in samples if sample.at - samples[0].at >= WARM_UP]
    if len(settled) < 6:
        return "too short to tell"
    due = [sample.due_pings for sample in settled]
    waiting = [sample.waiting_requests for sample in settled]
    return "steady" if steady(due) and steady(waiting) else "GROWS"


def rows(run: Run) -> dict[str, str]:
    pings = run.pings
    settled = [sample for sample in run.samples if sample.at - run.samples[0].at >= WARM_UP] or run.samples
    due = [sample.due_pings for sample in settled]
    oldest = [sample.oldest_due for sample in run.samples]
    waiting = [sample.waiting_requests for sample in settled]
    return {
        "games (live at once)": f"{run.games}",
        "  real-time / correspondence / computer": " / ".join(str(run.kinds[kind.name]) for kind in MIX),
        "simulated time": f"{run.simulated / 60:.1f} min",
        "latency of a limited REST call": f"{run.latency * 1000:.0f} ms",
        "wall time (play)": f"{run.wall:.0f} s (setup {run.setup_wall:.0f} s)",
        "wall: clock steps / presses / rest": (
            f"{run.clock_wall:.0f} / {run.press_wall:.0f} / {run.wall - run.clock_wall - run.press_wall:.0f} s"
        ),
        "presses": f"{run.presses}",
        "presses / simulated s": f"{run.presses / run.simulated:.1f}" if run.simulated else "-",
        "presses / wall s": f"{run.presses / run.wall:.1f}" if run.wall else "-",
        "games finished / opened": f"{run.games_finished} / {run.games_opened}",
        "REST calls (all) / press": f"{run.rest_calls} / {run.rest_calls / max(run.presses, 1):.2f}",
        "limited calls: mean / s, most in a 1 s window": (
            f"{run.limited_calls / max(run.simulated, 1):.1f}, {run.busiest_window}"
        ),
        "429 global / per channel": f"{run.refusals['global']} / {run.refusals['user']}",
        "would be 429 (not enforced)": f"{run.would_refuse['global']} / {run.would_refuse['user']}",
        "most 401/403/429 in 10 min": f"{run.most_invalid}",
        "turn pings posted": f"{len(pings.delays)}",
        "ping delay from move p50/p99/max s": spread(pings.delays),
        "ping lateness after due p50/p99/max s": spread(pings.lateness),
        "pings dropped: before due / overdue": f"{pings.dropped_waiting} / {pings.dropped_overdue}",
        "due pings unposted: mean 1st/last third*, max": (
            "{:.1f} / {:.1f}, {}".format(*trend(due), max(due)) if due else "-"
        ),
        "oldest due ping: max age s": f"{max(oldest):.1f}" if oldest else "-",
        "requests under way: mean 1st/last third*, max": (
            "{:.1f} / {:.1f}, {}".format(*trend(waiting), max(waiting)) if waiting else "-"
        ),
        "backlog": backlog_verdict(run.samples),
        "presses deferred (request waiting) / board not ready": f"{run.deferred} / {run.not_ready}",
        "press lateness p99 s (driver)": f"{percentile(sorted(run.press_lateness), 0.99):.2f}"
        if run.press_lateness
        else "-",
        "refused presses or games": f"{sum(run.refused.values())}",
        "bot errors (SimCord)": f"{run.errors}",
    }


def report(runs: Sequence[Run]) -> None:
    tables = [rows(run) for run in runs]
    width = max(len(name) for name in tables[0])
    columns = [
        max(len(run.label), *(len(table[name]) for name in table)) for run, table in zip(runs, tables, strict=True)
    ]
    print(f"{'':<{width}}  " + "  ".join(f"{run.label:>{column}}" for run, column in zip(runs, columns, strict=True)))
    for name in tables[0]:
        values = "  ".join(f"{table[name]:>{column}}" for table, column in zip(tables, columns, strict=True))
        print(f"{name:<{width}}  {values}")
    print(f"* after the first {WARM_UP:.0f} simulated seconds, sampled every {SAMPLE_EVERY:.0f} s")
    for run in runs:
        for reason, count in run.refused.most_common(5):
            print(f"{run.label}: refused {count}x: {reason}")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="live games at once, one channel each (default 200)")
    parser.add_argument("--minutes", type=float, default=5.0, help="simulated minutes of play (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' waits and presses (default 1)")
    parser.add_argument(
        "--per-server", type=int, default=PER_SERVER, help=f"channels per server (default {PER_SERVER})"
    )
    parser.add_argument(
        "--latency",
        type=float,
        default=0.0,
        help="simulated seconds a rate-limited REST call takes there and back (default 0: none, as in SimCord)",
    )
    parser.add_argument(
        "--no-baseline", dest="baseline", action="store_false", help="leave out the run without rate limits"
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.minutes <= 0 or not 1 <= args.per_server <= 500 or args.latency < 0:
        parser.error("--games must be at least 1, --minutes positive, --per-server from 1 to 500, --latency >= 0")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    runs = []
    with tempfile.TemporaryDirectory(prefix="wari-load-") as folder:
        for enforce, label in [(True, "rate-limited"), (False, "no limits")][: 2 if args.baseline else 1]:
            database = Path(folder) / f"{label}.sqlite3"
            started = time.perf_counter()
            run = asyncio.run(
                run_load(
                    database,
                    args.games,
                    args.minutes,
                    args.seed,
                    enforce=enforce,
                    label=label,
                    per_server=args.per_server,
                    latency=args.latency,
                )
            )
            print(f"{label}: done in {time.perf_counter() - started:.0f} s", file=sys.stderr)
            runs.append(run)
    report(runs)
    return 0 if all(run.errors == 0 for run in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
