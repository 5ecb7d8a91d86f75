"""User stories: the Apps menu of a member ("Challenge to Wari") and of a board ("Analyse this
game") do what ``/wari challenge opponent:`` and ``/wari analyse game:`` do, with the same
refusals, named in the reader's language."""

from __future__ import annotations

import discord
import pytest

from bot import limits
from tests.helpers import buttons, press, start_game, surrender

CHALLENGE, ANALYSE = "Challenge to Wari", "Analyse this game"
NOT_A_BOARD = (
    "This message is not a Wari board. Use “Analyse this game” on the board of a finished game, "
    "or `/wari analyse` with its number."
)


async def finished_board(world):
    """Alice's game against Bob, ended by Bob's surrender after one move: its board."""
    board = await start_game(world)
    await press(world.alice, board, 3)
    await surrender(world.bob, world.channel)
    return board


async def challenges(world) -> list[dict]:
    rows = await world.env.bot.store.database.read(
        "SELECT challenger_id, opponent_id, variant, first, clock, rated, thread FROM challenges", ()
    )
    return [dict(row) for row in rows]


# -- Challenge to Wari --------------------------------------------------------------------------


async def test_challenge_to_wari_on_a_member_opens_the_challenge_the_slash_command_opens(world):
    result = await world.alice.context_menu(world.channel, CHALLENGE, world.bob)
    assert not result.ephemeral  # the channel sees it, and Bob is called
    by_menu = result.response
    assert f"<@{world.bob.id}>" in by_menu.content and "Accept" in [b["label"] for b in buttons(by_menu)]
    (challenge,) = await challenges(world)
    assert (challenge["challenger_id"], challenge["opponent_id"]) == (world.alice.id, world.bob.id)
    await world.bob.click(by_menu, label="Decline")
    by_slash = (await world.alice.slash(world.channel, "wari challenge", opponent=world.bob)).response
    (same,) = await challenges(world)  # the declined one is gone
    assert same == challenge  # the slash command's defaults, all of them
    await world.bob.click(by_slash, label="Accept")
    game = await world.env.bot.store.games.live_game(world.channel.id)
    assert {game.player_a, game.player_b} == {world.alice.id, world.bob.id} and game.variant == "wari"


async def test_challenge_to_wari_refuses_yourself_a_bot_and_a_busy_channel_as_the_slash_command_does(world):
    robot = world.guild.add_member(world.env.create_user("robot", bot=True))
    for member in (world.alice, robot):
        by_menu = await world.alice.context_menu(world.channel, CHALLENGE, member)
        by_slash = await world.alice.slash(world.channel, "wari challenge", opponent=member)
        assert by_menu.ephemeral and by_menu.response.content == by_slash.response.content
    await start_game(world)
    busy = await world.carol.context_menu(world.channel, CHALLENGE, world.alice)
    assert (
        busy.ephemeral
        and busy.response.content
        == (await world.carol.slash(world.channel, "wari challenge", opponent=world.alice)).response.content
    )
    assert await challenges(world) == []  # none was made (the game's own was accepted)


async def test_challenge_to_wari_where_the_bot_cannot_post_says_what_is_missing(world):
    mute = world.guild.create_text_channel(
        "mute", overwrites={world.me: discord.PermissionOverwrite(send_messages=False)}
    )
    result = await world.alice.context_menu(mute, CHALLENGE, world.bob)
    assert result.ephemeral and "**Send Messages**" in result.response.content
    assert await challenges(world) == []


async def test_the_menus_spend_the_cooldowns_of_their_slash_commands(world, monkeypatch):
    board = await finished_board(world)
    for budget in ("game", "look"):
        once = limits.Budget(user=limits.Limit(1, 60.0), server=limits.Limit(9, 60.0))
        monkeypatch.setitem(limits.LIMITS, budget, once)
    challenge = (await world.carol.slash(world.channel, "wari challenge", opponent=world.bob)).response
    await world.bob.click(challenge, label="Decline")
    again = await world.carol.context_menu(world.channel, CHALLENGE, world.alice)
    assert again.ephemeral and again.response.content.startswith("You are using these commands a lot.")
    await world.mod.context_menu(world.channel, ANALYSE, board)
    again = await world.mod.slash(world.channel, "wari analyse", game=1)
    assert again.ephemeral and again.response.content.startswith("You are using these commands a lot.")


