"""``/wari seek``'s queue: who is paired with whom, once; who may give up a wait; when it ends."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.engine import rules_for
from bot.service import Closed, Refusal, SeekService

from .players import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD, NAMES, OTHER_GUILD, T0, game_between


@pytest.fixture
def seeks(store) -> SeekService:
    return SeekService(store, timeout=timedelta(minutes=15))


async def seek(seeks, user_id: int, *, variant="wari", clock="1d/move", within=None, guild=GUILD, now=T0):
    return await seeks.seek(
        guild_id=guild,
        channel_id=CHANNEL,
        user_id=user_id,
        user_name=NAMES[user_id],
        rules=rules_for(variant),
        clock=clock,
        within=within,
        now=now,
    )


async def test_a_wait_is_paired_only_with_one_of_the_same_rules_and_clock(seeks):
    assert (await seek(seeks, ALICE))[0] is None
    assert (await seek(seeks, BOB, variant="oware"))[0] is None
    assert (await seek(seeks, CAROL, clock="5+3"))[0] is None
    theirs, mine = await seek(seeks, DAVE)
    assert theirs is not None and theirs.user_id == ALICE and mine.user_id == DAVE
    theirs, _ = await seek(seeks, ALICE, variant="oware")  # Alice's wait was claimed: she may wait again
    assert theirs is not None and theirs.user_id == BOB


async def test_a_wait_is_paired_with_the_oldest_whose_rating_both_ranges_accept(service, seeks):
    await game_between(service, ALICE, BOB)
    await service.games.surrender(CHANNEL, BOB, T0)  # rated: Alice goes up, Bob down, Carol stays new
    alice, bob, carol = [(await service.challenges.rating_of(user, "wari")).points for user in (ALICE, BOB, CAROL)]
    assert alice - carol > 100 and carol - bob > 100 and alice - carol < 300 and carol - bob < 300
    assert (await seek(seeks, ALICE, within=100))[0] is None
    assert (await seek(seeks, BOB, within=None))[0] is None  # Alice's range does not reach Bob
    theirs, _ = await seek(seeks, CAROL, within=300)  # within Carol's range both; only Bob's accepts her
    assert theirs is not None and theirs.user_id == BOB


async def test_one_wait_per_server_given_up_by_its_player_only(seeks):
    _, mine = await seek(seeks, ALICE)
    with pytest.raises(Refusal, match="You are already looking for a game in this server"):
        await seek(seeks, ALICE, variant="oware")
    assert (await seek(seeks, ALICE, guild=OTHER_GUILD))[0] is None  # another server has its own queue
    with pytest.raises(Refusal, match="Only the player who is looking can cancel"):
        await seeks.cancel(mine.id, ALICE, BOB, GUILD)
    with pytest.raises(Closed, match="This search is over"):
        await seeks.cancel(mine.id, ALICE, ALICE, OTHER_GUILD)  # her wait there is another one
    assert (await seeks.cancel(mine.id, ALICE, ALICE, GUILD)).id == mine.id
    with pytest.raises(Closed, match="This search is over"):
        await seeks.cancel(mine.id, ALICE, ALICE, GUILD)


async def test_a_wait_ends_by_itself_after_its_timeout_and_is_then_paired_with_nobody(seeks):
    _, mine = await seek(seeks, ALICE)
    assert await seeks.expire_due(T0 + timedelta(minutes=14)) == []
    assert [s.id for s in await seeks.expire_due(T0 + timedelta(minutes=15))] == [mine.id]
    assert (await seek(seeks, BOB, now=T0 + timedelta(minutes=15)))[0] is None
