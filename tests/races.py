"""Races between bot processes on one database: each racer is a real process with its own store
and service, as a process of a sharded deployment has; every round, all racers wait at a barrier,
then do the same thing to the same game, challenge or channel at once.

Run by ``tests/bot/test_races.py``. A racer is given the database URL, the race and the number of
rounds; it reports what each of its attempts did, as text, and the parent judges the outcomes.
``unguarded`` takes one guard away from the racers (the control): the same race must then show
doubled outcomes, proof that it would catch a missing guard.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.clock import DEFAULT_CLOCK
from bot.engine import rules_for
from bot.service import Refusal, WariService
from bot.service.tournaments import TournamentService
from bot.storage import Store
from bot.storage.database import Database
from bot.storage.games import GameQueries

T0 = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
GUILD = 1 << 22
CHALLENGER, OPPONENT, COMPUTER = 100, 200, 900
#: The races, and the guard each control takes away.
RACES = ("press", "accept", "challenge_vs_game", "expiry", "timeout", "round")
#: When the time-out race's sweeps run: long after every game's first deadline.
TIMEOUT_SWEEP = T0 + timedelta(hours=2)


#: The refusals of a write whose guard found that another process got there first.
WRITE_REFUSALS = {
    "The game changed meanwhile: use the latest board message.",
    "This challenge is no longer open.",
    "This channel got busy just now. Try again when it is free.",
}


def channel(round_: int) -> int:
    return 10_000 + round_


def expiry_time(round_: int) -> datetime:
    """When the challenge of ``round_`` of the expiry race falls due: one a second."""
    return T0 + timedelta(seconds=round_ + 1)


async def prepare(url: str, race: str, rounds: int) -> None:
    """What the racers will race over: a live game, an open challenge or a due one per round."""
    store = await Store.open(url)
    service = WariService(store, rng=random.Random(1))
    try:
        for round_ in range(rounds):
            if race == "round":
                await _tournament_due(store)
                continue
            if race == "challenge_vs_game":
                continue  # the channels start empty
            now = expiry_time(round_) - timedelta(minutes=10) if race == "expiry" else T0
            challenge = await service.challenges.challenge(
                guild_id=GUILD,
                channel_id=channel(round_),
                challenger_id=CHALLENGER,
                opponent_id=OPPONENT,
                rules=rules_for("wari"),
                first="me",
                now=now,
                clock="1h/move" if race == "timeout" else DEFAULT_CLOCK,
            )
            if race in ("press", "timeout"):
                await service.challenges.accept(challenge.id, OPPONENT, channel(round_), T0)
    finally:
        await store.close()


#: Players of each tournament of the round race: one round of it is two games.
ENTRANTS = (101, 102, 103, 104)


async def _tournament_due(store: Store) -> None:
    """An open Swiss of four players whose start has come (the round race's sweeps start it)."""
    event = await store.tournaments.create_tournament(
        now=T0,
        guild_id=GUILD,
        channel_id=GUILD,
        name="Race",
        format="swiss",
        variant="wari",
        clock="5+3",
        rounds=3,
        max_players=None,
        rated=1,
        duration=None,
        cycles=1,
        starts_at=T0,
        created_by=CHALLENGER,
    )
    for user in ENTRANTS:
        await store.tournaments.join_tournament(event.id, user_id=user, name=str(user), rating=1500.0 + user, now=T0)


#: Seconds a racer's write waits after its reads: a press (or an accept) that takes this long
#: between reading the game and saving its move, so that every round's racers both read before
#: either writes; without it the first racer often finishes before the second starts reading,
#: and the round tests only the reading checks.
WRITE_DELAY = 0.003


def _slow_writes() -> None:
    for name in ("update_game", "start_game"):
        write = getattr(GameQueries, name)

        async def slow(self, *args, _write=write, **changes):
            await asyncio.sleep(WRITE_DELAY)
            return await _write(self, *args, **changes)

        setattr(GameQueries, name, slow)


def _replace(owner: type, name: str, method: Callable[..., Any]) -> None:
    """Put ``method`` in the place of ``owner``'s method ``name``, for the rest of this process."""
    setattr(owner, name, method)


def _take_away_guard(race: str) -> None:
    """The control: the guard this race relies on, gone (in this racer process only)."""
    if race == "press":  # the save's version check gone from its statement (its parameter kept, unused)

        def unguarded(run_statement):
            async def run(self, sql, params=()):
                return await run_statement(
                    self, sql.replace("AND version = ?", "AND version = version + 0 * ?"), params
                )

            return run

        _replace(Database, "rows", unguarded(Database.rows))  # a save inside a transaction (a game's end)
        _replace(Database, "write_one", unguarded(Database.write_one))  # a save on its own (a move)
    elif race == "expiry":  # the deletion's count not looked at: whoever tried, expired it

        async def unguarded_delete(self, challenge_id):
            await self._db.write(("DELETE FROM challenges WHERE id = ?", (challenge_id,)))
            return True

        _replace(GameQueries, "delete_challenge", unguarded_delete)
    elif race == "challenge_vs_game":  # no channel lock between the check and the insert

        async def no_lock(self, *keys):
            await asyncio.sleep(0.001)  # the window the lock closes, made visible

        _replace(Database, "lock", no_lock)
    else:
        raise ValueError(f"no control for the {race} race")


async def _attempt(store: Store, service: WariService, race: str, racer: int, round_: int) -> str:
    """One racer's try in one round, and what came of it."""
    where = channel(round_)
    try:
        if race == "press":
            table = await service.tables.table(where)
            if table is None:
                raise RuntimeError(f"no game in channel {where}: prepare() starts one in every round's channel")
            _, move = await service.games.play(
                channel_id=where,
                game_id=table.row.id,
                ply=0,
                message_id=None,
                user_id=CHALLENGER,
                house=racer + 1,
                now=T0,
            )
            return f"moved {move}"
        if race == "accept":
            challenge = await store.games.challenge_in(where)
            if challenge is None:
                return "gone"
            table = await service.challenges.accept(challenge.id, OPPONENT, where, T0)
            return f"started {table.row.id}"
        if race == "challenge_vs_game":
            if racer % 2 == 0:
                made = await service.challenges.challenge(
                    guild_id=GUILD,
                    channel_id=where,
                    challenger_id=CHALLENGER,
                    opponent_id=OPPONENT,
                    rules=rules_for("wari"),
                    first="me",
                    now=T0,
                )
                return f"challenge {made.id}"
            table = await service.starts.play_computer(
                guild_id=GUILD,
                channel_id=where,
                human_id=CHALLENGER,
                computer_id=COMPUTER,
                level="random",
                rules=rules_for("wari"),
                first="me",
                now=T0,
            )
            return f"game {table.row.id}"
        if race == "expiry":
            expired = await service.challenges.expire_due(expiry_time(round_) + timedelta(milliseconds=500))
            return " ".join(f"expired {challenge.id}" for challenge in expired) or "none"
        if race == "round":  # two processes' sweeps find the same tournament due to start
            step = await TournamentService(store).advance(round_ + 1, T0 + timedelta(minutes=1))
            return "started" if step.new_round else "none"
        if race == "timeout":  # two clock sweeps find the same game past its deadline
            table = await service.tables.table(where)
            if table is None:
                return "gone"
            # A day apart: the same two players' rated games count five times in 24 hours.
            ended = await service.games.time_out(table.row, TIMEOUT_SWEEP + timedelta(days=round_))
            return f"ended {ended.row.id} {ended.row.result}" if ended else "none"
    except Refusal as refusal:
        # Which check refused: the service's reading checks, or the write's own guard.
        guard = "write" if refusal.message in WRITE_REFUSALS else "read"
        return f"refused {type(refusal).__name__} at {guard}"
    raise ValueError(f"unknown race {race!r}")


def racer(url: str, race: str, rounds: int, number: int, barrier, results, unguarded: bool) -> None:
    """The body of one racer process: ``rounds`` attempts, each after the barrier."""
    if unguarded:
        _take_away_guard(race)
    _slow_writes()

    async def run() -> list[str]:
        store = await Store.open(url)
        service = WariService(store, rng=random.Random(number))
        outcomes = []
        try:
            for round_ in range(rounds):
                await asyncio.to_thread(barrier.wait)
                outcomes.append(await _attempt(store, service, race, number, round_))
        finally:
            await store.close()
        return outcomes

    results.put((number, asyncio.run(run())))
