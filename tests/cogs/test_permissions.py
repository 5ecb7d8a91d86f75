"""User stories: a game is hosted only where the bot may post what the game will need (pings,
calls, announcements, a picture board); where it may not, the asker is told which permission
is missing, once, and nothing starts."""

import logging

import discord
import pytest
from discord import app_commands

from tests.helpers import board_code, gallery, surrender


@pytest.fixture(autouse=True)
def refusals_only(world):
    """SimCord counts every error a command raises, handled or not: the permission checks' own
    (answered by the cog) are expected here, and nothing else."""
    yield
    assert all(isinstance(error, app_commands.BotMissingPermissions) for error in world.env.errors)


def lacking(world, name: str, **denied: bool):
    """A new channel of the Wari Club where the bot is denied ``denied``."""
    return world.guild.create_text_channel(name, overwrites={world.me: discord.PermissionOverwrite(**denied)})


async def stored_challenges(world) -> int:
    (row,) = await world.env.bot.store.database.read("SELECT COUNT(*) AS n FROM challenges", ())
    return row["n"]


@pytest.mark.parametrize(
    ("denied", "named"),
    [
        ({"send_messages": False}, "**Send Messages**"),
        ({"embed_links": False}, "**Embed Links**"),
        ({"send_messages": False, "embed_links": False}, "**Send Messages**, **Embed Links**"),
    ],
)
async def test_a_challenge_where_the_bot_cannot_post_says_what_is_missing(world, caplog, denied, named):
    channel = lacking(world, "quiet", **denied)
    with caplog.at_level(logging.WARNING, logger="cogs.wari"):
        refused = await world.alice.slash(channel, "wari challenge", opponent=world.bob)
    assert refused.ephemeral
    assert refused.response.content == (
        f"I need these permissions in this channel to host a game here: {named}. Ask a moderator to grant them."
    )
    assert channel.history() == [] and await stored_challenges(world) == 0
    (logged,) = [r for r in caplog.records if "missing permissions" in r.getMessage()]
    assert str(channel.id) in logged.getMessage()


async def test_every_way_to_start_a_game_checks_first_and_the_cooldowns_are_not_spent(world):
    channel = lacking(world, "quiet", send_messages=False)
    for command, options in (
        ("wari play", {"level": "greedy"}),
        ("wari seek", {}),
        ("wari exhibition", {"level_a": "greedy", "level_b": "low"}),
        ("wari challenge", {}),
    ):
        refused = await world.alice.slash(channel, command, **options)
        assert refused.ephemeral and "**Send Messages**" in refused.response.content, command
    assert channel.history() == []
    assert (await world.alice.slash(world.channel, "wari play", level="greedy")).response.components  # elsewhere


async def test_a_picture_board_needs_attach_files_and_the_rematch_button_checks_too(world):
    admins = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True, manage_messages=True))
    admin = world.guild.add_member(world.env.create_user("admin"), roles=[admins])
    channel = lacking(world, "no-files", attach_files=False)
    board = (await world.alice.slash(channel, "wari challenge", opponent=world.bob)).response
    await world.bob.click(board, label="Accept")  # text boards need no files
    assert board_code(board) and not board.attachments and gallery(board) == []
    await surrender(world.bob, channel)
    await admin.slash(world.channel, "wari-mod settings", board="image")
    before = [m.id for m in channel.history()]
    refused = await world.alice.click(board, label="Rematch")
    assert refused.ephemeral and "**Attach Files**" in refused.response.content
    assert [m.id for m in channel.history()] == before
    assert "**Attach Files**" in (await world.alice.slash(channel, "wari play")).response.content


async def test_the_missing_permission_is_named_in_the_readers_language(world):
    channel = lacking(world, "quiet", send_messages=False)
    await world.alice.slash(world.channel, "wari settings", language="fr")
    refused = await world.alice.slash(channel, "wari play")
    assert "**Envoyer des messages**" in refused.response.content, refused.response.content


async def test_a_thread_needs_send_messages_in_threads(world):
    await world.alice.slash(world.channel, "wari challenge", opponent=world.bob, thread=True)
    (thread,) = world.channel.threads
    await world.bob.click(thread.history()[0], label="Accept")
    await surrender(world.bob, thread)
    # the bot may post in threads of #games: a game in its thread starts as anywhere
    assert not (await world.carol.slash(thread, "wari play", level="greedy")).ephemeral
