"""User stories: Wari in a direct message with the bot. The app is installed to users as well as
servers, so a player may open the bot's DM and play it there, solve puzzles, read their stats and
history, analyse their own games, read the help and the rules, and change their settings; what
needs a server (its queue, its tournaments, its daily puzzle, its leaderboard...) says so, privately,
and where it works. A game in the DM has no server: it is stored as one (``venue`` ``dm``), its board
is text in the player's language, and it never counts in a server's lists."""

from __future__ import annotations

from bot.storage import NO_SERVER
from tests.cogs.command_tree import required_options, slash_commands
from tests.helpers import enabled_houses, press

#: What every answer of a command that needs a server says outside one.
SERVER_ONLY = "works only in a server"
#: What a bug's answer says: never shown for a command used in the DM.
BUG = "Something went wrong"


async def stored_game(world, number: int = 1):
    return await world.env.bot.store.games.get_game(number)


async def test_in_the_bots_dm_a_whole_game_against_the_computer_is_played_across_a_restart(world):
    alice = world.alice.user
    result = await alice.slash("wari play", level="low", variant="kalah", houses=3, seeds=2, first="me")
    assert not result.ephemeral
    board = result.response
    assert board.channel_id == alice.dm_channel.id
    row = await stored_game(world)
    assert (row.venue, row.guild_id, row.channel_id) == ("dm", NO_SERVER, alice.dm_channel.id)
    await press(alice, board, min(enabled_houses(board)))
    assert (await stored_game(world)).version >= 2  # her move and the computer's answer
    await world.restart()  # the buttons carry all a press needs
    for _ in range(100):
        if not (await stored_game(world)).live:
            break
        await press(alice, board, min(enabled_houses(board)))
    row = await stored_game(world)
    assert row.status == "finished" and row.result is not None
    assert enabled_houses(board) == []  # the board shows the end
    world.env.raise_errors()


async def test_every_wari_command_in_the_bots_dm_is_answered_and_the_server_ones_say_where_they_work(world):
    alice = world.alice.user
    visible = alice.available_commands()
    assert "wari play" in visible and not any(name.startswith("wari-mod") for name in visible)
    server_only = {"wari seek", "wari leaderboard", "wari puzzle daily", "wari recap"}
    for command in slash_commands(world.env.bot):
        name = command.qualified_name
        if name.startswith("wari-mod"):
            continue
        if name.startswith("wari tournament"):
            server_only.add(name)
        options = required_options(command, member=alice, channel=alice.dm_channel)
        if name == "wari leaderboard":
            options["scope"] = "server"
        result = await alice.slash(name, **options)
        answers = ([result.response] if result.response else []) + result.followups
        # An answer that shows something, never "This interaction failed".
        assert answers and all(m.content or m.embeds or m.components or m.attachments for m in answers), name
        said = [m.content for m in answers]
        assert not any(BUG in text for text in said), (name, said)
        if name in server_only:
            assert result.ephemeral and any(SERVER_ONLY in text for text in said), (name, said)
    world.env.raise_errors()


async def test_in_the_bots_dm_the_puzzle_stats_history_and_settings_answer_the_player(world):
    alice = world.alice.user
    puzzle = await alice.slash("wari puzzle next")
    assert puzzle.response is not None and puzzle.response.components  # a puzzle's cups to press
    stats = await alice.slash("wari stats")
    assert stats.ephemeral and stats.response.embeds
    settings = await alice.slash("wari settings", language="fr")
    assert settings.ephemeral
    # Her settings now speak French to her, here too.
    rules = await alice.slash("wari rules")
    (embed,) = rules.response.embeds
    assert "Comment jouer" in embed.title, embed.title
    helped = await alice.slash("wari help")
    assert helped.ephemeral and "/wari play" in str([field.value for field in helped.response.embeds[0].fields])
    world.env.raise_errors()


async def test_in_the_bots_dm_history_and_analysis_are_of_ones_own_games(world):
    alice = world.alice.user
    board = (await alice.slash("wari play", level="low", variant="kalah", houses=3, seeds=2, first="me")).response
    for _ in range(100):
        if not (await stored_game(world)).live:
            break
        await press(alice, board, min(enabled_houses(board)))
    history = await alice.slash("wari history")
    assert history.ephemeral and "#1" in history.response.embeds[0].description
    # Someone else's games are theirs to show, not hers.
    other = await alice.slash("wari history", member=world.bob.user)
    assert other.ephemeral and "your own" in other.response.content
    analysed = await alice.slash("wari analyse", game=1, quick=True)
    shown = analysed.response  # its progress, edited into its result once done
    said = (shown.content or "") + "".join(embed.title or "" for embed in shown.embeds)
    assert not analysed.ephemeral and "🔬" in said and "game #1" in said.lower(), said
    # In the server, the DM's game is not the server's to show.
    refused = await world.alice.slash(world.channel, "wari record", game=1)
    assert refused.ephemeral and "#1" in refused.response.content and "📄" not in refused.response.content
    world.env.raise_errors()


async def test_a_game_in_the_bots_dm_and_one_in_a_server_are_played_side_by_side_each_stored_as_its_own(world):
    """The same player, the same day: a game in the DM and one in the server, side by side."""
    alice = world.alice.user
    await alice.slash("wari play", level="low", first="me")
    in_server = await world.alice.slash(world.channel, "wari play", level="low", first="me")
    assert not in_server.ephemeral
    dm_game, server_game = await stored_game(world, 1), await stored_game(world, 2)
    assert dm_game.venue == "dm" and server_game.venue == "server" and server_game.guild_id == world.guild.id
    world.env.raise_errors()
