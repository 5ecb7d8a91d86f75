"""The members, server, channel and moment of the service tests, and a game between two of them."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.clock import DEFAULT_CLOCK
from bot.engine import rules_for
from bot.service import Table, WariService

T0 = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
GUILD, OTHER_GUILD = 1 << 22, 2 << 22
CHANNEL = 10
ALICE, BOB, CAROL, DAVE = 100, 200, 300, 400
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", DAVE: "Dave"}


async def game_between(
    service: WariService,
    challenger: int = ALICE,
    opponent: int = BOB,
    *,
    first: str = "me",
    rated: bool = True,
    clock: str = DEFAULT_CLOCK,
    variant: str = "wari",
    channel: int = CHANNEL,
) -> Table:
    """The game of ``challenger``'s challenge, accepted by ``opponent`` at :data:`T0`."""
    challenge = await service.challenges.challenge(
        guild_id=GUILD,
        channel_id=channel,
        challenger_id=challenger,
        opponent_id=opponent,
        rules=rules_for(variant),
        first=first,
        now=T0,
        clock=clock,
        names=(NAMES[challenger], NAMES[opponent]),
        rated=rated,
    )
    return await service.challenges.accept(challenge.id, opponent, channel, T0)
