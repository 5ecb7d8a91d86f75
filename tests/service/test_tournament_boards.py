"""A tournament game is started by a sweep, not at a board: its clock waits for its first board,
and two processes showing it at once show it once."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.engine import rules_for
from bot.service import Refusal, Table
from bot.service.tournaments import TournamentService

from .players import ALICE, BOB, GUILD, NAMES, T0

THREAD = 40
CLOCK = "1d/move"


@pytest.fixture
def tournaments(store) -> TournamentService:
    return TournamentService(store)


async def first_game(service, tournaments) -> tuple[Table, int]:
    """The one game of a round-robin of Alice and Bob, started at :data:`T0`, and the event's id."""
    event = await tournaments.create(
        guild_id=GUILD,
        channel_id=GUILD,
        created_by=ALICE,
        name="Club night",
        format="round-robin",
        variant="wari",
        clock=CLOCK,
        starts="2026-12-01 18:30",
        rounds=None,
        max_players=None,
        rated=True,
        duration=None,
        cycles=1,
        now=T0,
    )
    for player in (ALICE, BOB):
        await tournaments.join(event.id, user_id=player, name=NAMES[player], now=T0)
    step = await tournaments.start_now(event.id, T0)
    assert step.new_round
    (pairing,) = await tournaments.games_to_start(step.event)
    table = await service.starts.start_tournament_game(
        guild_id=GUILD,
        channel_id=THREAD,
        pairing=pairing,
        names=(NAMES[pairing.first_id], NAMES[pairing.second_id or 0]),
        rules=rules_for("wari"),
        clock=CLOCK,
        rated=True,
        now=T0,
    )
    with pytest.raises(Refusal):  # a second sweep (or process) finds the pairing has its game
        await service.starts.start_tournament_game(
            guild_id=GUILD,
            channel_id=THREAD + 1,
            pairing=pairing,
            names=(None, None),
            rules=rules_for("wari"),
            clock=CLOCK,
            rated=True,
            now=T0,
        )
    return table, event.id


async def test_a_tournament_games_clock_starts_with_its_first_board_not_with_the_game(service, tournaments):
    table, event_id = await first_game(service, tournaments)
    assert (table.row.deadline, table.row.ping_at) == (None, None)  # nobody can see it yet
    assert [t.row.id for t in await tournaments.unseen_games(await tournaments.event(event_id))] == [table.row.id]
    posted = T0 + timedelta(minutes=5)  # the process died, or Discord refused, in between
    started = service.starts.with_clock_started(table, posted)
    assert started.row.deadline == posted + timedelta(days=1)
    assert (await service.tables.live_table(THREAD)).row.deadline is None  # not stored until the board is shown
    shown = await service.starts.first_shown(started, 777, posted)
    assert shown is not None
    stored = await service.tables.live_table(THREAD)
    assert (stored.row.message_id, stored.row.deadline) == (777, posted + timedelta(days=1))
    assert await tournaments.unseen_games(await tournaments.event(event_id)) == []


async def test_when_two_processes_show_the_first_board_the_first_one_stands(service, tournaments):
    table, _ = await first_game(service, tournaments)
    mine = service.starts.with_clock_started(table, T0 + timedelta(minutes=1))
    theirs = service.starts.with_clock_started(table, T0 + timedelta(minutes=2))  # read the same game
    assert await service.starts.first_shown(mine, 701, T0 + timedelta(minutes=1)) is not None
    assert await service.starts.first_shown(theirs, 702, T0 + timedelta(minutes=2)) is None  # takes its message back
    stored = await service.tables.live_table(THREAD)
    assert (stored.row.message_id, stored.row.deadline) == (701, T0 + timedelta(minutes=1, days=1))
