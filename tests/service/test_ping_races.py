"""A ping is posted with no lock held, and recorded without a change of the game's version: a
press, a surrender or a read of this process may meet its record half-way. Whatever the order,
the ping of a turn that passed is taken back, and nobody is told that the game changed when only
its pings did. On both back ends, and between two processes on one database (a sweep of one, a
press of the other), where SimCord cannot overlap the two."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import pytest

from bot.service import WariService
from bot.storage import Store

from .players import ALICE, BOB, CHANNEL, T0, game_between

BOARD = 555
#: The messages of the pings the sweeps post here.
ALICE_PING, BOB_PING = 9001, 9002


@pytest.fixture
async def store(database):
    """The database of each back end in turn (overrides the service tests' SQLite file)."""
    store = await Store.open(database)
    yield store
    await store.close()


@pytest.fixture
async def elsewhere(database, store):
    """The game service of another process on the same database (another shard's, a deploy's)."""
    other = await Store.open(database)
    yield WariService(other, rng=random.Random(7))
    await other.close()


async def press(service, table, user_id: int, house: int, now):
    return await service.games.play(
        channel_id=CHANNEL,
        game_id=table.row.id,
        ply=table.game.ply,
        message_id=BOARD,
        user_id=user_id,
        house=house,
        now=now,
    )


async def post_ping(service, game_id: int, message_id: int, now) -> int | None:
    """A sweep of ``service``'s process posts the ping due at ``now`` as ``message_id`` and records it."""
    async with service.pings.due_ping(game_id, CHANNEL, now) as due:
        assert due is not None
        return await service.pings.record_ping(due, message_id)


async def ready_connections(store) -> None:
    """A connection of the pool ready for each of two calls at once, as a busy bot has (on
    PostgreSQL; SQLite has its own for reads and writes): neither waits for one to be made."""
    await asyncio.gather(*(store.games.get_game(0) for _ in range(3)))


async def test_a_ping_another_process_records_while_the_game_is_kept_here_is_taken_back_by_the_move(service, elsewhere):
    table = await service.games.moved_board(await game_between(service), BOARD, T0)  # kept here, no ping yet
    assert await post_ping(elsewhere, table.row.id, ALICE_PING, T0) is None  # Alice is called from there
    moved, _move = await press(service, table, ALICE, 5, T0 + timedelta(minutes=5))  # she plays here
    assert moved.game.ply == 1 and moved.row.ping_message_id == ALICE_PING
    assert await service.pings.passed_ping(moved) == ALICE_PING  # her turn passed: her ping goes


async def test_a_ping_recorded_while_a_press_of_the_same_process_is_saved_is_taken_back_by_the_move(service, store):
    table = await service.games.moved_board(await game_between(service), BOARD, T0)
    now = T0 + timedelta(minutes=5)
    await ready_connections(store)
    async with service.pings.due_ping(table.row.id, CHANNEL, now) as due:
        assert due is not None and due.user_id == ALICE
        # The sweep records Alice's ping while her press is on its way to the database.
        replaced, (moved, _move) = await asyncio.gather(
            service.pings.record_ping(due, ALICE_PING), press(service, table, ALICE, 5, now)
        )
    taken_back = await service.pings.passed_ping(moved)
    stored = await store.games.get_game(table.row.id)
    assert moved.game.ply == 1
    # Either the record came first, and the move takes the ping back; or the move did, and the
    # record, finding the game moved on, says to delete the ping it was to record.
    assert ALICE_PING in (replaced, taken_back) and None in (replaced, taken_back)
    assert stored.ping_message_id in (ALICE_PING, None)


async def test_a_surrender_while_the_next_ping_is_recorded_is_not_told_the_game_changed(service, store):
    table = await service.games.moved_board(await game_between(service), BOARD, T0)
    assert await post_ping(service, table.row.id, ALICE_PING, T0) is None
    moved, _move = await press(service, table, ALICE, 5, T0 + timedelta(minutes=5))
    assert await service.pings.passed_ping(moved) == ALICE_PING  # taken back: forgotten with the next change
    now = T0 + timedelta(minutes=10)  # Bob's turn ping fell due a minute after her move
    await ready_connections(store)
    async with service.pings.due_ping(table.row.id, CHANNEL, now) as due:
        assert due is not None and due.user_id == BOB
        # Bob gives up while the sweep records his ping: his surrender reads the game before the
        # record, and is saved after it.
        ended, replaced = await asyncio.gather(
            service.games.surrender(CHANNEL, BOB, now), service.pings.record_ping(due, BOB_PING)
        )
    assert ended.just_ended and ended.row.result == "A"  # Alice wins
    # His ping is deleted once: with the game's end if it was recorded first, else as its record
    # failed (Alice's was deleted already).
    assert {replaced, await service.pings.last_ping(ended)} == {BOB_PING, None}


async def test_a_read_that_lands_after_a_pings_record_does_not_bring_back_the_ping_it_replaced(service, store):
    table = await service.games.moved_board(await game_between(service), BOARD, T0)
    before = await store.games.get_game(table.row.id)  # a read of the game sent before the record...
    assert before is not None and before.ping_message_id is None
    await post_ping(service, table.row.id, ALICE_PING, T0)
    service.tables.live.keep(before)  # ...whose answer comes after it (the same version)
    kept = service.tables.live.get(table.row.id)
    assert kept is None or kept.row.ping_message_id == ALICE_PING  # read afresh, or as recorded
    moved, _move = await press(service, table, ALICE, 5, T0 + timedelta(minutes=5))
    assert await service.pings.passed_ping(moved) == ALICE_PING
