"""User stories: the app installed to a user, used in a server that has not added the bot. Discord
then sends the interactions alone (the bot is no member, it cannot post): ``/wari`` is offered,
what needs the bot in the server (its queue, its tournaments, its daily puzzle) answers privately
and says where it works, and nothing is posted by the bot itself.

SimCord sends every command as a server install's (``authorizing_integration_owners: {}``): the
``user_installed`` fixture (tests/cogs/conftest.py) wraps its payload builder so that discord.py
sees a command authorised by the user's install alone, as Discord sends it."""

from __future__ import annotations

from bot.storage import SERVER

#: What every refusal of a command that needs a server that added the bot says.
SERVER_ONLY = "works only in a server that has added me"


async def test_in_a_server_without_the_bot_what_needs_it_is_refused_and_said_where_it_works(world, user_installed):
    """Games themselves are played there on interactions alone: tests/cogs/test_interaction_games.py."""
    before = [m.id for m in world.channel.history()]
    for command, options in (
        ("wari seek", {}),
        ("wari tournament list", {}),
        ("wari puzzle daily", {}),
    ):
        refused = await world.alice.slash(world.channel, command, **options)
        assert refused.ephemeral and SERVER_ONLY in refused.response.content, command
    assert await world.env.bot.store.games.live_game(world.channel.id) is None
    assert [m.id for m in world.channel.history() if not m.flags.ephemeral] == before  # the bot posted nothing
    # What needs no server works: the player's own stats and the help, privately.
    stats = await world.alice.slash(world.channel, "wari stats")
    assert stats.ephemeral and stats.response.embeds
    helped = await world.alice.slash(world.channel, "wari help")
    assert helped.ephemeral and helped.response.embeds[0].fields[-1].name == "Outside a server"
    world.env.raise_errors()


async def test_a_server_install_is_still_the_servers(world):
    board = await world.alice.slash(world.channel, "wari play", level="low")
    assert not board.ephemeral
    assert (await world.env.bot.store.games.get_game(1)).venue == SERVER
