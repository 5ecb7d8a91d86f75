"""User stories: a ping is posted, then recorded; a ping the database could not record is taken
back, so the sweep that posts it again leaves one ping in the channel, never two."""

import logging

import pytest

from bot.storage import StorageError
from tests.helpers import pinged, pings, press, start_game, stored

# Minutes pass in these stories: SimCord settles the bot at each 30-second sweep on the way.
pytestmark = pytest.mark.simcord(settle_timeout=60)

#: Long enough for a correspondence game's delayed turn ping: its minute, and the sweep that posts it.
PING_WAIT = 95
#: Between two sweeps.
SWEEP = 30


async def test_a_ping_the_database_cannot_record_is_taken_back_and_the_next_sweep_posts_it_once(
    world, monkeypatch, caplog
):
    board = await start_game(world)  # a day a move: correspondence
    await press(world.alice, board, 5)
    store = world.env.bot.store
    record = store.clocks.record_ping
    failures = []

    async def failing_once(game, **columns):
        if not failures:  # the database fails once, then recovers
            failures.append(game.id)
            raise StorageError("cannot write to the database: disk I/O error")
        return await record(game, **columns)

    monkeypatch.setattr(store.clocks, "record_ping", failing_once)
    with caplog.at_level(logging.WARNING):
        # Bob's ping is posted, not recorded, and taken back; still due, the next sweep posts it again.
        await world.env.advance_time(PING_WAIT + SWEEP)
    assert failures == [1]
    (ping,) = pings(world)  # one ping in the channel, as always
    assert pinged(world, ping) == {world.bob.id}
    assert await stored(world, "ping_message_id") == ping.id
    assert "could not record the ping of game 1, so it is taken back" in caplog.text
