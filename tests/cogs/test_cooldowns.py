"""User stories: the commands that draw charts or post messages have cooldowns, per member and
per server; whoever is held back is told privately, in their language, when to try again, and
nothing is posted."""

from __future__ import annotations

import importlib
import re
from datetime import timedelta
from typing import Any

import pytest
from discord import app_commands

from bot import limits
from bot.limits import Budget, Limit
from tests.cogs.command_tree import required_options, slash_commands
from tests.helpers import board_footer, press, start_game, surrender, texts, told

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
    by the presenter) are expected here, and nothing else."""
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
        assert not shown.ephemeral and texts(shown.response)
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
    assert board_footer(board) == "Move 1"


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


async def test_a_member_flooding_puzzle_next_is_answered_every_time_and_told_when_to_try_again(world):
    rate, per = limits.LIMITS["look"].user.rate, limits.LIMITS["look"].user.per
    start = world.env.now()
    results = [await world.alice.slash(world.channel, "wari puzzle next") for _ in range(30)]
    assert all(result.response is not None for result in results)  # never "The application did not respond"
    for result in results[:rate]:  # her puzzle, shown again while it is under way
        assert result.ephemeral and result.response.components
    for result in results[rate:]:
        text = held_back(result)
        assert text.startswith("You are using these commands a lot. Please try again <t:")
        assert again_at(text) == int((start + timedelta(seconds=per)).timestamp())
    assert posted(world.channel) == []


def loaded_cooldowns():
    """The cooldowns module of the bot's cog as loaded now: each load of the extension (a bot of an
    earlier test, a restart) imports the cog's modules afresh, with buckets and classes of their own."""
    return importlib.import_module("cogs.wari.cooldowns")


def limited_commands(bot) -> list[tuple[app_commands.Command, Any]]:
    """Every slash command with a cooldown, wherever it lives in the tree, and its budgets."""
    spending = loaded_cooldowns().Spending
    return [
        (command, check) for command in slash_commands(bot) for check in command.checks if isinstance(check, spending)
    ]


async def test_every_command_with_a_cooldown_answers_a_member_who_used_it_up(world):
    commands = limited_commands(world.env.bot)
    names = {command.qualified_name for command, _check in commands}
    assert {"wari stats", "wari board", "wari puzzle next", "wari puzzle daily", "wari tournament standings"} <= names
    now = world.env.now()
    for command, spending in commands:
        channel = world.guild.create_text_channel(command.qualified_name.replace(" ", "-"))
        for budget in spending.budgets:  # her budgets here, each used up
            with pytest.raises(app_commands.CommandOnCooldown):
                for _ in range(1000):
                    ids = {"user_id": world.alice.id, "guild_id": world.guild.id, "channel_id": channel.id}
                    loaded_cooldowns().spend(world.env.bot, [budget], **ids, now=now.timestamp())
        result = await world.alice.slash(
            channel, command.qualified_name, **required_options(command, member=world.bob, channel=channel)
        )
        text = held_back(result)
        assert text.startswith("You are using these commands a lot. Please try again <t:"), command.qualified_name
        assert posted(channel) == [], command.qualified_name
