"""Challenges: who may answer them, until when, and the one a channel can hold."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.engine import Player, rules_for
from bot.service import Closed, Refusal
from bot.storage import ANYONE

from .players import ALICE, BOB, CAROL, CHANNEL, GUILD, NAMES, T0, game_between


async def challenge(service, opponent: int = BOB, *, now=T0, **options):
    return await service.challenges.challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ALICE,
        opponent_id=opponent,
        rules=rules_for("wari"),
        first="me",
        now=now,
        names=(NAMES[ALICE], NAMES.get(opponent)),
        **options,
    )


async def test_a_challenge_expires_at_its_time_once_and_frees_the_channel(service):
    waiting = await challenge(service)
    assert waiting.expires_at == T0 + timedelta(seconds=600)  # the service's timeout
    assert await service.challenges.expire_due(T0 + timedelta(seconds=599)) == []
    assert [c.id for c in await service.challenges.expire_due(T0 + timedelta(seconds=600))] == [waiting.id]
    assert await service.challenges.expire_due(T0 + timedelta(seconds=601)) == []  # removed once
    with pytest.raises(Closed, match="This challenge is no longer open"):
        await service.challenges.accept(waiting.id, BOB, CHANNEL, T0 + timedelta(seconds=601))
    assert (await challenge(service, now=T0 + timedelta(seconds=601))).id != waiting.id  # the channel is free


async def test_a_challenge_cannot_be_accepted_at_its_expiry_even_before_the_sweep_removes_it(service):
    waiting = await challenge(service)
    with pytest.raises(Closed, match="no longer open"):
        await service.challenges.accept(waiting.id, BOB, CHANNEL, waiting.expires_at)
    assert await service.tables.table(CHANNEL) is None


async def test_only_the_challenged_member_answers_and_only_the_challenger_withdraws(service):
    waiting = await challenge(service)
    with pytest.raises(Refusal, match="This challenge is between Alice and Bob"):
        await service.challenges.accept(waiting.id, CAROL, CHANNEL, T0)
    with pytest.raises(Refusal, match="Only Bob can accept or decline"):
        await service.challenges.accept(waiting.id, ALICE, CHANNEL, T0)
    with pytest.raises(Refusal, match="Only the challenger can withdraw"):
        await service.challenges.withdraw(waiting.id, BOB, CHANNEL, T0)
    declined = await service.challenges.decline(waiting.id, BOB, CHANNEL, T0)
    assert declined.id == waiting.id
    with pytest.raises(Closed):
        await service.challenges.accept(waiting.id, BOB, CHANNEL, T0)  # declined is gone


async def test_the_first_mover_is_side_a_whoever_of_the_two_it_is(service):
    """What a rematch relies on: the old B asks with ``first`` that makes them (or keeps them) first."""
    theirs = await game_between(service, ALICE, BOB, first="opponent")
    assert (theirs.row.player_a, theirs.row.player_b) == (BOB, ALICE)
    assert theirs.game.to_move is Player.A and theirs.user_to_move == BOB
    assert theirs.row.names == ("Bob", "Alice")
    mine = await game_between(service, ALICE, BOB, first="me", channel=CHANNEL + 1)
    assert (mine.row.player_a, mine.user_to_move) == (ALICE, ALICE)


async def test_an_open_challenge_is_refused_outside_its_rating_range_and_to_its_own_challenger(service):
    narrow = await challenge(service, ANYONE, rating_range=(1400, 1450))  # a new player is rated 1500
    with pytest.raises(Refusal, match="for players rated 1400–1450 in wari; your rating is 1500"):
        await service.challenges.accept(narrow.id, CAROL, CHANNEL, T0, "Carol")
    with pytest.raises(Refusal, match="your own open challenge"):
        await service.challenges.accept(narrow.id, ALICE, CHANNEL, T0)
    await service.challenges.withdraw(narrow.id, ALICE, CHANNEL, T0)
    wide = await challenge(service, ANYONE, rating_range=(1450, None))
    started = await service.challenges.accept(wide.id, CAROL, CHANNEL, T0, "Carol")
    assert started.row.players == (ALICE, CAROL) and started.row.names == ("Alice", "Carol")


async def test_a_channel_holds_one_challenge_or_one_game_at_a_time(service):
    waiting = await challenge(service)
    with pytest.raises(Refusal, match="already has an open challenge"):
        await challenge(service, CAROL)
    await service.challenges.accept(waiting.id, BOB, CHANNEL, T0)
    with pytest.raises(Refusal, match="This channel already has a game in progress"):
        await challenge(service, CAROL)
    assert (await service.tables.live_table(CHANNEL)).row.players == (ALICE, BOB)