# -- Analyse this game --------------------------------------------------------------------------


async def test_analyse_this_game_on_a_finished_board_analyses_that_game(world):
    board = await finished_board(world)
    result = await world.carol.context_menu(world.channel, ANALYSE, board)
    assert not result.ephemeral
    assert result.response.embeds[0].title == "🔬 Analysis of game #1"


async def test_analyse_this_game_on_a_live_board_says_privately_that_it_is_still_being_played(world):
    board = await start_game(world)
    result = await world.carol.context_menu(world.channel, ANALYSE, board)
    assert result.ephemeral
    assert result.response.content == "Game #1 is still being played: it can be analysed once it is over."


async def test_analyse_this_game_on_a_message_that_is_no_board_says_so_privately(world):
    said = await world.alice.send(world.channel, "wari:analyse:1 is a button of mine, honest")
    challenge = (await world.alice.slash(world.channel, "wari challenge", opponent=world.bob)).response
    await finished_board_elsewhere(world)
    for message in (said, challenge):
        result = await world.bob.context_menu(world.channel, ANALYSE, message)
        assert result.ephemeral and result.response.content == NOT_A_BOARD


async def finished_board_elsewhere(world) -> None:
    """A finished game #1 in another channel, so that a wrong reading of a message would find it."""
    other = world.guild.create_text_channel("other")
    board = (await world.carol.slash(other, "wari challenge", opponent=world.mod, first="me")).response
    await world.mod.click(board, label="Accept")
    await press(world.carol, board, 3)
    await surrender(world.mod, other)


async def test_analyse_this_game_reads_a_board_laid_out_in_a_container(world):
    """A Components V2 board: its buttons are in rows inside a container."""
    await finished_board(world)
    layout = discord.ui.LayoutView()
    row = discord.ui.ActionRow(discord.ui.Button(label="Rematch", custom_id="wari:rematch:1"))
    layout.add_item(discord.ui.Container(discord.ui.TextDisplay("Game #1"), row))
    posted = await world.env.bot.get_channel(world.channel.id).send(view=layout)
    result = await world.carol.context_menu(world.channel, ANALYSE, posted)
    assert not result.ephemeral and result.response.embeds[0].title == "🔬 Analysis of game #1"


# -- how Discord lists them ---------------------------------------------------------------------


async def test_the_menus_are_offered_in_servers_and_to_users_who_install_the_bot(world):
    """As the bot told Discord: installed to a server or to a user; the challenge where there is
    somebody to challenge (a server, a DM or group DM between people), the analysis anywhere."""
    guild, bot_dm, private_channel = 0, 1, 2
    server_install, user_install = 0, 1
    challenge = world.env.backend.find_command(CHALLENGE, None, discord.AppCommandType.user.value)
    analyse = world.env.backend.find_command(ANALYSE, None, discord.AppCommandType.message.value)
    for menu in (challenge, analyse):
        assert sorted(menu["integration_types"]) == [server_install, user_install]
    assert sorted(challenge["contexts"]) == [guild, private_channel]
    assert sorted(analyse["contexts"]) == [guild, bot_dm, private_channel]


@pytest.mark.parametrize(
    ("locale", "names"),
    [("fr", ("Défier au Wari", "Analyser cette partie")), ("pt-BR", ("Desafiar para Wari", "Analisar esta partida"))],
)
async def test_the_menus_are_named_in_the_readers_language(world, locale, names):
    menus = {command.name: command for command in await world.env.bot.tree.fetch_commands()}
    named = tuple(
        {key.value: text for key, text in menus[name].name_localizations.items()}.get(locale)
        for name in (CHALLENGE, ANALYSE)
    )
    assert named == names
