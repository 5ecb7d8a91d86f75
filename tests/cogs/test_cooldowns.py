"""User stories: the commands that draw charts or post messages have cooldowns, per member and
per server; whoever is held back is told privately, in their language, when to try again, and
nothing is posted."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from discord import app_commands

from bot import limits
from bot.limits import Budget, Limit
from tests.helpers import press, start_game, surrender, told

WHEN = re.compile(r"<t:(\d+):R>")


def posted(channel) -> list[int]:
    return [message.id for message in channel.history()]


def again_at(text: str) -> int:
    """The time a cooldown answer names, in seconds since the epoch."""
    found = WHEN.search(text)
    assert found, text
    return int(found.group(1))


def held_back(result) -> str:
    """The one private answer of a command the cooldown stopped."""
    (answer,) = told(result)
    assert result.ephemeral
    return answer.content


@pytest.fixture(autouse=True)
def cooldowns_only(world):
    """SimCord counts every error a command raises, handled or not: the cooldowns' own (answered
    by the cog) are expected here, and nothing else."""
    yield
    assert all(isinstance(error, app_commands.CommandOnCooldown) for error in world.env.errors)


@pytest.fixture
def small(monkeypatch):
    """Small budgets, to run out of them with a few members."""
    monkeypatch.setitem(limits.LIMITS, "look", Budget(user=Limit(2, 30.0), server=Limit(3, 30.0)))
    monkeypatch.setitem(limits.LIMITS, "game", Budget(user=Limit(2, 60.0), server=Limit(3, 60.0)))


async def test_a_member_asking_for_stats_too_often_is_told_when_to_try_again_and_nothing_is_posted(world):
    rate = limits.LIMITS["look"].user.rate
    per = limits.LIMITS["look"].user.per
    start = world.env.now()
    for _ in range(rate):
        shown = await world.alice.slash(world.channel, "wari stats")  # only for her: the channel is not filled
        assert shown.ephemeral and shown.response.embeds
    before = posted(world.channel)
    refused = await world.alice.slash(world.channel, "wari stats", public=True)
    text = held_back(refused)
    assert text.startswith("You are using these commands a lot. Please try again <t:")
    assert again_at(text) == int((start + timedelta(seconds=per)).timestamp())
    assert posted(world.channel) == before
    # the budget is shared by the commands of its kind: switching command does not help
    assert "Please try again" in held_back(await world.alice.slash(world.channel, "wari leaderboard", public=True))
    assert posted(world.channel) == before
    # another member has a bucket of their own
    assert (await world.bob.slash(world.channel, "wari stats", public=True)).response.embeds

    await world.env.advance_time(per + 1)
    again = await world.alice.slash(world.channel, "wari stats", public=True)
    assert not again.ephemeral and again.response.embeds


async def test_no_member_can_fill_a_channel_with_the_bots_messages(world):
    per_member = limits.LIMITS["post"].user.rate
    await start_game(world)
    start = world.env.now()
    for _ in range(per_member - 1):  # the challenge was the first
        shown = await world.alice.slash(world.channel, "wari board")
        assert not shown.ephemeral and shown.response.embeds
    board = shown.response  # the newest board, the one with the cups
    before = posted(world.channel)
    for command, options in (("wari board", {}), ("wari stats", {"public": True}), ("wari draw", {})):
        text = held_back(await world.alice.slash(world.channel, command, **options))
        assert text.startswith("You are using these commands a lot. Please try again <t:")
        assert again_at(text) == int((start + timedelta(seconds=60)).timestamp())
    assert posted(world.channel) == before
    # what is only for her costs the channel nothing, and another channel has its own budget
    assert (await world.alice.slash(world.channel, "wari stats")).ephemeral
    elsewhere = world.guild.create_text_channel("elsewhere")
    assert not (await world.alice.slash(elsewhere, "wari stats", public=True)).ephemeral
    # the game goes on: presses are not counted
    await press(world.alice, board, 5)
    assert board.embeds[0].footer.text == "Move 1"


async def test_a_crowd_stops_at_the_channels_budget(world, monkeypatch):
    monkeypatch.setitem(limits.LIMITS, "post", Budget(user=Limit(4, 60.0), server=Limit(3, 60.0), per_channel=True))
    members = [world.guild.add_member(world.env.create_user(f"m{n}")) for n in range(4)]
    for member in members[:3]:
        assert not (await member.slash(world.channel, "wari stats", public=True)).ephemeral
    before = posted(world.channel)
    text = held_back(await members[3].slash(world.channel, "wari leaderboard", public=True))
    assert text.startswith("Many people here are using this right now. Please try again <t:")
    assert posted(world.channel) == before
    assert not (await members[3].slash(world.guild.create_text_channel("quiet"), "wari stats", public=True)).ephemeral


async def test_the_rematch_button_spends_the_budget_of_starting_games(world, small):
    board = await start_game(world)  # Alice's challenge: one of her two games a minute
    await surrender(world.bob, world.channel)
    await world.alice.click(board, label="Rematch")
    offer = world.channel.last_message
    assert offer.components and "challenges" in offer.embeds[0].description
    await world.bob.click(offer, label="Decline")
    before = posted(world.channel)
    text = held_back(await world.alice.click(board, label="Rematch"))
    assert text.startswith("You are using these commands a lot. Please try again <t:")
    assert posted(world.channel) == before
    await world.env.advance_time(61)
    await world.alice.click(board, label="Rematch")
    assert posted(world.channel) != before


async def test_a_burst_from_many_members_stops_at_the_servers_budget_and_other_servers_play_on(world, small):
    members = [world.guild.add_member(world.env.create_user(f"m{n}")) for n in range(4)]
    for member in members[:3]:
        assert (await member.slash(world.channel, "wari stats")).response.embeds
    text = held_back(await members[3].slash(world.channel, "wari stats"))
    assert text.startswith("Many people here are using this right now. Please try again <t:")
    assert again_at(text) == int((world.env.now() + timedelta(seconds=30)).timestamp())

    elsewhere = world.env.create_guild("Other Club")
    channel = elsewhere.create_text_channel("games")
    visitor = elsewhere.add_member(world.env.create_user("visitor"))
    assert (await visitor.slash(channel, "wari stats")).response.embeds

    await world.env.advance_time(31)
    assert (await members[3].slash(world.channel, "wari stats")).response.embeds


async def test_a_member_held_back_does_not_use_up_the_servers_budget(world, small):
    for _ in range(2):
        assert (await world.alice.slash(world.channel, "wari history")).response is not None
    for _ in range(5):  # hammering: refused each time, and none of it counts
        assert "Please try again" in held_back(await world.alice.slash(world.channel, "wari history"))
    bob = await world.bob.slash(world.channel, "wari history")
    assert not [answer for answer in told(bob) if "Please try again" in (answer.content or "")]
    assert "Many people here" in held_back(await world.carol.slash(world.channel, "wari history"))


async def test_starting_games_has_a_budget_of_its_own(world, small):
    second = world.guild.create_text_channel("more-games")
    third = world.guild.create_text_channel("even-more")
    board = await world.alice.slash(world.channel, "wari challenge", opponent=world.bob)
    assert not board.ephemeral and board.response.components
    computer = await world.alice.slash(second, "wari play", level="greedy")
    assert not computer.ephemeral and computer.response.components
    before = posted(third)
    text = held_back(await world.alice.slash(third, "wari exhibition", level_a="greedy", level_b="greedy"))
    assert again_at(text) == int((world.env.now() + timedelta(seconds=60)).timestamp())
    assert "Please try again" in held_back(await world.alice.slash(third, "wari seek"))
    assert posted(third) == before
    # looking up stats is another budget
    assert (await world.alice.slash(world.channel, "wari stats")).response.embeds


async def test_the_answer_is_in_the_readers_language(world, small):
    await world.alice.slash(world.channel, "wari settings", language="fr")
    for _ in range(2):
        await world.alice.slash(world.channel, "wari stats")
    text = held_back(await world.alice.slash(world.channel, "wari stats"))
    assert "<t:" in text and "Please try again" not in text
    assert text.startswith("Vous utilisez beaucoup ces commandes")
