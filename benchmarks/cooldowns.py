"""The cooldowns (:mod:`bot.limits`) out of the way while a benchmark sets up: it opens hundreds
of games in one server in one simulated instant, which no server does."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator

from bot import limits


@contextlib.contextmanager
def cooldowns_lifted() -> Iterator[None]:
    """Every budget (a member's, a server's, a channel's) out of reach inside the block."""
    saved = dict(limits.LIMITS)
    for name, budget in saved.items():
        limits.LIMITS[name] = dataclasses.replace(
            budget, user=limits.Limit(10**9, budget.user.per), server=limits.Limit(10**9, budget.server.per)
        )
    try:
        yield
    finally:
        limits.LIMITS.clear()
        limits.LIMITS.update(saved)
