"""User stories: the database goes away while the bot runs, and a server the bot has never seen
(or not since its start) tries it. Every command and press is answered privately that the
database cannot be reached, however early it meets the outage: reading the server's language,
its board style for the permissions a game needs, the member's language. Nothing is posted.

The outage is real on both back ends: a PostgreSQL database that refuses connections and whose
open ones are ended (the session's server runs on for the other tests); a SQLite file whose
connections are closed under the bot, as at a shutdown. Both come back without a restart.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import discord

from bot.storage.database import open_backend
from tests.cogs.command_tree import required_options, slash_commands
from tests.cogs.test_resilience import read_only
from tests.helpers import board_footer, board_title, press, start_game, surrender, told

#: What a command or a press is told while the database cannot be reached.
TROUBLE = "I can't reach my game database right now, so nothing was changed. Please try again in a moment."


@contextlib.asynccontextmanager
async def database_away(world, request) -> AsyncIterator[None]:
    """The bot's database cannot be reached while the block runs; it is back after it."""
    store = world.env.bot.store
    if store.dialect == "sqlite":
        await store.database._backend.close()  # every read and write now fails: "Connection closed"
        try:
            yield
        finally:
            store.database._backend = await open_backend(world.database)
        return
    server = request.getfixturevalue("postgres_cluster")
    name = world.database.partition("?")[0].rpartition("/")[2]
    server.sql(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
    server.sql(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
    try:
        yield
    finally:
        server.sql(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')


def only_told(result) -> str:
    """The one private answer of an interaction, which must be the only thing it said."""
    (answer,) = told(result)
    assert answer.ephemeral
    return answer.content


async def test_a_new_server_is_answered_by_every_command_while_the_database_is_away(world, request):
    club = world.env.create_guild("New Club")
    channel = club.create_text_channel("play")
    admins = club.create_role("Admins", permissions=discord.Permissions(manage_guild=True, manage_messages=True))
    newcomer = club.add_member(world.env.create_user("newcomer"), roles=[admins])
    friend = club.add_member(world.env.create_user("friend"))
    teams = [club.create_role("Lions"), club.create_role("Tigers")]
    commands = slash_commands(world.env.bot)
    assert {"wari challenge", "wari board", "wari puzzle next", "wari-mod tournament create"} <= {
        command.qualified_name for command in commands
    }

    async with database_away(world, request):
        for command in commands:
            options = required_options(command, member=friend, channel=channel, roles=teams)
            result = await newcomer.slash(channel, command.qualified_name, **options)
            assert only_told(result) == TROUBLE, command.qualified_name
        assert [message for message in channel.history() if not message.flags.ephemeral] == []

    challenged = await newcomer.slash(channel, "wari challenge", opponent=friend)  # back: it plays
    assert not challenged.ephemeral and challenged.response.components


async def test_after_a_restart_a_press_during_an_outage_is_answered(world, request):
    board = await start_game(world)
    await world.restart()  # the server's settings are no longer known to the new process
    async with database_away(world, request):
        assert only_told(await press(world.alice, board, 3)) == TROUBLE
        assert only_told(await world.bob.slash(world.channel, "wari board")) == TROUBLE
    await press(world.alice, board, 3)
    assert board_footer(board) == "Move 1"


async def test_a_board_shown_again_when_its_place_cannot_be_saved_is_taken_back(world):
    board = await start_game(world)
    await press(world.alice, board, 3)
    before = [message.id for message in world.channel.history()]
    await read_only(world.env.bot.store, True)  # the board is posted, then its new place cannot be saved
    result = await world.carol.slash(world.channel, "wari board")
    assert only_told(result) == TROUBLE
    assert [message.id for message in world.channel.history()] == before  # nothing was changed, truly
    await read_only(world.env.bot.store, False)
    await press(world.bob, board, 9)  # the game's board is the one it had, and it plays
    assert board_footer(board) == "Move 2"


async def test_the_game_numbers_suggested_while_the_database_is_away_are_none_and_no_bug_is_logged(
    world, request, caplog
):
    board = await start_game(world)
    await surrender(world.bob, world.channel)
    assert (
        board_title(board) == "Wari · game #1 · finished"
    )  # a finished game #1, which the suggestions offer when they can
    assert [choice["value"] for choice in await world.alice.autocomplete(world.channel, "wari record", "game", "")] == [
        1
    ]
    async with database_away(world, request):
        assert await world.alice.autocomplete(world.channel, "wari record", "game", "") == []
    assert world.env.errors == []
    assert not [record for record in caplog.records if record.exc_info], "a traceback was logged"


async def test_a_new_games_board_whose_place_cannot_be_saved_is_taken_back_and_the_answer_says_the_game_started(
    world, monkeypatch
):
    presenter = world.env.bot.get_cog("Wari").presenter
    respond = presenter.respond

    async def respond_then_fill_the_disk(*args, **kwargs):
        shown = await respond(*args, **kwargs)
        await read_only(world.env.bot.store, True)  # the game is stored, then its board's place cannot be
        return shown

    monkeypatch.setattr(presenter, "respond", respond_then_fill_the_disk)
    result = await world.alice.slash(world.channel, "wari play", level="greedy", first="me")
    monkeypatch.setattr(presenter, "respond", respond)
    answer = told(result)[-1]
    assert answer.ephemeral
    assert "nothing was changed" not in answer.content  # the game exists: it would be a lie
    assert "Game #1 has started" in answer.content and "`/wari board`" in answer.content
    assert [m for m in world.channel.history() if m.components] == []  # no board whose buttons cannot play

    await read_only(world.env.bot.store, False)
    shown = await world.alice.slash(world.channel, "wari board")
    await press(world.alice, shown.response, 3)
    assert board_footer(shown.response).startswith("Move")
