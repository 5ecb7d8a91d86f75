"""Timing one press in the benchmarks (:mod:`benchmarks.bench`, :mod:`benchmarks.echo`): how long until the
presser had an answer, and how long until the bot was done with the press.

The two differ. A press's answer (the redrawn board, a refusal, a deferral) is the first thing
its interaction sends back; what the bot does after it (the ping for the other player, deleting
the last one) no longer keeps the presser waiting. SimCord's ``click`` returns only once the bot
is idle, so the time of the answer is taken where discord.py sends it: :func:`install` wraps the
methods of :class:`discord.InteractionResponse` that answer an interaction, for the benchmark's
process only, and notes the moment the first of them returns.

It counts the database's round trips of each press the same way (:mod:`benchmarks.trips`): in
all, and those made before the answer.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Awaitable
from typing import NamedTuple, TypeVar

import discord

from benchmarks import trips

#: The methods of discord.InteractionResponse that answer an interaction.
ANSWERS = ("send_message", "edit_message", "defer", "send_modal")

Result = TypeVar("Result")
_answered = threading.local()  # per thread: the echoes run on loops of their own
_installed = False


class Press(NamedTuple):
    """One timed press, in seconds."""

    done: float  # until the bot was idle again (SimCord's click returned)
    answered: float  # until the press's first answer was sent
    cpu: float  # the process's CPU time meanwhile
    trips: int = 0  # the database's round trips until the bot was idle again
    trips_answered: int = 0  # those made before the answer was sent


def _noting_answer(answer):
    @functools.wraps(answer)
    async def noted(*args, **kwargs):
        try:
            return await answer(*args, **kwargs)
        finally:
            if getattr(_answered, "at", 0.0) is None:
                _answered.at = time.perf_counter()
                _answered.trips = trips.count()

    return noted


def install() -> None:
    """Note when each press is answered (idempotent)."""
    global _installed
    if not _installed:
        for name in ANSWERS:
            setattr(discord.InteractionResponse, name, _noting_answer(getattr(discord.InteractionResponse, name)))
        _installed = True


async def timed(click: Awaitable[Result]) -> tuple[Result, Press]:
    """Await ``click`` (a SimCord click) and time it; a press never answered counts as answered
    when the click returned."""
    install()
    trips.install()
    _answered.at, _answered.trips = None, None
    started, cpu, trips_before = time.perf_counter(), time.process_time(), trips.count()
    result = await click
    done, trips_after = time.perf_counter(), trips.count()
    answered_trips = trips_after if _answered.trips is None else _answered.trips
    return result, Press(
        done - started,
        (_answered.at or done) - started,
        time.process_time() - cpu,
        trips_after - trips_before,
        answered_trips - trips_before,
    )
