"""User stories: what a group DM, or a server that did not add the bot, shows of a player's games.

Everyone in such a place reads what the bot answers there, so it shows only what was played
there: a game's number (a record, a replay, an analysis, a suggestion as it is typed) finds only
the games of that group DM, or of that server; a player's history, which lists their games from
everywhere (their names, opponents and links), is shown to them alone, whatever ``public`` says.
Only the bot's DM, which its player alone reads, shows all of a player's games by number.

Runs through the ``user_installed`` fixture (tests/cogs/conftest.py): Alice first plays Bob in the
Wari Club as a server that added the bot (the fixture off), then in a group DM of theirs.
"""

from __future__ import annotations

import pytest

from tests.helpers import surrender


@pytest.fixture
def club_game_then_group_dm(world, user_installed):
    """Game #1 was played in the Wari Club (a server that added the bot); the story goes on in
    Alice, Bob and Carol's group DM (another channel, as Discord shows a group DM)."""
    user_installed.active = False
    return user_installed


async def play_club_game(world) -> None:
    board = (await world.alice.slash(world.channel, "wari challenge", opponent=world.bob, first="me")).response
    await world.bob.click(board, label="Accept")
    await surrender(world.bob, world.channel)


async def into_group_dm(world, install):
    """The story's next interactions come from Alice, Bob and Carol's group DM: its channel."""
    channel = world.guild.create_text_channel("group-dm")
    install.active = install.group_dm = True
    install.recipients = (world.alice.id, world.bob.id, world.carol.id)
    return channel


async def play_group_dm_game(world, channel) -> None:
    board = (await world.alice.slash(channel, "wari challenge", opponent=world.bob, first="me")).response
    await world.bob.click(board, label="Accept")
    asked = await world.bob.slash(channel, "wari surrender")
    await world.bob.click(asked.response, label="Surrender")


async def test_in_a_group_dm_a_history_asked_for_everyone_is_shown_to_its_player_alone(world, club_game_then_group_dm):
    await play_club_game(world)
    channel = await into_group_dm(world, club_game_then_group_dm)
    history = await world.alice.slash(channel, "wari history", public=True)
    assert history.ephemeral  # it lists her Wari Club game, with its link: not the group's to read
    assert "#1" in history.response.embeds[0].description
    assert "only to you" in history.response.content
    world.env.raise_errors()


async def test_in_a_group_dm_a_game_of_a_server_is_not_found_by_its_number(world, club_game_then_group_dm):
    await play_club_game(world)
    channel = await into_group_dm(world, club_game_then_group_dm)
    for command, options in (("wari record", {"public": True}), ("wari replay", {}), ("wari analyse", {})):
        refused = await world.alice.slash(channel, command, game=1, **options)
        assert refused.ephemeral and "no game #1 in this conversation" in refused.response.content, command
        assert not refused.response.attachments and not refused.response.embeds, command
    # The group DM's own game is found there.
    await play_group_dm_game(world, channel)
    record = await world.alice.slash(channel, "wari record", game=2, public=True)
    assert not record.ephemeral and record.response.attachments
    world.env.raise_errors()


async def test_in_a_group_dm_the_game_numbers_suggested_are_the_group_dms_own(world, club_game_then_group_dm):
    await play_club_game(world)
    channel = await into_group_dm(world, club_game_then_group_dm)
    await play_group_dm_game(world, channel)
    for command in ("wari record", "wari replay", "wari analyse"):
        offered = await world.alice.autocomplete(channel, command, "game", "")
        assert [choice["value"] for choice in offered] == [2], command
    world.env.raise_errors()


async def test_in_a_server_without_the_bot_a_game_of_another_server_is_not_found_by_its_number(
    world, club_game_then_group_dm
):
    await play_club_game(world)
    other = world.env.create_guild("No bot here")
    channel = other.create_text_channel("play")
    alice = other.add_member(world.alice.user)
    club_game_then_group_dm.active = True  # a server that did not add the bot
    refused = await alice.slash(channel, "wari record", game=1, public=True)
    assert refused.ephemeral and not refused.response.attachments
    assert await alice.autocomplete(channel, "wari record", "game", "") == []
    world.env.raise_errors()


async def test_in_the_bots_dm_every_game_of_its_player_is_found_by_its_number(world, club_game_then_group_dm):
    await play_club_game(world)
    record = await world.alice.user.slash("wari record", game=1)
    assert record.response.attachments  # only she reads her DM
    world.env.raise_errors()
